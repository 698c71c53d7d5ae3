// Package formats brings workloads in other formats into sojourn's trace
// format and takes traces back out: CSV job and task tables, the Standard
// Workload Format (SWF v2.2), the YARN Scheduler Load Simulator's JSON
// trace (SLS) and Alibaba's cluster-trace-v2018 batch_task.csv.
//
// An Importer reads its source as a stream and hands out one job at a
// time (Next), so that a trace of any length is imported with the memory
// of one job (Alibaba's tables aside, whose jobs are spread over the
// file). Every job keeps its provenance: the trace's import.source
// parameter names the file and each job's SourceLine its line. A bad
// value stops the import with an *Error naming the file, the line and the
// field, and what was expected.
//
// Export writes a trace in the CSV, SWF or SLS format; importing what it
// writes gives back the fields each format can hold, exactly.
package formats
