package oracle

import (
	"math"
	"math/rand/v2"
	"testing"

	"sojourn/replay"
	"sojourn/replay/replaytest"
	"sojourn/traces"
)

// The oracles against queueing theory: one node with one map slot,
// Poisson arrivals, locality free, heartbeats every 10 ms and out of band
// on task ends, swaps free (tasks hold no memory) and no cap on suspended
// tasks, so that the slot is an M/G/1 server and each oracle should give
// its discipline's mean sojourn. Each check averages a few seeds.

// h2 is a two-phase hyperexponential service distribution: mean m1 with
// probability p, else m2.
type h2 struct{ p, m1, m2 float64 }

func (d h2) mean() float64 { return d.p*d.m1 + (1-d.p)*d.m2 }
func (d h2) pdf(x float64) float64 {
	return d.p/d.m1*math.Exp(-x/d.m1) + (1-d.p)/d.m2*math.Exp(-x/d.m2)
}
func (d h2) cdf(x float64) float64 {
	return 1 - d.p*math.Exp(-x/d.m1) - (1-d.p)*math.Exp(-x/d.m2)
}
func (d h2) draw(rng *rand.Rand) float64 {
	if rng.Float64() < d.p {
		return d.m1 * rng.ExpFloat64()
	}
	return d.m2 * rng.ExpFloat64()
}

// conditional integrates, on a fine grid, the mean sojourn of an M/G/1
// queue at arrival rate lambda whose mean sojourn at size x is
// t(x, F, A, B, I): F the CDF at x, A = ∫₀ˣ u dF, B = ∫₀ˣ u² dF and I = ∫₀ˣ
// du/(1 − λA(u)).
func conditional(d h2, lambda float64, t func(x, F, A, B, I float64) float64) float64 {
	const h = 0.002
	xmax := 40 * max(d.m1, d.m2)
	var A, B, I, mean float64
	prev := 0.0 // t(x) f(x) at the previous point
	for x := h; x <= xmax; x += h {
		xm := x - h/2
		fm := d.pdf(xm)
		A += xm * fm * h
		B += xm * xm * fm * h
		I += h / (1 - lambda*(A-xm*fm*h/2))
		cur := t(x, d.cdf(x), A, B, I) * d.pdf(x)
		mean += (prev + cur) / 2 * h
		prev = cur
	}
	return mean
}

// srptMean is Schrage and Miller's M/G/1 SRPT mean sojourn:
// T(x) = λ(B(x) + x²(1−F(x))) / (2(1−ρ(x))²) + ∫₀ˣ dt/(1−ρ(t)), ρ(x) = λA(x).
func srptMean(d h2, lambda float64) float64 {
	return conditional(d, lambda, func(x, F, A, B, I float64) float64 {
		r := lambda * A
		return lambda*(B+x*x*(1-F))/(2*(1-r)*(1-r)) + I
	})
}

// lasMean is the M/G/1 foreground–background (LAS) mean sojourn:
// T(x) = λm(x) / (2(1−ρ̄(x))²) + x/(1−ρ̄(x)), with m(x) = B(x) + x²(1−F(x))
// and ρ̄(x) = λ(A(x) + x(1−F(x))), the load of the sizes truncated at x.
func lasMean(d h2, lambda float64) float64 {
	return conditional(d, lambda, func(x, F, A, B, I float64) float64 {
		r := lambda * (A + x*(1-F))
		return lambda*(B+x*x*(1-F))/(2*(1-r)*(1-r)) + x/(1-r)
	})
}

// queueTrace is n jobs with Poisson arrivals at rate lambda; size(rng)
// gives each job's map durations.
func queueTrace(n int, lambda float64, rng *rand.Rand, maps func() []float64) *traces.Trace {
	tr := &traces.Trace{Params: map[string]string{}}
	tr.Jobs = make([]traces.Job, n)
	t := 0.0
	for i := range tr.Jobs {
		t += rng.ExpFloat64() / lambda
		tr.Jobs[i] = traces.Job{ID: int64(i), Submit: t, MapDurations: maps(),
			ReduceDurations: []float64{}, ReduceShuffleBytes: []int64{}}
	}
	return tr
}

// oneSlot is the M/G/1 server.
func oneSlot(seed uint64) replay.Config {
	return replay.Config{Nodes: 1, NodesPerRack: 1, MapSlots: 1, ReduceSlots: 1, Heartbeat: 0.01,
		OutOfBandHeartbeat: true, RackLocalFactor: 1, OffRackFactor: 1, MaxSuspendedPerNode: 1 << 20,
		Seed: seed, NoInvariantChecks: true}
}

// tiny splits a job of size s into tasks of at most q seconds.
func tiny(s, q float64) []float64 {
	n := int(math.Ceil(s / q))
	d := make([]float64, n)
	for i := range d {
		d[i] = min(q, s-float64(i)*q)
	}
	return d
}

