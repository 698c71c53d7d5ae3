package run

import (
	osexec "os/exec"
	"path/filepath"
	"reflect"
	"strings"
	"testing"
)

// TestReplayExec: a cell under the exec policy runs its child, ends it
// with the run, and gives the results of the built-in policy the child
// mirrors, under the name the child declares (sjf, a built-in's, so
// exec-sjf) or the name option; a child that fails ends the cell with its
// error.
func TestReplayExec(t *testing.T) {
	if _, err := osexec.LookPath("python3"); err != nil {
		t.Skip("python3 is not installed: the exec policy's Python examples are not run")
	}
	tr := testTrace(t)
	c := testCell(tr)
	c.Policy, c.Options = "exec", map[string]string{"command": "python3 ../clients/python/examples/sjf.py"}
	got, err := Replay(c, filepath.Join(t.TempDir(), "exec"), Options{})
	if err != nil {
		t.Fatal(err)
	}
	for _, n := range []string{got.Result.Scheduler, got.Metadata["scheduler"]} {
		if n != "exec-sjf" {
			t.Errorf("the results are named %q, want exec-sjf", n)
		}
	}
	c.Options["name"] = "sjf-py"
	var named string
	withName, err := Replay(c, "", Options{Named: func(p string) (string, error) { named = p; return "", nil }})
	if err != nil {
		t.Fatal(err)
	}
	if named != "sjf-py" || withName.Metadata["scheduler"] != "sjf-py" || withName.Metadata["policy.name"] != "sjf-py" {
		t.Errorf("named sjf-py: Named heard %q, metadata scheduler %q, policy.name %q", named, withName.Metadata["scheduler"], withName.Metadata["policy.name"])
	}
	c.Policy, c.Options = "sjf", nil
	want, err := Replay(c, "", Options{})
	if err != nil {
		t.Fatal(err)
	}
	if !reflect.DeepEqual(got.Result.Jobs, want.Result.Jobs) {
		t.Errorf("exec with sjf.py: mean sojourn %.1f s, sjf %.1f s", got.Result.MeanSojourn(), want.Result.MeanSojourn())
	}
	c.Policy, c.Options = "exec", map[string]string{"command": `python3 -c "import sys; sys.exit(3)"`}
	if _, err := Replay(c, "", Options{}); err == nil || !strings.Contains(err.Error(), "exit status 3") {
		t.Errorf("a child that exits at once: error %v", err)
	}
}
