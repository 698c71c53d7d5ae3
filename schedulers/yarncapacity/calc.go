package yarncapacity

import (
	"math"

	"sojourn/replay"
)

// calc is YARN's resource calculator reduced to one number per amount of
// resources, its size, in MiB of memory or their equivalent:
//
//   - DefaultResourceCalculator: the memory;
//   - DominantResourceCalculator: the dominant share (the largest of the
//     amount's shares of the cluster's resources) times the cluster's
//     memory, so that both calculators measure the cluster in the same
//     unit and a share of the cluster is the same fraction of total.
//
// Queue capacities, user limits and the preemption policy's amounts are
// compared and computed on sizes; a sum is sized after it is added up
// (under the dominant calculator the size of a sum is not the sum of the
// sizes).
type calc struct {
	dominant bool
	cluster  replay.Resources
	nres     int
	total    float64          // size of the whole cluster: its memory
	minAlloc float64          // size of the minimum allocation
	step     replay.Resources // the minimum allocation
}

func newCalc(dominant bool, cluster replay.Resources, nres int, minAlloc replay.Resources) calc {
	c := calc{dominant: dominant, cluster: cluster, nres: nres, total: float64(cluster[0]), step: minAlloc}
	c.minAlloc = c.size(minAlloc)
	return c
}

// mulNormUp is Resources.multiplyAndNormalizeUp(r, by, minimum
// allocation): DefaultResourceCalculator rounds memory × by to the
// nearest MiB, then up to a multiple of the minimum allocation (other
// resources 0); DominantResourceCalculator rounds each resource × by up,
// then up to its step.
func (c *calc) mulNormUp(r replay.Resources, by float64) replay.Resources {
	var out replay.Resources
	if !c.dominant {
		out[0] = roundUpInt(int64(float64(r[0])*by+0.5), c.step[0])
		return out
	}
	for i := range c.nres {
		out[i] = roundUpInt(int64(math.Ceil(float64(float32(float64(r[i])*by)))), c.step[i])
	}
	return out
}

// mulNormDown is Resources.multiplyAndNormalizeDown(r, by, minimum
// allocation): each counted resource × by, truncated, rounded down to its
// step.
func (c *calc) mulNormDown(r replay.Resources, by float64) replay.Resources {
	var out replay.Resources
	for i := range c.nres {
		if i > 0 && !c.dominant {
			break
		}
		out[i] = roundDownInt(int64(float64(r[i])*by), c.step[i])
	}
	return out
}

// fitsIn is the calculator's fitsIn: memory alone, or every resource.
func (c *calc) fitsIn(small, big replay.Resources) bool {
	for i := range c.nres {
		if i > 0 && !c.dominant {
			break
		}
		if small[i] > big[i] {
			return false
		}
	}
	return true
}

// minOf is Resources.min: the smaller of a and b by the calculator (a on
// a tie).
func (c *calc) minOf(a, b replay.Resources) replay.Resources {
	if c.size(b) < c.size(a) {
		return b
	}
	return a
}

func roundUpInt(x, step int64) int64 {
	if step <= 0 {
		return x
	}
	return (x + step - 1) / step * step
}

func roundDownInt(x, step int64) int64 {
	if step <= 0 {
		return x
	}
	return x / step * step
}

// size is r's size.
func (c *calc) size(r replay.Resources) float64 {
	if !c.dominant {
		return float64(r[0])
	}
	s := 0.0
	for i := range c.nres {
		if c.cluster[i] > 0 {
			s = max(s, float64(r[i])/float64(c.cluster[i]))
		}
	}
	return s * c.total
}

// sizeOfSum is the size of a + n×b.
func (c *calc) sizeOfSum(a, b replay.Resources, n int64) float64 {
	if !c.dominant {
		return float64(a[0] + n*b[0]) // size's memory alone
	}
	for i := range c.nres {
		a[i] += n * b[i]
	}
	return c.size(a)
}

// eps absorbs the rounding of sizes computed from fractions (capacities
// in percent, dominant shares).
const eps = 1e-6

// roundUp rounds x up to a multiple of step (Resources.roundUp), with
// some slack for the rounding of x.
func roundUp(x, step float64) float64 {
	if step <= 0 {
		return x
	}
	return math.Ceil(x/step-eps) * step
}

func ceil(x float64) float64  { return math.Ceil(x - eps) }
func floor(x float64) float64 { return math.Floor(x + eps) }
