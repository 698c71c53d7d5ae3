package fair

import (
	"cmp"
	"errors"
	"fmt"
	"math"
	"path/filepath"
	"strings"
	"testing"

	"sojourn/replay"
	"sojourn/replay/replaytest"
	"sojourn/schedulers/pools"
	"sojourn/traces"
)

// newFair builds the fair policy with the given options.
func newFair(t testing.TB, opts map[string]string) *Fair {
	t.Helper()
	return replaytest.Build(t, Policy.Build, opts).(*Fair)
}

// fairProbe runs a Fair policy and calls each after every heartbeat.
type fairProbe struct {
	*Fair
	each func(hb *replay.Heartbeat)
}

func (p *fairProbe) OnHeartbeat(hb *replay.Heartbeat) error {
	if err := p.Fair.OnHeartbeat(hb); err != nil {
		return err
	}
	p.each(hb)
	return nil
}

// TestFairMicroTrace replays a hand-computed two-job trace. One node (all
// maps node-local), 2 map slots, 1 reduce slot, heartbeats every 1 s,
// slow-start 5% (one finished map of job 0).
//
//	t=0    job 0 (4 maps of 4 s, 1 reduce of 3 s): maps 0, 1 (load cap
//	       ceil(2 × min(1, 4/2)) = 2)
//	t=1.5  job 1 (2 maps of 2 s) arrives; no free slot
//	t=4    maps 0, 1 end; job 0 is past slow-start. Update: map demand 4,
//	       reduce demand 1. Maps go first (0 ≤ 0 running on the node): jobs
//	       tie at 0 running maps, job 0 is older: its map 2 (4..8). Then a
//	       reduce (1 map running > 0 reduces): job 0's (waits for the maps).
//	       Then a map: job 1 has 0 running < 1: its map 0 (4..6).
//	t=6    job 1 (0 running) beats job 0 (1): job 1's map 1 (6..8)
//	t=8    job 0's map 3 (8..12); job 1 done at 8
//	t=12   job 0's maps are done: its reduce ends at 15
//
// (Hadoop's FIFO runs job 0's maps first: see fifo's TestFIFOMicroTrace.)
//
// With assign-multiple off a heartbeat launches one task, of the kind with
// fewer tasks on the node (maps on ties). Job 0's map 1 lasts 3 s:
//
//	t=0, 1  maps 0 (0..4) and 1 (1..4)
//	t=4     0 maps = 0 reduces running: a map; job 0 is older: map 2 (4..8)
//	t=5     1 map > 0 reduces: job 0's reduce
//	t=6     1 map = 1 reduce: a map; job 1 has none running: map 0 (6..8)
//	t=8     tie at 0 running maps: job 0's map 3 (8..12)
//	t=9     job 1's map 1 (9..11); job 0's reduce ends at 12+3 = 15
func TestFairMicroTrace(t *testing.T) {
	m, rd, loc := replay.Map, replay.Reduce, replay.NodeLocal
	tr := replaytest.Trace(t,
		replaytest.Job(0).Maps(4, 4).ReduceDurations(3),
		replaytest.Job(1.5).Maps(2, 2))
	cfg := replay.Config{Nodes: 1, MapSlots: 2, ReduceSlots: 1, Heartbeat: 1, Seed: 1}
	for _, c := range []struct {
		opts   map[string]string
		tr     *traces.Trace
		want   []replaytest.Segment
		finish []float64
	}{{
		tr: tr,
		want: []replaytest.Segment{replaytest.Seg(0, m, 0, 0, 0, loc, 4), replaytest.Seg(0, m, 1, 0, 0, loc, 4), replaytest.Seg(0, m, 2, 4, 0, loc, 8),
			replaytest.Seg(1, m, 0, 4, 0, loc, 6), replaytest.Seg(0, rd, 0, 4, 0, 0, 15), replaytest.Seg(1, m, 1, 6, 0, loc, 8), replaytest.Seg(0, m, 3, 8, 0, loc, 12)},
		finish: []float64{15, 8},
	}, {
		opts: map[string]string{"assign-multiple": "false"},
		tr:   replaytest.Trace(t, replaytest.Job(0).MapDurations(4, 3, 4, 4).ReduceDurations(3), replaytest.Job(1.5).Maps(2, 2)),
		want: []replaytest.Segment{replaytest.Seg(0, m, 0, 0, 0, loc, 4), replaytest.Seg(0, m, 1, 1, 0, loc, 4), replaytest.Seg(0, m, 2, 4, 0, loc, 8),
			replaytest.Seg(0, rd, 0, 5, 0, 0, 15), replaytest.Seg(1, m, 0, 6, 0, loc, 8), replaytest.Seg(0, m, 3, 8, 0, loc, 12), replaytest.Seg(1, m, 1, 9, 0, loc, 11)},
		finish: []float64{15, 11},
	}} {
		t.Run("assign-multiple="+cmp.Or(c.opts["assign-multiple"], "true"), func(t *testing.T) {
			r := replaytest.Run(t, c.tr, replaytest.Build(t, Policy.Build, c.opts), cfg)
			replaytest.CheckSegments(t, r, c.want)
			for i, want := range c.finish {
				if got := r.Jobs[i].Finish.Sec(); got != want {
					t.Errorf("job %d finished at %v, want %v", i, got, want)
				}
			}
		})
	}
}

