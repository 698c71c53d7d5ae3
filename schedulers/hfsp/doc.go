// Package hfsp is the Hadoop Fair Sojourn Protocol (Pastorelli et al.):
// a size-based scheduler that estimates each phase's size from sample
// tasks, ages jobs in a virtual cluster under processor sharing (FSP),
// serves real slots in virtual completion order and preempts reduces.
// FSP is HFSP given the true sizes.
//
// The files: hfsp.go (options, arrival, sizes), estimate.go (sampling and
// re-estimation), assign.go and serve.go (the heartbeat), local.go (delay
// scheduling with locality bitmaps), ledger.go and preempt.go (reduce
// allotments and preemption), fsp.go (FSP).
package hfsp
