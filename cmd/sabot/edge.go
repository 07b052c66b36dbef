package main

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"strings"
	"text/tabwriter"

	"github.com/spf13/cobra"

	"sabot/analysis"
	"sabot/internal/certify"
	"sabot/rules"
)

func newEdgeCmd(e *env) *cobra.Command {
	var (
		pf        profileFlags
		strategy  string
		asJSON    bool
		noEffects bool
		progress  bool
	)
	c := &cobra.Command{
		Use:   "edge PROFILE",
		Short: "The exact house edge of a profile: expected return, PAR sheet, dealer's totals and each option's effect",
		Long: "edge analyses a profile exactly, by combinatorial analysis of every hand off the top of a full shoe\n" +
			"(one player alone at the table): the player's expected return per initial unit bet and the house edge\n" +
			"for basic strategy (td) or composition-dependent play (cd), a PAR-sheet breakdown, the dealer's final\n" +
			"totals by up card, and the effect of changing each option alone. See docs/analysis.md.",
		Args: profileArg,
		RunE: func(cmd *cobra.Command, args []string) error {
			p, err := pf.resolve(args[0])
			if err != nil {
				return err
			}
			kind, err := analysis.ParseStrategy(strategy)
			if err != nil {
				return refused("%v", err)
			}
			ctx := cmd.Context()
			prog := newProgress(e, progress, "analysing "+p.Name+": dealer up cards")
			res, err := analysis.Analyze(ctx, p, analysis.Options{Progress: prog.update})
			if err == nil && !prog.shown {
				// The process's cache had the analysis (a second run in
				// one process, go test -count=2): every up card is done.
				prog.update(len(res.Dealer), len(res.Dealer))
			}
			prog.finish()
			if err != nil {
				return analysisFailed(err)
			}
			var effects []analysis.Effect
			if !noEffects {
				prog = newProgress(e, progress, "analysing each option's effect")
				effects, err = analysis.Effects(ctx, p, kind, analysis.Options{Progress: prog.update})
				prog.finish()
				if err != nil {
					return analysisFailed(err)
				}
			}
			if asJSON {
				return writeEdgeJSON(e.stdout, p, res, kind, effects, noEffects)
			}
			return writeEdgeText(e.stdout, p, res, kind, effects, noEffects)
		},
	}
	pf.add(c)
	c.Flags().StringVar(&strategy, "strategy", "td", "td: total-dependent basic strategy; cd: composition-dependent play")
	c.Flags().BoolVar(&asJSON, "json", false, "print one JSON object")
	c.Flags().BoolVar(&noEffects, "no-effects", false, "skip the effect of each option (one analysis per option value)")
	c.Flags().BoolVar(&progress, "progress", false, "report progress on stderr even when it is not a terminal")
	return c
}

func analysisFailed(err error) error {
	if errors.Is(err, rules.ErrInvalid) {
		return refused("%v", err)
	}
	if errors.Is(err, context.Canceled) {
		return failed("analysis interrupted")
	}
	return failed("analysis failed: %v", err)
}

// progress reports a long computation on stderr: when stderr is a terminal,
// or when --progress asks for it (then one line per step, no cursor
// movement).
type progress struct {
	w       io.Writer
	on, tty bool
	label   string
	shown   bool
}

func newProgress(e *env, forced bool, label string) *progress {
	tty := writerIsTerminal(e.stderr)
	return &progress{w: e.stderr, on: forced || tty, tty: tty, label: label}
}

func writerIsTerminal(w io.Writer) bool {
	f, ok := w.(*os.File)
	if !ok {
		return false
	}
	fi, err := f.Stat()
	return err == nil && fi.Mode()&os.ModeCharDevice != 0
}

func (p *progress) update(done, total int) {
	if !p.on {
		return
	}
	p.shown = true
	if p.tty {
		fmt.Fprintf(p.w, "\r%s: %d/%d", p.label, done, total)
		return
	}
	fmt.Fprintf(p.w, "%s: %d/%d\n", p.label, done, total)
}

func (p *progress) finish() {
	if p.on && p.shown && p.tty {
		fmt.Fprint(p.w, "\r\033[K")
	}
}

func pct(x float64) string { return fmt.Sprintf("%.4f%%", 100*x) }

