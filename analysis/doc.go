// Package analysis holds the statistics of the experiments: empirical
// distributions, summaries, Student-t and bootstrap confidence intervals
// of sojourn times (plain, paired, and block bootstraps of jobs in submit
// order), and the ideal run times that slowdowns divide by.
//
// Functions are pure: slices in, numbers out. Inputs are never modified.
// Empty input gives NaN (or nil for distributions) rather than an error;
// NaN values in the input are a caller's mistake and are reported by
// Check. Bootstrap takes its randomness only from the seeded generator it
// is given. Running replays is not this package's business: the
// experiments, the sweeps of bench sweep and bench compare live under
// sojourn/run.
package analysis
