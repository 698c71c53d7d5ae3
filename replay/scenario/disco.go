package scenario

import (
	"fmt"
	"math/rand/v2"

	"sojourn/replay"
	"sojourn/traces"
)

// The research/production experiment of Disco's preemptive fair scheduler
// (Souza and Garcia, 2016, Section 4): 5 nodes of 2 cores; a research job
// (Word Count with a 1 ms sleep per word) of 25 long maps, and a production
// job (the same Word Count without the sleep) of 25 short maps submitted 20
// s after it. The paper gives no task durations; they are read off its
// account of the original Fair policy: the production job waited one
// minute, until 01:20, for the research job's first tasks to end, so a
// research map lasts about 80 s; its map phase then took 21 s (01:20 to
// 01:41) on about half of the 10 slots, so a production map lasts about
// 4 s. Each job also has one reduce (Word Count's reduce stage): 10 s for
// research, 5 s for production (the paper gives none). Each task's
// duration is its mean times a factor drawn uniformly from [1 − spread,
// 1 + spread] (DiscoSpread) by a generator seeded with (seed, job), so
// every seed gives a different trace.
//
// The cluster maps Disco's 2 workers per node onto 2 map slots and 1
// reduce slot per node (Hadoop 1.x slots are typed), in one rack, with
// Hadoop's heartbeat; every node holds every block (the paper's policy
// ignores locality, and so does the experiment).

// Disco experiment parameters.
const (
	DiscoResearchMap   = 80.0 // mean research map duration (s)
	DiscoProductionMap = 4.0  // mean production map duration (s)
	DiscoResearchRed   = 10.0 // research reduce (s)
	DiscoProductionRed = 5.0  // production reduce (s)
	DiscoMaps          = 25   // maps per job
	DiscoDelay         = 20.0 // production submit time after the research job (s)
	DiscoSpread        = 0.2  // relative spread of task durations
)

// DiscoResearchProduction builds the experiment's two jobs for seed: job
// 0 is the research job, job 1 the production job.
func DiscoResearchProduction(seed uint64) (*traces.Trace, replay.Config) {
	job := func(id uint64, name string, submit, mapMean, redMean float64) traces.Job {
		rng := rand.New(rand.NewPCG(seed, id))
		draw := func(mean float64) float64 { return mean * (1 - DiscoSpread + 2*DiscoSpread*rng.Float64()) }
		j := Uniform(submit, DiscoMaps, 0, 1, 0)
		for i := range j.MapDurations {
			j.MapDurations[i] = draw(mapMean)
		}
		j.ReduceDurations[0] = draw(redMean)
		j.Name, j.Class = name, name
		return j
	}
	tr, err := Build(map[string]string{"workload": "disco-research-production", "seed": fmt.Sprint(seed)},
		job(0, "research", 0, DiscoResearchMap, DiscoResearchRed),
		job(1, "production", DiscoDelay, DiscoProductionMap, DiscoProductionRed))
	if err != nil {
		panic("scenario: " + err.Error()) // fixed data: cannot happen
	}
	return tr, replay.Config{Nodes: 5, NodesPerRack: 5, MapSlots: 2, ReduceSlots: 1, Replication: 5}
}
