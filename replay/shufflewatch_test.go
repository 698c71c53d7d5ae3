package replay_test

import (
	"testing"

	"sojourn/replay"
	"sojourn/replay/replaytest"
	"sojourn/swim"
	"sojourn/traces"
)

// A ShuffleWatch that reads only its Events measures what one that reads
// every event does, on a scenario that hoards (job a's reduces hold both
// reduce slots from slow-start to the end of its long last map, while job
// b's reduce waits from its one map's end) and on a synthetic workload.
func TestShuffleWatchEventsSuffice(t *testing.T) {
	gen, err := swim.Generate(swim.Config{Profile: "fb2009", Seed: 4, Jobs: 100, Nodes: 10})
	if err != nil {
		t.Fatal(err)
	}
	small := replaytest.OneNode(2, 2)
	small.SlowStart = 0.05
	for _, c := range []struct {
		name string
		tr   *traces.Trace
		cfg  replay.Config
	}{
		{"hoarding", replaytest.Trace(t,
			replaytest.Job(0).MapDurations(100, 100, 100, 100, 100, 100, 100, 100, 100, 1000).Reduces(2, 50),
			replaytest.Job(150).Maps(1, 10).Reduces(1, 10)), small},
		{"fb2009", gen, replay.Config{Nodes: 10, Seed: 1, SlowStart: 0.05}},
	} {
		e, err := replay.New(c.tr, &replay.FIFO{}, c.cfg)
		if err != nil {
			t.Fatal(err)
		}
		slots := e.Config().Nodes * e.Config().ReduceSlots
		all, some := &replay.ShuffleWatch{ReduceSlots: slots, Share: 0.2}, &replay.ShuffleWatch{ReduceSlots: slots, Share: 0.2}
		e.Observe(all.Observe)
		e.ObserveEvents(some.Observe, some.Events())
		if _, err := e.Run(); err != nil {
			t.Fatal(err)
		}
		if all.Total == 0 {
			t.Errorf("%s: no hoarding measured: the case tests nothing", c.name)
		}
		if some.Total != all.Total || some.Longest != all.Longest || some.LongestFrom != all.LongestFrom {
			t.Errorf("%s: hoarding %v s, longest %v s from %v s; reading every event, %v s, %v s from %v s", c.name,
				some.Total.Sec(), some.Longest.Sec(), some.LongestFrom.Sec(), all.Total.Sec(), all.Longest.Sec(), all.LongestFrom.Sec())
		}
	}
}
