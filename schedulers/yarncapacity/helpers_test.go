package yarncapacity

import (
	"slices"
	"strings"
	"testing"

	"sojourn/replay"
	"sojourn/replay/replaytest"
	"sojourn/traces"
)

// Helpers of the hand-computed micro-traces. Unless a test says
// otherwise: the minimum allocation is 1024 MiB and 1 vcore, each job's
// ApplicationMaster 1024 MiB and 1 vcore, no cap on the AMs' share
// (maximum-am-resource-percent 1 unless the test sets it), heartbeats every second (node i of n at i/n s past each second).

const gib = 1 << 30

// nodes is a cluster given node by node: memory in MiB and rack of each.
func nodes(seed uint64, spec ...[2]int64) replay.Config {
	cfg := replay.Config{Model: replay.ContainerModel, Replication: 1, Heartbeat: 1, AMMemoryMB: 1024, MaxAMShare: 1, Seed: seed}
	for _, s := range spec {
		cfg.Cluster = append(cfg.Cluster, replay.NodeSpec{Rack: int32(s[1]), MemoryMB: s[0], Vcores: 8})
	}
	return cfg
}

// run replays tr under the policy with options opts (a "queues" value is
// the text of a queues file) and returns the result and the policy's
// actions.
func run(t *testing.T, tr *traces.Trace, cfg replay.Config, opts map[string]string) (*replay.Result, *replaytest.Log) {
	t.Helper()
	o := map[string]string{"maximum-am-resource-percent": "1"}
	for k, v := range opts {
		if k == "queues" {
			v = replaytest.WriteFile(t, "queues.conf", v)
		}
		o[k] = v
	}
	s, log := replaytest.Record(replaytest.Build(t, Policy.Build, o))
	return replaytest.Run(t, tr, s, cfg), log
}

// wantLog checks the policy's actions, or the first ones if first is set.
func wantLog(t *testing.T, log *replaytest.Log, first bool, want ...string) {
	t.Helper()
	var got []string
	for _, a := range log.Actions {
		got = append(got, a.String())
	}
	if first && len(got) > len(want) {
		got = got[:len(want)]
	}
	if !slices.Equal(got, want) {
		t.Errorf("actions:\n%s\nwant:\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"))
	}
}

// actionsAt lists the actions at time at.
func actionsAt(log *replaytest.Log, at float64) []string {
	var out []string
	for _, a := range log.Actions {
		if a.Time.Sec() == at {
			out = append(out, a.String())
		}
	}
	return out
}
