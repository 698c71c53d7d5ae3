// Package versus compares two policies replayed on the same workloads
// (bench versus): per workload, metric and job class, the paired relative
// change candidate ÷ baseline − 1 with a bootstrap interval (over whole
// seeds where each seed generated a workload, over blocks of submit-time
// windows where every seed replayed one trace), and a verdict in plain
// words.
package versus
