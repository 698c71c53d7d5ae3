// Command bench generates workloads, replays them against cluster
// schedulers and reproduces the figures of the HFSP paper.
//
// Every subcommand documents its flags in its --help. Errors go to stderr,
// one line each, and make bench exit with status 1; bench compare exits
// with 2 when it finds a regression.
package main

import (
	"fmt"
	"os"

	"github.com/urfave/cli/v2"
)

func main() {
	if err := newApp().Run(os.Args); err != nil {
		fmt.Fprintln(os.Stderr, "bench:", err)
		os.Exit(1)
	}
}

func newApp() *cli.App {
	app := &cli.App{
		Name:    "bench",
		Version: version(),
		Usage:   "benchmark Hadoop cluster schedulers on realistic MapReduce workloads",
		Description: "bench synthesizes SWIM-style workloads from the Facebook 2009/2010 traces (generate),\n" +
			"summarizes them (inspect), replays them on a modelled Hadoop 1.x cluster under a\n" +
			"scheduling policy (replay) and reproduces the HFSP paper's experiments.\n" +
			"Traces and results are Arrow IPC files; see the README for their schemas.\n\n" + exitHelp,
		Commands: []*cli.Command{
			generateCommand(),
			inspectCommand(),
			replayCommand(),
			policiesCommand(),
			experimentCommand(),
			reportCommand(),
			sweepCommand(), mergeCommand(),
			compareCommand(),
			versusCommand(),
		},
		HideHelpCommand: false,
		Suggest:         true,
	}
	usageConventions(app)
	return app
}
