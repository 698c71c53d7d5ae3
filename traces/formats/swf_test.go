package formats

import (
	"sojourn/internal/fuzzguard"
	"strings"
	"testing"
)

const swfSample = `; Version: 2.2
; Computer: a hand-made machine
; MaxProcs: 128
; MaxNodes: 64
;
1 0 5 100 4 -1 -1 4 200 1024 1 3 7 -1 -1 -1 -1 -1
2 10.5 5 50 -1 -1 2048 2 -1 -1 0 -1 -1 -1 -1 -1 -1 -1
3 20 -1 -1 -1 -1 -1 -1 -1 -1 5 1 -1 -1 -1 -1 -1 -1

4 30 0 7 1 -1 -1 1 8 -1 1 3 -1 -1 -1 -1 -1 -1
5 31 0 7 1 -1 -1 1 8 -1 2 3 -1 -1 -1 -1 -1 -1
`

// TestSWFSample checks every kept field of a hand-made log, the header,
// the fallbacks for -1 and the dropped jobs.
func TestSWFSample(t *testing.T) {
	jobs, imp, err := importString("swf", swfSample, Options{})
	if err != nil {
		t.Fatal(err)
	}
	if len(jobs) != 3 {
		t.Fatalf("%d jobs, want 3 (job 3 cancelled before it ran, job 5 a checkpointed part)", len(jobs))
	}
	j := jobs[0]
	eq(t, "job 1 id, name, submit, pool", []any{j.ID, j.Name, j.Submit, j.Pool}, []any{int64(1), "1", 0.0, "u3"})
	eq(t, "job 1 maps", j.MapDurations, []float64{100, 100, 100, 100})
	eq(t, "job 1 reduces", j.Reduces(), 0)
	eq(t, "job 1 estimate (requested time × processors)", []any{j.HasEstimate, j.Estimate}, []any{true, 800.0})
	eq(t, "job 1 memory (requested memory KB)", j.MapMemoryBytes, int64(1024*1024))
	eq(t, "job 1 line", j.SourceLine, int64(6))
	j = jobs[1]
	eq(t, "job 2 submit with decimals", j.Submit, 10.5)
	eq(t, "job 2 maps from requested processors", j.MapDurations, []float64{50, 50})
	eq(t, "job 2 no estimate", j.HasEstimate, false)
	eq(t, "job 2 memory from used memory", j.MapMemoryBytes, int64(2048*1024))
	eq(t, "job 2 pool of user -1", j.Pool, "unknown")
	eq(t, "job 2 line", j.SourceLine, int64(7))
	eq(t, "job 4 default memory", jobs[2].MapMemoryBytes, int64(DefaultMapMemory))
	eq(t, "job 4 line", jobs[2].SourceLine, int64(10))
	p := imp.Params()
	eq(t, "params", []string{p["swf.max_procs"], p["swf.max_nodes"], p["import.format"], p["import.source"]}, []string{"128", "64", "swf", "in.swf"})
	notes := strings.Join(imp.Notes(), "\n")
	for _, want := range []string{"MaxProcs 128, MaxNodes 64", "dropped 1 jobs: status 5", "dropped 1 jobs: status 2"} {
		if !strings.Contains(notes, want) {
			t.Errorf("notes %q lack %q", notes, want)
		}
	}
	dropped, _, err := importString("swf", swfSample, Options{SWFStatus: "drop"})
	if err != nil || len(dropped) != 2 {
		t.Fatalf("--swf.status drop: %d jobs, %v; want 2 (the failed job 2 dropped too)", len(dropped), err)
	}
}

// TestSWFRoundTrip: a trace imported from SWF, exported and imported
// again, keeps id, name, submit, pool, maps and their duration, estimate
// and map memory.
func TestSWFRoundTrip(t *testing.T) {
	jobs, imp, err := importString("swf", swfSample, Options{})
	if err != nil {
		t.Fatal(err)
	}
	back := roundTrip(t, "swf", jobs, imp.Params())
	if len(back) != len(jobs) {
		t.Fatalf("%d jobs back, want %d", len(back), len(jobs))
	}
	for i := range jobs {
		a, b := jobs[i], back[i]
		eq(t, "fields", []any{b.ID, b.Name, b.Submit, b.Pool, b.MapDurations, b.HasEstimate, b.Estimate, b.MapMemoryBytes},
			[]any{a.ID, a.Name, a.Submit, a.Pool, a.MapDurations, a.HasEstimate, a.Estimate, a.MapMemoryBytes})
	}
}

