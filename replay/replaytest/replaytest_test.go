package replaytest_test

import (
	"slices"
	"testing"

	"sojourn/replay"
	"sojourn/replay/replaytest"
)

func minimalFIFO(map[string]string) (replay.Scheduler, error) { return &replay.FIFO{}, nil }

func TestJobBuilder(t *testing.T) {
	tr := replaytest.Trace(t,
		replaytest.Job(0).Pool("a").Maps(2, 10).MapDurations(5).Reduces(2, 3).Shuffle(7, 9).Memory(100),
		replaytest.Job(1.5).Name("late").Maps(1, 1).Reduces(1, 4).ReduceDurations(6).Shuffle(8).ReduceMemory(50))
	a, b := &tr.Jobs[0], &tr.Jobs[1]
	switch {
	case a.ID != 0 || a.Name != "job0" || a.Pool != "a" || a.Submit != 0:
		t.Errorf("job 0: %+v", *a)
	case !slices.Equal(a.MapDurations, []float64{10, 10, 5}) || !slices.Equal(a.ReduceDurations, []float64{3, 3}):
		t.Errorf("job 0 tasks: %v, %v", a.MapDurations, a.ReduceDurations)
	case !slices.Equal(a.ReduceShuffleBytes, []int64{7, 9}) || a.MapMemoryBytes != 100 || a.ReduceMemoryBytes != 100:
		t.Errorf("job 0 shuffle %v, memory %d, %d", a.ReduceShuffleBytes, a.MapMemoryBytes, a.ReduceMemoryBytes)
	case b.ID != 1 || b.Name != "late" || b.Pool != "default" || b.Submit != 1.5:
		t.Errorf("job 1: %+v", *b)
	case !slices.Equal(b.ReduceShuffleBytes, []int64{8, 8}) || b.MapMemoryBytes != 0 || b.ReduceMemoryBytes != 50 || len(b.MapDurations) != 1:
		t.Errorf("job 1 shuffle %v, memory %d, %d", b.ReduceShuffleBytes, b.MapMemoryBytes, b.ReduceMemoryBytes)
	}
	// A builder used twice gives independent jobs.
	jb := replaytest.Job(0).Maps(1, 1)
	x := jb.Obj()
	x.MapDurations[0] = 99
	if jb.Obj().MapDurations[0] != 1 {
		t.Error("Obj shares its slices with the builder")
	}
}

// TestRunAndRecord: the engine's minimal FIFO on one node with one map
// slot and out-of-band heartbeats: job 0's two 10 s maps run 0..10 and
// 10..20, job 1's 5 s map (submitted at 1) 20..25.
func TestRunAndRecord(t *testing.T) {
	tr := replaytest.Trace(t, replaytest.Job(0).Maps(2, 10), replaytest.Job(1).Maps(1, 5))
	s, log := replaytest.Record(replaytest.Build(t, minimalFIFO, nil))
	r := replaytest.Run(t, tr, s, replaytest.OneNode(1, 1))
	replaytest.CheckFinish(t, r, 20, 25)
	if got := replaytest.Finishes(r); !slices.Equal(got, []float64{20, 25}) {
		t.Errorf("finishes %v", got)
	}
	m, loc := replay.Map, replay.NodeLocal
	replaytest.CheckSegments(t, r, []replaytest.Segment{
		replaytest.Seg(0, m, 0, 0, 0, loc, 10), replaytest.Seg(0, m, 1, 10, 0, loc, 20), replaytest.Seg(1, m, 0, 20, 0, loc, 25)})
	if n := replaytest.RunningAt(r, m, 15, nil); n != 1 {
		t.Errorf("%d maps running at 15 s, want 1", n)
	}
	if n := replaytest.RunningAt(r, m, 22, replaytest.InPool(tr, "default")); n != 1 {
		t.Errorf("%d maps of pool default running at 22 s, want 1", n)
	}
	var got []string
	for _, a := range log.Actions {
		got = append(got, a.String())
	}
	want := []string{"0 node 0 launch job 0 map 0", "10 node 0 launch job 0 map 1", "20 node 0 launch job 1 map 0"}
	if !slices.Equal(got, want) || log.Count(replay.TaskStarted) != 3 || log.Count(replay.TaskKilled) != 0 {
		t.Errorf("actions %q, want %q", got, want)
	}
	replaytest.SameJobs(t, "a second run", r, replaytest.Run(t, tr, replaytest.Build(t, minimalFIFO, nil), replaytest.OneNode(1, 1)))
}

type plain struct{ replay.FIFO }

type starter struct{ replay.FIFO }

func (*starter) Start(*replay.View) error { return nil }

type preempter struct{ replay.FIFO }

func (*preempter) WantsBusyHeartbeats(*replay.View) bool { return false }

type both struct{ starter }

func (*both) WantsBusyHeartbeats(*replay.View) bool { return false }

// TestRecordKeepsOptionalInterfaces: the recording wrapper is a Starter or
// a Preempter exactly when the policy it wraps is (a Preempter changes how
// the engine drives a policy, so the wrapper must not pretend).
func TestRecordKeepsOptionalInterfaces(t *testing.T) {
	for _, c := range []struct {
		s              replay.Scheduler
		start, preempt bool
	}{{&plain{}, false, false}, {&starter{}, true, false}, {&preempter{}, false, true}, {&both{}, true, true}} {
		w, _ := replaytest.Record(c.s)
		_, start := w.(replay.Starter)
		_, preempt := w.(replay.Preempter)
		if start != c.start || preempt != c.preempt || w.Name() != c.s.Name() {
			t.Errorf("%T: wrapper is a Starter %v, a Preempter %v, named %q; want %v, %v, %q",
				c.s, start, preempt, w.Name(), c.start, c.preempt, c.s.Name())
		}
	}
}

func TestScripts(t *testing.T) {
	replaytest.RunScripts(t, "testdata/*.txt", map[string]replaytest.Builder{"fifo-minimal": minimalFIFO})
}
