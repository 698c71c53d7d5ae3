package disco

import (
	"math"
	"math/rand/v2"
	"slices"

	"sojourn/replay"
	"sojourn/schedulers/fairshare"
	"sojourn/schedulers/internal/order"
	"sojourn/schedulers/internal/policy"
	"sojourn/schedulers/internal/victim"
)

// Disco is the Preemptive Fair Scheduler Policy of Souza and Garcia ("A
// Preemptive Fair Scheduler Policy for Disco MapReduce Framework", 2016),
// on Hadoop 1.x slots. Jobs share each kind of slot equally (max-min fair
// shares, each capped at what the job can run), and the policy acts on
// three events:
//
//   - A job arrives: its fair share of map slots is computed and, as far
//     as the free slots do not cover it, map tasks of the running jobs are
//     killed evenly (each time from the job furthest above its share, never
//     below it), at the victims' trackers' next heartbeats. The paper kills
//     a random running task of the chosen job (victim = random, from a
//     seeded generator); victim = youngest kills the one that lost least.
//   - A slot is free: if a job is between phases, the slot is held; else a
//     job that has not yet had a slot of that kind gets it; else the most
//     unfavoured job below its fair share (fewest running tasks). Slots
//     that no job below its share can use go to the job with the fewest
//     running tasks (Disco's default fair policy keeps no slot idle).
//   - A job ends: it is forgotten.
//
// Between phases. In Disco a job's map stage ends, its output is shuffled,
// then its reduce stage starts on the same generic workers; while the job
// is in that transition the policy holds the workers it frees instead of
// handing them to a greedy job. Here a job with reduces is in transition
// from the moment all its maps have launched until every reduce has
// finished its shuffle; a map slot freed by one of its maps meanwhile is
// held on its node (at most as many as it has unfinished reduces, and an
// equal share of the map slots), and the job's reduces come
// first for free reduce slots. Slots are typed in Hadoop 1.x, so the held
// map slots stay idle: they reproduce the cost the paper reports (an
// under-used cluster during the production job's last phases) without
// the benefit. policy.Option hold = false turns both the holds and the reduces'
// precedence off.
type Disco struct {
	o   discoOptions
	v   *replay.View
	rng *rand.Rand

	jobs   []discoJob
	active []int32 // arrived, unfinished jobs in arrival order

	kills  [][]victim.Victim // per node, kills for its next heartbeat
	nKills int
	holds  [][]int32 // per node, one entry (the holding job) per held map slot

	scratch []fairshare.Schedulable
	shares  []float64
	epoch   uint32

	// Indexes of the active jobs (index.go).
	cands    [2]discoHeap
	unserved [2][]int32
	between  []int32
	pend     []victim.Victim  // makeRoom's scratch: the kills already asked
	touched  []int32          // makeRoom's scratch: the jobs with planned kills
	ex       []int32          // randomVictim's scratch
	out      []replay.TaskRef // maps left out of running-map sets by randomVictim
	room     uint32           // makeRooms that planned kills, for discoJob.room
}

type discoOptions struct {
	hold   bool
	victim string
	seed   uint64
}

type discoJob struct {
	served [2]bool // has had a slot of that kind
	share  [2]float64
	held   int // map slots it holds
	// mapsDoneAt is when its last map finished, transEnd when its last
	// shuffle ends, once known (-1 until then).
	mapsDoneAt, transEnd replay.Time
	tried                uint32 // epoch at which it could not use the node

	active   bool     // arrived and not finished (in Disco.active)
	pos      [2]int32 // place in cands (plus one; 0: absent)
	unserved [2]bool  // in Disco.unserved
	between  bool     // in Disco.between
	planned  int      // makeRoom's scratch: kills asked of it
	run      *discoRunSet
	room     uint32 // Disco.room when its asked kills were left out of run
}

var (
	_ replay.Scheduler = (*Disco)(nil)
	_ replay.Starter   = (*Disco)(nil)
	_ replay.Preempter = (*Disco)(nil)
)

var discoOptionList = []policy.Option{
	{Name: "hold", Default: "true", Usage: "hold the map slots a job frees while it is between phases (maps launched, shuffle not over) instead of giving them to other jobs"},
	{Name: "victim", Default: "random", Usage: "which running task of a job chosen for a kill dies: random (the paper, from seed) or youngest"},
	{Name: "seed", Default: "1", Usage: "seed of the random victim choice"},
}

// Name is the policy's name in the registry and on the command line.
const Name = "disco"

// Policy describes the policy to the registry.
var Policy = policy.Policy{
	Name:    Name,
	Summary: "Disco's preemptive fair scheduler: kill evenly for a new job's fair share, hold slots between phases, serve the most unfavoured job",
	Options: discoOptionList,
	New:     func(s *policy.Settings) (replay.Scheduler, error) { return New(s) },
}

