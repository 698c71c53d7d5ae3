package schedulers

import (
	osexec "os/exec"
	"reflect"
	"testing"

	"sojourn/replay"
	"sojourn/replay/replaytest"
	"sojourn/schedulers/exec"
	"sojourn/traces"
)

// TestPythonExamples replays the paper workloads under the Python client's
// example policies (clients/python/examples) and requires results equal,
// job by job and task segment by task segment, to the built-in policies
// they mirror: fifo.py to fifo-minimal (with either way of picking tasks),
// as fifo_env.py, the same policy on the reset/step interface, and sjf.py
// to sjf.
func TestPythonExamples(t *testing.T) {
	if _, err := osexec.LookPath("python3"); err != nil {
		t.Skip("python3 is not installed: the Python client's examples are not checked")
	}
	cases := []struct {
		profile, example, args, builtin string
	}{
		{"fb2009", "fifo.py", "", "fifo-minimal"},
		{"fb2009", "fifo.py", "picks=query", "fifo-minimal"},
		{"fb2009", "fifo_env.py", "", "fifo-minimal"},
		{"fb2009", "sjf.py", "", "sjf"},
		{"fb2009", "sjf.py", "size=tasks", "sjf"},
		{"fb2010", "fifo.py", "", "fifo-minimal"},
		{"fb2010", "sjf.py", "", "sjf"},
	}
	profiles := map[string]*traces.Trace{}
	for _, c := range cases {
		t.Run(c.profile+"/"+c.example+"/"+c.args, func(t *testing.T) {
			if c.profile == "fb2010" && testing.Short() {
				t.Skip("fb2010 under Python takes seconds")
			}
			tr := profiles[c.profile]
			if tr == nil {
				tr = replaytest.Profile(t, c.profile)
				profiles[c.profile] = tr
			}
			opts := map[string]string{"command": "python3 ../clients/python/examples/" + c.example, "args": c.args}
			x := build(t, exec.Name, opts)
			got := replaytest.Run(t, tr, x, replay.Config{Seed: 1})
			if err := x.(*exec.Exec).Close(); err != nil {
				t.Fatal(err)
			}
			var bopts map[string]string
			if c.args == "size=tasks" {
				bopts = map[string]string{"size": "tasks"}
			}
			want := replaytest.Run(t, tr, build(t, c.builtin, bopts), replay.Config{Seed: 1})
			got.Scheduler = want.Scheduler
			if !reflect.DeepEqual(got, want) {
				t.Errorf("results differ: mean sojourn %.3f s under %s, %.3f s under %s",
					got.MeanSojourn(), c.example, want.MeanSojourn(), c.builtin)
			}
			t.Logf("%d jobs, %d task segments, mean sojourn %.1f s: equal", len(got.Jobs), got.Segments.Len(), got.MeanSojourn())
		})
	}
}
