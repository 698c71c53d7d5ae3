// Package run runs cells: a cell is one replay, a trace under a policy on
// a cluster, whose results (jobs, tasks and occupancy tables as Arrow or
// Parquet files) are written as a set. It is the one code path behind
// bench replay, bench sweep and bench experiment: Replay runs a cell and
// assembles its result metadata, Pool runs many on a fixed number of
// workers, and the outputs are byte-identical whatever that number.
//
// The subpackages orchestrate many cells: sweep runs declarative
// parameter sweeps (resumable, shardable), experiments reproduces the HFSP
// paper's evaluation, and compare compares two sweeps' summaries.
//
//	traces ← replay ← schedulers ← run ← run/sweep, run/experiments ← cmd/bench
package run
