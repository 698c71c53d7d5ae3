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
	"strings"

	"github.com/urfave/cli/v2"
)

func main() {
	if err := newApp().Run(intersperse(os.Args)); err != nil {
		fmt.Fprintln(os.Stderr, "bench:", err)
		os.Exit(1)
	}
}

func newApp() *cli.App {
	app := &cli.App{
		Name:    "bench",
		Version: version(),
		Usage:   "benchmark Hadoop cluster schedulers on realistic MapReduce workloads",
		Description: "bench answers which scheduling policy would make a cluster's jobs finish " +
			"sooner, and by how much (versus). It synthesizes SWIM-style workloads from the Facebook " +
			"2009/2010 traces (generate), imports your own (import) and exports them (export), " +
			"summarizes them (inspect), replays them on a modelled Hadoop 1.x or YARN cluster under " +
			"one policy or several (replay), runs sweeps (sweep, merge, compare) and reproduces the " +
			"HFSP paper's experiments (experiment, report). bench COMMAND --help describes each; " +
			"docs/ holds the guides.\n\n" + exitHelp,
		Commands: []*cli.Command{
			versusCommand(),
			replayCommand(),
			generateCommand(),
			importCommand(), exportCommand(),
			inspectCommand(),
			policiesCommand(),
			experimentCommand(),
			reportCommand(),
			sweepCommand(), mergeCommand(),
			compareCommand(),
		},
		HideHelpCommand: false,
		Suggest:         true,
	}
	usageConventions(app)
	reflowDescriptions(app)
	return app
}

// flagsAfterArgs are the commands whose flags may follow their arguments
// (bench import FORMAT FILE --out trace.arrow); none has a boolean flag.
var flagsAfterArgs = map[string]bool{"import": true, "export": true}

// intersperse moves the flags of an import or export command before its
// arguments, since cli stops reading flags at the first argument.
func intersperse(args []string) []string {
	if len(args) < 3 || !flagsAfterArgs[args[1]] {
		return args
	}
	flags, pos := []string{}, []string{}
	for i := 2; i < len(args); i++ {
		a := args[i]
		switch {
		case a == "--":
			pos = append(pos, args[i+1:]...)
			i = len(args)
		case len(a) > 1 && a[0] == '-':
			flags = append(flags, a)
			if !strings.Contains(a, "=") && a != "-h" && a != "--help" && i+1 < len(args) {
				flags = append(flags, args[i+1])
				i++
			}
		default:
			pos = append(pos, a)
		}
	}
	out := append([]string{args[0], args[1]}, flags...)
	return append(out, pos...)
}
