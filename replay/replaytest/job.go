package replaytest

import (
	"fmt"
	"testing"

	"sojourn/traces"
)

// JobBuilder builds one trace job; its methods set a field and return the
// builder, so a job reads as one expression:
//
//	replaytest.Job(10).Pool("research").Maps(4, 30).Reduces(1, 60)
type JobBuilder struct {
	job      traces.Job
	shuffle  []int64 // one value for every reduce, or one per reduce
	inputSet bool
}

// BlockBytes is the input a built job's map reads unless Input says
// otherwise: one HDFS block, so that its maps have locality.
const BlockBytes = 128 << 20

// Job starts a job submitted at submit seconds, in pool "default", with
// no tasks.
func Job(submit float64) *JobBuilder {
	return &JobBuilder{job: traces.Job{Submit: submit, Pool: "default"}}
}

// Input sets the bytes the job's maps read in all (default BlockBytes per
// map). Input(0) makes a job without input data, whose maps have no
// locality.
func (b *JobBuilder) Input(bytes int64) *JobBuilder {
	b.job.MapInputBytes, b.inputSet = bytes, true
	return b
}

// Rigid makes the job rigid: its maps form one gang.
func (b *JobBuilder) Rigid() *JobBuilder { b.job.Rigid = true; return b }

// Pool sets the pool (or user) the job is submitted to.
func (b *JobBuilder) Pool(p string) *JobBuilder { b.job.Pool = p; return b }

// Name sets the job's name (Trace names unnamed jobs job0, job1, …).
func (b *JobBuilder) Name(n string) *JobBuilder { b.job.Name = n; return b }

// Priority sets the job's Hadoop priority.
func (b *JobBuilder) Priority(p traces.Priority) *JobBuilder { b.job.Priority = p; return b }

// Class sets the job's class label.
func (b *JobBuilder) Class(c string) *JobBuilder { b.job.Class = c; return b }

// Maps adds n map tasks of d seconds each.
func (b *JobBuilder) Maps(n int, d float64) *JobBuilder {
	b.job.MapDurations = append(b.job.MapDurations, Same(n, d)...)
	return b
}

// MapDurations adds one map task per duration, in seconds.
func (b *JobBuilder) MapDurations(d ...float64) *JobBuilder {
	b.job.MapDurations = append(b.job.MapDurations, d...)
	return b
}

// Reduces adds n reduce tasks of d seconds each (after their shuffle).
func (b *JobBuilder) Reduces(n int, d float64) *JobBuilder {
	b.job.ReduceDurations = append(b.job.ReduceDurations, Same(n, d)...)
	return b
}

// ReduceDurations adds one reduce task per duration, in seconds.
func (b *JobBuilder) ReduceDurations(d ...float64) *JobBuilder {
	b.job.ReduceDurations = append(b.job.ReduceDurations, d...)
	return b
}

// Shuffle sets the bytes each reduce fetches: one value for every reduce,
// or one value per reduce. Without it reduces shuffle nothing.
func (b *JobBuilder) Shuffle(bytes ...int64) *JobBuilder { b.shuffle = bytes; return b }

// Memory sets the memory footprint of each map and each reduce, in bytes.
func (b *JobBuilder) Memory(bytes int64) *JobBuilder {
	b.job.MapMemoryBytes, b.job.ReduceMemoryBytes = bytes, bytes
	return b
}

// MapMemory sets the memory footprint of each map, in bytes.
func (b *JobBuilder) MapMemory(bytes int64) *JobBuilder { b.job.MapMemoryBytes = bytes; return b }

// ReduceMemory sets the memory footprint of each reduce, in bytes.
func (b *JobBuilder) ReduceMemory(bytes int64) *JobBuilder { b.job.ReduceMemoryBytes = bytes; return b }

// Obj returns the job. Its slices are fresh copies, so the builder may be
// used again.
func (b *JobBuilder) Obj() traces.Job {
	j := b.job
	if !b.inputSet {
		j.MapInputBytes = int64(len(j.MapDurations)) * BlockBytes
	}
	j.MapDurations = append([]float64(nil), j.MapDurations...)
	j.ReduceDurations = append([]float64(nil), j.ReduceDurations...)
	j.ReduceShuffleBytes = make([]int64, len(j.ReduceDurations))
	switch len(b.shuffle) {
	case 0:
	case 1:
		for i := range j.ReduceShuffleBytes {
			j.ReduceShuffleBytes[i] = b.shuffle[0]
		}
	default:
		copy(j.ReduceShuffleBytes, b.shuffle)
	}
	return j
}

// Same returns n copies of d.
func Same(n int, d float64) []float64 {
	s := make([]float64, n)
	for i := range s {
		s[i] = d
	}
	return s
}

// Trace builds the jobs in order, numbers them 0, 1, … (their IDs),
// names the unnamed ones job0, job1, … and fails the test if the trace
// does not validate (jobs must come in submit order).
func Trace(t testing.TB, jobs ...*JobBuilder) *traces.Trace {
	t.Helper()
	js := make([]traces.Job, len(jobs))
	for i, b := range jobs {
		if len(b.shuffle) > 1 && len(b.shuffle) != len(b.job.ReduceDurations) {
			t.Fatalf("job %d: %d shuffle sizes for %d reduces", i, len(b.shuffle), len(b.job.ReduceDurations))
		}
		js[i] = b.Obj()
	}
	return TraceOf(t, js...)
}

// TraceOf is Trace for jobs built some other way.
func TraceOf(t testing.TB, jobs ...traces.Job) *traces.Trace {
	t.Helper()
	tr := &traces.Trace{Params: map[string]string{}}
	for i, j := range jobs {
		j.ID = int64(i)
		if j.Name == "" {
			j.Name = fmt.Sprintf("job%d", i)
		}
		tr.Jobs = append(tr.Jobs, j)
	}
	if err := tr.Validate(); err != nil {
		t.Fatal(err)
	}
	return tr
}
