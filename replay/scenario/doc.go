// Package scenario holds the papers' hand-made scenarios: a small workload
// together with the cluster it was run on. It has HFSP's five-job
// preemption workload (Section 4.4) and its two-job swap-time workload,
// the backfilling paper's three cases and Disco's research and production
// jobs. Each builder returns a validated trace and its replay.Config, so
// the trace format (traces/) stays free of the replay model.
package scenario
