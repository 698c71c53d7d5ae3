package replay

import (
	"errors"
	"strings"
	"testing"

	"sojourn/traces"
)

// Node failures far more frequent than the tasks are long: every attempt
// is lost before it ends, and the run stops with ErrNoProgress instead of
// heartbeating to the horizon; with rare failures the same trace finishes.
func TestChurnUnderFailuresStops(t *testing.T) {
	tr := &traces.Trace{Jobs: []traces.Job{
		{ID: 1, Submit: 0, MapDurations: []float64{300, 300}, ReduceDurations: []float64{}, ReduceShuffleBytes: []int64{}},
		{ID: 2, Submit: 5, MapDurations: []float64{200}, ReduceDurations: []float64{}, ReduceShuffleBytes: []int64{}},
	}}
	_, err := Run(tr, &FIFO{}, Config{Nodes: 4, MTBF: 10, MTTR: 5, Seed: 1})
	if !errors.Is(err, ErrNoProgress) || !strings.Contains(err.Error(), "node failures (MTBF 10 s)") ||
		!strings.Contains(err.Error(), "job ids 1, 2") {
		t.Fatalf("MTBF 10 s with tasks of 300 s: %v", err)
	}
	r, err := Run(tr, &FIFO{}, Config{Nodes: 4, MTBF: 2000, MTTR: 5, Seed: 1})
	if err != nil || len(r.Jobs) != 2 {
		t.Fatalf("MTBF 2000 s: %v", err)
	}
}