// TestFairPoolWeights: two pools of weights 2 and 1, each with more maps
// than the cluster's 30 slots, hold 20 and 10 slots while both have
// demand (computeFairShares gives R·2 + R·1 = 30, R = 10), and the
// pools' fair shares say so.
func TestFairPoolWeights(t *testing.T) {
	pools := replaytest.WriteFile(t, "pools.txt", "# pool mode weight minMaps minReduces\nA fair 2 0 0\nB fair 1 0 0\n")
	tr := replaytest.Trace(t, replaytest.Job(0).Pool("A").Maps(300, 10), replaytest.Job(0).Pool("B").Maps(300, 10))
	cfg := replay.Config{Nodes: 10, MapSlots: 3, ReduceSlots: 1, Heartbeat: 1, Seed: 1}
	f := newFair(t, map[string]string{"pools": pools})
	checked := 0
	probe := &fairProbe{Fair: f, each: func(hb *replay.Heartbeat) {
		if hb.Job(0).Pending(replay.Map) == 0 || hb.Now() < 5*replay.Second {
			return
		}
		a, _ := f.PoolShare("A", replay.Map)
		b, _ := f.PoolShare("B", replay.Map)
		if math.Abs(a-20) > 1e-3 || math.Abs(b-10) > 1e-3 {
			t.Fatalf("at %v: fair shares A %v, B %v; want 20, 10", hb.Now(), a, b)
		}
		checked++
	}}
	r := replaytest.Run(t, tr, probe, cfg)
	if checked == 0 {
		t.Fatal("no share checked")
	}
	for at := 5.05; at < 140; at += 10 {
		a := replaytest.RunningAt(r, replay.Map, at, replaytest.InPool(tr, "A"))
		b := replaytest.RunningAt(r, replay.Map, at, replaytest.InPool(tr, "B"))
		if a < 19 || a > 21 || b < 9 || b > 11 || a+b != 30 {
			t.Errorf("at %v s pools A and B run %d and %d maps; want 20 and 10 of 30", at, a, b)
		}
	}
}

