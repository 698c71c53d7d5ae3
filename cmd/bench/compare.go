package main

import (
	"fmt"
	"strings"

	"github.com/urfave/cli/v2"

	"sojourn/analysis"
	"sojourn/run/compare"
	"sojourn/run/sweep"
)

// exitRegressed is bench compare's exit status when a metric regressed;
// other errors, sweeps it cannot compare included, exit with 1, so CI can
// tell a regression from a failure.
const exitRegressed = 2

func compareCommand() *cli.Command {
	return &cli.Command{
		Name:      "compare",
		Usage:     "compare a candidate sweep with a baseline, with intervals",
		ArgsUsage: "BASELINE CANDIDATE",
		Description: "BASELINE and CANDIDATE are summary.json files of bench sweep, or directories holding one.\n" +
			"For each workload × policy × parameter combination of the baseline (seeds pooled), compares\n" +
			"  mean     mean sojourn (s)\n" +
			"  median   median sojourn (s; the mean of the two middle values for an even count)\n" +
			"  p95      95th percentile of sojourns (s, nearest rank)\n" +
			"  slowdown mean slowdown: sojourn / the job's ideal run time alone on the empty cluster\n" +
			"           (dimensionless; see bench sweep --help)\n" +
			"  local    node-local fraction of finished maps\n" +
			"and prints a Markdown table on stdout (for a CI job summary): baseline, candidate, the relative\n" +
			"change candidate / baseline - 1 and its percentile bootstrap interval (jobs resampled in pairs\n" +
			"when both sides replayed the same traces: same seeds and trace_sha256; seeded, so the table is\n" +
			"reproducible).\n\n" +
			"A metric regresses when it is worse (higher, or lower for local) by more than --threshold and its\n" +
			"interval excludes no change; a baseline group missing from the candidate is a regression too.\n\n" +
			"Two sweeps are comparable when their \"fixed\" settings (in no group's key) are the same and every\n" +
			"row is paired. Sweeps whose fixed settings differ are refused before any table, naming the\n" +
			"setting and both values (--allow-fixed-change compares them anyway). An unpaired row (other\n" +
			"traces: a baseline older than the trace format, other seeds) has an interval that measures the\n" +
			"spread between jobs rather than the change, so it can hide a regression: stderr gives the count\n" +
			"and why, and the command fails after the table (--allow-unpaired lets it through, with the\n" +
			"warning). Regenerate a stale committed baseline with make baseline.\n\n" +
			"Exit status: 0 no regression; 2 regressions (after the table); 1 any other error, including\n" +
			"sweeps that are not comparable (fixed settings differ, unpaired rows) unless allowed.\n\n" +
			"bench compare compares each policy with itself across two sweeps (two commits, two settings).\n" +
			"To compare one policy with another on the same workloads, use bench versus.",
		Flags: []cli.Flag{
			&cli.Float64Flag{Name: "threshold", Value: 5, Usage: "regression threshold, in `percent` of the baseline's figure"},
			&cli.Float64Flag{Name: "level", Value: 0.95, Usage: "confidence level of the intervals"},
			&cli.IntFlag{Name: "resamples", Value: 2000, Usage: "bootstrap resamples"},
			&cli.Uint64Flag{Name: "bootstrap-seed", Value: 1, Usage: "seed of the bootstrap"},
			&cli.StringFlag{Name: "metrics", Value: strings.Join(compare.MetricNames(), ","), Usage: "metrics to compare, comma-separated"},
			&cli.BoolFlag{Name: "allow-unpaired", Usage: "compare rows whose jobs cannot be paired (other traces or seeds) with a warning, instead of failing"},
			&cli.BoolFlag{Name: "allow-fixed-change", Usage: "compare sweeps whose fixed settings differ, with a warning, instead of refusing them"},
		},
		Action: runCompare,
	}
}

func runCompare(c *cli.Context) error {
	if c.NArg() != 2 {
		return fmt.Errorf("compare: give BASELINE and CANDIDATE (got %d arguments)", c.NArg())
	}
	basePath, candPath := c.Args().Get(0), c.Args().Get(1)
	if n := c.Int("resamples"); n < 1 || n > analysis.MaxResamples {
		return fmt.Errorf("--resamples %d: want 1 to %d", n, analysis.MaxResamples)
	}
	base, err := sweep.ReadSummary(basePath)
	if err != nil {
		return err
	}
	cand, err := sweep.ReadSummary(candPath)
	if err != nil {
		return err
	}
	var metrics []string
	for _, m := range strings.Split(c.String("metrics"), ",") {
		if m = strings.TrimSpace(m); m != "" {
			metrics = append(metrics, m)
		}
	}
	rep, err := compare.Compare(base, cand, compare.Options{Threshold: c.Float64("threshold") / 100,
		Level: c.Float64("level"), Resamples: c.Int("resamples"), Seed: c.Uint64("bootstrap-seed"), Metrics: metrics})
	if err != nil {
		return fmt.Errorf("compare: --%v", err)
	}
	warn := c.App.ErrWriter
	if len(rep.FixedChanges) > 0 {
		var diffs []string
		for _, f := range rep.FixedChanges {
			diffs = append(diffs, f.String())
		}
		if !c.Bool("allow-fixed-change") {
			return fmt.Errorf("compare: the sweeps' fixed settings differ: %s; --allow-fixed-change compares them anyway", strings.Join(diffs, "; "))
		}
		fmt.Fprintf(warn, "bench compare: the sweeps' fixed settings differ (allowed by --allow-fixed-change): %s\n", strings.Join(diffs, "; "))
	}
	if rep.FixedUnknown {
		fmt.Fprintf(warn, "bench compare: fixed settings not checked: a summary does not record them and has no sweep.json beside it\n")
	}
	rep.Markdown(c.App.Writer, basePath, candPath)
	if rep.UnpairedRows > 0 {
		u := rep.Unpaired[0]
		msg := fmt.Sprintf("%d of %d rows unpaired, their intervals measuring the spread between jobs rather than the change: %s: %s",
			rep.UnpairedRows, len(rep.Rows), u.Key, u.Why)
		switch n := len(rep.Unpaired) - 1; {
		case n == 1:
			msg += " (and 1 more group)"
		case n > 1:
			msg += fmt.Sprintf(" (and %d more groups)", n)
		}
		if !c.Bool("allow-unpaired") {
			return fmt.Errorf("compare: %s; regenerate a stale baseline (make baseline) or pass --allow-unpaired", msg)
		}
		fmt.Fprintf(warn, "bench compare: %s (allowed by --allow-unpaired)\n", msg)
	}
	if rep.Regressions > 0 {
		return cli.Exit(fmt.Sprintf("bench compare: %d regressions beyond %g%%", rep.Regressions, c.Float64("threshold")), exitRegressed)
	}
	return nil
}
