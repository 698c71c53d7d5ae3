package swim

import (
	"fmt"
	"io"
	"math"
	"math/rand/v2"
	"strconv"
	"strings"

	"sojourn/traces"
)

// Version is recorded in the metadata of every generated trace; bump it
// when the same Config starts giving different traces.
const Version = "1"

// maxTasksPerJob bounds the tasks of one job (each task costs 8-16 bytes in
// memory and in the trace).
const maxTasksPerJob = 10_000_000

// progressEvery is how many jobs pass between Progress calls.
const progressEvery = 4096

// draft is a job before its tasks are made: unscaled sizes and a submit.
type draft struct {
	name, class string
	submit      float64
	sizes       Sizes
}

// Generate makes a workload: jobs from the profile's model or sampled from
// the SWIM source, scaled to the target cluster, cut into tasks with the
// task rule, given durations by the duration model and submit times by
// the arrival process. The same Config gives the same trace, bit for bit.
// It holds the whole trace in memory; Generator makes the same jobs one
// at a time.
func Generate(cfg Config) (*traces.Trace, error) {
	g, err := NewGenerator(cfg)
	if err != nil {
		return nil, err
	}
	t := &traces.Trace{Params: g.Params(), Jobs: make([]traces.Job, g.Len())}
	for i := range t.Jobs {
		if err := g.Next(&t.Jobs[i]); err != nil {
			return nil, err
		}
	}
	return t, nil
}

// Generator makes a workload one job at a time, in submit order: the
// jobs' sizes and submit times are drawn up front (a few dozen bytes per
// job), their tasks as each job is asked for. Memory thus holds one job's
// tasks, which lets a trace of millions of jobs be streamed to a file.
type Generator struct {
	cfg      Config
	drafts   []draft
	params   map[string]string
	next     int
	pcg      *rand.PCG
	rng      *rand.Rand
	taskSeed uint64
}

// NewGenerator validates cfg and draws every job's size and submit time.
func NewGenerator(cfg Config) (*Generator, error) {
	if err := cfg.Validate(); err != nil {
		return nil, err
	}
	var drafts []draft
	var err error
	if cfg.profile != nil {
		drafts, err = profileDrafts(&cfg)
	} else {
		drafts, err = sourceDrafts(&cfg)
	}
	if err != nil {
		return nil, err
	}
	g := &Generator{cfg: cfg, drafts: drafts, params: params(&cfg)}
	g.params["generator.jobs"] = strconv.Itoa(len(drafts))
	g.pcg = rand.NewPCG(0, 0)
	g.rng = rand.New(g.pcg)
	g.taskSeed = mix(cfg.Seed ^ mix(streamTasks))
	return g, nil
}

// Params returns the trace's parameters (every generator setting).
func (g *Generator) Params() map[string]string { return g.params }

// Len is the number of jobs.
func (g *Generator) Len() int { return len(g.drafts) }

// Next fills j with the next job, reusing the capacity of j's task slices
// (pass the same Job again to generate without allocating). It returns
// io.EOF after the last job.
func (g *Generator) Next(j *traces.Job) error {
	i := g.next
	if i == len(g.drafts) {
		return io.EOF
	}
	g.next++
	cfg := &g.cfg
	d := &g.drafts[i]
	sh := cfg.Tasks.Shape(
		ScaleBytes(d.sizes.Input, cfg.Nodes, cfg.OriginalNodes),
		ScaleBytes(d.sizes.Shuffle, cfg.Nodes, cfg.OriginalNodes),
		ScaleBytes(d.sizes.Output, cfg.Nodes, cfg.OriginalNodes))
	if p := cfg.profile; p != nil && sh.Reduces > 0 && sh.Reduces < p.MinReduces {
		sh.Reduces = p.MinReduces
	}
	if sh.Maps+sh.Reduces > maxTasksPerJob {
		return fmt.Errorf("swim: job %d (%s) would have %d maps and %d reduces, more than %d tasks; lower the nodes or raise the block size",
			i, d.name, sh.Maps, sh.Reduces, maxTasksPerJob)
	}
	class := d.class
	if class == "" {
		class = ClassifyHFSP(sh.Maps, sh.Reduces)
	}
	g.pcg.Seed(g.taskSeed, mix(uint64(i)))
	maps, reduces, shuffle := cfg.Durations.appendTasks(sh, g.rng, j.MapDurations[:0], j.ReduceDurations[:0], j.ReduceShuffleBytes[:0])
	*j = traces.Job{
		ID: int64(i), Name: d.name, Submit: d.submit, Pool: "default", Priority: traces.Normal, Class: class,
		MapInputBytes: sh.InputBytes, ShuffleBytes: sh.ShuffleBytes, OutputBytes: sh.OutputBytes,
		MapDurations: maps, ReduceDurations: reduces, ReduceShuffleBytes: shuffle,
		MapMemoryBytes: cfg.Durations.MapMemory, ReduceMemoryBytes: cfg.Durations.ReduceMemory,
	}
	if cfg.Progress != nil && ((i+1)%progressEvery == 0 || i+1 == len(g.drafts)) {
		cfg.Progress(i+1, len(g.drafts))
	}
	return nil
}

