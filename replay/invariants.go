package replay

// The invariant checker. It runs in every simulation unless
// Config.NoInvariantChecks is set; a violation is a bug of the engine or of
// a policy that the action checks did not catch, and aborts the run with
// ErrInvariant. Slot capacity is checked on every slot change (occupy);
// the rest here, when a job finishes and at the end of the run.

// checkJob checks a finished job: every task completed exactly once, and
// causality (the job ending with its last task and the map phase with its
// last map; launches are checked when they happen).
func (e *Engine) checkJob(ji int32, j *job) {
	var lastMap, last Time
	for k := Map; k <= Reduce; k++ {
		if j.pending[k] != 0 || j.running[k] != 0 || j.suspended[k] != 0 {
			e.violate("job %d finished with %d pending, %d running, %d suspended %ss",
				ji, j.pending[k], j.running[k], j.suspended[k], k)
			return
		}
		n := j.count(k)
		if j.finished[k] != n {
			e.violate("job %d finished with %d of %d %ss completed", ji, j.finished[k], n, k)
			return
		}
		for i := range n {
			if j.recs[k] == nil || j.recs[k][i>>chunkBits] == nil {
				e.violate("job %d finished but its %s %d never launched", ji, k, i)
				return
			}
			t := j.rec(k, i)
			switch {
			case t.state != done:
				e.violate("job %d finished but its %s %d is not done", ji, k, i)
				return
			case t.end < t.attemptStart:
				e.violate("job %d %s %d finished at %v before its attempt started at %v", ji, k, i, t.end, t.attemptStart)
				return
			case k == Reduce && t.end < j.mapsDone:
				e.violate("job %d reduce %d finished at %v before the map phase ended at %v", ji, i, t.end, j.mapsDone)
				return
			}
			if k == Map {
				lastMap = max(lastMap, t.end)
			}
			last = max(last, t.end)
		}
	}
	if e.model == ContainerModel && (j.amStart < j.submit || j.launchedOnce && j.firstLaunch < j.amStart) {
		e.violate("job %d: ApplicationMaster started at %v, submitted %v, first task at %v", ji, j.amStart, j.submit, j.firstLaunch)
	}
	if j.mapsDone != lastMap || j.finish != last || j.finish < j.submit {
		e.violate("job %d: map phase ended %v (last map %v), finished %v (last task %v)", ji, j.mapsDone, lastMap, j.finish, last)
	}
}

// checkFinal checks the whole run: every job finished, no task left on a
// node, and busy slot time measured on the nodes equals the sum of the
// segments' lengths (so locality penalties, lost work and swap time are all
// accounted for on some slot).
func (e *Engine) checkFinal() error {
	var busy Time
	for i := range e.nodes {
		n := &e.nodes[i]
		if len(n.running) != 0 || len(n.suspended) != 0 {
			e.violate("node %d ends with %d running and %d suspended tasks", i, len(n.running), len(n.suspended))
			break
		}
		busy += n.busyIntegr + (e.now-n.busySince)*Time(n.busySlots)
	}
	for i := range e.jobs {
		if !e.jobs[i].done {
			e.violate("job %d never finished", i)
			break
		}
	}
	if busy != e.rec.segTotal {
		e.violate("busy slot time %v on the nodes, but segments sum to %v", busy, e.rec.segTotal)
	}
	for i := range e.nodes {
		if n := &e.nodes[i]; n.avail != n.capa || n.ams != 0 {
			e.violate("node %d ends with %s of %s free and %d ApplicationMasters", i,
				formatRes(&n.avail, e.resNames), formatRes(&n.capa, e.resNames), n.ams)
			break
		}
	}
	if e.amUsedMB != 0 || e.amHead != len(e.amQueue) || e.allocated != (Resources{}) {
		e.violate("ApplicationMasters end holding %d MiB with %d waiting; %s still allocated",
			e.amUsedMB, len(e.amQueue)-e.amHead, formatRes(&e.allocated, e.resNames))
	}
	var free [2]int32
	for i := range e.nodes {
		for k := Map; k <= Reduce; k++ {
			if n := &e.nodes[i]; n.alive && n.free[k] > 0 {
				free[k]++
			}
		}
	}
	for i := range e.nodes {
		n := &e.nodes[i]
		if bit := e.silent[i>>6]&(1<<(i&63)) != 0; bit != (n.alive && !n.hbQueued && !n.dozing) {
			e.violate("node %d: silent bit %v, up %v, heartbeat queued %v, dozing %v", i, bit, n.alive, n.hbQueued, n.dozing)
			break
		}
		if n.dozing && n.hbQueued {
			e.violate("node %d dozes with a heartbeat queued", i)
			break
		}
	}
	if free != e.freeNodes {
		e.violate("%v nodes up with free slots, counted %v", free, e.freeNodes)
	}
	if e.demand[Map] != 0 || e.demand[Reduce] != 0 {
		e.violate("demand counters end at %d maps, %d reduces", e.demand[Map], e.demand[Reduce])
	}
	return e.err
}
