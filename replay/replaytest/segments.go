package replaytest

import (
	"fmt"
	"math"
	"strings"
	"testing"

	"sojourn/replay"
	"sojourn/traces"
)

// Segment is the part of a task segment hand-computed tests check: one
// uninterrupted stretch of a task on a node, in seconds.
type Segment struct {
	Job   int32
	Kind  replay.TaskKind
	Task  int32
	Start float64
	Node  int32
	Loc   replay.Locality // maps only; NodeLocal (0) for reduces
	End   float64
}

// Seg is a Segment from its fields in order: job, kind, task, start, node,
// locality (any value for a reduce, conventionally 0) and end.
func Seg(job int32, kind replay.TaskKind, task int32, start float64, node int32, loc replay.Locality, end float64) Segment {
	if kind == replay.Reduce {
		loc = replay.NodeLocal
	}
	return Segment{Job: job, Kind: kind, Task: task, Start: start, Node: node, Loc: loc, End: end}
}

func (s Segment) String() string {
	loc := ""
	if s.Kind == replay.Map {
		loc = " " + s.Loc.String()
	}
	return fmt.Sprintf("job %d %s %d on node %d%s: %g..%g", s.Job, s.Kind, s.Task, s.Node, loc, s.Start, s.End)
}

// Segments lists a run's segments in the order they were recorded (by end
// time).
func Segments(r *replay.Result) []Segment {
	s := &r.Segments
	out := make([]Segment, s.Len())
	for i := range out {
		out[i] = Segment{Job: s.Job[i], Kind: s.Kind[i], Task: s.Task[i], Start: s.Start[i].Sec(),
			Node: s.Node[i], End: s.End[i].Sec()}
		if s.Kind[i] == replay.Map {
			out[i].Loc = s.Locality[i]
		}
	}
	return out
}

// CheckSegments compares a run's segments with the expected ones, in any
// order, and logs the segments it got if they differ.
func CheckSegments(t testing.TB, r *replay.Result, want []Segment) {
	t.Helper()
	got := Segments(r)
	missing := map[Segment]int{}
	for _, w := range want {
		missing[w]++
	}
	for _, g := range got {
		missing[g]--
	}
	bad := false
	for _, w := range append(want, got...) { // in a stable order
		if n := missing[w]; n != 0 {
			bad = true
			if n > 0 {
				t.Errorf("segment %v: expected %d more times", w, n)
			} else {
				t.Errorf("segment %v: %d times more than expected", w, -n)
			}
			missing[w] = 0
		}
	}
	if bad {
		var lines []string
		for _, g := range got {
			lines = append(lines, g.String())
		}
		t.Logf("got:\n%s", strings.Join(lines, "\n"))
	}
}

// RunningAt counts the segments of kind k running at time at (seconds)
// whose job satisfies keep (nil keeps every job).
func RunningAt(r *replay.Result, k replay.TaskKind, at float64, keep func(job int32) bool) int {
	s, n := &r.Segments, 0
	t := replay.Seconds(at)
	for i := range s.Len() {
		if s.Kind[i] == k && s.Start[i] <= t && t < s.End[i] && (keep == nil || keep(s.Job[i])) {
			n++
		}
	}
	return n
}

// CheckFinish checks that job i finished at want[i] seconds (to half a
// microsecond, the engine's clock being in whole microseconds),
// for each i of want; jobs past the end of want are not checked.
func CheckFinish(t testing.TB, r *replay.Result, want ...float64) {
	t.Helper()
	if len(want) > len(r.Jobs) {
		t.Fatalf("%d finish times for %d jobs", len(want), len(r.Jobs))
	}
	for i, w := range want {
		if got := r.Jobs[i].Finish.Sec(); math.Abs(got-w) > 5e-7 {
			t.Errorf("job %d finished at %v, want %v", i, got, w)
		}
	}
}

// Finishes returns each job's finish time in seconds.
func Finishes(r *replay.Result) []float64 {
	out := make([]float64, len(r.Jobs))
	for i := range r.Jobs {
		out[i] = r.Jobs[i].Finish.Sec()
	}
	return out
}

// InPool is a filter for RunningAt: the jobs of tr in pool.
func InPool(tr *traces.Trace, pool string) func(job int32) bool {
	return func(j int32) bool { return tr.Jobs[j].Pool == pool }
}
