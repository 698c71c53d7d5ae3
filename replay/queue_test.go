package replay

import (
	"math/rand/v2"
	"testing"
)

// TestCalendarOrder: the calendar queues pop events in exactly the order
// of the plain heaps, with ties, events beyond the ring and jumps over
// empty stretches.
func TestCalendarOrder(t *testing.T) {
	rng := rand.New(rand.NewPCG(4, 4))
	var flat, cal eventQueue
	cal.init(calendarSlots)
	now := Time(0)
	for step := 0; step < 300_000; step++ {
		if flat.len() > 0 && rng.IntN(2) == 0 {
			a, b := flat.pop(), cal.pop()
			if a != b {
				t.Fatalf("step %d: heap popped %+v, calendar %+v", step, a, b)
			}
			now = a.at
			continue
		}
		var d Time
		switch rng.IntN(6) {
		case 0:
			d = 0 // a tie with now
		case 1:
			d = Time(rng.Int64N(3)) * Second // heartbeat-like
		case 2:
			d = Time(rng.Int64N(20_000)) * Second // beyond the ring
		default:
			d = Time(rng.Int64N(200_000_000))
		}
		kind := []eventKind{evTaskEnd, evHeartbeat, evArrival, evSweep}[rng.IntN(4)]
		e := newEvent(now+d, kind, int32(step), 0, 0, Map)
		flat.push(e)
		cal.push(e)
	}
	for flat.len() > 0 {
		if a, b := flat.pop(), cal.pop(); a != b {
			t.Fatalf("draining: heap popped %+v, calendar %+v", a, b)
		}
	}
	if cal.len() != 0 {
		t.Fatalf("calendar holds %d events after the heap is empty", cal.len())
	}
}
