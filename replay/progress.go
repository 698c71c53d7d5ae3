package replay

import (
	"errors"
	"fmt"
	"strings"
)

// ErrNoProgress marks a run that can make no progress: every job has been
// submitted, no task is due to end, and the policy has launched, resumed
// or stopped nothing for StallLimit of simulated time while nodes kept
// heartbeating. Without the detector such a run (a FAIR pool whose
// maxRunningJobs is 0, a policy that never places a job) would heartbeat
// until Config.Horizon, 1e9 s, which takes hours.
var ErrNoProgress = errors.New("no progress")

// StallDay is the least simulated time without progress that counts as a
// stall: a policy may legitimately wait (delay scheduling, timeouts) on
// an idle cluster, but not for a day.
const StallDay = 86400

// stallLimit is how long a run may go without progress: a day, or 100
// heartbeat intervals on a cluster that heartbeats more slowly.
func (e *Engine) stallLimit() Time {
	return max(Seconds(StallDay), 100*e.interval)
}

// progress watches for a stall. The engine calls it after each event other
// than a task end or an arrival; it is cheap (two comparisons) while the
// run moves.
func (e *Engine) progress() error {
	if e.cfg.MTBF > 0 && e.nextJob == len(e.jobs) {
		if err := e.churn(); err != nil {
			return err
		}
	}
	if e.nextJob < len(e.jobs) || e.q.ends.n > 0 {
		return nil // a job or a task end is still to come
	}
	if e.stats.TaskEvents != e.progEvents || e.progAt < 0 {
		e.progEvents, e.progAt = e.stats.TaskEvents, e.now
		return nil
	}
	if e.now-e.progAt < e.stallLimit() {
		return nil
	}
	var ids []string
	for i := range e.jobs {
		if j := &e.jobs[i]; !j.done {
			if len(ids) == 10 {
				ids = append(ids, "…")
				break
			}
			ids = append(ids, fmt.Sprint(j.id))
		}
	}
	return fmt.Errorf("%w: policy %s has launched, resumed or stopped no task from %.1f s to %.1f s, with every job submitted and no task running to its end; %d jobs can never run (job ids %s)",
		ErrNoProgress, e.sched.Name(), e.progAt.Sec(), e.now.Sec(), e.unfinished, strings.Join(ids, ", "))
}

// churn watches a run with node failures for attempts that launch and are
// lost without end: every job submitted and no task finished for a day
// and for ten times the longest task still to finish (node failures more
// frequent than the tasks are long, as with --mtbf 10 and tasks of
// minutes). Such a run would heartbeat to the horizon.
func (e *Engine) churn() error {
	if e.stats.TaskEnds != e.endsSeen || e.endsAt < 0 {
		e.endsSeen, e.endsAt = e.stats.TaskEnds, e.now
		return nil
	}
	if e.now-e.endsAt < e.stallLimit() {
		return nil
	}
	// Only now, rarely, the longest unfinished task.
	var longest float64
	var ids []string
	for i := range e.jobs {
		j := &e.jobs[i]
		if j.done {
			continue
		}
		longest = max(longest, j.longestTask())
		if len(ids) < 10 {
			ids = append(ids, fmt.Sprint(j.id))
		} else if len(ids) == 10 {
			ids = append(ids, "…")
		}
	}
	if e.now-e.endsAt < Seconds(10*longest) {
		return nil
	}
	return fmt.Errorf("%w: no task has finished from %.1f s to %.1f s under policy %s: node failures (MTBF %g s) end every attempt before it can finish (the longest task left takes %.0f s); %d jobs can never finish (job ids %s)",
		ErrNoProgress, e.endsAt.Sec(), e.now.Sec(), e.sched.Name(), e.cfg.MTBF, longest, e.unfinished, strings.Join(ids, ", "))
}
