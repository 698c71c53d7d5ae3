package schedulers

import (
	"testing"

	"sojourn/replay"
	"sojourn/replay/replaytest"
	"sojourn/schedulers/exec"
)

// external reports whether a policy runs outside the process (exec needs
// a command): the tests that run every policy at its defaults skip it, and
// TestPythonExamples runs it.
func external(name string) bool { return name == exec.Name }

// build builds the registered policy called name with the given options,
// failing the test on error.
func build(t testing.TB, name string, opts map[string]string) replay.Scheduler {
	t.Helper()
	return replaytest.Build(t, func(o map[string]string) (replay.Scheduler, error) { return New(name, o) }, opts)
}
