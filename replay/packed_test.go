package replay

import (
	"math"
	"math/rand/v2"
	"reflect"
	"testing"

	"sojourn/traces"
)

// TestPackRoundTrip: packed task lists read back exactly as the trace
// gave them, in as few bytes as their largest whole-millisecond value
// needs, and as float64 bits when a duration is not whole milliseconds.
func TestPackRoundTrip(t *testing.T) {
	for _, c := range []struct {
		name       string
		maps, reds []float64
		shuffle    []int64
		w          [3]uint8
		ms         [2]bool
	}{
		{"one byte", []float64{0, 0.001, 0.255}, []float64{}, []int64{}, [3]uint8{1, 1, 1}, [2]bool{true, true}},
		{"ms widths", []float64{12.345, 65.535, 3}, []float64{65.536, 1}, []int64{0, 256}, [3]uint8{2, 3, 2}, [2]bool{true, true}},
		{"long", []float64{4294967.295, 4294967.296}, []float64{86400}, []int64{1 << 40}, [3]uint8{5, 4, 6}, [2]bool{true, true}},
		{"not ms", []float64{0.30000000000000004, 7}, []float64{1.0005}, []int64{math.MaxInt64}, [3]uint8{8, 8, 8}, [2]bool{false, false}},
		{"beyond ms", []float64{traces.MaxSeconds}, []float64{2}, []int64{3}, [3]uint8{8, 2, 1}, [2]bool{false, true}},
	} {
		tj := traces.Job{MapDurations: c.maps, ReduceDurations: c.reds, ReduceShuffleBytes: c.shuffle}
		p := pack(&tj)
		if p.w != c.w || [2]bool{p.ms[pkMaps], p.ms[pkReduces]} != c.ms {
			t.Errorf("%s: widths %v, ms %v; want %v, %v", c.name, p.w, p.ms[:2], c.w, c.ms)
		}
		var got traces.Job
		p.unpack(&got)
		if !reflect.DeepEqual(got.MapDurations, c.maps) || !reflect.DeepEqual(got.ReduceDurations, c.reds) ||
			!reflect.DeepEqual(got.ReduceShuffleBytes, c.shuffle) {
			t.Errorf("%s: unpacked %v %v %v; want %v %v %v", c.name,
				got.MapDurations, got.ReduceDurations, got.ReduceShuffleBytes, c.maps, c.reds, c.shuffle)
		}
	}
}

// arrivalReader asks for job 0's trace when it arrives and, when job 40
// arrives, for the first packed job's, as a policy may.
type arrivalReader struct {
	FIFO
	later *traces.Job
	asked int32 // the job asked for later, -1 before
}

func (a *arrivalReader) OnEvent(ev Event, v *View) {
	if ev.Kind == JobArrived && ev.Job == 0 {
		_ = v.Job(0).Trace()
	}
	if ev.Kind == JobArrived && ev.Job == 40 {
		for i := range v.e.jobs[:40] {
			if v.e.jobs[i].pk != nil {
				a.asked, a.later = int32(i), v.Job(int32(i)).Trace()
				break
			}
		}
	}
	a.FIFO.OnEvent(ev, v)
}

// TestSourcePacksWaitingJobs: a run from a Source keeps the task lists
// of the jobs submitted packDelay ago or earlier and waiting packed,
// hands a policy that asks for such a job's trace the whole of it, and
// gives the results of the run of the trace in memory.
func TestSourcePacksWaitingJobs(t *testing.T) {
	rng := rand.New(rand.NewPCG(9, 9))
	var jobs []traces.Job
	at := 0.0
	for i := range 80 {
		maps := make([]float64, 1+rng.IntN(60))
		for k := range maps {
			maps[k] = float64(int64(5000+40000*rng.Float64())) / 1000 // whole ms
		}
		reds := []float64{float64(int64(20000+60000*rng.Float64())) / 1000}
		at += rng.ExpFloat64() * 20
		j := jobSpec(at, maps, reds, int64(i)<<20, 1<<29)
		jobs = append(jobs, j)
	}
	tr := mkTrace(t, jobs...)
	cfg := Config{Nodes: 4, Seed: 2, RecordTasks: true}
	want, err := Run(tr, &FIFO{}, cfg)
	if err != nil {
		t.Fatal(err)
	}
	pol := &arrivalReader{asked: -1}
	e, err := NewFromSource(&sliceSource{jobs: tr.Jobs}, pol, cfg)
	if err != nil {
		t.Fatal(err)
	}
	if err := e.RunUntil(Seconds(tr.Jobs[60].Submit)); err != nil {
		t.Fatal(err)
	}
	packed := 0
	for i := range 60 {
		j := &e.jobs[i]
		if j.done || int32(i) == pol.asked || tr.Jobs[i].Submit+packDelay.Sec() > tr.Jobs[60].Submit {
			continue
		}
		if j.pk == nil || j.tj.MapDurations != nil {
			t.Fatalf("waiting job %d keeps its task lists unpacked", i)
		}
		packed++
	}
	if packed < 20 {
		t.Fatalf("%d jobs waiting at %v; the test wants a backlog", packed, e.Now())
	}
	if pol.asked < 0 {
		t.Fatal("no job packed when job 40 arrived")
	}
	if w := &tr.Jobs[pol.asked]; !reflect.DeepEqual(pol.later.MapDurations, w.MapDurations) ||
		!reflect.DeepEqual(pol.later.ReduceDurations, w.ReduceDurations) ||
		!reflect.DeepEqual(pol.later.ReduceShuffleBytes, w.ReduceShuffleBytes) {
		t.Fatalf("a waiting job's trace asked for after its arrival is not the trace's")
	}
	got, err := e.Run()
	if err != nil {
		t.Fatal(err)
	}
	if !reflect.DeepEqual(got, want) {
		t.Fatal("results from a source with packed task lists differ from the trace's")
	}
}
