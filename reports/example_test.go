package reports_test

import (
	"fmt"

	"sojourn/reports"
)

func ExampleClaimsMarkdown() {
	s := reports.Section{
		Name: "fig3",
		Claims: []reports.Claim{
			{Experiment: "fig3", Statement: "small jobs finish sooner under HFSP", Paper: "5x", Ours: "6x", Verdict: reports.Holds},
			{Experiment: "fig3", Statement: "big jobs | medium jobs", Paper: "1.2x", Ours: "1.0x", Verdict: reports.Partly, Note: "fewer big jobs"},
		},
	}
	fmt.Print(reports.ClaimsMarkdown([]reports.Section{s}))
	// Output:
	// | Experiment | Claim | Paper | Ours | Verdict | Note |
	// |---|---|---|---|---|---|
	// | fig3 | small jobs finish sooner under HFSP | 5x | 6x | holds |  |
	// | fig3 | big jobs \| medium jobs | 1.2x | 1.0x | partly | fewer big jobs |
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
