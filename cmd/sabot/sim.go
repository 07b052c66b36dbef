package main

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"math"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"text/tabwriter"
	"time"

	"github.com/schollz/progressbar/v3"
	"github.com/spf13/cobra"
	"golang.org/x/term"

	"sabot/analysis"
	"sabot/internal/chart"
	"sabot/money"
	"sabot/rules"
	"sabot/sim"
)

// simConfig is `sabot sim`'s configuration: a field per flag (flags),
// read by build into a sim.Config, which run runs and report prints.
type simConfig struct {
	pf                        profileFlags
	rounds                    int64
	targetSE                  float64
	seed                      uint64
	workers, boxes, others    int
	backBets                  int
	backFollow                bool
	strategyFile, indicesFile string
	textbook                  bool
	count, ramp               string
	tcDecks, tcRound, tcStep  string
	wongIn, wongOut           string
	unit                      int64
	bankroll                  float64
	continuous                bool
	penetration               string
	asJSON, progress          bool
	chartDir, cpuProfile      string
	shard                     string
}

func newSimCmd(e *env) *cobra.Command {
	sc := &simConfig{}
	c := &cobra.Command{
		Use:   "sim PROFILE|FILE",
		Short: "Simulate rounds on a profile's rules: EV, SD, win rates, counting figures",
		Long: `Simulate blackjack rounds on the fast path of package sim, on the profile's own
rules and shoe procedure (cut card, burns, reshuffle), and report the EV per
initial bet with a 95 % confidence interval, the SD per round, win, push, loss
and blackjack rates, and for a card counter the win rate, SCORE, N0 and risk of
ruin. The same seed gives the same result whatever --workers is. See docs/sim.md.

The default strategy is the exact basic strategy of package analysis for the
profile; --strategy FILE reads a card in the CSV format of
'sabot strategy --format csv'; --textbook plays the built-in textbook chart
for the reference rules (a labelled fallback).`,
		Args: profileArg,
		RunE: func(cmd *cobra.Command, args []string) error { return sc.run(cmd, args, e) },
	}
	c.AddCommand(newSimMergeCmd(e, c, sc.build, func(res *sim.Result, tab *sim.StrategyCard, cfg sim.Config, asJSON bool, elapsed time.Duration) error {
		return sc.report(e, res, tab, cfg, asJSON, elapsed)
	}))
	sc.flags(c)
	return c
}