// TestFairPoolsOption checks that the pools option reads a pools file
// (XML or text) and that its limits take effect.
func TestFairPoolsOption(t *testing.T) {
	xml := replaytest.WriteFile(t, "alloc.xml", `<?xml version="1.0"?>
<allocations>
  <pool name="one"><maxRunningJobs>1</maxRunningJobs></pool>
  <pool name="capped"><maxMaps>2</maxMaps></pool>
  <user name="bob"><maxRunningJobs>1</maxRunningJobs></user>
</allocations>`)
	cfg := replay.Config{Nodes: 2, MapSlots: 4, ReduceSlots: 1, Heartbeat: 1, Seed: 1}
	t.Run("pool maxRunningJobs", func(t *testing.T) {
		// Job 1 becomes runnable once job 0, granted first, finishes.
		tr := replaytest.Trace(t, replaytest.Job(0).Pool("one").Maps(2, 10), replaytest.Job(0).Pool("one").Maps(2, 10), replaytest.Job(0).Pool("other").Maps(2, 10))
		r := replaytest.Run(t, tr, replaytest.Build(t, Policy.Build, map[string]string{"pools": xml}), cfg)
		if r.Jobs[1].FirstLaunch < r.Jobs[0].Finish {
			t.Errorf("job 1 launched at %v before job 0 finished at %v", r.Jobs[1].FirstLaunch, r.Jobs[0].Finish)
		}
		if r.Jobs[2].FirstLaunch != 0 {
			t.Errorf("job 2 of another pool launched at %v, want 0", r.Jobs[2].FirstLaunch)
		}
	})
	t.Run("user maxRunningJobs in one pool", func(t *testing.T) {
		// With pool-by single all jobs share the default pool; bob's limit
		// still holds (the trace's pool column is the user).
		tr := replaytest.Trace(t, replaytest.Job(0).Pool("bob").Maps(2, 10), replaytest.Job(0).Pool("bob").Maps(2, 10), replaytest.Job(0).Pool("carol").Maps(2, 10))
		r := replaytest.Run(t, tr, replaytest.Build(t, Policy.Build, map[string]string{"pools": xml, "pool-by": "single"}), cfg)
		if r.Jobs[1].FirstLaunch < r.Jobs[0].Finish || r.Jobs[2].FirstLaunch != 0 {
			t.Errorf("first launches %v, %v, %v; job 0 finished at %v", r.Jobs[0].FirstLaunch, r.Jobs[1].FirstLaunch,
				r.Jobs[2].FirstLaunch, r.Jobs[0].Finish)
		}
	})
	t.Run("pool maxMaps", func(t *testing.T) {
		tr := replaytest.Trace(t, replaytest.Job(0).Pool("capped").Maps(8, 10))
		r := replaytest.Run(t, tr, replaytest.Build(t, Policy.Build, map[string]string{"pools": xml}), cfg)
		if n := replaytest.RunningAt(r, replay.Map, 5, func(int32) bool { return true }); n != 2 {
			t.Errorf("capped pool runs %d maps, want 2", n)
		}
	})
	t.Run("text format and fifo mode", func(t *testing.T) {
		// A fifo-mode pool runs its jobs in FIFO order: job 1 waits for
		// job 0's maps although fair sharing would split the slots.
		text := replaytest.WriteFile(t, "pools.txt", "q fifo 1 0 0\n")
		tr := replaytest.Trace(t, replaytest.Job(0).Pool("q").Maps(8, 10), replaytest.Job(0).Pool("q").Maps(8, 10))
		r := replaytest.Run(t, tr, replaytest.Build(t, Policy.Build, map[string]string{"pools": text}), cfg)
		// Job 0's 8 maps fill both nodes (at 0 and 0.5); job 1 gets the
		// first slot freed, at 10.
		if r.Jobs[1].FirstLaunch != 10*replay.Second {
			t.Errorf("fifo pool: job 1 first launched at %v, want 10s", r.Jobs[1].FirstLaunch)
		}
		r = replaytest.Run(t, tr, replaytest.Build(t, Policy.Build, nil), cfg)
		if r.Jobs[1].FirstLaunch != 0 {
			t.Errorf("fair pool: job 1 first launched at %v, want 0", r.Jobs[1].FirstLaunch)
		}
	})
	t.Run("errors", func(t *testing.T) {
		bad := replaytest.WriteFile(t, "bad.xml", "<allocations><pool name=\"x\"><weight>-1</weight></pool></allocations>")
		_, err := Policy.Build(map[string]string{"pools": bad})
		if err == nil || !strings.Contains(err.Error(), "fair.pools") || !errors.Is(err, pools.ErrPoolConfig) {
			t.Errorf("bad pools file: %v", err)
		}
		_, err = Policy.Build(map[string]string{"pools": filepath.Join(t.TempDir(), "missing.xml")})
		if err == nil || !strings.Contains(err.Error(), "fair.pools") {
			t.Errorf("missing pools file: %v", err)
		}
	})
}

