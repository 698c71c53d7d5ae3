package experiments

import (
	"sojourn/replay"
	"sojourn/replay/scenario"
	"sojourn/traces"
)

func mustPreemption() (*traces.Trace, replay.Config) { return scenario.Preemption() }
