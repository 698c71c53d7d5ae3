package main

import (
	"fmt"
	"io"
	"os"
	"path/filepath"
	"runtime/pprof"
	"sort"
	"strings"
	"text/tabwriter"
	"time"

	"github.com/urfave/cli/v2"

	"sojourn/replay"
	"sojourn/results"
	"sojourn/schedulers"
	"sojourn/traces"
)

// clusterFlags are the cluster-model flags shared by replay and the
// experiments.
func clusterFlags() []cli.Flag {
	return []cli.Flag{
		&cli.IntFlag{Name: "nodes", Value: replay.DefaultNodes, Usage: "TaskTracker nodes"},
		&cli.IntFlag{Name: "nodes-per-rack", Value: replay.DefaultNodesPerRack, Usage: "nodes per rack"},
		&cli.IntFlag{Name: "map-slots", Value: replay.DefaultMapSlots, Usage: "map slots per node"},
		&cli.IntFlag{Name: "reduce-slots", Value: replay.DefaultReduceSlots, Usage: "reduce slots per node"},
		&cli.Float64Flag{Name: "heartbeat", Usage: "heartbeat interval in seconds (default: Hadoop 1.x's max(0.3, nodes/100))"},
		&cli.BoolFlag{Name: "oob-heartbeat", Usage: "out-of-band heartbeat when a task ends (Hadoop's option; off by default)"},
		&cli.Float64Flag{Name: "slowstart", Value: replay.DefaultSlowStart, Usage: "fraction of maps finished before reduces launch"},
		&cli.Float64Flag{Name: "rack-local-factor", Value: replay.DefaultRackLocalFactor, Usage: "duration multiplier of a rack-local map"},
		&cli.Float64Flag{Name: "off-rack-factor", Value: replay.DefaultOffRackFactor, Usage: "duration multiplier of an off-rack map"},
		&cli.Float64Flag{Name: "shuffle-bandwidth", Value: replay.DefaultShuffleBandwidth, Usage: "node shuffle bandwidth in bytes/s, split over its reduce slots"},
		&cli.Float64Flag{Name: "disk-bandwidth", Value: replay.DefaultDiskBandwidth, Usage: "swap bandwidth in bytes/s for suspended tasks"},
		&cli.IntFlag{Name: "max-suspended", Value: replay.DefaultMaxSuspended, Usage: "suspended tasks a node may hold"},
		&cli.IntFlag{Name: "replication", Value: replay.DefaultReplication, Usage: "HDFS replicas per block"},
		&cli.Float64Flag{Name: "speed-sigma", Usage: "log-normal sigma of node speeds (0: identical nodes)"},
		&cli.Float64Flag{Name: "mtbf", Usage: "mean time between failures of a node in seconds (0: no failures)"},
		&cli.Float64Flag{Name: "mttr", Value: replay.DefaultMTTR, Usage: "mean time to repair a node in seconds"},
		&cli.Uint64Flag{Name: "seed", Value: 1, Usage: "seed of block placement, node speeds and failures"},
	}
}

func clusterConfig(c *cli.Context) replay.Config {
	return replay.Config{
		Nodes: c.Int("nodes"), NodesPerRack: c.Int("nodes-per-rack"),
		MapSlots: c.Int("map-slots"), ReduceSlots: c.Int("reduce-slots"),
		Heartbeat: c.Float64("heartbeat"), OutOfBandHeartbeat: c.Bool("oob-heartbeat"),
		SlowStart: slowStartFlag(c.Float64("slowstart")), RackLocalFactor: c.Float64("rack-local-factor"),
		OffRackFactor: c.Float64("off-rack-factor"), ShuffleBandwidth: c.Float64("shuffle-bandwidth"),
		DiskBandwidth: c.Float64("disk-bandwidth"), MaxSuspendedPerNode: c.Int("max-suspended"),
		Replication: c.Int("replication"), SpeedSigma: c.Float64("speed-sigma"),
		MTBF: c.Float64("mtbf"), MTTR: c.Float64("mttr"), Seed: c.Uint64("seed"),
	}
}

// slowStartFlag maps a user's 0 (launch reduces at once) to the engine's
// "negative means zero".
func slowStartFlag(v float64) float64 {
	if v == 0 {
		return -1
	}
	return v
}

