package main

import (
	"errors"
	"fmt"
	"io"
	"math"
	"strconv"
	"strings"

	"github.com/urfave/cli/v2"

	"sojourn/internal/atomicfile"
	"sojourn/swim"
	"sojourn/traces"
)

// configFlags maps the fields of swim.Config, as named by
// swim.ConfigError, to the flags that set them.
var configFlags = map[string]string{
	"Profile":                 "--profile",
	"Nodes":                   "--nodes",
	"Tasks.Nodes":             "--nodes",
	"OriginalNodes":           "--original-nodes",
	"Jobs":                    "--jobs",
	"Sampler.MaxJobs":         "--jobs",
	"Tasks.Rule":              "--task-rule",
	"Tasks.BlockSize":         "--block-size",
	"Tasks.BytesPerReduce":    "--bytes-per-reduce",
	"Sampler":                 "--samples/--window",
	"Sampler.Samples":         "--samples",
	"Sampler.Window":          "--window",
	"Whole":                   "--whole",
	"Arrivals":                "--arrivals",
	"MeanGap":                 "--mean-gap",
	"Durations.MapStartup":    "--map-startup",
	"Durations.MapRate":       "--map-rate",
	"Durations.ReduceStartup": "--reduce-startup",
	"Durations.ReduceRate":    "--reduce-rate",
	"Durations.TaskSkew":      "--task-skew",
	"Durations.ShuffleSkew":   "--shuffle-skew",
	"Durations.MapMemory":     "--map-memory",
	"Durations.ReduceMemory":  "--reduce-memory",
}

func generateCommand() *cli.Command {
	d := swim.DefaultDurationModel()
	mib := func(x float64) string { return strconv.FormatFloat(x/swim.MiB, 'g', -1, 64) }
	return &cli.Command{
		Name:      "generate",
		Usage:     "synthesize a workload trace from a profile or a SWIM file",
		ArgsUsage: " ",
		Description: "Jobs come from a profile (--profile fb2009|fb2010: the HFSP paper's workloads, drawn from\n" +
			"models of the Facebook SWIM samples embedded in bench) or from a SWIM workload file\n" +
			"(--swim FILE), cut into windows and resampled the way SWIM's WorkloadSynthesis.pl does.\n" +
			"Bytes are scaled by --nodes/--original-nodes, cut into tasks by --task-rule, and each task\n" +
			"gets a duration from the duration model. Every parameter is recorded in the trace's\n" +
			"metadata; the same flags and seed give the same file, byte for byte.",
		Flags: []cli.Flag{
			&cli.StringFlag{Name: "profile", Usage: "workload profile: fb2009 (100 jobs, 53 small/41 medium/6 big, mean gap 13 s) or fb2010 (93 jobs, 401-5000 maps, 10-1000 reduces, mean gap 38 s)", DefaultText: "none; give --profile or --swim"},
			&cli.StringFlag{Name: "swim", Usage: "SWIM workload `FILE` (TSV) to sample instead of a profile", DefaultText: "none"},
			&cli.Uint64Flag{Name: "seed", Usage: "random seed; every draw derives from it", Value: 1},
			&cli.IntFlag{Name: "nodes", Usage: "target cluster size, in nodes (bytes are scaled by nodes/original-nodes)", Value: swim.DefaultNodes},
			&cli.IntFlag{Name: "original-nodes", Usage: "size of the cluster the bytes come from, in nodes", DefaultText: "100 for a profile (the paper's cluster: bytes unscaled at --nodes 100); for --swim guessed from the file name: 600 for FB-2009, 3000 for FB-2010"},
			&cli.IntFlag{Name: "jobs", Usage: "number of jobs", DefaultText: "100 for fb2009, 93 for fb2010; for --swim every sampled job"},
			&cli.StringFlag{Name: "task-rule", Usage: "how bytes become tasks: natural (maps = ceil(input/block), no reduce without shuffle, reduces = ceil(shuffle/bytes-per-reduce)) or swim (SWIM's replay rules)", Value: swim.RuleNatural.String()},
			&cli.StringFlag{Name: "block-size", Usage: "HDFS block size, in bytes (suffixes KiB, MiB, GiB allowed)", Value: "128MiB"},
			&cli.StringFlag{Name: "bytes-per-reduce", Usage: "bytes each reduce task handles (suffixes allowed)", Value: "128MiB"},
			&cli.IntFlag{Name: "samples", Usage: "windows the SWIM sampler cuts out of the --swim file (--swim only)", DefaultText: fmt.Sprintf("%d, or as many as --jobs needs", swim.DefaultSamples)},
			&cli.Float64Flag{Name: "window", Usage: "length of each sampler window, in seconds (--swim only)", Value: swim.DefaultWindow},
			&cli.BoolFlag{Name: "whole", Usage: "take every job of the --swim file as it is, at its own submit time, instead of sampling windows (the FB-2010 file whole is its day of 24,442 jobs)"},
			&cli.StringFlag{Name: "arrivals", Usage: "submit times: trace (the gaps of the --swim sample or of the profile's model, rescaled to --mean-gap) or exponential (gaps of mean --mean-gap)", DefaultText: "exponential for a profile, trace for --swim"},
			&cli.Float64Flag{Name: "mean-gap", Usage: "mean time between submits, in seconds", DefaultText: "13 for fb2009, 38 for fb2010; for --swim the sampled mean"},
			&cli.Float64Flag{Name: "map-startup", Usage: "start-up time of a map task, in seconds", Value: d.MapStartup},
			&cli.Float64Flag{Name: "map-rate", Usage: "bytes a map task processes per second, in MiB/s", Value: d.MapRate / swim.MiB, DefaultText: mib(d.MapRate) + " (a 128 MiB split takes about 61 s)"},
			&cli.Float64Flag{Name: "reduce-startup", Usage: "start-up time of a reduce task, in seconds", Value: d.ReduceStartup},
			&cli.Float64Flag{Name: "reduce-rate", Usage: "bytes (shuffle + output) a reduce task processes per second after its shuffle, in MiB/s", Value: d.ReduceRate / swim.MiB},
			&cli.Float64Flag{Name: "task-skew", Usage: "σ of the log-normal, mean-preserving multiplier of each task's work (0: none)", Value: d.TaskSkew},
			&cli.Float64Flag{Name: "shuffle-skew", Usage: "σ of the log-normal weights that split a job's shuffle over its reduces (0: equal)", Value: d.ShuffleSkew},
			&cli.StringFlag{Name: "map-memory", Usage: "memory footprint of a map task, in bytes (suffixes allowed)", Value: "512MiB"},
			&cli.StringFlag{Name: "reduce-memory", Usage: "memory footprint of a reduce task, in bytes (suffixes allowed)", Value: "1GiB"},
			&cli.StringFlag{Name: "out", Aliases: []string{"o"}, Usage: "trace `PATH` to write (Arrow IPC; written atomically) (required)"},
		},
		Action: runGenerate,
	}
}

