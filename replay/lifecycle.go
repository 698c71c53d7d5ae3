package replay

// taskEnd finishes a task whose run ended, unless the event is stale.
func (e *Engine) taskEnd(ev event) {
	if e.cpuShared {
		e.cpuDue(ev) // a node's event
		return
	}
	t := TaskRef{Job: ev.job(), Kind: ev.rk(), Index: ev.idx()}
	j := &e.jobs[ev.job()]
	if j.done {
		return // a stale event of a finished (released) job
	}
	tk := j.rec(ev.rk(), ev.idx())
	if tk.gen != ev.gen() || tk.state != running {
		return // the attempt was killed, suspended or lost since
	}
	e.finishTask(t, tk)
}

// finishTask finishes running task t, whose run ends now.
func (e *Engine) finishTask(t TaskRef, tk *task) {
	j := &e.jobs[t.Job]
	e.stats.Events++
	e.stats.TaskEnds++
	e.stats.TaskEvents++
	ni := tk.node()
	e.endSegment(t, tk, OutcomeFinished)
	e.occupy(ni, t, -1)
	tk.state = done
	tk.end = e.now // the finish time from now on
	j.running[t.Kind]--
	j.finished[t.Kind]++
	if t.Kind == Map && tk.loc != NoInput {
		j.locality[tk.loc]++
	}
	e.rec.occupancyChange(e, t.Job)
	e.notify(TaskFinished, t.Job, t, ni)
	if t.Kind == Map {
		e.mapFinished(t.Job, j)
		e.noteIdle(t.Job, j)
	}
	if j.finished[Map] == j.nmaps && j.finished[Reduce] == j.nrd {
		e.jobFinished(t.Job, j)
	}
	if e.cfg.OutOfBandHeartbeat && e.nodes[ni].alive {
		e.queueHeartbeat(ni, e.now)
	} else {
		e.wake(ni)
	}
}

// mapFinished advances slow-start and, after the last map, starts the
// shuffle of the job's reduces.
func (e *Engine) mapFinished(ji int32, j *job) {
	e.maybeEligible(ji, j)
	if j.finished[Map] < j.nmaps {
		return
	}
	j.mapsDone = e.now
	for ci, c := range j.recs[Reduce] {
		if c == nil {
			continue // none of its reduces has launched
		}
		for x := range c {
			tk := &c[x]
			if !tk.waiting {
				continue
			}
			i := ci<<chunkBits + x
			tk.waiting = false
			if tk.state == running {
				// The shuffle can end no earlier than the swap-in finished
				// (tk.end), and takes its transfer time after the last map.
				e.startWork(tk.node(), TaskRef{Job: ji, Kind: Reduce, Index: int32(i)}, tk, max(e.now, tk.end), tk.remaining)
			}
		}
	}
	e.notify(MapsDone, ji, TaskRef{}, 0)
}

func (e *Engine) jobFinished(ji int32, j *job) {
	j.done = true
	j.finish = e.now
	e.unfinished--
	if e.cfg.Progress != nil {
		total := len(e.jobs)
		if done := total - e.unfinished; done*100/total != (done-1)*100/total || done == total {
			e.cfg.Progress(done, total)
		}
	}
	if e.check {
		e.checkJob(ji, j)
	}
	e.notify(JobFinished, ji, TaskRef{}, 0)
	if e.model == ContainerModel {
		e.releaseAM(j)
	}
	e.release(j)
	if e.src != nil {
		j.tj, j.pk = nil, nil
	}
	if e.pre != nil {
		e.wakePending = true
	}
}

// nodeFail takes node ni down: its running and suspended tasks are lost
// and pending again.
func (e *Engine) nodeFail(ni int32) {
	n := &e.nodes[ni]
	if !n.alive {
		return
	}
	e.stats.Events++
	e.stats.NodeChanges++
	for len(n.running) > 0 {
		t := n.running[len(n.running)-1]
		j := &e.jobs[t.Job]
		tk := e.taskOf(t)
		e.endSegment(t, tk, OutcomeLost)
		e.occupy(ni, t, -1)
		j.running[t.Kind]--
		e.lose(j, t, tk, ni)
	}
	for len(n.suspended) > 0 {
		t := n.suspended[len(n.suspended)-1]
		j := &e.jobs[t.Job]
		tk := e.taskOf(t)
		e.unsuspend(ni, t, tk)
		j.suspended[t.Kind]--
		e.lose(j, t, tk, ni)
	}
	for k := Map; k <= Reduce; k++ {
		if n.free[k] > 0 {
			e.freeNodes[k]--
		}
	}
	n.alive = false
	e.setQueued(ni, false)
	n.hbGen++
	e.aliveSlots[Map] -= int32(n.capa[Map])
	e.aliveSlots[Reduce] -= int32(n.capa[Reduce])
	e.notify(NodeFailed, 0, TaskRef{}, ni)
	n.fails++
	e.q.push(newEvent(e.failureDelay(int(ni), 2*n.fails-1, e.cfg.MTTR), evNodeRecover, 0, ni, 0, Map))
}

