package main

import (
	"fmt"
	"os"
	"os/signal"
	"runtime"
	"strconv"
	"strings"
	"syscall"
	"time"

	"github.com/urfave/cli/v2"

	"sojourn/analysis"
	"sojourn/run"
	"sojourn/run/versus"
	"sojourn/schedulers"
	execpolicy "sojourn/schedulers/exec"
	"sojourn/swim"
)

func versusCommand() *cli.Command {
	flags := []cli.Flag{
		&cli.StringFlag{Name: "baseline", Required: true, Usage: "the policy compared against (e.g. fair): a built-in, an --exec policy's NAME, or exec for the one --exec policy"},
		&cli.StringFlag{Name: "candidate", Required: true, Usage: "the policy whose change is measured (e.g. hfsp), named as --baseline"},
		execFlag("a policy in any language: a child process running `[NAME=]COMMAND` (docs/exec-protocol.md), " +
			"its results named NAME or else by the name it declares; repeat for two, named, to tell them apart in --baseline and --candidate"),
		&cli.StringFlag{Name: "seeds", Value: "1-20", Usage: "seeds `a-b` or a,b,c: each seeds the cluster (HDFS block placement) and generates the --workload workloads"},
		&cli.StringFlag{Name: "workload", Value: "fb2009,fb2010", Usage: "generated workloads, comma-separated: " + strings.Join(swim.ProfileNames(), ", ")},
		&cli.StringSliceFlag{Name: "trace", Usage: "trace `FILE` to replay instead of generated workloads (repeatable; the same for every seed)"},
		&cli.StringFlag{Name: "sweep", Usage: "compare the two policies in the finished sweep `DIR` (bench sweep --out) instead of replaying"},
		&cli.StringFlag{Name: "out", Aliases: []string{"o"}, Usage: "keep the replays as a sweep in `DIR` (bench sweep's layout; resumed if it holds the same)", DefaultText: "a temporary directory, removed"},
		&cli.IntFlag{Name: "parallel", Aliases: []string{"j"}, Value: runtime.GOMAXPROCS(0), DefaultText: "the cores Go may use", Usage: "replays at once"},
		&cli.StringFlag{Name: "format", Value: "text", Usage: "output: text, markdown or json"},
		&cli.Float64Flag{Name: "level", Value: 0.95, Usage: "confidence level of the intervals"},
		&cli.IntFlag{Name: "resamples", Value: 2000, Usage: "bootstrap resamples"},
		&cli.Uint64Flag{Name: "bootstrap-seed", Value: 1, Usage: "seed of the bootstrap"},
		&cli.StringFlag{Name: "block", Usage: "submit-time window of the block bootstrap of one trace: a number of jobs `N` it holds on average, or a duration (10m, 90s)", DefaultText: fmt.Sprint(versus.DefaultWindowJobs) + " jobs"},
		&cli.StringFlag{Name: "resample", Value: versus.ResampleWindows, Usage: "the bootstrap of one trace: windows (blocks of submit-time windows) or seeds (cluster seeds: placement only)"},
		&cli.StringFlag{Name: "config", Usage: "policy options file: lines of policy.option = value"},
	}
	for _, f := range clusterFlags() {
		if f.Names()[0] != "seed" { // --seeds seeds the clusters
			flags = append(flags, f)
		}
	}
	flags = append(flags, policyFlags()...)
	return &cli.Command{
		Name:      "versus",
		Usage:     "which of two policies makes jobs finish sooner, and by how much",
		ArgsUsage: " ",
		Description: "Replays the baseline and the candidate on the same jobs: for each seed, the " +
			"workload generated with that seed (or each --trace file, the same jobs for every seed) " +
			"on a cluster seeded with it. Prints, per workload and job class, each policy's mean, " +
			"median and p95 sojourn and mean slowdown over the jobs of every seed pooled, the change " +
			"candidate ÷ baseline − 1 with a paired percentile bootstrap interval, and a verdict " +
			"(\"HFSP shortens mean sojourn by 16% [12%, 20%] on fb2009, 20 seeds\"; " +
			"\"no significant difference\" when the interval contains 0).\n\n" +
			"Over generated workloads the bootstrap resamples whole seeds. On one trace the seeds " +
			"only move HDFS blocks, so it resamples the trace's jobs in blocks of submit-time windows " +
			"(--block, default " + fmt.Sprint(versus.DefaultWindowJobs) + " jobs on average); " +
			"--resample seeds resamples the seeds instead (placement only). docs/versus.md says what " +
			"the interval measures.\n\n" +
			"Either policy may be external: --exec NAME=COMMAND and NAME in --baseline or --candidate " +
			"(docs/exec-protocol.md). Cluster flags and policy options (--hfsp.alpha 0.5; bench " +
			"policies -v POLICY lists them) apply to every replay; an option of a policy that is " +
			"neither the baseline nor the candidate is an error. With --sweep DIR nothing is " +
			"replayed: the two policies' cells of a finished sweep are compared.",
		Flags:  flags,
		Action: runVersus,
	}
}

// maxVersusSeeds bounds --seeds: a thousand seeds is two thousand
// replays per workload, hours of a small cluster's day each.
const maxVersusSeeds = 1000

