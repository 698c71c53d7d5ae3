package reports

import (
	"fmt"
	"math"
	"strconv"

	"gonum.org/v1/plot"
)

// logTicks marks every 1..9 × 10^k in range and labels the powers of ten,
// and also 2× and 5× when the axis spans less than about a decade and a
// half (gonum's LogTicks would then leave one label or none).
type logTicks struct{}

func (logTicks) Ticks(min, max float64) []plot.Tick {
	lo, hi := math.Floor(math.Log10(min)), math.Ceil(math.Log10(max))
	dense := max/min < 30
	minor := hi-lo <= 8 // beyond, minor ticks would blacken the axis
	var ticks []plot.Tick
	for e := lo; e <= hi; e++ {
		for m := 1.0; m <= 9; m++ {
			v := m * math.Pow(10, e)
			if v < min*(1-1e-9) || v > max*(1+1e-9) {
				continue
			}
			labelled := m == 1 || dense && (m == 2 || m == 5)
			switch {
			case labelled:
				ticks = append(ticks, plot.Tick{Value: v, Label: tickLabel(v)})
			case minor:
				ticks = append(ticks, plot.Tick{Value: v})
			}
		}
	}
	return ticks
}

// tickLabel writes v in plain decimals between 0.001 and 100000 and as
// "2e6" outside, without the float noise of m × 10^e.
func tickLabel(v float64) string {
	if v >= 1e-3 && v < 1e5 {
		r, _ := strconv.ParseFloat(strconv.FormatFloat(v, 'g', 4, 64), 64)
		return strconv.FormatFloat(r, 'f', -1, 64)
	}
	e := math.Floor(math.Log10(v))
	if math.Pow(10, e+1) <= v { // Log10(1000) is 2.9999999999999996
		e++
	}
	m := math.Round(v/math.Pow(10, e)*1000) / 1000
	return fmt.Sprintf("%se%d", strconv.FormatFloat(m, 'f', -1, 64), int(e))
}

// maxLinearLabels is the most labelled ticks of a linear axis.
const maxLinearLabels = 6

// linearTicks label a linear axis at the multiples of the smallest step
// of the 1-2-5 series (1, 2 or 5 × 10^k) that gives at most
// maxLinearLabels labels, with unlabelled minor ticks between them (at
// half a step, a fifth of a step of 5 × 10^k). Labels are written at the
// step's decimals ("0.0, 0.2, … 1.0"; "0, 500, 1000"), never with float
// noise.
type linearTicks struct{}

func (linearTicks) Ticks(min, max float64) []plot.Tick {
	if !(max > min) || math.IsInf(max-min, 0) {
		return plot.DefaultTicks{}.Ticks(min, max)
	}
	step, mant := linearStep(min, max)
	minor := step / 2
	if mant == 5 {
		minor = step / 5
	}
	decimals := 0
	if e := math.Floor(math.Log10(step) + 1e-9); e < 0 {
		decimals = int(-e)
	}
	big := math.Max(math.Abs(min), math.Abs(max))
	label := func(v float64) string {
		if big >= 1e6 || big < 1e-3 {
			return tickLabel(math.Abs(v))
		}
		return strconv.FormatFloat(v, 'f', decimals, 64)
	}
	var ticks []plot.Tick
	perStep := int(math.Round(step / minor))
	first := math.Ceil(min/minor - 1e-9)
	for i := first; i*minor <= max*(1+1e-12)+1e-12*big; i++ {
		v := i * minor
		if math.Abs(v) < 1e-12*big {
			v = 0
		}
		tk := plot.Tick{Value: v}
		if int(math.Mod(math.Abs(i), float64(perStep))) == 0 {
			tk.Label = label(v)
			if v < 0 && tk.Label != "" && tk.Label[0] != '-' {
				tk.Label = "-" + tk.Label
			}
		}
		ticks = append(ticks, tk)
	}
	return ticks
}

// linearStep is the smallest step of the 1-2-5 series whose multiples in
// [min, max] are at most maxLinearLabels, and its mantissa (1, 2 or 5).
func linearStep(min, max float64) (step, mant float64) {
	p := math.Pow(10, math.Floor(math.Log10((max-min)/maxLinearLabels)))
	for {
		for _, m := range []float64{1, 2, 5} {
			s := m * p
			if n := math.Floor(max/s+1e-9) - math.Ceil(min/s-1e-9) + 1; n <= maxLinearLabels {
				return s, m
			}
		}
		p *= 10
	}
}