// build reads the flags and the profile into a configuration.
func (sc *simConfig) build(cmd *cobra.Command, args []string) (cfg sim.Config, tab *sim.StrategyCard, err error) {
	p, err := sc.pf.resolve(args[0])
	if err != nil {
		return cfg, nil, err
	}
	if sc.penetration != "" {
		if err := setPenetration(p, sc.penetration, sc.pf.options, sc.continuous); err != nil {
			return cfg, nil, err
		}
	}
	cfg = sim.Config{Profile: p, Rounds: sc.rounds, TargetSE: sc.targetSE, Seed: sc.seed, Workers: sc.workers,
		Boxes: sc.boxes, Others: sc.others, BackBets: sc.backBets, BackFollow: sc.backFollow, Unit: sc.unit, Continuous: sc.continuous}
	if sc.targetSE > 0 && !cmd.Flags().Changed("rounds") {
		cfg.Rounds = 0
	}
	if cfg.TrueCount, err = parseTrueCount(cmd, sc.count, sc.tcDecks, sc.tcRound, sc.tcStep); err != nil {
		return cfg, nil, err
	}
	switch {
	case sc.strategyFile != "":
		f, err := os.Open(sc.strategyFile)
		if err != nil {
			return cfg, nil, refused("sim: %v", err)
		}
		tab, err = sim.ParseStrategyCard(f)
		f.Close()
		if err != nil {
			return cfg, nil, refused("sim: %s: %v", sc.strategyFile, err)
		}
		if tab.Name == "" {
			tab.Name = sc.strategyFile
		}
	case sc.textbook:
		tab = sim.Textbook(p.DealerHitsSoft17)
	default:
		// The built-in profiles' cards are computed ahead (basic.go).
		data, ok := basicCard(p)
		if !ok {
			res, err := analysis.Analyze(cmd.Context(), p, analysis.Options{})
			if err != nil {
				return cfg, nil, failed("sim: the basic strategy of %s: %v", p.Name, err)
			}
			var b bytes.Buffer
			if err := res.Basic.WriteCSV(&b); err != nil {
				return cfg, nil, failed("sim: %v", err)
			}
			data = b.Bytes()
		}
		if tab, err = sim.ParseStrategyCard(bytes.NewReader(data)); err != nil {
			return cfg, nil, failed("sim: the analysis strategy card: %v", err)
		}
		tab.Name = "exact basic strategy of " + p.Name + " (package analysis)"
	}
	if sc.count != "" {
		sys, err := sim.LookupSystem(sc.count)
		if err != nil {
			return cfg, nil, refused("sim: --count: %v", err)
		}
		cfg.Count = &sys
	}
	if sc.indicesFile != "" {
		var data []byte
		if strings.EqualFold(sc.indicesFile, "i18") {
			data = sim.Illustrious18()
		} else if data, err = os.ReadFile(sc.indicesFile); err != nil {
			return cfg, nil, refused("sim: %v", err)
		}
		if err := tab.LoadIndices(bytes.NewReader(data)); err != nil {
			return cfg, nil, refused("sim: %s: %v", sc.indicesFile, err)
		}
		if cfg.Count == nil {
			return cfg, nil, refused("sim: --indices needs --count")
		}
	}
	if sc.ramp != "" {
		if cfg.Count == nil {
			return cfg, nil, refused("sim: --ramp needs --count")
		}
		if cfg.Ramp, err = sim.ParseRamp(sc.ramp); err != nil {
			return cfg, nil, refused("sim: --ramp: %v", err)
		}
	}
	for _, w := range []struct {
		s   string
		v   *float64
		has *bool
	}{{sc.wongIn, &cfg.Wong.In, &cfg.Wong.HasIn}, {sc.wongOut, &cfg.Wong.Out, &cfg.Wong.HasOut}} {
		if w.s == "" {
			continue
		}
		if *w.v, err = strconv.ParseFloat(w.s, 64); err != nil || math.IsNaN(*w.v) {
			return cfg, nil, refused("sim: wong count %q is not a number", w.s)
		}
		*w.has = true
	}
	cfg.Strategy = tab
	if sc.rounds <= 0 && sc.targetSE <= 0 {
		return cfg, nil, refused("sim: give --rounds N or --target-se X")
	}
	return cfg, tab, nil
}

// report prints a result, as text or JSON.
func (sc *simConfig) report(e *env, res *sim.Result, tab *sim.StrategyCard, cfg sim.Config, asJSON bool, elapsed time.Duration) error {
	p := cfg.Profile
	if asJSON {
		out := struct {
			*sim.Result
			Strategy     string  `json:"strategy"`
			Count        string  `json:"count,omitempty"`
			Ramp         string  `json:"ramp,omitempty"`
			TrueCount    string  `json:"true_count,omitempty"`
			CutCard      int     `json:"cut_card_after,omitempty"`
			Bankroll     float64 `json:"bankroll,omitempty"`
			RiskOfRuin   float64 `json:"risk_of_ruin,omitempty"`
			Seconds      float64 `json:"seconds"`
			RoundsPerSec float64 `json:"rounds_per_second"`
		}{Result: res, Strategy: tab.Name, Seconds: elapsed.Seconds(), RoundsPerSec: float64(res.Rounds) / elapsed.Seconds()}
		if cfg.Count != nil {
			out.Count, out.Ramp = cfg.Count.Name, cfg.Ramp.String()
			out.TrueCount = "running count (unbalanced)"
			if cfg.Count.Balanced {
				out.TrueCount = cfg.TrueCount.String()
			}
		}
		if !cfg.Continuous {
			out.CutCard = cutCardAfter(p)
		}
		if sc.bankroll > 0 {
			out.Bankroll, out.RiskOfRuin = sc.bankroll, res.RiskOfRuin(sc.bankroll)
		}
		enc := json.NewEncoder(e.stdout)
		enc.SetIndent("", "  ")
		return enc.Encode(out)
	}
	printSim(e, res, tab.Name, cfg, sc.bankroll, elapsed)
	return nil
}

