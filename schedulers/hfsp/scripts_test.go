package hfsp

import (
	"testing"

	"sojourn/replay/replaytest"
)

// TestScripts runs the scripted scenarios of testdata/*.txt (see
// replaytest.RunScripts) under hfsp and fsp; go test -rewrite rewrites
// their expected outputs.
func TestScripts(t *testing.T) {
	replaytest.RunScripts(t, "testdata/*.txt", map[string]replaytest.Builder{
		Policy.Name: Policy.Build, FSPPolicy.Name: FSPPolicy.Build})
}
