package scenario

import (
	"math"
	"math/rand/v2"

	"sojourn/traces"
)

// HeavyTail is the benchmarks' workload of about 1.1 million tasks: most
// jobs have a few maps, some hundreds (log-normal, at most 2,001), a third
// of them with reduces (one per 20 maps), arriving fast enough to keep
// 100 nodes of 4 map and 2 reduce slots busy. Each map reads one block,
// so the engine's locality work is part of what it measures. The same
// every time.
func HeavyTail() *traces.Trace {
	rng := rand.New(rand.NewPCG(7, 7))
	tr := &traces.Trace{Params: map[string]string{}}
	t, tasks := 0.0, 0
	for i := 0; tasks < 1_100_000; i++ {
		maps := 1 + int(math.Min(2000, math.Exp(rng.NormFloat64()*1.6+1.5)))
		md := make([]float64, maps)
		for k := range md {
			md[k] = 30 + 60*rng.Float64()
		}
		var rd []float64
		var sh []int64
		if i%3 == 0 {
			nr := 1 + maps/20
			rd = make([]float64, nr)
			sh = make([]int64, nr)
			for k := range rd {
				rd[k] = 60 + 120*rng.Float64()
				sh[k] = 50e6
			}
		} else {
			rd, sh = []float64{}, []int64{}
		}
		tasks += maps + len(rd)
		t += rng.ExpFloat64() * 4.5
		tr.Jobs = append(tr.Jobs, traces.Job{ID: int64(i), Submit: t, MapDurations: md, MapInputBytes: int64(maps) * blockBytes,
			ReduceDurations: rd, ReduceShuffleBytes: sh, ReduceMemoryBytes: 1 << 30})
	}
	return tr
}
