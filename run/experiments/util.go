package experiments

import (
	"fmt"
	"math"
	"strings"

	"sojourn/results"
)

// nan is a figure that cannot be computed (no job of the kind).
var nan = math.NaN()

func resultsMetadata(r *Run) map[string]string {
	return results.Metadata(r.Result, r.Cell.Trace, nil)
}

// round keeps d decimals so that manifests do not carry float noise; NaN
// (no maps, no jobs) becomes 0 since JSON has no NaN.
func round(v float64, d int) float64 {
	if math.IsNaN(v) || math.IsInf(v, 0) {
		return 0
	}
	p := math.Pow(10, float64(d))
	return math.Round(v*p) / p
}

// Display names of policies in figures and tables.
func label(policy string) string {
	switch policy {
	case "fifo", "fair", "hfsp", "fsp", "srpt", "ps", "las", "sjf":
		return strings.ToUpper(policy)
	case "capacity":
		return "Capacity"
	case "easy":
		return "FAIR+EASY"
	case "disco":
		return "Disco"
	}
	return policy
}

// secs formats seconds for a table.
func secs(v float64) string {
	if math.IsNaN(v) {
		return "–"
	}
	return fmt.Sprintf("%.1f", v)
}

func pct(v float64) string {
	if math.IsNaN(v) {
		return "–"
	}
	return fmt.Sprintf("%.1f%%", 100*v)
}

func ratio(v float64) string {
	if math.IsNaN(v) || math.IsInf(v, 0) {
		return "–"
	}
	return fmt.Sprintf("%.2f×", v)
}

// nodeLocal is the fraction of a run's finished maps that ran node-local,
// from its jobs.arrow.
func nodeLocal(j *results.Jobs) float64 {
	var local, all int64
	for i := range j.Index {
		local += int64(j.NodeLocal[i])
		all += int64(j.NodeLocal[i] + j.RackLocal[i] + j.OffRack[i])
	}
	if all == 0 {
		return math.NaN()
	}
	return float64(local) / float64(all)
}
