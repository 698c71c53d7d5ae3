package sjf

import (
	"strings"
	"testing"

	"sojourn/replay"
	"sojourn/replay/replaytest"
	"sojourn/swim"
)

// TestSJFSizes: a job's size is its true total work as the engine models
// it: map durations, plus each reduce's shuffle transfer (bytes over the
// node's bandwidth split among its reduce slots: 2e8 B at 100 MB/s over 2
// slots is 4 s) and reduce duration; with size=tasks, its task count.
func TestSJFSizes(t *testing.T) {
	tr := replaytest.Trace(t,
		replaytest.Job(0).Maps(3, 10),
		replaytest.Job(1).Maps(2, 5).Reduces(2, 7).Shuffle(2e8))
	cfg := replay.Config{Nodes: 1, MapSlots: 2, ReduceSlots: 2, Heartbeat: 1}
	for _, c := range []struct {
		size string
		want []float64
	}{{"work", []float64{30, 10 + 2*(4+7)}}, {"tasks", []float64{3, 4}}} {
		s := replaytest.Build(t, Policy.Build, map[string]string{"size": c.size}).(*SJF)
		replaytest.Run(t, tr, s, cfg)
		for j, want := range c.want {
			if s.size[j] != want {
				t.Errorf("size=%s: job %d has size %v, want %v", c.size, j, s.size[j], want)
			}
		}
	}
}

// TestSJFNeverPreempts replays a busy trace on the upkeep clusters (one
// with node failures, whose lost tasks SJF must launch again) and checks
// that every job finishes and that the policy only ever launches.
func TestSJFNeverPreempts(t *testing.T) {
	tr, err := swim.Generate(swim.Config{Profile: "fb2010", Seed: 3, Jobs: 40, Nodes: 12, MeanGap: 20})
	if err != nil {
		t.Fatal(err)
	}
	for i, cfg := range replaytest.UpkeepClusters() {
		s, log := replaytest.Record(replaytest.Build(t, Policy.Build, nil))
		r := replaytest.Run(t, tr, s, cfg)
		if n := len(log.Actions) - log.Count(replay.TaskStarted); n != 0 {
			t.Errorf("cluster %d: %d actions other than launches", i, n)
		}
		lost := 0
		for _, j := range r.Jobs {
			lost += int(j.Lost)
		}
		t.Logf("cluster %d: mean sojourn %.1f s, %d launches, %d tasks lost", i, r.MeanSojourn(), log.Count(replay.TaskStarted), lost)
		if cfg.MTBF > 0 && lost == 0 {
			t.Errorf("cluster %d has failures but no task was lost; the test wants some", i)
		}
	}
}

func TestSJFOptions(t *testing.T) {
	if _, err := Policy.Build(map[string]string{"size": "bytes"}); err == nil || !strings.Contains(err.Error(), "sjf.size") {
		t.Errorf("size=bytes: error %v, want one naming sjf.size", err)
	}
	if _, err := Policy.Build(map[string]string{"aging": "true"}); err == nil || !strings.Contains(err.Error(), `no option "aging"`) {
		t.Errorf("unknown option: error %v", err)
	}
	s := replaytest.Build(t, Policy.Build, nil).(*SJF)
	if s.byTasks || s.Name() != Name {
		t.Errorf("defaults: by tasks %v, name %q", s.byTasks, s.Name())
	}
}
