// Package fair is the Hadoop 1.x Fair Scheduler (contrib/fairscheduler):
// pools with weights, minimum shares and job limits, fair sharing of slots
// between and within pools, delay scheduling for locality, and optional
// kill preemption for pools starved of their minimum or fair share.
package fair
