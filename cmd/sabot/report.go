package main

import (
	"encoding/json"
	"fmt"
	"io"
	"text/tabwriter"
	"time"

	"github.com/spf13/cobra"

	"sabot"
	"sabot/internal/report"
	"sabot/internal/store"
)

// reportFlags are the flags every report takes: the store, the period and
// the form.
type reportFlags struct {
	dsn, from, to string
	asJSON, asCSV bool
	pace          float64
	cpuProfile    string
}

func (f *reportFlags) add(c *cobra.Command) {
	c.Flags().StringVar(&f.dsn, "db", store.DefaultDSN, "the store: a SQLite file, or a postgres:// URL")
	c.Flags().StringVar(&f.from, "from", "", "the period's start: an RFC 3339 time or a day, 2026-11-22 (00:00 UTC); default: a day before --to")
	c.Flags().StringVar(&f.to, "to", "", "the period's end, not included: an RFC 3339 time or a day (00:00 UTC); default: now")
	c.Flags().BoolVar(&f.asJSON, "json", false, "print one JSON object (docs/pit.md: the schema)")
	c.Flags().BoolVar(&f.asCSV, "csv", false, "print CSV, a header and a row per table, profile and the total (docs/pit.md)")
	c.Flags().StringVar(&f.cpuProfile, "cpuprofile", "", "write a CPU profile of the report (go tool pprof) to this file")
	c.Flags().Float64Var(&f.pace, "pace", 0, "after each read of the store, pause this many times as long as the report worked since its last pause (1: busy half the time at most), to leave the processor and the database to the tables")
}

// source is the store a report reads, paced by --pace.
func (f *reportFlags) source(s report.Source) report.Source {
	if f.pace > 0 {
		return report.Paced(s, f.pace)
	}
	return s
}

// reportTime reads a time of --from or --to.
func reportTime(flag, s string) (time.Time, error) {
	if t, err := time.Parse(time.RFC3339, s); err == nil {
		return t.UTC(), nil
	}
	if t, err := time.Parse(time.DateOnly, s); err == nil {
		return t, nil
	}
	return time.Time{}, refused("--%s %q is neither an RFC 3339 time (2026-11-22T06:00:00Z) nor a day (2026-11-22)", flag, s)
}

func (f *reportFlags) period() (report.Period, error) {
	if f.asJSON && f.asCSV {
		return report.Period{}, refused("--json and --csv: choose one")
	}
	to := time.Now().UTC()
	if f.to != "" {
		t, err := reportTime("to", f.to)
		if err != nil {
			return report.Period{}, err
		}
		to = t
	}
	from := to.Add(-24 * time.Hour)
	if f.from != "" {
		t, err := reportTime("from", f.from)
		if err != nil {
			return report.Period{}, err
		}
		from = t
	}
	p := report.Period{From: from, To: to}
	if !from.Before(to) {
		return p, refused("--from %s is not before --to %s", from.Format(time.RFC3339), to.Format(time.RFC3339))
	}
	return p, nil
}

