package main

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"math"
	"os"
	"path/filepath"
	"runtime"
	"runtime/metrics"
	"runtime/pprof"
	"slices"
	"strings"
	"text/tabwriter"
	"time"

	"github.com/urfave/cli/v2"

	"sojourn/analysis"
	"sojourn/replay"
	"sojourn/results"
	"sojourn/run"
	"sojourn/schedulers"
	execpolicy "sojourn/schedulers/exec"
)

// clusterFlags are the cluster-model flags shared by replay and the
// experiments.
func clusterFlags() []cli.Flag {
	return []cli.Flag{
		&cli.StringFlag{Name: "model", Value: "slots", Usage: "resource model: slots (Hadoop 1.x typed map and reduce slots) or yarn (YARN containers drawn from each node's memory and vcores, an ApplicationMaster per job)"},
		&cli.StringFlag{Name: "cluster", Usage: "cluster file giving the nodes one by one or in groups (docs/cluster-file.md); it replaces --nodes, --nodes-per-rack, the slots, node memory and vcores, and --speed-sigma"},
		&cli.IntFlag{Name: "nodes", Value: replay.DefaultNodes, Usage: "TaskTracker (or NodeManager) nodes"},
		&cli.IntFlag{Name: "nodes-per-rack", Value: replay.DefaultNodesPerRack, Usage: "nodes per rack"},
		&cli.IntFlag{Name: "map-slots", Value: replay.DefaultMapSlots, Usage: "map slots per node"},
		&cli.IntFlag{Name: "reduce-slots", Value: replay.DefaultReduceSlots, Usage: "reduce slots per node"},
		&cli.Float64Flag{Name: "heartbeat", Usage: "heartbeat interval in seconds", DefaultText: "max(0.3, nodes/100), Hadoop 1.x's"},
		&cli.BoolFlag{Name: "oob-heartbeat", Usage: "out-of-band heartbeat when a task ends (Hadoop's option)"},
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
		&cli.Int64Flag{Name: "node-memory-mb", Value: replay.DefaultNodeMemoryMB, Usage: "[yarn] memory a NodeManager offers in MiB (yarn.nodemanager.resource.memory-mb)", Category: "container model (--model yarn)"},
		&cli.Int64Flag{Name: "node-vcores", Value: replay.DefaultNodeVcores, Usage: "[yarn] vcores a NodeManager offers (yarn.nodemanager.resource.cpu-vcores)", Category: "container model (--model yarn)"},
		&cli.Int64Flag{Name: "min-allocation-mb", Value: replay.DefaultMinAllocationMB, Usage: "[yarn] containers are rounded up to a multiple of this many MiB (yarn.scheduler.minimum-allocation-mb)", Category: "container model (--model yarn)"},
		&cli.Int64Flag{Name: "min-allocation-vcores", Value: replay.DefaultMinAllocationVcores, Usage: "[yarn] smallest container in vcores (yarn.scheduler.minimum-allocation-vcores)", Category: "container model (--model yarn)"},
		&cli.Int64Flag{Name: "map-memory-mb", Value: replay.DefaultTaskMemoryMB, Usage: "[yarn] a map's container in MiB when the trace gives no memory (mapreduce.map.memory.mb)", Category: "container model (--model yarn)"},
		&cli.Int64Flag{Name: "reduce-memory-mb", Value: replay.DefaultTaskMemoryMB, Usage: "[yarn] a reduce's container in MiB when the trace gives no memory (mapreduce.reduce.memory.mb)", Category: "container model (--model yarn)"},
		&cli.Int64Flag{Name: "am-memory-mb", Value: replay.DefaultAMMemoryMB, Usage: "[yarn] an ApplicationMaster's container in MiB (yarn.app.mapreduce.am.resource.mb)", Category: "container model (--model yarn)"},
		&cli.Int64Flag{Name: "am-vcores", Value: replay.DefaultAMVcores, Usage: "[yarn] an ApplicationMaster's vcores (yarn.app.mapreduce.am.resource.cpu-vcores)", Category: "container model (--model yarn)"},
		&cli.Float64Flag{Name: "max-am-share", Value: replay.DefaultMaxAMShare, Usage: "[yarn] fraction of the cluster's memory ApplicationMasters may hold (maximum-am-resource-percent); one AM may always start", Category: "container model (--model yarn)"},
	}
}