// parseSeeds reads "1-20" or "1,2,5".
func parseSeeds(s string) ([]uint64, error) {
	bad := fmt.Errorf("--seeds %q: want a range a-b (a <= b) or a list a,b,c of non-negative integers", s)
	if a, b, ok := strings.Cut(s, "-"); ok {
		lo, err1 := strconv.ParseUint(strings.TrimSpace(a), 10, 64)
		hi, err2 := strconv.ParseUint(strings.TrimSpace(b), 10, 64)
		if err1 != nil || err2 != nil || hi < lo {
			return nil, bad
		}
		if hi-lo >= maxVersusSeeds {
			return nil, fmt.Errorf("--seeds %q: %d seeds; want at most %d (each is two replays per workload)", s, hi-lo+1, maxVersusSeeds)
		}
		var out []uint64
		for x := lo; x <= hi; x++ {
			out = append(out, x)
		}
		return out, nil
	}
	var out []uint64
	if n := strings.Count(s, ",") + 1; n > maxVersusSeeds {
		return nil, fmt.Errorf("--seeds: %d seeds; want at most %d (each is two replays per workload)", n, maxVersusSeeds)
	}
	for _, f := range strings.Split(s, ",") {
		x, err := strconv.ParseUint(strings.TrimSpace(f), 10, 64)
		if err != nil {
			return nil, bad
		}
		out = append(out, x)
	}
	return out, nil
}

func runVersus(c *cli.Context) error {
	if c.NArg() > 0 {
		return unexpectedArg("versus", c.Args().First(), "; every input is a flag")
	}
	base, cand := c.String("baseline"), c.String("candidate")
	if base == cand {
		return fmt.Errorf("--baseline and --candidate are both %s; want two policies", base)
	}
	write := map[string]func(r *versus.Report) error{
		"text":     func(r *versus.Report) error { return r.Text(c.App.Writer) },
		"markdown": func(r *versus.Report) error { return r.Markdown(c.App.Writer) },
		"json":     func(r *versus.Report) error { return r.JSON(c.App.Writer) },
	}[c.String("format")]
	if write == nil {
		return fmt.Errorf("--format %q: want text, markdown or json", c.String("format"))
	}
	var err error
	o := versus.Options{Baseline: base, Candidate: cand, Level: c.Float64("level"), Resamples: c.Int("resamples"), Seed: c.Uint64("bootstrap-seed")}
	if !(o.Level > 0 && o.Level < 1) {
		return fmt.Errorf("--level %v: want a confidence level between 0 and 1", o.Level)
	}
	if o.Resamples < 1 || o.Resamples > analysis.MaxResamples {
		return fmt.Errorf("--resamples %d: want 1 to %d", o.Resamples, analysis.MaxResamples)
	}
	switch o.Resample = c.String("resample"); o.Resample {
	case versus.ResampleWindows, versus.ResampleSeeds:
	default:
		return fmt.Errorf("--resample %q: want %s or %s", o.Resample, versus.ResampleWindows, versus.ResampleSeeds)
	}
	if c.IsSet("block") {
		if o.Resample != versus.ResampleWindows {
			return fmt.Errorf("--block: not with --resample %s", o.Resample)
		}
		if o.Window, o.WindowJobs, err = parseBlock(c.String("block")); err != nil {
			return err
		}
	}
	if dir := c.String("sweep"); dir != "" {
		// The policies are named as the sweep's results are: an external
		// policy by the name it was given or declared.
		for _, f := range []string{"trace", "out", "seeds", "workload", "config", "exec"} {
			if c.IsSet(f) {
				return fmt.Errorf("--%s: not with --sweep, which reads the replays of a finished sweep", f)
			}
		}
		rep, err := versus.Read(dir, o)
		if err != nil {
			return err
		}
		return write(rep)
	}
	exts, err := externals(c)
	if err != nil {
		return err
	}
	var ents [2]entry
	for i, f := range []string{"baseline", "candidate"} {
		if ents[i], err = versusEntry(c, f, exts); err != nil {
			return err
		}
	}
	for _, x := range exts {
		if x.label() != ents[0].label() && x.label() != ents[1].label() {
			return fmt.Errorf("--exec %s: neither --baseline nor --candidate (%s, %s); name it there", x.label(), base, cand)
		}
	}
	if ents[0].label() == ents[1].label() {
		return fmt.Errorf("--baseline and --candidate are both %s; want two policies", ents[0].label())
	}
	seeds, err := parseSeeds(c.String("seeds"))
	if err != nil {
		return err
	}
	if c.Int("parallel") < 1 {
		return fmt.Errorf("--parallel %d: want at least 1", c.Int("parallel"))
	}
	s := &versus.Setup{Baseline: ents[0].label(), Candidate: ents[1].label(), Seeds: seeds, Traces: c.StringSlice("trace"), Fixed: map[string]string{}}
	if len(s.Traces) == 0 || c.IsSet("workload") {
		for _, w := range strings.Split(c.String("workload"), ",") {
			if w = strings.TrimSpace(w); w == "" {
				continue
			}
			if _, err := swim.LookupProfile(w); err != nil {
				return fmt.Errorf("--workload %s: %v", w, err)
			}
			s.Profiles = append(s.Profiles, w)
		}
	}
	cluster, err := clusterConfig(c) // the ranges, naming the flag
	if err != nil {
		return err
	}
	// A cluster file without slots for a trace's task kinds, before any
	// replay (a generated workload's are checked as the sweep starts).
	for _, tr := range s.Traces {
		if err := checkTaskKinds(cluster, c.String("cluster"), tr); err != nil {
			return err
		}
	}
	for _, f := range clusterFlags() {
		if n := f.Names()[0]; n != "seed" && c.IsSet(n) {
			s.Fixed[n] = flagText(c, n)
		}
	}
	for _, e := range ents {
		// A named external policy is one of the sweep's exec; the
		// others' options are policy.option, exec's among them.
		pol := e.label()
		for k, v := range e.vals {
			if pol != e.policy && (k == "command" || k == "name") {
				continue
			}
			s.Fixed[pol+"."+k] = v
		}
		if pol != e.policy {
			if s.Exec == nil {
				s.Exec = map[string]string{}
			}
			s.Exec[pol] = e.vals["command"]
		}
	}
	if err := unselectedOptions(c, ents[0].policy, ents[1].policy); err != nil {
		return err
	}
	dir := c.String("out")
	if dir == "" {
		tmp, err := os.MkdirTemp("", "bench-versus-")
		if err != nil {
			return err
		}
		defer os.RemoveAll(tmp)
		dir = tmp
	}
	ctx, stop := signal.NotifyContext(c.Context, os.Interrupt, syscall.SIGTERM)
	defer stop()
	rep, err := versus.Run(ctx, s, dir, c.Int("parallel"), run.NewProgress(c.App.ErrWriter), o)
	if ctx.Err() != nil && c.String("out") == "" {
		return fmt.Errorf("versus: interrupted; removed the temporary sweep %s", dir)
	}
	if err != nil {
		return err
	}
	return write(rep)
}