// policyFlags declares one flag per option of every registered policy,
// named policy.option, so that --help lists them all with their defaults.
func policyFlags() []cli.Flag {
	var fl []cli.Flag
	for _, p := range schedulers.Policies() {
		for _, o := range p.Options {
			fl = append(fl, &cli.StringFlag{Name: p.Name + "." + o.Name, Value: o.Default,
				Usage: fmt.Sprintf("[%s] %s", p.Name, o.Usage), Category: "policy options"})
		}
	}
	return fl
}

// policyValues gathers the options of policy name: defaults, then the
// config file, then flags given on the command line.
func policyValues(c *cli.Context, name string) (map[string]string, error) {
	vals := map[string]string{}
	if path := c.String("config"); path != "" {
		cfg, err := schedulers.ReadConfig(path)
		if err != nil {
			return nil, err
		}
		for k, v := range cfg[name] {
			vals[k] = v
		}
	}
	p, err := schedulers.Lookup(name)
	if err != nil {
		return nil, err
	}
	for _, o := range p.Options {
		if f := name + "." + o.Name; c.IsSet(f) {
			vals[o.Name] = c.String(f)
		}
	}
	return vals, nil
}

func policyList() string {
	var b strings.Builder
	for _, p := range schedulers.Policies() {
		fmt.Fprintf(&b, "  %-14s %s\n", p.Name, p.Summary)
	}
	return b.String()
}

func replayCommand() *cli.Command {
	flags := []cli.Flag{
		&cli.StringFlag{Name: "trace", Aliases: []string{"t"}, Required: true, Usage: "workload trace (Arrow file from bench generate)"},
		&cli.StringFlag{Name: "scheduler", Aliases: []string{"s"}, Value: "fifo-minimal", Usage: "policy: " + strings.Join(schedulers.Names(), ", ")},
		&cli.StringFlag{Name: "out", Aliases: []string{"o"}, Usage: "directory for jobs.arrow, tasks.arrow and occupancy.arrow (none: print the summary only)"},
		formatFlag,
		&cli.StringFlag{Name: "config", Usage: "policy options file: lines of policy.option = value"},
		&cli.BoolFlag{Name: "tasks", Value: true, Usage: "write tasks.arrow (one row per task segment)"},
		&cli.BoolFlag{Name: "occupancy", Value: true, Usage: "write occupancy.arrow (per-job slot occupancy series)"},
		&cli.StringFlag{Name: "cpuprofile", Usage: "write a CPU profile of the replay to `FILE` (go tool pprof)"},
	}
	flags = append(flags, clusterFlags()...)
	flags = append(flags, policyFlags()...)
	return &cli.Command{
		Name:      "replay",
		Usage:     "replay a trace on the modelled cluster under one policy",
		ArgsUsage: " ",
		Description: "Replays every job of the trace on a Hadoop 1.x cluster model and prints a summary.\n" +
			"With --out, writes per-job, per-task and occupancy results as Arrow files; task and occupancy\n" +
			"rows go to disk as the replay runs (a batch of them in memory), so a day of a 3,000-node\n" +
			"cluster needs under 1 GiB. An interrupted run never leaves a half-written file under a result's name.\n\nPolicies:\n" + policyList(),
		Flags:  flags,
		Action: runReplay,
	}
}

func runReplay(c *cli.Context) error {
	if c.NArg() > 0 {
		return fmt.Errorf("replay: unexpected argument %q (the trace goes in --trace)", c.Args().First())
	}
	format, err := results.ParseFormat(c.String("format"))
	if err != nil {
		return fmt.Errorf("--%v", err)
	}
	begin := time.Now()
	// Jobs stream from the file as they arrive: memory holds the jobs in
	// flight, not the whole trace.
	src, err := traces.Open(c.String("trace"))
	if err != nil {
		return err
	}
	defer src.Close()
	tr := &traces.Trace{Params: src.Params()}
	name := c.String("scheduler")
	vals, err := policyValues(c, name)
	if err != nil {
		return err
	}
	sched, err := schedulers.New(name, vals)
	if err != nil {
		return err
	}
	cfg := clusterConfig(c)
	cfg.RecordTasks = c.String("out") != "" && c.Bool("tasks")
	cfg.RecordOccupancy = c.String("out") != "" && c.Bool("occupancy")
	prog := newProgress(c.App.ErrWriter, "replay "+name)
	cfg.Progress = prog.jobs
	stopProfile, err := startCPUProfile(c.String("cpuprofile"))
	if err != nil {
		return err
	}
	out := c.String("out")
	start := time.Now()
	var res *replay.Result
	var stream *results.Stream
	var md map[string]string
	e, err := replay.NewFromSource(src, sched, cfg)
	if err == nil {
		md = results.RunMetadata(sched.Name(), e.Config(), tr, map[string]string{"trace.file": filepath.Base(c.String("trace"))})
		for k, v := range vals {
			md["policy."+k] = v
		}
	}
	if err == nil && (cfg.RecordTasks || cfg.RecordOccupancy) {
		// Task and occupancy rows go to disk as they come: the FB-2010
		// day's would take gigabytes of memory.
		stream, err = results.NewStream(out, md, cfg.RecordTasks, cfg.RecordOccupancy)
		if err == nil {
			e.StreamRows(stream)
		}
	}
	if err == nil {
		res, err = e.Run()
	}
	stopProfile()
	prog.done()
	if err != nil {
		if stream != nil {
			stream.Abort()
		}
		return err
	}
	wall := time.Since(start)
	if out != "" {
		if stream != nil {
			if err := stream.Commit(); err != nil {
				return err
			}
		}
		if err := results.WriteJobs(filepath.Join(out, results.JobsFile), res, md); err != nil {
			return err
		}
		if format == results.Parquet {
			if err := results.ConvertResults(out); err != nil {
				return err
			}
		}
	}
	printSummary(c.App.Writer, res, wall, time.Since(begin))
	return nil
}

