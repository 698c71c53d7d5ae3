package analysis

import "math"

// Slots describes the cluster a job's ideal run time is measured on.
type Slots struct {
	Nodes       int
	MapSlots    int     // per node
	ReduceSlots int     // per node
	Shuffle     float64 // shuffle bandwidth of a node in bytes/s, split evenly over its reduce slots
}

// IdealRunTime is a job's run time in seconds alone on the empty cluster,
// idealised: every map node-local at its trace duration, no heartbeat
// wait, reduces starting the moment the last map ends. The map phase lasts
// max(longest map, total map time / map slots); each reduce then needs its
// shuffle (its bytes at its slot's share of the node bandwidth) and its
// run time, so the reduce phase lasts max(longest such reduce, their total
// / reduce slots). On nodes of reference speed the replay can do no better,
// so sojourn / IdealRunTime (the slowdown) is at least 1.
//
// maps and reduces are task durations in seconds, shuffle the bytes each
// reduce fetches (same length as reduces). It is NaN when the job has tasks
// of a kind the cluster has no slot for.
func IdealRunTime(maps, reduces []float64, shuffle []int64, c Slots) float64 {
	if len(shuffle) != len(reduces) {
		panic("analysis: IdealRunTime needs one shuffle size per reduce")
	}
	phase := func(work []float64, slots int) float64 {
		if len(work) == 0 {
			return 0
		}
		if slots <= 0 {
			return math.NaN()
		}
		var sum, longest float64
		for _, w := range work {
			sum += w
			longest = max(longest, w)
		}
		return max(longest, sum/float64(slots))
	}
	var red []float64
	if len(reduces) > 0 {
		share := c.Shuffle / float64(max(1, c.ReduceSlots))
		red = make([]float64, len(reduces))
		for i, d := range reduces {
			red[i] = d
			if shuffle[i] > 0 {
				if !(share > 0) {
					return math.NaN()
				}
				red[i] += float64(shuffle[i]) / share
			}
		}
	}
	return phase(maps, c.Nodes*c.MapSlots) + phase(red, c.Nodes*c.ReduceSlots)
}