// run simulates the rounds the flags ask for, and reports them.
func (sc *simConfig) run(cmd *cobra.Command, args []string, e *env) error {
	cfg, tab, err := sc.build(cmd, args)
	if err != nil {
		return err
	}
	p := cfg.Profile
	if sc.shard != "" {
		if cfg.Shard, cfg.Shards, err = parseShard(sc.shard); err != nil {
			return err
		}
		if sc.chartDir != "" || cfg.TargetSE > 0 {
			return refused("sim: --shard deals a fixed number of rounds and writes its sums: not with --target-se or --chart")
		}
	}
	if sc.chartDir != "" {
		cfg.Paths, cfg.PathPoints = 5, 400
	}
	var bar *progressbar.ProgressBar
	showBar := sc.progress
	if f, ok := e.stderr.(*os.File); ok && !cmd.Flags().Changed("progress") {
		showBar = term.IsTerminal(int(f.Fd()))
	}
	if showBar {
		total := cfg.Rounds
		if cfg.TargetSE > 0 {
			total = -1
		}
		bar = progressbar.NewOptions64(total,
			progressbar.OptionSetWriter(e.stderr),
			progressbar.OptionSetDescription("sim "+p.Name),
			progressbar.OptionShowCount(),
			progressbar.OptionShowIts(),
			progressbar.OptionSetItsString("rounds"),
			progressbar.OptionSetPredictTime(true),
			progressbar.OptionThrottle(200*time.Millisecond),
			progressbar.OptionClearOnFinish())
		cfg.Progress = func(n int64) { bar.Set64(n) }
	}
	stopProfile, err := startCPUProfile("sim", sc.cpuProfile)
	if err != nil {
		return err
	}
	start := time.Now()
	res, err := sim.Run(cmd.Context(), cfg)
	stopProfile()
	if bar != nil {
		bar.Finish()
	}
	if err != nil {
		if errors.Is(err, sim.ErrConfig) {
			return refused("sim: %v", err)
		}
		return failed("sim: %v", err)
	}
	elapsed := time.Since(start)
	if sc.chartDir != "" {
		if err := writeSimCharts(sc.chartDir, res, pathStep(cfg)); err != nil {
			return failed("sim: charts: %v", err)
		}
	}
	if cfg.Shards > 0 {
		return writeShard(e, cmd, args[0], cfg, res, elapsed)
	}
	return sc.report(e, res, tab, cfg, sc.asJSON, elapsed)
}

