package easy

import (
	"slices"

	"sojourn/replay"
)

// The task level's state of Easy's admitted jobs. The deficits are
// integrated after nearly every event, over every admitted job, so what
// they need is kept in arrays indexed by the job's place among the
// admitted jobs (admission order), kind by kind, and brought up to date
// job by job: after an event, its job's; after a launch, the launching
// job's (nothing else changes a job's counts). Each job's rate, fair share
// − running tasks, is kept too, and updated only where it changes: at
// track for its job, and when the shares are recomputed for the jobs whose
// share moved (with one level for all, those whose demand is above the old
// or the new level: a suffix of the demands sorted). integrate then adds
// rate × dt to the deficits of the jobs whose rate is not 0, a third of
// them on the FB-2010 day, and a heartbeat looks only at the jobs with a
// task to launch.
//
// A rate of 0 adds +0, which leaves a deficit as it is: deficits start at
// +0 and are never −0 (a sum is −0 only from two −0s), and rates are
// never −0 (shares and running counts are not).

// easyTaskLevel holds, per kind, one entry per admitted job, in the order
// of Easy.admitted.
type easyTaskLevel struct {
	def  [2][]float64 // deficit
	shr  [2][]float64 // fair share (unless easyShares.fast)
	run  [2][]int32   // running tasks at the last snapshot
	dem  [2][]float64 // demand (see Easy.demand) at the last snapshot
	rate [2][]float64 // share − running, what integrate adds per second
	// The places whose rate is not 0, and those with a task to launch.
	moving, ready [2]easyPlaces
	// The demands sorted, the place of each (by) and the index in sorted
	// of each place (at); and the demands' sum.
	sorted [2][]float64
	by, at [2][]int32
	sum    [2]int64
}

// easyPlaces is a set of places among the admitted jobs: list in any
// order, and idx[p] is p's index in list (-1: absent).
type easyPlaces struct {
	list []int32
	idx  []int32
}

func (s *easyPlaces) set(p int, in bool) {
	switch i := s.idx[p]; {
	case in && i < 0:
		s.idx[p] = int32(len(s.list))
		s.list = append(s.list, int32(p))
	case !in && i >= 0:
		last := s.list[len(s.list)-1]
		s.list[i] = last
		s.idx[last] = i
		s.list = s.list[:len(s.list)-1]
		s.idx[p] = -1
	}
}

// drop removes place p, renumbering the places after it.
func (s *easyPlaces) drop(p int) {
	s.set(p, false)
	s.idx = slices.Delete(s.idx, p, p+1)
	for i, q := range s.list {
		if int(q) > p {
			s.list[i] = q - 1
			s.idx[q-1] = int32(i)
		}
	}
}

// enter admits job j's task-level state, zero until its first snapshot.
func (e *Easy) enter(j int32) {
	jb := &e.jobs[j]
	p := len(e.admitted)
	jb.pos = int32(p)
	e.admitted = append(e.admitted, j)
	i, _ := slices.BinarySearchFunc(e.byExpected, j, e.compareExpected)
	e.byExpected = slices.Insert(e.byExpected, i, j)
	tl := &e.tl
	for k := range 2 {
		tl.def[k] = append(tl.def[k], 0)
		tl.shr[k] = append(tl.shr[k], 0)
		tl.run[k] = append(tl.run[k], 0)
		tl.dem[k] = append(tl.dem[k], 0)
		tl.rate[k] = append(tl.rate[k], 0)
		tl.moving[k].idx = append(tl.moving[k].idx, -1)
		tl.ready[k].idx = append(tl.ready[k].idx, -1)
		// A demand of 0 goes first in sorted.
		tl.sorted[k] = slices.Insert(tl.sorted[k], 0, 0)
		tl.by[k] = slices.Insert(tl.by[k], 0, int32(p))
		tl.at[k] = append(tl.at[k], 0)
		for i, q := range tl.by[k] {
			tl.at[k][q] = int32(i)
		}
	}
	if len(e.poolJobs) <= jb.pool {
		e.poolJobs = append(e.poolJobs, make([]int, jb.pool+1-len(e.poolJobs))...)
	}
	if e.poolJobs[jb.pool]++; e.poolJobs[jb.pool] == 1 {
		e.livePools++
	}
	if jb.weight != 1 {
		e.nonUnit++
	}
	e.shares.dirty = true
	e.track(e.v, j)
}

