package oracle

import (
	"fmt"
	"math"

	"sojourn/replay"
	"sojourn/schedulers/internal/policy"
)

// The oracle baselines. Each knows what no real scheduler knows (true
// task durations from the trace, exact attained service) and serves as a
// reference point for the practical policies:
//
//   - srpt: shortest remaining processing time first. A job's remaining
//     processing time is the true work of its unfinished tasks (per task:
//     a map's duration, a reduce's shuffle transfer plus its duration)
//     less the time their live attempts have run, so a running job's key
//     falls as it runs (keys of jobs with running tasks are re-evaluated
//     at every heartbeat). With map-preemption=eager on one slot and jobs
//     of one task this is M/G/1 SRPT.
//   - las: least attained service first. Service is the slot time of all
//     the job's attempts so far, killed ones included. Pure LAS would
//     preempt back and forth between jobs whose service crosses, so jobs
//     are ranked by levels of attained service (the first below quantum,
//     then one more each time the service multiplies by factor), and the
//     jobs of a level share max-min fairly, as equal-service jobs do
//     under LAS.
//   - ps: processor sharing: every job gets an equal share of each kind of
//     slot (max-min fair, capped at what it can run), with no delay
//     scheduling. Without a quantum it shares whole tasks: on one slot a
//     job's task runs to its end, so jobs of one task are served FIFO.
//     With a quantum it also slices time, round robin: jobs are ranked by
//     rounds, a job moves to the next round each time it has received
//     quantum slot-seconds of service, and a job arriving joins the round
//     being served (the earliest of the jobs holding or wanting slots);
//     the jobs of a round share max-min, ties to the earlier submitted,
//     and the earlier rounds go first. With map-preemption=eager and free swaps,
//     on one slot this is round robin with that quantum, which tends to
//     M/G/1-PS as the quantum shrinks.
//
// Reduces are preempted to reach the order's targets (suspend by default);
// maps wait by default, as in HFSP: they last about a minute, and
// suspending one costs a swap on a node with a cap of suspended tasks.

var oracleCommon = []policy.Option{
	{Name: "preemption", Default: "eager", Usage: "reduce preemption towards the order's targets: eager (suspend the youngest task of the latest job over its target; wait past the node's cap), wait, or kill"},
	{Name: "map-preemption", Default: "wait", Usage: "map preemption, as for reduces: wait (maps are never preempted), eager or kill"},
}

var oracleDelay = policy.Option{Name: "locality-delay", Default: "-1",
	Usage: "delay scheduling wait D in seconds before rack-local maps (off-rack after 2D); -1 = min(15, 1.5 × heartbeat), as hfsp; 0 = off"}

var lasOptions = []policy.Option{
	{Name: "quantum", Default: "1", Usage: "attained service (slot-seconds) that ends the first level (60 with factor 2 was the old default: FIFO for jobs below 60 slot-seconds)"},
	{Name: "factor", Default: "1.1", Usage: "ratio between successive level boundaries (> 1; closer to 1 is closer to pure LAS)"},
}

var psOptions = []policy.Option{
	{Name: "quantum", Default: "0", OmitDefault: true, Usage: "time slice in slot-seconds of a job's service: a job that has had quantum since its turn began goes behind the others (round robin; preempts by suspension as the preemption options allow: maps only with map-preemption=eager; kill is refused); 0: no time slicing, whole tasks are shared"},
}

// The policies' names in the registry and on the command line.
const (
	SRPTName = "srpt"
	LASName  = "las"
	PSName   = "ps"
)

// SRPT describes the srpt policy to the registry.
var SRPT = policy.Policy{
	Name:      SRPTName,
	Summary:   "oracle: shortest remaining processing time first, from the trace's true task durations; reduces preempted",
	Options:   append(append([]policy.Option{}, oracleCommon...), oracleDelay),
	MayStarve: true, // the largest job is served last
	New: func(s *policy.Settings) (replay.Scheduler, error) {
		o, err := oracleSettings(s, true)
		if err != nil {
			return nil, err
		}
		return &Oracle{name: SRPTName, o: o, rank: oracleRank{remaining: true,
			key: (*Oracle).remainingWork}}, nil
	},
}

// LAS describes the las policy to the registry.
var LAS = policy.Policy{
	Name:    LASName,
	Summary: "oracle: least attained service first (exponential service levels, max-min within a level); reduces preempted",
	Options: append(append(append([]policy.Option{}, oracleCommon...), oracleDelay), lasOptions...),
	New: func(s *policy.Settings) (replay.Scheduler, error) {
		o, err := oracleSettings(s, true)
		if err != nil {
			return nil, err
		}
		o.quantum = s.Float("quantum")
		o.factor = s.Float("factor")
		if err := s.Err(); err != nil {
			return nil, err
		}
		switch {
		case !(o.quantum > 0) || math.IsInf(o.quantum, 0):
			return nil, fmt.Errorf("las.quantum: %v; want slot-seconds > 0", o.quantum)
		case !(o.factor > 1) || math.IsInf(o.factor, 0):
			return nil, fmt.Errorf("las.factor: %v; want a ratio > 1", o.factor)
		}
		return &Oracle{name: LASName, o: o, rank: oracleRank{shared: true, attained: true,
			key: (*Oracle).lasKey}}, nil
	},
}

// PS describes the ps policy to the registry.
var PS = policy.Policy{
	Name:    PSName,
	Summary: "oracle baseline: processor sharing, equal (max-min) slot shares for every job, no delay scheduling; reduces preempted",
	Options: append(append([]policy.Option{}, oracleCommon...), psOptions...),
	New: func(s *policy.Settings) (replay.Scheduler, error) {
		o, err := oracleSettings(s, false)
		if err != nil {
			return nil, err
		}
		o.quantum = s.Float("quantum")
		if err := s.Err(); err != nil {
			return nil, err
		}
		switch {
		case !(o.quantum >= 0) || math.IsInf(o.quantum, 0):
			return nil, fmt.Errorf("ps.quantum: %v; want slot-seconds >= 0 (0: no time slicing)", o.quantum)
		case o.quantum > 0 && (o.preempt[replay.Map] == "kill" || o.preempt[replay.Reduce] == "kill"):
			// A task longer than the quantum would be killed at the end of
			// every slice, its work lost each time, and never finish.
			return nil, fmt.Errorf("ps.quantum: %v with kill preemption; time slicing suspends (eager) or waits", o.quantum)
		}
		if o.quantum > 0 {
			o.rounds = true
			return &Oracle{name: PSName, o: o, rank: oracleRank{shared: true, attained: true, key: (*Oracle).psKey}}, nil
		}
		return &Oracle{name: PSName, o: o, rank: oracleRank{shared: true, key: func(*Oracle, int32) float64 { return 0 }}}, nil
	},
}