// TestFairOptions checks option validation.
func TestFairOptions(t *testing.T) {
	for _, c := range []struct {
		opt, val string
	}{
		{"locality-delay", "-2"}, {"locality-delay", "x"}, {"update-interval", "-1"}, {"pool-by", "user"},
		{"preemption", "sometimes"}, {"preemption-interval", "-5"}, {"assign-multiple", "2"},
		{"size-based-weight", "no way"}, {"load-cap", ""},
	} {
		if _, err := Policy.Build(map[string]string{c.opt: c.val}); err == nil || !strings.Contains(err.Error(), "fair."+c.opt) {
			t.Errorf("%s=%q: error %v, want one naming fair.%s", c.opt, c.val, err, c.opt)
		}
	}
	f := newFair(t, nil)
	if f.o.delay != -1 || f.o.update != 0.5 || f.o.preempt || f.o.preemptEvery != 15 || !f.o.assignMultiple ||
		f.o.sizeWeight || !f.o.loadCap || f.o.single {
		t.Errorf("defaults: %+v", f.o)
	}
}

// TestFairDelaySchedulingRaisesLocality: many one-map jobs on 100 nodes.
// Without delay scheduling the first tracker to heartbeat after a job's
// arrival runs its map, holding a replica with probability 3/100; with
// the default D = 1.5 s the job waits up to a heartbeat round for a
// replica's tracker.
func TestFairDelaySchedulingRaisesLocality(t *testing.T) {
	var jobs []*replaytest.JobBuilder
	for i := range 300 {
		jobs = append(jobs, replaytest.Job(float64(i)*0.7).MapDurations(20))
	}
	tr := replaytest.Trace(t, jobs...)
	cfg := replay.Config{Nodes: 100, Seed: 1}
	off := replaytest.Run(t, tr, replaytest.Build(t, Policy.Build, map[string]string{"locality-delay": "0"}), cfg).NodeLocalFraction()
	on := replaytest.Run(t, tr, replaytest.Build(t, Policy.Build, nil), cfg).NodeLocalFraction()
	t.Logf("node-local fraction: %.3f without delay scheduling, %.3f with", off, on)
	if !(on >= 0.95 && off <= 0.2) {
		t.Errorf("node-local fraction %.3f with delay scheduling, %.3f without; want >= 0.95 and <= 0.2", on, off)
	}
}

// refCompareJobs is the pool order on the jobs' current keys, written
// apart from the policy's comparison on the keys they were listed at.
func refCompareJobs(f *Fair, k replay.TaskKind, a, b int32) int {
	ja, jb := &f.jobs[a], &f.jobs[b]
	if ja.pool.cfg.Mode == pools.ModeFIFO {
		return cmp.Or(cmp.Compare(jb.prio, ja.prio), cmp.Compare(ja.submit, jb.submit), cmp.Compare(a, b))
	}
	return cmp.Or(cmp.Compare(ja.key[k], jb.key[k]), cmp.Compare(ja.submit, jb.submit), cmp.Compare(a, b))
}

