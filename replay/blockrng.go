package replay

import "math/bits"

// blockRNG is the block placement's stream: math/rand/v2's PCG (the same
// state update and DXSM output) with Rand.Int32N's draw, the same
// numbers. It is a plain value: a placement's loop draws from a local
// copy, next and bounded inline, so that the state stays in registers
// rather than going through the rand.Source interface or memory.
type blockRNG struct{ hi, lo uint64 }

// seed is rand.NewPCG(seed1, seed2).
func (p *blockRNG) seed(seed1, seed2 uint64) { *p = blockRNG{seed1, seed2} }

// next returns the stream one number on, and the number: rand.PCG.Uint64,
// a 128-bit LCG step and DXSM.
func (p blockRNG) next() (blockRNG, uint64) {
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
	x := hi ^ hi>>32
	x *= cheapMul
	x ^= x >> 48
	return blockRNG{hi, lo}, x * (lo | 1)
}

// int32n is rand.Rand.Int32N on a 64-bit machine: n > 0.
func (p *blockRNG) int32n(n int32) int32 {
	var x uint64
	*p, x = p.next()
	v, ok := bounded(x, n)
	if !ok {
		v, *p = p.rest(x, n)
	}
	return v
}

// bounded is Int32N's usual draw from its first number x, Lemire's
// multiply: false where the draw takes the rest (rest), n a power of two
// or a draw that may be biased.
func bounded(x uint64, n int32) (int32, bool) {
	m := uint64(n)
	hi, lo := bits.Mul64(x, m)
	return int32(hi), lo >= m && m&(m-1) != 0
}

// rest is Rand.uint64n's draw from its first number x where bounded
// fails, and the stream after it.
func (p blockRNG) rest(x uint64, n int32) (int32, blockRNG) {
	m := uint64(n)
	if m&(m-1) == 0 {
		return int32(x & (m - 1)), p
	}
	hi, lo := bits.Mul64(x, m)
	if lo < m {
		thresh := -m % m
		for lo < thresh {
			p, x = p.next()
			hi, lo = bits.Mul64(x, m)
		}
	}
	return int32(hi), p
}
