package main

import (
	"fmt"

	"github.com/urfave/cli/v2"

	"sojourn/run/sweep"
)

func mergeCommand() *cli.Command {
	return &cli.Command{
		Name:      "merge",
		Usage:     "join a sweep's shards and write its summary",
		ArgsUsage: "SHARD_DIR...",
		Description: "Copies every cell and trace of the shard directories into --out (each cell atomically) and writes\n" +
			"--out/summary.json. Every shard must hold the same sweep.json (same sweep file, build and --format);\n" +
			"a cell present twice must be identical, and a cell in no shard is an error naming it. --out may be\n" +
			"one of the shard directories. The merged directory is byte-identical to an unsharded run of the\n" +
			"sweep, whatever the number of shards or the order they are given in.",
		Flags: []cli.Flag{
			&cli.StringFlag{Name: "out", Aliases: []string{"o"}, Required: true, Usage: "merged output `DIR`"},
		},
		Action: func(c *cli.Context) error {
			if c.NArg() == 0 {
				return fmt.Errorf("merge: give the shards' output directories")
			}
			rep, err := sweep.Merge(c.String("out"), c.Args().Slice())
			if err != nil {
				return err
			}
			fmt.Fprintf(c.App.Writer, "merged %d cells (%d copied) into %s; summary: %s/%s\n",
				rep.Cells, rep.Copied, c.String("out"), c.String("out"), sweep.SummaryFile)
			return nil
		},
	}
}