// flags are sim's flags, each into its field of sc.
func (sc *simConfig) flags(c *cobra.Command) {
	sc.pf.add(c)
	f := c.Flags()
	f.Int64Var(&sc.rounds, "rounds", 10_000_000, "rounds to deal (with --target-se: at most)")
	f.Float64Var(&sc.targetSE, "target-se", 0, "stop when the standard error of the EV per initial bet is at or below this (e.g. 0.0005)")
	f.Uint64Var(&sc.seed, "seed", 1, "seed: the same seed gives the same result whatever --workers is")
	f.IntVar(&sc.workers, "workers", 0, "worker goroutines (default every core)")
	f.IntVar(&sc.boxes, "boxes", 1, "boxes the player plays each round (ES-03, VE-03)")
	f.IntVar(&sc.others, "others", 0, "other players' boxes at the table (flat one unit, basic strategy)")
	f.IntVar(&sc.backBets, "back-bets", 0, "back bets of the player's own on each of his boxes (ES-03, VE-03; refused where AR-05 forbids them)")
	f.BoolVar(&sc.backFollow, "back-follow", true, "back bets match the box holder's doubles and splits (VE-11, VE-12), where the table lets them choose (back_follow=choose; under follow or stay the table decides)")
	f.StringVar(&sc.strategyFile, "strategy", "", "strategy card, CSV (sabot strategy --format csv); default: the exact basic strategy of package analysis")
	f.BoolVar(&sc.textbook, "textbook", false, "play the built-in textbook chart (4-8 decks, S17 or H17, DAS; a fallback for the reference rules)")
	f.StringVar(&sc.count, "count", "", "count cards: hi-lo, ko, hi-opt-ii or zen")
	f.StringVar(&sc.indicesFile, "indices", "", "index plays, CSV (docs/sim.md), or i18 for the Illustrious 18 and Fab 4 (Hi-Lo)")
	f.StringVar(&sc.ramp, "ramp", "", "bet ramp by count, count:units, e.g. 2:2,3:4,4:8,5:12 (1 unit below the first)")
	f.StringVar(&sc.tcDecks, "tc-decks", "exact", "true count: the decks left estimated to exact, 1, 0.5 or 0.25 deck (the nearest multiple)")
	f.StringVar(&sc.tcRound, "tc-round", "none", "true count: round the running count / decks left: none, floor, truncate or nearest")
	f.StringVar(&sc.tcStep, "tc-step", "1", "true count: --tc-round to a multiple of 1 or 0.5")
	f.StringVar(&sc.wongIn, "wong-in", "", "wonging: start each shoe out, enter at this count")
	f.StringVar(&sc.wongOut, "wong-out", "", "wonging: leave at a count below this")
	f.Int64Var(&sc.unit, "unit", 0, "one unit in minor units (default: the smallest that pays blackjacks and half stakes exactly)")
	f.Float64Var(&sc.bankroll, "bankroll", 0, "bankroll in units for the risk of ruin")
	f.BoolVar(&sc.continuous, "continuous", false, "shuffle every card back before each round (continuous shuffler): no cut card")
	f.StringVar(&sc.penetration, "penetration", "", "place the cut card after card P of the shoe: P cards (234) or a fraction of the shoe's cards, to the nearest card (0.75, 75%, 4.5/6);\n"+
		"a round that begins with at most P cards out of the shoe (burn cards included) is dealt, so the one that begins with exactly P is dealt and is the last;\n"+
		"cut_card_reserve = the shoe's cards − P (not with -o cut_card_reserve)")
	f.StringVar(&sc.cpuProfile, "cpuprofile", "", "write a CPU profile of the simulation (go tool pprof) to this file")
	f.BoolVar(&sc.asJSON, "json", false, "print the result as JSON")
	f.BoolVar(&sc.progress, "progress", false, "show the progress bar on stderr even when it is not a terminal")
	f.StringVar(&sc.shard, "shard", "", "run part K of N (K/N) of the --rounds: its sums as JSON on stdout, for `sabot sim merge` (docs/sim.md)")
	f.StringVar(&sc.chartDir, "chart", "", "write charts, each in SVG and PNG, to this folder: EV by count, bankroll paths, distribution of results")
}

// setPenetration places the cut card as --penetration says (see its help):
// a card count, or a fraction of the shoe (a decimal below 1 or with a
// point, a percentage, or a quotient a/b such as 4.5/6) rounded to the
// nearest card.
func setPenetration(p *rules.Profile, s string, options []string, continuous bool) error {
	for _, o := range options {
		if k, _, _ := strings.Cut(o, "="); strings.EqualFold(strings.TrimSpace(k), "cut_card_reserve") {
			return refused("sim: --penetration and -o cut_card_reserve both place the cut card: give one")
		}
	}
	if continuous {
		return refused("sim: --penetration: a continuous shuffler has no cut card")
	}
	cards := p.Cards()
	at, err := parsePenetration(s, cards)
	if err != nil {
		return refused("sim: --penetration %s: %v", s, err)
	}
	q := p.Clone()
	q.CutCardReserve = cards - at
	if err := q.Validate(); err != nil {
		return refused("sim: --penetration %s (cut_card_reserve=%d): %v", s, q.CutCardReserve, err)
	}
	*p = *q
	return nil
}

// parsePenetration reads --penetration: the card the cut card follows, 1
// to cards.
func parsePenetration(s string, cards int) (int, error) {
	s = strings.TrimSpace(s)
	num := func(t string) (float64, error) {
		v, err := strconv.ParseFloat(strings.TrimSpace(t), 64)
		if err != nil || math.IsNaN(v) || math.IsInf(v, 0) {
			return 0, fmt.Errorf("%q is not a number", t)
		}
		return v, nil
	}
	frac := math.NaN()
	switch a, b, quotient := strings.Cut(s, "/"); {
	case quotient:
		x, err := num(a)
		if err != nil {
			return 0, err
		}
		y, err := num(b)
		if err != nil {
			return 0, err
		}
		if y <= 0 {
			return 0, errors.New("the divisor must be positive")
		}
		frac = x / y
	case strings.HasSuffix(s, "%"):
		x, err := num(strings.TrimSuffix(s, "%"))
		if err != nil {
			return 0, err
		}
		frac = x / 100
	default:
		x, err := num(s)
		if err != nil {
			return 0, err
		}
		if x < 1 || strings.ContainsAny(s, ".eE") {
			frac = x
		} else {
			if x != math.Trunc(x) {
				return 0, errors.New("a card count must be whole")
			}
			frac = x / float64(cards)
		}
	}
	if frac <= 0 || frac > 1 {
		return 0, fmt.Errorf("want a fraction of the shoe above 0 and at most 1, or 1 to %d cards", cards)
	}
	return int(math.Round(frac * float64(cards))), nil
}