// queueMean replays seeds traces of n jobs under the policy and returns
// the mean of their mean sojourns.
func queueMean(t *testing.T, seeds, n int, lambda float64, b replaytest.Builder, opts map[string]string,
	maps func(rng *rand.Rand) []float64) float64 {
	t.Helper()
	var sum float64
	for s := range seeds {
		rng := rand.New(rand.NewPCG(uint64(s)+1, 7))
		tr := queueTrace(n, lambda, rng, func() []float64 { return maps(rng) })
		r, err := replay.Run(tr, replaytest.Build(t, b, opts), oneSlot(uint64(s)+1))
		if err != nil {
			t.Fatal(err)
		}
		sum += r.MeanSojourn()
	}
	return sum / float64(seeds)
}

func within(t *testing.T, what string, got, want, tol float64) {
	t.Helper()
	rel := math.Abs(got-want) / want
	if rel > tol {
		t.Errorf("%s: mean sojourn %.3f s, theory %.3f s (%.1f%% off, tolerance %.0f%%)", what, got, want, 100*rel, 100*tol)
		return
	}
	t.Logf("%s: mean sojourn %.3f s, theory %.3f s (%.1f%% off)", what, got, want, 100*rel)
}

var (
	// exp10 is exponential with mean 10 s; hyper an H2 of mean 10 s and
	// squared coefficient of variation about 4.
	exp10 = h2{p: 1, m1: 10, m2: 10}
	hyper = h2{p: 0.9, m1: 4, m2: 64}
	// mild is an H2 of mean 10 s and squared coefficient of variation 1.5:
	// enough to tell PS from FIFO (whose mean would be 22.5 s at ρ = 0.5,
	// against 20 s), with less sampling noise than hyper.
	mild = h2{p: 0.5, m1: 5, m2: 15}
)

// TestSRPTIsMG1SRPT: srpt with map preemption, jobs of one map, matches
// Schrage and Miller's formula.
func TestSRPTIsMG1SRPT(t *testing.T) {
	if testing.Short() {
		t.Skip("long run")
	}
	const rho = 0.7
	for _, c := range []struct {
		name string
		d    h2
	}{{"exponential", exp10}, {"hyperexponential", hyper}} {
		lambda := rho / c.d.mean()
		got := queueMean(t, 8, 25000, lambda, SRPT.Build, map[string]string{"map-preemption": "eager", "locality-delay": "0"},
			func(rng *rand.Rand) []float64 { return []float64{c.d.draw(rng)} })
		within(t, "M/G/1 SRPT, "+c.name, got, srptMean(c.d, lambda), 0.03)
	}
}

// TestPSIsMG1PS: ps, jobs cut into maps of at most 0.25 s (a 40th of the
// mean size), matches the M/G/1-PS mean sojourn E[S]/(1−ρ) for two service
// distributions of the same mean (PS is insensitive to the distribution).
// On one slot ps shares by taking turns, one map each, among the jobs in
// the system: round robin with a quantum of one map, which tends to PS as
// the maps shrink.
func TestPSIsMG1PS(t *testing.T) {
	if testing.Short() {
		t.Skip("long run")
	}
	const rho, quantum = 0.5, 0.25
	for _, c := range []struct {
		name string
		d    h2
	}{{"exponential", exp10}, {"hyperexponential", mild}} {
		lambda := rho / c.d.mean()
		got := queueMean(t, 8, 10000, lambda, PS.Build, nil,
			func(rng *rand.Rand) []float64 { return tiny(c.d.draw(rng), quantum) })
		within(t, "M/G/1-PS, "+c.name, got, c.d.mean()/(1-rho), 0.03)
	}
}

// TestLASIsMG1FB: las with its default levels (the first ends at 1 s of
// service, each next one 10% later) and map preemption, jobs of one map,
// matches the M/G/1 foreground–background mean sojourn. (With the old
// default levels, 60 s then doubling, it was FIFO for most jobs: 63% off.) (Exponential
// sizes would not tell LAS from PS: both give E[S]/(1−ρ).)
func TestLASIsMG1FB(t *testing.T) {
	if testing.Short() {
		t.Skip("long run")
	}
	const rho = 0.7
	lambda := rho / hyper.mean()
	got := queueMean(t, 8, 20000, lambda, LAS.Build,
		map[string]string{"map-preemption": "eager", "locality-delay": "0"},
		func(rng *rand.Rand) []float64 { return []float64{hyper.draw(rng)} })
	within(t, "M/G/1-FB, hyperexponential", got, lasMean(hyper, lambda), 0.03)
}

// TestPSQuantumIsMG1PS: ps with a quantum of 0.1 s (a 100th of the mean
// size) and map preemption, jobs of one map, matches the M/G/1-PS mean
// sojourn E[S]/(1−ρ) at ρ = 0.5 for the H2 sizes of TestPSIsMG1PS, where
// FIFO (ps without the quantum: one task runs to its end) gives 22.5 s
// against PS's 20 s. Time slicing is round robin with that quantum;
// heartbeats every 10 ms see each quantum end within 10% of it.
func TestPSQuantumIsMG1PS(t *testing.T) {
	if testing.Short() {
		t.Skip("long run")
	}
	const rho = 0.5
	lambda := rho / mild.mean()
	got := queueMean(t, 8, 10000, lambda, PS.Build, map[string]string{"quantum": "0.1", "map-preemption": "eager"},
		func(rng *rand.Rand) []float64 { return []float64{mild.draw(rng)} })
	within(t, "M/G/1-PS by time slicing, hyperexponential", got, mild.mean()/(1-rho), 0.03)
}
