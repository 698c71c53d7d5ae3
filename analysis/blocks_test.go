package analysis

import (
	"fmt"
	"math"
	"math/rand/v2"
	"slices"
	"testing"
)

// TestBlockOfOneIsPairedBootstrap: blocks of one row draw the rows the
// plain paired bootstrap draws, so the two intervals are identical.
func TestBlockOfOneIsPairedBootstrap(t *testing.T) {
	data := rand.New(rand.NewPCG(9, 9))
	a := expSample(data, 150, 100)
	b := make([]float64, len(a))
	for i := range a {
		b[i] = a[i] * (1.1 + 0.3*data.NormFloat64())
	}
	for _, st := range []struct {
		name string
		of   func([]float64) Statistic
	}{{"mean", MeanOf}, {"median", MedianOf}} {
		plain := Bootstrap{Paired: true, Rand: rand.New(rand.NewPCG(3, 1))}.RelChange(len(a), st.of(a), len(b), st.of(b))
		fixed := Bootstrap{Paired: true, Blocks: FixedBlocks(len(a), 1), Rand: rand.New(rand.NewPCG(3, 1))}.RelChange(len(a), st.of(a), len(b), st.of(b))
		times := make([]float64, len(a))
		for i := range times {
			times[i] = float64(i) // one row per second: windows of 1 s hold one row
		}
		timed := Bootstrap{Paired: true, Blocks: TimeBlocks(times, 1), Rand: rand.New(rand.NewPCG(3, 1))}.RelChange(len(a), st.of(a), len(b), st.of(b))
		if plain != fixed || plain != timed {
			t.Errorf("%s: paired %+v, blocks of one row %+v and %+v; want the same", st.name, plain, fixed, timed)
		}
	}
}

// ar1 is a stationary AR(1) series of n values, x[i] = φ·x[i−1] + ε with
// standard normal ε, so that its variance is 1/(1−φ²).
func ar1(rng *rand.Rand, n int, phi float64) []float64 {
	xs := make([]float64, n)
	xs[0] = rng.NormFloat64() / math.Sqrt(1-phi*phi)
	for i := 1; i < n; i++ {
		xs[i] = phi*xs[i-1] + rng.NormFloat64()
	}
	return xs
}

// TestBlockBootstrapAutocorrelated: for a strongly autocorrelated series
// (AR(1), φ = 0.8: the variance of its mean is (1+φ)/(1−φ) = 9 times an
// independent sample's), the plain paired bootstrap's 90% interval of a
// change in the mean is too narrow and misses the true change far more
// often than 10% of the time; a block bootstrap with blocks much longer
// than the dependence (1/(1−φ) = 5 rows) gives wider intervals whose
// coverage is near 90%: a little below, as the block bootstrap's variance
// is biased low by about 2φ/(1−φ)² ÷ ((1+φ)/(1−φ)) ÷ block = 15% here
// (Lahiri, Resampling Methods for Dependent Data, ch. 5), and it covers a
// few points less (600 repetitions gave 84%). 200 repetitions of 600
// rows: a 0.84 coin's
// share of heads falls within [0.77, 0.91] with probability > 0.99.
func TestBlockBootstrapAutocorrelated(t *testing.T) {
	const n, reps, phi, block = 600, 200, 0.8, 30
	data := rand.New(rand.NewPCG(21, 4))
	bsIID := Bootstrap{Paired: true, Resamples: 400, Level: 0.9, Rand: rand.New(rand.NewPCG(1, 7))}
	bsBlock := bsIID
	bsBlock.Blocks = FixedBlocks(n, block)
	var hitIID, hitBlock, wider int
	for k := 0; k < reps; k++ {
		// Base around 100 and candidate around 110, both moving with a
		// shared slow load plus the candidate's own autocorrelated error:
		// the true change of the mean is +10%.
		load, own := ar1(data, n, phi), ar1(data, n, phi)
		a, b := make([]float64, n), make([]float64, n)
		for i := range a {
			a[i] = 100 + 5*load[i]
			b[i] = 110 + 5*load[i] + 3*own[i]
		}
		iid := bsIID.RelChange(n, MeanOf(a), n, MeanOf(b))
		blk := bsBlock.RelChange(n, MeanOf(a), n, MeanOf(b))
		if iid.Lo <= 0.1 && 0.1 <= iid.Hi {
			hitIID++
		}
		if blk.Lo <= 0.1 && 0.1 <= blk.Hi {
			hitBlock++
		}
		if blk.Hi-blk.Lo > iid.Hi-iid.Lo {
			wider++
		}
	}
	fIID, fBlock := float64(hitIID)/reps, float64(hitBlock)/reps
	t.Logf("coverage of 90%% intervals over %d repetitions: paired %.1f%%, blocks of %d %.1f%%; block interval wider in %d",
		reps, 100*fIID, block, 100*fBlock, wider)
	if fBlock < 0.77 || fBlock > 0.95 {
		t.Errorf("block bootstrap covered the true change in %.1f%% of %d repetitions, want about 90%%", 100*fBlock, reps)
	}
	if fIID > 0.6 {
		t.Errorf("plain paired bootstrap covered the true change in %.1f%%; want it far below 90%% on autocorrelated data", 100*fIID)
	}
	if wider < reps*95/100 {
		t.Errorf("block interval wider than the paired one in %d of %d repetitions, want nearly all", wider, reps)
	}
}

