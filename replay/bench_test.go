package replay

import (
	"math/rand/v2"
	"testing"
)

// BenchmarkQueue models the engine's queue on 3,000 nodes: 18,000 task
// ends due 30 to 90 s ahead and 3,000 heartbeats due 3 s ahead; each pop
// is followed by a push of the same kind.
func BenchmarkQueue(b *testing.B) {
	rng := rand.New(rand.NewPCG(1, 1))
	var q eventQueue
	for i := 0; i < 18000; i++ {
		q.push(newEvent(Time(30e6+rng.Int64N(60e6)), evTaskEnd, 0, 0, 0, Map))
	}
	for i := 0; i < 3000; i++ {
		q.push(newEvent(Time(i*1000), evHeartbeat, 0, 0, 0, Map))
	}
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		ev := q.pop()
		if ev.kind() == evTaskEnd {
			ev.at += Time(30e6 + rng.Int64N(60e6))
		} else {
			ev.at += 3e6
		}
		q.push(ev)
	}
}
