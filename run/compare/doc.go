// Package compare compares two sweep summaries, a baseline and a
// candidate (bench compare): for each workload, policy and parameter
// combination present in both, the relative change of each metric (mean,
// median and p95 sojourn, mean slowdown, node-local fraction of maps) with
// a seeded bootstrap confidence interval, and a verdict against a
// threshold. Report.Markdown renders it for a CI job summary.
package compare
