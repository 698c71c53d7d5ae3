package easy

import (
	"testing"

	"sojourn/traces"

	"sojourn/replay/replaytest"
)

// swfJob is a job as an SWF log gives it: rigid, no input, maps of d
// seconds, and the user's requested time req (an estimate of req × maps
// slot-seconds, so an estimated run time of req at its width).
func swfJob(submit float64, maps int, d, req float64) traces.Job {
	j := replaytest.Job(submit).Maps(maps, d).Rigid().Input(0).Obj()
	j.Estimate, j.HasEstimate = req*float64(maps), true
	return j
}

// TestEasyCoincidentEnds: jobs ending at the same instant release their
// slots together. One node of 16 map slots, heartbeats every second and
// out of band, SWF-like rigid jobs with user estimates (requested times):
//
//	jobs 1–4: 4 maps of 10 s each (width 4), requested 20 s, at t = 0
//	job 5:    16 maps of 10 s (width 16), requested 10 s, at t = 1
//	job 6:    4 maps of 5 s (width 4), requested 5 s, at t = 1
//
// Jobs 1–4 fill the node at 0. At t = 1 job 5, the head, gets a
// reservation at 20 (the requested ends of 1–4); job 6 does not fit.
// At t = 10 jobs 1–4 all end. EASY sees one event: 16 slots free, job 5
// fits and starts at 10 (ends 20); job 6, the new head, gets the shadow
// time 20 and starts then (ends 25). Decided one end at a time, the
// first end frees 4 slots, job 5 does not fit, its shadow is still 20
// (jobs 2–4's requested ends) and job 6, ending at 15 ≤ 20, is
// backfilled at 10; job 5 then waits for job 6, 15–25.
func TestEasyCoincidentEnds(t *testing.T) {
	tr := replaytest.TraceOf(t, swfJob(0, 4, 10, 20), swfJob(0, 4, 10, 20), swfJob(0, 4, 10, 20),
		swfJob(0, 4, 10, 20), swfJob(1, 16, 10, 10), swfJob(1, 4, 5, 5))
	r := replaytest.Run(t, tr, replaytest.Build(t, Policy.Build, nil), replaytest.OneNode(16, 1))
	replaytest.CheckFinish(t, r, 10, 10, 10, 10, 20, 25)
	if s := r.Jobs[4].FirstLaunch.Sec(); s != 10 {
		t.Errorf("job 5 starts at %v s, want 10", s)
	}
}
