// Package analysis holds the statistics of the experiments: empirical
// distributions, summaries and confidence intervals of sojourn times.
//
// Functions are pure: slices in, numbers out. Inputs are never modified.
// Empty input gives NaN (or nil for distributions) rather than an error;
// NaN values in the input are a caller's mistake and are reported by
// Check. The experiments themselves live in the subpackage experiments.
package analysis
