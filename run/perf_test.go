package run

import (
	"bytes"
	"encoding/json"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strconv"
	"testing"

	"sojourn/replay"
	"sojourn/schedulers"
	"sojourn/swim"
	"sojourn/traces"
)

// The speed check: the engine and two policies replay a fixed workload
// (fb2010, seed 1, on the paper's 100 nodes), stated as ratios to the
// floor (replay.Floor, the irreducible work of the same tasks), which
// hold across machines where absolute figures do not. BenchmarkPerf
// times them; TestPerfRegression (make perf-check) compares their
// instruction counts with the committed baseline.

// perfBaseline is the committed baseline of the ratios (make perf-baseline).
const perfBaseline = "../results/baseline/perf.json"

// perfTolerance: a ratio more than this much above its baseline fails.
// Counts repeat exactly, so the margin is for deliberate small costs, not
// noise.
const perfTolerance = 1.10

type perfVariant struct {
	name string
	run  func(tr *traces.Trace) (int64, error) // task events
}

var perfVariants = []perfVariant{
	{"floor", func(tr *traces.Trace) (int64, error) {
		r, err := replay.Floor(tr, perfNodes, replay.DefaultMapSlots, replay.DefaultReduceSlots)
		return r.TaskEvents, err
	}},
	{"fifo-minimal", func(tr *traces.Trace) (int64, error) { return perfReplay(tr, &replay.FIFO{}) }},
	{"fifo", func(tr *traces.Trace) (int64, error) { return perfPolicy(tr, "fifo") }},
	{"hfsp", func(tr *traces.Trace) (int64, error) { return perfPolicy(tr, "hfsp") }},
}

func perfPolicy(tr *traces.Trace, name string) (int64, error) {
	s, err := schedulers.New(name, nil)
	if err != nil {
		return 0, err
	}
	return perfReplay(tr, s)
}

func perfReplay(tr *traces.Trace, s replay.Scheduler) (int64, error) {
	r, err := replay.Run(tr, s, replay.Config{Nodes: perfNodes, Seed: 1})
	if err != nil {
		return 0, err
	}
	return r.Stats.TaskEvents, nil
}

// perfNodes is the cluster's size: 100, or SOJOURN_BENCH_NODES for
// BenchmarkPerf on another trace.
var perfNodes = 100

func perfTrace(tb testing.TB) *traces.Trace {
	tr, err := swim.Generate(swim.Config{Profile: "fb2010", Seed: 1})
	if err != nil {
		tb.Fatal(err)
	}
	return tr
}

// BenchmarkPerf replays the check's workload under each variant:
// go test -run NONE -bench Perf ./run. With SOJOURN_BENCH_TRACE=FILE and
// SOJOURN_BENCH_NODES=N it replays that trace on N nodes instead (make
// bench times the floor on the FB-2010 day so).
func BenchmarkPerf(b *testing.B) {
	tr := perfTrace(b)
	if path := os.Getenv("SOJOURN_BENCH_TRACE"); path != "" {
		var err error
		if tr, err = traces.Read(path); err != nil {
			b.Fatal(err)
		}
		if _, err := fmt.Sscan(os.Getenv("SOJOURN_BENCH_NODES"), &perfNodes); err != nil || perfNodes < 1 {
			b.Fatalf("SOJOURN_BENCH_NODES=%q: want the trace's number of nodes", os.Getenv("SOJOURN_BENCH_NODES"))
		}
		defer func() { perfNodes = 100 }()
	}
	for _, v := range perfVariants {
		b.Run(v.name, func(b *testing.B) {
			var events int64
			for range b.N {
				n, err := v.run(tr)
				if err != nil {
					b.Fatal(err)
				}
				events += n
			}
			b.ReportMetric(float64(events)/b.Elapsed().Seconds(), "task-events/s")
		})
	}
}

// The regression check counts instructions, not seconds. On a shared
// machine a replay's time moves by half or more from one minute to the
// next (other tenants' use of the caches), while the floor, with its
// small working set, moves little, so a time ratio gate fails at random.
// Under valgrind's callgrind the same binary, inputs and environment give
// the same count whatever else the machine does; a change of the count
// over the floor's is a change of the code's work. Time is still what
// users see: make bench measures it.

// perfChildEnv names the variant a child process replays under callgrind.
const perfChildEnv = "SOJOURN_PERF_CHILD"

// perfMeasured is the one call callgrind counts (--toggle-collect): the
// variant's replay of the already generated trace, nothing of the set-up.
//
//go:noinline
func perfMeasured(v perfVariant, tr *traces.Trace) error {
	_, err := v.run(tr)
	return err
}

// growStack grows the goroutine's stack by some 4 MiB before the count
// starts. Go moves a goroutine's stack when it outgrows it; callgrind
// takes the jump of the stack pointer for returns and stops counting, so
// the measured call must not grow its stack (with the collector off, it
// never shrinks).
//
//go:noinline
func growStack(depth int) byte {
	var pad [64 << 10]byte
	pad[depth] = byte(depth)
	if depth > 0 {
		return growStack(depth-1) + pad[depth]
	}
	return pad[0]
}

