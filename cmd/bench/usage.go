package main

import (
	"fmt"
	"regexp"
	"runtime/debug"
	"strings"

	"github.com/urfave/cli/v2"

	"sojourn/run"
)

// exitHelp is the exit-status paragraph of bench --help.
const exitHelp = "Exit status: 0 success; 1 error (bad input, a failed run, two sweeps bench compare cannot\n" +
	"compare: one line on stderr naming the flag, file or setting and what was expected); 2 a\n" +
	"regression found by bench compare."

// version is the module version and the VCS revision the binary was built
// from: "(devel), revision 0123abcd…+dirty" for a build of a checkout.
func version() string {
	v := "(devel)"
	if info, ok := debug.ReadBuildInfo(); ok && info.Main.Version != "" {
		v = info.Main.Version
	}
	rev := run.CodeVersion()
	if rev == "unknown" {
		return v + ", revision unknown (built without VCS stamping: go run, or -buildvcs=false)"
	}
	return v + ", revision " + rev
}

// usageConventions applies the command-line conventions to every command:
// a usage error (an unknown flag, a bad value, a missing required flag)
// is one line that ends with where to find help, and required flags say
// so in their help line.
func usageConventions(app *cli.App) {
	app.OnUsageError = usageError("")
	app.Action = rootAction
	for _, c := range app.Commands {
		c.OnUsageError = usageError(c.Name)
		var required []string
		for _, f := range c.Flags {
			if name, ok := unrequire(f); ok {
				required = append(required, name)
			}
		}
		if len(required) > 0 {
			before := c.Before
			cmd := c.Name
			c.Before = func(ctx *cli.Context) error {
				var missing []string
				for _, r := range required {
					if !ctx.IsSet(r) {
						missing = append(missing, "--"+r)
					}
				}
				if len(missing) > 0 {
					return fmt.Errorf("%s: required flag %s missing; see bench %s --help", cmd, strings.Join(missing, ", "), cmd)
				}
				if before != nil {
					return before(ctx)
				}
				return nil
			}
		}
	}
}

// unrequire turns a required flag into one the command checks itself (cli
// would print the whole help) and marks its help line "(required)".
func unrequire(f cli.Flag) (string, bool) {
	switch f := f.(type) {
	case *cli.StringFlag:
		if f.Required {
			f.Required, f.Usage = false, f.Usage+" (required)"
			return f.Name, true
		}
	case *cli.StringSliceFlag:
		if f.Required {
			f.Required, f.Usage = false, f.Usage+" (required)"
			return f.Name, true
		}
	}
	return "", false
}

// singleDash is a flag as Go's flag package names it in its errors.
var singleDash = regexp.MustCompile(`(^|[ :])-([A-Za-z][A-Za-z0-9.-]*)`)

func usageError(cmd string) cli.OnUsageErrorFunc {
	return func(_ *cli.Context, err error, _ bool) error {
		msg := singleDash.ReplaceAllString(err.Error(), "$1--$2")
		if cmd == "" {
			return fmt.Errorf("%s; see bench --help", msg)
		}
		return fmt.Errorf("%s: %s; see bench %s --help", cmd, msg, cmd)
	}
}

// rootAction refuses an unknown command in one line and prints the help
// when no command is given.
func rootAction(c *cli.Context) error {
	if c.NArg() > 0 {
		return fmt.Errorf("unknown command %q; see bench --help", c.Args().First())
	}
	return cli.ShowAppHelp(c)
}
