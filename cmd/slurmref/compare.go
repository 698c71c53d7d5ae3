package main

import (
	"cmp"
	"encoding/csv"
	"fmt"
	"io"
	"math"
	"os"
	"slices"
	"strconv"
)

// readReplay reads the start time (first_launch_s) of jobs 1..n from the
// jobs.csv of bench replay --format csv, by job_id.
func readReplay(name string, n int) ([]float64, error) {
	if name == "" {
		return nil, fmt.Errorf("-replay is required")
	}
	f, err := os.Open(name)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	r := csv.NewReader(f)
	head, err := r.Read()
	if err != nil {
		return nil, fmt.Errorf("%s: no header row: %v", name, err)
	}
	id, start := slices.Index(head, "job_id"), slices.Index(head, "first_launch_s")
	if id < 0 || start < 0 {
		return nil, fmt.Errorf("%s: header has no job_id or first_launch_s column", name)
	}
	starts := make([]float64, n)
	seen := make([]bool, n)
	for row := 2; ; row++ {
		rec, err := r.Read()
		if err == io.EOF {
			break
		}
		if err != nil {
			return nil, fmt.Errorf("%s: %v", name, err)
		}
		j, err := strconv.Atoi(rec[id])
		if err != nil || j < 1 || j > n || seen[j-1] {
			return nil, fmt.Errorf("%s:%d: job_id %q; want each of 1..%d once", name, row, rec[id], n)
		}
		s, err := strconv.ParseFloat(rec[start], 64)
		if err != nil || math.IsNaN(s) {
			return nil, fmt.Errorf("%s:%d: first_launch_s %q is not a number", name, row, rec[start])
		}
		starts[j-1], seen[j-1] = s, true
	}
	for i, ok := range seen {
		if !ok {
			return nil, fmt.Errorf("%s: no row for job %d", name, i+1)
		}
	}
	return starts, nil
}

// Agreement says how far the replay's start times are from Slurm's.
type Agreement struct {
	Tau    float64 // Kendall's tau-b of the two start orders
	Within float64 // fraction of jobs whose starts differ by at most the tolerance
	Tol    float64 // the tolerance, s
	Mean   float64 // mean |replay − Slurm|, s
	Bias   float64 // mean replay − Slurm, s
	Max    float64 // largest |replay − Slurm|, s
	Pairs  [3]int  // concordant, discordant, tied in one or both
}

// Compare computes the agreement of Slurm's start times with the
// replay's. Kendall's tau-b counts the pairs of jobs started in the same
// order by both (concordant) and in opposite orders (discordant); pairs
// tied in one are neither, and shrink the denominator as tau-b does:
// (C − D) / sqrt((P − T1)(P − T2)), P the pairs, T1 and T2 those tied in
// each ranking. With scontrol's whole seconds the jobs Slurm starts in
// one second are tied; with the log's milliseconds (-log) the jobs the
// replay starts at one instant are.
func Compare(ran []Ran, rep []float64, tol float64) Agreement {
	n := len(ran)
	var a Agreement
	a.Tol = tol
	var c, d, t1, t2 int
	for i := range n {
		for j := i + 1; j < n; j++ {
			x := cmp.Compare(ran[i].Start, ran[j].Start)
			y := cmp.Compare(rep[i], rep[j])
			if x == 0 {
				t1++
			}
			if y == 0 {
				t2++
			}
			switch {
			case x == 0 || y == 0:
				a.Pairs[2]++
			case x == y:
				c++
			default:
				d++
			}
		}
	}
	a.Pairs[0], a.Pairs[1] = c, d
	p := n * (n - 1) / 2
	if den := math.Sqrt(float64(p-t1) * float64(p-t2)); den > 0 {
		a.Tau = float64(c-d) / den
	} else {
		a.Tau = math.NaN()
	}
	in := 0
	for i := range n {
		delta := rep[i] - ran[i].Start
		a.Bias += delta
		a.Mean += math.Abs(delta)
		a.Max = max(a.Max, math.Abs(delta))
		if math.Abs(delta) <= tol {
			in++
		}
	}
	a.Bias /= float64(n)
	a.Mean /= float64(n)
	a.Within = float64(in) / float64(n)
	return a
}

// Print writes the figures and the jobs furthest apart.
func (a Agreement) Print(out io.Writer, ran []Ran, rep []float64) {
	fmt.Fprintf(out, "jobs %d, pairs: %d concordant, %d discordant, %d tied\n", len(ran), a.Pairs[0], a.Pairs[1], a.Pairs[2])
	fmt.Fprintf(out, "Kendall tau-b of start order: %.4f\n", a.Tau)
	fmt.Fprintf(out, "starts within %g s: %.1f%%; |replay - Slurm| mean %.3f s, max %.3f s; replay - Slurm mean %+.3f s\n",
		a.Tol, 100*a.Within, a.Mean, a.Max, a.Bias)
	idx := make([]int, len(ran))
	for i := range idx {
		idx[i] = i
	}
	dist := func(i int) float64 { return math.Abs(rep[i] - ran[i].Start) }
	slices.SortStableFunc(idx, func(x, y int) int { return cmp.Compare(dist(y), dist(x)) })
	fmt.Fprintf(out, "furthest apart (job: submit, Slurm start, replay start):\n")
	for _, i := range idx[:min(5, len(idx))] {
		fmt.Fprintf(out, "  job %d: %.3f, %.3f, %.3f\n", i+1, ran[i].Submit, ran[i].Start, rep[i])
	}
}
