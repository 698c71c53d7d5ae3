package replay

import (
	"errors"
	"testing"
)

// reducesFrom is the engine's FIFO holding every reduce back until time
// from, a Quieter that says so: reduce slots are of no use before from.
type reducesFrom struct {
	FIFO
	from Time
}

func (p *reducesFrom) OnHeartbeat(hb *Heartbeat) error {
	if hb.Now() >= p.from {
		return p.FIFO.OnHeartbeat(hb)
	}
	if err := p.maps(hb); err != nil {
		return err
	}
	return resumeHere(hb)
}

func (p *reducesFrom) WantsSlots(k TaskKind, v *View) bool {
	return k == Map || v.Now() >= p.from
}

func (p *reducesFrom) QuietUntil(*View) Time { return p.from }

// loudReduces is reducesFrom without the Quieter.
type loudReduces struct{ p *reducesFrom }

func (l loudReduces) Name() string                    { return l.p.Name() }
func (l loudReduces) OnEvent(ev Event, v *View)       { l.p.OnEvent(ev, v) }
func (l loudReduces) OnHeartbeat(hb *Heartbeat) error { return l.p.OnHeartbeat(hb) }

// TestDozingNodes: one job of one 10 s map and two reduces on 2 nodes
// heartbeating every second (node 0 at 0, 1, 2 … s, node 1 at 0.5, 1.5,
// … s), reduces held back until 20.25 s. Both free reduce slots wait for
// a reduce from the map's end on, so without a Quieter both nodes report
// every second until 20.5 s; with one they doze until then. Either way the
// reduces launch at the first grid times from 20.25 s on: 20.5 s on node 1
// (its 2 reduce slots take both), exactly as computed, and the results are
// the same.
func TestDozingNodes(t *testing.T) {
	tr := mkTrace(t, jobSpec(0, []float64{10}, []float64{5, 5}, 0, 0))
	cfg := Config{Nodes: 2, Heartbeat: 1, SlowStart: 1}
	from := Seconds(20.25)
	quiet := mustRun(t, tr, &reducesFrom{from: from}, cfg)
	loud := mustRun(t, tr, loudReduces{&reducesFrom{from: from}}, cfg)
	for _, r := range []*Result{quiet, loud} {
		s := &r.Segments
		for i := range s.Job {
			if s.Kind[i] == Reduce && (s.Start[i] != Seconds(20.5) || s.Node[i] != 1) {
				t.Errorf("reduce %d started at %v on node %d, want 20.5 s on node 1", s.Task[i], s.Start[i], s.Node[i])
			}
		}
	}
	if quiet.Jobs[0].Finish != loud.Jobs[0].Finish || quiet.BusySlotTime != loud.BusySlotTime {
		t.Errorf("dozing changed the result: finish %v against %v", quiet.Jobs[0].Finish, loud.Jobs[0].Finish)
	}
	// From the map's end (10 s) to 20.5 s the loud run reports 22 times
	// (each node every second), the dozing one once.
	if quiet.Stats.Heartbeats+20 > loud.Stats.Heartbeats {
		t.Errorf("%d heartbeats dozing, %d without: the nodes did not doze", quiet.Stats.Heartbeats, loud.Stats.Heartbeats)
	}
	t.Logf("%d heartbeats dozing, %d without", quiet.Stats.Heartbeats, loud.Stats.Heartbeats)
}

// quietIdle never launches anything and says no slot is ever of use.
type quietIdle struct{ idle }

func (quietIdle) WantsSlots(TaskKind, *View) bool { return false }
func (quietIdle) QuietUntil(*View) Time           { return Never }

// TestDozingStall: a policy that will never launch anything again, however
// quiet it says it is, is caught as a stall with the same error as one
// that says nothing: when nothing but the dozing nodes' reports is left,
// they report again.
func TestDozingStall(t *testing.T) {
	tr := mixedTrace(t, 4)
	_, want := Run(tr, idle{}, Config{Nodes: 10})
	_, got := Run(tr, quietIdle{}, Config{Nodes: 10})
	if !errors.Is(got, ErrNoProgress) || got.Error() != want.Error() {
		t.Fatalf("error %v, want %v", got, want)
	}
}
