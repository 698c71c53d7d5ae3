package replay

import (
	"testing"

	"sojourn/traces"
)

// The floor on hand-computed traces: one map slot serves A's two maps and
// then B's; a reduce starts when its job's maps are done; two nodes run
// side by side.
func TestFloorHandComputed(t *testing.T) {
	for _, c := range []struct {
		name                     string
		jobs                     []traces.Job
		nodes, maps, reduces     int
		wantMakespan, wantEvents float64
	}{
		{"fcfs", []traces.Job{{Submit: 0, MapDurations: []float64{10, 20}}, {Submit: 5, MapDurations: []float64{1}}}, 1, 1, 1, 31, 6},
		{"reduce after maps", []traces.Job{{Submit: 0, MapDurations: []float64{10, 4}, ReduceDurations: []float64{5, 5}}}, 1, 2, 1, 20, 8},
		{"two nodes", []traces.Job{{Submit: 0, MapDurations: []float64{10, 10, 10}}, {Submit: 1, MapDurations: []float64{3}}}, 2, 1, 1, 20, 8},
		{"idle gap", []traces.Job{{Submit: 0, MapDurations: []float64{1}}, {Submit: 100, ReduceDurations: []float64{2}}}, 1, 1, 1, 102, 4},
	} {
		r, err := Floor(&traces.Trace{Jobs: c.jobs}, c.nodes, c.maps, c.reduces)
		if err != nil {
			t.Fatal(err)
		}
		if r.Makespan.Sec() != c.wantMakespan || float64(r.TaskEvents) != c.wantEvents {
			t.Errorf("%s: makespan %v s, %d task events; want %v s, %v", c.name, r.Makespan.Sec(), r.TaskEvents, c.wantMakespan, c.wantEvents)
		}
	}
	if _, err := Floor(&traces.Trace{}, 0, 1, 1); err == nil {
		t.Error("no nodes accepted")
	}
}
