package sweep

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"sojourn/internal/fuzzguard"
)

// oneLine fails t unless err is one line that names name.
func oneLine(t *testing.T, err error, name string) {
	t.Helper()
	if msg := err.Error(); !strings.Contains(msg, name) || strings.Contains(msg, "\n") {
		t.Fatalf("error %q is not one line naming %s", msg, name)
	}
}

// FuzzLoad: any sweep file gives a plan or one error naming the file,
// never a panic or a hang.
func FuzzLoad(f *testing.F) {
	f.Add([]byte(tinySweep))
	f.Add([]byte(`{"name": "x", "workloads": [{"name": "a", "profile": "fb2009", "jobs": 3}], "policies": ["fifo"], "parameters": {"nodes": [10, 20]}, "seeds": [1, 2]}`))
	f.Add([]byte(`{"name": "x", "workloads": [{"name": "a", "trace": "t.arrow"}], "policies": ["fair"], "fixed": {"fair.preemption": true}}`))
	path := filepath.Join(f.TempDir(), "sweep.json") // one per worker process
	f.Fuzz(func(t *testing.T, data []byte) {
		if err := os.WriteFile(path, data, 0o644); err != nil {
			t.Fatal(err)
		}
		fuzzguard.Within(t, func() {
			if _, err := Load(path); err != nil {
				oneLine(t, err, path)
			}
		})
	})
}

// sampleCell is a cell.json as a sweep writes it.
func sampleCell() *CellRecord {
	return &CellRecord{
		CellCoords: CellCoords{Index: 3, Dir: cellDir(3), Workload: "a", Policy: "fair",
			Params: map[string]string{"nodes": "10"}, Seed: 2},
		Trace: "traces/a-1.arrow", TraceSum: strings.Repeat("ab", 32),
		Figures: Figures{Jobs: 2, MeanSojournS: 15, MedianSojournS: 15, P95SojournS: 20, MeanSlowdown: 1.5, NodeLocalFraction: 0.75},
		PerJob:  PerJob{SojournS: []float64{10, 20}, Slowdown: []float64{1, 2}, NodeLocalMaps: []float64{1, 2}, Maps: []float64{1, 3}},
	}
}

// FuzzParseCell: any bytes give a checked record or one error naming
// the file.
func FuzzParseCell(f *testing.F) {
	data, err := encodeJSON(sampleCell())
	if err != nil {
		f.Fatal(err)
	}
	if _, err := ParseCell(data, "cell.json"); err != nil {
		f.Fatalf("the seed is refused: %v", err)
	}
	f.Add(data)
	f.Add([]byte(`{"index": 0, "dir": "cells/000000", "per_job": {"sojourn_s": [null]}}`))
	f.Fuzz(func(t *testing.T, data []byte) {
		fuzzguard.Within(t, func() {
			if _, err := ParseCell(data, "cell.json"); err != nil {
				oneLine(t, err, "cell.json")
			}
		})
	})
}

// FuzzParseSummary: any bytes give a checked summary or one error naming
// the file.
func FuzzParseSummary(f *testing.F) {
	c := sampleCell()
	g := &Group{Workload: c.Workload, Policy: c.Policy, Params: c.Params, Seeds: []uint64{c.Seed},
		Traces: []string{c.TraceSum}, Cells: []int{c.Index}, PerJob: c.PerJob, Figures: c.Figures}
	s := &Summary{Format: SummaryFormat, Sweep: "tiny", CodeVersion: "v0", Groups: []*Group{g},
		Cells: []CellSummary{{c.CellCoords, c.Figures}}}
	data, err := encodeJSON(s)
	if err != nil {
		f.Fatal(err)
	}
	if _, err := ParseSummary(data, "summary.json"); err != nil {
		f.Fatalf("the seed is refused: %v", err)
	}
	f.Add(data)
	f.Add([]byte(`{"format": "sojourn-summary/1", "groups": [{"per_job": {}}]}`))
	f.Fuzz(func(t *testing.T, data []byte) {
		fuzzguard.Within(t, func() {
			if _, err := ParseSummary(data, "summary.json"); err != nil {
				oneLine(t, err, "summary.json")
			}
		})
	})
}

// A summary whose groups' seeds, traces and cells disagree in number (bench
// compare indexed one by the other and panicked), that has no group (a
// broken baseline compared as "no regression"), or whose per-job lists
// hold a null (read as 0 before), is refused.
func TestSummaryGroupsChecked(t *testing.T) {
	c := sampleCell()
	mk := func(seeds []uint64, traces []string, cells []int) []byte {
		g := &Group{Workload: c.Workload, Policy: c.Policy, Params: c.Params, Seeds: seeds, Traces: traces, Cells: cells,
			PerJob: c.PerJob, Figures: c.Figures}
		data, err := encodeJSON(&Summary{Format: SummaryFormat, Sweep: "t", Groups: []*Group{g}})
		if err != nil {
			t.Fatal(err)
		}
		return data
	}
	for _, bad := range []struct {
		data []byte
		want string
	}{
		{mk([]uint64{1}, []string{"a", "b"}, []int{0, 1}), "1 seeds, 2 trace_sha256 and 2 cells"},
		{mk(nil, nil, nil), "0 seeds"},
		{[]byte(`{"format": "sojourn-summary/1", "groups": []}`), "no groups"},
		{[]byte(`{"format": "sojourn-summary/1"}`), "no groups"},
		{[]byte(`{"format": "sojourn-summary/1", "groups": [{"seeds": [1], "trace_sha256": ["a"], "cells": [0],
			"per_job": {"sojourn_s": [1, null], "slowdown": [1, 1], "node_local_maps": [1, 1], "maps": [1, 1]}}]}`), "per_job.sojourn_s[1] is null"},
	} {
		if _, err := ParseSummary(bad.data, "summary.json"); err == nil || !strings.Contains(err.Error(), bad.want) {
			t.Errorf("error %v, want %q", err, bad.want)
		}
	}
	if _, err := ParseSummary(mk([]uint64{1}, []string{"a"}, []int{0}), "summary.json"); err != nil {
		t.Errorf("a good summary refused: %v", err)
	}
}
