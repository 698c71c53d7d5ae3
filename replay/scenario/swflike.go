package scenario

import (
	"math"
	"math/rand/v2"

	"sojourn/traces"
)

// swfRequestLimits are the round run-time limits users pick from when
// they submit to a batch queue, in seconds: 5, 15 and 30 minutes, 1, 2, 4,
// 8 and 24 hours.
var swfRequestLimits = []float64{300, 900, 1800, 3600, 7200, 14400, 28800, 86400}

// SWFLike is a parallel-workload-archive-like trace of n map-only jobs,
// drawn from seed, for a cluster of slots map slots at the given load:
// each job is a gang of processors (a power of two from 1 to 64,
// log-uniform) running for the same time (log-normal, median 10 minutes,
// σ = 1.5, at most a day), as bench import swf makes of a log. Its user
// estimate is what an archive's requested time gives: the smallest round
// limit (5 min … 24 h) at or above the run time padded by a factor of
// 1 + Exp(1), times the processors, so users overestimate by 2× on
// average and much more for short jobs. Like an imported log's, its jobs
// are rigid and read no input data (no locality). Jobs arrive in a Poisson stream
// whose rate puts the map slots at load on average.
func SWFLike(seed uint64, n, slots int, load float64) *traces.Trace {
	rng := rand.New(rand.NewPCG(seed, 0x5f5))
	tr := &traces.Trace{Params: map[string]string{"generator": "scenario.SWFLike"}}
	var work float64
	for i := range n {
		procs := 1 << rng.IntN(7)
		run := math.Min(86400, math.Round(600*math.Exp(1.5*rng.NormFloat64())+1))
		padded := run * (1 + rng.ExpFloat64())
		req := swfRequestLimits[len(swfRequestLimits)-1]
		for _, l := range swfRequestLimits {
			if l >= padded {
				req = l
				break
			}
		}
		req = math.Max(req, run)
		durs := make([]float64, procs)
		for k := range durs {
			durs[k] = run
		}
		work += run * float64(procs)
		tr.Jobs = append(tr.Jobs, traces.Job{ID: int64(i + 1), Pool: "u" + string(rune('a'+rng.IntN(20))),
			MapDurations: durs, ReduceDurations: []float64{}, ReduceShuffleBytes: []int64{},
			Estimate: req * float64(procs), HasEstimate: true, Rigid: true})
	}
	// Mean gap so that the work arrives at load × slots per second.
	gap := work / (load * float64(slots)) / float64(n)
	t := 0.0
	for i := range tr.Jobs {
		tr.Jobs[i].Submit = math.Round(t*1000) / 1000
		t += rng.ExpFloat64() * gap
	}
	return tr
}
