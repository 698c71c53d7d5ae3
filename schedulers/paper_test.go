package schedulers

import (
	"fmt"
	"math"
	"strings"
	"testing"

	"sojourn/replay"
	"sojourn/replay/replaytest"
	"sojourn/replay/scenario"
	"sojourn/traces"
)

// The papers' experiments that compare a policy with the plain fair
// scheduler, as the papers do.

// TestPaperBackfillCases runs the paper's three cases (Tables 1–3; see
// replay/scenario/easy.go for the sizes) under easy (job-share 1, as the
// paper's pools gave a job as many slots as it had tasks) and under fair
// (the paper's "without backfilling"), and logs the finish times next to
// the paper's. Checked are the behaviours the paper describes that the
// model must reproduce:
//
//   - Case 2: backfilling runs the later 2 MB job (j4) before the 2.5 MB
//     job (j3) that precedes it in the queue: j4 ends first.
//   - Case 3: the two small jobs submitted first (j1, j2) end before the
//     3.5 MB job (j4), and the late small job (j5) is served after the
//     2.5 MB job (j3) has started. (The 2.5 MB job's three maps run in
//     parallel, so it ends with the small jobs, as in the paper's table.)
//
// The paper's rows are matched to the jobs by size (its tables number them
// differently). Case 1 is not checked: the paper finds equal times, but
// here EASY runs the four 3-slot jobs one after another on the 5 slots
// (the 2 left over never fit the next job), so its mean sojourn is higher
// than FAIR's.
func TestPaperBackfillCases(t *testing.T) {
	paper := map[string][][2]float64{ // finish times without / with backfilling, in trace order
		"equal":  {{5.07, 5.11}, {5.01, 5.09}, {5.07, 5.09}, {6.50, 6.61}},
		"medium": {{2.50, 2.52}, {2.57, 3.01}, {2.57, 3.51}, {3.34, 3.08}},
		"small":  {{2.49, 2.15}, {2.57, 2.26}, {2.49, 2.26}, {6.15, 5.37}, {6.23, 5.36}},
	}
	for _, c := range []struct {
		name  string
		build func() (*traces.Trace, replay.Config)
	}{{"equal", scenario.BackfillEqual}, {"medium", scenario.BackfillMedium}, {"small", scenario.BackfillSmall}} {
		t.Run(c.name, func(t *testing.T) {
			tr, cfg := c.build()
			easy := replaytest.Run(t, tr, build(t, "easy", map[string]string{"job-share": "1"}), cfg)
			fair := replaytest.Run(t, tr, build(t, "fair", nil), cfg)
			var b strings.Builder
			fmt.Fprintf(&b, "case %s (finish s)   fair  easy | paper: without  with\n", c.name)
			for i := range tr.Jobs {
				fmt.Fprintf(&b, "  j%d %-6s at %3.1f s  %5.2f %5.2f |        %5.2f %5.2f\n", i+1, tr.Jobs[i].Name, tr.Jobs[i].Submit,
					fair.Jobs[i].Finish.Sec(), easy.Jobs[i].Finish.Sec(), paper[c.name][i][0], paper[c.name][i][1])
			}
			fmt.Fprintf(&b, "  mean sojourn           %5.2f %5.2f", fair.MeanSojourn(), easy.MeanSojourn())
			t.Log(b.String())
			fin := func(j int) float64 { return easy.Jobs[j].Finish.Sec() }
			switch c.name {
			case "medium":
				if !(fin(3) < fin(2)) {
					t.Errorf("easy: the backfilled 2 MB job ends at %v s, not before the 2.5 MB job (%v s)", fin(3), fin(2))
				}
			case "small":
				if !(math.Max(fin(0), fin(1)) < fin(3)) {
					t.Errorf("easy: small jobs end at %v and %v s, not before the 3.5 MB job (%v s)", fin(0), fin(1), fin(3))
				}
				if first := easy.Jobs[4].FirstLaunch; first < easy.Jobs[2].FirstLaunch {
					t.Errorf("easy: the late small job started at %v, before the 2.5 MB job (%v)", first, easy.Jobs[2].FirstLaunch)
				}
			}
		})
	}
}

// TestPaperDiscoResearchProduction: Section 4's experiment over 10 seeds
// (traces/scenario.DiscoResearchProduction): disco against the plain fair
// scheduler. The paper reports the production job 8.4 times faster and
// the research job 4% slower on average; much of its 8.4× comes from a
// one-minute wait of the production job between its map and shuffle
// phases under Disco's fair policy, which Hadoop's separate reduce slots
// do not have, so the model's speed-up is smaller. Checked is what the
// policy must guarantee: the production job is faster under disco for
// every seed; the averages are logged.
func TestPaperDiscoResearchProduction(t *testing.T) {
	var speedup, slowdown float64
	const seeds = 10
	for seed := uint64(1); seed <= seeds; seed++ {
		tr, cfg := scenario.DiscoResearchProduction(seed)
		cfg.Seed = seed
		d := replaytest.Run(t, tr, build(t, "disco", map[string]string{"seed": "1"}), cfg)
		f := replaytest.Run(t, tr, build(t, "fair", nil), cfg)
		dp, fp := d.Jobs[1].Sojourn().Sec(), f.Jobs[1].Sojourn().Sec()
		dr, fr := d.Jobs[0].Sojourn().Sec(), f.Jobs[0].Sojourn().Sec()
		t.Logf("seed %2d: production %6.1f s under fair, %5.1f s under disco (%.1f×); research %6.1f s, %6.1f s (%+.1f%%); kills %d",
			seed, fp, dp, fp/dp, fr, dr, 100*(dr/fr-1), d.Jobs[0].Kills)
		if dp >= fp {
			t.Errorf("seed %d: production job takes %.1f s under disco, %.1f s under fair", seed, dp, fp)
		}
		speedup += fp / dp / seeds
		slowdown += (dr/fr - 1) / seeds
	}
	t.Logf("mean over %d seeds: production %.2f× faster (paper 8.4×), research %+.1f%% (paper +4%%)", seeds, speedup, 100*slowdown)
}
