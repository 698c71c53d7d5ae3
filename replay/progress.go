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