func runGenerate(c *cli.Context) error {
	if c.NArg() > 0 {
		return fmt.Errorf("generate: unexpected argument %q; every input is a flag (see bench generate --help)", c.Args().First())
	}
	out := c.String("out")
	if out == "" {
		return errors.New("--out: missing; want the path of the trace to write")
	}
	cfg, err := generateConfig(c)
	if err != nil {
		return err
	}
	if in := c.String("swim"); in != "" && sameFile(in, out) {
		return fmt.Errorf("--out: %s is the --swim input; writing it would replace the workload being read", out)
	}
	defer removeOnInterrupt(c.App.ErrWriter, "generate")()
	p := newProgress(c.App.ErrWriter, "generate")
	cfg.Progress = p.jobs
	g, err := swim.NewGenerator(cfg)
	if err != nil {
		return flagError(err)
	}
	// Jobs stream to the file one record batch at a time: memory holds
	// the jobs' sizes, not their tasks.
	var maps, reduces int
	err = traces.Create(out, g.Params(), func(w *traces.Writer) error {
		var j traces.Job
		for {
			switch err := g.Next(&j); {
			case errors.Is(err, io.EOF):
				return nil
			case err != nil:
				return flagError(err)
			}
			maps += j.Maps()
			reduces += j.Reduces()
			if err := w.Write(&j); err != nil {
				return err
			}
		}
	})
	if err != nil {
		return err
	}
	p.done()
	w := c.App.Writer
	if _, direct, _ := atomicfile.Resolve(out); direct {
		w = c.App.ErrWriter // the trace itself may be going to stdout
	}
	fmt.Fprintf(w, "wrote %s: %d jobs, %d maps, %d reduces\n", out, g.Len(), maps, reduces)
	return nil
}

