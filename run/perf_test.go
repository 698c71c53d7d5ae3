package run

import (
	"bytes"
	"encoding/json"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"runtime"
	"strconv"
	"testing"

	"sojourn/replay"
	"sojourn/schedulers"
	"sojourn/swim"
	"sojourn/traces"
)

// The speed check: the engine and some policies replay fixed workloads
// (fb2010, seed 1, on the paper's 100 nodes; an overloaded cluster), in
// slots and in containers, stated as ratios to the floor (replay.Floor,
// the irreducible work of the same tasks), which hold across machines
// where absolute figures do not. BenchmarkPerf
// times them; TestPerfRegression (make perf-check) compares their
// instruction counts with the committed baseline.

// perfBaseline is the committed baseline of the ratios (make perf-baseline).
const perfBaseline = "../results/baseline/perf.json"

// perfTolerance: a ratio more than this much above its baseline fails.
// Counts repeat exactly, so the margin is for deliberate small costs, not
// noise.
const perfTolerance = 1.10

// perfVariant is one replay of the check: its workload is "" (fb2010
// on 100 nodes) or overloaded, and run returns its task events.
type perfVariant struct {
	name     string
	workload string
	run      func(tr *traces.Trace, nodes int) (int64, error)
}

// The workloads: fb2010 (seed 1) on the paper's 100 nodes, and an
// overloaded cluster, its first 300 jobs on 3 nodes, where HFSP's backlog
// grows (make bench's 10,000 jobs on 100 nodes at the same load per node,
// at a scale callgrind counts in seconds rather than minutes). Each
// workload has its floor.
const overloaded = "overloaded"

var perfVariants = []perfVariant{
	{"floor", "", perfFloor},
	{"fifo-minimal", "", func(tr *traces.Trace, n int) (int64, error) { return perfReplay(tr, &replay.FIFO{}, perfConfig(n)) }},
	{"fifo", "", perfPolicy("fifo", nil, false)},
	{"hfsp", "", perfPolicy("hfsp", nil, false)},
	// The container model against slots, at the same heartbeat (1 s on
	// 100 nodes): the cost of containers.
	{"fair", "", perfPolicy("fair", nil, false)},
	{"yarn-fair-drf", "", perfPolicy("yarn-fair", map[string]string{"policy": "drf"}, true)},
	// The default (memory) calculator overcommits the NodeManagers'
	// vcores, so that tasks share CPUs: the shared-CPU bookkeeping.
	{"capacity", "", perfPolicy("capacity", nil, false)},
	{"yarn-capacity", "", perfPolicy("yarn-capacity", nil, true)},
	{"floor-overloaded", overloaded, perfFloor},
	{"fifo-overloaded", overloaded, perfPolicy("fifo", nil, false)},
	{"hfsp-overloaded", overloaded, perfPolicy("hfsp", nil, false)},
}

// perfRatios are the ratios of variants the check reports beside each
// one's to its floor: the figures docs/performance.md states.
var perfRatios = [][2]string{{"hfsp-overloaded", "fifo-overloaded"}, {"yarn-fair-drf", "fair"}, {"yarn-capacity", "capacity"}, {"hfsp", "fifo-minimal"}}

func perfFloor(tr *traces.Trace, nodes int) (int64, error) {
	r, err := replay.Floor(tr, nodes, replay.DefaultMapSlots, replay.DefaultReduceSlots)
	return r.TaskEvents, err
}

func perfConfig(nodes int) replay.Config { return replay.Config{Nodes: nodes, Seed: 1} }

// perfPolicy replays under a registered policy, in the container model
// (NodeManagers of 15 GiB and 8 vcores, as make bench has them) if
// containers.
func perfPolicy(name string, opts map[string]string, containers bool) func(*traces.Trace, int) (int64, error) {
	return func(tr *traces.Trace, nodes int) (int64, error) {
		s, err := schedulers.New(name, opts)
		if err != nil {
			return 0, err
		}
		cfg := perfConfig(nodes)
		if containers {
			cfg.Model, cfg.NodeMemoryMB, cfg.NodeVcores = replay.ContainerModel, 15360, 8
		}
		return perfReplay(tr, s, cfg)
	}
}

