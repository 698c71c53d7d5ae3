package replay

import (
	"math"
	"math/rand/v2"
	"testing"

	"sojourn/traces"
)

// benchTrace is a heavy-tailed workload of about 1.1 million tasks: most
// jobs have a few maps, some hundreds, with reduces on a third of them,
// arriving fast enough to keep 100 nodes busy.
func benchTrace() *traces.Trace {
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
		tr.Jobs = append(tr.Jobs, traces.Job{ID: int64(i), Submit: t, MapDurations: md,
			ReduceDurations: rd, ReduceShuffleBytes: sh, ReduceMemoryBytes: 1 << 30})
	}
	return tr
}

// BenchmarkReplayFIFO reports simulated task events per second of wall
// time on a trace of over a million tasks, 100 nodes, invariant checks on.
func BenchmarkReplayFIFO(b *testing.B) {
	tr := benchTrace()
	maps, reds := tr.TotalTasks()
	b.ResetTimer()
	var events, taskEvents int64
	for i := 0; i < b.N; i++ {
		r, err := Run(tr, &FIFO{}, Config{Seed: 1})
		if err != nil {
			b.Fatal(err)
		}
		events += r.Stats.Events
		taskEvents += r.Stats.TaskEvents
	}
	sec := b.Elapsed().Seconds()
	b.ReportMetric(float64(taskEvents)/sec, "task-events/s")
	b.ReportMetric(float64(events)/sec, "events/s")
	b.ReportMetric(float64(maps+reds), "tasks")
}

// BenchmarkQueue models the engine's queue on 3,000 nodes: 18,000 task
// ends due 30 to 90 s ahead and 3,000 heartbeats due 3 s ahead; each pop
// is followed by a push of the same kind.
func BenchmarkQueue(b *testing.B) {
	rng := rand.New(rand.NewPCG(1, 1))
	var q eventQueue
	for i := 0; i < 18000; i++ {
		q.push(event{at: Time(30e6 + rng.Int64N(60e6)), kind: evTaskEnd})
	}
	for i := 0; i < 3000; i++ {
		q.push(event{at: Time(i * 1000), kind: evHeartbeat})
	}
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		ev := q.pop()
		if ev.kind == evTaskEnd {
			ev.at += Time(30e6 + rng.Int64N(60e6))
		} else {
			ev.at += 3e6
		}
		q.push(ev)
	}
}
