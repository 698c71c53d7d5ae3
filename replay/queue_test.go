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

// TestHeapOrder: the 4-ary heap pops events by time, then key, whatever
// the order of pushes, with many ties of time and pops between pushes.
func TestHeapOrder(t *testing.T) {
	rng := rand.New(rand.NewPCG(7, 7))
	var h heap4
	var popped []event
	const steps = 20_000
	for step := 0; step < steps; step++ {
		if len(h) > 0 && rng.IntN(3) == 0 {
			popped = append(popped, h.pop())
			continue
		}
		h.push(event{at: Time(rng.IntN(50)), key: uint64(step)})
	}
	for len(h) > 0 {
		popped = append(popped, h.pop())
	}
	// Between pushes the pops come out smallest first: check each pop
	// against the heap's content at that time by replaying with a sorted
	// reference.
	rng = rand.New(rand.NewPCG(7, 7))
	var ref []event
	i := 0
	for step := 0; step < steps; step++ {
		if len(ref) > 0 && rng.IntN(3) == 0 {
			m := 0
			for k := range ref {
				if ref[k].less(ref[m]) {
					m = k
				}
			}
			if popped[i] != ref[m] {
				t.Fatalf("pop %d: heap %+v, smallest %+v", i, popped[i], ref[m])
			}
			ref = append(ref[:m], ref[m+1:]...)
			i++
			continue
		}
		ref = append(ref, event{at: Time(rng.IntN(50)), key: uint64(step)})
	}
	for i++; i < len(popped); i++ {
		if popped[i].less(popped[i-1]) {
			t.Fatalf("draining: pop %d %+v before %+v", i, popped[i-1], popped[i])
		}
	}
}