// profileDrafts draws cfg.Jobs jobs from the profile: the classes in the
// proportions of the paper, in random order, each job drawn from the model
// within its class; then submit times.
func profileDrafts(cfg *Config) ([]draft, error) {
	p := cfg.profile
	order := make([]int, 0, cfg.Jobs)
	for ci, k := range p.Allocate(cfg.Jobs) {
		for range k {
			order = append(order, ci)
		}
	}
	rc := newStream(cfg.Seed, streamClasses, 0)
	rc.Shuffle(len(order), func(i, j int) { order[i], order[j] = order[j], order[i] })
	rs := newStream(cfg.Seed, streamSizes, 0)
	drafts := make([]draft, len(order))
	for i, ci := range order {
		c := &p.Classes[ci]
		s, err := p.Draw(c, rs)
		if err != nil {
			return nil, err
		}
		drafts[i] = draft{name: p.Name + "-" + strconv.Itoa(i), class: c.Name, sizes: s}
	}
	ra := newStream(cfg.Seed, streamArrivals, 0)
	if cfg.Arrivals == ArrivalsExponential {
		exponentialSubmits(drafts, cfg.MeanGap, ra)
		return drafts, nil
	}
	factor := cfg.MeanGap / p.Model.MeanGap()
	stratifiedSubmits(drafts, ra, func(u float64) float64 { return p.Model.DrawGap(u) * factor })
	return drafts, nil
}

// sourceDrafts samples the SWIM source with the window sampler, or takes
// it whole; submit times are the sampled or recorded ones (rescaled to
// MeanGap if set) or exponential.
func sourceDrafts(cfg *Config) ([]draft, error) {
	recs := cfg.Source.Records
	if cfg.Whole {
		if cfg.Jobs > 0 && cfg.Jobs < len(recs) {
			recs = recs[:cfg.Jobs]
		}
	} else {
		var err error
		if recs, err = cfg.Sampler.Sample(recs, newStream(cfg.Seed, streamSizes, 0)); err != nil {
			return nil, err
		}
	}
	drafts := make([]draft, len(recs))
	for i, r := range recs {
		drafts[i] = draft{name: r.ID, submit: r.Submit, sizes: Sizes{r.InputBytes, r.ShuffleBytes, r.OutputBytes}}
	}
	if len(recs) == 0 {
		return drafts, nil
	}
	sampledMean := recs[len(recs)-1].Submit / float64(len(recs))
	cfg.MeanGap = pick(cfg.MeanGap, sampledMean)
	if cfg.Arrivals == ArrivalsExponential {
		exponentialSubmits(drafts, cfg.MeanGap, newStream(cfg.Seed, streamArrivals, 0))
	} else if sampledMean > 0 {
		factor := cfg.MeanGap / sampledMean
		for i := range drafts {
			drafts[i].submit *= factor
		}
	}
	return drafts, nil
}

func pick(v, dflt float64) float64 {
	if v == 0 {
		return dflt
	}
	return v
}

// exponentialSubmits gives the first job submit time 0 and the others
// exponential gaps of the given mean.
func exponentialSubmits(drafts []draft, mean float64, rng *rand.Rand) {
	stratifiedSubmits(drafts, rng, func(u float64) float64 { return -mean * math.Log1p(-u) })
}

