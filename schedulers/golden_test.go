package schedulers

import (
	"bufio"
	"crypto/sha256"
	"encoding/binary"
	"fmt"
	"maps"
	"math"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"sojourn/replay"
	"sojourn/swim"
	"sojourn/traces"
)

// goldenFile holds a digest of every policy's results on the paper's
// workloads, recorded with the Hadoop 1.x slot engine before resources
// became vectors. The slot model is the special case "resources map-slot
// and reduce-slot, a map asks (1, 0), a reduce (0, 1)" of the vector
// engine: TestSlotModelIsByteIdentical checks it replays exactly what
// the slot engine did, to the microsecond, for every policy.
//
// SOJOURN_GOLDEN=write rewrites the file (only when results are meant to
// change).
const goldenFile = "testdata/golden-slots.txt"

// goldenCase is one replay of the golden set.
type goldenCase struct {
	policy  string
	opts    map[string]string
	profile string
	cfg     replay.Config
}

func (c goldenCase) name() string {
	var o []string
	for _, k := range slices.Sorted(maps.Keys(c.opts)) {
		o = append(o, k+"="+c.opts[k])
	}
	v := "defaults"
	if len(o) > 0 {
		v = strings.Join(o, ",")
	}
	cl := "paper"
	switch {
	case c.cfg.MTBF > 0:
		cl = "failures"
	case c.cfg.SpeedSigma > 0:
		cl = "speeds"
	case c.cfg.OutOfBandHeartbeat:
		cl = "out-of-band"
	}
	return fmt.Sprintf("%s %s %s %s", c.policy, v, c.profile, cl)
}

func goldenCases() []goldenCase {
	paper := replay.Config{Seed: 1, RecordTasks: true}
	speeds := replay.Config{Seed: 2, SpeedSigma: 0.3, RecordTasks: true}
	failures := replay.Config{Seed: 3, MTBF: 20000, RecordTasks: true}
	oob := replay.Config{Seed: 1, OutOfBandHeartbeat: true, RecordTasks: true}
	var cs []goldenCase
	for _, p := range Policies() {
		if external(p.Name) || p.ContainersOnly {
			continue
		}
		for _, prof := range []string{"fb2009", "fb2010"} {
			cs = append(cs, goldenCase{policy: p.Name, profile: prof, cfg: paper})
		}
	}
	for _, v := range []struct {
		policy string
		opts   map[string]string
		cfg    replay.Config
	}{
		{"hfsp", map[string]string{"preemption": "kill"}, paper},
		{"hfsp", map[string]string{"late": "ps", "reduce-aging": "at-arrival"}, paper},
		{"hfsp", map[string]string{"alpha": "0.5", "delta": "20", "train-reduce-slots": "1"}, paper},
		{"hfsp", map[string]string{"preemption": "wait", "map-preemption": "eager"}, speeds},
		{"fair", nil, speeds},
		{"fifo", nil, failures},
		{"hfsp", nil, failures},
		{"disco", nil, failures},
		{"fair", nil, oob},
		{"easy", nil, oob},
		{"srpt", nil, oob},
	} {
		cs = append(cs, goldenCase{policy: v.policy, opts: v.opts, profile: "fb2009", cfg: v.cfg})
	}
	return cs
}

// digest hashes everything a run reports: every job's times and counts,
// every task segment, and the run's totals. The engine's own work (events
// and heartbeats processed) is left out: a node with nothing to do may be
// silent instead of reporting, which changes no result.
func digest(r *replay.Result) string {
	h := sha256.New()
	w := func(vs ...int64) {
		var b [8]byte
		for _, v := range vs {
			binary.LittleEndian.PutUint64(b[:], uint64(v))
			h.Write(b[:])
		}
	}
	for i := range r.Jobs {
		j := &r.Jobs[i]
		w(int64(j.Index), j.ID, int64(j.Submit), int64(j.FirstLaunch), int64(j.MapsDone),
			int64(j.ReducesEligible), int64(j.Finish), int64(j.Kills), int64(j.Suspensions), int64(j.Lost),
			int64(j.NodeLocal), int64(j.RackLocal), int64(j.OffRack))
	}
	s := &r.Segments
	for i := range s.Job {
		w(int64(s.Job[i]), int64(s.Kind[i]), int64(s.Task[i]), int64(s.Node[i]),
			int64(s.Start[i]), int64(s.End[i]), int64(s.Outcome[i]), int64(s.Attempt[i]), int64(s.Swap[i]), int64(s.Locality[i]))
	}
	w(r.Stats.TaskEnds, r.Stats.TaskEvents, int64(r.Stats.End),
		int64(r.BusySlotTime), int64(r.LostWork), int64(r.SwapTime), int64(math.Float64bits(r.MeanSojourn())))
	return fmt.Sprintf("%x", h.Sum(nil)[:16])
}

func TestSlotModelIsByteIdentical(t *testing.T) {
	if testing.Short() {
		t.Skip("replays every policy on fb2009 and fb2010 (about 20 s)")
	}
	gen := map[string]*traces.Trace{}
	got := map[string]string{}
	var order []string
	for _, c := range goldenCases() {
		tr := gen[c.profile]
		if tr == nil {
			var err error
			if tr, err = swim.Generate(swim.Config{Profile: c.profile, Seed: 1}); err != nil {
				t.Fatal(err)
			}
			gen[c.profile] = tr
		}
		r, err := replay.Run(tr, build(t, c.policy, c.opts), c.cfg)
		if err != nil {
			t.Fatalf("%s: %v", c.name(), err)
		}
		got[c.name()] = digest(r)
		order = append(order, c.name())
	}
	if os.Getenv("SOJOURN_GOLDEN") == "write" {
		var b strings.Builder
		b.WriteString("# policy options trace cluster digest (TestSlotModelIsByteIdentical)\n")
		for _, n := range order {
			fmt.Fprintf(&b, "%s %s\n", n, got[n])
		}
		if err := os.MkdirAll(filepath.Dir(goldenFile), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(goldenFile, []byte(b.String()), 0o644); err != nil {
			t.Fatal(err)
		}
		return
	}
	f, err := os.Open(goldenFile)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	want := map[string]string{}
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		line := sc.Text()
		if strings.HasPrefix(line, "#") || line == "" {
			continue
		}
		i := strings.LastIndexByte(line, ' ')
		want[line[:i]] = line[i+1:]
	}
	for _, n := range order {
		w, ok := want[n]
		switch {
		case !ok:
			t.Errorf("%s: no golden digest (SOJOURN_GOLDEN=write records one)", n)
		case got[n] != w:
			t.Errorf("%s: digest %s, the slot engine's was %s", n, got[n], w)
		}
	}
}
