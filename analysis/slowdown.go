package analysis

import "math"

// Slots describes the cluster a job's ideal run time is measured on.
type Slots struct {
	Nodes       int
	MapSlots    int     // per node
	ReduceSlots int     // per node
	Shuffle     float64 // shuffle bandwidth of a node in bytes/s, split evenly over its reduce slots
	// Speed is the fastest node's speed relative to the reference node
	// (task run times are divided by it); 0 means 1.
	Speed float64
	// MapTasks and ReduceTasks, when above 0, replace Nodes × MapSlots and
	// Nodes × ReduceSlots as the tasks of each kind the cluster runs at
	// once: a heterogeneous cluster's total, or the containers of the
	// job's size its nodes hold.
	MapTasks, ReduceTasks int
}

// IdealRunTime is a job's run time in seconds alone on the empty cluster,
// idealised: every node as fast as the fastest (Speed), every map
// node-local at its trace duration / Speed, no heartbeat wait, reduces
// starting the moment the last map ends. The map phase lasts
// max(longest map, total map time / map slots) / Speed; each reduce then
// needs its shuffle (its bytes at its slot's share of the node bandwidth)
// and its run time / Speed, so the reduce phase lasts max(longest such
// reduce, their total / reduce slots). The replay can do no better on any
// of its nodes, so sojourn / IdealRunTime (the slowdown) is at least 1.
//
// maps and reduces are task durations in seconds, shuffle the bytes each
// reduce fetches (same length as reduces). It is NaN when the job has tasks
// of a kind the cluster has no slot for.
func IdealRunTime(maps, reduces []float64, shuffle []int64, c Slots) float64 {
	if len(shuffle) != len(reduces) {
		panic("analysis: IdealRunTime needs one shuffle size per reduce")
	}
	speed := c.Speed
	if speed == 0 {
		speed = 1
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
	mapTasks, redTasks := c.Nodes*c.MapSlots, c.Nodes*c.ReduceSlots
	if c.MapTasks > 0 {
		mapTasks = c.MapTasks
	}
	if c.ReduceTasks > 0 {
		redTasks = c.ReduceTasks
	}
	var red []float64
	if len(reduces) > 0 {
		share := c.Shuffle / float64(max(1, c.ReduceSlots))
		red = make([]float64, len(reduces))
		for i, d := range reduces {
			red[i] = d / speed
			if shuffle[i] > 0 {
				if !(share > 0) {
					return math.NaN()
				}
				red[i] += float64(shuffle[i]) / share
			}
		}
	}
	return phase(maps, mapTasks)/speed + phase(red, redTasks)
}
