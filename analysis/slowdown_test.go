package analysis

import (
	"math"
	"testing"
)

func TestIdealRunTime(t *testing.T) {
	c := Slots{Nodes: 2, MapSlots: 2, ReduceSlots: 1, Shuffle: 100e6}
	for _, tc := range []struct {
		name    string
		maps    []float64
		reduces []float64
		shuffle []int64
		want    float64
	}{
		{"one map", []float64{30}, nil, nil, 30},
		{"long map dominates", []float64{50, 1, 1, 1}, nil, nil, 50},
		{"waves: 8 maps of 10 s on 4 slots", []float64{10, 10, 10, 10, 10, 10, 10, 10}, nil, nil, 20},
		// Reduce: 200 MB at 100 MB/s (one reduce slot per node) + 5 s.
		{"map then reduce", []float64{10}, []float64{5}, []int64{200e6}, 10 + 2 + 5},
		{"reduce waves", []float64{10}, []float64{4, 4, 4, 4}, []int64{0, 0, 0, 0}, 10 + 8},
	} {
		if got := IdealRunTime(tc.maps, tc.reduces, tc.shuffle, c); math.Abs(got-tc.want) > 1e-12 {
			t.Errorf("%s: %v, want %v", tc.name, got, tc.want)
		}
	}
	if got := IdealRunTime(nil, []float64{1}, []int64{0}, Slots{Nodes: 1, MapSlots: 1}); !math.IsNaN(got) {
		t.Errorf("a reduce on a cluster without reduce slots: %v, want NaN", got)
	}
}
