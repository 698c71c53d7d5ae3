package replay

import (
	"bufio"
	"math"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
)

// TestMicroTraces replays the hand-computed scenarios of testdata/*.txt.
// Each file has config, job and policy lines and expect lines whose values
// were computed by hand (the arithmetic is in each file's comments).
func TestMicroTraces(t *testing.T) {
	files, err := filepath.Glob("testdata/*.txt")
	if err != nil || len(files) == 0 {
		t.Fatalf("no scenarios in testdata: %v", err)
	}
	for _, f := range files {
		t.Run(strings.TrimSuffix(filepath.Base(f), ".txt"), func(t *testing.T) { runScenario(t, f) })
	}
}

type scenario struct {
	cfg     Config
	policy  string
	expects []map[string]string
}

func parseKV(t *testing.T, where string, fields []string) map[string]string {
	kv := map[string]string{}
	for _, f := range fields {
		k, v, ok := strings.Cut(f, "=")
		if !ok {
			t.Fatalf("%s: %q is not key=value", where, f)
		}
		kv[k] = v
	}
	return kv
}

func num(t *testing.T, where, s string) float64 {
	x, err := strconv.ParseFloat(s, 64)
	if err != nil {
		t.Fatalf("%s: %v", where, err)
	}
	return x
}

func floats(t *testing.T, where, s string) []float64 {
	if s == "" {
		return []float64{}
	}
	var out []float64
	for _, p := range strings.Split(s, ",") {
		out = append(out, num(t, where, p))
	}
	return out
}

func runScenario(t *testing.T, path string) {
	f, err := os.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	var sc scenario
	tr := mkTrace(t)
	sc.cfg.Seed = 1
	lines := bufio.NewScanner(f)
	for ln := 1; lines.Scan(); ln++ {
		line := strings.TrimSpace(lines.Text())
		if line == "" || strings.HasPrefix(line, "#") {
			continue
		}
		where := path + ":" + strconv.Itoa(ln)
		fields := strings.Fields(line)
		if fields[0] == "policy" {
			sc.policy = fields[1]
			continue
		}
		kv := parseKV(t, where, fields[1:])
		switch fields[0] {
		case "config":
			for k, v := range kv {
				switch k {
				case "nodes":
					sc.cfg.Nodes = int(num(t, where, v))
				case "map-slots":
					sc.cfg.MapSlots = int(num(t, where, v))
				case "reduce-slots":
					sc.cfg.ReduceSlots = int(num(t, where, v))
				case "heartbeat":
					sc.cfg.Heartbeat = num(t, where, v)
				case "slowstart":
					sc.cfg.SlowStart = num(t, where, v)
					if sc.cfg.SlowStart == 0 {
						sc.cfg.SlowStart = -1
					}
				case "oob":
					sc.cfg.OutOfBandHeartbeat = v == "true"
				default:
					t.Fatalf("%s: unknown config key %q", where, k)
				}
			}
		case "job":
			mem, _ := strconv.ParseFloat(kv["mem"], 64)
			shuffle, _ := strconv.ParseFloat(kv["shuffle"], 64)
			tr.Jobs = append(tr.Jobs, jobSpec(num(t, where, kv["submit"]), floats(t, where, kv["maps"]),
				floats(t, where, kv["reduces"]), int64(shuffle), int64(mem)))
			tr.Jobs[len(tr.Jobs)-1].ID = int64(len(tr.Jobs) - 1)
		case "expect":
			kv["@"] = where
			sc.expects = append(sc.expects, kv)
		default:
			t.Fatalf("%s: unknown directive %q", where, fields[0])
		}
	}
	var s Scheduler
	switch sc.policy {
	case "fifo":
		s = &FIFO{}
	case "newest-reduce-suspend":
		s = &newestReduce{}
	case "newest-reduce-kill":
		s = &newestReduce{kill: true}
	default:
		t.Fatalf("%s: unknown policy %q", path, sc.policy)
	}
	r := mustRun(t, tr, s, sc.cfg)
	for _, ex := range sc.expects {
		where := ex["@"]
		js, isJob := ex["job"]
		for k, v := range ex {
			if k == "@" || k == "job" {
				continue
			}
			what, got := k, 0.0
			if isJob {
				get, ok := jobExpectations[k]
				if !ok {
					t.Fatalf("%s: unknown job expectation %q", where, k)
				}
				what, got = "job "+js+" "+k, get(&r.Jobs[int(num(t, where, js))])
			} else {
				get, ok := runExpectations[k]
				if !ok {
					t.Fatalf("%s: unknown expectation %q", where, k)
				}
				got = get(r)
			}
			if want := num(t, where, v); math.Abs(got-want) > 1e-6 {
				t.Errorf("%s: %s = %v, want %v", where, what, got, want)
			}
		}
	}
}

// jobExpectations and runExpectations read the figure an expect line
// names, of one job (expect job=N ...) or of the whole run.
var jobExpectations = map[string]func(j *JobResult) float64{
	"finish":       func(j *JobResult) float64 { return j.Finish.Sec() },
	"sojourn":      func(j *JobResult) float64 { return j.Sojourn().Sec() },
	"maps-done":    func(j *JobResult) float64 { return j.MapsDone.Sec() },
	"eligible":     func(j *JobResult) float64 { return j.ReducesEligible.Sec() },
	"first-launch": func(j *JobResult) float64 { return j.FirstLaunch.Sec() },
	"kills":        func(j *JobResult) float64 { return float64(j.Kills) },
	"suspensions":  func(j *JobResult) float64 { return float64(j.Suspensions) },
}

var runExpectations = map[string]func(r *Result) float64{
	"busy": func(r *Result) float64 { return r.BusySlotTime.Sec() },
	"lost": func(r *Result) float64 { return r.LostWork.Sec() },
	"swap": func(r *Result) float64 { return r.SwapTime.Sec() },
	"node-local": func(r *Result) float64 {
		var n float64
		for _, j := range r.Jobs {
			n += float64(j.NodeLocal)
		}
		return n
	},
}
