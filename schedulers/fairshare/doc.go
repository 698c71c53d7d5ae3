// Package fairshare computes the Hadoop Fair Scheduler's fair shares:
// water-filling of slots among schedulables with weights, minimum shares
// and demands (FairShares, as Hadoop's binary search does it, and
// ExactFairShares), and the priority weights of Hadoop's job priorities.
// It is pure: no engine, no I/O.
package fairshare
