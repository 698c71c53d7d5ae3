package schedulers

import (
	"testing"

	"sojourn/replay"
	"sojourn/replay/replaytest"
)

// build builds the registered policy called name with the given options,
// failing the test on error.
func build(t testing.TB, name string, opts map[string]string) replay.Scheduler {
	t.Helper()
	return replaytest.Build(t, func(o map[string]string) (replay.Scheduler, error) { return New(name, o) }, opts)
}
