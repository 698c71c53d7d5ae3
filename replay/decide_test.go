package replay

import (
	"fmt"
	"strings"
	"testing"
)

// decider is FIFO that logs, at each Decide, the events told since the
// last one, and each heartbeat; Decide asks for a wake-up at the times of
// wake, once each.
type decider struct {
	FIFO
	log  []string
	told []string
	wake []Time
}

func (d *decider) OnEvent(ev Event, v *View) {
	switch ev.Kind {
	case JobArrived, JobFinished:
		d.told = append(d.told, fmt.Sprintf("%v:%d", ev.Kind, ev.Job))
	}
	d.FIFO.OnEvent(ev, v)
}

func (d *decider) OnHeartbeat(hb *Heartbeat) error {
	d.log = append(d.log, fmt.Sprintf("%g heartbeat", hb.Now().Sec()))
	return d.FIFO.OnHeartbeat(hb)
}

func (d *decider) Decide(v *View) Time {
	d.log = append(d.log, fmt.Sprintf("%g decide [%s]", v.Now().Sec(), strings.Join(d.told, " ")))
	d.told = d.told[:0]
	for len(d.wake) > 0 && d.wake[0] <= v.Now() {
		d.wake = d.wake[1:]
	}
	if len(d.wake) > 0 {
		return d.wake[0]
	}
	return Never
}

// TestDecideOncePerInstant: a Decider decides once per instant, after
// every arrival and end of it and before its heartbeats. One node of 4
// map slots, heartbeats every second (at 0, 1, 2, …) and out of band:
// jobs 0 and 1, one map of 10 s each, arrive at 0; job 2 (one map of
// 10 s) and job 3 (one of 2 s) at 10, when jobs 0 and 1 end. At 0 the
// policy decides on both arrivals at once, then the node heartbeats; at
// 10 on the two ends and two arrivals at once, before the out-of-band
// heartbeat; at 12 on job 3's end. A wake-up asked for at 5, when nothing
// happens, is a decision on no event; one asked for at 12 coincides with
// the end there and is the same decision.
func TestDecideOncePerInstant(t *testing.T) {
	tr := mkTrace(t, jobSpec(0, []float64{10}, nil, 0, 0), jobSpec(0, []float64{10}, nil, 0, 0),
		jobSpec(10, []float64{10}, nil, 0, 0), jobSpec(10, []float64{2}, nil, 0, 0))
	d := &decider{wake: []Time{5 * Second, 12 * Second}}
	mustRun(t, tr, d, Config{Nodes: 1, NodesPerRack: 1, MapSlots: 4, ReduceSlots: 1, Heartbeat: 1, OutOfBandHeartbeat: true})
	want := []string{
		"0 decide [job-arrived:0 job-arrived:1]",
		"0 heartbeat",
		"5 decide []",
		"10 decide [job-finished:0 job-finished:1 job-arrived:2 job-arrived:3]",
		"10 heartbeat",
		"12 decide [job-finished:3]",
		"20 decide [job-finished:2]",
	}
	if got := strings.Join(d.log, "\n"); got != strings.Join(want, "\n") {
		t.Errorf("got\n%s\nwant\n%s", got, strings.Join(want, "\n"))
	}
}
