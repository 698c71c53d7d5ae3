// Package results stores what a replay produced as Arrow IPC files, and
// converts them to Parquet (for DuckDB, polars, pandas with pyarrow) or
// CSV (for anything):
//
//   - jobs.arrow: one row per job (the run's policy, seed and workload,
//     submit, phase ends, sojourn times, kills, suspensions, locality of
//     its maps);
//   - tasks.arrow: one row per task segment (an uninterrupted stretch of an
//     attempt on a slot), with its node, times, swap time and outcome;
//   - occupancy.arrow: a per-job slot occupancy time series.
//
// Every time is in seconds from the start of the workload. Every file
// carries the schema version, its kind, the policy, the seed and the
// cluster and trace parameters in its schema metadata. Columns lists each
// schema with units. Files are written atomically.
//
// With Format Parquet (bench --format parquet) the same tables are written
// as jobs.parquet, tasks.parquet and occupancy.parquet, converted from the
// Arrow files by ToParquet with the metadata kept; with Format CSV as
// jobs.csv, tasks.csv and occupancy.csv by ToCSV (RFC 4180, a header row,
// no metadata). ReadJobs and ReadTasks read the Arrow files back.
package results
