package replay

import (
	"fmt"

	"sojourn/traces"
)

// FloorResult is what Floor did.
type FloorResult struct {
	TaskEvents int64 // launches and finishes: two per task
	Makespan   Time  // when the last task finished
}

// Floor replays tr with only the irreducible work of a replay, the
// reference that the engine's and the policies' speed is stated against
// (make bench, make perf-check): a heap of task completions, each node's
// free map and reduce slots, first-come first-served queues of jobs with
// tasks to launch, and one assignment per freed slot. It has no model:
// no heartbeat, locality, shuffle, node speed, failure or preemption, and
// a job's reduces queue when its maps are done. Its figures are not a
// cluster's; its speed is the floor of any replay of the same tasks.
func Floor(tr *traces.Trace, nodes, mapSlots, reduceSlots int) (FloorResult, error) {
	if nodes < 1 || mapSlots < 1 || reduceSlots < 1 {
		return FloorResult{}, fmt.Errorf("replay: floor needs nodes and slots, got %d nodes of %d+%d", nodes, mapSlots, reduceSlots)
	}
	f := floor{jobs: tr.Jobs, next: make([]int32, len(tr.Jobs)), left: make([]int32, len(tr.Jobs))}
	for n := range nodes {
		for range mapSlots {
			f.idle[Map] = append(f.idle[Map], int32(n))
		}
		for range reduceSlots {
			f.idle[Reduce] = append(f.idle[Reduce], int32(n))
		}
	}
	for arrived := 0; arrived < len(tr.Jobs) || len(f.heap) > 0; {
		if arrived < len(tr.Jobs) && (len(f.heap) == 0 || Seconds(tr.Jobs[arrived].Submit) <= f.heap[0].at) {
			j := int32(arrived)
			arrived++
			f.now = max(f.now, Seconds(tr.Jobs[j].Submit))
			f.left[j] = int32(len(tr.Jobs[j].MapDurations))
			if f.left[j] > 0 {
				f.queue[Map] = append(f.queue[Map], j)
			} else {
				f.queueReduces(j)
			}
			f.assign(Map)
			f.assign(Reduce)
			continue
		}
		c := f.pop()
		f.now = c.at
		f.events++
		f.idle[c.kind] = append(f.idle[c.kind], c.node)
		if c.kind == Map {
			if f.left[c.job]--; f.left[c.job] == 0 {
				f.queueReduces(c.job)
				f.assign(Reduce)
			}
		}
		f.assign(c.kind)
	}
	return FloorResult{TaskEvents: f.events, Makespan: f.now}, nil
}

// floor is Floor's state.
type floor struct {
	jobs   []traces.Job
	now    Time
	events int64
	heap   []completion
	idle   [2][]int32 // a node per free slot of each kind
	queue  [2][]int32 // jobs with tasks of each kind to launch, first come first
	head   [2]int
	next   []int32 // each job's next task to launch (maps, then reduces)
	left   []int32 // each job's maps not finished
}

type completion struct {
	at   Time
	job  int32
	node int32
	kind TaskKind
}

func (f *floor) queueReduces(j int32) {
	f.next[j] = 0
	if len(f.jobs[j].ReduceDurations) > 0 {
		f.queue[Reduce] = append(f.queue[Reduce], j)
	}
}

// assign launches tasks of kind k on free slots while there are both.
func (f *floor) assign(k TaskKind) {
	for len(f.idle[k]) > 0 && f.head[k] < len(f.queue[k]) {
		j := f.queue[k][f.head[k]]
		durations := f.jobs[j].MapDurations
		if k == Reduce {
			durations = f.jobs[j].ReduceDurations
		}
		d := durations[f.next[j]]
		if f.next[j]++; int(f.next[j]) == len(durations) {
			f.head[k]++
		}
		node := f.idle[k][len(f.idle[k])-1]
		f.idle[k] = f.idle[k][:len(f.idle[k])-1]
		f.push(completion{at: f.now + Seconds(d), job: j, node: node, kind: k})
		f.events++
	}
}

func (f *floor) push(c completion) {
	h := append(f.heap, c)
	i := len(h) - 1
	for i > 0 {
		p := (i - 1) / 2
		if h[p].at <= c.at {
			break
		}
		h[i] = h[p]
		i = p
	}
	h[i] = c
	f.heap = h
}

func (f *floor) pop() completion {
	h := f.heap
	top := h[0]
	last := h[len(h)-1]
	h = h[:len(h)-1]
	i := 0
	for {
		l := 2*i + 1
		if l >= len(h) {
			break
		}
		if r := l + 1; r < len(h) && h[r].at < h[l].at {
			l = r
		}
		if last.at <= h[l].at {
			break
		}
		h[i] = h[l]
		i = l
	}
	if len(h) > 0 {
		h[i] = last
	}
	f.heap = h
	return top
}