// fairCheckCounts checks the policy's incremental state against the
// engine's: running counts per pool and cluster-wide, and job orders
// sorted, each job listed at its current key.
func fairCheckCounts(t testing.TB, f *Fair, v *replay.View) {
	var total [2]int
	for _, p := range f.live {
		for k := range 2 {
			kind := replay.TaskKind(k)
			n := 0
			for _, j := range p.jobs {
				n += v.Job(j).Running(kind)
			}
			if n != p.running[k] {
				t.Fatalf("at %v pool %s runs %d %ss, policy counts %d", v.Now(), p.cfg.Name, n, kind, p.running[k])
			}
			total[k] += n
			d := 0
			for _, j := range p.jobs {
				if want := f.jobDemand(v, j, kind); f.jobs[j].demand[k] != want {
					t.Fatalf("at %v job %d's %s demand is %d, want %d", v.Now(), j, kind, f.jobs[j].demand[k], want)
				}
				d += f.jobs[j].demand[k]
			}
			if d != p.liveDemand[k] {
				t.Fatalf("at %v pool %s's %s demand is %d, its jobs' %d", v.Now(), p.cfg.Name, kind, p.liveDemand[k], d)
			}
			listed := 0
			for _, j := range p.jobs {
				if f.jobs[j].listed[k] {
					listed++
				}
			}
			if listed != len(p.list[k]) {
				t.Fatalf("at %v pool %s has %d jobs listed for %ss, %d in its order", v.Now(), p.cfg.Name, listed, kind, len(p.list[k]))
			}
			for i, j := range p.list[k] {
				if jb := &f.jobs[j]; !jb.listed[k] || p.cfg.Mode == pools.ModeFair && jb.listedKey[k] != jb.key[k] {
					t.Fatalf("at %v job %d at %d in pool %s's %s order: listed %v at key %v, key %v", v.Now(), j, i, p.cfg.Name, kind, jb.listed[k], jb.listedKey[k], jb.key[k])
				}
				if f.position(p, kind, j) != i {
					t.Fatalf("at %v job %d at %d in pool %s's %s order is found at %d", v.Now(), j, i, p.cfg.Name, kind, f.position(p, kind, j))
				}
				if i > 0 && refCompareJobs(f, kind, p.list[k][i-1], j) > 0 {
					t.Fatalf("at %v pool %s's %s order is not sorted at %d", v.Now(), p.cfg.Name, kind, i)
				}
				if p.cfg.Mode == pools.ModeFair && f.jobs[j].key[k] != taskRatio(v.Job(j).Running(kind), f.jobs[j].weight[k]) {
					t.Fatalf("at %v job %d has a stale key", v.Now(), j)
				}
			}
		}
	}
	if total != f.running {
		t.Fatalf("at %v pools run %v tasks, policy counts %v", v.Now(), total, f.running)
	}
}

