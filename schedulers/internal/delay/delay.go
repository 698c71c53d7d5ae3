// Package delay is delay scheduling (Zaharia et al., EuroSys 2010) as
// Hadoop 1.x's FairScheduler applies it, one rule for every policy that
// uses it: a job skipped for want of a close enough map is credited, at the
// next heartbeat, the time since the heartbeat that skipped it; it may take
// a rack-local map once credited D, and an off-rack one after 2D.
//
// The rule is FairScheduler's (JobInfo.timeWaitedForLocalMap,
// skippedAtLastHeartbeat, lastMapLocalityLevel; updateLocalityWaitTimes
// and getAllowedLocalityLevel): at each heartbeat every job flagged
// skipped at the previous one has its wait grow by the time between the
// two heartbeats, and the flag is cleared; a job visited for a map that
// launches none at that heartbeat is flagged; launching a map resets the wait to zero and
// sets the job's level to that map's locality. The allowed locality
// follows from the level and the wait: after a node-local map, node-local
// until the wait reaches D, rack-local until 2D, then any; after a
// rack-local map, rack-local until D, then any; after an off-rack map,
// any. The wait is thus the heartbeats that passed the job over, not the
// wall-clock time since it was first passed over: a job that is not
// offered a slot (the cluster is full) does not wait.
//
// In Hadoop every tracker heartbeats, busy or not, so the time between
// two heartbeats is about the interval divided by the trackers. The
// engine's busy trackers are silent, so the credit is capped at that
// spacing (Clock.Tick).
package delay

import "sojourn/replay"

// Wait is one job's delay-scheduling state. Its zero value is a job that
// has launched no map (level node-local) and waited nothing.
type Wait struct {
	// Waited is the time credited since the job's last map launch.
	Waited replay.Time
	// Last is the locality of its last map launch (node-local before any).
	Last replay.Locality
	// Mark is what the job did at the current heartbeat.
	Mark Mark
}

// Mark is what a job did at a heartbeat: as in FairScheduler.assignTasks,
// a job asked for a map is skipped unless it launched one at the same
// heartbeat.
type Mark int8

const (
	Unmarked Mark = iota // not asked, or not yet
	Skipped              // asked and launched no map (so far)
	Launched             // launched a map
)

// Level is the worst locality the job may accept now (see Allowed).
func (w *Wait) Level(delay replay.Time) replay.Locality {
	return Allowed(w.Last, w.Waited, delay)
}

// Launch records that job j launched a map of locality loc: the wait
// starts again from zero at that level.
func (w *Wait) Launch(c *Clock, j int32, loc replay.Locality) {
	w.Waited, w.Last = 0, loc
	c.Launch(j, &w.Mark)
}

// Allowed is FairScheduler.getAllowedLocalityLevel: the worst locality a
// job whose last map had locality last, and which has since been credited
// waited, may accept. A zero delay turns delay scheduling off.
func Allowed(last replay.Locality, waited, delay replay.Time) replay.Locality {
	if delay == 0 {
		return replay.OffRack
	}
	switch last {
	case replay.NodeLocal:
		switch {
		case waited >= 2*delay:
			return replay.OffRack
		case waited >= delay:
			return replay.RackLocal
		}
		return replay.NodeLocal
	case replay.RackLocal:
		if waited >= delay {
			return replay.OffRack
		}
		return replay.RackLocal
	}
	return replay.OffRack
}

// Clock is a policy's side of the rule: the jobs skipped at the last
// heartbeat, and when it was. Start it, give it the node events, call Tick
// at the start of every heartbeat and Skip for each job passed over.
type Clock struct {
	alive   int // trackers up
	last    replay.Time
	seen    bool
	skipped []int32
}

// Start sets the clock up for the cluster of v.
func (c *Clock) Start(v *replay.View) {
	c.alive = 0
	for n := range v.Nodes() {
		if v.Alive(int32(n)) {
			c.alive++
		}
	}
	c.seen, c.skipped = false, c.skipped[:0]
}

// OnEvent keeps the count of trackers up, given an event's kind (not the
// event: a copy of it, just stored by the engine field by field, stalls
// on the stores).
func (c *Clock) OnEvent(kind replay.EventKind) {
	switch kind {
	case replay.NodeFailed:
		c.alive--
	case replay.NodeRecovered:
		c.alive++
	}
}

// Tick starts a heartbeat at now (the cluster's heartbeat interval is
// interval): it returns the credit gap, the time
// since the previous heartbeat capped at the interval divided by the
// trackers up, and the jobs marked at the previous heartbeat, each to be
// settled (Settle): credited the gap if skipped, and unmarked. The slice
// is valid until the next Skip or Launch.
func (c *Clock) Tick(now, interval replay.Time) (gap replay.Time, skipped []int32) {
	if c.seen {
		gap = min(interval/replay.Time(max(c.alive, 1)), now-c.last)
	}
	c.last, c.seen = now, true
	skipped = c.skipped
	c.skipped = c.skipped[:0]
	return gap, skipped
}

// Skip records that job j, whose mark is m, was asked for a map at this
// heartbeat and had none close enough.
func (c *Clock) Skip(j int32, m *Mark) {
	if *m == Unmarked {
		*m = Skipped
		c.skipped = append(c.skipped, j)
	}
}

// Launch records that job j, whose mark is m, launched a map at this
// heartbeat: it is not skipped, whatever it refused before or after.
func (c *Clock) Launch(j int32, m *Mark) {
	if *m == Unmarked {
		c.skipped = append(c.skipped, j)
	}
	*m = Launched
}

// Settle is the end of a heartbeat for a job Tick listed, with mark m and
// wait waited: credited gap if it was skipped; its mark cleared.
func Settle(m *Mark, waited *replay.Time, gap replay.Time) {
	if *m == Skipped {
		*waited += gap
	}
	*m = Unmarked
}

// Credit is Tick for policies whose jobs' states are Waits: wait(j) is job
// j's.
func (c *Clock) Credit(hb *replay.Heartbeat, wait func(int32) *Wait) {
	gap, listed := c.Tick(hb.Now(), hb.HeartbeatInterval())
	for _, j := range listed {
		w := wait(j)
		Settle(&w.Mark, &w.Waited, gap)
	}
}

// Duration is the delay-scheduling wait for a policy's locality-delay
// option, in seconds: -1 picks min(15 s, 1.5 heartbeats), 0 turns it off.
func Duration(opt float64, v *replay.View) replay.Time {
	if opt < 0 {
		return min(15*replay.Second, v.HeartbeatInterval()*3/2)
	}
	return replay.Seconds(opt)
}

// Next is job j's next task of kind k for this tracker: a map at the
// locality its wait allows (if none, the job is skipped; if one, the wait
// starts again), or any pending reduce.
func Next(hb *replay.Heartbeat, j int32, k replay.TaskKind, w *Wait, c *Clock, delay replay.Time) (int32, bool) {
	if k == replay.Reduce {
		return hb.PendingReduce(j)
	}
	t, loc, ok := hb.PendingMap(j, hb.Node(), w.Level(delay))
	if !ok {
		c.Skip(j, &w.Mark)
		return 0, false
	}
	w.Launch(c, j, loc)
	return t, true
}

// Nearest is job j's next task of kind k for this tracker without delay
// scheduling: a map at the best locality the node offers, or any pending
// reduce.
func Nearest(hb *replay.Heartbeat, j int32, k replay.TaskKind) (int32, bool) {
	if k == replay.Reduce {
		return hb.PendingReduce(j)
	}
	t, _, ok := hb.PendingMap(j, hb.Node(), replay.OffRack)
	return t, ok
}
