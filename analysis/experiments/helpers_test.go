package experiments

import (
	"sojourn/replay"
	"sojourn/traces"
	"sojourn/traces/synthetic"
)

func mustPreemption() (*traces.Trace, replay.Config) { return synthetic.Preemption() }
