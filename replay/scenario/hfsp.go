package scenario

import (
	"fmt"

	"sojourn/replay"
	"sojourn/traces"
)

// Uniform is a job of maps tasks of mapDur seconds and reduces tasks of
// redDur seconds (after the shuffle), submitted at submit, with no shuffle
// data; each map reads one HDFS block, as the papers' jobs read their
// input. It is the building block of the papers' micro workloads.
func Uniform(submit float64, maps int, mapDur float64, reduces int, redDur float64) traces.Job {
	j := traces.Job{Submit: submit, Pool: "default", Priority: traces.Normal, MapInputBytes: int64(maps) * blockBytes,
		MapDurations: make([]float64, maps), ReduceDurations: make([]float64, reduces),
		ReduceShuffleBytes: make([]int64, reduces)}
	for i := range j.MapDurations {
		j.MapDurations[i] = mapDur
	}
	for i := range j.ReduceDurations {
		j.ReduceDurations[i] = redDur
	}
	return j
}

// blockBytes is one HDFS block of input, Hadoop 1.x's default 64 MiB.
const blockBytes = 64 << 20

// Build numbers the jobs 0, 1, … in order, stores params in the trace and
// validates it.
func Build(params map[string]string, jobs ...traces.Job) (*traces.Trace, error) {
	tr := &traces.Trace{Params: map[string]string{}}
	for k, v := range params {
		tr.Params[k] = v
	}
	for i, j := range jobs {
		j.ID = int64(i)
		if j.Name == "" {
			j.Name = fmt.Sprintf("j%d", i+1)
		}
		tr.Jobs = append(tr.Jobs, j)
	}
	if err := tr.Validate(); err != nil {
		return nil, err
	}
	return tr, nil
}

// Preemption is the workload of the HFSP paper's Section 4.4 (Figure 7):
// 4 machines with 2 reduce slots each; j1 has 11 reduces of roughly 500 s
// and arrives at 2:20; j2–j5 arrive at 2:30 with one reduce each (two for
// j2), all shorter than j1's. Every job has one 1-s map so that its
// reduce phase follows a (negligible) map phase, as in Hadoop.
func Preemption() (*traces.Trace, replay.Config) {
	j1 := Uniform(140, 1, 1, 11, 500)
	for i := range j1.ReduceDurations {
		j1.ReduceDurations[i] = 480 + 4*float64(i) // "roughly 500 s"
	}
	// The paper gives no task times for j2–j5. These make HFSP with Wait,
	// whose outcome hardly depends on the scheduler, match the paper's
	// 15-minute mean; eager preemption and Kill are then predictions.
	tr, err := Build(map[string]string{"workload": "hfsp-preemption"}, j1,
		Uniform(150, 1, 1, 2, 310), Uniform(150, 1, 1, 1, 360),
		Uniform(150, 1, 1, 1, 410), Uniform(150, 1, 1, 1, 460))
	if err != nil {
		panic("scenario: " + err.Error()) // fixed data: cannot happen
	}
	return tr, replay.Config{Nodes: 4, NodesPerRack: 4, MapSlots: 2, ReduceSlots: 2, Heartbeat: 1}
}

// Swap is the swap-time workload of the HFSP paper's Section 4.4 (Figure
// 8): one TaskTracker with a single reduce slot and a disk of about
// 100 MB/s; j1 has one reduce task holding 6 GB of memory; j2 arrives
// later with one shorter reduce task whose memory footprint is footprint
// bytes, preempts j1 and makes the OS swap out as much of j1 as it needs.
// j1 is swapped back in when j2 ends.
func Swap(footprint int64) (*traces.Trace, replay.Config) {
	j1 := Uniform(0, 1, 1, 1, 600)
	j1.ReduceMemoryBytes = 6 << 30
	j2 := Uniform(60, 1, 1, 1, 60)
	j2.ReduceMemoryBytes = footprint
	tr, err := Build(map[string]string{"workload": "hfsp-swap", "footprint_bytes": fmt.Sprint(footprint)}, j1, j2)
	if err != nil {
		panic("scenario: " + err.Error())
	}
	return tr, replay.Config{Nodes: 1, NodesPerRack: 1, MapSlots: 1, ReduceSlots: 1, Heartbeat: 1,
		DiskBandwidth: 100e6}
}
