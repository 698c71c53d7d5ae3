package replay

import (
	"math"
	"math/rand/v2"
	"testing"

	"sojourn/traces"
)

// erlangC is the probability that an arrival waits in an M/M/c queue with
// offered load a = λ/μ (a < c).
func erlangC(c int, a float64) float64 {
	// Sum a^k/k! for k < c, and a^c/c! · c/(c−a), computed iteratively.
	term, sum := 1.0, 1.0
	for k := 1; k < c; k++ {
		term *= a / float64(k)
		sum += term
	}
	last := term * a / float64(c) * float64(c) / (float64(c) - a)
	return last / (sum + last)
}

// poissonTrace builds n single-map jobs with exponential gaps of mean
// 1/lambda and durations from draw.
func poissonTrace(n int, lambda float64, rng *rand.Rand, draw func() float64) *traces.Trace {
	tr := &traces.Trace{Params: map[string]string{}}
	tr.Jobs = make([]traces.Job, n)
	t := 0.0
	for i := range tr.Jobs {
		t += rng.ExpFloat64() / lambda
		tr.Jobs[i] = traces.Job{ID: int64(i), Submit: t, MapDurations: []float64{draw()},
			ReduceDurations: []float64{}, ReduceShuffleBytes: []int64{}}
	}
	return tr
}

// queueConfig is c single-slot nodes where locality costs nothing and
// heartbeats are fast enough (10 ms, out of band on task ends) that the
// cluster behaves as an ideal c-server queue.
func queueConfig(c int, seed uint64) Config {
	return Config{Nodes: c, MapSlots: 1, ReduceSlots: 1, Heartbeat: 0.01, OutOfBandHeartbeat: true,
		RackLocalFactor: 1, OffRackFactor: 1, Seed: seed}
}

// meanSojournOver averages the mean sojourn of several seeded runs.
func meanSojournOver(t *testing.T, seeds int, build func(rng *rand.Rand) *traces.Trace, cfg func(seed uint64) Config) float64 {
	var sum float64
	for s := 0; s < seeds; s++ {
		rng := rand.New(rand.NewPCG(uint64(s), 42))
		r, err := Run(build(rng), &FIFO{}, cfg(uint64(s)))
		if err != nil {
			t.Fatal(err)
		}
		sum += r.MeanSojourn()
	}
	return sum / float64(seeds)
}

// TestErlangC: single-task jobs with Poisson arrivals and exponential
// durations on c slots under FIFO form an M/M/c queue, whose mean sojourn
// is C(c, a)/(cμ − λ) + 1/μ.
func TestErlangC(t *testing.T) {
	if testing.Short() {
		t.Skip("long run")
	}
	for _, tc := range []struct {
		c   int
		rho float64
	}{{1, 0.7}, {4, 0.75}, {16, 0.8}} {
		mu := 1 / 10.0 // mean service 10 s
		lambda := tc.rho * float64(tc.c) * mu
		a := lambda / mu
		want := erlangC(tc.c, a)/(float64(tc.c)*mu-lambda) + 1/mu
		got := meanSojournOver(t, 6, func(rng *rand.Rand) *traces.Trace {
			return poissonTrace(60000, lambda, rng, func() float64 { return rng.ExpFloat64() / mu })
		}, func(seed uint64) Config { return queueConfig(tc.c, seed) })
		if rel := math.Abs(got-want) / want; rel > 0.03 {
			t.Errorf("M/M/%d at ρ=%.2f: mean sojourn %.3f s, Erlang C gives %.3f s (%.1f%% off)", tc.c, tc.rho, got, want, 100*rel)
		} else {
			t.Logf("M/M/%d at ρ=%.2f: mean sojourn %.3f s, Erlang C %.3f s (%.2f%% off)", tc.c, tc.rho, got, want, 100*rel)
		}
	}
}

// TestPollaczekKhinchine: one slot, Poisson arrivals and general durations
// form an M/G/1 queue: mean sojourn E[S] + λE[S²]/(2(1−ρ)).
func TestPollaczekKhinchine(t *testing.T) {
	if testing.Short() {
		t.Skip("long run")
	}
	const mean = 10.0
	cases := []struct {
		name string
		es2  float64 // E[S²]
		draw func(rng *rand.Rand) float64
	}{
		{"deterministic", mean * mean, func(*rand.Rand) float64 { return mean }},
		{"uniform", 4 * mean * mean / 3, func(r *rand.Rand) float64 { return 2 * mean * r.Float64() }},
		// Log-normal with σ = 0.8: E[S²] = E[S]² e^{σ²}.
		{"lognormal", mean * mean * math.Exp(0.64), func(r *rand.Rand) float64 {
			return mean * math.Exp(0.8*r.NormFloat64()-0.32)
		}},
	}
	for _, c := range cases {
		const rho = 0.7
		lambda := rho / mean
		want := mean + lambda*c.es2/(2*(1-rho))
		got := meanSojournOver(t, 6, func(rng *rand.Rand) *traces.Trace {
			return poissonTrace(60000, lambda, rng, func() float64 { return c.draw(rng) })
		}, func(seed uint64) Config { return queueConfig(1, seed) })
		if rel := math.Abs(got-want) / want; rel > 0.03 {
			t.Errorf("M/G/1 %s: mean sojourn %.3f s, P-K gives %.3f s (%.1f%% off)", c.name, got, want, 100*rel)
		} else {
			t.Logf("M/G/1 %s: mean sojourn %.3f s, P-K %.3f s (%.2f%% off)", c.name, got, want, 100*rel)
		}
	}
}

func TestErlangCFormula(t *testing.T) {
	// Hand values: c=1 ⇒ C = ρ; c=2, a=1 ⇒ C = (1/2·2)/(1+1+1) = 1/3.
	if got := erlangC(1, 0.7); math.Abs(got-0.7) > 1e-12 {
		t.Fatalf("C(1, 0.7) = %v, want 0.7", got)
	}
	if got := erlangC(2, 1); math.Abs(got-1.0/3) > 1e-12 {
		t.Fatalf("C(2, 1) = %v, want 1/3", got)
	}
}
