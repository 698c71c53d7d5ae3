package easy

import (
	"bufio"
	"fmt"
	"io"
	"math"
	"os"
	"strconv"
	"strings"

	"sojourn/replay"
	"sojourn/schedulers/internal/policy"
)

// A passTime is one listed scheduling pass (option pass-times): a
// backfill pass (the head of the queue, then backfilling, as every pass
// of decision-interval) or a main-scheduler pass (the head alone).
type passTime struct {
	at   replay.Time
	main bool
	// limit is how many jobs a backfill pass tests, the first in queue
	// order (allJobs: every one). Slurm ends a pass once bf_max_time has
	// passed since it began (backfill.c, _attempt_backfill: "if
	// (slurmctld_config.shutdown_time || (difftime(time(NULL),
	// orig_sched_start) >= bf_max_time)) break;"), on time(2)'s whole
	// seconds, which lag the log's clock by a few milliseconds: a pass
	// begun just after a whole second can end after one job.
	limit int
}

// allJobs is the limit of a pass that tests the whole queue.
const allJobs = -1

// readPassTimes reads a pass-times file: one pass per line, "SECONDS
// backfill", "SECONDS backfill JOBS" (a pass that tests only the first
// JOBS jobs of the queue) or "SECONDS main", seconds from the trace's
// time 0 in non-decreasing order; '#' starts a comment. slurmref passes writes it
// from slurmctld's log, where Slurm's backfill agent and main scheduler
// each run on their own clock.
func readPassTimes(path string) ([]passTime, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	return parsePassTimes(f, path)
}

// parsePassTimes parses a pass-times file read from r, named path in
// errors.
func parsePassTimes(r io.Reader, path string) ([]passTime, error) {
	var out []passTime
	sc := bufio.NewScanner(r)
	sc.Buffer(make([]byte, 0, 4096), 4096)
	for ln := 1; sc.Scan(); ln++ {
		line := policy.StripComment(sc.Text())
		if line == "" {
			continue
		}
		fields := strings.Fields(line)
		if len(fields) != 2 && (len(fields) != 3 || fields[1] != "backfill") {
			return nil, fmt.Errorf("%s:%d: %q; want \"SECONDS backfill\", \"SECONDS backfill JOBS\" or \"SECONDS main\"", path, ln, line)
		}
		s, err := strconv.ParseFloat(fields[0], 64)
		if err != nil || !(s >= 0) || math.IsInf(s, 0) || s > 1e12 {
			return nil, fmt.Errorf("%s:%d: time %q; want seconds >= 0", path, ln, fields[0])
		}
		p := passTime{at: replay.Seconds(s), limit: allJobs}
		if len(fields) == 3 {
			n, err := strconv.Atoi(fields[2])
			if err != nil || n < 0 {
				return nil, fmt.Errorf("%s:%d: jobs tested %q; want an integer >= 0", path, ln, fields[2])
			}
			p.limit = n
		}
		switch fields[1] {
		case "backfill":
		case "main":
			p.main = true
		default:
			return nil, fmt.Errorf("%s:%d: pass %q; want backfill or main", path, ln, fields[1])
		}
		if n := len(out); n > 0 && p.at < out[n-1].at {
			return nil, fmt.Errorf("%s:%d: time %s before the line above's; want them in order", path, ln, fields[0])
		}
		out = append(out, p)
	}
	if err := sc.Err(); err != nil {
		return nil, fmt.Errorf("%s: %v (lines of at most 4096 bytes)", path, err)
	}
	if len(out) == 0 {
		return nil, fmt.Errorf("%s: no pass; want lines of \"SECONDS backfill\" or \"SECONDS main\"", path)
	}
	return out, nil
}

// decideListed is Decide with pass-times: the next listed pass at or
// after the first change it has not seen runs at its instant, seeing
// every arrival and end up to and including that instant. A backfill
// pass sees the changes since the last whole backfill pass; a main pass those
// since the last pass of either kind, and starts jobs from the head of
// the queue while they fit. After the last listed pass the passes of
// decision-interval (or of every instant) take over.
func (e *Easy) decideListed(v *replay.View) (replay.Time, bool) {
	now := v.Now()
	for e.passIdx < len(e.o.passes) {
		if !e.changed {
			return replay.Never, true
		}
		p := e.o.passes[e.passIdx]
		if p.at > now {
			return p.at, true
		}
		e.passIdx++
		if p.at < now {
			continue // it saw no change: the first came after it
		}
		e.v = v
		e.integrate(v)
		if p.main {
			if e.mainChanged {
				e.mainChanged = false
				capacity := [2]int{v.Slots(replay.Map), v.Slots(replay.Reduce)}
				free := [2]int{capacity[0] - e.reserved[0], capacity[1] - e.reserved[1]}
				e.head(now, &free, capacity)
			}
		} else {
			// A pass cut short leaves the jobs it did not test to the
			// next, as a change at its instant.
			if p.limit == allJobs {
				e.changed, e.mainChanged, e.ended = false, false, false
			} else {
				e.changedAt = now
			}
			e.pass(v, p.limit)
		}
		e.snapshot(v)
	}
	return 0, false
}
