package sweep

import (
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"time"

	"sojourn/schedulers"
)

// TestBadSweepFiles: each mistake gives one line naming the file and the
// field.
// checkLoadError writes a sweep file of text and requires Load's error to
// be one line starting with the file's path and containing want.
func checkLoadError(t *testing.T, name, text, want string) {
	t.Helper()
	path := writeFile(t, t.TempDir(), "s.json", text)
	_, err := Load(path)
	if err == nil {
		t.Errorf("%s: no error", name)
		return
	}
	msg := err.Error()
	if !strings.HasPrefix(msg, path+": ") || !strings.Contains(msg, want) || strings.Contains(msg, "\n") {
		t.Errorf("%s: error %q; want one line starting with the file and containing %q", name, msg, want)
	}
}

func TestBadSweepFiles(t *testing.T) {
	const w = `"workloads": [{"name": "a", "profile": "fb2009", "jobs": 3}]`
	for _, c := range []struct{ name, text, want string }{
		{"syntax", "{\n  \"name\": \"x\",\n  \"policies\": [\"fifo\",]\n}", "line 3, column 23: invalid character ']'"},
		{"unknown field", `{"name": "x", ` + w + `, "polices": ["fifo"]}`, `unknown field "polices"`},
		{"truncated", `{"name": "x", "workloads": [`, "line 1, column 29: the file ends inside a JSON value"},
		{"duplicate value", `{"name": "x", ` + w + `, "policies": ["fifo"], "parameters": {"nodes": [10, 20, 10]}}`,
			"parameters.nodes[2]: 10 is parameters.nodes[0] again"},
		{"type", `{"name": "x", "workloads": [{"name": "a", "profile": "fb2009", "jobs": "three"}], "policies": ["fifo"]}`,
			"field workloads.jobs: want int, got string"},
		{"no name", `{` + w + `, "policies": ["fifo"]}`, "name: missing"},
		{"no workloads", `{"name": "x", "policies": ["fifo"]}`, "workloads: none given"},
		{"bad workload name", `{"name": "x", "workloads": [{"name": "a/b", "profile": "fb2009"}], "policies": ["fifo"]}`, `workloads[0].name: "a/b"`},
		{"duplicate workload", `{"name": "x", "workloads": [{"name": "a", "profile": "fb2009"}, {"name": "a", "profile": "fb2010"}], "policies": ["fifo"]}`,
			`workloads[1].name: "a" given twice`},
		{"profile and trace", `{"name": "x", "workloads": [{"name": "a", "profile": "fb2009", "trace": "t.arrow"}], "policies": ["fifo"]}`,
			"workloads[0]: give a profile"},
		{"unknown profile", `{"name": "x", "workloads": [{"name": "a", "profile": "fb2011"}], "policies": ["fifo"]}`, "workloads[0].profile: "},
		{"unknown policy", `{"name": "x", ` + w + `, "policies": ["fifo", "fiffo"]}`, `policies[1]: unknown scheduler "fiffo"`},
		{"unknown parameter", `{"name": "x", ` + w + `, "policies": ["fifo"], "parameters": {"node": [1]}}`, "parameters.node[0]: unknown parameter"},
		{"bad number", `{"name": "x", ` + w + `, "policies": ["fifo"], "parameters": {"nodes": [10, "ten"]}}`, `parameters.nodes[1]: "ten" is not an integer`},
		{"object value", `{"name": "x", ` + w + `, "policies": ["fifo"], "parameters": {"nodes": [{"n": 1}]}}`,
			`parameters.nodes[0]: want a number, a string or true/false, got {"n": 1}`},
		{"empty values", `{"name": "x", ` + w + `, "policies": ["fifo"], "parameters": {"nodes": []}}`, "parameters.nodes: no values"},
		{"option of a policy not listed", `{"name": "x", ` + w + `, "policies": ["fifo"], "parameters": {"fair.preemption": [true]}}`,
			"parameters.fair.preemption[0]: policy fair is not in policies"},
		{"unknown option", `{"name": "x", ` + w + `, "policies": ["fair"], "fixed": {"fair.alpha": 1}}`, `fixed.fair.alpha: fair has no option "alpha"`},
		{"bad option value", `{"name": "x", ` + w + `, "policies": ["fair"], "fixed": {"fair.locality-delay": "soon"}}`, `fair.locality-delay: "soon" is not a number`},
		{"bad cluster value", `{"name": "x", ` + w + `, "policies": ["fifo"], "fixed": {"nodes": -3}}`, "fixed.nodes: -3; want an integer from 1 to 1000000 nodes"},
		{"duplicate key", "{\"name\": \"x\", " + w + ",\n \"policies\": [\"fifo\"], \"name\": \"y\"}", `line 2, column 24: key "name" given twice in one object`},
		{"duplicate nested key", `{"name": "x", "workloads": [{"name": "a", "profile": "fb2009", "jobs": 3, "jobs": 4}], "policies": ["fifo"]}`, `key "jobs" given twice`},
		{"huge jobs", `{"name": "x", "workloads": [{"name": "a", "profile": "fb2009", "jobs": 2147483648}], "policies": ["fifo"]}`, "workloads[0].jobs: 2147483648; want 0 (the profile's) to 10000000"},
		{"huge workload nodes", `{"name": "x", "workloads": [{"name": "a", "profile": "fb2009", "nodes": 2147483648}], "policies": ["fifo"]}`, "workloads[0].nodes: 2147483648; want 0 (100) to 1000000"},
		{"zero nodes", `{"name": "x", ` + w + `, "policies": ["fifo"], "parameters": {"nodes": [10, 0]}}`, "parameters.nodes[1]: 0; want an integer from 1 to 1000000 nodes (leave it out for the default)"},
		{"huge slots", `{"name": "x", ` + w + `, "policies": ["fifo"], "fixed": {"map-slots": 9223372036854775807}}`, "fixed.map-slots: 9223372036854775807; want an integer from 1 to 1024"},
		{"mtbf beyond the clock", `{"name": "x", ` + w + `, "policies": ["fifo"], "fixed": {"mtbf": 1e13}}`, "fixed.mtbf: 1e+13; want a number > 0 and <= 1e+12 s"},
		{"zero mttr", `{"name": "x", ` + w + `, "policies": ["fifo"], "fixed": {"mttr": 0}}`, "fixed.mttr: 0; want a number > 0"},
		{"bad seeds", `{"name": "x", ` + w + `, "policies": ["fifo"], "seeds": {"from": 5, "to": 1}}`, `seeds: want {"from": first, "to": last} with first <= last`},
		{"key with a newline", `{"name": "x", ` + w + `, "policies": ["fair"], "fixed": {"preempti\n": true}}`, `fixed."preempti\n": unknown parameter`},
		{"option key with a newline", `{"name": "x", ` + w + `, "policies": ["fair"], "parameters": {"fa\nir.preemption": [true]}}`, `policy "fa\nir" is not in policies`},
		{"object value on two lines", "{\"name\": \"x\", " + w + ", \"policies\": [\"fifo\"], \"fixed\": {\"nodes\": {\"n\":\n1}}}", `fixed.nodes: want a number, a string or true/false, got "{\"n\":\n1}"`},
		{"duplicate seed", `{"name": "x", ` + w + `, "policies": ["fifo"], "seeds": [1, 2, 1]}`, "seeds[2]: 1 given twice"},
	} {
		checkLoadError(t, c.name, c.text, c.want)
	}
}

