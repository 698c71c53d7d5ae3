package main

import (
	"fmt"
	"time"

	"github.com/urfave/cli/v2"

	"sojourn/swim"
	"sojourn/traces"
)

func inspectCommand() *cli.Command {
	return &cli.Command{
		Name:      "inspect",
		Usage:     "summarize a workload trace",
		ArgsUsage: "FILE",
		Description: "Prints the number of jobs and tasks, the work at reference speed, the classes with their\n" +
			"counts and shares, nearest-rank quantiles (p10, p50, p90, p99, max) of maps and reduces\n" +
			"per job, of input, shuffle and output bytes per job, of map and reduce task durations\n" +
			"and of the gaps between submits, then the parameters recorded in the trace's metadata.",
		Action: func(c *cli.Context) error {
			if c.NArg() != 1 {
				return fmt.Errorf("inspect: want one trace FILE, got %d arguments", c.NArg())
			}
			path := c.Args().First()
			p := newProgress(c.App.ErrWriter, "inspect")
			stop := p.every(func() string { return "reading " + path })
			t, err := traces.Read(path)
			stop()
			if err != nil {
				return err
			}
			fmt.Fprintf(c.App.Writer, "trace     %s\n", path)
			return swim.Summarize(t).Write(c.App.Writer)
		},
	}
}

// every prints msg() every progress interval until the returned stop is
// called, for steps that cannot report progress themselves.
func (p *progress) every(msg func() string) (stop func()) {
	quit, done := make(chan struct{}), make(chan struct{})
	go func() {
		defer close(done)
		tick := time.NewTicker(progressInterval)
		defer tick.Stop()
		for {
			select {
			case <-quit:
				return
			case <-tick.C:
				p.say("%s", msg())
			}
		}
	}()
	return func() { close(quit); <-done }
}