// generateConfig turns the flags into a swim.Config; its errors name the
// flag.
func generateConfig(c *cli.Context) (swim.Config, error) {
	cfg := swim.Config{
		Profile:       c.String("profile"),
		Seed:          c.Uint64("seed"),
		Nodes:         c.Int("nodes"),
		OriginalNodes: c.Int("original-nodes"),
		Jobs:          c.Int("jobs"),
		MeanGap:       c.Float64("mean-gap"),
	}
	if c.IsSet("nodes") && cfg.Nodes == 0 {
		return cfg, errors.New("--nodes: 0; want 1 or more")
	}
	if c.IsSet("jobs") && (cfg.Jobs < 1 || cfg.Jobs > swim.MaxJobs) {
		return cfg, fmt.Errorf("--jobs: %d; want 1 to %d (leave it out for the default)", cfg.Jobs, swim.MaxJobs)
	}
	if c.IsSet("original-nodes") && cfg.OriginalNodes == 0 {
		return cfg, errors.New("--original-nodes: 0; want 1 or more")
	}
	if c.IsSet("mean-gap") && cfg.MeanGap == 0 {
		return cfg, errors.New("--mean-gap: 0 s; want a mean > 0 s")
	}
	var err error
	if cfg.Tasks.Rule, err = swim.ParseTaskRule(c.String("task-rule")); err != nil {
		return cfg, fmt.Errorf("--task-rule: %v", err)
	}
	if cfg.Arrivals, err = swim.ParseArrivals(c.String("arrivals")); err != nil {
		return cfg, fmt.Errorf("--arrivals: %v", err)
	}
	d := swim.DurationModel{
		MapStartup: c.Float64("map-startup"), MapRate: c.Float64("map-rate") * swim.MiB,
		ReduceStartup: c.Float64("reduce-startup"), ReduceRate: c.Float64("reduce-rate") * swim.MiB,
		TaskSkew: c.Float64("task-skew"), ShuffleSkew: c.Float64("shuffle-skew"),
	}
	for _, b := range []struct {
		flag string
		dst  *int64
	}{
		{"block-size", &cfg.Tasks.BlockSize}, {"bytes-per-reduce", &cfg.Tasks.BytesPerReduce},
		{"map-memory", &d.MapMemory}, {"reduce-memory", &d.ReduceMemory},
	} {
		if *b.dst, err = parseBytes(c.String(b.flag)); err != nil {
			return cfg, fmt.Errorf("--%s: %v", b.flag, err)
		}
	}
	cfg.Durations = &d
	if path := c.String("swim"); path != "" {
		if cfg.Profile != "" {
			return cfg, errors.New("--swim: give --profile or --swim, not both")
		}
		if cfg.Source, err = swim.ReadTSV(path); err != nil {
			return cfg, err
		}
		if c.IsSet("samples") {
			if cfg.Sampler.Samples = c.Int("samples"); cfg.Sampler.Samples < 1 || cfg.Sampler.Samples > swim.MaxSamples {
				return cfg, fmt.Errorf("--samples: %d; want 1 to %d", cfg.Sampler.Samples, swim.MaxSamples)
			}
		}
		if cfg.Whole = c.Bool("whole"); cfg.Whole {
			for _, f := range []string{"samples", "window"} {
				if c.IsSet(f) {
					return cfg, fmt.Errorf("--%s: a --whole file is not sampled", f)
				}
			}
		} else {
			cfg.Sampler.Window = c.Float64("window")
		}
	} else {
		for _, f := range []string{"samples", "window", "whole"} {
			if c.IsSet(f) {
				return cfg, fmt.Errorf("--%s: applies only with --swim", f)
			}
		}
	}
	if err := cfg.Validate(); err != nil {
		return cfg, flagError(err)
	}
	return cfg, nil
}

// flagError rewrites a swim.ConfigError to name the flag instead of the
// Config field.
func flagError(err error) error {
	var ce *swim.ConfigError
	if errors.As(err, &ce) {
		if f, ok := configFlags[ce.Field]; ok {
			return fmt.Errorf("%s: %s", f, ce.Msg)
		}
	}
	return err
}

// parseBytes reads a byte count: an integer, optionally followed by KiB,
// MiB, GiB or TiB (or K, M, G, T, which mean the same).
func parseBytes(s string) (int64, error) {
	t := strings.TrimSpace(s)
	mult := int64(1)
	for _, u := range []struct {
		suffix string
		m      int64
	}{{"KiB", 1 << 10}, {"MiB", 1 << 20}, {"GiB", 1 << 30}, {"TiB", 1 << 40}, {"K", 1 << 10}, {"M", 1 << 20}, {"G", 1 << 30}, {"T", 1 << 40}, {"B", 1}} {
		if strings.HasSuffix(t, u.suffix) {
			t, mult = strings.TrimSpace(strings.TrimSuffix(t, u.suffix)), u.m
			break
		}
	}
	v, err := strconv.ParseInt(t, 10, 64)
	if err != nil || v < 0 || v > math.MaxInt64/mult {
		return 0, fmt.Errorf("%q is not a byte count; want e.g. 134217728 or 128MiB", s)
	}
	return v * mult, nil
}