// TestFairStateStaysConsistent replays fb2009 split over four pools (one
// fifo-mode, one with a min share), with node failures, fair-share and
// min-share preemption and size-based weights, checking the policy's
// incremental state after every heartbeat.
func TestFairStateStaysConsistent(t *testing.T) {
	tr := replaytest.Profile(t, "fb2009")
	for i := range tr.Jobs {
		tr.Jobs[i].Pool = fmt.Sprintf("p%d", i%4)
		tr.Jobs[i].Priority = traces.Priority(i%5 - 2)
	}
	pools := replaytest.WriteFile(t, "pools.xml", `<allocations>
  <pool name="p1"><schedulingMode>fifo</schedulingMode></pool>
  <pool name="p2"><minMaps>40</minMaps><minReduces>10</minReduces><minSharePreemptionTimeout>20</minSharePreemptionTimeout></pool>
  <pool name="p3"><weight>3</weight><maxRunningJobs>3</maxRunningJobs></pool>
  <fairSharePreemptionTimeout>60</fairSharePreemptionTimeout>
</allocations>`)
	for _, sized := range []string{"false", "true"} {
		t.Run("size-based-weight="+sized, func(t *testing.T) {
			f := newFair(t, map[string]string{"pools": pools, "preemption": "true", "size-based-weight": sized})
			// The demands of the last update, recorded after the
			// heartbeat that made it (launches change no demand).
			var seen uint32
			atUpdate := map[int32][2]int{}
			probe := &fairProbe{Fair: f, each: func(hb *replay.Heartbeat) {
				fairCheckCounts(t, f, hb.View)
				if f.updates != seen {
					seen = f.updates
					clear(atUpdate)
					for _, j := range f.order {
						atUpdate[j] = [2]int{f.jobDemand(hb.View, j, replay.Map), f.jobDemand(hb.View, j, replay.Reduce)}
					}
				}
				for j, d := range atUpdate {
					if f.jobs[j].pool == nil || !f.jobs[j].pool.live {
						continue
					}
					for k := range 2 {
						if got := f.demandAtUpdate(j, k); got != d[k] {
							t.Fatalf("at %v job %d's demand at the last update %d, recorded %d", hb.Now(), j, got, d[k])
						}
					}
				}
			}}
			r := replaytest.Run(t, tr, probe, replay.Config{Seed: 1, MTBF: 20000, MTTR: 300})
			kills, lost := 0, 0
			for _, j := range r.Jobs {
				kills += int(j.Kills)
				lost += int(j.Lost)
			}
			t.Logf("mean sojourn %.1f s, %d kills, %d lost, %d heartbeats", r.MeanSojourn(), kills, lost, r.Stats.Heartbeats)
			if kills == 0 || lost == 0 {
				t.Errorf("%d kills and %d lost tasks; the test wants both", kills, lost)
			}
		})
	}
}

// TestFairSilentTrackersMatchHadoop: in Hadoop every tracker heartbeats
// every interval; in the engine busy trackers are silent unless a
// Preempter asks for them. Delay scheduling credits skips as if they were
// not, so forcing busy heartbeats (preemption on with a finite fair-share
// timeout, which never fires with a single pool) must not change the run,
// except through the update times (updates are due at the first heartbeat
// after each update-interval).
func TestFairSilentTrackersMatchHadoop(t *testing.T) {
	tr := replaytest.Profile(t, "fb2009")
	pools := replaytest.WriteFile(t, "pools.xml", "<allocations><fairSharePreemptionTimeout>60</fairSharePreemptionTimeout></allocations>")
	silent := replaytest.Run(t, tr, replaytest.Build(t, Policy.Build, nil), replay.Config{Seed: 1})
	busy := replaytest.Run(t, tr, replaytest.Build(t, Policy.Build, map[string]string{"pools": pools, "preemption": "true"}), replay.Config{Seed: 1})
	if busy.Stats.Heartbeats < 5*silent.Stats.Heartbeats {
		t.Fatalf("%d heartbeats with busy trackers, %d without: busy trackers did not heartbeat", busy.Stats.Heartbeats, silent.Stats.Heartbeats)
	}
	if a, b := silent.MeanSojourn(), busy.MeanSojourn(); math.Abs(a-b) > 0.005*a {
		t.Errorf("mean sojourn %.2f s with silent trackers, %.2f s with busy heartbeats", a, b)
	}
	if a, b := silent.NodeLocalFraction(), busy.NodeLocalFraction(); math.Abs(a-b) > 0.002 {
		t.Errorf("node-local fraction %.4f with silent trackers, %.4f with busy heartbeats", a, b)
	}
}

// BenchmarkFairFB2010 measures a whole fb2010 replay under FAIR.
func BenchmarkFairFB2010(b *testing.B) {
	tr := replaytest.Profile(b, "fb2010")
	b.ReportAllocs()
	for range b.N {
		if _, err := replay.Run(tr, replaytest.Build(b, Policy.Build, nil), replay.Config{Seed: 1}); err != nil {
			b.Fatal(err)
		}
	}
}
