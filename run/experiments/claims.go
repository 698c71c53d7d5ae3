package experiments

import (
	"context"
	"errors"
	"fmt"
	"math"

	"sojourn/analysis"
	"sojourn/reports"
	"sojourn/run"
)

// A paper's claim is checked on every seed of the run (Env.Seeds) against
// a tolerance declared here, in code, before any run. Its figure on each
// seed is one number; the claims table shows the mean over seeds with a
// 95% Student-t interval, on how many seeds the figure lies inside the
// tolerance, and a verdict by one rule (verdictOf).

// tolerance is the band a claim's figure must lie in, [lo, hi]; either
// side may be infinite. text shows it in the claims table.
type tolerance struct {
	lo, hi float64
	text   string
}

func atMost(v float64, text string) tolerance  { return tolerance{math.Inf(-1), v, text} }
func atLeast(v float64, text string) tolerance { return tolerance{v, math.Inf(1), text} }
func between(lo, hi float64, text string) tolerance {
	return tolerance{lo, hi, text}
}

// above is the open band (v, ∞): a difference that must be positive.
func above(v float64, text string) tolerance {
	return tolerance{math.Nextafter(v, math.Inf(1)), math.Inf(1), text}
}

// contains is false for NaN: a figure that cannot be computed on a seed
// does not hold there.
func (t tolerance) contains(v float64) bool { return v >= t.lo && v <= t.hi }

// check is one claim: what the paper says, the declared tolerance, how
// the figure is computed from one seed's runs (of type T, per
// experiment) and how it reads.
type check[T any] struct {
	statement, paper string
	tol              tolerance
	value            func(T) float64
	show             func(float64) string
	// bound, if set, is the model's own limit on the figure (an oracle's
	// figure in place of the policy's): when its interval lies wholly
	// outside the tolerance, no policy could meet the claim in this
	// model, and the verdict is "not reproduced".
	bound     func(T) float64
	boundName string
	note      string
	// everySeed claims hold only if they hold on every seed.
	everySeed bool
}

// verdictOf is the claims table's rule: holds when the 95% interval of
// the mean over seeds lies inside the tolerance, partly when only the
// mean does, does not hold otherwise. One value (a deterministic claim)
// is its own interval.
func verdictOf(t tolerance, mean, lo, hi float64) reports.Verdict {
	switch {
	case t.contains(lo) && t.contains(hi):
		return reports.Holds
	case t.contains(mean):
		return reports.Partly
	}
	return reports.Fails
}

// meanInterval is the mean of xs with its 95% Student-t interval; one
// value is its own interval.
func meanInterval(xs []float64) (mean, lo, hi float64) {
	if len(xs) == 1 {
		return xs[0], xs[0], xs[0]
	}
	return analysis.MeanCI(xs, 0.95)
}

// claimFrom judges one check on its per-seed values (and the bound's).
func claimFrom[T any](c check[T], values, bounds []float64, deterministic bool) reports.Claim {
	mean, lo, hi := meanInterval(values)
	cl := reports.Claim{Statement: c.statement, Paper: c.paper, Tolerance: c.tol.text, Note: c.note,
		Seeds: len(values), Deterministic: deterministic, Values: numbers(values)}
	for _, v := range values {
		if c.tol.contains(v) {
			cl.HoldsIn++
		}
	}
	cl.Verdict = verdictOf(c.tol, mean, lo, hi)
	if c.everySeed && cl.Verdict == reports.Holds && cl.HoldsIn < cl.Seeds {
		cl.Verdict = reports.Partly
	}
	switch {
	case math.IsNaN(mean):
		cl.Ours, cl.Verdict = "not computable on some seed", reports.Fails
	case len(values) == 1:
		cl.Ours = c.show(mean)
	default:
		cl.Ours = fmt.Sprintf("%s [%s, %s]", c.show(mean), c.show(lo), c.show(hi))
	}
	if bounds != nil {
		bm, blo, bhi := meanInterval(bounds)
		cl.Ours += fmt.Sprintf("; %s %s", c.boundName, c.show(bm))
		if cl.Verdict != reports.Holds && (bhi < c.tol.lo || blo > c.tol.hi) {
			cl.Verdict = reports.NotReproduced
		}
	}
	return cl
}