func newReportCmd(e *env) *cobra.Command {
	c := &cobra.Command{
		Use:   "report",
		Short: "The pit's reports from the store: tables' results against theory, players' ratings (docs/pit.md)",
		Args:  cobra.NoArgs,
	}
	var tf reportFlags
	var rollup bool
	tables := &cobra.Command{
		Use:   "tables",
		Short: "Each table's and profile's rounds, stakes, drop, win and hold over a period, against the theoretical win and its band",
		Long: "tables reads the rounds closed in [--from, --to) from the store and prints, per table, per profile\n" +
			"(with its rules) and in total: rounds, hands, stakes, a physical table's drop, the house's win, hold %,\n" +
			"the theoretical win (initial stakes × the exact house edge of the rules each round was dealt under) and\n" +
			"the band where the win should lie (95 %), with the ledger's house net for the same rounds.\n" +
			"The analysis of each rule set takes a few seconds the first time. See docs/pit.md.",
		Args: cobra.NoArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			p, err := tf.period()
			if err != nil {
				return err
			}
			stopProfile, err := startCPUProfile("report", tf.cpuProfile)
			if err != nil {
				return err
			}
			defer stopProfile()
			s, err := openExistingRead(cmd.Context(), tf.dsn)
			if err != nil {
				return err
			}
			defer s.Close()
			if rollup && sabot.CapabilitiesOf(s).Has(sabot.CapRollups) && !store.ReadOnly(s) {
				if _, err := rollUp(cmd, e, tf.source(s), false, report.RollupTables); err != nil {
					return failed("report tables: the rollup: %s (--rollup=false reads without it)", errCause(err))
				}
			}
			r, err := report.TablesReport(cmd.Context(), tf.source(s), report.NewTheories(), p)
			if err != nil {
				return failed("report tables: %s", errCause(err))
			}
			switch {
			case tf.asJSON:
				enc := json.NewEncoder(e.stdout)
				enc.SetIndent("", "  ")
				return enc.Encode(r)
			case tf.asCSV:
				return report.WriteTablesCSV(e.stdout, r)
			}
			return writeTablesText(e.stdout, r)
		},
	}
	tf.add(tables)
	tables.Flags().BoolVar(&rollup, "rollup", true, "bring the store's sums by hour and day up to the logs first, as `sabot report rollup` does (a write; the first time it reads every log once); false: read what is rolled up and the logs past it (a read-only store)")

	var (
		pf                 reportFlags
		player             string
		noErrors, progress bool
		prollup            bool
	)
	players := &cobra.Command{
		Use:   "players",
		Short: "Each player's rating over a period: sessions, time, rounds, average bet, theoretical and actual win, the cost of his errors",
		Long: "players reads the rounds closed in [--from, --to) and rates each player who bet in them: sessions\n" +
			"(a run of rounds at one table, broken by 15 minutes without one), time played, rounds, average bet,\n" +
			"theoretical win, the house's actual win, and the cost of his errors: each hit, stand, double, split\n" +
			"and surrender on an unsplit hand valued exactly for his cards, the up card and the shoe as he saw\n" +
			"it (sabot ev's calculator), against the best decision, times his stake. The store's sums by hour and\n" +
			"day of the players (and of the cost of errors, valued once) are brought up to the logs first, as\n" +
			"`sabot report rollup` does: the first time it reads, and values, every round. See docs/pit.md.",
		Args: cobra.NoArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			p, err := pf.period()
			if err != nil {
				return err
			}
			stopProfile, err := startCPUProfile("report", pf.cpuProfile)
			if err != nil {
				return err
			}
			defer stopProfile()
			s, err := openExistingRead(cmd.Context(), pf.dsn)
			if err != nil {
				return err
			}
			defer s.Close()
			if prollup && sabot.CapabilitiesOf(s).Has(sabot.CapRollups) && !store.ReadOnly(s) {
				kinds := []string{report.RollupPlayers}
				if !noErrors {
					kinds = append(kinds, report.RollupErrors)
				}
				if _, err := rollUp(cmd, e, pf.source(s), false, kinds...); err != nil {
					return failed("report players: the rollup: %s (--rollup=false reads without it)", errCause(err))
				}
			}
			r, err := report.PlayersReport(cmd.Context(), pf.source(s), report.NewTheories(), p, report.PlayersOptions{Player: player, NoErrors: noErrors, Progress: progressTo(e, progress)})
			if err != nil {
				return failed("report players: %s", errCause(err))
			}
			switch {
			case pf.asJSON:
				enc := json.NewEncoder(e.stdout)
				enc.SetIndent("", "  ")
				return enc.Encode(r)
			case pf.asCSV:
				return report.WritePlayersCSV(e.stdout, r)
			}
			return writePlayersText(e.stdout, r)
		},
	}
	pf.add(players)
	players.Flags().StringVar(&player, "player", "", "rate this player only")
	players.Flags().BoolVar(&progress, "progress", false, "say on stderr how many rounds the report has read from the log, every 1,000 rounds")
	players.Flags().BoolVar(&noErrors, "no-errors", false, "leave out the cost of errors (a few milliseconds a decision where it is not rolled up)")
	players.Flags().BoolVar(&prollup, "rollup", true, "bring the store's sums by hour and day of the players (and of the cost of errors, unless --no-errors) up to the logs first, as `sabot report rollup` does (a write); false: read what is rolled up and the logs past it (a read-only store)")

	var (
		af        reportFlags
		pairs     bool
		advRollup bool
	)
	advantage := &cobra.Command{
		Use:   "advantage",
		Short: "Each player's bets, index plays and back bets against the true count over a period: scores, their significance, a flag",
		Long: "advantage pairs each bet a player placed in a round dealt in [--from, --to) with the true count of the\n" +
			"shoe as he saw it, and scores the pairs with Spearman's rank correlation: z = rho × sqrt(n − 1), flagged\n" +
			"at z ≥ 3.09 (about one chance in a thousand for a player whose bets do not follow the count). Also\n" +
			"his average bet at each Hi-Lo true count; his decisions at the hands of the Illustrious 18 and the Fab 4\n" +
			"against the Hi-Lo count at each (index: how often he took the index play when the count called for it and\n" +
			"when not, a Mantel-Haenszel z); and where he bet behind others' boxes, the counts of the rounds he bet\n" +
			"behind in against the other rounds of those shoes (back: a Mann-Whitney z). Each flagged at 3.09.\n" +
			"Where the store keeps them, it reads the sums by hour and day (rollups) and the log for the rest, the same\n" +
			"answer; --pairs reads the log alone. See docs/pit.md for the measured rates.",
		Args: cobra.NoArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			p, err := af.period()
			if err != nil {
				return err
			}
			stopProfile, err := startCPUProfile("report", af.cpuProfile)
			if err != nil {
				return err
			}
			defer stopProfile()
			s, err := openExistingRead(cmd.Context(), af.dsn)
			if err != nil {
				return err
			}
			defer s.Close()
			if advRollup && !pairs && sabot.CapabilitiesOf(s).Has(sabot.CapRollups) && !store.ReadOnly(s) {
				if _, err := rollUp(cmd, e, af.source(s), false, report.RollupAdvantage); err != nil {
					return failed("report advantage: the rollup: %s (--rollup=false reads without it)", errCause(err))
				}
			}
			r, err := report.AdvantageReport(cmd.Context(), af.source(s), p, report.AdvantageOptions{Pairs: pairs})
			if err != nil {
				return failed("report advantage: %s", errCause(err))
			}
			switch {
			case af.asJSON:
				enc := json.NewEncoder(e.stdout)
				enc.SetIndent("", "  ")
				return enc.Encode(r)
			case af.asCSV:
				return report.WriteAdvantageCSV(e.stdout, r)
			}
			fmt.Fprintf(e.stdout, "bets, index plays and back bets against the count from %s to %s (flagged at z >= %.2f)\n", r.From.Format(time.RFC3339), r.To.Format(time.RFC3339), r.FlagZ)
			tw := tabwriter.NewWriter(e.stdout, 0, 4, 2, ' ', tabwriter.AlignRight)
			fmt.Fprintln(tw, "player\trounds\thi-lo rho\tz\thi-opt II rho\tz\tindex decisions\tplayed when said\twhen not\tz\tback rounds\tbacked\tz\tflagged\t")
			for _, x := range r.Players {
				flag := ""
				if x.Flagged {
					flag = "FLAGGED"
				}
				ix := x.Index
				back := "-\t-\t-"
				if b := x.Back; b != nil {
					back = fmt.Sprintf("%d\t%d\t%+.2f", b.Rounds, b.Backed, b.Z)
				}
				fmt.Fprintf(tw, "%s\t%d\t%+.3f\t%+.2f\t%+.3f\t%+.2f\t%d\t%d/%d\t%d/%d\t%+.2f\t%s\t%s\t\n", x.Player, x.HiLo.N, x.HiLo.Rho, x.HiLo.Z, x.HiOptII.Rho, x.HiOptII.Z,
					ix.Decisions, ix.DeviatedSaid, ix.Said, ix.DeviatedNotSay, ix.Decisions-ix.Said, ix.Z, back, flag)
			}
			return tw.Flush()
		},
	}
	af.add(advantage)
	advantage.Flags().BoolVar(&pairs, "pairs", false, "with --json, list each round's bet and true counts, and each decision at an index play's hand (read from the log alone, not the rollups)")
	advantage.Flags().BoolVar(&advRollup, "rollup", true, "bring the store's sums by hour and day of the advantage report (advantage/2) up to the logs first, as `sabot report rollup` does (a write; the first time it reads every log once; not with --pairs); false: read what is rolled up and the logs past it (a read-only store)")
	c.AddCommand(tables, players, advantage, newReportRollupCmd(e), newReportSynthCmd(e))
	return c
}

