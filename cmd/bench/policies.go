package main

import (
	"fmt"
	"os"

	"github.com/urfave/cli/v2"

	"sojourn/schedulers"
)

func policiesCommand() *cli.Command {
	return &cli.Command{
		Name:  "policies",
		Usage: "list the scheduling policies, one name per line (-v: with their options; --markdown: option tables)",
		Description: `Lists the built-in policies. With --verbose, each policy's summary and its options
as flags with their defaults. With --markdown, each policy's option table in Markdown, as
docs/policies.md shows it; --readme FILE rewrites the tables between the markers of that file
(docs/policies.md) instead.`,
		Flags: []cli.Flag{
			&cli.BoolFlag{Name: "verbose", Aliases: []string{"v"}, Usage: "describe each policy and its options"},
			&cli.BoolFlag{Name: "markdown", Usage: "print each policy's option table in Markdown"},
			&cli.StringFlag{Name: "readme", Usage: "with --markdown: rewrite the option tables between the markers of this Markdown `FILE`"},
		},
		Action: func(c *cli.Context) error {
			w := c.App.Writer
			if c.Bool("markdown") {
				if path := c.String("readme"); path != "" {
					return rewriteReadme(path)
				}
				for _, p := range schedulers.Policies() {
					fmt.Fprintf(w, "### %s\n\n", p.Name)
					if err := schedulers.WriteOptionsMarkdown(w, p); err != nil {
						return err
					}
					fmt.Fprintln(w)
				}
				return nil
			}
			for _, p := range schedulers.Policies() {
				if !c.Bool("verbose") {
					fmt.Fprintln(w, p.Name)
					continue
				}
				fmt.Fprintf(w, "%s: %s\n", p.Name, p.Summary)
				if p.Gangs {
					fmt.Fprintln(w, "  starts a rigid job's maps together (the trace's rigid column)")
				}
				for _, o := range p.Options {
					fmt.Fprintf(w, "  --%s.%s (default %q): %s\n", p.Name, o.Name, o.Default, o.Usage)
				}
			}
			return nil
		},
	}
}

// rewriteReadme replaces the option tables between the markers of the
// Markdown file at path with the code's.
func rewriteReadme(path string) error {
	data, err := os.ReadFile(path)
	if err != nil {
		return err
	}
	text, added := schedulers.UpdateReadme(string(data))
	if len(added) > 0 {
		fmt.Fprintf(os.Stderr, "%s: added a section with the option table of %v; describe the policy above its table\n", path, added)
	}
	if text == string(data) {
		return nil
	}
	return os.WriteFile(path, []byte(text), 0o644)
}
