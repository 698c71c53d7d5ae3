package main

import (
	"errors"

	"github.com/urfave/cli/v2"
)

func generateCommand() *cli.Command {
	return &cli.Command{
		Name:  "generate",
		Usage: "synthesize a workload trace (not yet available)",
		Action: func(*cli.Context) error {
			return errors.New("generate: not yet available")
		},
	}
}
