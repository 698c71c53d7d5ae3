package replay

import "testing"

// TestEventMask checks the sets policies and observers declare: by event
// kind, and for task events by the task's kind.
func TestEventMask(t *testing.T) {
	mapStart := Event{Kind: TaskStarted, Task: TaskRef{Kind: Map}}
	reduceStart := Event{Kind: TaskStarted, Task: TaskRef{Kind: Reduce}}
	arrival := Event{Kind: JobArrived}
	recovery := Event{Kind: NodeRecovered}
	for _, c := range []struct {
		name string
		m    EventMask
		ev   Event
		want bool
	}{
		{"all: a reduce's start", AllEvents, reduceStart, true},
		{"all: the last kind", AllEvents, recovery, true},
		{"starts: a map's", EventsOf(TaskStarted), mapStart, true},
		{"starts: a reduce's", EventsOf(TaskStarted), reduceStart, true},
		{"starts: an arrival", EventsOf(TaskStarted), arrival, false},
		{"map starts: a map's", TaskEventsOf(Map, TaskStarted), mapStart, true},
		{"map starts: a reduce's", TaskEventsOf(Map, TaskStarted), reduceStart, false},
		{"reduce starts: a reduce's", TaskEventsOf(Reduce, TaskStarted), reduceStart, true},
		{"all but map starts: a reduce's", AllEvents &^ TaskEventsOf(Map, TaskStarted), reduceStart, true},
		{"all but map starts: a map's", AllEvents &^ TaskEventsOf(Map, TaskStarted), mapStart, false},
		{"recoveries", EventsOf(NodeRecovered), recovery, true},
		{"none", 0, arrival, false},
	} {
		if got := c.m.Has(c.ev); got != c.want {
			t.Errorf("%s: Has = %v, want %v", c.name, got, c.want)
		}
	}
}
