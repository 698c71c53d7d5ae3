package scenario

import (
	"testing"
)

// SWFLike: gangs of equal tasks, estimates at or above the true work and
// round limits, the requested load, the same trace for the same seed.
func TestSWFLike(t *testing.T) {
	tr := SWFLike(3, 400, 400, 0.9)
	if err := tr.Validate(); err != nil {
		t.Fatal(err)
	}
	var work float64
	over := 0
	for _, j := range tr.Jobs {
		run := j.MapDurations[0]
		for _, d := range j.MapDurations {
			if d != run {
				t.Fatalf("job %d: tasks of unequal run times", j.ID)
			}
		}
		if p := len(j.MapDurations); p&(p-1) != 0 || p > 64 || len(j.ReduceDurations) != 0 {
			t.Fatalf("job %d: %d processors, %d reduces", j.ID, p, len(j.ReduceDurations))
		}
		w := run * float64(len(j.MapDurations))
		work += w
		if !j.HasEstimate || j.Estimate < w {
			t.Fatalf("job %d: estimate %v below its work %v", j.ID, j.Estimate, w)
		}
		if j.Estimate > w {
			over++
		}
	}
	span := tr.Jobs[len(tr.Jobs)-1].Submit - tr.Jobs[0].Submit
	if load := work / (400 * span); load < 0.7 || load > 1.2 {
		t.Errorf("offered load %.2f, want about 0.9", load)
	}
	if over < len(tr.Jobs)*9/10 {
		t.Errorf("%d of %d estimates above the work; users overestimate", over, len(tr.Jobs))
	}
	again := SWFLike(3, 400, 400, 0.9)
	for i := range tr.Jobs {
		if tr.Jobs[i].Submit != again.Jobs[i].Submit || tr.Jobs[i].Estimate != again.Jobs[i].Estimate {
			t.Fatal("same seed, different trace")
		}
	}
}