// TestBlockBootstrapIndependent: on independent rows, blocks of 10 give
// about the width of the plain paired bootstrap (no dependence to keep).
func TestBlockBootstrapIndependent(t *testing.T) {
	data := rand.New(rand.NewPCG(5, 6))
	const n = 1000
	a, b := make([]float64, n), make([]float64, n)
	for i := range a {
		a[i] = 100 + 10*data.NormFloat64()
		b[i] = a[i] + 10 + 10*data.NormFloat64()
	}
	plain := Bootstrap{Paired: true, Rand: rand.New(rand.NewPCG(1, 1))}.RelChange(n, MeanOf(a), n, MeanOf(b))
	blk := Bootstrap{Paired: true, Blocks: FixedBlocks(n, 10), Rand: rand.New(rand.NewPCG(1, 1))}.RelChange(n, MeanOf(a), n, MeanOf(b))
	if r := (blk.Hi - blk.Lo) / (plain.Hi - plain.Lo); r < 0.85 || r > 1.15 {
		t.Errorf("block interval [%.4f, %.4f] is %.2f times the paired [%.4f, %.4f]; want about as wide", blk.Lo, blk.Hi, r, plain.Lo, plain.Hi)
	}
}

func TestTimeBlocks(t *testing.T) {
	times := []float64{0, 1, 2, 5, 10} // period 12.5: row 0 again at 12.5
	for _, c := range []struct {
		width float64
		want  []int
	}{
		{3, []int{3, 2, 1, 1, 2}}, // row 4's window [10, 13) holds row 0 at 12.5
		{2.5, []int{3, 2, 1, 1, 1}},
		{0.5, []int{1, 1, 1, 1, 1}},
		{100, []int{5, 5, 5, 5, 5}},
		{math.Inf(1), []int{5, 5, 5, 5, 5}},
	} {
		if got := TimeBlocks(times, c.width); !slices.Equal(got, c.want) {
			t.Errorf("width %v: %v, want %v", c.width, got, c.want)
		}
	}
	if got := TimeBlocks([]float64{4, 4, 4}, 1); !slices.Equal(got, []int{3, 3, 3}) {
		t.Errorf("equal times: %v, want one block of every row", got)
	}
	if got := TimeBlocks(nil, 1); len(got) != 0 {
		t.Errorf("no rows: %v", got)
	}
	if got := FixedBlocks(3, 5); !slices.Equal(got, []int{3, 3, 3}) {
		t.Errorf("FixedBlocks(3, 5) = %v", got)
	}
	if m := MeanBlock([]int{3, 2, 1, 1, 2}); m != 1.8 {
		t.Errorf("MeanBlock = %v", m)
	}
}

// TestDrawBlocks: a resample is made of whole runs of consecutive rows
// that wrap past the end, and is cut to the sample's length.
func TestDrawBlocks(t *testing.T) {
	rows := make([]int, 10)
	drawBlocks(rows, FixedBlocks(7, 4), rand.New(rand.NewPCG(2, 2)))
	for i := 0; i < 8; i += 4 {
		for j := 1; j < 4; j++ {
			if rows[i+j] != (rows[i]+j)%7 {
				t.Fatalf("%v: block at %d is not 4 consecutive rows", rows, i)
			}
		}
	}
	if rows[9] != (rows[8]+1)%7 {
		t.Errorf("%v: the last block, cut short, is not consecutive", rows)
	}
}

func TestBlocksMisuse(t *testing.T) {
	one := []float64{1, 2}
	rng := rand.New(rand.NewPCG(1, 1))
	for _, c := range []struct {
		name string
		f    func()
	}{
		{"unpaired", func() { Bootstrap{Blocks: []int{1, 1}, Rand: rng}.RelChange(2, MeanOf(one), 2, MeanOf(one)) }},
		{"length", func() { Bootstrap{Paired: true, Blocks: []int{1}, Rand: rng}.RelChange(2, MeanOf(one), 2, MeanOf(one)) }},
		{"empty block", func() {
			Bootstrap{Paired: true, Blocks: []int{1, 0}, Rand: rng}.RelChange(2, MeanOf(one), 2, MeanOf(one))
		}},
		{"fixed length", func() { FixedBlocks(3, 0) }},
		{"width", func() { TimeBlocks(one, 0) }},
		{"decreasing", func() { TimeBlocks([]float64{2, 1}, 1) }},
		{"NaN time", func() { TimeBlocks([]float64{math.NaN()}, 1) }},
	} {
		func() {
			defer func() {
				if p := recover(); p == nil || fmt.Sprint(p)[:9] != "analysis:" {
					t.Errorf("%s: panic %v, want an analysis: panic", c.name, p)
				}
			}()
			c.f()
		}()
	}
}

func ExampleTimeBlocks() {
	// Jobs submitted in two bursts; each job's sojourn under the baseline
	// and under the candidate, in submit order.
	submit := []float64{0, 5, 10, 15, 600, 605, 610, 615}
	base := []float64{40, 60, 80, 100, 20, 25, 30, 35}
	cand := []float64{30, 45, 70, 85, 20, 24, 31, 33}
	blocks := TimeBlocks(submit, 60) // windows of 60 s of submissions
	fmt.Println("rows per block:", blocks)
	bs := Bootstrap{Paired: true, Blocks: blocks, Rand: rand.New(rand.NewPCG(1, 0))}
	iv := bs.RelChange(len(base), MeanOf(base), len(cand), MeanOf(cand))
	fmt.Printf("blocks:  %+.1f%% [%+.1f%%, %+.1f%%]\n", 100*iv.Est, 100*iv.Lo, 100*iv.Hi)
	bs.Blocks = nil // jobs one by one
	iv = bs.RelChange(len(base), MeanOf(base), len(cand), MeanOf(cand))
	fmt.Printf("jobs:    %+.1f%% [%+.1f%%, %+.1f%%]\n", 100*iv.Est, 100*iv.Lo, 100*iv.Hi)
	// Output:
	// rows per block: [4 3 2 1 4 3 2 1]
	// blocks:  -13.3% [-17.9%, -1.8%]
	// jobs:    -13.3% [-18.8%, -6.1%]
}
