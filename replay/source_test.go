package replay

import (
	"io"
	"math"
	"math/rand/v2"
	"reflect"
	"testing"

	"sojourn/traces"
)

// sliceSource hands out a trace's jobs one by one, copying each, as a
// file reader does.
type sliceSource struct {
	jobs []traces.Job
	next int
}

func (s *sliceSource) Len() int { return len(s.jobs) }

func (s *sliceSource) Next(j *traces.Job) error {
	if s.next == len(s.jobs) {
		return io.EOF
	}
	*j = s.jobs[s.next]
	j.MapDurations = append([]float64{}, j.MapDurations...)
	s.next++
	return nil
}

// mixedTrace has small and indexed jobs, reduces and a node-failing
// cluster in mind: every path of the engine.
func mixedTrace(t testing.TB, n int) *traces.Trace {
	rng := rand.New(rand.NewPCG(3, 3))
	var jobs []traces.Job
	at := 0.0
	for i := range n {
		maps := make([]float64, 1+int(math.Exp(rng.NormFloat64()*1.5+1.5))%400)
		for k := range maps {
			maps[k] = 5 + 40*rng.Float64()
		}
		var reds []float64
		if i%2 == 0 {
			reds = []float64{20 + 60*rng.Float64(), 30}
		}
		at += rng.ExpFloat64() * 8
		jobs = append(jobs, jobSpec(at, maps, reds, 40e6, 1<<29))
	}
	return mkTrace(t, jobs...)
}

// TestSourceMatchesTrace: a replay reading its jobs one at a time from a
// Source gives the results of the replay of the trace in memory, with and
// without node failures, and lets finished jobs go.
func TestSourceMatchesTrace(t *testing.T) {
	tr := mixedTrace(t, 300)
	for _, cfg := range []Config{
		{Nodes: 30, Seed: 5},
		{Nodes: 12, Seed: 6, MTBF: 500, MTTR: 60, SpeedSigma: 0.3},
	} {
		cfg.RecordTasks, cfg.RecordOccupancy = true, true
		want, err := Run(tr, &FIFO{}, cfg)
		if err != nil {
			t.Fatal(err)
		}
		e, err := NewFromSource(&sliceSource{jobs: tr.Jobs}, &FIFO{}, cfg)
		if err != nil {
			t.Fatal(err)
		}
		got, err := e.Run()
		if err != nil {
			t.Fatal(err)
		}
		if !reflect.DeepEqual(got, want) {
			t.Fatalf("results from a source differ from the trace's (config %+v)", cfg)
		}
		for i := range e.jobs {
			if e.jobs[i].tj != nil || e.jobs[i].recs[Map] != nil || e.jobs[i].recs[Reduce] != nil {
				t.Fatalf("job %d keeps its trace or tasks after the run", i)
			}
		}
	}
}

// TestSourceEndsEarly: a source with fewer jobs than it declared is an
// error, not a hang.
func TestSourceEndsEarly(t *testing.T) {
	tr := mixedTrace(t, 10)
	src := &shortSource{sliceSource{jobs: tr.Jobs}}
	e, err := NewFromSource(src, &FIFO{}, Config{Nodes: 5, Seed: 1})
	if err != nil {
		t.Fatal(err)
	}
	if _, err := e.Run(); err == nil {
		t.Fatal("no error from a source that ends early")
	}
}

type shortSource struct{ sliceSource }

func (s *shortSource) Len() int { return len(s.jobs) + 1 }

// TestScaledRoundTrip: the shortcut of scaled is exact, Seconds(w.Sec())
// is w for times below 2^50 µs.
func TestScaledRoundTrip(t *testing.T) {
	rng := rand.New(rand.NewPCG(8, 8))
	for i := 0; i < 1_000_000; i++ {
		w := Time(rng.Int64N(1 << (10 + i%41)))
		if got := Seconds(w.Sec() * 1 / 1); got != w {
			t.Fatalf("Seconds(%d µs in seconds) = %d", w, got)
		}
	}
}
