package easy

import (
	"cmp"
	"slices"
	"testing"

	"sojourn/replay"
	"sojourn/replay/replaytest"
	"sojourn/swim"
	"sojourn/traces"
)

// TestKeptOrders: what a pass reads without sorting is, after every
// event, what sorting gives: the admitted jobs by expected end then
// admission (byExpected), the queue by estimated run time then queue
// order under sjf backfilling (bySize), and the head's reservation as the
// stable sort of the admitted jobs by max(now, expected end) gives it,
// now and as of each admitted job's expected end and the microseconds
// around it.
// Three workloads: estimate errors, so that jobs run past their expected
// ends while others wait; groups of identical jobs submitted together, so
// that expected ends and run times tie; and jobs whose expected ends fall
// on later arrivals, the boundary between a pass's two loops.
func TestKeptOrders(t *testing.T) {
	gen, err := swim.Generate(swim.Config{Profile: "fb2009", Seed: 2, Jobs: 300, Nodes: 8, MeanGap: 5})
	if err != nil {
		t.Fatal(err)
	}
	var same []*replaytest.JobBuilder
	for i := range 60 {
		g := i / 6 // six identical jobs per group
		same = append(same, replaytest.Job(float64(7*g)).Maps(2+g%3, float64(10+5*(g%4))).Reduces(1, 5))
	}
	// Users who underestimate: 3 slot-seconds for a minute of work, so
	// that a job admitted at an arrival is expected to end at the next
	// one, 3 s later, while others wait.
	var short []traces.Job
	for i := range 40 {
		j := replaytest.Job(float64(3*i)).Maps(4, 20).Reduces(1, 5).Obj()
		j.Estimate, j.HasEstimate = 3, true
		short = append(short, j)
	}
	for _, c := range []struct {
		name  string
		tr    *traces.Trace
		alpha string
	}{
		{"estimate errors", gen, "0.8"},
		{"ties", replaytest.Trace(t, same...), "0"},
		{"at expected ends", replaytest.TraceOf(t, short...), "0"},
	} {
		for _, order := range []string{"sjf", "fcfs"} {
			e := replaytest.Build(t, Policy.Build, map[string]string{"alpha": c.alpha, "backfill-order": order}).(*Easy)
			eng, err := replay.New(c.tr, e, replay.Config{Nodes: 2, Seed: 2})
			if err != nil {
				t.Fatal(err)
			}
			var overdue, atEnd, endTies, sizeTies int
			eng.Observe(func(ev replay.Event, v *replay.View) {
				now := v.Now()
				want := slices.Clone(e.admitted)
				slices.SortStableFunc(want, func(a, b int32) int { return cmp.Compare(e.expectedEnd(a), e.expectedEnd(b)) })
				if !slices.Equal(e.byExpected, want) {
					t.Fatalf("%s, %s, %v: admitted by expected end %v, want %v", c.name, order, now, e.byExpected, want)
				}
				if e.o.sjf {
					want := slices.Clone(e.queue)
					slices.SortStableFunc(want, func(a, b int32) int { return cmp.Compare(e.jobs[a].run, e.jobs[b].run) })
					if !slices.Equal(e.bySize, want) {
						t.Fatalf("%s, %s, %v: queue by size %v, want %v", c.name, order, now, e.bySize, want)
					}
					for i := 1; i < len(want); i++ {
						if e.jobs[want[i]].run == e.jobs[want[i-1]].run {
							sizeTies++
						}
					}
				}
				if len(e.queue) == 0 {
					return
				}
				for i := 1; i < len(e.byExpected); i++ {
					if e.expectedEnd(e.byExpected[i]) == e.expectedEnd(e.byExpected[i-1]) {
						endTies++
					}
				}
				if len(e.admitted) > 0 && e.expectedEnd(e.byExpected[0]) <= now {
					overdue++
				}
				for _, j := range e.admitted {
					if e.expectedEnd(j) == now {
						atEnd++
					}
				}
				capacity := [2]int{v.Slots(replay.Map), v.Slots(replay.Reduce)}
				free := [2]int{capacity[0] - e.reserved[0], capacity[1] - e.reserved[1]}
				// At now, and as if now were at each admitted job's expected
				// end or just around it: the boundary of the pass's loops.
				at := []replay.Time{now}
				for _, j := range e.admitted {
					at = append(at, e.expectedEnd(j)-1, e.expectedEnd(j), e.expectedEnd(j)+1)
				}
				for _, tm := range at {
					shadow, avail := e.reservation(tm, e.queue[0], free, capacity)
					wantShadow, wantAvail := refReservation(e, tm, e.queue[0], free, capacity)
					if shadow != wantShadow || avail != wantAvail {
						t.Fatalf("%s, %s, %v: reservation as of %v at %v with %v free, want %v with %v", c.name, order, now, tm, shadow, avail, wantShadow, wantAvail)
					}
				}
			})
			if _, err := eng.Run(); err != nil {
				t.Fatal(err)
			}
			t.Logf("%s, %s: %d checks with a job past its expected end, %d at it, %d ties of expected ends, %d of sizes", c.name, order, overdue, atEnd, endTies, sizeTies)
			switch {
			case c.name == "estimate errors" && overdue == 0:
				t.Errorf("%s, %s: no job ran past its expected end while others waited", c.name, order)
			case c.name == "ties" && (endTies == 0 || order == "sjf" && sizeTies == 0):
				t.Errorf("%s, %s: no ties (%d of expected ends, %d of sizes)", c.name, order, endTies, sizeTies)
			case c.name == "at expected ends" && atEnd == 0:
				t.Errorf("%s, %s: no event at a job's expected end while others waited", c.name, order)
			}
		}
	}
}

// refReservation is reservation as the stable sort of the admitted jobs
// by max(now, expected end) gives it.
func refReservation(e *Easy, now replay.Time, head int32, free, capacity [2]int) (replay.Time, [2]int) {
	end := func(j int32) replay.Time { return max(now, e.expectedEnd(j)) }
	byEnd := slices.Clone(e.admitted)
	slices.SortStableFunc(byEnd, func(a, b int32) int { return cmp.Compare(end(a), end(b)) })
	avail := free
	for _, j := range byEnd {
		avail[0] += e.jobs[j].width[0]
		avail[1] += e.jobs[j].width[1]
		if e.fits(head, avail, capacity) {
			return end(j), avail
		}
	}
	return replay.Never, avail
}