func TestSeedsAndOptionsOnlyForTheirPolicy(t *testing.T) {
	p := load(t, `{"name": "x", "workloads": [{"name": "a", "profile": "fb2009", "jobs": 3}],
		"policies": ["fifo", "fair"], "parameters": {"fair.locality-delay": [0, 1, 2], "replication": [2, 3]},
		"seeds": [7, 9]}`)
	// fifo: 2 replications × 2 seeds; fair: 3 delays × 2 × 2.
	if len(p.Cells) != 4+12 {
		t.Fatalf("%d cells, want 16", len(p.Cells))
	}
	if c := p.Cells[3]; Label(c) != "a fifo replication=3 seed=9" || len(c.Options) != 0 {
		t.Errorf("cell 3: %s %v", Label(c), c.Options)
	}
	if c := p.Cells[4]; Label(c) != "a fair fair.locality-delay=0 replication=2 seed=7" || c.Options["locality-delay"] != "0" || c.Cluster.Replication != 2 {
		t.Errorf("cell 4: %s %v", Label(c), c.Options)
	}
}

func TestShards(t *testing.T) {
	env := func(kv ...string) func(string) string {
		return func(k string) string {
			for i := 0; i < len(kv); i += 2 {
				if kv[i] == k {
					return kv[i+1]
				}
			}
			return ""
		}
	}
	for _, c := range []struct {
		name   string
		flag   string
		shards int
		env    func(string) string
		want   Shard
		err    string
	}{
		{"none", "", 0, env(), Shard{}, ""},
		{"flag", "2/4", 0, env(), Shard{2, 4}, ""},
		{"flag wins over the environment", "1/4", 0, env(EnvJobCompletionIndex, "3"), Shard{1, 4}, ""},
		{"flag out of range", "4/4", 0, env(), Shard{}, `--shard "4/4": want i/n with 0 <= i < n`},
		{"flag malformed", "2", 0, env(), Shard{}, `--shard "2": want i/n`},
		{"flags disagree", "1/4", 3, env(), Shard{}, "--shard 1/4 and --shards 3 disagree"},
		{"kubernetes", "", 4, env(EnvJobCompletionIndex, "3"), Shard{3, 4}, ""},
		{"kubernetes without --shards", "", 0, env(EnvJobCompletionIndex, "3"), Shard{}, "JOB_COMPLETION_INDEX is set: give --shards N"},
		{"kubernetes out of range", "", 4, env(EnvJobCompletionIndex, "4"), Shard{}, "JOB_COMPLETION_INDEX gives shard 4; want 0 to 3"},
		{"kubernetes garbage", "", 4, env(EnvJobCompletionIndex, "x"), Shard{}, `JOB_COMPLETION_INDEX="x": want a non-negative integer`},
		{"slurm", "", 4, env(EnvSlurmTaskID, "2"), Shard{2, 4}, ""},
		{"slurm from 1", "", 0, env(EnvSlurmTaskID, "4", EnvSlurmTaskMin, "1", EnvSlurmTaskCount, "4"), Shard{3, 4}, ""},
		{"slurm count", "", 0, env(EnvSlurmTaskID, "0", EnvSlurmTaskCount, "8"), Shard{0, 8}, ""},
		{"slurm without count", "", 0, env(EnvSlurmTaskID, "0"), Shard{}, `SLURM_ARRAY_TASK_COUNT="": want the array's task count`},
		{"--shards without index", "", 4, env(), Shard{}, "--shards 4: no shard index"},
		{"slurm task resubmitted alone", "", 0, env(EnvSlurmTaskID, "3", EnvSlurmTaskMin, "3", EnvSlurmTaskCount, "1"), Shard{},
			"SLURM_ARRAY_TASK_ID=3 in an array of one task (a task of a larger array resubmitted alone?): give --shard 3/N"},
		{"slurm array of one", "", 0, env(EnvSlurmTaskID, "0", EnvSlurmTaskMin, "0", EnvSlurmTaskCount, "1"), Shard{0, 1}, ""},
		{"slurm part of an array", "", 4, env(EnvSlurmTaskID, "3", EnvSlurmTaskMin, "2", EnvSlurmTaskCount, "2"), Shard{},
			"SLURM_ARRAY_TASK_COUNT=2 but --shards 4: in part of an array the shard is ambiguous; give --shard 3/4"},
		{"slurm whole array with --shards", "", 4, env(EnvSlurmTaskID, "4", EnvSlurmTaskMin, "1", EnvSlurmTaskCount, "4"), Shard{3, 4}, ""},
	} {
		got, err := ResolveShard(c.flag, c.shards, c.env)
		switch {
		case c.err == "" && err != nil:
			t.Errorf("%s: %v", c.name, err)
		case c.err != "" && (err == nil || !strings.Contains(err.Error(), c.err)):
			t.Errorf("%s: error %v, want %q", c.name, err, c.err)
		case got != c.want:
			t.Errorf("%s: %v, want %v", c.name, got, c.want)
		}
	}
	s := Shard{1, 3}
	var mine []int
	for i := 0; i < 10; i++ {
		if s.Owns(i) {
			mine = append(mine, i)
		}
	}
	if len(mine) != 3 || mine[0] != 1 || mine[1] != 4 || mine[2] != 7 || !(Shard{}).Owns(5) {
		t.Errorf("shard 1/3 owns %v", mine)
	}
}

