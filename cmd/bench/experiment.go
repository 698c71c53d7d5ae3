package main

import (
	"fmt"
	"math"
	"os"
	"path/filepath"
	"runtime"
	"sort"
	"strings"
	"time"

	"github.com/urfave/cli/v2"

	"sojourn/reports"
	"sojourn/results"
	"sojourn/run"
	"sojourn/run/experiments"
)

func experimentList() string {
	var b strings.Builder
	for _, e := range experiments.All() {
		fmt.Fprintf(&b, "  %-8s %s\n           %s\n", e.Name, e.Title, e.Description)
	}
	return b.String()
}

var reportFlags = []cli.Flag{
	&cli.StringFlag{Name: "results", Value: filepath.Join("out", "results"), Usage: "directory holding one result directory per experiment"},
	&cli.StringFlag{Name: "reports", Aliases: []string{"out", "o"}, Value: filepath.Join("out", "reports"), Usage: "output directory for index.html, figures/, runs/, claims.md and tables.md (--out is the same flag)"},
}

// experimentFlags are the outputs of bench experiment: --out, as in the
// other commands, is where its results go; --results is its old name.
var experimentFlags = []cli.Flag{
	&cli.StringFlag{Name: "out", Aliases: []string{"o", "results"}, Value: filepath.Join("out", "results"), Usage: "output directory: one result directory per experiment (--results is the same flag)"},
	&cli.StringFlag{Name: "reports", Value: filepath.Join("out", "reports"), Usage: "directory for index.html, figures/, runs/, claims.md and tables.md"},
}

func experimentCommand() *cli.Command {
	flags := append([]cli.Flag{
		&cli.Uint64Flag{Name: "seed", Value: 1, Usage: "seed of the workloads and of the cluster model whose results are written and drawn"},
		&cli.IntFlag{Name: "seeds", Value: 1, Usage: "compute every claim on this many seeds, --seed and the ones after it, with a 95% interval (replayed in memory; only --seed's results are written)"},
		&cli.IntFlag{Name: "parallel", Aliases: []string{"j"}, Value: runtime.GOMAXPROCS(0), DefaultText: "the cores Go may use", Usage: "replays run at once"},
		&cli.BoolFlag{Name: "no-report", Usage: "only write results; do not redraw the report"},
		formatFlag,
	}, experimentFlags...)
	return &cli.Command{
		Name:      "experiment",
		Usage:     "reproduce the HFSP paper's figures and tables (all, or some)",
		ArgsUsage: "all | NAME...",
		Description: "Runs each named experiment: builds its workloads, replays them under the policies it compares\n" +
			"(in parallel), and writes <out>/<name>/ (--out or --results, default out/results) with the traces used,\n" +
			"Arrow per-job, per-task and occupancy results of every replay, manifest.json (seed, every\n" +
			"parameter, code version) and section.json (the figure data, tables and the paper's claims).\n" +
			"Then it redraws the report from every experiment present under --results: <reports>/index.html\n" +
			"(--reports, default out/reports), figures as PNG and SVG, claims.md, tables.md and a page per\n" +
			"replay (runs/<name>/<run>.html: the slots each job held, the per-job table).\n" +
			"Every claim of the papers is computed on each of --seeds seeds (from --seed on) against a tolerance\n" +
			"declared in the code; the claims table gives the mean over seeds with its 95% Student-t interval, on\n" +
			"how many seeds the claim holds, and the verdict: holds when the interval lies inside the tolerance,\n" +
			"partly when only the mean does, does not hold otherwise (docs/experiments.md, The paper's claims).\n" +
			"Same seeds, same outputs, whatever --parallel.\n\nExperiments:\n" + experimentList(),
		Flags:  flags,
		Action: runExperiments,
	}
}

func reportCommand() *cli.Command {
	return &cli.Command{
		Name:      "report",
		Usage:     "redraw the report from the experiments' results",
		ArgsUsage: " ",
		Description: "Reads <results>/<experiment>/section.json of every experiment present (--results, default\n" +
			"out/results) and writes <reports>/index.html, figures/*.png and *.svg, claims.md, tables.md and\n" +
			"runs/<experiment>/<run>.html, a page per replay whose jobs.arrow is there (--reports, default\n" +
			"out/reports).",
		Flags: reportFlags,
		Action: func(c *cli.Context) error {
			if c.NArg() > 0 {
				return fmt.Errorf("report: unexpected argument %q", c.Args().First())
			}
			return renderReport(c)
		},
	}
}