// startCPUProfile starts a CPU profile into path, if set, and returns the
// function that stops it.
func startCPUProfile(path string) (func(), error) {
	if path == "" {
		return func() {}, nil
	}
	f, err := os.Create(path)
	if err != nil {
		return nil, err
	}
	if err := pprof.StartCPUProfile(f); err != nil {
		f.Close()
		return nil, fmt.Errorf("--cpuprofile: %w", err)
	}
	return func() { pprof.StopCPUProfile(); f.Close() }, nil
}

// printSummary prints the run's figures: wall is the replay's wall time,
// total the command's (reading the trace and writing the results too).
func printSummary(w io.Writer, r *replay.Result, wall, total time.Duration) {
	soj := make([]float64, len(r.Jobs))
	var kills, susp, lost int64
	for i := range r.Jobs {
		soj[i] = r.Jobs[i].Sojourn().Sec()
		kills += int64(r.Jobs[i].Kills)
		susp += int64(r.Jobs[i].Suspensions)
		lost += int64(r.Jobs[i].Lost)
	}
	sort.Float64s(soj)
	q := func(p float64) float64 {
		if len(soj) == 0 {
			return 0
		}
		return soj[min(len(soj)-1, int(p*float64(len(soj))))]
	}
	tw := tabwriter.NewWriter(w, 0, 0, 2, ' ', 0)
	fmt.Fprintf(tw, "scheduler\t%s\n", r.Scheduler)
	fmt.Fprintf(tw, "jobs\t%d\n", len(r.Jobs))
	fmt.Fprintf(tw, "mean sojourn\t%.1f s\n", r.MeanSojourn())
	fmt.Fprintf(tw, "median sojourn\t%.1f s\n", q(0.5))
	fmt.Fprintf(tw, "p95 sojourn\t%.1f s\n", q(0.95))
	fmt.Fprintf(tw, "makespan\t%.1f s\n", r.Stats.End.Sec())
	fmt.Fprintf(tw, "node-local maps\t%.1f %%\n", 100*r.NodeLocalFraction())
	fmt.Fprintf(tw, "kills / suspensions / lost\t%d / %d / %d\n", kills, susp, lost)
	fmt.Fprintf(tw, "busy slot time\t%.0f s (lost %.0f s, swap %.0f s)\n", r.BusySlotTime.Sec(), r.LostWork.Sec(), r.SwapTime.Sec())
	fmt.Fprintf(tw, "events\t%d (%d task events, %d heartbeats)\n", r.Stats.Events, r.Stats.TaskEvents, r.Stats.Heartbeats)
	fmt.Fprintf(tw, "wall time\t%.3f s (%.2fM task events/s)\n", wall.Seconds(), float64(r.Stats.TaskEvents)/wall.Seconds()/1e6)
	fmt.Fprintf(tw, "total time\t%.3f s (reading the trace and writing results too)\n", total.Seconds())
	if peak := peakRSS(); peak > 0 {
		fmt.Fprintf(tw, "peak memory\t%.0f MiB (maximum resident set)\n", float64(peak)/(1<<20))
	}
	tw.Flush()
}
