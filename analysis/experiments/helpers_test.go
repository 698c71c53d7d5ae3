package experiments

import (
	"sojourn/replay"
	"sojourn/traces"
	"sojourn/replay/scenario"
)

func mustPreemption() (*traces.Trace, replay.Config) { return scenario.Preemption() }
