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

// linearTicks are gonum's default ticks with labels rewritten at the
// fewest decimals that show every labelled value exactly: gonum writes
// "0.00, 25.00, 50.00" when its step is 2.5 × 10^k.
type linearTicks struct{}

func (linearTicks) Ticks(min, max float64) []plot.Tick {
	ticks := plot.DefaultTicks{}.Ticks(min, max)
	var big float64
	for _, tk := range ticks {
		if tk.Label != "" {
			big = math.Max(big, math.Abs(tk.Value))
		}
	}
	if big >= 1e6 || big < 1e-3 { // gonum's exponent form is fine there
		return ticks
	}
	decimals := 0
	for ; decimals < 6; decimals++ {
		exact := true
		for _, tk := range ticks {
			r := math.Round(tk.Value*math.Pow(10, float64(decimals))) / math.Pow(10, float64(decimals))
			if tk.Label != "" && math.Abs(r-tk.Value) > 1e-9*big {
				exact = false
			}
		}
		if exact {
			break
		}
	}
	for i, tk := range ticks {
		if tk.Label != "" {
			ticks[i].Label = strconv.FormatFloat(tk.Value, 'f', decimals, 64)
		}
	}
	return ticks
}
