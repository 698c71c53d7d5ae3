// Package traces defines sojourn's workload format: one self-contained
// Arrow IPC file per workload, one row per job, with per-task durations
// at reference speed so that a trace replays on any cluster.
//
// Write stores a Trace atomically; Read loads and validates one, refusing a
// bad file with a single error that names the file, the row (counted from 0)
// and the column. Column meanings and units are listed in Columns and in
// docs/workloads.md.
package traces
