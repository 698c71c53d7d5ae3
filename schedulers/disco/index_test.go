package disco

import (
	"math/rand/v2"
	"testing"
)

// TestDiscoRunSet: the Fenwick set's nth member is the nth of a plain
// list, through random adds and removals.
func TestDiscoRunSet(t *testing.T) {
	rng := rand.New(rand.NewPCG(3, 4))
	for _, n := range []int{1, 2, 7, 64, 1000} {
		in := make([]bool, n)
		s := &discoRunSet{t: make([]int32, n+1)}
		for range 4 * n {
			i := rng.IntN(n)
			if in[i] {
				s.add(int32(i), -1)
			} else {
				s.add(int32(i), 1)
			}
			in[i] = !in[i]
			var members []int32
			for x, ok := range in {
				if ok {
					members = append(members, int32(x))
				}
			}
			if int(s.n) != len(members) {
				t.Fatalf("n=%d: %d members, want %d", n, s.n, len(members))
			}
			for r, m := range members {
				if got := s.nth(int32(r)); got != m {
					t.Fatalf("n=%d: member %d is %d, want %d", n, r, got, m)
				}
				if got := s.rank(m); got != int32(r) {
					t.Fatalf("n=%d: rank of %d is %d, want %d", n, m, got, r)
				}
			}
		}
	}
}

// TestDiscoHeap: the heap's top is the job with the fewest running tasks,
// the lowest index on ties, through random insertions, key changes and
// removals.
func TestDiscoHeap(t *testing.T) {
	rng := rand.New(rand.NewPCG(5, 6))
	const jobs = 50
	pos := make([]int32, jobs)
	run := make([]int32, jobs)
	in := make([]bool, jobs)
	h := discoHeap{pos: func(j int32) *int32 { return &pos[j] }}
	for range 20000 {
		j := int32(rng.IntN(jobs))
		in[j] = rng.IntN(4) > 0
		run[j] = int32(rng.IntN(6))
		h.set(&pos[j], j, in[j], run[j])
		want := int32(-1)
		for x := range int32(jobs) {
			if in[x] && (want < 0 || run[x] < run[want]) {
				want = x
			}
		}
		if got := h.top(); got != want {
			t.Fatalf("top %d, want %d", got, want)
		}
	}
}
