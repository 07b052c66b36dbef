package main

import (
	"encoding/json"
	"errors"
	"io"
	"os"
	"path/filepath"

	"github.com/spf13/cobra"

	"sabot/scenario"
)

func newScenarioCmd(e *env) *cobra.Command {
	return &cobra.Command{
		Use:   "scenario FILE|-",
		Short: "Play one forced-card round through the engine and print its result as JSON",
		Long: `Play one forced-card round (shared/spec/SCENARIOS.md): a profile, a stacked shoe,
bets and a script of decisions. Prints the round's result as JSON; a refused
decision or a malformed file exits with status 2 and one line on stderr.`,
		Args: cobra.ExactArgs(1),
		RunE: func(cmd *cobra.Command, args []string) error {
			var data []byte
			var err error
			dir := ""
			if args[0] == "-" {
				data, err = io.ReadAll(e.stdin)
			} else {
				data, err = os.ReadFile(args[0])
				dir = filepath.Dir(args[0])
			}
			if err != nil {
				return refused("scenario: %v", err)
			}
			in, err := scenario.Parse(data)
			if err != nil {
				return refused("%v", err)
			}
			p, err := in.ResolveProfile(dir)
			if err != nil {
				return refused("%v", err)
			}
			out, err := scenario.Run(in, p)
			if err != nil {
				if errors.Is(err, scenario.ErrRefused) || errors.Is(err, scenario.ErrInput) {
					return refused("%v", err)
				}
				return failed("%v", err)
			}
			enc := json.NewEncoder(e.stdout)
			enc.SetIndent("", "  ")
			return enc.Encode(out)
		},
	}
}
