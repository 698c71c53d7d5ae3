package analysis

import (
	"math"
	"math/rand/v2"
)

// drawBlocks fills rows with blocks of consecutive rows of a sample of
// len(blocks) rows: from a start drawn uniformly, blocks[start] rows,
// wrapping past the last row to the first, until rows is full.
func drawBlocks(rows []int, blocks []int, rng *rand.Rand) {
	n := len(blocks)
	for i := 0; i < len(rows); {
		start := rng.IntN(n)
		for j := 0; j < blocks[start] && i < len(rows); j++ {
			rows[i] = (start + j) % n
			i++
		}
	}
}

// FixedBlocks are n blocks of length rows each (n if fewer), for
// Bootstrap.Blocks: the circular block bootstrap of Politis and Romano
// (1992). Length 1 gives the plain paired bootstrap. It panics if length
// is less than 1.
func FixedBlocks(n, length int) []int {
	if length < 1 {
		panic("analysis: FixedBlocks of fewer than one row")
	}
	out := make([]int, n)
	for i := range out {
		out[i] = min(length, n)
	}
	return out
}

// TimeBlocks are the blocks of rows at non-decreasing times (jobs in
// submit order) for Bootstrap.Blocks, each a window of the given width:
// the block that starts at row i holds the rows whose time is in
// [times[i], times[i]+width), at least row i itself. Windows wrap around
// the end: the times go on from the last row's at the first row's, as if
// the sequence repeated with period span·n/(n−1), where span is the last
// time minus the first (a mean gap after the last row). A window of the
// period or wider holds every row. It panics if times decrease, are not
// finite, or width is not positive.
func TimeBlocks(times []float64, width float64) []int {
	if !(width > 0) {
		panic("analysis: TimeBlocks needs a positive width")
	}
	n := len(times)
	for i, t := range times {
		if math.IsNaN(t) || math.IsInf(t, 0) || i > 0 && t < times[i-1] {
			panic("analysis: TimeBlocks needs finite, non-decreasing times")
		}
	}
	out := make([]int, n)
	if n == 0 {
		return out
	}
	period := 0.0
	if n > 1 {
		period = (times[n-1] - times[0]) * float64(n) / float64(n-1)
	}
	// at is the time of row i+k, k >= 0, on the repeated sequence.
	at := func(i, k int) float64 {
		j := i + k
		return times[j%n] + float64(j/n)*period
	}
	end := 0 // rows i .. i+end-1 are in the window of row i
	for i := range out {
		end = max(end-1, 1)
		for end < n && at(i, end)-times[i] < width {
			end++
		}
		out[i] = end
	}
	return out
}

// MeanBlock is the mean number of rows of the blocks.
func MeanBlock(blocks []int) float64 {
	if len(blocks) == 0 {
		return math.NaN()
	}
	s := 0
	for _, b := range blocks {
		s += b
	}
	return float64(s) / float64(len(blocks))
}
