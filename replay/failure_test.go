package replay

import (
	"math"
	"strings"
	"testing"

	"sojourn/traces"
)

// TestNodeFailuresRequeueWork: with failures, attempts on failed nodes are
// lost and run again elsewhere; every job still finishes and the busy slot
// time grows by exactly the lost work.
func TestNodeFailuresRequeueWork(t *testing.T) {
	// 1,400 maps of 30 s keep the 40 map slots busy for about 1,000 s, so
	// some of the ~30 expected failures must hit running tasks.
	var jobs = make([]float64, 700)
	for i := range jobs {
		jobs[i] = 30
	}
	tr := mkTrace(t, jobSpec(0, jobs, []float64{200, 200}, 1e6, 1<<30), jobSpec(5, jobs, []float64{100}, 1e6, 1<<30))
	base := mustRun(t, tr, &FIFO{}, Config{Nodes: 10, Seed: 4})
	fail := mustRun(t, tr, &FIFO{}, Config{Nodes: 10, Seed: 4, MTBF: 300, MTTR: 50})
	var lost int32
	for _, j := range fail.Jobs {
		lost += j.Lost
	}
	if lost == 0 || fail.LostWork == 0 {
		t.Fatalf("no attempt lost with MTBF 300 s on 10 nodes (lost work %v)", fail.LostWork)
	}
	if base.LostWork != 0 {
		t.Fatalf("lost work %v without failures", base.LostWork)
	}
	// Lost attempts are paid for on top of the work itself, so busy slot
	// time cannot shrink (re-runs may also land less local).
	if fail.BusySlotTime < base.BusySlotTime {
		t.Fatalf("busy time %v with failures < %v without", fail.BusySlotTime, base.BusySlotTime)
	}
	s := &fail.Segments
	lostSegs := 0
	for i := 0; i < s.Len(); i++ {
		if s.Outcome[i] == OutcomeLost {
			lostSegs++
		}
	}
	if lostSegs == 0 {
		t.Fatal("no segment ends lost")
	}
	// The counts of events add up to the total.
	st := fail.Stats
	if st.NodeChanges == 0 || st.Arrivals != 2 || st.Events != st.Heartbeats+st.TaskEnds+st.Arrivals+st.NodeChanges {
		t.Errorf("events %d, want heartbeats %d + task ends %d + arrivals %d + node changes %d",
			st.Events, st.Heartbeats, st.TaskEnds, st.Arrivals, st.NodeChanges)
	}
}

// TestNodeSpeed: a node twice as fast runs a task in half its trace time;
// locality factors and speed compose.
func TestNodeSpeed(t *testing.T) {
	tr := mkTrace(t, jobSpec(0, []float64{10}, nil, 0, 0))
	tr.Jobs[0].ReduceDurations, tr.Jobs[0].ReduceShuffleBytes = []float64{}, []int64{}
	r := mustRun(t, tr, &FIFO{}, Config{Nodes: 1, MapSlots: 1, Heartbeat: 1, NodeSpeeds: []float64{2}})
	if got := r.Jobs[0].Finish.Sec(); math.Abs(got-5) > 1e-9 {
		t.Fatalf("10 s map on a speed-2 node ends at %v, want 5", got)
	}
}

// TestInvalidActionsAreErrors: the engine refuses a launch on a full node
// with an error naming the policy, time and task.
func TestInvalidActionsAreErrors(t *testing.T) {
	tr := mkTrace(t, jobSpec(0, []float64{10, 10}, nil, 0, 0))
	tr.Jobs[0].ReduceDurations, tr.Jobs[0].ReduceShuffleBytes = []float64{}, []int64{}
	_, err := Run(tr, greedy{}, Config{Nodes: 1, MapSlots: 1, Heartbeat: 1})
	if err == nil {
		t.Fatal("overcommitting a slot was accepted")
	}
	want := "policy test-greedy at 0.000000s on node 0: job 0 map 1: launch with no free map slot"
	if got := err.Error(); !strings.Contains(got, want) {
		t.Fatalf("error %q does not say %q", got, want)
	}
}

// greedy launches every pending map on the first node, ignoring slots.
type greedy struct{}

func (greedy) Name() string         { return "test-greedy" }
func (greedy) OnEvent(Event, *View) {}
func (greedy) OnHeartbeat(hb *Heartbeat) error {
	for i := int32(0); i < 2; i++ {
		if err := hb.Launch(TaskRef{Job: 0, Kind: Map, Index: i}); err != nil {
			return err
		}
	}
	return nil
}

// TestCalendarThroughLostAttempts: on a cluster big enough for the
// calendar queues, which load the records behind a bucket's task ends
// before they come up, attempts lost to failures leave stale task ends
// behind, some of them of tasks whose new attempt, on a faster node, has
// finished (and left its node idle) or whose job is done and let go by
// then. The replay goes through them, every job finishes and the lost
// work is counted, as on a small cluster.
func TestCalendarThroughLostAttempts(t *testing.T) {
	const nodes = 700 // 4,200 slots: calendars
	speeds := make([]float64, nodes)
	for i := range speeds {
		speeds[i] = []float64{0.5, 1, 3}[i%3]
	}
	var specs []traces.Job
	for i := range 40 {
		maps := make([]float64, 50+i%7*20)
		for m := range maps {
			maps[m] = float64(20 + (i*7+m*13)%200)
		}
		specs = append(specs, jobSpec(float64(i*15), maps, []float64{30, 60}, 1e6, 1<<30))
	}
	tr := mkTrace(t, specs...)
	r := mustRun(t, tr, &FIFO{}, Config{Nodes: nodes, Seed: 2, MTBF: 3000, MTTR: 100, NodeSpeeds: speeds})
	if r.LostWork == 0 {
		t.Fatal("no attempt lost: the test needs failures that hit running tasks")
	}
	if len(r.Jobs) != len(tr.Jobs) {
		t.Fatalf("%d jobs in the result, want %d", len(r.Jobs), len(tr.Jobs))
	}
}