func writeEdgeText(w io.Writer, p *rules.Profile, r *analysis.Result, kind analysis.StrategyKind, effects []analysis.Effect, noEffects bool) error {
	var b strings.Builder
	s := r.Summary(kind)
	fmt.Fprintf(&b, "profile %s, %d deck(s); hash %.12s\n", p.Name, p.Decks, r.Hash)
	// Both strategies head the report: published house edges are mostly
	// of the best play (cd), a strategy card's is td's.
	fmt.Fprintf(&b, "house edge %s with basic strategy (td), %s with the best play for the exact cards (cd)\n",
		pct(r.TD.HouseEdge), pct(r.CD.HouseEdge))
	fmt.Fprintf(&b, "exact analysis off the top of a full shoe, one player; strategy below: %s\n\n", strategyName(kind))
	tw := tabwriter.NewWriter(&b, 0, 4, 2, ' ', tabwriter.AlignRight)
	fmt.Fprintf(tw, "\tbasic strategy (td)\tcomposition-dependent (cd)\t\n")
	fmt.Fprintf(tw, "player's expected return per unit bet\t%s\t%s\t\n", pct(r.TD.EV), pct(r.CD.EV))
	fmt.Fprintf(tw, "house edge\t%s\t%s\t\n", pct(r.TD.HouseEdge), pct(r.CD.HouseEdge))
	fmt.Fprintf(tw, "return to player (RTP)\t%s\t%s\t\n", pct(r.TD.RTP), pct(r.CD.RTP))
	tw.Flush()

	fmt.Fprintf(&b, "\nPAR sheet (%s), per round:\n", kind)
	tw = tabwriter.NewWriter(&b, 0, 4, 2, ' ', 0)
	fmt.Fprintf(tw, "  hands won / pushed / lost (a split adds hands)\t%.5f / %.5f / %.5f\n", s.Win, s.Push, s.Lose)
	fmt.Fprintf(tw, "  player blackjack\t%s\n", pct(s.Blackjack))
	fmt.Fprintf(tw, "  dealer blackjack\t%s\n", pct(s.DealerBlackjack))
	fmt.Fprintf(tw, "  average total stake per unit bet\t%.5f\n", s.Stake)
	fmt.Fprintf(tw, "  house edge per unit staked\t%s\n", pct(-s.EV/s.Stake))
	fmt.Fprintf(tw, "  doubled hands\t%.5f\n", s.Doubles)
	fmt.Fprintf(tw, "  rounds split\t%s\n", pct(s.Splits))
	if p.Surrender != rules.NoSurrender {
		fmt.Fprintf(tw, "  rounds surrendered\t%s\n", pct(s.Surrenders))
	}
	if p.Insurance {
		fmt.Fprintf(tw, "  rounds insured\t%s (insurance returns %s of its stake off the top: %s)\n", pct(s.Insurance), pct(r.InsuranceEV), advice(r.InsuranceEV > 0))
	}
	if p.EvenMoney != rules.NoEvenMoney {
		fmt.Fprintf(tw, "  even money taken\t%s\n", pct(s.EvenMoney))
	}
	if p.Challenge {
		fmt.Fprintf(tw, "  rounds challenged (AR-10)\t%s\n", pct(s.Challenge))
	}
	tw.Flush()

	if len(r.Challenge) > 0 {
		b.WriteString("\nthe challenge (AR-10): the player's first card an Ace, half the stake on a ten-value second card at 2:1\n")
		tw = tabwriter.NewWriter(&b, 0, 4, 2, ' ', tabwriter.AlignRight)
		fmt.Fprintf(tw, "  dealer up\tP(ten)\treturn per unit challenged\tadvice\t\n")
		for _, c := range orderByUp(r.Challenge, func(c analysis.ChallengeRow) string { return c.Up }) {
			fmt.Fprintf(tw, "  %s\t%.5f\t%s\t%s\t\n", c.Up, c.PTen, pct(c.EV), advice(c.Advised))
		}
		tw.Flush()
	}

	b.WriteString("\ndealer's final total by up card (full shoe less the up card)\n")
	tw = tabwriter.NewWriter(&b, 0, 4, 2, ' ', tabwriter.AlignRight)
	fmt.Fprintf(tw, "  up\t%s\t\n", strings.Join(analysis.Outcomes(), "\t"))
	for _, up := range analysis.UpOrder {
		d := r.Dealer[up]
		fmt.Fprintf(tw, "  %s\t", d.Up)
		for _, x := range d.All {
			fmt.Fprintf(tw, "%.6f\t", x)
		}
		fmt.Fprintln(tw)
	}
	tw.Flush()

	if !noEffects {
		fmt.Fprintf(&b, "\neffect of each option changed alone (%s; + helps the player)\n", kind)
		tw = tabwriter.NewWriter(&b, 0, 4, 2, ' ', 0)
		fmt.Fprintf(tw, "  option\tvalue\thouse edge\tchange\trules\n")
		for _, ef := range effects {
			fmt.Fprintf(tw, "  %s\t%s\t%s\t%+.4f%%\t%s\n", ef.Option, ef.Value, pct(-ef.EV), 100*ef.Delta, strings.Join(ef.Rules, " "))
		}
		tw.Flush()
		b.WriteString("  (insurance, even money, the challenge, must_draw_at_most, stand_on_21 and split_ten_ace_choice\n" +
			"   change nothing for a player who plays best: none of them is ever worth taking off the top)\n")
	}
	_, err := io.WriteString(w, b.String())
	return err
}

