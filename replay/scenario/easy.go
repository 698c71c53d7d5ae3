package scenario

import (
	"fmt"
	"math"

	"sojourn/replay"
	"sojourn/traces"
)

// The three cases of the two-level (EASY backfilling) scheduler paper's
// Section 4 (Sudha Sadasivam and Anjali, 2010). The paper gives each job's
// input size in MB and its pool "5 map and 5 reduce slots", but neither
// task counts nor durations, so they are chosen here: a job of s MB has
// ⌈s⌉ maps, one per MB of input, each running 1 s per MB it reads (so the
// last map of a 2.5 MB job runs 0.5 s), and one reduce of 1 s. The pool is
// the whole cluster: 5 nodes in one rack with one map and one reduce slot
// each, heartbeats every 0.1 s and out-of-band heartbeats, so that the
// seconds-long jobs are not dominated by heartbeat waits; every node holds
// a replica of every block (the inputs are a few MB), so locality plays
// no part. Every job is in
// pool "default" at NORMAL priority; a job's name is its size ("2.5MB").
//
// The paper's pools gave each job as many slots as it had tasks; run the
// easy policy with job-share = 1 for that.

// BackfillJob is a job of sizeMB megabytes of input submitted at submit
// seconds, with the task counts and durations described above.
func BackfillJob(submit, sizeMB float64) traces.Job {
	maps := int(math.Ceil(sizeMB))
	j := Uniform(submit, maps, 1, 1, 1)
	if frac := sizeMB - float64(maps-1); frac < 1 {
		j.MapDurations[maps-1] = frac
	}
	j.Name = fmt.Sprintf("%gMB", sizeMB)
	j.MapInputBytes = int64(sizeMB * (1 << 20))
	return j
}

// BackfillConfig is the cluster of the backfilling cases.
func BackfillConfig() replay.Config {
	return replay.Config{Nodes: 5, NodesPerRack: 5, MapSlots: 1, ReduceSlots: 1, Replication: 5,
		Heartbeat: 0.1, OutOfBandHeartbeat: true}
}

func backfill(name string, jobs ...traces.Job) (*traces.Trace, replay.Config) {
	tr, err := Build(map[string]string{"workload": "backfill-" + name}, jobs...)
	if err != nil {
		panic("scenario: " + err.Error()) // fixed data: cannot happen
	}
	return tr, BackfillConfig()
}

// BackfillEqual is Case 1 (Table 1): four jobs of 2.5 MB submitted
// together. The paper finds both schedulers take about the same time.
func BackfillEqual() (*traces.Trace, replay.Config) {
	return backfill("equal", BackfillJob(0, 2.5), BackfillJob(0, 2.5), BackfillJob(0, 2.5), BackfillJob(0, 2.5))
}

// BackfillMedium is Case 2 (Table 2): jobs of 1, 2, 2.5 and 2 MB,
// submitted together in that order. The paper reports that backfilling
// runs a 2 MB job before the 2.5 MB job; without backfilling the 2.5 MB job
// ends first, so it was ahead in the queue (Table 2 numbers the jobs 1, 2,
// 2 and 2.5 MB).
func BackfillMedium() (*traces.Trace, replay.Config) {
	return backfill("medium", BackfillJob(0, 1), BackfillJob(0, 2), BackfillJob(0, 2.5), BackfillJob(0, 2))
}

// BackfillSmall is Case 3 (Table 3): "initially two small sized jobs
// (1 MB), 1 job of size 2.5 MB and 1 job of size 3.5 MB", submitted
// together in that order, then "later during execution" (here at 1 s) a
// job of 1 MB. The paper reports that the first two small jobs finish
// first and that the third small job is considered after the 2.5 MB job.
// (Table 3 numbers the jobs 3.5, 1, 2.5, 1 and 1 MB.)
func BackfillSmall() (*traces.Trace, replay.Config) {
	return backfill("small", BackfillJob(0, 1), BackfillJob(0, 1), BackfillJob(0, 2.5), BackfillJob(0, 3.5), BackfillJob(1, 1))
}
