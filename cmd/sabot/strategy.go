package main

import (
	"fmt"
	"io"
	"os"

	"github.com/spf13/cobra"

	"sabot/analysis"
	"sabot/internal/chart"
)

func newStrategyCmd(e *env) *cobra.Command {
	var (
		pf       profileFlags
		format   string
		outFile  string
		progress bool
	)
	c := &cobra.Command{
		Use:   "strategy PROFILE",
		Short: "The basic strategy card of a profile: text, CSV (docs/strategy-csv.md), SVG or PNG",
		Long: "strategy prints the total-dependent basic strategy of a profile, found by exact analysis: hard,\n" +
			"soft and pair hands against each dealer up card. --format csv writes the format the simulator\n" +
			"reads (docs/strategy-csv.md); svg and png draw the colour-coded card.",
		Args: profileArg,
		RunE: func(cmd *cobra.Command, args []string) error {
			p, err := pf.resolve(args[0])
			if err != nil {
				return err
			}
			switch format {
			case "text", "csv", "svg", "png":
			default:
				return refused("unknown format %q: want text, csv, svg or png", format)
			}
			if format == "png" && (outFile == "" || outFile == "-") && terminalOut(e.stdout) {
				return refused("strategy: --format png is an image: give --out FILE, or send it to a pipe or a file, not to a terminal")
			}
			prog := newProgress(e, progress, "analysing "+p.Name+": dealer up cards")
			res, err := analysis.Analyze(cmd.Context(), p, analysis.Options{Progress: prog.update})
			prog.finish()
			if err != nil {
				return analysisFailed(err)
			}
			card := *res.Basic
			card.Profile = p.Name
			var w io.Writer = e.stdout
			var f *os.File
			if outFile != "" && outFile != "-" {
				if f, err = os.Create(outFile); err != nil {
					return failed("strategy: %v", err)
				}
				w = f
			}
			switch format {
			case "text":
				err = card.WriteText(w)
			case "csv":
				err = card.WriteCSV(w)
			default:
				err = chart.Write(w, &card, format)
			}
			if f != nil {
				if cerr := f.Close(); err == nil {
					err = cerr
				}
			}
			if err != nil {
				return failed("strategy: %v", err)
			}
			if f != nil {
				fmt.Fprintf(e.stderr, "wrote %s\n", outFile)
			}
			return nil
		},
	}
	pf.add(c)
	c.Flags().StringVar(&format, "format", "text", "text, csv, svg or png")
	c.Flags().StringVar(&outFile, "out", "", "write to FILE instead of standard output")
	c.Flags().BoolVar(&progress, "progress", false, "report progress on stderr even when it is not a terminal")
	return c
}

// terminalOut reports whether a command's output is a terminal (a test sets
// it to say so of its buffer).
var terminalOut = isTerminalWriter
