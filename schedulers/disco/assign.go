package disco

import (
	"math"

	"sojourn/replay"
	"sojourn/schedulers/internal/delay"
	"sojourn/schedulers/internal/victim"
)

// Disco's slot assignment and its transition holds (see Disco).

// inTransition reports whether job j is between phases: it has reduces,
// all its maps have launched, and some reduce has not finished its
// shuffle (or not launched yet). Once the maps are done and every reduce
// runs, the last shuffle's end is known (the engine's model: launch or
// last map end, whichever is later, plus the reduce's bytes over its
// share of the node's bandwidth) and is cached until a reduce is lost.
func (d *Disco) inTransition(v *replay.View, j int32) bool {
	jv := v.Job(j)
	jb := &d.jobs[j]
	nr := jv.Tasks(replay.Reduce)
	if jv.Done() || nr == 0 || jv.Pending(replay.Map) > 0 {
		return false
	}
	if jv.MapsDone() && jb.mapsDoneAt < 0 {
		jb.mapsDoneAt = v.Now() // first seen at the last map's end (maybeHold)
	}
	if !jv.MapsDone() || jv.Pending(replay.Reduce) > 0 {
		return true
	}
	if jb.transEnd < 0 {
		jb.transEnd = 0
		for t := range int32(nr) {
			tv := v.Task(replay.TaskRef{Job: j, Kind: replay.Reduce, Index: t})
			if !tv.Running() {
				continue
			}
			end := max(tv.AttemptStart(), jb.mapsDoneAt) + tv.Transfer()
			if shuffled, at, _ := tv.ReducePhase(); shuffled {
				end = at
			}
			jb.transEnd = max(jb.transEnd, end)
		}
	}
	return v.Now() < jb.transEnd
}

// maybeHold holds the map slot job j's map just freed on node n if j is
// in transition and holds fewer slots than it has unfinished reduces and
// than an equal share of the map slots.
func (d *Disco) maybeHold(v *replay.View, j int32, n int32) {
	if !d.inTransition(v, j) || !v.Alive(n) {
		return
	}
	jv := v.Job(j)
	equal := int(math.Ceil(float64(v.Slots(replay.Map)) / float64(max(len(d.active), 1))))
	if jb := &d.jobs[j]; jb.held < min(jv.Tasks(replay.Reduce)-jv.Finished(replay.Reduce), equal) {
		jb.held++
		d.holds[n] = append(d.holds[n], j)
	}
}

// OnHeartbeat implements replay.Scheduler.
func (d *Disco) OnHeartbeat(hb *replay.Heartbeat) error {
	d.v = hb.View
	n := hb.Node()
	if err := d.killHere(hb); err != nil {
		return err
	}
	// Release the slots held here by jobs no longer between phases.
	kept := d.holds[n][:0]
	for _, j := range d.holds[n] {
		if d.inTransition(hb.View, j) {
			kept = append(kept, j)
		} else {
			d.jobs[j].held--
		}
	}
	d.holds[n] = kept
	for k := replay.Map; k <= replay.Reduce; k++ {
		usable := hb.Free(k)
		if k == replay.Map {
			usable -= len(d.holds[n])
		}
		if usable <= 0 || hb.Demand(k) == 0 {
			continue
		}
		// No fair shares here: pick does not need them (see pick).
		d.epoch++
		for usable > 0 {
			j := d.pick(hb, k)
			if j < 0 {
				break
			}
			ok, err := d.launch(hb, k, j)
			if err != nil {
				return err
			}
			if ok {
				usable--
				d.refresh(hb.View, j)
			} else {
				d.jobs[j].tried = d.epoch
			}
		}
	}
	return nil
}

// pick chooses the job for a free slot of kind k: for reduces, a job in
// transition first; then a job never served a slot of that kind; then the
// job below its fair share with the fewest running tasks; then, so that no
// slot idles, any job with the fewest running tasks. Ties go to the
// earlier arrival. Jobs found unable to use the node are skipped.
//
// A job that can launch a task has a demand above its running tasks, so
// its max-min share min(R, demand) leaves it below its share exactly when
// its running tasks are below R − 1e-9, whatever R the shares' water
// level is: the jobs below their share are the least loaded ones, and the
// last two rules are one, the fewest running tasks, then the earlier
// arrival (the top of cands). The rules walk the indexes, not every job.
func (d *Disco) pick(hb *replay.Heartbeat, k replay.TaskKind) int32 {
	ok := func(j int32) bool { return d.jobs[j].tried != d.epoch && hb.Job(j).Launchable(k) }
	if k == replay.Reduce && d.o.hold {
		for _, j := range d.between {
			if d.inTransition(hb.View, j) && ok(j) {
				return j
			}
		}
	}
	for _, j := range d.unserved[k] {
		if ok(j) {
			return j
		}
	}
	if j := d.cands[k].top(); j < 0 || ok(j) {
		return j
	}
	// The least loaded job was found unable to use the node (rare): walk.
	best := int32(-1)
	for _, j := range d.active {
		if ok(j) && (best < 0 || hb.Job(j).Running(k) < hb.Job(best).Running(k)) {
			best = j
		}
	}
	return best
}

// launch starts a task of kind k of job j on the node (maps at the best
// locality the node offers).
func (d *Disco) launch(hb *replay.Heartbeat, k replay.TaskKind, j int32) (bool, error) {
	if !hb.Fits(j, k) {
		return false, nil // its container does not fit what the node has left
	}
	idx, ok := delay.Nearest(hb, j, k)
	if !ok {
		return false, nil
	}
	d.jobs[j].served[k] = true
	return true, hb.Launch(replay.TaskRef{Job: j, Kind: k, Index: idx})
}

// killHere kills the victims chosen for this tracker that still run the
// attempt chosen.
func (d *Disco) killHere(hb *replay.Heartbeat) error {
	n, err := victim.KillMarked(hb, &d.kills[hb.Node()], func(r replay.TaskRef) { d.refresh(hb.View, r.Job) })
	d.nKills -= n
	return err
}
