package oracle

import (
	"testing"

	"sojourn/replay/replaytest"
)

// TestScripts runs the scripted scenarios of testdata/*.txt (see
// replaytest.RunScripts) under srpt, ps and las; go test -rewrite rewrites
// their expected outputs.
func TestScripts(t *testing.T) {
	replaytest.RunScripts(t, "testdata/*.txt", map[string]replaytest.Builder{
		SRPT.Name: SRPT.Build, PS.Name: PS.Build, LAS.Name: LAS.Build})
}
