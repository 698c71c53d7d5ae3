package reports

import (
	"errors"
	"fmt"
	"math"
	"slices"
)

// ErrInvalid is matched (errors.Is) by every error about malformed report
// data; the message says which figure, panel, series, table or claim.
var ErrInvalid = errors.New("reports: invalid report data")

type invalidError struct{ where, msg string }

func (e *invalidError) Error() string        { return e.where + ": " + e.msg }
func (e *invalidError) Is(target error) bool { return target == ErrInvalid }

func invalid(where, format string, args ...any) error {
	return &invalidError{where: where, msg: fmt.Sprintf(format, args...)}
}

// Validate reports whether f can be drawn: a file-safe name, at least one
// panel, no empty panel, finite values, matching lengths, positive x on a
// logarithmic axis, error bounds only on points, stacked series sharing X
// and each at or above the one before. The error names figure, panel (from
// 1, with its title) and series (from 1, with its label).
func (f Figure) Validate() error {
	where := fmt.Sprintf("figure %q", f.Name)
	if !fileSafe(f.Name) {
		return invalid(where, "name must be letters, digits, '.', '_' or '-', not starting with '.'")
	}
	if len(f.Panels) == 0 {
		return invalid(where, "no panels")
	}
	for i, p := range f.Panels {
		pw := fmt.Sprintf("%s, panel %d", where, i+1)
		if p.Title != "" {
			pw += fmt.Sprintf(" %q", p.Title)
		}
		if err := validatePanel(pw, p); err != nil {
			return err
		}
	}
	return nil
}

func validatePanel(where string, p Panel) error {
	if len(p.Series) == 0 {
		return invalid(where, "empty panel: no series")
	}
	if err := validateRange(where, "x range", p.X, p.XLog); err != nil {
		return err
	}
	if err := validateRange(where, "y range", p.Y, false); err != nil {
		return err
	}
	hasX := p.X != nil // an x range to draw on: fixed, or from data or marks
	for _, s := range p.Series {
		hasX = hasX || s.Kind != HLine
	}
	for _, m := range p.Marks {
		hasX = hasX || m.Axis == "x"
	}
	if !hasX {
		return invalid(where, "only horizontal lines: give an x range")
	}
	var below *Series // the last stacked series seen
	for j := range p.Series {
		s := &p.Series[j]
		sw := fmt.Sprintf("%s, series %d %q", where, j+1, s.Label)
		if err := validateSeries(sw, *s, p.XLog); err != nil {
			return err
		}
		if s.Kind != Stacked {
			continue
		}
		if below != nil {
			if !slices.Equal(s.X, below.X) {
				return invalid(sw, "stacked series must share the x values of the stacked series before it (%q)", below.Label)
			}
			for k := range s.Y {
				if s.Y[k] < below.Y[k] {
					return invalid(sw, "stacked y[%d] = %g is below the stacked series before it (%q: %g); y is the top of the band, already summed", k, s.Y[k], below.Label, below.Y[k])
				}
			}
		}
		below = s
	}
	for k, m := range p.Marks {
		mw := fmt.Sprintf("%s, mark %d %q", where, k+1, m.Label)
		if m.Axis != "x" && m.Axis != "y" {
			return invalid(mw, "axis %q, want \"x\" or \"y\"", m.Axis)
		}
		if math.IsNaN(m.At) || math.IsInf(m.At, 0) {
			return invalid(mw, "at = %g, not finite", m.At)
		}
		if m.Axis == "x" && p.XLog && m.At <= 0 {
			return invalid(mw, "at = %g, not positive on a logarithmic x axis", m.At)
		}
	}
	return nil
}

func validateRange(where, name string, r *Range, log bool) error {
	if r == nil {
		return nil
	}
	switch {
	case !finite(r.Min) || !finite(r.Max):
		return invalid(where, "%s [%g, %g] not finite", name, r.Min, r.Max)
	case r.Min >= r.Max:
		return invalid(where, "%s [%g, %g] is empty", name, r.Min, r.Max)
	case log && r.Min <= 0:
		return invalid(where, "%s [%g, %g] not positive on a logarithmic axis", name, r.Min, r.Max)
	}
	return nil
}

func validateSeries(where string, s Series, xlog bool) error {
	switch s.Kind {
	case Line, Step, Points, Stacked:
	case HLine:
		if len(s.Y) != 1 || len(s.X) != 0 {
			return invalid(where, "hline needs exactly one y value and no x (it spans the panel), has %d y and %d x", len(s.Y), len(s.X))
		}
		if !finite(s.Y[0]) {
			return invalid(where, "y[0] = %g, not finite", s.Y[0])
		}
		if s.YLo != nil || s.YHi != nil {
			return invalid(where, "hline takes no y_lo/y_hi")
		}
		return nil
	default:
		return invalid(where, "unknown kind %q (want line, step, points, stacked or hline)", s.Kind)
	}
	if len(s.X) == 0 {
		return invalid(where, "no points")
	}
	if len(s.X) != len(s.Y) {
		return invalid(where, "x has %d values, y has %d", len(s.X), len(s.Y))
	}
	if err := allFinite(where, "x", s.X); err != nil {
		return err
	}
	if err := allFinite(where, "y", s.Y); err != nil {
		return err
	}
	for i, x := range s.X {
		if xlog && x <= 0 {
			return invalid(where, "x[%d] = %g, not positive on a logarithmic x axis", i, x)
		}
		if (s.Kind == Step || s.Kind == Stacked) && i > 0 && x < s.X[i-1] {
			return invalid(where, "%s x must not decrease: x[%d] = %g < x[%d] = %g", s.Kind, i, x, i-1, s.X[i-1])
		}
	}
	return validateBounds(where, s)
}

// validateBounds checks YLo and YHi, the error bars of a points series.
func validateBounds(where string, s Series) error {
	if s.YLo == nil && s.YHi == nil {
		return nil
	}
	if s.Kind != Points {
		return invalid(where, "y_lo/y_hi are drawn only for points, not %s", s.Kind)
	}
	if len(s.YLo) != len(s.Y) || len(s.YHi) != len(s.Y) {
		return invalid(where, "y has %d values but y_lo %d and y_hi %d", len(s.Y), len(s.YLo), len(s.YHi))
	}
	if err := allFinite(where, "y_lo", s.YLo); err != nil {
		return err
	}
	if err := allFinite(where, "y_hi", s.YHi); err != nil {
		return err
	}
	for i := range s.YLo {
		if s.YLo[i] > s.YHi[i] {
			return invalid(where, "y_lo[%d] = %g above y_hi[%d] = %g", i, s.YLo[i], i, s.YHi[i])
		}
	}
	return nil
}

func allFinite(where, name string, v []float64) error {
	for i, x := range v {
		if !finite(x) {
			return invalid(where, "%s[%d] = %g, not finite", name, i, x)
		}
	}
	return nil
}

func finite(x float64) bool { return !math.IsNaN(x) && !math.IsInf(x, 0) }

// fileSafe reports whether name can be a file stem and a URL path segment
// without escaping.
func fileSafe(name string) bool {
	if name == "" || name[0] == '.' {
		return false
	}
	for _, r := range name {
		ok := r >= 'a' && r <= 'z' || r >= 'A' && r <= 'Z' || r >= '0' && r <= '9' ||
			r == '.' || r == '_' || r == '-'
		if !ok {
			return false
		}
	}
	return true
}
