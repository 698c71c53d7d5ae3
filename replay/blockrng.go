package replay

import "math/bits"

// blockRNG is the block placement's stream: math/rand/v2's PCG (the same
// state update and DXSM output) with Rand.Int32N's draw, the same
// numbers. It is a plain value, so that a placement drawing from a local
// copy keeps the state in registers instead of going through the
// rand.Source interface and memory.
type blockRNG struct{ hi, lo uint64 }

// seed is rand.NewPCG(seed1, seed2).
func (p *blockRNG) seed(seed1, seed2 uint64) { p.hi, p.lo = seed1, seed2 }

// uint64 is rand.PCG.Uint64: a 128-bit LCG step, then DXSM.
func (p *blockRNG) uint64() uint64 {
	const (
		mulHi    = 2549297995355413924
		mulLo    = 4865540595714422341
		incHi    = 6364136223846793005
		incLo    = 1442695040888963407
		cheapMul = 0xda942042e4dd58b5
	)
	hi, lo := bits.Mul64(p.lo, mulLo)
	hi += p.hi*mulLo + p.lo*mulHi
	lo, c := bits.Add64(lo, incLo, 0)
	hi, _ = bits.Add64(hi, incHi, c)
	p.hi, p.lo = hi, lo
	hi ^= hi >> 32
	hi *= cheapMul
	hi ^= hi >> 48
	return hi * (lo | 1)
}

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