// leave removes finished job j from the admitted jobs.
func (e *Easy) leave(j int32) {
	jb := &e.jobs[j]
	p := int(jb.pos)
	e.admitted = slices.Delete(e.admitted, p, p+1)
	if i, ok := slices.BinarySearchFunc(e.byExpected, j, e.compareExpected); ok {
		e.byExpected = slices.Delete(e.byExpected, i, i+1)
	}
	for i := p; i < len(e.admitted); i++ {
		e.jobs[e.admitted[i]].pos = int32(i)
	}
	tl := &e.tl
	for k := range 2 {
		tl.setDemand(k, p, 0)
		i := int(tl.at[k][p])
		tl.sorted[k] = slices.Delete(tl.sorted[k], i, i+1)
		tl.by[k] = slices.Delete(tl.by[k], i, i+1)
		tl.at[k] = slices.Delete(tl.at[k], p, p+1)
		for i, q := range tl.by[k] {
			if int(q) > p {
				q--
				tl.by[k][i] = q
			}
			tl.at[k][q] = int32(i)
		}
		tl.def[k] = slices.Delete(tl.def[k], p, p+1)
		tl.shr[k] = slices.Delete(tl.shr[k], p, p+1)
		tl.run[k] = slices.Delete(tl.run[k], p, p+1)
		tl.dem[k] = slices.Delete(tl.dem[k], p, p+1)
		tl.rate[k] = slices.Delete(tl.rate[k], p, p+1)
		tl.moving[k].drop(p)
		tl.ready[k].drop(p)
	}
	if e.poolJobs[jb.pool]--; e.poolJobs[jb.pool] == 0 {
		e.livePools--
	}
	if jb.weight != 1 {
		e.nonUnit--
	}
	jb.pos = -1
	e.shares.dirty = true
}

// setDemand sets the demand of kind k at place p, keeping sorted (and by,
// at) and sum.
func (tl *easyTaskLevel) setDemand(k, p int, d float64) {
	old := tl.dem[k][p]
	if old == d {
		return
	}
	tl.dem[k][p] = d
	tl.sum[k] += int64(d) - int64(old)
	// Move p's entry along the sorted slice to its new place: demands
	// mostly change by one task.
	s, by, at := tl.sorted[k], tl.by[k], tl.at[k]
	i := int(at[p])
	if d > old {
		for i+1 < len(s) && s[i+1] < d {
			s[i], by[i] = s[i+1], by[i+1]
			at[by[i]] = int32(i)
			i++
		}
	} else {
		for i > 0 && s[i-1] > d {
			s[i], by[i] = s[i-1], by[i-1]
			at[by[i]] = int32(i)
			i--
		}
	}
	s[i], by[i] = d, int32(p)
	at[p] = int32(i)
}

// track brings admitted job j's running tasks, demand, launchability and
// rates up to date.
func (e *Easy) track(v *replay.View, j int32) {
	jv := v.Job(j)
	p := int(e.jobs[j].pos)
	tl := &e.tl
	for k := range 2 {
		kind := replay.TaskKind(k)
		tl.run[k][p] = int32(jv.Running(kind))
		tl.ready[k].set(p, jv.Launchable(kind))
		tl.setDemand(k, p, e.demand(v, j, kind))
		e.setRate(k, p)
	}
}

// setRate recomputes the rate of kind k at place p from its share (as the
// shares were last computed) and running tasks.
func (e *Easy) setRate(k, p int) {
	tl := &e.tl
	share := tl.shr[k][p]
	if e.shares.fast {
		// As fillShares makes it from the level.
		share = min(max(e.shares.level[k], 0), tl.dem[k][p])
	}
	r := share - float64(tl.run[k][p])
	tl.rate[k][p] = r
	tl.moving[k].set(p, r != 0)
}

// integrate adds (fair share − running) × elapsed time to every admitted
// job's deficit, with the shares and running counts of the interval since
// the last call.
func (e *Easy) integrate(v *replay.View) {
	now := v.Now()
	dt := (now - e.last).Sec()
	e.last = now
	if dt <= 0 {
		return
	}
	for k := range 2 {
		def, rate := e.tl.def[k], e.tl.rate[k]
		for _, p := range e.tl.moving[k].list {
			def[p] += rate[p] * dt
		}
	}
}
