package replay_test

import (
	"testing"

	"sojourn/replay"
	"sojourn/replay/scenario"
)

// BenchmarkReplayFIFO reports simulated task events per second of wall
// time on a trace of over a million tasks (scenario.HeavyTail), 100
// nodes, invariant checks on, under the engine's own FIFO; BenchmarkFloor
// the same trace's irreducible work (replay.Floor), the reference it is
// stated against.
func BenchmarkReplayFIFO(b *testing.B) { benchReplay(b, replay.Config{Seed: 1}) }

// BenchmarkReplayFIFOContainers is the same trace in the container
// model, on NodeManagers of 24 GiB and 6 vcores (six 1 GiB containers a
// node, as the slot model's 4 + 2 slots), at the slot model's heartbeat:
// against BenchmarkReplayFIFO, what containers cost the engine.
func BenchmarkReplayFIFOContainers(b *testing.B) {
	benchReplay(b, replay.Config{Seed: 1, Model: replay.ContainerModel, NodeMemoryMB: 24 << 10, NodeVcores: 6,
		Heartbeat: replay.HeartbeatInterval(replay.DefaultNodes)})
}

func benchReplay(b *testing.B, cfg replay.Config) {
	tr := scenario.HeavyTail()
	maps, reds := tr.TotalTasks()
	b.ResetTimer()
	var events, taskEvents int64
	for i := 0; i < b.N; i++ {
		r, err := replay.Run(tr, &replay.FIFO{}, cfg)
		if err != nil {
			b.Fatal(err)
		}
		events += r.Stats.Events
		taskEvents += r.Stats.TaskEvents
	}
	sec := b.Elapsed().Seconds()
	b.ReportMetric(float64(taskEvents)/sec, "task-events/s")
	b.ReportMetric(float64(events)/sec, "events/s")
	b.ReportMetric(float64(maps+reds), "tasks")
}

func BenchmarkFloor(b *testing.B) {
	tr := scenario.HeavyTail()
	b.ResetTimer()
	var taskEvents int64
	for i := 0; i < b.N; i++ {
		r, err := replay.Floor(tr, replay.DefaultNodes, replay.DefaultMapSlots, replay.DefaultReduceSlots)
		if err != nil {
			b.Fatal(err)
		}
		taskEvents += r.TaskEvents
	}
	b.ReportMetric(float64(taskEvents)/b.Elapsed().Seconds(), "task-events/s")
}