// A sweep of too many cells is refused before any is built: three
// parameters of 599 values (215 million combinations) used to hang.
func TestTooManyCellsRefusedAtOnce(t *testing.T) {
	vals := make([]string, 599)
	for i := range vals {
		vals[i] = strconv.Itoa(i + 1)
	}
	list := "[" + strings.Join(vals, ", ") + "]"
	spec := `{"name": "x", "workloads": [{"name": "w", "profile": "fb2009"}], "policies": ["fair"],
		"parameters": {"nodes": ` + list + `, "map-slots": ` + list + `, "reduce-slots": ` + list + `}}`
	path := filepath.Join(t.TempDir(), "big.json")
	if err := os.WriteFile(path, []byte(spec), 0o644); err != nil {
		t.Fatal(err)
	}
	done := make(chan error, 1)
	go func() { _, err := Load(path); done <- err }()
	select {
	case err := <-done:
		if err == nil || !strings.Contains(err.Error(), "214921799 cells; want at most 1000000") {
			t.Fatalf("error %v", err)
		}
	case <-time.After(10 * time.Second):
		t.Fatal("Load of 215 million cells still running after 10 s")
	}
}

// An unsharded sweep holds its directory alone; the shards of an array
// share it.
func TestSweepDirectoryLock(t *testing.T) {
	dir := t.TempDir()
	release, err := lockShard(dir, Shard{})
	if err != nil {
		t.Fatal(err)
	}
	if _, err := lockShard(dir, Shard{}); err == nil || !strings.Contains(err.Error(), "another bench sweep is running") {
		t.Errorf("a second unsharded run: %v", err)
	}
	if _, err := lockShard(dir, Shard{Index: 1, Count: 3}); err == nil {
		t.Error("a shard beside an unsharded run was let in")
	}
	release()
	r1, err1 := lockShard(dir, Shard{Index: 0, Count: 3})
	r2, err2 := lockShard(dir, Shard{Index: 1, Count: 3})
	if err1 != nil || err2 != nil {
		t.Fatalf("two shards of one array: %v, %v", err1, err2)
	}
	if _, err := lockShard(dir, Shard{}); err == nil {
		t.Error("an unsharded run beside the shards was let in")
	}
	r1()
	r2()
}

