package replay

import (
	"math/bits"
	"math/rand/v2"
)

// blockRNG is the block placement's stream: a math/rand/v2 PCG with
// Rand.Int32N's draw, the same numbers, without the calls through the
// rand.Source interface that cost a third of a placement (the concrete
// PCG's Uint64 inlines).
type blockRNG struct{ pcg rand.PCG }

// seed is rand.NewPCG(seed1, seed2).
func (p *blockRNG) seed(seed1, seed2 uint64) { p.pcg.Seed(seed1, seed2) }

// uint64 is the PCG's next number.
func (p *blockRNG) uint64() uint64 { return p.pcg.Uint64() }

// int32n is rand.Rand.Int32N on a 64-bit machine: n > 0. The rare
// rejection is out of line, so that the draw inlines.
func (p *blockRNG) int32n(n int32) int32 {
	m := uint64(n)
	x := p.uint64()
	if m&(m-1) == 0 {
		return int32(x & (m - 1))
	}
	hi, lo := bits.Mul64(x, m)
	if lo < m {
		return p.reject(m, hi, lo)
	}
	return int32(hi)
}

// reject is the rest of Rand.uint64n when the first draw may be biased.
func (p *blockRNG) reject(m, hi, lo uint64) int32 {
	thresh := -m % m
	for lo < thresh {
		hi, lo = bits.Mul64(p.uint64(), m)
	}
	return int32(hi)
}
