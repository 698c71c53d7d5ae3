package easy

import (
	"slices"

	"sojourn/replay"
)

// The backfilling variants (options reservations, node-granular,
// end-at-shadow): a pass that plans on a profile of the free slots over
// time, as Slurm's backfill plugin plans on its node_space map
// (src/plugins/sched/backfill/backfill.c, _attempt_backfill). The
// profile starts from the slots free now; each admitted job gives its
// width back at its expected end (just after now if that is past); each reservation
// takes its slots from its start to its expected end. Jobs are taken in
// queue order: one that fits now for its whole estimated run starts; one
// that does not gets a reservation at the earliest time it fits for its
// whole run, until reservations are made (Slurm's
// bf_job_part_count_reserve: "count++" of the partition's resv_usage
// before _add_reservation); the jobs after that are only tried for a
// start now, in backfilling order. With one reservation, whole slots and
// ends allowed at the shadow time this is EASY, and pass takes the
// constant-time path instead (TestPlanMatchesEASY).

// easyStep changes the free slots by d at time at.
type easyStep struct {
	at replay.Time
	d  [2]int
}

// easyProfile is the free slots from now on: free at now, then the
// steps, at distinct times after now, in time order.
type easyProfile struct {
	now   replay.Time
	free  [2]int
	steps []easyStep
}

// add changes the free slots by d from time at on.
func (p *easyProfile) add(at replay.Time, d [2]int) {
	if at <= p.now {
		p.free[0] += d[0]
		p.free[1] += d[1]
		return
	}
	i, found := slices.BinarySearchFunc(p.steps, at, func(s easyStep, t replay.Time) int {
		switch {
		case s.at < t:
			return -1
		case s.at > t:
			return 1
		}
		return 0
	})
	if !found {
		p.steps = slices.Insert(p.steps, i, easyStep{at: at})
	}
	p.steps[i].d[0] += d[0]
	p.steps[i].d[1] += d[1]
}

// fits reports whether w slots are free from start to end: up to end
// excluded (a job may end when a reservation starts), or included when
// closed (end-at-shadow=refuse: Slurm's candidate "end_time" meets a
// reservation beginning there, "node_space[j].begin_time <= end_time").
// Slots given back at end count at end either way.
func (p *easyProfile) fits(w [2]int, start, end replay.Time, closed bool) bool {
	cur := p.free
	i := 0
	for ; i < len(p.steps) && p.steps[i].at <= start; i++ {
		cur[0] += p.steps[i].d[0]
		cur[1] += p.steps[i].d[1]
	}
	if cur[0] < w[0] || cur[1] < w[1] {
		return false
	}
	for ; i < len(p.steps) && (p.steps[i].at < end || closed && p.steps[i].at == end); i++ {
		cur[0] += p.steps[i].d[0]
		cur[1] += p.steps[i].d[1]
		if cur[0] < w[0] || cur[1] < w[1] {
			return false
		}
	}
	return true
}

// earliest is the first time from now on at which w slots are free for
// run, or Never.
func (p *easyProfile) earliest(w [2]int, run replay.Time, closed bool) replay.Time {
	if p.fits(w, p.now, p.now+run, closed) {
		return p.now
	}
	for _, s := range p.steps {
		if p.fits(w, s.at, s.at+run, closed) {
			return s.at
		}
	}
	return replay.Never
}

// held is what a reservation of job j holds in the profile: its widths
// (capped at the cluster's slots, as fits does), or with node-granular
// every slot of the whole nodes they need. Slurm reserves nodes: its
// node_space holds node bitmaps only, and _add_reservation takes the
// job's nodes out of them ("bit_and_not(node_space[j].avail_bitmap,
// res_bitmap)"), all their CPUs, while a job running or started now
// holds only its CPUs (cons_tres; a job that is not whole-node is not
// put in node_space, _bf_reserve_running: "if (!whole && !licenses)
// return"). On one node of 16 CPUs, a reservation holds all 16 from its
// start to its expected end.
func (e *Easy) held(j int32, capacity [2]int) [2]int {
	w := e.jobs[j].width
	w = [2]int{min(w[0], capacity[0]), min(w[1], capacity[1])}
	if !e.o.nodeGranular {
		return w
	}
	nodes := 0
	for k := range 2 {
		if w[k] > 0 && e.perNode[k] > 0 {
			nodes = max(nodes, (w[k]+e.perNode[k]-1)/e.perNode[k])
		}
	}
	return [2]int{min(capacity[0], nodes*e.perNode[0]), min(capacity[1], nodes*e.perNode[1])}
}