func strategyName(k analysis.StrategyKind) string {
	if k == analysis.CompositionDependent {
		return "composition-dependent (cd)"
	}
	return "total-dependent basic strategy (td)"
}

func advice(take bool) string {
	if take {
		return "take it"
	}
	return "never take it"
}

func orderByUp[T any](xs []T, up func(T) string) []T {
	var out []T
	for _, k := range analysis.UpOrder {
		for _, x := range xs {
			if up(x) == analysis.UpName(k) {
				out = append(out, x)
			}
		}
	}
	return out
}

func writeEdgeJSON(w io.Writer, p *rules.Profile, r *analysis.Result, kind analysis.StrategyKind, effects []analysis.Effect, noEffects bool) error {
	s := r.Summary(kind)
	type dealerJSON struct {
		Up          string             `json:"up"`
		P           float64            `json:"p"`
		All         map[string]float64 `json:"all"`
		NoBlackjack map[string]float64 `json:"no_blackjack"`
	}
	type effectJSON struct {
		Option string   `json:"option"`
		Value  string   `json:"value"`
		Rules  []string `json:"rules"`
		EV     float64  `json:"ev"`
		Delta  float64  `json:"delta"`
	}
	type challengeJSON struct {
		Up      string  `json:"up"`
		PTen    float64 `json:"p_ten"`
		EV      float64 `json:"ev"`
		Advised bool    `json:"advised"`
	}
	out := struct {
		Profile     string          `json:"profile"`
		Hash        string          `json:"hash"`
		Decks       int             `json:"decks"`
		Strategy    string          `json:"strategy"`
		EV          float64         `json:"ev"`
		HouseEdge   float64         `json:"house_edge"`
		RTP         float64         `json:"rtp"`
		HouseEdgeTD float64         `json:"house_edge_td"`
		HouseEdgeCD float64         `json:"house_edge_cd"`
		PAR         certify.Summary `json:"par"`
		TD          certify.Summary `json:"td"`
		CD          certify.Summary `json:"cd"`
		Dealer      []dealerJSON    `json:"dealer"`
		InsuranceEV *float64        `json:"insurance_ev,omitempty"`
		Challenge   []challengeJSON `json:"challenge,omitempty"`
		Effects     []effectJSON    `json:"effects,omitempty"`
	}{
		Profile: p.Name, Hash: r.Hash, Decks: r.Decks, Strategy: kind.String(),
		EV: s.EV, HouseEdge: s.HouseEdge, RTP: s.RTP, HouseEdgeTD: r.TD.HouseEdge, HouseEdgeCD: r.CD.HouseEdge,
		PAR: certify.SummaryOf(s), TD: certify.SummaryOf(r.TD), CD: certify.SummaryOf(r.CD),
	}
	for _, up := range analysis.UpOrder {
		d := r.Dealer[up]
		dj := dealerJSON{Up: d.Up, P: d.P, All: map[string]float64{}, NoBlackjack: map[string]float64{}}
		for i, name := range analysis.Outcomes() {
			dj.All[name] = d.All[i]
			dj.NoBlackjack[name] = d.NoBlackjack[i]
		}
		out.Dealer = append(out.Dealer, dj)
	}
	if p.Insurance {
		v := r.InsuranceEV
		out.InsuranceEV = &v
	}
	for _, c := range orderByUp(r.Challenge, func(c analysis.ChallengeRow) string { return c.Up }) {
		out.Challenge = append(out.Challenge, challengeJSON{c.Up, c.PTen, c.EV, c.Advised})
	}
	for _, ef := range effects {
		out.Effects = append(out.Effects, effectJSON{ef.Option, ef.Value, ef.Rules, ef.EV, ef.Delta})
	}
	enc := json.NewEncoder(w)
	enc.SetIndent("", "  ")
	return enc.Encode(out)
}
