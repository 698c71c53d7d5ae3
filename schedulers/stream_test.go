package schedulers

import (
	"fmt"
	"io"
	"reflect"
	"testing"

	"sojourn/replay"
	"sojourn/replay/replaytest"
	"sojourn/traces"
)

// jobSource hands out a trace's jobs one at a time, as a trace file read
// during the replay does (bench replay): a policy sees a job's pool, name
// and tasks only from its arrival on.
type jobSource struct {
	jobs []traces.Job
	next int
}

func (s *jobSource) Len() int { return len(s.jobs) }

func (s *jobSource) Next(j *traces.Job) error {
	if s.next == len(s.jobs) {
		return io.EOF
	}
	*j = s.jobs[s.next]
	s.next++
	return nil
}

// TestStreamedTraceMatchesInMemory: every policy gives the same results
// whether the trace is in memory or read job by job as the replay goes,
// with pools (queues) and users that only the jobs' own records name.
func TestStreamedTraceMatchesInMemory(t *testing.T) {
	queues := replaytest.WriteFile(t, "queues.conf", "root.a.capacity = 70\nroot.b.capacity = 30\nroot.b.user-limit-factor = 2\n")
	var jobs []*replaytest.JobBuilder
	for i := range 60 {
		pool := []string{"a", "b"}[i%2]
		name := fmt.Sprintf("%s-%d", []string{"alice", "bob", "carol"}[i%3], i)
		j := replaytest.Job(float64(i)*7).Pool(pool).Name(name).Maps(3+i%11, 20+float64(i%5)).ReduceMemory(1 << 28)
		if i%3 == 0 {
			j.Reduces(2, 40)
		}
		jobs = append(jobs, j)
	}
	tr := replaytest.Trace(t, jobs...)
	cases := []struct {
		policy string
		opts   map[string]string
	}{
		{"capacity", map[string]string{"queues": queues, "user-by": "name"}},
		{"capacity", map[string]string{"queues": queues, "preemption": "true"}},
		{"yarn-capacity", map[string]string{"queues": queues, "user-by": "name"}},
		{"yarn-capacity", map[string]string{"queues": queues, "preemption": "true", "ordering-policy": "fair"}},
	}
	for _, name := range Names() {
		if p, _ := Lookup(name); external(name) || p.ContainersOnly {
			continue // the slot model only here
		}
		cases = append(cases, struct {
			policy string
			opts   map[string]string
		}{name, nil})
	}
	for _, c := range cases {
		cfg := replay.Config{Nodes: 6, Seed: 2}
		if p, _ := Lookup(c.policy); p.ContainersOnly {
			// 2 GiB AMs, up to 6 of them at once, and 1 GiB tasks.
			cfg.Model, cfg.NodeMemoryMB, cfg.MaxAMShare = replay.ContainerModel, 4096, 0.5
		}
		t.Run(fmt.Sprint(c.policy, c.opts), func(t *testing.T) {
			whole, err := replay.Run(tr, build(t, c.policy, c.opts), cfg)
			if err != nil {
				t.Fatal(err)
			}
			e, err := replay.NewFromSource(&jobSource{jobs: tr.Jobs}, build(t, c.policy, c.opts), cfg)
			if err != nil {
				t.Fatal(err)
			}
			streamed, err := e.Run()
			if err != nil {
				t.Fatal(err)
			}
			if !reflect.DeepEqual(whole.Jobs, streamed.Jobs) {
				t.Errorf("streamed trace: mean sojourn %.1f s, in memory %.1f s", streamed.MeanSojourn(), whole.MeanSojourn())
			}
		})
	}
}
