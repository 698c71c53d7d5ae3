// Package pools reads the Hadoop 1.x Fair Scheduler's allocation file (the
// XML format, or a one-line-per-pool text form): pools with scheduling
// mode, weight, minimum shares, limits and preemption timeouts, and
// per-user job limits. Errors name the file and line.
package pools