func writePlayersText(w io.Writer, r *report.Players) error {
	fmt.Fprintf(w, "players from %s to %s\n", r.From.Format(time.RFC3339), r.To.Format(time.RFC3339))
	tw := tabwriter.NewWriter(w, 0, 4, 2, ' ', tabwriter.AlignRight)
	fmt.Fprintln(tw, "player\tsessions\ttime\trounds\tavg bet\thouse theo\thouse win\tdecisions\terrors\terror cost\tplay vs basic\tbets vs count\tskill: house theo\t")
	for _, x := range r.Players {
		d := time.Duration(x.Seconds) * time.Second
		fmt.Fprintf(tw, "%s\t%d\t%s\t%d\t%s\t%s\t%s\t%d\t%d\t%s\t%s\t%s\t%s\t\n", x.Player, x.Sessions, d, x.Rounds, x.AvgBet, x.Theo, x.Win, x.Decisions, x.Errors, x.ErrorCost, x.CostVsBasic, x.BetsVsCount, x.SkillTheo)
	}
	if err := tw.Flush(); err != nil {
		return err
	}
	if len(r.Players) == 0 {
		fmt.Fprintln(w, "no round closed in the period")
	}
	return nil
}

func writeTablesText(w io.Writer, r *report.Tables) error {
	fmt.Fprintf(w, "tables from %s to %s (a round counts when it closed in the period)\n", r.From.Format(time.RFC3339), r.To.Format(time.RFC3339))
	tw := tabwriter.NewWriter(w, 0, 4, 2, ' ', tabwriter.AlignRight)
	fmt.Fprintln(tw, "table\tprofile\trounds\thands\tstakes\tdrop\thouse win\thold %\thouse theo\tband (95 %)\tz\tledger\t")
	line := func(name string, x *report.TableResult) {
		mark := ""
		if x.Outside {
			mark = " !"
		}
		drop := "-"
		if x.Drop != 0 {
			drop = x.Drop.String()
		}
		ledger := "-"
		if x.LedgerHouseNet != nil {
			ledger = x.LedgerHouseNet.String()
		}
		fmt.Fprintf(tw, "%s\t%s\t%d\t%d\t%s\t%s\t%s\t%.2f\t%s\t%s to %s\t%+.2f%s\t%s\t\n", name, x.Profile, x.Rounds, x.Hands,
			x.Stakes, drop, x.Win, x.HoldPct, x.Theo, x.BandLow, x.BandHigh, x.Z, mark, ledger)
	}
	for _, x := range r.Tables {
		name := fmt.Sprintf("%d %s", x.Table, x.Name)
		if x.Physical {
			name += " (physical)"
		}
		if x.TestMode {
			name += " (test mode)"
		}
		line(name, x)
	}
	for _, x := range r.Profiles {
		line("profile "+x.Label+" ("+x.Rules[0][:min(8, len(x.Rules[0]))]+")", x)
	}
	line("total", r.Total)
	if err := tw.Flush(); err != nil {
		return err
	}
	for _, t := range r.Theories {
		fmt.Fprintf(w, "rules %s (%s): house edge %.4f %% per initial unit (exact, basic strategy), SD %.4f per unit (simulated, %d rounds)\n",
			t.Rules, t.Profile, 100*t.HouseEdge, t.SD, report.SDRounds)
	}
	if len(r.Tables) == 0 {
		fmt.Fprintln(w, "no round closed in the period")
	}
	return nil
}

// progressTo is a report's Progress that says the rounds read on stderr
// (--progress), nil without it.
func progressTo(e *env, on bool) func(int64) {
	if !on {
		return nil
	}
	return func(rounds int64) { fmt.Fprintf(e.stderr, "report: %d rounds read\n", rounds) }
}
