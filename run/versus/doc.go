// Package versus compares two policies replayed on the same workloads
// (bench versus): per workload, metric and job class, the paired relative
// change candidate ÷ baseline − 1 with a bootstrap interval, and a verdict
// in plain words.
package versus
