package main

import (
	"errors"

	"github.com/urfave/cli/v2"
)

func inspectCommand() *cli.Command {
	return &cli.Command{
		Name:  "inspect",
		Usage: "summarize a workload trace (not yet available)",
		Action: func(*cli.Context) error {
			return errors.New("inspect: not yet available")
		},
	}
}
