// Package synthetic builds the small hand-made workloads of the papers the
// experiments reproduce: HFSP's five-job preemption workload (Section 4.4)
// and its two-job swap-time workload, and the cases of the other papers'
// experiments. Each builder returns a validated trace together with the
// cluster it was run on.
package synthetic