// TestPerfChild is the process TestPerfRegression runs under callgrind:
// it replays the variant SOJOURN_PERF_CHILD names once.
func TestPerfChild(t *testing.T) {
	name := os.Getenv(perfChildEnv)
	if name == "" {
		t.Skip("run by TestPerfRegression under callgrind")
	}
	tr := perfTrace(t)
	for _, v := range perfVariants {
		if v.name == name {
			growStack(64)
			if err := perfMeasured(v, tr); err != nil {
				t.Fatal(err)
			}
			return
		}
	}
	t.Fatalf("%s=%q: no such variant", perfChildEnv, name)
}

// perfInstructions counts the instructions of one replay of variant name:
// this test binary, run again under callgrind with the garbage collector
// off (its work would depend on when it runs), one thread and no
// asynchronous preemption, collecting only inside perfMeasured.
func perfInstructions(t *testing.T, name string) int64 {
	valgrind, err := exec.LookPath("valgrind")
	if err != nil {
		t.Fatalf("the speed check counts instructions with valgrind's callgrind, which is not installed (Debian: apt-get install valgrind)")
	}
	out := filepath.Join(t.TempDir(), "callgrind.out")
	cmd := exec.Command(valgrind, "--tool=callgrind", "--callgrind-out-file="+out,
		"--toggle-collect=*run.perfMeasured",
		os.Args[0], "-test.run=^TestPerfChild$", "-test.count=1", "-test.v")
	cmd.Env = append(os.Environ(), perfChildEnv+"="+name, "GOGC=off", "GOMAXPROCS=1", "GODEBUG=asyncpreemptoff=1")
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	cmd.Stdout = &stderr // a failing child's report
	if err := cmd.Run(); err != nil {
		t.Fatalf("%s under callgrind: %v\n%s", name, err, stderr.String())
	}
	m := regexp.MustCompile(`Collected : (\d+)`).FindSubmatch(stderr.Bytes())
	if m == nil {
		t.Fatalf("%s: callgrind reported no count:\n%s", name, stderr.String())
	}
	if string(m[1]) == "0" {
		t.Fatalf("%s: callgrind counted nothing in perfMeasured: the test binary has no symbol table (go test strips it; build with go test -c, as make perf-check does)", name)
	}
	n, err := strconv.ParseInt(string(m[1]), 10, 64)
	if err != nil || n <= 0 {
		t.Fatalf("%s: callgrind's count %q", name, m[1])
	}
	return n
}

// TestPerfRegression fails when a variant's instructions, as a ratio to
// the floor's, are more than perfTolerance times its committed baseline.
// It runs only when asked: SOJOURN_PERF_CHECK=1 (make perf-check), or
// =write to rewrite the baseline (make perf-baseline).
func TestPerfRegression(t *testing.T) {
	mode := os.Getenv("SOJOURN_PERF_CHECK")
	if mode == "" {
		t.Skip("counts replays' instructions under callgrind; run with SOJOURN_PERF_CHECK=1 (make perf-check)")
	}
	floor := perfInstructions(t, perfVariants[0].name)
	t.Logf("%-12s %d instructions", perfVariants[0].name, floor)
	got := map[string]float64{}
	for _, v := range perfVariants[1:] {
		n := perfInstructions(t, v.name)
		got[v.name] = float64(n) / float64(floor)
		t.Logf("%-12s %d instructions, %.3f× the floor's", v.name, n, got[v.name])
	}
	if mode == "write" {
		data, _ := json.MarshalIndent(got, "", "  ")
		if err := os.WriteFile(perfBaseline, append(data, '\n'), 0o644); err != nil {
			t.Fatal(err)
		}
		t.Logf("wrote %s", filepath.Clean(perfBaseline))
		return
	}
	data, err := os.ReadFile(perfBaseline)
	if err != nil {
		t.Fatal(err)
	}
	var base map[string]float64
	if err := json.Unmarshal(data, &base); err != nil {
		t.Fatalf("%s: %v", perfBaseline, err)
	}
	for _, v := range perfVariants[1:] {
		b, ok := base[v.name]
		if !ok || !(b > 0) {
			t.Errorf("%s: no baseline ratio for %s", perfBaseline, v.name)
			continue
		}
		verdict := "ok"
		if got[v.name] > perfTolerance*b {
			verdict = fmt.Sprintf("more than %.0f%% more work", 100*(perfTolerance-1))
			t.Errorf("%s: %.3f× the floor's instructions, baseline %.3f× (%+.1f%%)", v.name, got[v.name], b, 100*(got[v.name]/b-1))
		}
		t.Logf("%-12s %.3f× the floor (baseline %.3f×, %+.1f%%): %s", v.name, got[v.name], b, 100*(got[v.name]/b-1), verdict)
	}
}