// moneyText shows an amount of minor units, not always whole (an average),
// as money: two decimals (Amount.Plain) when it is a whole number of minor
// units, else four.
func moneyText(minor float64) string {
	if r := math.Round(minor); math.Abs(minor-r) < 1e-9*max(1, math.Abs(minor)) && math.Abs(r) <= float64(money.Max) {
		return money.Amount(r).Plain()
	}
	return strconv.FormatFloat(minor/100, 'f', 4, 64)
}

// cutCardAfter is the card the cut card follows (0: none, dealt to the end).
func cutCardAfter(p *rules.Profile) int {
	if r := p.CutCardReserve; r > 0 && r < p.Cards() {
		return p.Cards() - r
	}
	return 0
}

// parseTrueCount reads --tc-decks, --tc-round and --tc-step.
func parseTrueCount(cmd *cobra.Command, count, decks, round, step string) (sim.TrueCount, error) {
	var m sim.TrueCount
	fl := cmd.Flags()
	if count == "" {
		for _, n := range []string{"tc-decks", "tc-round", "tc-step"} {
			if fl.Changed(n) {
				return m, refused("sim: --%s needs --count", n)
			}
		}
		return m, nil
	}
	var err error
	if m.Decks, err = sim.ParseDeckResolution(decks); err != nil {
		return m, refused("sim: --tc-decks: %v", err)
	}
	if m.Round, err = sim.ParseRounding(round); err != nil {
		return m, refused("sim: --tc-round: %v", err)
	}
	if m.Step, err = sim.ParseCountStep(step); err != nil {
		return m, refused("sim: --tc-step: %v", err)
	}
	if m.Step == 0.5 && m.Round == sim.RoundNone {
		return m, refused("sim: --tc-step 0.5 needs --tc-round")
	}
	if err := m.Validate(); err != nil {
		return m, refused("sim: %v", err)
	}
	return m, nil
}

// trueCountNote says how the count line's true count is computed, if not
// exactly.
func trueCountNote(cfg sim.Config) string {
	switch {
	case cfg.TrueCount.Exact():
		return ""
	case !cfg.Count.Balanced:
		return ", running count (unbalanced: no true count)"
	}
	return ", true count: " + cfg.TrueCount.String()
}

