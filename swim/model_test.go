package swim

import (
	"bytes"
	"flag"
	"math"
	"os"
	"sort"
	"testing"
)

var refit = flag.Bool("refit", false, "rewrite the embedded models (model_fb20*.go) from the SWIM samples in "+dataDir)

// dataDir holds the public SWIM samples, beside the repository. They are
// read from there and never copied into the repository.
const dataDir = "../../shared/data/swim"

func needData(t *testing.T) {
	t.Helper()
	if _, err := os.Stat(dataDir); err != nil {
		t.Skipf("SWIM samples not found at %s (the repository's ../shared/data/swim); skipping", dataDir)
	}
}

// TestRefit checks that the embedded models are what Fit gives on the SWIM
// samples today; with -refit it rewrites them instead:
//
//	go test ./swim -run TestRefit -refit
func TestRefit(t *testing.T) {
	needData(t)
	for _, e := range EmbeddedFits {
		m, _, err := FitFiles(dataDir, e.Options)
		if err != nil {
			t.Fatal(err)
		}
		src, err := m.GoSource(e.Var, `"`+RefitCommand+`"`)
		if err != nil {
			t.Fatal(err)
		}
		if *refit {
			if err := os.WriteFile(e.File, src, 0o644); err != nil {
				t.Fatal(err)
			}
			t.Logf("wrote %s (%d bytes)", e.File, len(src))
			continue
		}
		have, err := os.ReadFile(e.File)
		if err != nil {
			t.Fatal(err)
		}
		if !bytes.Equal(have, src) {
			t.Errorf("%s is not what Fit gives on %v; run %s", e.File, e.Options.Sources, RefitCommand)
		}
	}
}

// ks returns the two-sample Kolmogorov–Smirnov statistic: the largest
// distance between the empirical CDFs of a and b (sorted in place), with
// ties handled by moving past equal values in both samples at once.
func ks(a, b []float64) float64 {
	sort.Float64s(a)
	sort.Float64s(b)
	var d float64
	i, j := 0, 0
	for i < len(a) && j < len(b) {
		x := min(a[i], b[j])
		for i < len(a) && a[i] == x {
			i++
		}
		for j < len(b) && b[j] == x {
			j++
		}
		d = max(d, math.Abs(float64(i)/float64(len(a))-float64(j)/float64(len(b))))
	}
	return d
}

func TestKSStatistic(t *testing.T) {
	if d := ks([]float64{1, 2, 3}, []float64{1, 2, 3}); d != 0 {
		t.Errorf("identical samples: D = %v, want 0", d)
	}
	if d := ks([]float64{1, 2}, []float64{3, 4}); d != 1 {
		t.Errorf("disjoint samples: D = %v, want 1", d)
	}
	// a = {0,0,1,1}, b = {0,1,1,1}: at 0 the CDFs are 1/2 and 1/4.
	if d := ks([]float64{0, 0, 1, 1}, []float64{0, 1, 1, 1}); d != 0.25 {
		t.Errorf("ties: D = %v, want 0.25", d)
	}
}

// TestModelMatchesSamples compares the embedded models with the SWIM
// samples they were fitted to, by the two-sample Kolmogorov–Smirnov
// statistic D on input, shuffle and output bytes and on gaps.
//
// The bound is the critical value at α = 0.001 for the two sample sizes,
// c·sqrt((n+m)/(n·m)) with c = sqrt(−ln(α/2)/2) = 1.95 (0.020 for FB-2009's
// 12,532 jobs against 50,000 draws, 0.012 for FB-2010's 49,870), plus a
// modelling allowance of 0.03. The allowance covers what the model
// deliberately smooths: quantile tables interpolate linearly between knots
// up to 5 percentage points apart in the per-stratum ratio tables (1 point
// in the input and gap tables), which spreads the samples' point masses
// (e.g. the many jobs with exactly 76 input bytes, whole-second gaps) over
// the space between knots; half a 5-point knot spacing, plus the mixing
// over 8 strata, is about 0.03. A model fitted to the other trace (FB-2010
// against FB-2009) is checked to fail the same bound, so the test can fail.
func TestModelMatchesSamples(t *testing.T) {
	needData(t)
	const draws = 50_000
	models := map[string]*Model{"FB-2009": modelFB2009, "FB-2010": modelFB2010}
	for _, e := range EmbeddedFits {
		_, recs, err := FitFiles(dataDir, e.Options)
		if err != nil {
			t.Fatal(err)
		}
		bound := 1.95*math.Sqrt(float64(len(recs)+draws)/float64(len(recs)*draws)) + 0.03
		for name, m := range models {
			d := modelKS(m, recs, draws)
			t.Logf("model %s vs samples %s: D input %.4f shuffle %.4f output %.4f gap %.4f (bound %.4f)",
				name, e.Options.Name, d[0], d[1], d[2], d[3], bound)
			if name == e.Options.Name {
				for k, what := range []string{"input", "shuffle", "output", "gap"} {
					if d[k] > bound {
						t.Errorf("model %s: KS D on %s bytes/gaps = %.4f > %.4f", name, what, d[k], bound)
					}
				}
			} else if max(d[0], d[1], d[2], d[3]) <= bound {
				t.Errorf("model %s is within the bound of the %s samples on every column; the test cannot tell traces apart", name, e.Options.Name)
			}
		}
	}
}

