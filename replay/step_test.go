package replay

import (
	"errors"
	"reflect"
	"testing"
)

// TestStepMatchesRun steps a run one event at a time and requires the same
// results as Run, event count included, and a clock that never goes back.
func TestStepMatchesRun(t *testing.T) {
	tr := mixedTrace(t, 12)
	cfg := Config{Nodes: 3, MapSlots: 2, ReduceSlots: 1, Seed: 7, RecordTasks: true, RecordOccupancy: true}
	want := mustRun(t, tr, &FIFO{}, cfg)

	e, err := New(tr, &FIFO{}, cfg)
	if err != nil {
		t.Fatal(err)
	}
	steps, last := 0, Time(-1)
	for {
		more, err := e.Step()
		if err != nil {
			t.Fatal(err)
		}
		steps++
		if e.Now() < last {
			t.Fatalf("step %d: clock went back from %v to %v", steps, last, e.Now())
		}
		last = e.Now()
		if !more {
			break
		}
	}
	if !e.Done() {
		t.Fatal("Step said no more, Done says jobs remain")
	}
	got, err := e.Run()
	if err != nil {
		t.Fatal(err)
	}
	if !reflect.DeepEqual(got, want) {
		t.Fatalf("stepped result differs from Run's: %+v\nwant %+v", got.Stats, want.Stats)
	}
	if int64(steps) < got.Stats.Events {
		t.Errorf("%d steps for %d events: a step processes one queue entry", steps, got.Stats.Events)
	}
	if _, err := e.Run(); err == nil {
		t.Error("a second Run succeeded")
	}
}

// TestRunUntil stops at given times, looks at the cluster through the
// view, and still ends with Run's results. Between stops, the number of
// tasks running is what the recorded segments say.
func TestRunUntil(t *testing.T) {
	tr := mixedTrace(t, 12)
	cfg := Config{Nodes: 3, MapSlots: 2, ReduceSlots: 1, Seed: 7, RecordTasks: true, RecordOccupancy: true}
	want := mustRun(t, tr, &FIFO{}, cfg)

	e, err := New(tr, &FIFO{}, cfg)
	if err != nil {
		t.Fatal(err)
	}
	busyStops := 0
	for _, at := range []float64{0, 5, 5, 61.5, 200, 900} {
		stop := Seconds(at)
		if err := e.RunUntil(stop); err != nil {
			t.Fatal(err)
		}
		if e.Now() > stop {
			t.Fatalf("RunUntil(%v) processed an event at %v", stop, e.Now())
		}
		if e.Done() {
			break
		}
		// Segments are [start, end): a task counts as running at stop if it
		// started at or before stop and ends after it.
		running := 0
		s := &want.Segments
		for i := range s.Len() {
			if s.Start[i] <= stop && stop < s.End[i] {
				running++
			}
		}
		v := e.View()
		got := 0
		for j := range v.Jobs() {
			jv := v.Job(int32(j))
			got += jv.Running(Map) + jv.Running(Reduce)
		}
		if got > 0 {
			busyStops++
		}
		if got != running {
			t.Errorf("at %v: %d tasks running in the view, %d in the segments", stop, got, running)
		}
	}
	if busyStops < 3 {
		t.Fatalf("only %d stops saw tasks running: the test checks little", busyStops)
	}
	got, err := e.Run()
	if err != nil {
		t.Fatal(err)
	}
	if !reflect.DeepEqual(got, want) {
		t.Fatal("result after RunUntil stops differs from Run's")
	}
}

// TestStepHorizon: stepping past the horizon is an error wrapping
// ErrHorizon, as Run's is.
func TestStepHorizon(t *testing.T) {
	tr := mixedTrace(t, 4)
	e, err := New(tr, &FIFO{}, Config{Nodes: 1, MapSlots: 1, ReduceSlots: 1, Horizon: 30})
	if err != nil {
		t.Fatal(err)
	}
	for {
		more, err := e.Step()
		if err != nil {
			if !errors.Is(err, ErrHorizon) {
				t.Fatalf("error %v, want ErrHorizon", err)
			}
			return
		}
		if !more {
			t.Fatal("the run finished within a 30 s horizon")
		}
	}
}

// namedAtStart is a policy that learns its name when it starts, as an
// external one does from its handshake.
type namedAtStart struct {
	FIFO
	name string
}

func (p *namedAtStart) Name() string { return p.name }
func (p *namedAtStart) Start(*View) error {
	p.name = "started"
	return nil
}

// TestStart: Start starts the policy before the first event, so that a
// caller knows what it settles then; the run that follows gives Run's
// results, and a second Start is an error.
func TestStart(t *testing.T) {
	tr := mixedTrace(t, 12)
	cfg := Config{Nodes: 3, MapSlots: 2, ReduceSlots: 1, Seed: 7}
	want := mustRun(t, tr, &FIFO{}, cfg)
	p := &namedAtStart{name: "new"}
	e, err := New(tr, p, cfg)
	if err != nil {
		t.Fatal(err)
	}
	if err := e.Start(); err != nil {
		t.Fatal(err)
	}
	if p.Name() != "started" || e.Stats().Events != 0 {
		t.Fatalf("after Start: name %q, %d events", p.Name(), e.Stats().Events)
	}
	if err := e.Start(); err == nil {
		t.Error("a second Start succeeded")
	}
	got, err := e.Run()
	if err != nil {
		t.Fatal(err)
	}
	if got.Scheduler != "started" || !reflect.DeepEqual(got.Jobs, want.Jobs) {
		t.Errorf("run after Start: scheduler %q, jobs equal to Run's: %v", got.Scheduler, reflect.DeepEqual(got.Jobs, want.Jobs))
	}
}
