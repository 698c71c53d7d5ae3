package replay

import (
	"math/rand/v2"
	"testing"
)

// TestBlockRNGIsRandsPCG: the placement's stream draws what rand.Rand on
// a PCG of the same seeds draws, for bounds of every kind (powers of two,
// one, small, and near 2^31 where rejections are frequent).
func TestBlockRNGIsRandsPCG(t *testing.T) {
	bounds := []int32{1, 2, 3, 7, 64, 100, 1000, 3000, 1 << 30, 1<<31 - 1, 1<<30 + 1}
	for s := uint64(1); s <= 5; s++ {
		want := rand.New(rand.NewPCG(s, s*7+1))
		var got blockRNG
		got.seed(s, s*7+1)
		for i := range 20_000 {
			n := bounds[i%len(bounds)]
			if a, b := want.Int32N(n), got.int32n(n); a != b {
				t.Fatalf("seeds %d: draw %d of Int32N(%d): rand %d, blockRNG %d", s, i, n, a, b)
			}
		}
	}
}