func modelKS(m *Model, recs []Record, draws int) [4]float64 {
	rng := newStream(1, 99, 0)
	var got, want [4][]float64
	for range draws {
		s := m.Draw(rng)
		got[0] = append(got[0], float64(s.Input))
		got[1] = append(got[1], float64(s.Shuffle))
		got[2] = append(got[2], float64(s.Output))
		got[3] = append(got[3], m.DrawGap(rng.Float64()))
	}
	for _, r := range recs {
		want[0] = append(want[0], float64(r.InputBytes))
		want[1] = append(want[1], float64(r.ShuffleBytes))
		want[2] = append(want[2], float64(r.OutputBytes))
		want[3] = append(want[3], r.Gap)
	}
	var d [4]float64
	for k := range d {
		d[k] = ks(got[k], want[k])
	}
	return d
}

func TestModelsAreValid(t *testing.T) {
	for _, m := range []*Model{modelFB2009, modelFB2010} {
		if err := m.validate(); err != nil {
			t.Error(err)
		}
	}
}

// TestModelKeepsJointStructure: per fifth of the input distribution, the
// models keep the share of map-only jobs (zero shuffle) within 0.03 and
// the median of ln((1+shuffle)/(1+input)) of the other jobs within 0.5
// (a factor of 1.65 in the ratio). Across fifths the share runs from 0.21
// to 0.98 in FB-2009 and the median from −2.5 to −0.3 in FB-2010, so a
// model that ignored the input size would fail.
func TestModelKeepsJointStructure(t *testing.T) {
	needData(t)
	for i, e := range EmbeddedFits {
		m := []*Model{modelFB2009, modelFB2010}[i]
		_, recs, err := FitFiles(dataDir, e.Options)
		if err != nil {
			t.Fatal(err)
		}
		rng := newStream(2, 99, 0)
		drawn := make([]Record, 100_000)
		for k := range drawn {
			s := m.Draw(rng)
			drawn[k] = Record{InputBytes: s.Input, ShuffleBytes: s.Shuffle}
		}
		want, got := byFifth(recs), byFifth(drawn)
		for q := range want {
			t.Logf("%s fifth %d: zero shuffle %.3f/%.3f, median log ratio %.2f/%.2f (samples/model)",
				e.Options.Name, q+1, want[q][0], got[q][0], want[q][1], got[q][1])
			if math.Abs(want[q][0]-got[q][0]) > 0.03 || math.Abs(want[q][1]-got[q][1]) > 0.5 {
				t.Errorf("%s, input fifth %d: zero-shuffle share %.3f and median log ratio %.2f; samples have %.3f and %.2f",
					e.Options.Name, q+1, got[q][0], got[q][1], want[q][0], want[q][1])
			}
		}
	}
}

// byFifth returns, per fifth of the jobs by input, the share with no
// shuffle and the median log shuffle/input ratio of the others.
func byFifth(recs []Record) [5][2]float64 {
	idx := make([]int, len(recs))
	for i := range idx {
		idx[i] = i
	}
	sort.SliceStable(idx, func(a, b int) bool { return recs[idx[a]].InputBytes < recs[idx[b]].InputBytes })
	var out [5][2]float64
	for q := range out {
		part := idx[q*len(idx)/5 : (q+1)*len(idx)/5]
		var ratios []float64
		for _, i := range part {
			if recs[i].ShuffleBytes == 0 {
				out[q][0]++
			} else {
				ratios = append(ratios, math.Log1p(float64(recs[i].ShuffleBytes))-math.Log1p(float64(recs[i].InputBytes)))
			}
		}
		out[q][0] /= float64(len(part))
		sort.Float64s(ratios)
		if len(ratios) > 0 {
			out[q][1] = ratios[len(ratios)/2]
		}
	}
	return out
}
