package main

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"sojourn/traces"
)

// badCase is one bad input of one reader through the command that reads
// it: the file's content (or a directory, or nothing at all), the command
// line with {in} for the file and {out} for the output, and what the one
// line on stderr must contain besides the file's name.
type badCase struct {
	class string // empty, truncated, garbage, wrong type, NaN, negative, overflow, duplicates, unknown key, missing field, directory, missing file
	name  string // the input's file name
	data  string // content; "<dir>" makes a directory, "<none>" nothing
	args  []string
	want  []string
}

// TestBadInputs: for every reader and every class of bad input, the
// command exits with status 1 and one line on stderr naming the file
// and, where the format has them, the position (line, row, column, field)
// or what was expected; no file appears under the output's final name.
// (Unreadable files are not tested: the tests may run as root, which
// reads them all the same.)
func TestBadInputs(t *testing.T) {
	dir := t.TempDir()
	trace := smallTrace(t, dir)
	good, err := os.ReadFile(trace)
	if err != nil {
		t.Fatal(err)
	}
	jobsDir := filepath.Join(dir, "results")
	if _, _, err := bench(t, "replay", "--trace", trace, "--out", jobsDir); err != nil {
		t.Fatal(err)
	}
	jobs, err := os.ReadFile(filepath.Join(jobsDir, "jobs.arrow"))
	if err != nil {
		t.Fatal(err)
	}
	declared := filepath.Join(dir, "declared.arrow")
	tr, err := traces.Read(trace)
	if err != nil {
		t.Fatal(err)
	}
	tr.Params["generator.jobs"] = "9223372036854775807"
	if err := traces.Write(declared, tr); err != nil {
		t.Fatal(err)
	}
	huge, err := os.ReadFile(declared)
	if err != nil {
		t.Fatal(err)
	}

	nored := filepath.Join(dir, "nored.txt")
	if err := os.WriteFile(nored, []byte("nodes count=3 map-slots=2 reduce-slots=0\n"), 0o644); err != nil {
		t.Fatal(err)
	}

	inspect := []string{"inspect", "{in}"}
	replayTrace := []string{"replay", "--trace", "{in}", "--out", "{out}"}
	config := []string{"replay", "--trace", trace, "--scheduler", "fair", "--config", "{in}", "--out", "{out}"}
	configHFSP := []string{"replay", "--trace", trace, "--scheduler", "hfsp", "--config", "{in}", "--out", "{out}"}
	pools := []string{"replay", "--trace", trace, "--scheduler", "fair", "--fair.pools", "{in}", "--out", "{out}"}
	queues := []string{"replay", "--trace", trace, "--scheduler", "capacity", "--capacity.queues", "{in}", "--out", "{out}"}
	swimGen := []string{"generate", "--swim", "{in}", "--original-nodes", "600", "--out", "{out}"}
	sweep := []string{"sweep", "--out", "{out}", "{in}"}
	compare := []string{"compare", "{in}", "{in}"}
	importSWF := []string{"import", "swf", "{in}", "--out", "{out}"}
	importCSV := []string{"import", "csv", "{in}", "--out", "{out}"}
	importSLS := []string{"import", "sls", "{in}", "--out", "{out}"}
	importAli := []string{"import", "alibaba2018", "{in}", "--out", "{out}"}
	const swfLine = "1 0 5 100 4 -1 -1 4 200 1024 1 3 7 -1 -1 -1 -1 -1\n"
	const group = `{"format": "sojourn-summary/1", "groups": [{"seeds": [1], "trace_sha256": ["a"], "cells": [0], "per_job": `
	const w = `"workloads": [{"name": "a", "profile": "fb2009", "jobs": 3}]`
	cases := []badCase{
		// Traces, by inspect and replay.
		{"empty", "t.arrow", "", inspect, []string{"not a sojourn trace"}},
		{"truncated", "t.arrow", string(good[:len(good)/2]), replayTrace, []string{"not a sojourn trace"}},
		{"garbage", "t.arrow", "ARROW1\x00\x00 this is not a trace ARROW1", inspect, []string{"not a sojourn trace"}},
		{"wrong type", "t.arrow", string(jobs), replayTrace, []string{`metadata sojourn.kind is "jobs", want "trace"`}},
		{"overflow", "t.arrow", string(huge), replayTrace, []string{"generator.jobs says 9223372036854775807, the file holds 10 rows"}},
		{"directory", "t.arrow", "<dir>", replayTrace, []string{"is a directory"}},
		{"missing file", "t.arrow", "<none>", inspect, []string{"no such file"}},
		// Policy configuration files.
		{"garbage", "p.conf", "hello\n", config, []string{"p.conf:1:", "is not policy.option = value"}},
		{"unknown key", "p.conf", "# c\nfair.nope = 1\n", config, []string{"p.conf:2:", `fair has no option "nope"`}},
		{"duplicates", "p.conf", "fair.preemption = true\nfair.preemption = false\n", config, []string{"p.conf:2:", "given again (first on line 1)"}},
		{"NaN", "p.conf", "fair.locality-delay = NaN\n", config, []string{"p.conf:1:", "NaN; want a finite number"}},
		{"negative", "p.conf", "\nfair.locality-delay = -5\n", config, []string{"p.conf:2:", "-5"}},
		{"overflow", "p.conf", "hfsp.samples = 99999999999\n", configHFSP, []string{"p.conf:1:", "want an integer from"}},
		{"wrong type", "p.conf", "fair.preemption = maybe\n", config, []string{"p.conf:1:", "is not true or false"}},
		{"truncated", "p.conf", "fair.locality-delay =", config, []string{"p.conf:1:"}},
		{"directory", "p.conf", "<dir>", config, []string{"is a directory"}},
		// FAIR pools files, XML and text.
		{"truncated", "pools.xml", "<allocations><pool name=\"a\"><weight>2</weight>", pools, []string{"pools.xml"}},
		{"unknown key", "pools.xml", "<allocations><pool name=\"a\"><minMap>3</minMap></pool></allocations>", pools, []string{"pools.xml:1:", "minMap"}},
		{"negative", "pools.xml", "<allocations>\n<pool name=\"a\"><weight>-2</weight></pool></allocations>", pools, []string{"pools.xml:2:", "weight"}},
		{"NaN", "pools.txt", "a fair NaN 0 0\n", pools, []string{"pools.txt:1:", "weight"}},
		{"duplicates", "pools.txt", "a fair 1 0 0\na fifo 1 0 0\n", pools, []string{"pools.txt:2:", "already defined on line 1"}},
		{"missing field", "pools.txt", "a fair 1\n", pools, []string{"pools.txt:1:", "3 fields; want 5"}},
		{"overflow", "pools.txt", "a fair 1 99999999999999999999 0\n", pools, []string{"pools.txt:1:", "minMaps"}},
		// Capacity queues files.
		{"empty", "q.conf", "", queues, []string{"q.conf", "no queue defined"}},
		{"garbage", "q.conf", "root.a.capacity 100\n", queues, []string{"q.conf:1:"}},
		{"NaN", "q.conf", "root.a.capacity = NaN\n", queues, []string{"q.conf:1:", "is not a number"}},
		{"duplicates", "q.conf", "root.a.capacity = 100\nroot.a.capacity = 100\n", queues, []string{"q.conf:2:", "set again (first on line 1)"}},
		{"unknown key", "q.conf", "root.a.colour = 100\n", queues, []string{"q.conf:1:", "PROPERTY one of"}},
		// SWIM workload files.
		{"empty", "w.tsv", "", swimGen, []string{"w.tsv: no jobs"}},
		{"garbage", "w.tsv", "hello world\n", swimGen, []string{"w.tsv:1:", "want at least 6"}},
		{"NaN", "w.tsv", "j\tNaN\t0\t1\t1\t1\n", swimGen, []string{"w.tsv:1: column 2 (submit_s)"}},
		{"negative", "w.tsv", "j\t0\t0\t-1\t1\t1\n", swimGen, []string{"w.tsv:1: column 4 (map_input_bytes)"}},
		{"overflow", "w.tsv", "j\t0\t0\t1\t1\t1\nk\t1e13\t0\t1\t1\t1\n", swimGen, []string{"w.tsv:2: column 2 (submit_s)", "beyond the replay clock"}},
		{"missing field", "w.tsv", "j\t0\t0\n", swimGen, []string{"w.tsv:1:", "3 columns"}},
		{"wrong type", "w.tsv", "j\t0\t0\tmany\t1\t1\n", swimGen, []string{"w.tsv:1: column 4"}},
		{"directory", "w.tsv", "<dir>", swimGen, []string{"is a directory"}},
		// Sweep files.
		{"empty", "s.json", "", sweep, []string{"s.json"}},
		{"truncated", "s.json", `{"name": "x", "policies": [`, sweep, []string{"s.json"}},
		{"wrong type", "s.json", `{"name": "x", "workloads": [{"name": "a", "profile": "fb2009", "jobs": "three"}], "policies": ["fifo"]}`, sweep, []string{"s.json: field workloads.jobs"}},
		{"unknown key", "s.json", `{"name": "x", ` + w + `, "polices": ["fifo"]}`, sweep, []string{`s.json: unknown field "polices"`}},
		{"duplicates", "s.json", `{"name": "x", ` + w + `, "policies": ["fifo"], "name": "y"}`, sweep, []string{`s.json: line 1`, `key "name" given twice`}},
		{"missing field", "s.json", `{` + w + `, "policies": ["fifo"]}`, sweep, []string{"s.json: name: missing"}},
		{"negative", "s.json", `{"name": "x", "workloads": [{"name": "a", "profile": "fb2009", "jobs": -3}], "policies": ["fifo"]}`, sweep, []string{"s.json", "must be >= 0"}},
		{"overflow", "s.json", `{"name": "x", ` + w + `, "policies": ["fifo"], "parameters": {"nodes": [2147483648]}}`, sweep, []string{"s.json: parameters.nodes[0]: 2147483648; want an integer from 1 to 1000000"}},
		{"directory", "s.json", "<dir>", sweep, []string{"is a directory"}},
		{"overflow", "s.json", `{"name": "x", ` + w + `, "policies": ["fifo", "fair"], "seeds": {"from": 1, "to": 600000}}`, sweep, []string{"s.json: 1200000 cells; want at most 1000000"}},
		{"overflow", "s.json", `{"name": "x", ` + w + `, "policies": ["fifo"], "seeds": {"from": 5, "to": 5000000}}`, sweep, []string{"s.json: seeds: 5 to 5000000 is more than 1000000 seeds"}},
		{"impossible", "s.json", `{"name": "x", "workloads": [{"name": "a", "trace": "` + trace + `"}], "policies": ["fifo"], "fixed": {"cluster": "` + nored + `"}}`, sweep,
			[]string{"s.json: cell 0 (a fifo seed=1): cluster " + nored + ": no node has a reduce slot; job 0 (row 0) of " + trace + " has"}},
		// Summaries, by compare.
		{"empty", "summary.json", "", compare, []string{"summary.json"}},
		{"garbage", "summary.json", "{]", compare, []string{"summary.json"}},
		{"wrong type", "summary.json", `{"format": "sojourn-sweep/1"}`, compare, []string{"summary.json: format"}},
		{"missing field", "summary.json", `{"format": "sojourn-summary/1", "groups": [{"workload": "a", "per_job": {}}]}`, compare, []string{"summary.json: groups[0]", "0 seeds"}},
		{"negative", "summary.json", `{"format": "sojourn-summary/1", "groups": [{"seeds": [1], "trace_sha256": ["a"], "cells": [0], "per_job": {"sojourn_s": [-1], "slowdown": [1], "node_local_maps": [1], "maps": [1]}}]}`, compare, []string{"summary.json: groups[0]", "per_job.sojourn_s[0] is -1"}},
		{"impossible", "summary.json", group + `{"sojourn_s": [5], "slowdown": [2], "node_local_maps": [239], "maps": [100]}}]}`, compare, []string{"summary.json: groups[0]", "per_job.node_local_maps[0] is 239; want a whole number from 0 to the job's 100 maps"}},
		{"impossible", "summary.json", group + `{"sojourn_s": [5], "slowdown": [0.5], "node_local_maps": [1], "maps": [1]}}]}`, compare, []string{"summary.json: groups[0]", "per_job.slowdown[0] is 0.5; want a finite value >= 1"}},
		{"impossible", "summary.json", group + `{"sojourn_s": [5], "slowdown": [2], "node_local_maps": [1], "maps": [1]}}], "cells": [{"node_local_fraction": 2.389, "mean_slowdown": 2}]}`, compare, []string{"summary.json: cells[0]: node_local_fraction is 2.389"}},
		{"duplicates", "summary.json", group + `{"sojourn_s": [5], "slowdown": [2], "node_local_maps": [1], "maps": [1], "maps": [2]}}]}`, compare, []string{"summary.json: line 1", `key "maps" given twice`}},
		// Imported workloads: lines, text and keys.
		{"overflow", "log.swf", strings.Repeat("1", 2<<20) + "\n", importSWF, []string{"log.swf:1: a line longer than 1048576 bytes (1 MiB)"}},
		{"overflow", "jobs.csv", "submit_s,maps,reduces,map_durations_s,reduce_durations_s\n0,1,0,\"" + strings.Repeat("1\n", 1<<20), importCSV, []string{"jobs.csv:", "a row longer than 1048576 bytes"}},
		{"overflow", "batch_task.csv", strings.Repeat("M", 2<<20), importAli, []string{"batch_task.csv:1: a line longer than"}},
		{"garbage", "log.swf", swfLine + "; \xff\n", importSWF, []string{"log.swf:2: column 3: byte 0xff is not UTF-8"}},
		{"garbage", "jobs.csv", "submit_s,name,maps,reduces,map_durations_s,reduce_durations_s\n0,\xc3(,1,0,5,\n", importCSV, []string{"jobs.csv:2: column 3: byte 0xc3 is not UTF-8"}},
		{"garbage", "t.json", "{\"job.start.ms\": 0, \"job.id\": \"\\udc00\", \"job.tasks\": [{\"duration.ms\": 1}]}\n", importSLS, []string{"t.json:1: field job.id", "lone surrogate"}},
		{"duplicates", "t.json", "{\"job.start.ms\": 0,\n \"job.queue.name\": \"a\", \"job.queue.name\": \"b\", \"job.tasks\": [{\"duration.ms\": 1}]}\n", importSLS, []string{"t.json:2: field \"job.queue.name\": column 25: given twice"}},
		{"overflow", "t.json", "{\"job.start.ms\": \"" + strings.Repeat("9", 3000) + "\", \"job.tasks\": []}\n", importSLS, []string{"t.json:1: field job.start.ms", "… (3002 bytes); want an integer"}},
	}
	t.Logf("%d bad inputs", len(cases))
	for i, c := range cases {
		cdir := filepath.Join(dir, "case", strings.ReplaceAll(c.class, " ", "-")+"-"+string(rune('a'+i%26))+strings.Repeat("x", i/26))
		if err := os.MkdirAll(cdir, 0o755); err != nil {
			t.Fatal(err)
		}
		in := filepath.Join(cdir, c.name)
		switch c.data {
		case "<dir>":
			if err := os.Mkdir(in, 0o755); err != nil {
				t.Fatal(err)
			}
		case "<none>":
		default:
			if err := os.WriteFile(in, []byte(c.data), 0o644); err != nil {
				t.Fatal(err)
			}
		}
		out := filepath.Join(cdir, "out")
		var args []string
		for _, a := range c.args {
			args = append(args, strings.NewReplacer("{in}", in, "{out}", out).Replace(a))
		}
		_, stderr, code := benchProc(t, args...)
		lines := strings.Split(strings.TrimSuffix(stderr, "\n"), "\n")
		ok := code == 1 && len(lines) == 1 && strings.Contains(stderr, in)
		for _, w := range c.want {
			ok = ok && strings.Contains(stderr, w)
		}
		if !ok {
			t.Errorf("%s %s (%s): exit %d, stderr %q; want exit 1 and one line naming %s with %q", args[0], c.name, c.class, code, stderr, in, c.want)
		}
		if _, err := os.Stat(out); err == nil {
			t.Errorf("%s %s (%s): %s was written", args[0], c.name, c.class, out)
		}
	}
}
