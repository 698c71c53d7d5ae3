package disco

import (
	"slices"

	"sojourn/replay"
)

// Disco's indexes: what pick and victimOf would otherwise find by walking
// every active job, or every task of a job, at each heartbeat or kill.
//
// pick's three rules each look for the first active job (in arrival order,
// which is job order) of some set, or the least loaded one:
//
//   - between: the jobs inTransition can find between phases (with
//     reduces, no pending map, not done); for the others it returns false
//     at once, without side effects.
//   - unserved[k]: the jobs never served a slot of kind k that have a task
//     of that kind to launch.
//   - cands[k]: the jobs with a task of kind k to launch, by running tasks
//     of that kind, then job.
//
// They are brought up to date from the View (refresh) after every event
// of a job and after every launch and kill of a heartbeat, whose events
// the engine delivers only after the heartbeat.

// refresh recomputes job j's membership of the indexes.
func (d *Disco) refresh(v *replay.View, j int32) {
	jv := v.Job(j)
	jb := &d.jobs[j]
	for k := replay.Map; k <= replay.Reduce; k++ {
		l := jb.active && jv.Launchable(k)
		d.cands[k].set(&jb.pos[k], j, l, int32(jv.Running(k)))
		discoMember(&d.unserved[k], &jb.unserved[k], j, l && !jb.served[k])
	}
	discoMember(&d.between, &jb.between, j, jb.active && jv.Tasks(replay.Reduce) > 0 && jv.Pending(replay.Map) == 0)
}

// discoMember puts j in or out of the sorted set s, whose membership flag
// for j is in.
func discoMember(s *[]int32, in *bool, j int32, want bool) {
	if *in == want {
		return
	}
	*in = want
	i, _ := slices.BinarySearch(*s, j)
	if want {
		*s = slices.Insert(*s, i, j)
	} else {
		*s = slices.Delete(*s, i, i+1)
	}
}

// discoHeap is an indexed min-heap of jobs by (running tasks, job); each
// job's position (plus one; 0 when absent) is kept by the caller.
type discoHeap struct {
	es  []discoEntry
	pos func(j int32) *int32
}

type discoEntry struct{ run, job int32 }

func (a discoEntry) less(b discoEntry) bool {
	return a.run < b.run || a.run == b.run && a.job < b.job
}

// top is the job with the fewest running tasks (the earliest on ties), -1
// if the heap is empty.
func (h *discoHeap) top() int32 {
	if len(h.es) == 0 {
		return -1
	}
	return h.es[0].job
}

// set puts job j, whose position is *p, in the heap with key run, or takes
// it out.
func (h *discoHeap) set(p *int32, j int32, in bool, run int32) {
	switch {
	case !in && *p == 0:
	case !in:
		i := int(*p - 1)
		*p = 0
		last := len(h.es) - 1
		if i != last {
			h.es[i] = h.es[last]
			h.es = h.es[:last]
			h.fix(i)
		} else {
			h.es = h.es[:last]
		}
	case *p == 0:
		h.es = append(h.es, discoEntry{run, j})
		*p = int32(len(h.es))
		h.up(len(h.es) - 1)
	case h.es[*p-1].run != run:
		h.es[*p-1].run = run
		h.fix(int(*p - 1))
	}
}

func (h *discoHeap) fix(i int) {
	if !h.down(i) {
		h.up(i)
	}
}

func (h *discoHeap) up(i int) {
	e := h.es[i]
	for i > 0 {
		p := (i - 1) / 2
		if !e.less(h.es[p]) {
			break
		}
		h.place(i, h.es[p])
		i = p
	}
	h.place(i, e)
}

// down sifts entry i down and reports whether it moved.
func (h *discoHeap) down(i int) bool {
	e, i0, n := h.es[i], i, len(h.es)
	for {
		c := 2*i + 1
		if c >= n {
			break
		}
		if c+1 < n && h.es[c+1].less(h.es[c]) {
			c++
		}
		if !h.es[c].less(e) {
			break
		}
		h.place(i, h.es[c])
		i = c
	}
	h.place(i, e)
	return i != i0
}

func (h *discoHeap) place(i int, e discoEntry) {
	h.es[i] = e
	*h.pos(e.job) = int32(i + 1)
}

// discoRunSet is the set of one job's running maps: a Fenwick tree over
// their indexes, so that victimOf finds the i-th in O(log n) instead of
// walking every map of the job.
type discoRunSet struct {
	t []int32 // 1-based
	n int32   // members
}

// newDiscoRunSet builds the set of job j's running maps from the View.
func newDiscoRunSet(v *replay.View, j int32) *discoRunSet {
	nm := int32(v.Job(j).Tasks(replay.Map))
	s := &discoRunSet{t: make([]int32, nm+1)}
	for t := range nm {
		if v.Task(replay.TaskRef{Job: j, Kind: replay.Map, Index: t}).Running() {
			s.t[t+1] = 1
			s.n++
		}
	}
	for i := 1; i < len(s.t); i++ {
		if p := i + i&-i; p < len(s.t) {
			s.t[p] += s.t[i]
		}
	}
	return s
}

// add adds d (±1) to member i.
func (s *discoRunSet) add(i int32, d int32) {
	s.n += d
	for x := int(i) + 1; x < len(s.t); x += x & -x {
		s.t[x] += d
	}
}

// rank is the number of members below i.
func (s *discoRunSet) rank(i int32) int32 {
	var r int32
	for x := int(i); x > 0; x -= x & -x {
		r += s.t[x]
	}
	return r
}

// nth is the member with r members below it (0 <= r < s.n).
func (s *discoRunSet) nth(r int32) int32 {
	pos, step := 0, 1
	for step*2 < len(s.t) {
		step *= 2
	}
	for ; step > 0; step /= 2 {
		if p := pos + step; p < len(s.t) && s.t[p] <= r {
			pos = p
			r -= s.t[p]
		}
	}
	return int32(pos)
}

// runSet is job j's running-map set, built at its first use and kept up
// to date by OnEvent from then on.
func (d *Disco) runSet(v *replay.View, j int32) *discoRunSet {
	jb := &d.jobs[j]
	if jb.run == nil {
		jb.run = newDiscoRunSet(v, j)
	}
	return jb.run
}

// trackRun applies a map's start or end to its job's running-map set, if
// it has one.
func (d *Disco) trackRun(ev replay.Event) {
	rs := d.jobs[ev.Job].run
	if rs == nil || ev.Task.Kind != replay.Map {
		return
	}
	switch ev.Kind {
	case replay.TaskStarted, replay.TaskResumed:
		rs.add(ev.Task.Index, 1)
	case replay.TaskFinished, replay.TaskKilled, replay.TaskLost, replay.TaskSuspended:
		rs.add(ev.Task.Index, -1)
	}
}
