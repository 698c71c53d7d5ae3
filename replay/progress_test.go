package replay

import (
	"errors"
	"strings"
	"testing"
	"time"
)

// idle is a policy that never launches anything.
type idle struct{}

func (idle) Name() string                 { return "idle" }
func (idle) OnEvent(Event, *View)         {}
func (idle) OnHeartbeat(*Heartbeat) error { return nil }

// TestNoProgress: a run whose policy never places a job stops with
// ErrNoProgress, naming the policy and the jobs, a simulated day after the
// last job's submission, instead of heartbeating to the horizon.
func TestNoProgress(t *testing.T) {
	tr := mixedTrace(t, 4)
	begin := time.Now()
	_, err := Run(tr, idle{}, Config{Nodes: 10})
	if !errors.Is(err, ErrNoProgress) {
		t.Fatalf("error %v, want ErrNoProgress", err)
	}
	msg := err.Error()
	if !strings.Contains(msg, "policy idle") || !strings.Contains(msg, "4 jobs can never run") || strings.Contains(msg, "\n") {
		t.Fatalf("error %q does not name the policy and the jobs on one line", msg)
	}
	if wall := time.Since(begin); wall > 10*time.Second {
		t.Fatalf("detected after %v", wall)
	}
	// With node failures, too: the failures and repairs keep coming.
	if _, err := Run(tr, idle{}, Config{Nodes: 10, MTBF: 5000}); !errors.Is(err, ErrNoProgress) {
		t.Fatalf("with failures: error %v, want ErrNoProgress", err)
	}
}
