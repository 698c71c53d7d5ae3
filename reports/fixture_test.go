package reports

// Fixtures shared by the tests: small, hand-written, every kind of series.

// sampleFigure has three panels covering every series kind, error bars,
// a dashed series, marks on both axes, a logarithmic x axis and fixed
// ranges.
func sampleFigure() Figure {
	return Figure{
		Name:    "sample",
		Title:   "Every series kind",
		Caption: "A test figure.",
		Panels: []Panel{
			{
				Title:  "Sojourn time ECDF",
				XLabel: "sojourn time (s)",
				YLabel: "fraction of jobs",
				XLog:   true,
				Y:      &Range{Min: 0, Max: 1},
				Series: []Series{
					{Label: "FIFO", Kind: Step, X: []float64{12, 40, 90, 300, 2000}, Y: []float64{0.2, 0.4, 0.6, 0.8, 1}},
					{Label: "FAIR", Kind: Step, X: []float64{10, 25, 60, 200, 900}, Y: []float64{0.2, 0.4, 0.6, 0.8, 1}},
					{Label: "HFSP", Kind: Step, X: []float64{8, 15, 30, 100, 700}, Y: []float64{0.2, 0.4, 0.6, 0.8, 1}},
				},
				Marks: []Mark{{Axis: "x", At: 60, Label: "1 min"}, {Axis: "y", At: 0.5, Label: "median"}},
			},
			{
				Title:  "Mean sojourn vs load",
				XLabel: "load",
				YLabel: "mean sojourn (s)",
				Series: []Series{
					{Label: "FAIR", Kind: Points, X: []float64{0.2, 0.5, 0.8}, Y: []float64{50, 80, 160},
						YLo: []float64{45, 70, 140}, YHi: []float64{55, 90, 185}},
					{Label: "HFSP", Kind: Points, X: []float64{0.2, 0.5, 0.8}, Y: []float64{40, 55, 90},
						YLo: []float64{38, 50, 80}, YHi: []float64{42, 60, 100}},
					{Label: "model", Kind: Line, X: []float64{0.2, 0.8}, Y: []float64{35, 85}, Dashed: true},
					{Label: "paper HFSP at 0.8", Kind: HLine, Y: []float64{100}},
				},
			},
			{
				Title:  "Allocation",
				XLabel: "time (s)",
				YLabel: "map slots",
				X:      &Range{Min: 0, Max: 60},
				Series: []Series{
					{Label: "job 1", Kind: Stacked, X: []float64{0, 10, 20, 40, 60}, Y: []float64{4, 4, 2, 0, 0}},
					{Label: "job 2", Kind: Stacked, X: []float64{0, 10, 20, 40, 60}, Y: []float64{4, 6, 6, 3, 0}},
					{Label: "job 3", Kind: Stacked, X: []float64{0, 10, 20, 40, 60}, Y: []float64{4, 6, 8, 8, 0}},
				},
				Marks: []Mark{{Axis: "x", At: 10, Label: "job 2 arrives"}, {Axis: "x", At: 20, Label: "job 3 arrives"}},
			},
		},
	}
}

// sampleSection holds sampleFigure, a table and claims, with text that
// needs escaping in HTML and in Markdown.
func sampleSection() Section {
	return Section{
		Name:    "fig3",
		Title:   "FB2009: sojourn <times> & classes",
		Summary: "First paragraph.\n\nSecond paragraph with a | pipe.",
		Figures: []Figure{sampleFigure()},
		Tables: []Table{{
			Name:    "means",
			Title:   "Mean sojourn times",
			Columns: []string{"policy", "small", "big | huge"},
			Rows:    [][]string{{"FIFO", "120 s", "3000 s"}, {"HFSP", "20 s", "2500 s"}},
			Note:    "Means over 10 runs.",
		}},
		Claims: []Claim{
			{Experiment: "fig3", Statement: "HFSP cuts small-job sojourn", Paper: "5x", Ours: "6x", Verdict: Holds},
			{Experiment: "fig3", Statement: "big jobs <script>alert(1)</script>", Paper: "a | b", Ours: "1.1x", Verdict: Partly, Note: "fewer big jobs"},
			{Experiment: "fig3", Statement: "FAIR starves nothing", Paper: "0", Ours: "2 jobs", Verdict: Fails},
			{Experiment: "fig3", Statement: "network effects", Paper: "-", Ours: "-", Verdict: NotShown, Note: "no network model"},
		},
	}
}