// clusterConfig is the cluster of the flags. An explicit value is checked
// against its parameter's range (replay.Params, the one list of them),
// so that 0, NaN, a negative or a huge value is an error naming the flag
// rather than a default silently put in its place or a crash.
func clusterConfig(c *cli.Context) (replay.Config, error) {
	for _, p := range replay.Params() {
		if !c.IsSet(p.Name) {
			continue
		}
		var err error
		if p.Integer {
			err = p.CheckInt(c.Int64(p.Name))
		} else {
			err = p.Check(c.Float64(p.Name))
		}
		if err != nil {
			return replay.Config{}, fmt.Errorf("--%s: %w", p.Name, err)
		}
	}
	model, err := replay.ParseModel(c.String("model"))
	if err != nil {
		return replay.Config{}, fmt.Errorf("--model %w", err)
	}
	if model == replay.SlotModel {
		for _, p := range replay.Params() {
			if p.Container && c.IsSet(p.Name) {
				return replay.Config{}, fmt.Errorf("--%s: a parameter of the container model; add --model yarn", p.Name)
			}
		}
	}
	cfg := replay.Config{
		Model: model,
		Nodes: c.Int("nodes"), NodesPerRack: c.Int("nodes-per-rack"),
		MapSlots: c.Int("map-slots"), ReduceSlots: c.Int("reduce-slots"),
		Heartbeat: c.Float64("heartbeat"), OutOfBandHeartbeat: c.Bool("oob-heartbeat"),
		SlowStart: slowStartFlag(c.Float64("slowstart")), RackLocalFactor: c.Float64("rack-local-factor"),
		OffRackFactor: c.Float64("off-rack-factor"), ShuffleBandwidth: c.Float64("shuffle-bandwidth"),
		DiskBandwidth: c.Float64("disk-bandwidth"), MaxSuspendedPerNode: c.Int("max-suspended"),
		Replication: c.Int("replication"), SpeedSigma: c.Float64("speed-sigma"),
		MTBF: c.Float64("mtbf"), MTTR: c.Float64("mttr"), Seed: c.Uint64("seed"),
	}
	if model == replay.ContainerModel {
		cfg.NodeMemoryMB, cfg.NodeVcores = c.Int64("node-memory-mb"), c.Int64("node-vcores")
		cfg.MinAllocationMB, cfg.MinAllocationVcores = c.Int64("min-allocation-mb"), c.Int64("min-allocation-vcores")
		cfg.MapMemoryMB, cfg.ReduceMemoryMB = c.Int64("map-memory-mb"), c.Int64("reduce-memory-mb")
		cfg.AMMemoryMB, cfg.AMVcores = c.Int64("am-memory-mb"), c.Int64("am-vcores")
		cfg.MaxAMShare = c.Float64("max-am-share")
	}
	if path := c.String("cluster"); path != "" {
		for _, n := range []string{"nodes", "nodes-per-rack", "map-slots", "reduce-slots", "node-memory-mb", "node-vcores", "speed-sigma"} {
			if c.IsSet(n) {
				return replay.Config{}, fmt.Errorf("--%s: the cluster file --cluster %s gives the nodes; leave --%s out", n, path, n)
			}
		}
		if err := loadCluster(path, &cfg); err != nil {
			return replay.Config{}, err
		}
	}
	return cfg, nil
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
// named policy.option. They are hidden from --help, which would otherwise
// list a hundred of them: bench policies -v POLICY shows a policy's.
func policyFlags() []cli.Flag {
	var fl []cli.Flag
	for _, p := range schedulers.Policies() {
		for _, o := range p.Options {
			name, usage := p.Name+"."+o.Name, fmt.Sprintf("[%s] %s", p.Name, o.Usage)
			if o.Default == "true" || o.Default == "false" {
				// A real boolean: --fair.preemption, --fair.load-cap=false.
				fl = append(fl, &cli.BoolFlag{Name: name, Value: o.Default == "true", Usage: usage, Category: "policy options", Hidden: true})
				continue
			}
			fl = append(fl, &cli.StringFlag{Name: name, Value: o.Default, Usage: usage, Category: "policy options", Hidden: true})
		}
	}
	return fl
}

// unexpectedArg explains a stray argument; a "true" or "false" is most
// likely the value of a boolean option given after a space.
func unexpectedArg(cmd, arg, hint string) error {
	if arg == "true" || arg == "false" {
		return fmt.Errorf("%s: unexpected argument %q: a boolean flag takes its value after '=' (--fair.preemption=%s), or alone for true", cmd, arg, arg)
	}
	return fmt.Errorf("%s: unexpected argument %q%s", cmd, arg, hint)
}

// policyValues gathers the options of policy name: defaults, then the
// config file, then flags given on the command line.
func policyValues(c *cli.Context, name string) (map[string]string, error) {
	vals := map[string]string{}
	path := c.String("config")
	var lines map[string]int // policy.option: its line in the config file
	if path != "" {
		cfg, ln, err := schedulers.ReadConfigLines(path)
		if err != nil {
			return nil, err
		}
		for k, v := range cfg[name] {
			vals[k] = v
		}
		lines = ln
	}
	p, err := schedulers.Lookup(name)
	if err != nil {
		return nil, err
	}
	for _, o := range p.Options {
		if f := name + "." + o.Name; c.IsSet(f) {
			vals[o.Name] = c.String(f)
			delete(lines, f)
		}
	}
	// Check the values now (a policy's constructor starts nothing), so
	// that a bad value from the config file is named by its file and line.
	if _, err := schedulers.New(name, vals); err != nil {
		for key, ln := range lines {
			if strings.HasPrefix(err.Error(), key+":") {
				return nil, fmt.Errorf("%s:%d: %w", path, ln, err)
			}
		}
		return nil, err
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
		&cli.StringFlag{Name: "scheduler", Aliases: []string{"s"}, Value: "fifo", Usage: "policy, or several comma-separated (summaries side by side, results under --out DIR/POLICY): " + strings.Join(schedulers.Names(), ", ")},
		&cli.StringFlag{Name: "out", Aliases: []string{"o"}, Usage: "directory for jobs.arrow, tasks.arrow and occupancy.arrow (none: print the summary only)"},
		formatFlag,
		&cli.StringFlag{Name: "config", Usage: "policy options file: lines of policy.option = value"},
		&cli.BoolFlag{Name: "force", Usage: "replace the results of an earlier run in --out (refused without it)"},
		&cli.BoolFlag{Name: "tasks", Value: true, Usage: "write tasks.arrow (one row per task segment)"},
		&cli.BoolFlag{Name: "occupancy", Value: true, Usage: "write occupancy.arrow (per-job slot occupancy series)"},
		execFlag("a policy in any language: a child process running `[NAME=]COMMAND` that speaks the exec protocol (docs/exec-protocol.md); " +
			"its results are named NAME, or else by the name it declares. Repeatable"),
		&cli.StringFlag{Name: "cpuprofile", Usage: "write a CPU profile of the replay to `FILE` (go tool pprof)"},
		&cli.StringFlag{Name: "memprofile", Usage: "write a heap profile of the replay to `FILE`, taken when its live heap was largest (go tool pprof: -sample_index=inuse_space for what it held then, alloc_space for all it had allocated)"},
		&cli.IntFlag{Name: "parallel", Aliases: []string{"j"}, Value: runtime.GOMAXPROCS(0), DefaultText: "the cores Go may use", Usage: "policies of --scheduler replayed at once"},
	}
	flags = append(flags, clusterFlags()...)
	flags = append(flags, policyFlags()...)
	return &cli.Command{
		Name:      "replay",
		Usage:     "replay a trace under one policy, or several side by side",
		ArgsUsage: " ",
		Description: "Replays every job of the trace on the cluster model and prints a summary: " +
			"sojourn times (the median the mean of the two middle values, the p95 the nearest rank, " +
			"as in summary.json and the reports), locality and preemptions. With --out it writes " +
			"jobs, tasks and occupancy tables (--format); task rows stream to disk as the replay runs, " +
			"and the files appear together once all are complete.\n\n" +
			"--scheduler takes one policy or several, comma-separated: replayed side by side " +
			"(--parallel at once) on the same trace and cluster, summaries in --scheduler's order, " +
			"results under --out DIR/POLICY. Each --exec adds a policy in any language " +
			"(docs/exec-protocol.md), in place of exec if --scheduler lists it.\n\n" +
			"Policy options are flags named POLICY.OPTION (--hfsp.alpha 0.5, --fair.preemption, " +
			"--fair.preemption=false) or lines of --config; bench policies -v POLICY lists them " +
			"with their defaults. A warning on stderr says when reduce slots were hoarded for " +
			"30 minutes or more by reduces waiting for their job's maps.",
		Flags:  flags,
		Action: runReplay,
	}
}

// replayEntries are the policies bench replay runs: --scheduler's, and
// the external policies of --exec in place of exec if it is listed, after
// the others if not, alone if --scheduler is not given.
func replayEntries(c *cli.Context) ([]entry, error) {
	exts, err := externals(c)
	if err != nil {
		return nil, err
	}
	var list []string
	if c.IsSet("scheduler") || len(exts) == 0 {
		if list, err = schedulerList(c); err != nil {
			return nil, err
		}
	}
	if len(exts) > 0 && !slices.Contains(list, execpolicy.Name) {
		list = append(list, execpolicy.Name)
	}
	var out []entry
	for _, name := range list {
		if name == execpolicy.Name && len(exts) > 0 {
			for _, x := range exts {
				e, err := externalEntry(c, x)
				if err != nil {
					return nil, err
				}
				out = append(out, e)
			}
			continue
		}
		vals, err := policyValues(c, name)
		if err != nil {
			return nil, err
		}
		out = append(out, entry{policy: name, vals: vals, who: name})
	}
	return out, nil
}

// schedulerList reads --scheduler: one policy or several, comma-separated.
func schedulerList(c *cli.Context) ([]string, error) {
	var names []string
	seen := map[string]bool{}
	for _, n := range strings.Split(c.String("scheduler"), ",") {
		if n = strings.TrimSpace(n); n == "" {
			continue
		}
		if _, err := schedulers.Lookup(n); err != nil {
			return nil, fmt.Errorf("--scheduler: %v", err)
		}
		if seen[n] {
			return nil, fmt.Errorf("--scheduler: %s given twice", n)
		}
		seen[n] = true
		names = append(names, n)
	}
	if len(names) == 0 {
		return nil, fmt.Errorf("--scheduler: want a policy name or several, comma-separated: %s", strings.Join(schedulers.Names(), ", "))
	}
	return names, nil
}

func runReplay(c *cli.Context) error {
	if c.NArg() > 0 {
		return unexpectedArg("replay", c.Args().First(), " (the trace goes in --trace)")
	}
	format, err := results.ParseFormat(c.String("format"))
	if err != nil {
		return fmt.Errorf("--%v", err)
	}
	begin := time.Now()
	entries, err := replayEntries(c)
	if err != nil {
		return err
	}
	var selected []string
	for _, e := range entries {
		selected = append(selected, e.policy)
	}
	if err := unselectedOptions(c, selected...); err != nil {
		return err
	}
	for _, flag := range []string{"cpuprofile", "memprofile"} {
		if len(entries) > 1 && c.String(flag) != "" {
			return fmt.Errorf("--%s: profiles one policy; --scheduler and --exec give %d", flag, len(entries))
		}
	}
	if c.Int("parallel") < 1 {
		return fmt.Errorf("--parallel %d: want at least 1", c.Int("parallel"))
	}
	cluster, err := clusterConfig(c)
	if err != nil {
		return err
	}
	if err := checkTaskKinds(cluster, c.String("cluster"), c.String("trace")); err != nil {
		return err
	}
	outDir := func(name string) string {
		if out := c.String("out"); out != "" && len(entries) > 1 {
			return filepath.Join(out, name)
		}
		return c.String("out")
	}
	// The policies' names, and so their directories under --out, are
	// checked before anything runs; an external policy without a name
	// of its own has it once it starts.
	taken := &names{}
	known := func(e entry) bool { return e.policy != execpolicy.Name || e.vals["name"] != "" }
	for _, e := range entries {
		if !known(e) {
			continue
		}
		if err := taken.claim(e.label(), e.who); err != nil {
			return err
		}
		if c.String("out") != "" {
			if err := prepareOut(outDir(e.label()), c.String("trace"), c.Bool("force")); err != nil {
				return err
			}
		}
	}
	defer removeOnInterrupt(c.App.ErrWriter, "replay")()
	// Several policies replay side by side, each streaming the trace from
	// its file (memory holds each one's jobs in flight).
	outs := make([]*run.Outcome, len(entries))
	pool := run.Pool{Workers: c.Int("parallel")}
	_, err = pool.Run(context.Background(), len(entries), func(i int) error {
		e := entries[i]
		dirFor := func(name string) (string, error) {
			if !known(e) {
				if err := taken.claim(name, e.who); err != nil {
					return "", err
				}
				if c.String("out") != "" {
					if err := prepareOut(outDir(name), c.String("trace"), c.Bool("force")); err != nil {
						return "", err
					}
				}
			}
			return outDir(name), nil
		}
		var err error
		outs[i], err = replayOne(c, e, dirFor, cluster, format)
		return err
	})
	if ce := (*run.CellError)(nil); errors.As(err, &ce) {
		return ce.Err
	}
	if err != nil {
		return err
	}
	for _, o := range outs {
		warnHoarding(c.App.ErrWriter, o)
		noteRigid(c.App.ErrWriter, o.Result)
	}
	printSummary(c.App.Writer, outs, time.Since(begin))
	return nil
}

// replayOne replays the trace under one policy of --scheduler or --exec
// into the directory dirFor gives, once the policy has started, from the
// name its results carry ("" with no --out: the summary only), and
// commits the output directory.
func replayOne(c *cli.Context, e entry, dirFor func(name string) (string, error), cluster replay.Config, format results.Format) (*run.Outcome, error) {
	keep := c.String("out") != ""
	prog := newProgress(c.App.ErrWriter, "replay "+e.label())
	cell := &run.Cell{
		// Jobs stream from the file as they arrive: memory holds the jobs
		// in flight, not the whole trace.
		TracePath: c.String("trace"), TraceFile: filepath.Base(c.String("trace")),
		Policy: e.policy, Options: e.vals, Cluster: cluster,
		Tasks: keep && c.Bool("tasks"), Occupancy: keep && c.Bool("occupancy"),
	}
	cell.Cluster.Progress = prog.jobs
	prof, err := newCPUProfile(c.String("cpuprofile"))
	if err != nil {
		return nil, err
	}
	mem, err := newMemProfile(c.String("memprofile"))
	if err != nil {
		prof.close()
		return nil, err
	}
	var out string // the directory, once the policy has its name
	created := false
	named := func(name string) (string, error) {
		d, err := dirFor(name)
		if err != nil || d == "" {
			return "", err
		}
		_, statErr := os.Stat(d)
		out, created = d, os.IsNotExist(statErr)
		return d, nil
	}
	// The profile and the printed wall time cover the replay alone.
	o, err := run.Replay(cell, c.String("out"), run.Options{Format: format, WatchShuffle: true, Named: named,
		BeforeReplay: func() { prof.start(); mem.start() }, AfterReplay: func() { prof.stop(); mem.stop(); prog.done() }})
	if err == nil && prof != nil {
		err = prof.err
	}
	if cerr := prof.close(); err == nil {
		err = cerr
	}
	if merr := mem.close(); err == nil {
		err = merr
	}
	if err != nil {
		if created {
			os.Remove(out) // the directory this run made, if it is empty
		}
		return nil, err
	}
	if out != "" {
		if err := finishOut(out, cell, o, format); err != nil {
			return nil, err
		}
	}
	return o, nil
}

// hoardingWarning is how long reduce slots may sit in shuffle-wait while
// ready reduces wait (replay.ShuffleWatch) before bench replay says so.
const hoardingWarning = 30 * 60 // seconds

// warnHoarding prints one line on w when the run's longest stretch of
// reduce-slot hoarding reaches hoardingWarning.
func warnHoarding(w io.Writer, o *run.Outcome) {
	s := o.Shuffle
	if s == nil || s.Longest.Sec() < hoardingWarning {
		return
	}
	hint := "--slowstart nearer 1 starts reduces later"
	if p := o.Result.Scheduler; p == "hfsp" || p == "fsp" {
		hint = fmt.Sprintf("the public HFSP code's coupling? see --%s.reduce-aging", p)
	}
	fmt.Fprintf(w, "warning: %s: reduce-slot hoarding for %.0f min from t = %.0f s (%.0f min in all): half or more of the %d reduce slots "+
		"held by reduces waiting for their job's maps while other jobs' ready reduces waited (%s)\n",
		o.Result.Scheduler, s.Longest.Sec()/60, s.LongestFrom.Sec(), s.Total.Sec()/60, s.ReduceSlots, hint)
}

// cpuProfile is a CPU profile written to a file, started and stopped
// around the replay; a nil *cpuProfile does nothing.
type cpuProfile struct {
	f       *os.File
	w       errWriter
	running bool
	err     error
}

// errWriter keeps the first write error: the profiler drops its writer's
// errors, and a profile cut short by a full disk must not pass for one.
type errWriter struct {
	w   io.Writer
	err error
}

func (e *errWriter) Write(b []byte) (int, error) {
	if e.err != nil {
		return 0, e.err
	}
	n, err := e.w.Write(b)
	e.err = err
	return n, err
}

// newCPUProfile creates the profile's file, if path is set, so that a bad
// path fails before the replay.
func newCPUProfile(path string) (*cpuProfile, error) {
	f, err := createProfile("cpuprofile", path)
	if f == nil {
		return nil, err
	}
	return &cpuProfile{f: f, w: errWriter{w: f}}, nil
}

// createProfile creates the file of a profile flag, nil if path is empty.
func createProfile(flag, path string) (*os.File, error) {
	if path == "" {
		return nil, nil
	}
	f, err := os.Create(path)
	if err != nil {
		return nil, fmt.Errorf("--%s: %w", flag, err)
	}
	return f, nil
}

func (p *cpuProfile) start() {
	if p == nil {
		return
	}
	if err := pprof.StartCPUProfile(&p.w); err != nil {
		p.err = fmt.Errorf("--cpuprofile: %w", err)
		return
	}
	p.running = true
}

func (p *cpuProfile) stop() {
	if p != nil && p.running {
		pprof.StopCPUProfile()
		p.running = false
	}
}

// close ends the profile and reports a profile that could not be written
// whole.
func (p *cpuProfile) close() error {
	if p == nil {
		return nil
	}
	p.stop()
	err := p.f.Close()
	if p.w.err != nil {
		err = p.w.err
	}
	if err != nil {
		return fmt.Errorf("--cpuprofile: %s: %w", p.f.Name(), err)
	}
	return nil
}

// memProfile is a heap profile taken during the replay when its live
// heap (as of the last garbage collection) was largest, checked every
// memEvery, and written to a file after it; a nil *memProfile does
// nothing.
type memProfile struct {
	f     *os.File
	best  uint64 // the live heap of the profile in buf
	buf   bytes.Buffer
	err   error
	stopc chan struct{}
	done  chan struct{}
}

const memEvery = 250 * time.Millisecond

// newMemProfile creates the profile's file, if path is set, so that a bad
// path fails before the replay.
func newMemProfile(path string) (*memProfile, error) {
	f, err := createProfile("memprofile", path)
	if f == nil {
		return nil, err
	}
	return &memProfile{f: f}, nil
}

func (p *memProfile) start() {
	if p == nil {
		return
	}
	p.stopc, p.done = make(chan struct{}), make(chan struct{})
	go p.watch()
}

// watch takes a profile whenever the live heap has grown by a twentieth
// since the last one, until stop.
func (p *memProfile) watch() {
	defer close(p.done)
	t := time.NewTicker(memEvery)
	defer t.Stop()
	live := []metrics.Sample{{Name: "/gc/heap/live:bytes"}}
	for {
		select {
		case <-p.stopc:
			return
		case <-t.C:
		}
		metrics.Read(live)
		if n := live[0].Value.Uint64(); n > p.best+p.best/20 {
			p.take(n)
		}
	}
}

func (p *memProfile) take(live uint64) {
	p.best = live
	p.buf.Reset()
	p.err = pprof.Lookup("heap").WriteTo(&p.buf, 0)
}

func (p *memProfile) stop() {
	if p == nil || p.stopc == nil {
		return
	}
	close(p.stopc)
	<-p.done
	p.stopc = nil
	if p.buf.Len() == 0 { // a replay shorter than memEvery
		runtime.GC()
		p.take(0)
	}
}

// close writes the profile and reports one that could not be written
// whole.
func (p *memProfile) close() error {
	if p == nil {
		return nil
	}
	p.stop()
	err := p.err
	if err == nil {
		_, err = p.f.Write(p.buf.Bytes())
	}
	if cerr := p.f.Close(); err == nil {
		err = cerr
	}
	if err != nil {
		return fmt.Errorf("--memprofile: %s: %w", p.f.Name(), err)
	}
	return nil
}

// noteRigid says on stderr when the trace's rigid jobs (an SWF log's)
// were replayed under a policy that schedules their maps one by one.
func noteRigid(w io.Writer, r *replay.Result) {
	rigid := 0
	for i := range r.Jobs {
		if r.Jobs[i].Rigid {
			rigid++
		}
	}
	if rigid == 0 {
		return
	}
	if p, err := schedulers.Lookup(r.Scheduler); err == nil && p.Gangs {
		return
	}
	var gangs []string
	for _, p := range schedulers.Policies() {
		if p.Gangs {
			gangs = append(gangs, p.Name)
		}
	}
	fmt.Fprintf(w, "note: %d rigid jobs (whose maps should start together) replayed under %s, which schedules their maps one by one; %s start them together\n",
		rigid, r.Scheduler, strings.Join(gangs, ", "))
}

// localityCell is the summary's node-local fraction: n/a when no map reads
// input data, and with the maps left out (they have no locality) noted.
func localityCell(r *replay.Result) string {
	f, none := r.NodeLocalFraction(), r.NoInputMaps()
	switch {
	case math.IsNaN(f) && none > 0:
		return "n/a (no map reads input data)"
	case math.IsNaN(f):
		return "n/a"
	case none > 0:
		return fmt.Sprintf("%.1f %% (of maps with input; %d without)", 100*f, none)
	}
	return fmt.Sprintf("%.1f %%", 100*f)
}

// printSummary prints the runs' figures side by side, one column per
// policy: each run's wall time is its replay's, total the command's
// (reading the trace and writing the results too). Median and p95 are
// analysis.Summarize's, the definitions of summary.json and the reports.
func printSummary(w io.Writer, outs []*run.Outcome, total time.Duration) {
	tw := tabwriter.NewWriter(w, 0, 0, 2, ' ', 0)
	row := func(label string, f func(r *replay.Result, wall time.Duration) string) {
		fmt.Fprint(tw, label)
		for _, o := range outs {
			fmt.Fprintf(tw, "\t%s", f(o.Result, o.Wall))
		}
		fmt.Fprintln(tw)
	}
	sum := func(r *replay.Result) analysis.Summary {
		soj := make([]float64, len(r.Jobs))
		for i := range r.Jobs {
			soj[i] = r.Jobs[i].Sojourn().Sec()
		}
		return analysis.Summarize(soj)
	}
	row("scheduler", func(r *replay.Result, _ time.Duration) string { return r.Scheduler })
	row("jobs", func(r *replay.Result, _ time.Duration) string { return fmt.Sprint(len(r.Jobs)) })
	row("mean sojourn", func(r *replay.Result, _ time.Duration) string { return fmt.Sprintf("%.1f s", sum(r).Mean) })
	row("median sojourn", func(r *replay.Result, _ time.Duration) string { return fmt.Sprintf("%.1f s", sum(r).Median) })
	row("p95 sojourn", func(r *replay.Result, _ time.Duration) string { return fmt.Sprintf("%.1f s", sum(r).P95) })
	row("makespan", func(r *replay.Result, _ time.Duration) string { return fmt.Sprintf("%.1f s", r.Stats.End.Sec()) })
	row("node-local maps", func(r *replay.Result, _ time.Duration) string {
		return localityCell(r)
	})
	row("kills / suspensions / lost", func(r *replay.Result, _ time.Duration) string {
		var kills, susp, lost int64
		for i := range r.Jobs {
			kills += int64(r.Jobs[i].Kills)
			susp += int64(r.Jobs[i].Suspensions)
			lost += int64(r.Jobs[i].Lost)
		}
		return fmt.Sprintf("%d / %d / %d", kills, susp, lost)
	})
	row("busy slot time", func(r *replay.Result, _ time.Duration) string {
		return fmt.Sprintf("%.0f s (lost %.0f s, swap %.0f s)", r.BusySlotTime.Sec(), r.LostWork.Sec(), r.SwapTime.Sec())
	})
	if outs[0].Result.Config.Model == replay.ContainerModel {
		row("utilisation (memory, vcores)", func(r *replay.Result, _ time.Duration) string {
			return fmt.Sprintf("%.1f %%, %.1f %%", 100*r.Utilisation(0), 100*r.Utilisation(1))
		})
	}
	row("events", func(r *replay.Result, _ time.Duration) string { return fmt.Sprint(r.Stats.Events) })
	row("  heartbeats", func(r *replay.Result, _ time.Duration) string { return fmt.Sprint(r.Stats.Heartbeats) })
	row("  task ends", func(r *replay.Result, _ time.Duration) string { return fmt.Sprint(r.Stats.TaskEnds) })
	row("  job arrivals", func(r *replay.Result, _ time.Duration) string { return fmt.Sprint(r.Stats.Arrivals) })
	row("  node failures, repairs", func(r *replay.Result, _ time.Duration) string { return fmt.Sprint(r.Stats.NodeChanges) })
	row("task events", func(r *replay.Result, _ time.Duration) string { return fmt.Sprint(r.Stats.TaskEvents) })
	row("wall time", func(r *replay.Result, wall time.Duration) string {
		return fmt.Sprintf("%.3f s (%.2fM task events/s)", wall.Seconds(), float64(r.Stats.TaskEvents)/wall.Seconds()/1e6)
	})
	fmt.Fprintf(tw, "total time\t%.3f s (reading the trace and writing results too)\n", total.Seconds())
	if peak := peakRSS(); peak > 0 {
		fmt.Fprintf(tw, "peak memory\t%.0f MiB (maximum resident set)\n", float64(peak)/(1<<20))
	}
	tw.Flush()
	fmt.Fprintln(w, clusterLine(outs[0].Result))
	fmt.Fprintln(w, "events: what the engine processed, heartbeats + task ends + job arrivals + node failures and repairs;\n"+
		"task events: launches, finishes, suspensions, resumptions, kills and losses of task attempts,\n"+
		"most of them within those events (a policy launches tasks during a heartbeat)")
}

// clusterLine describes the replayed cluster in one line.
func clusterLine(r *replay.Result) string {
	cfg := r.Config
	capa := r.ResourceCapacity
	var racks int
	var where string
	if cfg.Cluster != nil {
		racks = int(cfg.Cluster[len(cfg.Cluster)-1].Rack) + 1
		where = fmt.Sprintf("%d nodes in %d racks (cluster file)", cfg.Nodes, racks)
	} else {
		racks = (cfg.Nodes + cfg.NodesPerRack - 1) / cfg.NodesPerRack
		where = fmt.Sprintf("%d nodes in %d racks of %d", cfg.Nodes, racks, cfg.NodesPerRack)
	}
	if cfg.Model == replay.ContainerModel {
		return fmt.Sprintf("cluster: %s, YARN containers from %d MiB and %d vcores in all (minimum %d MiB, %d vcore; ApplicationMasters %d MiB), heartbeat %g s, seed %d",
			where, capa[0], capa[1], cfg.MinAllocationMB, cfg.MinAllocationVcores, cfg.AMMemoryMB, cfg.Heartbeat, cfg.Seed)
	}
	if cfg.Cluster != nil {
		return fmt.Sprintf("cluster: %s, %d map and %d reduce slots in all, heartbeat %g s, seed %d", where, capa[0], capa[1], cfg.Heartbeat, cfg.Seed)
	}
	return fmt.Sprintf("cluster: %s, %d map and %d reduce slots per node (%d and %d in all), heartbeat %g s, seed %d",
		where, cfg.MapSlots, cfg.ReduceSlots, capa[0], capa[1], cfg.Heartbeat, cfg.Seed)
}
