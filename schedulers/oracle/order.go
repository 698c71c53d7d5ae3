package oracle

import (
	"math"

	"sojourn/replay"
)

// The job order: keys by rank, kept sorted between heartbeats, and the
// candidate lists of jobs that may be served, by task kind.

// sortJobs brings the key order up to date and rebuilds its groups. Only
// the keys that may have changed are evaluated again: those of the jobs
// an event touched and, under las, of the jobs whose service may have
// reached the end of their level (check); the others would give the same.
// Keys change little between calls, so an insertion sort on the last
// order costs about one pass, and none if no key changed.
func (o *Oracle) sortJobs() {
	if o.rank.remaining {
		o.sortByRemaining()
		if o.verify != nil {
			o.verify(o, o.v, nil, "order", 0)
		}
		return
	}
	if now := o.v.Now(); o.rank.attained && now >= o.nextCheck {
		o.nextCheck = replay.Never
		for _, j := range o.order {
			if o.jobs[j].check <= now {
				o.rekeyJob(j)
			}
			o.nextCheck = min(o.nextCheck, o.jobs[j].check)
		}
	}
	for _, j := range o.rekey {
		jb := &o.jobs[j]
		jb.queued = false
		if jb.live {
			o.rekeyJob(j)
			if o.rank.attained {
				o.nextCheck = min(o.nextCheck, jb.check)
			}
		}
	}
	o.rekey = o.rekey[:0]
	if o.reorder {
		o.resort()
	}
	if o.verify != nil {
		o.verify(o, o.v, nil, "order", 0)
	}
}

// rekeyJob evaluates job j's key again, and under las when its level may
// end next.
func (o *Oracle) rekeyJob(j int32) {
	jb := &o.jobs[j]
	if key := o.rank.key(o, j); key != jb.key {
		jb.key = key
		if o.moved = j; o.reorder {
			o.moved = -2 // more than one
		}
		o.reorder = true
	}
	if o.rank.attained {
		jb.check = o.levelCheck(jb)
	}
}

// levelCheck is a time before which the job's attained service cannot
// reach the end of its level (Never if none of its tasks runs), for as
// long as no event of the job comes: the latest tick found where the
// rounded service is still below, plus one.
func (o *Oracle) levelCheck(jb *oracleJob) replay.Time {
	now := o.v.Now()
	switch {
	case jb.attainedAt(now) >= jb.levelEnd:
		return now // not after lasKey, which moves the end past now
	case jb.runCount == 0:
		return replay.Never
	}
	sec := (jb.levelEnd - jb.closed + jb.segSum) / float64(jb.runCount)
	if !(sec < float64(replay.Never/replay.Second)) {
		return replay.Never // far beyond any trace
	}
	c := replay.Time(sec * float64(replay.Second))
	for step := replay.Time(1); c > now && jb.attainedAt(c) >= jb.levelEnd; step *= 2 {
		c -= step
	}
	return max(c, now) + 1
}

