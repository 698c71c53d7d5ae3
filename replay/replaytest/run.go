package replaytest

import (
	"os"
	"path/filepath"
	"testing"

	"sojourn/replay"
	"sojourn/swim"
	"sojourn/traces"
)

// Builder builds a policy from its option values; a policy package's
// Policy.Build is one.
type Builder func(opts map[string]string) (replay.Scheduler, error)

// Build builds a policy and fails the test on error.
func Build(t testing.TB, b Builder, opts map[string]string) replay.Scheduler {
	t.Helper()
	s, err := b(opts)
	if err != nil {
		t.Fatal(err)
	}
	return s
}

// Run replays tr under s with every invariant check on and task segments
// recorded, whatever cfg says, and fails the test on error. It also checks
// what every result must satisfy: each job finishes, not before it was
// submitted or launched, and the segments add up to the busy slot time.
func Run(t testing.TB, tr *traces.Trace, s replay.Scheduler, cfg replay.Config) *replay.Result {
	t.Helper()
	cfg.NoInvariantChecks = false
	cfg.RecordTasks = true
	r, err := replay.Run(tr, s, cfg)
	if err != nil {
		t.Fatal(err)
	}
	checkResult(t, r)
	return r
}

func checkResult(t testing.TB, r *replay.Result) {
	t.Helper()
	for i := range r.Jobs {
		j := &r.Jobs[i]
		if j.Finish < j.Submit || j.FirstLaunch < j.Submit || j.Finish < j.FirstLaunch {
			t.Fatalf("job %d: submit %v, first launch %v, finish %v", i, j.Submit, j.FirstLaunch, j.Finish)
		}
	}
	var busy replay.Time
	s := &r.Segments
	for i := range s.Len() {
		if s.End[i] < s.Start[i] {
			t.Fatalf("segment %d (job %d %s %d) ends at %v before it starts at %v",
				i, s.Job[i], s.Kind[i], s.Task[i], s.End[i], s.Start[i])
		}
		busy += s.End[i] - s.Start[i]
	}
	if busy != r.BusySlotTime {
		t.Fatalf("segments add up to %v of slot time, the result says %v", busy, r.BusySlotTime)
	}
}

// Profile generates one of the HFSP paper's workloads ("fb2009",
// "fb2010") for 100 nodes at seed 1.
func Profile(t testing.TB, name string) *traces.Trace {
	t.Helper()
	tr, err := swim.Generate(swim.Config{Profile: name, Seed: 1})
	if err != nil {
		t.Fatal(err)
	}
	return tr
}

// WriteFile writes content to a file called name in a fresh temporary
// directory and returns its path.
func WriteFile(t testing.TB, name, content string) string {
	t.Helper()
	path := filepath.Join(t.TempDir(), name)
	if err := os.WriteFile(path, []byte(content), 0o644); err != nil {
		t.Fatal(err)
	}
	return path
}