func printSim(e *env, r *sim.Result, strategy string, cfg sim.Config, bankroll float64, elapsed time.Duration) {
	w := tabwriter.NewWriter(e.stdout, 0, 4, 2, ' ', 0)
	pct := func(x float64) string { return fmt.Sprintf("%+.3f %%", 100*x) }
	fmt.Fprintf(w, "profile\t%s\n", r.Profile)
	fmt.Fprintf(w, "strategy\t%s\n", strategy)
	if cfg.Count != nil {
		fmt.Fprintf(w, "count\t%s, ramp %s%s\n", cfg.Count.Name, cfg.Ramp.String(), trueCountNote(cfg))
	}
	shuffle := "the profile's shoe procedure"
	if cfg.Continuous {
		shuffle = "continuous shuffle"
	}
	fmt.Fprintf(w, "rounds\t%d (%d played, %d void), %d shoes, %s\n", r.Rounds, r.Played, r.Void, r.Shoes, shuffle)
	if !cfg.Continuous && r.CardsPerShoe > 0 {
		cut := "no cut card"
		if at := cutCardAfter(cfg.Profile); at > 0 {
			cut = fmt.Sprintf("cut card after card %d (cut_card_reserve %d)", at, cfg.Profile.CutCardReserve)
		}
		fmt.Fprintf(w, "penetration\t%.1f cards dealt per shoe (%.1f %% of %d, burns included), %s\n",
			r.CardsPerShoe, 100*r.Penetration, cfg.Profile.Cards(), cut)
	}
	fmt.Fprintf(w, "EV per initial bet\t%s ± %.3f %% (95 %%: %s to %s)\n", pct(r.EV), 196*r.SE, pct(r.CI95[0]), pct(r.CI95[1]))
	fmt.Fprintf(w, "SD per round\t%.4f units\n", r.SD)
	fmt.Fprintf(w, "win / push / loss\t%.2f %% / %.2f %% / %.2f %% of boxes, blackjack %.2f %%\n", 100*r.Win, 100*r.Push, 100*r.Loss, 100*r.Blackjack)
	// A unit chosen with --unit is that many minor units of the table's
	// amounts: say what it and the average bet are in money. The
	// default unit is only the smallest stake that pays 3:2 and halves
	// exactly, a unit of account, not money anyone bets.
	if cfg.Unit > 0 {
		fmt.Fprintf(w, "average bet\t%.3f units = %s a round played (1 unit = %s: --unit %d minor units)\n",
			r.AvgBet, moneyText(r.AvgBetMinor), money.Amount(r.Unit).Plain(), r.Unit)
	} else {
		fmt.Fprintf(w, "average bet\t%.3f units a round played (a unit is the base bet; --unit N says it in money)\n", r.AvgBet)
	}
	if cfg.BackBets > 0 {
		fmt.Fprintf(w, "back bets EV\t%s ± %.3f %%\n", pct(r.BackEV), 196*r.BackSE)
	}
	if cfg.Count != nil {
		fmt.Fprintf(w, "win rate\t%+.3f ± %.3f units per 100 rounds played\n", r.WinRate, r.WinRateSE)
		fmt.Fprintf(w, "SCORE, DI, N0\t%.2f, %.2f, %.0f rounds\n", r.SCORE, r.DI, r.N0)
	}
	if bankroll > 0 {
		fmt.Fprintf(w, "risk of ruin\t%.4f %% for %g units\n", 100*r.RiskOfRuin(bankroll), bankroll)
	}
	fmt.Fprintf(w, "speed\t%.1f M rounds/s in %v\n", float64(r.Rounds)/elapsed.Seconds()/1e6, elapsed.Round(time.Millisecond))
	w.Flush()
	if len(r.ByCount) > 0 {
		fmt.Fprintln(e.stdout, "\nby count at the bet:")
		w = tabwriter.NewWriter(e.stdout, 0, 4, 2, ' ', tabwriter.AlignRight)
		fmt.Fprintln(w, "count\tfreq\tEV\t± SE\tavg bet\t")
		for _, c := range r.ByCount {
			fmt.Fprintf(w, "%d\t%.2f %%\t%s\t%.3f %%\t%.2f\t\n", c.Count, 100*c.Freq, pct(c.EV), 100*c.SE, c.AvgBet)
		}
		w.Flush()
	}
}

// pathStep is the rounds between two points of a bankroll path: a path is
// one chunk of the run (sim.Config.ChunkRounds, 65536 by default) in
// PathPoints points.
func pathStep(cfg sim.Config) float64 {
	chunk := int64(cfg.ChunkRounds)
	if chunk <= 0 {
		chunk = 65536
	}
	if cfg.Rounds > 0 {
		chunk = min(chunk, cfg.Rounds)
	}
	return float64(max(1, chunk/int64(max(cfg.PathPoints, 2))))
}

func writeSimCharts(dir string, r *sim.Result, roundsPerPoint float64) error {
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return err
	}
	v, f := r.Distribution()
	for _, ext := range chart.SimFormats { // each chart in SVG and in PNG
		if len(r.ByCount) > 0 {
			if err := chart.SimEVByCount(filepath.Join(dir, "ev-by-count."+ext), r.ByCount); err != nil {
				return err
			}
		}
		if len(r.Paths) > 0 {
			if err := chart.SimBankroll(filepath.Join(dir, "bankroll."+ext), r.Paths, roundsPerPoint); err != nil {
				return err
			}
		}
		if err := chart.SimDistribution(filepath.Join(dir, "distribution."+ext), v, f); err != nil {
			return err
		}
	}
	return nil
}
