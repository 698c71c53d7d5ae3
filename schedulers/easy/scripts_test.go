package easy

import (
	"testing"

	"sojourn/replay/replaytest"
)

// TestScripts runs the scripted scenarios of testdata/*.txt (see
// replaytest.RunScripts); go test -rewrite rewrites their expected outputs.
func TestScripts(t *testing.T) {
	replaytest.RunScripts(t, "testdata/*.txt", map[string]replaytest.Builder{Name: Policy.Build})
}