// New builds the Disco preemptive fair policy from its settings.
func New(s *policy.Settings) (*Disco, error) {
	var o discoOptions
	o.hold = s.Bool("hold")
	o.victim = s.OneOf("victim", "random", "youngest")
	o.seed = s.Uint64("seed")
	if err := s.Err(); err != nil {
		return nil, err
	}
	return &Disco{o: o, rng: rand.New(rand.NewPCG(o.seed, 0xd15c0))}, nil
}

// Name implements replay.Scheduler.
func (d *Disco) Name() string { return Name }

// Start implements replay.Starter.
func (d *Disco) Start(v *replay.View) error {
	d.v = v
	d.jobs = make([]discoJob, v.Jobs())
	d.kills = make([][]victim.Victim, v.Nodes())
	d.holds = make([][]int32, v.Nodes())
	for k := range d.cands {
		d.cands[k].pos = func(j int32) *int32 { return &d.jobs[j].pos[k] }
	}
	return nil
}

// OnEvent implements replay.Scheduler.
func (d *Disco) OnEvent(ev replay.Event, v *replay.View) {
	d.v = v
	switch ev.Kind {
	case replay.JobArrived:
		d.active = append(d.active, ev.Job)
		d.jobs[ev.Job].active = true
		d.jobs[ev.Job].transEnd, d.jobs[ev.Job].mapsDoneAt = -1, -1
		d.makeRoom(v, ev.Job)
	case replay.TaskKilled, replay.TaskLost:
		d.trackRun(ev)
		if ev.Task.Kind == replay.Reduce {
			d.jobs[ev.Job].transEnd = -1
		}
	case replay.TaskStarted, replay.TaskSuspended, replay.TaskResumed:
		d.trackRun(ev)
	case replay.TaskFinished:
		d.trackRun(ev)
		if d.o.hold && ev.Task.Kind == replay.Map {
			d.maybeHold(v, ev.Task.Job, ev.Node)
		}
	case replay.JobFinished:
		d.active = order.Remove(d.active, ev.Job)
		jb := &d.jobs[ev.Job]
		jb.active = false
		jb.run = nil
		// held counts the job's entries in holds: with none, skip the walk.
		if jb.held > 0 {
			for n := range d.holds {
				d.holds[n] = removeAll(d.holds[n], ev.Job)
			}
		}
		jb.held = 0
	case replay.NodeFailed:
		d.nKills -= len(d.kills[ev.Node])
		d.kills[ev.Node] = d.kills[ev.Node][:0]
		for _, j := range d.holds[ev.Node] {
			d.jobs[j].held--
		}
		d.holds[ev.Node] = d.holds[ev.Node][:0]
	}
	if ev.Kind != replay.NodeFailed && ev.Kind != replay.NodeRecovered {
		d.refresh(v, ev.Job)
	}
}

// removeAll deletes every x from s.
func removeAll(s []int32, x int32) []int32 {
	out := s[:0]
	for _, y := range s {
		if y != x {
			out = append(out, y)
		}
	}
	return out
}

// computeShares sets every active job's max-min fair share of kind k.
func (d *Disco) computeShares(v *replay.View, k replay.TaskKind) {
	s := d.scratch[:0]
	for _, j := range d.active {
		jv := v.Job(j)
		dem := jv.Running(k)
		if jv.Launchable(k) {
			dem += jv.Pending(k)
		}
		s = append(s, fairshare.Schedulable{Weight: 1, Demand: float64(dem)})
	}
	d.scratch = s
	d.shares = fairshare.ExactFairShares(d.shares, s, float64(v.Slots(k)))
	for i, j := range d.active {
		d.jobs[j].share[k] = d.shares[i]
	}
}

// freeSlots is the cluster's free, unheld slots of kind k.
func (d *Disco) freeSlots(v *replay.View, k replay.TaskKind) int {
	free := v.Slots(k)
	for _, j := range d.active {
		free -= v.Job(j).Running(k)
		if k == replay.Map {
			free -= d.jobs[j].held
		}
	}
	return free
}

