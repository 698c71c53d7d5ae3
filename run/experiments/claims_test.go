package experiments

import (
	"math"
	"path/filepath"
	"testing"

	"sojourn/analysis"
	"sojourn/reports"
	"sojourn/traces"
)

// The verdict rule, case by case: interval inside, mean inside, neither.
func TestVerdictRule(t *testing.T) {
	tol := between(10, 20, "15 ± 5")
	for _, c := range []struct {
		mean, lo, hi float64
		want         reports.Verdict
	}{
		{15, 12, 18, reports.Holds},
		{15, 10, 20, reports.Holds},
		{15, 8, 22, reports.Partly},
		{19, 17, 21, reports.Partly},
		{22, 21, 23, reports.Fails},
		{9, 8, 10, reports.Fails},
		{math.NaN(), math.NaN(), math.NaN(), reports.Fails},
	} {
		if got := verdictOf(tol, c.mean, c.lo, c.hi); got != c.want {
			t.Errorf("mean %v [%v, %v] against [10, 20]: %s, want %s", c.mean, c.lo, c.hi, got, c.want)
		}
	}
	if above(0, "").contains(0) || !above(0, "").contains(1e-9) || !atMost(1, "").contains(1) || atLeast(1, "").contains(0.99) {
		t.Error("open and closed bands")
	}
}

// A claim over seeds: its mean and Student-t interval, the seeds it holds
// on, every-seed claims, and a bound outside the tolerance.
func TestClaimOverSeeds(t *testing.T) {
	id := func(v float64) float64 { return v }
	c := check[float64]{statement: "s", paper: "p", tol: atMost(1.1, "≤ 1.10×"), value: id, show: showRatio}
	values := []float64{1.0, 1.05, 1.02, 1.2}
	mean, lo, hi := analysis.MeanCI(values, 0.95)
	cl := claimFrom(c, values, nil, false)
	if cl.Seeds != 4 || cl.HoldsIn != 3 || cl.Ours != showRatio(mean)+" ["+showRatio(lo)+", "+showRatio(hi)+"]" {
		t.Errorf("claim %+v", cl)
	}
	if hi <= 1.1 || cl.Verdict != reports.Partly {
		t.Errorf("interval [%v, %v] crosses 1.1: verdict %s, want partly", lo, hi, cl.Verdict)
	}
	c.everySeed = true
	inside := []float64{1.0, 1.01, 1.0, 1.02}
	if cl := claimFrom(c, inside, nil, false); cl.Verdict != reports.Holds || cl.HoldsIn != 4 {
		t.Errorf("every seed inside: %+v", cl)
	}
	c.tol = atMost(1.015, "")
	if cl := claimFrom(c, inside, nil, false); cl.Verdict == reports.Holds || cl.HoldsIn != 3 {
		t.Errorf("an every-seed claim failing on one seed: %+v", cl)
	}
	// FIFO/HFSP within 5–10× cannot hold when FIFO/SRPT is about 2.
	c = check[float64]{tol: between(5, 10, ""), value: id, show: showRatio, boundName: "bound"}
	if cl := claimFrom(c, []float64{2.5, 2.7, 2.6}, []float64{2.9, 3.0, 2.8}, false); cl.Verdict != reports.NotReproduced {
		t.Errorf("bound outside the tolerance: %s", cl.Verdict)
	}
	if cl := claimFrom(c, []float64{2.5, 2.7, 2.6}, []float64{4, 6, 8}, false); cl.Verdict != reports.Fails {
		t.Errorf("bound reaching the tolerance: %s", cl.Verdict)
	}
	if cl := claimFrom(c, []float64{7}, nil, true); cl.Verdict != reports.Holds || cl.SeedsCell() != "1 of 1 (no randomness)" {
		t.Errorf("deterministic claim: %+v", cl)
	}
}

// The claims' in-memory replays agree with the figures' result files: on
// the figures' seed, fig3's and tables' claim values recomputed from
// jobs.arrow, and every claim has a value per seed.
func TestClaimValuesMatchResultFiles(t *testing.T) {
	dir, all := runAll(t)
	classMean := func(run, class string) float64 {
		j := readJobs(t, dir, "fig3", run)
		var xs []float64
		for i, c := range j.Class {
			if c == class {
				xs = append(xs, j.Sojourn[i])
			}
		}
		return analysis.Mean(xs)
	}
	for i, class := range []string{"small", "medium", "big"} {
		want := classMean("hfsp", class) / classMean("fair", class)
		if got := all["fig3"].Claims[i].Values[0]; math.Abs(float64(got)-want) > 1e-6 {
			t.Errorf("fig3 %s: claim on seed 1 %v, result files %v", class, got, want)
		}
	}
	for i, w := range []string{"fb2009", "fb2010"} {
		mean := func(p string) float64 {
			return analysis.Mean(readJobs(t, dir, "tables", filepath.Join(w, p)).Sojourn)
		}
		if got, want := all["tables"].Claims[i].Values[0], mean("fifo")/mean("hfsp"); math.Abs(float64(got)-want) > 1e-6 {
			t.Errorf("%s FIFO/HFSP: claim on seed 1 %v, result files %v", w, got, want)
		}
	}
	for name, sec := range all {
		for _, c := range sec.Claims {
			switch {
			case c.Verdict == reports.NotShown:
			case c.Deterministic:
				if c.Seeds != 1 || len(c.Values) != 1 {
					t.Errorf("%s: deterministic claim %q with %d values", name, c.Statement, len(c.Values))
				}
			case c.Seeds != len(testSeeds) || len(c.Values) != len(testSeeds) || c.Tolerance == "":
				t.Errorf("%s: claim %q on %d seeds with %d values, tolerance %q", name, c.Statement, c.Seeds, len(c.Values), c.Tolerance)
			}
		}
	}
}

// Offered load of a hand-computed two-job trace.
func TestOfferedLoad(t *testing.T) {
	tr := &traces.Trace{Jobs: []traces.Job{
		{Submit: 0, MapDurations: []float64{10, 10}, ReduceDurations: []float64{5}},
		{Submit: 100, MapDurations: []float64{20}},
	}}
	l := loadOf(tr, 4, 2)
	// Maps 40 s of work over 4 slots × 100 s; reduces 5 s over 2 × 100 s;
	// sizes 25 and 20 s: mean 22.5, sample deviation √12.5.
	if l.span != 100 || math.Abs(l.mapLoad-0.1) > 1e-12 || math.Abs(l.reduceLoad-0.025) > 1e-12 ||
		math.Abs(l.sizeCV-math.Sqrt(12.5)/22.5) > 1e-12 {
		t.Errorf("%+v", l)
	}
}
