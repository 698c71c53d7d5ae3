// Package vcluster is HFSP's virtual cluster: jobs age under max-min fair
// processor sharing of a number of slots, each capped at its parallelism,
// and the cluster keeps them in order of their (projected) virtual
// completion. It is pure: times are float64 seconds, sizes slot-seconds,
// and ties are broken by job id.
package vcluster
