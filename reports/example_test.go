package reports_test

import (
	"fmt"

	"sojourn/reports"
)

func ExampleClaimsMarkdown() {
	s := reports.Section{
		Name: "fig3",
		Claims: []reports.Claim{
			{Experiment: "fig3", Statement: "small jobs finish sooner under HFSP", Paper: "5x", Tolerance: "≥ 5x",
				Ours: "6x [5.5x, 6.5x]", Verdict: reports.Holds, Seeds: 20, HoldsIn: 19},
			{Experiment: "fig3", Statement: "big jobs | medium jobs", Paper: "1.2x", Tolerance: "1.1x to 1.3x", Ours: "1.0x",
				Verdict: reports.Fails, Note: "fewer big jobs", Seeds: 1, Deterministic: true},
		},
	}
	fmt.Print(reports.ClaimsMarkdown([]reports.Section{s}))
	// Output:
	// | Experiment | Claim | Paper | Tolerance | Ours: mean [95% interval] | Holds in | Verdict | Note |
	// |---|---|---|---|---|---|---|---|
	// | fig3 | small jobs finish sooner under HFSP | 5x | ≥ 5x | 6x [5.5x, 6.5x] | 19 of 20 | holds |  |
	// | fig3 | big jobs \| medium jobs | 1.2x | 1.1x to 1.3x | 1.0x | 0 of 1 (no randomness) | does not hold | fewer big jobs |
}

func ExampleTableMarkdown() {
	fmt.Print(reports.TableMarkdown(reports.Table{
		Title:   "Mean sojourn time (s)",
		Columns: []string{"class", "FIFO", "HFSP"},
		Rows:    [][]string{{"small", "120", "20"}, {"big", "3000", "2500"}},
	}))
	// Output:
	// **Mean sojourn time (s)**
	//
	// | class | FIFO | HFSP |
	// |---|---|---|
	// | small | 120 | 20 |
	// | big | 3000 | 2500 |
}