// stratifiedSubmits gives the first job submit time 0 and each next one
// the gap at a stratified uniform (see stratified), so that the sample's
// mean gap stays close to the distribution's.
func stratifiedSubmits(drafts []draft, rng *rand.Rand, gap func(u float64) float64) {
	u := stratified(max(0, len(drafts)-1), rng)
	if len(drafts) > 0 {
		drafts[0].submit = 0
	}
	for i := 1; i < len(drafts); i++ {
		drafts[i].submit = drafts[i-1].submit + gap(u[i-1])
	}
}

// params records every generator parameter under "generator." keys.
func params(cfg *Config) map[string]string {
	f := func(x float64) string { return strconv.FormatFloat(x, 'f', -1, 64) }
	d := cfg.Durations
	p := map[string]string{
		"generator.name":                             "sojourn/swim",
		"generator.version":                          Version,
		"generator.seed":                             strconv.FormatUint(cfg.Seed, 10),
		"generator.nodes":                            strconv.Itoa(cfg.Nodes),
		"generator.original_nodes":                   strconv.Itoa(cfg.OriginalNodes),
		"generator.scale":                            f(cfg.scale()),
		"generator.task_rule":                        cfg.Tasks.Rule.String(),
		"generator.block_size_bytes":                 strconv.FormatInt(cfg.Tasks.BlockSize, 10),
		"generator.bytes_per_reduce":                 strconv.FormatInt(cfg.Tasks.BytesPerReduce, 10),
		"generator.arrivals":                         cfg.Arrivals.String(),
		"generator.mean_gap_s":                       f(cfg.MeanGap),
		"generator.duration.map_startup_s":           f(d.MapStartup),
		"generator.duration.map_rate_bytes_per_s":    f(d.MapRate),
		"generator.duration.reduce_startup_s":        f(d.ReduceStartup),
		"generator.duration.reduce_rate_bytes_per_s": f(d.ReduceRate),
		"generator.duration.task_skew_sigma":         f(d.TaskSkew),
		"generator.duration.shuffle_skew_sigma":      f(d.ShuffleSkew),
		"generator.duration.map_memory_bytes":        strconv.FormatInt(d.MapMemory, 10),
		"generator.duration.reduce_memory_bytes":     strconv.FormatInt(d.ReduceMemory, 10),
	}
	if cfg.Tasks.Rule == RuleSWIM {
		p["generator.swim_partition_bytes"] = strconv.FormatInt(MaxSeqFile(cfg.Tasks.BlockSize), 10)
	}
	if pr := cfg.profile; pr != nil {
		p["generator.profile"] = pr.Name
		m := pr.Model
		p["generator.model"] = fmt.Sprintf("%s, fitted to %d jobs of %s", m.Name, m.Jobs, strings.Join(m.Sources, ", "))
		var cls []string
		for _, c := range pr.Classes {
			cls = append(cls, fmt.Sprintf("%s=%d:maps %d-%d:reduces %d-%d", c.Name, c.Count, c.MinMaps, c.MaxMaps, c.MinReduces, c.MaxReduces))
		}
		p["generator.profile.classes"] = strings.Join(cls, "; ")
		p["generator.profile.min_reduces"] = strconv.Itoa(pr.MinReduces)
		return p
	}
	p["generator.source"] = cfg.Source.Name
	p["generator.source_sha256"] = cfg.Source.SHA256
	p["generator.source_jobs"] = strconv.Itoa(len(cfg.Source.Records))
	if cfg.Whole {
		p["generator.sampler"] = "none: every job of the source, at its own submit time"
	} else {
		p["generator.sampler.samples"] = strconv.Itoa(cfg.Sampler.Samples)
		p["generator.sampler.window_s"] = f(cfg.Sampler.Window)
		p["generator.sampler.max_jobs"] = strconv.Itoa(cfg.Sampler.MaxJobs)
	}
	p["generator.classes"] = "small: <=2 maps, no reduce; big: >500 maps; medium: the rest (HFSP's FB2009 bins)"
	return p
}