// TestClusterPathRelativeToSweepFile: a cluster file named in a sweep
// file is found beside the sweep file, as its traces are, whatever the
// working directory; a file of the same name in the working directory is
// not the one replayed.
func TestClusterPathRelativeToSweepFile(t *testing.T) {
	dir := filepath.Join(t.TempDir(), "sub")
	if err := os.MkdirAll(dir, 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(dir, "c.txt"), []byte("nodes count=7\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	spec := `{"name": "x", "workloads": [{"name": "a", "profile": "fb2009", "jobs": 3}], "policies": ["fifo"], "fixed": {"cluster": "c.txt"}}`
	path := filepath.Join(dir, "s.json")
	if err := os.WriteFile(path, []byte(spec), 0o644); err != nil {
		t.Fatal(err)
	}
	p, err := Load(path)
	if err != nil {
		t.Fatal(err)
	}
	if got := len(p.Cells[0].Cluster.Cluster); got != 7 {
		t.Errorf("%d nodes; want the 7 of %s", got, filepath.Join(dir, "c.txt"))
	}
}

// TestPolicyFilesRelativeToSweepFile: a policy option naming a file (a
// pools or queues file) in a sweep file is found beside the sweep file,
// whatever the working directory; a file of the same name in the working
// directory is not the one taken; an absolute path stays as it is.
func TestPolicyFilesRelativeToSweepFile(t *testing.T) {
	files := map[string]string{ // option: a valid file for it
		"fair.pools":           "a fair 2 0 0\n",
		"capacity.queues":      "root.a.capacity = 100\n",
		"yarn-capacity.queues": "root.a.capacity = 100\n",
		"yarn-fair.queues":     "a weight=2\n",
	}
	for _, opt := range sortedKeys(files) {
		text := files[opt]
		pol, name, _ := strings.Cut(opt, ".")
		root := t.TempDir()
		dir := filepath.Join(root, "sub")
		cwd := filepath.Join(root, "cwd")
		for _, d := range []string{dir, cwd} {
			if err := os.MkdirAll(d, 0o755); err != nil {
				t.Fatal(err)
			}
		}
		t.Chdir(cwd)
		spec := `{"name": "x", "workloads": [{"name": "a", "profile": "fb2009", "jobs": 3}], "policies": ["` + pol + `"], "fixed": {"` + opt + `": "f.txt"}}`
		path := writeFile(t, dir, "s.json", spec)

		// Only in the working directory: refused, naming the sweep's.
		writeFile(t, cwd, "f.txt", text)
		if _, err := Load(path); err == nil || !strings.Contains(err.Error(), filepath.Join(dir, "f.txt")) {
			t.Errorf("%s: f.txt only in the working directory: error %v; want one naming %s", opt, err, filepath.Join(dir, "f.txt"))
		}

		// Beside the sweep file: that one, found from another directory.
		writeFile(t, dir, "f.txt", text)
		p, err := Load(path)
		if err != nil {
			t.Fatalf("%s: %v", opt, err)
		}
		if got, want := p.Cells[0].Options[name], filepath.Join(dir, "f.txt"); got != want {
			t.Errorf("%s: option %q; want %q", opt, got, want)
		}

		// Absolute: unchanged.
		abs := filepath.Join(cwd, "f.txt")
		writeFile(t, dir, "s.json", strings.Replace(spec, `"f.txt"`, strconv.Quote(abs), 1))
		if p, err = Load(path); err != nil {
			t.Fatalf("%s: %v", opt, err)
		}
		if got := p.Cells[0].Options[name]; got != abs {
			t.Errorf("%s: absolute path became %q; want %q", opt, got, abs)
		}
	}
}

// TestFileOptionsListed: every policy option whose usage starts by naming
// a file is in fileOptions, so that a new one is not resolved from the
// working directory in sweep files; and every entry is a real option.
func TestFileOptionsListed(t *testing.T) {
	names := map[string]bool{}
	for _, p := range schedulers.Policies() {
		for _, o := range p.Options {
			k := p.Name + "." + o.Name
			names[k] = true
			head, _, _ := strings.Cut(o.Usage, ":")
			head, _, _ = strings.Cut(head, "(")
			if strings.Contains(head, "file") && !fileOptions[k] {
				t.Errorf("%s: usage %q names a file; add it to fileOptions", k, o.Usage)
			}
		}
	}
	for k := range fileOptions {
		if !names[k] {
			t.Errorf("fileOptions: %s is no policy's option", k)
		}
	}
}