func (e *Engine) lose(j *job, t TaskRef, tk *task, ni int32) {
	e.lostWork += tk.runTime
	j.lost++
	e.requeue(j, t, tk)
	e.stats.TaskEvents++
	e.rec.occupancyChange(e, t.Job)
	e.notify(TaskLost, t.Job, t, ni)
}

func (e *Engine) nodeRecover(ni int32) {
	n := &e.nodes[ni]
	e.stats.Events++
	e.stats.NodeChanges++
	n.alive = true
	e.markSilent(ni)
	for k := Map; k <= Reduce; k++ {
		if n.free[k] > 0 {
			e.freeNodes[k]++
		}
	}
	e.aliveSlots[Map] += int32(n.capa[Map])
	e.aliveSlots[Reduce] += int32(n.capa[Reduce])
	e.notify(NodeRecovered, 0, TaskRef{}, ni)
	e.q.push(newEvent(e.failureDelay(int(ni), 2*n.fails, e.cfg.MTBF), evNodeFail, 0, ni, 0, Map))
	e.wake(ni)
}

// maybeEligible lets job ji's reduces launch once it reached slow-start
// and, in the container model, once none of its maps waits for a
// container. MapReduce's ApplicationMaster ramps reduces up only as its
// maps get containers (yarn.app.mapreduce.am.job.reduce.rampup.limit)
// and kills reduces that starve them (reducer preemption); without a
// rule of the kind, reduces waiting for maps hold every container while
// the maps wait for one, and the cluster deadlocks.
func (e *Engine) maybeEligible(ji int32, j *job) {
	if j.reducesEligible || j.nrd == 0 || j.finished[Map] < j.slowStartMaps {
		return
	}
	if e.model == ContainerModel && j.pending[Map] > 0 {
		return
	}
	e.makeEligible(j)
	e.notify(ReducesEligible, ji, TaskRef{}, 0)
}

// touchTasks loads the task and node records of a bucket of task ends as it
// becomes the queue's current one, so that the memory system overlaps
// their misses, where taskEnd, one event at a time, would wait for each in
// turn. An end's records are a chain (job, chunk table, task record, node,
// its running list), each found from the last; the chains are walked a
// link at a time over the whole bucket, so that every pass's loads are
// independent of each other and as many are in flight as the core allows.
func (e *Engine) touchTasks(evs []event) {
	var sum int32
	b := &e.touchBuf
	if e.cpuShared {
		// Each event is a node's: its CPU clock, and the list of its
		// tasks that the end scans.
		lists := b.lists[:0]
		for i := range evs {
			lists = append(lists, e.cpus[evs[i].gen()].tasks)
		}
		for _, l := range lists {
			for k := 0; k < len(l); k += 2 {
				sum += l[k].ref.Index
			}
		}
		b.lists = lists[:0]
	}
	tables := b.tables[:0]
	for i := range evs {
		if j := &e.jobs[evs[i].job()]; !j.done { // a finished job's tasks are let go
			t := evs[i].idx()
			tables = append(tables, touchLink{&j.recs[evs[i].rk()][t>>chunkBits], t & (chunkLen - 1)})
		}
	}
	recs := b.recs[:0]
	for _, l := range tables {
		recs = append(recs, &(*l.chunk)[l.i])
	}
	nodes := b.nodes[:0]
	for _, tk := range recs {
		if ni := tk.node(); ni >= 0 {
			nodes = append(nodes, &e.nodes[ni])
		}
	}
	running := b.running[:0]
	for _, n := range nodes {
		// The lines of the node's record that a finish updates.
		sum += n.busySlots + int32(n.avail[0])
		running = append(running, n.running)
	}
	for _, r := range running {
		// The running list, which the end searches for its task.
		if len(r) > 0 {
			sum += r[0].Index + r[len(r)-1].Index
		}
	}
	b.tables, b.recs, b.nodes, b.running = tables[:0], recs[:0], nodes[:0], running[:0]
	e.touched += sum
}

// touchScratch is touchTasks' memory for the links of its chains, kept
// from bucket to bucket. What it points to stays alive until the next
// bucket overwrites it: chunks and chunk tables are recycled anyway,
// nodes stay, and an outgrown running or CPU list is a few entries.
type touchScratch struct {
	lists   [][]cpuTask
	tables  []touchLink
	recs    []*task
	nodes   []*node
	running [][]TaskRef
}

// touchLink is a task's place in its job's chunk table: the table's entry
// and the task's index in the chunk.
type touchLink struct {
	chunk **taskChunk
	i     int32
}
