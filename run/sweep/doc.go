// Package sweep runs declarative parameter sweeps (bench sweep): a JSON
// file names workloads, policies, parameters and seeds, and their
// cartesian product is a list of cells, each one replay, numbered in an
// order that depends on the file alone.
//
// A run executes the cells on every core, each into its own directory
// that is renamed into place when complete, so an interrupted run resumes
// by skipping the directories that exist. A shard (i/n: the cells whose
// index is i modulo n) runs one part of a sweep, for Kubernetes Indexed
// Jobs and Slurm job arrays; Merge joins the shards' directories, and the
// merged directory is byte-identical to an unsharded run's. summary.json
// holds every cell's figures and the per-job values bench compare
// resamples.
package sweep
