package main

import (
	"fmt"
	"os"
	"strings"
	"time"

	"github.com/schollz/progressbar/v3"
	"github.com/spf13/cobra"
	"golang.org/x/term"

	"sabot"
	"sabot/internal/report"
	"sabot/internal/store"
)

// newReportRollupCmd is `sabot report rollup`: the store's sums by hour and day of
// the tables' report brought up to the logs (docs/pit.md, "Rollups").
func newReportRollupCmd(e *env) *cobra.Command {
	var dsn string
	var pace float64
	var progress bool
	var kinds []string
	c := &cobra.Command{
		Use:   "rollup",
		Short: "Bring the store's sums by hour and day of the reports up to the tables' logs (docs/pit.md)",
		Long: "rollup reads each table's log past the mark its sums reached, adds each hour's rounds, voids, buy-ins\n" +
			"and cash-outs (the tables' report), each player's rounds and sessions (the players'), the cost of his\n" +
			"errors (valued once, here) and his bets against the count (the advantage report's) to that hour's row and\n" +
			"that day's, and moves the mark, a page at a time: a report over a long period then reads days and hours,\n" +
			"not rounds. The first rollup of a store reads every log once (and values every decision: the cost of\n" +
			"errors takes a few milliseconds a decision; --kind leaves it for later); `sabot serve` rolls up every\n" +
			"--rollup-every (5m), and each report its own kinds before it reports. A table another node or report\n" +
			"rolls up meanwhile is left to it. It prints the tables and records it read.",
		Args: cobra.NoArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			s, err := openExisting(cmd.Context(), dsn)
			if err != nil {
				return err
			}
			defer s.Close()
			if !sabot.CapabilitiesOf(s).Has(sabot.CapRollups) {
				return refused("report rollup: the store keeps no rollups")
			}
			var src report.Source = s
			if pace > 0 {
				src = report.Paced(s, pace)
			}
			done, err := rollUp(cmd, e, src, progress, kinds...)
			if err != nil {
				return failed("report rollup: %s", errCause(err))
			}
			fmt.Fprintf(e.stdout, "rolled up %d tables: %d records read past their marks", done.Tables, done.Records)
			if done.Left > 0 {
				fmt.Fprintf(e.stdout, "; %d tables left to another roller", done.Left)
			}
			fmt.Fprintln(e.stdout)
			return nil
		},
	}
	c.Flags().StringVar(&dsn, "db", store.DefaultDSN, "the store: a SQLite file, or a postgres:// URL")
	c.Flags().Float64Var(&pace, "pace", 0, "after each read of the store, pause this many times as long as the rollup worked since its last pause (as a report's --pace)")
	c.Flags().BoolVar(&progress, "progress", false, "show the progress on stderr even when it is not a terminal")
	c.Flags().StringSliceVar(&kinds, "kind", nil, "roll up these kinds only ("+strings.Join(report.RollupKinds(), ", ")+"; default: all)")
	return c
}

// rollUp runs report.RollUp on src, its progress (the records read) shown
// on stderr where it is a terminal, or where progress says.
func rollUp(cmd *cobra.Command, e *env, src report.Source, progress bool, kinds ...string) (report.Rolled, error) {
	show := progress
	if f, ok := e.stderr.(*os.File); ok && !progress {
		show = term.IsTerminal(int(f.Fd()))
	}
	var tick func(int64)
	if show {
		bar := progressbar.NewOptions64(-1,
			progressbar.OptionSetWriter(e.stderr),
			progressbar.OptionSetDescription("rollup"),
			progressbar.OptionShowCount(),
			progressbar.OptionShowIts(),
			progressbar.OptionSetItsString("records"),
			progressbar.OptionThrottle(200*time.Millisecond),
			progressbar.OptionClearOnFinish())
		defer bar.Finish()
		tick = func(n int64) { bar.Set64(n) }
	}
	return report.RollUp(cmd.Context(), src, tick, kinds...)
}