// makeRoom plans the kills that give newly arrived job j its fair share of
// map slots: evenly, from the job furthest above its own share each time.
func (d *Disco) makeRoom(v *replay.View, j int32) {
	const k = replay.Map
	if !v.Job(j).Launchable(k) {
		return
	}
	d.computeShares(v, k)
	need := int(math.Floor(d.jobs[j].share[k]+1e-9)) - d.freeSlots(v, k)
	if need <= 0 {
		return
	}
	// The kills already asked, counted per job in planned (reset on the
	// way out) and kept in pend for victimOf.
	d.room++
	pend, touched := d.pend[:0], d.touched[:0]
	for _, vs := range d.kills {
		for _, vi := range vs {
			pend = append(pend, vi)
			if d.jobs[vi.Ref.Job].planned == 0 {
				touched = append(touched, vi.Ref.Job)
			}
			d.jobs[vi.Ref.Job].planned++
		}
	}
	for ; need > 0; need-- {
		best, bestOver := int32(-1), 0.0
		for _, o := range d.active {
			over := float64(v.Job(o).Running(k)-d.jobs[o].planned) - d.jobs[o].share[k]
			if o != j && over >= 1-1e-9 && over > bestOver {
				best, bestOver = o, over
			}
		}
		if best < 0 {
			break
		}
		vi, ok := d.victimOf(v, best, k, pend)
		if !ok {
			break
		}
		d.kills[vi.Node] = append(d.kills[vi.Node], vi)
		d.nKills++
		pend = append(pend, vi)
		if d.jobs[best].planned == 0 {
			touched = append(touched, best)
		}
		d.jobs[best].planned++
	}
	for _, o := range touched {
		d.jobs[o].planned = 0
	}
	d.pend, d.touched = pend, touched
	d.restore()
}

// victimOf picks a running task of kind k of job j not already doomed
// (asked to die in pend): at random or the youngest.
func (d *Disco) victimOf(v *replay.View, j int32, k replay.TaskKind, pend []victim.Victim) (victim.Victim, bool) {
	if d.o.victim == "random" && k == replay.Map {
		return d.randomVictim(v, j, pend)
	}
	var cands []victim.Victim
	for t := range int32(v.Job(j).Tasks(k)) {
		ref := replay.TaskRef{Job: j, Kind: k, Index: t}
		tv := v.Task(ref)
		if !tv.Running() || d.doomed(tv.Node(), ref) {
			continue
		}
		cands = append(cands, victim.Victim{Ref: ref, Node: tv.Node(), Attempts: tv.Attempts(), Start: tv.AttemptStart()})
	}
	if len(cands) == 0 {
		return victim.Victim{}, false
	}
	if d.o.victim == "random" {
		return cands[d.rng.IntN(len(cands))], true
	}
	best := cands[0]
	for _, c := range cands[1:] {
		if c.Start >= best.Start {
			best = c
		}
	}
	return best, true
}

// randomVictim is victimOf's random choice among job j's running maps
// without walking them: the candidates are the running maps, in index
// order, less those asked to die on the node they run on, so the same
// draw picks the same one. For the rest of makeRoom, the maps asked to die
// are left out of the job's running-map set (restore puts them back).
func (d *Disco) randomVictim(v *replay.View, j int32, pend []victim.Victim) (victim.Victim, bool) {
	rs := d.runSet(v, j)
	if jb := &d.jobs[j]; jb.room != d.room {
		jb.room = d.room
		ex := d.ex[:0]
		for _, vi := range pend {
			if vi.Ref.Job != j || vi.Ref.Kind != replay.Map {
				continue
			}
			if tv := v.Task(vi.Ref); tv.Running() && tv.Node() == vi.Node {
				ex = append(ex, vi.Ref.Index)
			}
		}
		slices.Sort(ex)
		for _, t := range slices.Compact(ex) {
			d.leaveOut(j, t)
		}
		d.ex = ex
	}
	if rs.n == 0 {
		return victim.Victim{}, false
	}
	ref := replay.TaskRef{Job: j, Kind: replay.Map, Index: rs.nth(int32(d.rng.IntN(int(rs.n))))}
	d.leaveOut(j, ref.Index) // makeRoom asks for its death
	tv := v.Task(ref)
	return victim.Victim{Ref: ref, Node: tv.Node(), Attempts: tv.Attempts(), Start: tv.AttemptStart()}, true
}

// leaveOut takes job j's map t out of its running-map set until restore.
func (d *Disco) leaveOut(j, t int32) {
	d.jobs[j].run.add(t, -1)
	d.out = append(d.out, replay.TaskRef{Job: j, Kind: replay.Map, Index: t})
}

// restore puts back the maps randomVictim left out.
func (d *Disco) restore() {
	for _, r := range d.out {
		d.jobs[r.Job].run.add(r.Index, 1)
	}
	d.out = d.out[:0]
}

func (d *Disco) doomed(node int32, ref replay.TaskRef) bool {
	for _, vi := range d.kills[node] {
		if vi.Ref == ref {
			return true
		}
	}
	return false
}

// WantsBusyHeartbeats implements replay.Preempter: full trackers report
// while kills wait for them.
func (d *Disco) WantsBusyHeartbeats(*replay.View) bool { return d.nKills > 0 }
