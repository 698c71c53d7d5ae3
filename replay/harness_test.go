package replay

import (
	"cmp"
	"fmt"
	"slices"
	"testing"

	"sojourn/traces"
)

// jobSpec builds a trace job from durations in seconds.
func jobSpec(submit float64, maps []float64, reduces []float64, shuffle int64, mem int64) traces.Job {
	// One block of input per map, so that maps have locality.
	j := traces.Job{Submit: submit, MapDurations: maps, ReduceDurations: reduces,
		MapMemoryBytes: mem, ReduceMemoryBytes: mem, Pool: "default", MapInputBytes: int64(len(maps)) << 27}
	j.ReduceShuffleBytes = make([]int64, len(reduces))
	for i := range reduces {
		j.ReduceShuffleBytes[i] = shuffle
	}
	return j
}

// mkTrace numbers jobs in order and validates the trace.
func mkTrace(t testing.TB, jobs ...traces.Job) *traces.Trace {
	t.Helper()
	tr := &traces.Trace{Params: map[string]string{}}
	for i, j := range jobs {
		j.ID = int64(i)
		j.Name = fmt.Sprintf("job%d", i)
		tr.Jobs = append(tr.Jobs, j)
	}
	if err := tr.Validate(); err != nil {
		t.Fatal(err)
	}
	return tr
}

// mustRun replays with the invariant checker on and fails the test on error.
func mustRun(t testing.TB, tr *traces.Trace, s Scheduler, cfg Config) *Result {
	t.Helper()
	cfg.NoInvariantChecks = false
	cfg.RecordTasks, cfg.RecordOccupancy = true, true
	r, err := Run(tr, s, cfg)
	if err != nil {
		t.Fatal(err)
	}
	checkResult(t, r)
	return r
}

// checkResult checks properties every result must have, independently of
// the engine's own checker: segments never overlap on a node beyond its
// slot capacity, and segment lengths add up to the busy slot time.
func checkResult(t testing.TB, r *Result) {
	t.Helper()
	s := &r.Segments
	type point struct {
		at   Time
		d    int
		kind TaskKind
		node int32
	}
	var total Time
	pts := make([]point, 0, 2*s.Len())
	for i := 0; i < s.Len(); i++ {
		if s.End[i] < s.Start[i] {
			t.Fatalf("segment %d ends at %v before it starts at %v", i, s.End[i], s.Start[i])
		}
		total += s.End[i] - s.Start[i]
		pts = append(pts, point{s.Start[i], 1, s.Kind[i], s.Node[i]}, point{s.End[i], -1, s.Kind[i], s.Node[i]})
	}
	if total != r.BusySlotTime {
		t.Fatalf("segments sum to %v, result says busy %v", total, r.BusySlotTime)
	}
	// Sweep over starts and ends; at equal times, ends first.
	slices.SortFunc(pts, func(a, b point) int {
		if c := cmp.Compare(a.at, b.at); c != 0 {
			return c
		}
		return cmp.Compare(a.d, b.d)
	})
	use := map[[2]int32]int{}
	for _, p := range pts {
		key := [2]int32{p.node, int32(p.kind)}
		use[key] += p.d
		capacity := r.Config.MapSlots
		if p.kind == Reduce {
			capacity = r.Config.ReduceSlots
		}
		if use[key] > capacity {
			t.Fatalf("node %d runs %d %ss at %v, capacity %d", p.node, use[key], p.kind, p.at, capacity)
		}
	}
}

// newestReduce is a test policy: maps FIFO, reduce slots to the newest job
// with reduce work, preempting older jobs' reduces on the node by
// suspending (or killing) them; suspended tasks resume when no newer job
// wants the slot.
type newestReduce struct {
	FIFO
	kill bool
}

func (p *newestReduce) Name() string {
	if p.kill {
		return "test-newest-reduce-kill"
	}
	return "test-newest-reduce-suspend"
}

func (p *newestReduce) WantsBusyHeartbeats(v *View) bool { return v.Demand(Reduce) > 0 }

func (p *newestReduce) OnHeartbeat(hb *Heartbeat) error {
	n := hb.Node()
	for hb.Free(Map) > 0 {
		launched := false
		for _, j := range p.active {
			if t, _, ok := hb.PendingMap(j, n, OffRack); ok {
				if err := hb.Launch(TaskRef{j, Map, t}); err != nil {
					return err
				}
				launched = true
				break
			}
		}
		if !launched {
			break
		}
	}
	for i := len(p.active) - 1; i >= 0; i-- {
		j := p.active[i]
		for {
			var act func(TaskRef) error
			var t TaskRef
			if s, ok := suspendedOf(hb, j); ok {
				act, t = hb.Resume, s
			} else if idx, ok := hb.PendingReduce(j); ok {
				act, t = hb.Launch, TaskRef{j, Reduce, idx}
			} else {
				break
			}
			if hb.Free(Reduce) == 0 {
				victim, ok := olderRunningReduce(hb, p.active[:i])
				if !ok {
					return nil
				}
				var err error
				if p.kill || !hb.CanSuspend() {
					err = hb.Kill(victim)
				} else {
					err = hb.Suspend(victim)
				}
				if err != nil {
					return err
				}
			}
			if err := act(t); err != nil {
				return err
			}
		}
	}
	return nil
}

func suspendedOf(hb *Heartbeat, j int32) (TaskRef, bool) {
	for _, s := range hb.SuspendedHere() {
		if s.Job == j && s.Kind == Reduce {
			return s, true
		}
	}
	return TaskRef{}, false
}

func olderRunningReduce(hb *Heartbeat, older []int32) (TaskRef, bool) {
	for _, r := range hb.Running() {
		if r.Kind != Reduce {
			continue
		}
		for _, o := range older {
			if r.Job == o {
				return r, true
			}
		}
	}
	return TaskRef{}, false
}