// numbers are a claim's values to keep: 6 decimals, NaN kept (null in
// JSON) where a seed's figure could not be computed.
func numbers(xs []float64) []reports.Number {
	out := make([]reports.Number, len(xs))
	for i, v := range xs {
		out[i] = reports.Number(v)
		if !math.IsNaN(v) && !math.IsInf(v, 0) {
			out[i] = reports.Number(round(v, 6))
		}
	}
	return out
}

// overSeeds runs measure for every seed of the run's claims (Env.Seeds),
// the seeds in parallel on the Env's workers, and returns the results in
// seed order.
func overSeeds[T any](x *Ctx, measure func(seed uint64) (T, error)) ([]T, error) {
	seeds := x.Env.seeds()
	per := make([]T, len(seeds))
	pool := run.Pool{Workers: x.Env.workers(), Name: x.Name + " seeds", Progress: x.Env.Progress}
	_, err := pool.Run(context.Background(), len(seeds), func(i int) error {
		var err error
		per[i], err = measure(seeds[i])
		return err
	})
	if ce := (*run.CellError)(nil); errors.As(err, &ce) {
		return nil, fmt.Errorf("%s: seed %d: %w", x.Name, seeds[ce.Index], ce.Err)
	}
	if err != nil {
		return nil, err
	}
	x.Param("claim_seeds", fmt.Sprintf("%d (%d to %d)", len(seeds), seeds[0], seeds[len(seeds)-1]))
	return per, nil
}

// judge computes every check on every seed of the run: measure replays
// (in memory, shared through Env's memo) what the checks need on one
// seed.
func judge[T any](x *Ctx, checks []check[T], measure func(seed uint64) (T, error)) ([]reports.Claim, error) {
	per, err := overSeeds(x, measure)
	if err != nil {
		return nil, err
	}
	return claimsOf(checks, per), nil
}

// claimsOf judges every check on per-seed measurements already made.
func claimsOf[T any](checks []check[T], per []T) []reports.Claim {
	var out []reports.Claim
	for _, c := range checks {
		values := make([]float64, len(per))
		var bounds []float64
		for i, m := range per {
			values[i] = c.value(m)
			if c.bound != nil {
				bounds = append(bounds, c.bound(m))
			}
		}
		out = append(out, claimFrom(c, values, bounds, false))
	}
	return out
}

// judgeOnce checks claims on a workload with no randomness: one run
// stands for every seed.
func judgeOnce[T any](checks []check[T], m T) []reports.Claim {
	var out []reports.Claim
	for _, c := range checks {
		var bounds []float64
		if c.bound != nil {
			bounds = []float64{c.bound(m)}
		}
		out = append(out, claimFrom(c, []float64{c.value(m)}, bounds, true))
	}
	return out
}

// notModelled is a claim the model has no counterpart for.
func notModelled(statement, paper, ours, note string) reports.Claim {
	return reports.Claim{Statement: statement, Paper: paper, Ours: ours, Verdict: reports.NotShown, Note: note}
}

// Formats of claim figures.
func showRatio(v float64) string   { return fmt.Sprintf("%.2f×", v) }
func showPct(v float64) string     { return fmt.Sprintf("%.1f%%", 100*v) }
func showChange(v float64) string  { return fmt.Sprintf("%+.1f%%", 100*v) }
func showMin(v float64) string     { return fmt.Sprintf("%.1f min", v) }
func showSec(v float64) string     { return fmt.Sprintf("%.1f s", v) }
func showCount(v float64) string   { return fmt.Sprintf("%.1f", v) }
func showSecDiff(v float64) string { return fmt.Sprintf("%+.0f s", v) }
