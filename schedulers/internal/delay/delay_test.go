package delay

import (
	"testing"

	"sojourn/replay"
)

// TestAllowed checks FairScheduler.getAllowedLocalityLevel: after a
// node-local map, node-local until D, rack-local until 2D, then any; after
// a rack-local map, rack-local until D; after an off-rack map, any; a zero
// delay allows any.
func TestAllowed(t *testing.T) {
	const d = 3 * replay.Second
	for _, c := range []struct {
		last   replay.Locality
		waited replay.Time
		delay  replay.Time
		want   replay.Locality
	}{
		{replay.NodeLocal, 0, d, replay.NodeLocal},
		{replay.NodeLocal, d - 1, d, replay.NodeLocal},
		{replay.NodeLocal, d, d, replay.RackLocal},
		{replay.NodeLocal, 2*d - 1, d, replay.RackLocal},
		{replay.NodeLocal, 2 * d, d, replay.OffRack},
		{replay.RackLocal, 0, d, replay.RackLocal},
		{replay.RackLocal, d, d, replay.OffRack},
		{replay.OffRack, 0, d, replay.OffRack},
		{replay.NodeLocal, 0, 0, replay.OffRack},
	} {
		if got := Allowed(c.last, c.waited, c.delay); got != c.want {
			t.Errorf("Allowed(%v, %v, %v) = %v, want %v", c.last, c.waited, c.delay, got, c.want)
		}
	}
}

// TestClockCreditsSkippedHeartbeats checks the wait: a job skipped at a
// heartbeat is credited, at the next, the time between the two (at most
// the interval divided by the trackers up); a job that launched a map at a
// heartbeat, before or after being skipped at it, is not; a job not asked
// (no heartbeat offered it a slot) waits nothing however long it waits.
func TestClockCreditsSkippedHeartbeats(t *testing.T) {
	var c Clock
	c.alive = 2
	const interval = 2 * replay.Second // spacing: 1 s
	w := make([]Wait, 3)
	settle := func(now replay.Time) {
		gap, listed := c.Tick(now, interval)
		for _, j := range listed {
			Settle(&w[j].Mark, &w[j].Waited, gap)
		}
	}
	settle(0)
	c.Skip(0, &w[0].Mark)
	c.Skip(1, &w[1].Mark)
	w[1].Launch(&c, 1, replay.RackLocal) // skipped, then launched
	w[2].Launch(&c, 2, replay.NodeLocal)
	c.Skip(2, &w[2].Mark) // launched, then skipped
	c.Skip(0, &w[0].Mark) // listed once
	settle(replay.Second / 2)
	if w[0].Waited != replay.Second/2 || w[1].Waited != 0 || w[2].Waited != 0 {
		t.Fatalf("after one heartbeat: waited %v %v %v, want 0.5s 0 0", w[0].Waited, w[1].Waited, w[2].Waited)
	}
	if w[1].Last != replay.RackLocal {
		t.Errorf("job 1's level %v, want rack-local", w[1].Last)
	}
	c.Skip(0, &w[0].Mark)
	settle(100 * replay.Second) // a long silence: credited the spacing only
	if w[0].Waited != replay.Second/2+replay.Second {
		t.Errorf("after a silence: waited %v, want 1.5s", w[0].Waited)
	}
	settle(200 * replay.Second) // not asked: no credit
	if w[0].Waited != replay.Second/2+replay.Second || w[0].Mark != Unmarked {
		t.Errorf("not asked: waited %v mark %v, want 1.5s unmarked", w[0].Waited, w[0].Mark)
	}
}
