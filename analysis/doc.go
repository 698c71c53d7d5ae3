// Package analysis holds the statistics of the experiments: empirical
// distributions, summaries, Student-t and bootstrap confidence intervals
// of sojourn times, and the ideal run times that slowdowns divide by.
//
// Functions are pure: slices in, numbers out. Inputs are never modified.
// Empty input gives NaN (or nil for distributions) rather than an error;
// NaN values in the input are a caller's mistake and are reported by
// Check. The experiments themselves live in the subpackage experiments; the
// sweeps of bench sweep in sweep, and bench compare in compare. Bootstrap
// takes its randomness only from the seeded generator it is given.
package analysis