func perfReplay(tr *traces.Trace, s replay.Scheduler, cfg replay.Config) (int64, error) {
	r, err := replay.Run(tr, s, cfg)
	if err != nil {
		return 0, err
	}
	return r.Stats.TaskEvents, nil
}

// perfNodes is the fb2010 workload's cluster size: 100, or
// SOJOURN_BENCH_NODES for BenchmarkPerf on another trace.
var perfNodes = 100

// perfWorkload returns workload w's trace and cluster size.
func perfWorkload(tb testing.TB, w string) (*traces.Trace, int) {
	cfg, nodes := swim.Config{Profile: "fb2010", Seed: 1}, perfNodes
	if w == overloaded {
		cfg.Jobs, nodes = 300, 3
	}
	tr, err := swim.Generate(cfg)
	if err != nil {
		tb.Fatal(err)
	}
	return tr, nodes
}

// BenchmarkPerf replays the check's workload under each variant:
// go test -run NONE -bench Perf ./run. With SOJOURN_BENCH_TRACE=FILE and
// SOJOURN_BENCH_NODES=N it replays that trace on N nodes instead (make
// bench times the floor on the FB-2010 day so).
func BenchmarkPerf(b *testing.B) {
	given := os.Getenv("SOJOURN_BENCH_TRACE")
	trs := map[string]*traces.Trace{}
	if given != "" {
		tr, err := traces.Read(given)
		if err != nil {
			b.Fatal(err)
		}
		if _, err := fmt.Sscan(os.Getenv("SOJOURN_BENCH_NODES"), &perfNodes); err != nil || perfNodes < 1 {
			b.Fatalf("SOJOURN_BENCH_NODES=%q: want the trace's number of nodes", os.Getenv("SOJOURN_BENCH_NODES"))
		}
		defer func() { perfNodes = 100 }()
		trs[""] = tr
	}
	for _, v := range perfVariants {
		if given != "" && v.workload != "" {
			continue // the given trace stands for fb2010 only
		}
		b.Run(v.name, func(b *testing.B) {
			tr, nodes := trs[v.workload], perfNodes
			if tr == nil || v.workload == overloaded {
				tr, nodes = perfWorkload(b, v.workload)
				trs[v.workload] = tr
				b.ResetTimer()
			}
			var events int64
			for range b.N {
				n, err := v.run(tr, nodes)
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
func perfMeasured(v perfVariant, tr *traces.Trace, nodes int) error {
	_, err := v.run(tr, nodes)
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
	for _, v := range perfVariants {
		if v.name == name {
			tr, nodes := perfWorkload(t, v.workload)
			// One OS thread throughout: callgrind keeps a call stack per
			// thread, and a goroutine preempted in perfMeasured may resume
			// on another thread, outside the call as callgrind sees it,
			// where nothing more is counted (a loaded machine's floor
			// once counted 22,499 instructions of its 79.9 million).
			runtime.LockOSThread()
			growStack(64)
			if err := perfMeasured(v, tr, nodes); err != nil {
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
	floor := map[string]int64{}
	counts := map[string]int64{}
	got := map[string]float64{}
	for _, v := range perfVariants {
		n := perfInstructions(t, v.name)
		counts[v.name] = n
		if _, ok := floor[v.workload]; !ok { // a workload's floor comes first
			floor[v.workload] = n
			t.Logf("%-16s %d instructions", v.name, n)
			continue
		}
		got[v.name] = float64(n) / float64(floor[v.workload])
		t.Logf("%-16s %d instructions, %.3f× the floor's", v.name, n, got[v.name])
	}
	for _, r := range perfRatios {
		t.Logf("%s / %s: %.3f×", r[0], r[1], float64(counts[r[0]])/float64(counts[r[1]]))
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
	for _, v := range perfVariants {
		if _, measured := got[v.name]; !measured {
			continue // a floor
		}
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
		t.Logf("%-16s %.3f× the floor (baseline %.3f×, %+.1f%%): %s", v.name, got[v.name], b, 100*(got[v.name]/b-1), verdict)
	}
}