// versusEntry is the policy of --baseline or --candidate (flag): a
// built-in, the --exec policy of that name, or exec: the one --exec
// policy, or with none the exec policy of --exec.command.
func versusEntry(c *cli.Context, flag string, exts []external) (entry, error) {
	name := c.String(flag)
	for _, x := range exts {
		if x.name == name || (name == execpolicy.Name && len(exts) == 1) {
			return externalEntry(c, x)
		}
	}
	if name == execpolicy.Name && len(exts) > 1 {
		var ns []string
		for _, x := range exts {
			ns = append(ns, x.label())
		}
		return entry{}, fmt.Errorf("--%s exec: %d --exec policies (%s); name them, --exec NAME=COMMAND, and give the name", flag, len(exts), strings.Join(ns, ", "))
	}
	if _, err := schedulers.Lookup(name); err != nil {
		if len(exts) > 0 {
			return entry{}, fmt.Errorf("--%s: %v, or the NAME of an --exec NAME=COMMAND", flag, err)
		}
		return entry{}, fmt.Errorf("--%s: %v", flag, err)
	}
	vals, err := policyValues(c, name)
	if err != nil {
		return entry{}, err
	}
	return entry{policy: name, vals: vals, who: name}, nil
}

// parseBlock reads --block: a number of jobs ("20") or a duration
// ("10m", "90s").
func parseBlock(s string) (seconds float64, jobs int, err error) {
	if n, err := strconv.Atoi(strings.TrimSpace(s)); err == nil {
		if n < 1 {
			return 0, 0, fmt.Errorf("--block %q: want at least 1 job", s)
		}
		return 0, n, nil
	}
	d, err := time.ParseDuration(strings.TrimSpace(s))
	if err != nil || d <= 0 {
		return 0, 0, fmt.Errorf("--block %q: want a number of jobs (20) or a positive duration (10m, 90s)", s)
	}
	return d.Seconds(), 0, nil
}

// flagText is a set cluster flag's value as text, as a sweep file holds it.
func flagText(c *cli.Context, name string) string {
	for _, f := range c.Command.Flags {
		if f.Names()[0] != name {
			continue
		}
		switch f.(type) {
		case *cli.IntFlag:
			return strconv.Itoa(c.Int(name))
		case *cli.BoolFlag:
			return strconv.FormatBool(c.Bool(name))
		case *cli.Float64Flag:
			return strconv.FormatFloat(c.Float64(name), 'g', -1, 64)
		}
	}
	return c.String(name)
}

// unselectedOptions refuses an option flag of a policy that is not among
// the selected ones: it would silently do nothing.
func unselectedOptions(c *cli.Context, selected ...string) error {
	sel := map[string]bool{}
	for _, s := range selected {
		sel[s] = true
	}
	for _, p := range schedulers.Policies() {
		if sel[p.Name] {
			continue
		}
		for _, o := range p.Options {
			if f := p.Name + "." + o.Name; c.IsSet(f) {
				return fmt.Errorf("--%s: an option of %s, which is not selected (%s)", f, p.Name, strings.Join(selected, ", "))
			}
		}
	}
	return nil
}