// TestSWFNoHeader: a log without header comments imports, and the notes
// say that it had no MaxProcs or MaxNodes.
func TestSWFNoHeader(t *testing.T) {
	jobs, imp, err := importString("swf", "1 0 5 100 4 -1 -1 4 200 1024 1 3 7 -1 -1 -1 -1 -1\n", Options{})
	if err != nil || len(jobs) != 1 {
		t.Fatalf("%v, %d jobs", err, len(jobs))
	}
	if n := imp.Notes(); len(n) != 1 || n[0] != "SWF header: no MaxProcs or MaxNodes" {
		t.Errorf("notes %q", n)
	}
	if _, ok := imp.Params()["swf.max_procs"]; ok {
		t.Error("swf.max_procs set without a header")
	}
}

func TestSWFBad(t *testing.T) {
	ok := "1 0 5 100 4 -1 -1 4 200 1024 1 3 7 -1 -1 -1 -1 -1\n"
	checkBad(t, "swf", []badCase{
		{"empty file", "", 0, "", "empty file"},
		{"wrong field count", "1 0 5 100 4\n", 1, "", "5 fields; want the 18"},
		{"non-numeric", "1 x 5 100 4 -1 -1 4 200 1024 1 3 7 -1 -1 -1 -1 -1\n", 1, "2 (submit_time)", "not a number"},
		{"negative", "1 0 5 -5 4 -1 -1 4 200 1024 1 3 7 -1 -1 -1 -1 -1\n", 1, "4 (run_time)", "negative"},
		{"unknown run time", "1 0 5 -1 4 -1 -1 4 200 1024 1 3 7 -1 -1 -1 -1 -1\n", 1, "4 (run_time)", "-1 (unknown)"},
		{"unknown job number", "-1 0 5 1 4 -1 -1 4 200 1024 1 3 7 -1 -1 -1 -1 -1\n", 1, "1 (job_number)", "-1"},
		{"unknown submit", "1 -1 5 1 4 -1 -1 4 200 1024 1 3 7 -1 -1 -1 -1 -1\n", 1, "2 (submit_time)", "-1"},
		{"unknown processors", "1 0 5 1 -1 -1 -1 -1 200 1024 1 3 7 -1 -1 -1 -1 -1\n", 1, "5 (allocated_processors)", "-1"},
		{"fractional processors", "1 0 5 1 2.5 -1 -1 -1 200 1024 1 3 7 -1 -1 -1 -1 -1\n", 1, "5 (allocated_processors)", "integer"},
		{"unsorted", "1 50 5 100 4 -1 -1 4 200 1024 1 3 7 -1 -1 -1 -1 -1\n" + ok, 2, "2 (submit_time)", "before the previous job's"},
		{"missing header is fine, bad status", "1 0 5 100 4 -1 -1 4 200 1024 9 3 7 -1 -1 -1 -1 -1\n", 1, "11 (status)", "want 0 failed"},
		{"huge submit", "1 9.3e12 5 100 4 -1 -1 4 200 1024 1 3 7 -1 -1 -1 -1 -1\n", 1, "2 (submit_time)", "too large"},
		{"huge run time", "1 0 5 9300000000000 4 -1 -1 4 200 1024 1 3 7 -1 -1 -1 -1 -1\n", 1, "4 (run_time)", "too large"},
		{"huge memory", "1 0 5 1 4 -1 -1 4 200 99999999999999999 1 3 7 -1 -1 -1 -1 -1\n", 1, "10 (requested_memory)", "too large"},
		{"huge processors", "1 0 5 1 99999999999 -1 -1 4 200 1 1 3 7 -1 -1 -1 -1 -1\n", 1, "5 (allocated_processors)", "at most"},
		{"binary junk", "\x00\x01\x02\n", 1, "", "1 fields"},
	})
}

// FuzzImportSWF: the importer never panics, and every job it hands out
// passes the trace schema's rules.
func FuzzImportSWF(f *testing.F) {
	f.Add(swfSample)
	f.Add("1 0 5 100 4 -1 -1 4 200 1024 1 3 7 -1 -1 -1 -1 -1\n")
	f.Add("; MaxProcs: 4\n2 1e3 5 1.5 4 -1 -1 4 -1 -1 5 3 7 -1 -1 -1 -1 -1\n")
	f.Fuzz(func(t *testing.T, data string) {
		fuzzguard.Within(t, func() {
			jobs, _, err := importString("swf", data, Options{})
			fuzzCheck(t, err)
			if err == nil {
				for i := range jobs {
					if jobs[i].Maps() == 0 {
						t.Fatalf("job %d has no map", i)
					}
				}
			}
		})
	})
}