func runExperiments(c *cli.Context) error {
	names := c.Args().Slice()
	if len(names) == 0 {
		return fmt.Errorf("experiment: name the experiments to run (%s) or all", strings.Join(experiments.Names(), ", "))
	}
	var todo []*experiments.Experiment
	for _, n := range names {
		if n == "all" {
			todo = experiments.All()
			break
		}
		ex, err := experiments.Lookup(n)
		if err != nil {
			return err
		}
		todo = append(todo, ex)
	}
	if c.Int("parallel") < 1 {
		return fmt.Errorf("--parallel %d: want at least 1", c.Int("parallel"))
	}
	n := c.Int("seeds")
	if n < 1 || n > 1000 {
		return fmt.Errorf("--seeds %d: want 1 to 1000", n)
	}
	seed := c.Uint64("seed")
	if seed > math.MaxUint64-uint64(n) {
		return fmt.Errorf("--seed %d: too large for --seeds %d", seed, n)
	}
	env := &experiments.Env{Results: c.String("results"), Seed: seed, Version: run.CodeVersion(),
		Workers: c.Int("parallel"), Progress: run.NewProgress(c.App.ErrWriter)}
	for i := range uint64(n) {
		env.Seeds = append(env.Seeds, seed+i)
	}
	switch f, err := results.ParseFormat(c.String("format")); {
	case err != nil:
		return fmt.Errorf("--%v", err)
	case f != results.Arrow:
		env.Convert = func(dir string) error { return results.ConvertDirTo(dir, f) } // result tables only; traces stay Arrow
	}
	start := time.Now()
	for _, ex := range todo {
		t0 := time.Now()
		sec, err := env.Run(ex)
		if err != nil {
			return err
		}
		holds := 0
		for _, cl := range sec.Claims {
			if cl.Verdict == reports.Holds {
				holds++
			}
		}
		fmt.Fprintf(c.App.Writer, "%-7s %-62s %5.1f s  claims: %d of %d hold\n", ex.Name, ex.Title, time.Since(t0).Seconds(), holds, len(sec.Claims))
	}
	fmt.Fprintf(c.App.Writer, "results in %s/ (%.1f s)\n", env.Results, time.Since(start).Seconds())
	if c.Bool("no-report") {
		return nil
	}
	return renderReport(c)
}

// renderReport draws every experiment found under --results, in the
// experiments' order.
func renderReport(c *cli.Context) error {
	var secs []reports.Section
	seeds, versions := map[string]bool{}, map[string]bool{}
	info := reports.Info{Title: "sojourn: the HFSP paper's experiments", Command: "bench experiment"}
	for _, name := range experiments.Names() {
		dir := filepath.Join(c.String("results"), name)
		path := filepath.Join(dir, experiments.SectionFile)
		if _, err := os.Stat(path); os.IsNotExist(err) {
			continue
		}
		s, err := reports.ReadSection(path)
		if err != nil {
			return err
		}
		m, err := experiments.ReadManifest(filepath.Join(dir, experiments.ManifestFile))
		if err != nil {
			return err
		}
		if s.Runs, err = experiments.WriteRunPages(c.String("reports"), dir, name, &m); err != nil {
			return err
		}
		secs = append(secs, s)
		seeds[m.Parameters["seed"]], versions[m.CodeVersion] = true, true
		info.Params = append(info.Params, reports.Param{Key: name,
			Value: fmt.Sprintf("seed %s, %d replays, code %s", m.Parameters["seed"], len(m.Runs), m.CodeVersion)})
	}
	if len(secs) == 0 {
		return fmt.Errorf("report: no experiment results under %s/ (run bench experiment first)", c.String("results"))
	}
	info.Seed = strings.Join(sortedSet(seeds), ", ")
	info.Version = strings.Join(sortedSet(versions), ", ")
	out := c.String("reports")
	if err := reports.Render(out, info, secs); err != nil {
		return err
	}
	fmt.Fprintf(c.App.Writer, "report: %s (%d experiments)\n", filepath.Join(out, "index.html"), len(secs))
	return nil
}

func sortedSet(m map[string]bool) []string {
	out := make([]string, 0, len(m))
	for k := range m {
		out = append(out, k)
	}
	sort.Strings(out)
	return out
}