// plan is the scheduling pass with the backfilling variants; free is
// what is free now once the head jobs that fit are admitted. It tests
// the first limit jobs of the queue (a pass Slurm cut short).
func (e *Easy) plan(now replay.Time, free, capacity [2]int, limit int) {
	p := &e.profile
	p.now, p.free, p.steps = now, free, p.steps[:0]
	for _, j := range e.admitted {
		// A job past its expected end still holds its slots now: they are
		// planned free from the next microsecond.
		p.add(max(e.expectedEnd(j), now+1), e.jobs[j].width)
	}
	closed := e.o.refuse
	e.passNo++
	reserved := 0
	var dummy [2]int
	// In queue order until the reservations are made.
	cands := append(e.cands[:0], e.queue[:min(limit, len(e.queue))]...)
	i := 0
	for ; i < len(cands) && reserved < e.o.reservations; i++ {
		j := cands[i]
		jb := &e.jobs[j]
		jb.pass = e.passNo
		w := [2]int{min(jb.width[0], capacity[0]), min(jb.width[1], capacity[1])}
		run := replay.Seconds(jb.run)
		if p.fits(w, now, now+run, closed) {
			e.admit(j, now, &dummy)
			p.add(now, [2]int{-w[0], -w[1]})
			p.add(now+run, w)
			continue
		}
		at := p.earliest(w, run, closed)
		if at != replay.Never && e.o.window > 0 {
			at = e.willRun(now, w, capacity)
		}
		if at == replay.Never {
			continue // it never fits: no reservation (and none counted)
		}
		h := e.held(j, capacity)
		p.add(at, [2]int{-h[0], -h[1]})
		p.add(at+run, h)
		reserved++
	}
	// The others may only start now, in backfilling order.
	rest := cands[i:]
	if e.o.sjf && len(rest) > 1 {
		for _, j := range rest {
			e.jobs[j].pass = e.passNo + 1
		}
		rest = rest[:0]
		for _, j := range e.bySize {
			if e.jobs[j].pass == e.passNo+1 {
				rest = append(rest, j)
			}
		}
		e.passNo++
	}
	for _, j := range rest {
		jb := &e.jobs[j]
		w := [2]int{min(jb.width[0], capacity[0]), min(jb.width[1], capacity[1])}
		run := replay.Seconds(jb.run)
		if p.fits(w, now, now+run, closed) {
			e.admit(j, now, &dummy)
			p.add(now, [2]int{-w[0], -w[1]})
			p.add(now+run, w)
		}
	}
	e.cands = cands
}

// willRun is when Slurm's will-run test starts a job of widths w that
// does not fit now (src/plugins/select/cons_common/job_test.c,
// _will_run_test, 22.05): it takes the running jobs by expected end
// (their time limits), releases them in batches, and after each batch
// tests the job; the start is the end of the batch's last job
// ("job_ptr->start_time = last_job_ptr->end_time"), not the earliest
// time it fits. The first batch ends at the first multiple of the
// window (30 s) on the wall clock after the first end ("delta =
// tmp_job_ptr->end_time % time_window; end_time =
// tmp_job_ptr->end_time + (time_window - delta)") plus a window, each
// next one a doubled window later ("time_window *= 2"); a batch takes
// the jobs up to "next_job_ptr->end_time > (end_time + time_window)".
// Slurm's times are whole seconds: ends are compared as the wall-clock
// seconds they fall in. Never if the job never fits.
func (e *Easy) willRun(now replay.Time, w, capacity [2]int) replay.Time {
	run := e.cands[:0:0]
	free := capacity
	for _, j := range e.admitted {
		run = append(run, j)
		free[0] -= e.jobs[j].width[0]
		free[1] -= e.jobs[j].width[1]
	}
	slices.SortStableFunc(run, e.compareExpected)
	sec := func(j int32) int64 { // the wall-clock second of j's expected end
		return e.o.epoch + int64(e.expectedEnd(j)/replay.Second)
	}
	window := e.o.window
	var barrier int64
	if len(run) > 0 {
		barrier = sec(run[0]) + window - sec(run[0])%window
	}
	for i := 0; i < len(run); {
		var last int32
		for {
			last = run[i]
			free[0] += e.jobs[last].width[0]
			free[1] += e.jobs[last].width[1]
			i++
			if i == len(run) || sec(run[i]) > barrier+window {
				break
			}
		}
		for window *= 2; i < len(run) && sec(run[i]) > barrier+window; window *= 2 {
		}
		if free[0] >= w[0] && free[1] >= w[1] {
			return max(e.expectedEnd(last), now+1)
		}
	}
	return replay.Never
}
