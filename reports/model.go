package reports

import (
	"encoding/json"
	"fmt"
	"math"
)

// The report model: what an experiment hands to this package. It is plain
// data (JSON-friendly, no NaN or Inf) so that an experiment can save its
// section next to its results and the report can be rebuilt from files.

// Section is one experiment's part of the report.
type Section struct {
	Name    string   `json:"name"`    // experiment name, e.g. "fig3"
	Title   string   `json:"title"`   // one line, e.g. "FB2009 sojourn times per job class"
	Summary string   `json:"summary"` // a paragraph of plain text
	Figures []Figure `json:"figures,omitempty"`
	Tables  []Table  `json:"tables,omitempty"`
	Claims  []Claim  `json:"claims,omitempty"`
	// Runs link to the pages of the section's replays (WriteRunPage).
	Runs []RunLink `json:"runs,omitempty"`
	// Answer holds the tables the report opens with, before any section:
	// which policy, by how much, with its interval.
	Answer []Table `json:"answer,omitempty"`
}

// Figure is one image of the report, made of panels drawn side by side.
type Figure struct {
	Name    string  `json:"name"` // file stem: figures/<name>.png and .svg
	Title   string  `json:"title"`
	Caption string  `json:"caption"`
	Panels  []Panel `json:"panels"`
	// Columns of the grid the panels are drawn in, row by row; 0: all in
	// one row.
	Columns int `json:"columns,omitempty"`
}

// Panel is one set of axes.
type Panel struct {
	Title  string `json:"title"`
	XLabel string `json:"x_label"`
	YLabel string `json:"y_label"`
	XLog   bool   `json:"x_log,omitempty"` // logarithmic x axis (all x > 0), labelled "log scale"
	// Fixed axis ranges; a nil range is fitted to the data.
	X      *Range   `json:"x_range,omitempty"`
	Y      *Range   `json:"y_range,omitempty"`
	Series []Series `json:"series"`
	Marks  []Mark   `json:"marks,omitempty"`
}

// Range is a closed axis interval.
type Range struct {
	Min float64 `json:"min"`
	Max float64 `json:"max"`
}

// SeriesKind says how a series is drawn.
type SeriesKind string

const (
	// Line joins the points in order.
	Line SeriesKind = "line"
	// Step draws a right-continuous staircase: an ECDF, or a count that
	// holds its value until the next point.
	Step SeriesKind = "step"
	// Points draws markers joined by a line, with error bars from YLo/YHi
	// when they are given.
	Points SeriesKind = "points"
	// Stacked is a step function filled down to the stacked series drawn
	// before it in the same panel (allocation graphs). All stacked series
	// of a panel share the same X.
	Stacked SeriesKind = "stacked"
	// HLine is a horizontal reference line at Y[0] across the panel.
	HLine SeriesKind = "hline"
)

// Series is one labelled set of points.
type Series struct {
	Label string     `json:"label"`
	Kind  SeriesKind `json:"kind"`
	X     []float64  `json:"x"`
	Y     []float64  `json:"y"`
	// Optional lower and upper bounds of Y (confidence intervals), same
	// length as Y.
	YLo    []float64 `json:"y_lo,omitempty"`
	YHi    []float64 `json:"y_hi,omitempty"`
	Dashed bool      `json:"dashed,omitempty"`
	// Band draws the interval YLo–YHi of a Line or Points series as a
	// shaded band rather than error bars.
	Band bool `json:"band,omitempty"`
	// Policy is the scheduling policy the series draws, whose colour and
	// pattern it takes from the palette table (policyLooks); empty: the
	// label's first word when it names one.
	Policy string `json:"policy,omitempty"`
}

// Mark is a labelled reference line across a panel: vertical at x = At
// when Axis is "x", horizontal at y = At when Axis is "y".
type Mark struct {
	Axis  string  `json:"axis"`
	At    float64 `json:"at"`
	Label string  `json:"label"`
}

// Table is a table of the report; cells are already formatted.
type Table struct {
	Name    string     `json:"name"` // stem for a CSV/Markdown copy
	Title   string     `json:"title"`
	Columns []string   `json:"columns"`
	Rows    [][]string `json:"rows"`
	Note    string     `json:"note,omitempty"`
}

// Verdict is how our figure compares with a claim of the paper. Over
// several seeds (Claim.Seeds): Holds when the 95% interval of the mean
// lies inside the claim's tolerance, Partly when only the mean does,
// Fails when neither; NotReproduced when the model bounds the figure
// outside the tolerance whatever the policy does; NotShown when the model
// has no counterpart.
type Verdict string

const (
	Holds         Verdict = "holds"
	Partly        Verdict = "partly"
	Fails         Verdict = "does not hold"
	NotReproduced Verdict = "not reproduced"
	NotShown      Verdict = "not modelled"
)

// Claim is one quantitative statement of the paper set against our runs.
type Claim struct {
	Experiment string  `json:"experiment"` // section that measured it
	Statement  string  `json:"statement"`  // the claim, in a few words
	Paper      string  `json:"paper"`      // the paper's figure, e.g. "20% vs 1%"
	Tolerance  string  `json:"tolerance,omitempty"`
	Ours       string  `json:"ours"` // ours, same units: the mean over seeds [95% interval]
	Verdict    Verdict `json:"verdict"`
	Note       string  `json:"note,omitempty"` // why they differ, when they do
	// Seeds is how many seeds the claim was computed on, and HoldsIn on
	// how many of them its value lay inside the tolerance. Deterministic
	// claims (workloads with no randomness) are computed once.
	Seeds         int  `json:"seeds,omitempty"`
	HoldsIn       int  `json:"holds_in"`
	Deterministic bool `json:"deterministic,omitempty"`
	// Values are the claim's figure on each seed, in seed order, in the
	// unit of its tolerance; null where it could not be computed.
	Values []Number `json:"values,omitempty"`
}

// Number is a figure that JSON writes as null when it is NaN or infinite
// (JSON has neither) and reads back as NaN, rather than as a made-up 0.
type Number float64

// MarshalJSON writes null for NaN and ±Inf.
func (n Number) MarshalJSON() ([]byte, error) {
	if f := float64(n); math.IsNaN(f) || math.IsInf(f, 0) {
		return []byte("null"), nil
	}
	return json.Marshal(float64(n))
}

// UnmarshalJSON reads null as NaN.
func (n *Number) UnmarshalJSON(b []byte) error {
	if string(b) == "null" {
		*n = Number(math.NaN())
		return nil
	}
	var f float64
	err := json.Unmarshal(b, &f)
	*n = Number(f)
	return err
}

// SeedsCell is the claim's "holds in k of N seeds" for a table.
func (c Claim) SeedsCell() string {
	switch {
	case c.Seeds == 0:
		return "–"
	case c.Deterministic:
		return fmt.Sprintf("%d of 1 (no randomness)", c.HoldsIn)
	}
	return fmt.Sprintf("%d of %d", c.HoldsIn, c.Seeds)
}