// resort sorts the order again after a key changed or a job arrived or
// left, and rebuilds the positions and groups. Only if one of them changed
// is the order's version new (srpt's keys change at every task end, the
// order seldom).
func (o *Oracle) resort() {
	less := func(a, b int32) bool {
		ja, jb := &o.jobs[a], &o.jobs[b]
		if ja.key != jb.key {
			return ja.key < jb.key
		}
		if ja.submit != jb.submit {
			return ja.submit < jb.submit
		}
		return a < b
	}
	changed := o.joined
	if j := o.moved; !o.joined && j >= 0 {
		// One key changed: that job moves to its place among the others,
		// which are in order.
		i := int(o.jobs[j].pos)
		for ; i > 0 && less(j, o.order[i-1]); i-- {
			o.order[i] = o.order[i-1]
			o.jobs[o.order[i]].pos = int32(i)
			changed = true
		}
		for ; i+1 < len(o.order) && less(o.order[i+1], j); i++ {
			o.order[i] = o.order[i+1]
			o.jobs[o.order[i]].pos = int32(i)
			changed = true
		}
		o.order[i], o.jobs[j].pos = j, int32(i)
	} else {
		for i := 1; i < len(o.order); i++ {
			for p := i; p > 0 && less(o.order[p], o.order[p-1]); p-- {
				o.order[p], o.order[p-1] = o.order[p-1], o.order[p]
				changed = true
			}
		}
		if changed {
			for i, j := range o.order {
				o.jobs[j].pos = int32(i)
			}
		}
	}
	o.reorder, o.joined, o.moved = false, false, -1
	if o.rank.shared {
		// Groups change with the order, or with a key in place.
		n := 1
		for i := 1; i < len(o.order) && !changed; i++ {
			if o.jobs[o.order[i]].key != o.jobs[o.order[i-1]].key {
				changed = n >= len(o.groups)-1 || o.groups[n] != int32(i)
				n++
			}
		}
		if changed = changed || n != len(o.groups)-1; changed {
			o.groups = append(o.groups[:0], 0)
			for i := 1; i < len(o.order); i++ {
				if o.jobs[o.order[i]].key != o.jobs[o.order[i-1]].key {
					o.groups = append(o.groups, int32(i))
				}
			}
			o.groups = append(o.groups, int32(len(o.order)))
		}
	}
	if changed {
		o.orderVer++
	}
}

// candidates lists in order the jobs that may use a slot of kind k.
func (o *Oracle) candidates(k replay.TaskKind) []int32 {
	if o.candVer[k] != o.orderVer {
		c := o.cand[k][:0]
		for _, j := range o.order {
			in := mayServe(o.v.Job(j), k)
			o.jobs[j].inCand[k] = in
			if in {
				c = append(c, j)
			}
		}
		o.cand[k], o.candVer[k] = c, o.orderVer
	}
	return o.cand[k]
}

// lasKey is job j's level of attained service (see lasLevel), cached
// with the service at which it ends: service only grows, a level lasts.
func (o *Oracle) lasKey(j int32) float64 {
	jb := &o.jobs[j]
	if a := o.attained(j); a >= jb.levelEnd {
		jb.level, jb.levelEnd = lasLevel(a, o.o.quantum, o.o.factor)
	}
	return jb.level
}

// lasLevel is the level of attained service a (slot-s), 0 below quantum
// and one more each time a multiplies by factor, and the service at which
// the next level starts.
func lasLevel(a, quantum, factor float64) (level, end float64) {
	if a < quantum {
		return 0, quantum
	}
	level = 1 + math.Floor(math.Log(a/quantum)/math.Log(factor))
	end = quantum * math.Pow(factor, level)
	for end <= a { // rounding
		level++
		end *= factor
	}
	return level, end
}

// psKey is ps's round with a quantum: the round job j arrived in plus
// the quanta of service it has had since, cached like lasKey's level.
func (o *Oracle) psKey(j int32) float64 {
	jb := &o.jobs[j]
	if a := o.attained(j); a >= jb.levelEnd {
		jb.level, jb.levelEnd = psLevel(a, o.o.quantum)
	}
	return jb.base + jb.level
}

// psLevel is the number of whole quanta in attained service a, and the
// service at which the next one is complete.
func psLevel(a, quantum float64) (level, end float64) {
	level = math.Floor(a / quantum)
	for level > 0 && level*quantum > a { // rounding
		level--
	}
	end = (level + 1) * quantum
	for end <= a {
		level++
		end = (level + 1) * quantum
	}
	return level, end
}

// currentRound is the round being served: the earliest of the jobs that
// hold or may use a slot (0 if none). A job arriving joins it, as under
// processor sharing a newcomer shares at once, rather than waiting for
// jobs ahead by many rounds (a job of many tasks gains service, and
// rounds, many times faster than one of a few).
func (o *Oracle) currentRound() float64 {
	round, any := 0.0, false
	for _, j := range o.order {
		jv := o.v.Job(j)
		if jv.Running(replay.Map)+jv.Running(replay.Reduce) == 0 && !mayServe(jv, replay.Map) && !mayServe(jv, replay.Reduce) {
			continue
		}
		if r := o.psKey(j); !any || r < round {
			round, any = r, true
		}
	}
	return round
}
