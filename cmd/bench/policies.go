package main

import (
	"fmt"
	"os"

	"github.com/urfave/cli/v2"

	"sojourn/schedulers"
)

func policiesCommand() *cli.Command {
	return &cli.Command{
		Name:      "policies",
		Usage:     "list the policies (-v POLICY: its options and their defaults)",
		ArgsUsage: "[POLICY...]",
		Description: `Lists the built-in policies, one name per line, or the POLICY arguments
alone. With --verbose, each policy's summary and its options, as the flags
of bench replay and bench versus (--POLICY.OPTION), with their defaults.
With --markdown, each policy's option table in Markdown, as docs/policies.md
shows it; --readme FILE rewrites the tables between the markers of that file
instead.`,
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
			list := schedulers.Policies()
			if c.NArg() > 0 {
				list = nil
				for _, name := range c.Args().Slice() {
					p, err := schedulers.Lookup(name)
					if err != nil {
						return fmt.Errorf("policies: %v", err)
					}
					list = append(list, p)
				}
			}
			for _, p := range list {
				if !c.Bool("verbose") {
					fmt.Fprintln(w, p.Name)
					continue
				}
				fmt.Fprint(w, fold(p.Name+": "+p.Summary, 2, helpWidth))
				if p.Gangs {
					fmt.Fprintln(w, "  starts a rigid job's maps together (the trace's rigid column)")
				}
				for _, o := range p.Options {
					def := o.Default
					if def == "" {
						def = "none"
					}
					fmt.Fprintf(w, "  --%s.%s\n", p.Name, o.Name)
					fmt.Fprint(w, fold("    "+o.Usage+" (default: "+def+")", 4, helpWidth))
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
