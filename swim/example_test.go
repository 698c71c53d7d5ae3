package swim_test

import (
	"fmt"
	"strings"

	"sojourn/swim"
)

// Two jobs of a made-up FB-2009 workload, scaled from 600 machines to 100
// and cut into tasks by both rules.
func ExampleParseTSV() {
	const tsv = "job0\t12\t12\t1500000000\t0\t2000\n" +
		"job1\t20\t8\t90000000000\t30000000000\t500000000\t\n"
	src, err := swim.ParseTSV(strings.NewReader(tsv), "example.tsv")
	if err != nil {
		fmt.Println(err)
		return
	}
	for _, rule := range []swim.TaskRule{swim.RuleNatural, swim.RuleSWIM} {
		tc := swim.TaskConfig{Rule: rule, Nodes: 100}
		if err := tc.Validate(); err != nil {
			fmt.Println(err)
			return
		}
		for _, r := range src.Records {
			s := tc.Shape(swim.ScaleBytes(r.InputBytes, 100, 600), swim.ScaleBytes(r.ShuffleBytes, 100, 600), swim.ScaleBytes(r.OutputBytes, 100, 600))
			fmt.Printf("%-7s %s at %3.0f s: %3d maps, %2d reduces, input %d bytes\n", rule, r.ID, r.Submit, s.Maps, s.Reduces, s.InputBytes)
		}
	}
	_, err = swim.ParseTSV(strings.NewReader("job0\t1\t1\t10\t20\n"), "bad.tsv")
	fmt.Println(err)
	// Output:
	// natural job0 at  12 s:   2 maps,  0 reduces, input 250000000 bytes
	// natural job1 at  20 s: 112 maps, 38 reduces, input 15000000000 bytes
	// swim    job0 at  12 s:   3 maps,  1 reduces, input 250000000 bytes
	// swim    job1 at  20 s: 131 maps, 38 reduces, input 15000000000 bytes
	// bad.tsv:1: 5 columns; want at least 6 (job id, submit, gap, input, shuffle and output bytes)
}

// The HFSP paper's FB2009 workload, from the embedded model.
func ExampleGenerate() {
	t, err := swim.Generate(swim.Config{Profile: "fb2009", Seed: 1})
	if err != nil {
		fmt.Println(err)
		return
	}
	classes := map[string]int{}
	for _, j := range t.Jobs {
		classes[j.Class]++
	}
	maps, reduces := t.TotalTasks()
	fmt.Println(len(t.Jobs), "jobs:", classes["small"], "small,", classes["medium"], "medium,", classes["big"], "big")
	fmt.Println(maps, "maps,", reduces, "reduces")
	fmt.Printf("last submit at %.0f s\n", t.Jobs[len(t.Jobs)-1].Submit)
	fmt.Println(t.Params["generator.model"])
	// Output:
	// 100 jobs: 53 small, 41 medium, 6 big
	// 12655 maps, 1841 reduces
	// last submit at 1319 s
	// FB-2009, fitted to 12532 jobs of FB-2009_samples_24_times_1hr_0.tsv, FB-2009_samples_24_times_1hr_1.tsv
}

// SWIM's window sampler on a five-job trace: two 20 s windows laid end to
// end, the idle tail of the first carried into the first gap of the second.
func ExampleSampleAt() {
	var recs []swim.Record
	for i, s := range []float64{10, 12, 30, 55, 70} {
		recs = append(recs, swim.Record{ID: fmt.Sprint("r", i), Submit: s})
	}
	for _, r := range swim.SampleAt(recs, []float64{5.5, 52.25}, 20) {
		fmt.Printf("%s submit %2.0f s, gap %2.0f s\n", r.ID, r.Submit, r.Gap)
	}
	// Output:
	// r0 submit  5 s, gap  5 s
	// r1 submit  7 s, gap  2 s
	// r3 submit 24 s, gap 17 s
	// r4 submit 39 s, gap 15 s
}
