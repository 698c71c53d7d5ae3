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
		if js, ok := ex["job"]; ok {
			j := &r.Jobs[int(num(t, where, js))]
			for k, v := range ex {
				var got float64
				switch k {
				case "@", "job":
					continue
				case "finish":
					got = j.Finish.Sec()
				case "sojourn":
					got = j.Sojourn().Sec()
				case "maps-done":
					got = j.MapsDone.Sec()
				case "eligible":
					got = j.ReducesEligible.Sec()
				case "first-launch":
					got = j.FirstLaunch.Sec()
				case "kills":
					got = float64(j.Kills)
				case "suspensions":
					got = float64(j.Suspensions)
				default:
					t.Fatalf("%s: unknown job expectation %q", where, k)
				}
				if want := num(t, where, v); math.Abs(got-want) > 1e-6 {
					t.Errorf("%s: job %s %s = %v, want %v", where, js, k, got, want)
				}
			}
			continue
		}
		for k, v := range ex {
			var got float64
			switch k {
			case "@":
				continue
			case "busy":
				got = r.BusySlotTime.Sec()
			case "lost":
				got = r.LostWork.Sec()
			case "swap":
				got = r.SwapTime.Sec()
			case "node-local":
				for _, j := range r.Jobs {
					got += float64(j.NodeLocal)
				}
			default:
				t.Fatalf("%s: unknown expectation %q", where, k)
			}
			if want := num(t, where, v); math.Abs(got-want) > 1e-6 {
				t.Errorf("%s: %s = %v, want %v", where, k, got, want)
			}
		}
	}
}
