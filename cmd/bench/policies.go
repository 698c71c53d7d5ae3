package main

import (
	"fmt"

	"github.com/urfave/cli/v2"

	"sojourn/schedulers"
)

func policiesCommand() *cli.Command {
	return &cli.Command{
		Name:  "policies",
		Usage: "list the scheduling policies, one name per line (-v: with their options)",
		Flags: []cli.Flag{&cli.BoolFlag{Name: "verbose", Aliases: []string{"v"}, Usage: "describe each policy and its options"}},
		Action: func(c *cli.Context) error {
			w := c.App.Writer
			for _, p := range schedulers.Policies() {
				if !c.Bool("verbose") {
					fmt.Fprintln(w, p.Name)
					continue
				}
				fmt.Fprintf(w, "%s: %s\n", p.Name, p.Summary)
				for _, o := range p.Options {
					fmt.Fprintf(w, "  --%s.%s (default %q): %s\n", p.Name, o.Name, o.Default, o.Usage)
				}
			}
			return nil
		},
	}
}
