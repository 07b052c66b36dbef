package certify

import (
	"fmt"
	"math"
	"strings"

	"sabot/rules"
)

// parPDF lays the PAR sheet out as laboratories' PAR sheets are: the game
// and its identification, the return to player, the make-up of the return,
// the dealer's outcomes, the options' effects, the simulation and the cut
// card, and the strategy the return assumes.
func (k *Kit) parPDF() ([]byte, error) {
	m, p, td, cd := k.Meta, k.Profile, k.TD, k.CD
	d := NewDoc("PAR sheet: "+m.Profile, header(m), m.Created)
	d.Meta(metaRows(m, p))

	d.H("1. Return to player")
	rows := [][]string{
		{"return to player (RTP)", pct(td.TD.RTP), pct(td.CD.RTP)},
		{"house edge per initial bet", pct(td.TD.HouseEdge), pct(td.CD.HouseEdge)},
		{"player's expected return per initial bet", fmt.Sprintf("%+.4f %%", 100*td.TD.EV), fmt.Sprintf("%+.4f %%", 100*td.CD.EV)},
		{"average total stake per initial bet", fmt.Sprintf("%.5f", td.TD.Stake), fmt.Sprintf("%.5f", td.CD.Stake)},
		{"house edge per unit staked", pct(-td.TD.EV / td.TD.Stake), pct(-td.CD.EV / td.CD.Stake)},
	}
	if n := k.Net; n != nil {
		rows = append(rows,
			[]string{"variance per round (units², exact)", fmt.Sprintf("%.5f", n.TD.Variance), fmt.Sprintf("%.5f", n.CD.Variance)},
			[]string{"standard deviation per round (units, exact)", fmt.Sprintf("%.5f", n.TD.SD), fmt.Sprintf("%.5f", n.CD.SD)},
			[]string{"volatility index (1.645 × SD, 90 %)", fmt.Sprintf("%.4f", n.TD.VolatilityIndex), fmt.Sprintf("%.4f", n.CD.VolatilityIndex)},
			[]string{"hit frequency (a round nets a win)", pct(n.TD.HitFrequency), pct(n.CD.HitFrequency)},
			[]string{"rounds pushed / lost", pct(n.TD.Push) + " / " + pct(n.TD.Loss), pct(n.CD.Push) + " / " + pct(n.CD.Loss)},
			[]string{"maximum win per round (initial bets)", fmt.Sprintf("%g", n.TD.MaxWin), fmt.Sprintf("%g", n.CD.MaxWin)},
			[]string{"maximum exposure per round (initial bets)", fmt.Sprintf("%g", n.TD.MaxLoss), fmt.Sprintf("%g", n.CD.MaxLoss)})
	}
	if k.Sim != nil {
		rows = append(rows, []string{"standard deviation per round (units)", fmt.Sprintf("%.4f (by simulation, %s rounds)", k.Sim.Continuous.SD, count(k.Sim.Continuous.Rounds)), ""})
	}
	d.Table([]float64{70, 55, 55}, []string{"", "basic strategy (td)", "composition-dependent (cd)"}, rows, "LRR")
	d.Small("Exact combinatorial analysis of every hand off the top of a full shoe, one player at the table (`sabot edge`). " +
		"Basic strategy (td) decides by the hand's total; composition-dependent play (cd) by its exact cards. The figures are those of " +
		"edge-td.json and edge-cd.json in this kit, the outputs of `sabot edge " + m.Profile + " --json` and `--strategy cd --json`.")
	if n := k.Net; n != nil {
		d.H2("The distribution of a round's net result")
		var r [][]string
		cdP := map[float64]float64{}
		for _, o := range n.CD.Outcomes {
			cdP[o.Net] = o.P
		}
		for _, o := range n.TD.Outcomes {
			r = append(r, []string{fmt.Sprintf("%+g", o.Net), fmt.Sprintf("%.8f", o.P), fmt.Sprintf("%.8f", cdP[o.Net])})
			delete(cdP, o.Net)
		}
		for _, o := range n.CD.Outcomes { // an outcome cd reaches and td does not
			if q, ok := cdP[o.Net]; ok {
				r = append(r, []string{fmt.Sprintf("%+g", o.Net), "0", fmt.Sprintf("%.8f", q)})
			}
		}
		d.Table([]float64{40, 70, 70}, []string{"net (initial bets)", "probability, td", "probability, cd"}, r, "RRR")
		d.Small(fmt.Sprintf("Exact for rounds without a split. A split round (%.2f %% of rounds, td): each hand's net jointly with the dealer's final total is exact, "+
			"by the exact split value's method carried on distributions, and so is the round's mean (nothing set or moved: it differs from the exact split value by %.1g); "+
			"the hands' joint law given the dealer's total is taken as independent. par-sheet.json's net_result holds every figure.",
			100*n.TD.SplitRounds, math.Abs(n.TD.SplitMeanGap)))
		d.P(fmt.Sprintf("A reference player who mimics the dealer (draws to 16 and on a soft 17 as the table's dealer does, stands on the rest, never doubles, splits, surrenders or insures): "+
			"return %s, house edge %s, SD %.4f per round.", pct(1+n.Mimic.Mean), pct(-n.Mimic.Mean), n.Mimic.SD))
	}

	d.H("2. Outcomes and their contribution to the return (basic strategy)")
	var crow [][]string
	total := 0.0
	for _, c := range k.Contributions {
		prob := ""
		if c.Probability > 0 {
			prob = fmt.Sprintf("%.6f", c.Probability)
		}
		contrib := fmt.Sprintf("%+.5f %%", 100*c.Contribution)
		if strings.HasPrefix(c.Note, "the option's effect") || c.Outcome == "insurance" || c.Outcome == "even money" || strings.HasPrefix(c.Outcome, "the challenge") {
			contrib = "(" + contrib + ")"
		} else {
			total += c.Contribution
		}
		crow = append(crow, []string{c.Outcome, prob, c.Pays, contrib, c.Note})
	}
	crow = append(crow, []string{"total: the player's expected return", "1", "", fmt.Sprintf("%+.5f %%", 100*total), fmt.Sprintf("edge td: %+.5f %%", 100*td.TD.EV)})
	d.Table([]float64{52, 20, 26, 22, 60}, []string{"first decision or outcome", "probability", "pays", "contribution", "note"}, crow, "LRLRL")
	d.Small("Probabilities are per round, over every initial hand and up card. A bracketed contribution is included in the lines " +
		"above it (a profile's own bet) or is zero for basic strategy, which never takes the bet (insurance, even money, the challenge).")
	frow := [][]string{
		{"hands won per round (a split adds hands)", fmt.Sprintf("%.5f", td.TD.Win), fmt.Sprintf("%.5f", td.CD.Win)},
		{"hands pushed per round", fmt.Sprintf("%.5f", td.TD.Push), fmt.Sprintf("%.5f", td.CD.Push)},
		{"hands lost per round (surrender included)", fmt.Sprintf("%.5f", td.TD.Lose), fmt.Sprintf("%.5f", td.CD.Lose)},
		{"player blackjack", pct(td.TD.Blackjack), pct(td.CD.Blackjack)},
		{"dealer blackjack", pct(td.TD.DealerBlackjack), pct(td.CD.DealerBlackjack)},
		{"doubled hands per round", fmt.Sprintf("%.5f", td.TD.Doubles), fmt.Sprintf("%.5f", td.CD.Doubles)},
		{"rounds split", pct(td.TD.Splits), pct(td.CD.Splits)},
	}
	if p.Surrender != rules.NoSurrender {
		frow = append(frow, []string{"rounds surrendered", pct(td.TD.Surrenders), pct(td.CD.Surrenders)})
	}
	if p.Insurance {
		frow = append(frow, []string{"rounds insured", pct(td.TD.Insurance), pct(td.CD.Insurance)})
	}
	if p.EvenMoney != rules.NoEvenMoney {
		frow = append(frow, []string{"even money taken", pct(td.TD.EvenMoney), pct(td.CD.EvenMoney)})
	}
	if p.Challenge {
		frow = append(frow, []string{"rounds challenged (AR-10)", pct(td.TD.Challenge), pct(td.CD.Challenge)})
	}
	d.H2("Frequencies")
	d.Table([]float64{80, 50, 50}, []string{"", "td", "cd"}, frow, "LRR")
	if len(td.Challenge) > 0 {
		d.H2("The challenge (AR-10): half the stake on a ten-value second card, 2:1")
		var r [][]string
		for _, c := range td.Challenge {
			adv := "never take it"
			if c.Advised {
				adv = "take it"
			}
			r = append(r, []string{c.Up, fmt.Sprintf("%.5f", c.PTen), fmt.Sprintf("%+.4f %%", 100*c.EV), adv})
		}
		d.Table([]float64{30, 40, 60, 50}, []string{"dealer up", "P(ten)", "return per unit challenged", "advice"}, r, "CRRL")
	}

	d.H("3. The dealer's final total by up card")
	var outs []string
	if len(td.Dealer) > 0 {
		var keys []string
		for key := range td.Dealer[0].All {
			keys = append(keys, key)
		}
		outs = orderOutcomes(keys)
	}
	var drow [][]string
	for _, dr := range td.Dealer {
		r := []string{dr.Up, fmt.Sprintf("%.5f", dr.P)}
		for _, o := range outs {
			r = append(r, fmt.Sprintf("%.5f", dr.All[o]))
		}
		drow = append(drow, r)
	}
	w := []float64{12, 16}
	for range outs {
		w = append(w, 16)
	}
	d.Table(w, append([]string{"up", "P(up)"}, outs...), drow, strings.Repeat("R", 2+len(outs)))

	d.H("4. The effect of each option (changed alone)")
	effects := func(e *Edge, label string) {
		var r [][]string
		for _, ef := range e.Effects {
			r = append(r, []string{ef.Option + " = " + ef.Value, pct(-ef.EV), fmt.Sprintf("%+.4f %%", 100*ef.Delta), strings.Join(ef.Rules, " ")})
		}
		d.H2(label)
		d.Table([]float64{70, 35, 35, 40}, []string{"option", "house edge", "change (+ helps the player)", "rules"}, r, "LRRL")
	}
	effects(td, "basic strategy (td)")
	effects(cd, "composition-dependent play (cd)")
	d.Small("Options of the table service (limits, boxes, the cut card) change nothing off the top of a full shoe; insurance, even money, " +
		"the challenge, must_draw_at_most, stand_on_21 and split_ten_ace_choice change nothing for a player who plays best.")

	d.H("5. Simulation check and the cut card's effect")
	if s := k.Sim; s != nil {
		verdict := "PASS"
		if !s.Pass {
			verdict = "FAIL"
		}
		d.Table([]float64{62, 40, 38, 40}, []string{"", "EV per initial bet", "± SE", "95 % interval"}, [][]string{
			{"exact (td, off the top)", fmt.Sprintf("%+.5f %%", 100*s.Exact), "", ""},
			{fmt.Sprintf("simulated, continuous shuffle, %s rounds", count(s.Continuous.Rounds)), fmt.Sprintf("%+.5f %%", 100*s.Continuous.EV), fmt.Sprintf("%.5f %%", 100*s.Continuous.SE),
				fmt.Sprintf("%+.4f to %+.4f %%", 100*s.Continuous.CI95[0], 100*s.Continuous.CI95[1])},
			{fmt.Sprintf("simulated, the profile's shoe and cut card, %s rounds", count(s.Shoe.Rounds)), fmt.Sprintf("%+.5f %%", 100*s.Shoe.EV), fmt.Sprintf("%.5f %%", 100*s.Shoe.SE),
				fmt.Sprintf("%+.4f to %+.4f %%", 100*s.Shoe.CI95[0], 100*s.Shoe.CI95[1])},
			{"cut card's effect (shoe − exact)", fmt.Sprintf("%+.5f %%", 100*s.CutCardEffect), fmt.Sprintf("%.5f %%", 100*s.CutCardEffectSE), ""},
		}, "LRRR")
		d.P(fmt.Sprintf("Simulation check: z = %+.2f (continuous shuffle against the exact figure); |z| ≤ %.2f passes (a two-sided 99.9 %% interval): %s.", s.Z, SimZLimit, verdict))
		if !s.LabScale {
			d.Small("Fewer than 10⁹ rounds: a development kit. A laboratory's kit runs `sabot certify` with its default --rounds (10⁹), or the shards of docs/certification.md.")
		}
		d.Mono(s.Continuous.Command + "\n" + s.Shoe.Command)
	} else {
		d.P("Not run (--rounds 0).")
	}

	d.H("6. The basic strategy the return assumes")
	d.Small("H hit, S stand, D double (Dh: else hit, Ds: else stand), P split (Ph: if double after split, else hit), R surrender (Rh, Rs); " +
		"hard+ and soft+ are hands of three cards or more. The card is strategy.csv (`sabot strategy " + m.Profile + " --format csv`).")
	for _, g := range k.grids() {
		d.Grid(gridTitle(g.Kind), g.Ups, g.Rows, actionColour)
	}
	return d.Bytes()
}

func gridTitle(kind string) string {
	switch kind {
	case "hard":
		return "Hard totals, first two cards"
	case "soft":
		return "Soft totals, first two cards"
	case "pair":
		return "Pairs"
	case "hard+":
		return "Hard totals, three cards or more"
	case "soft+":
		return "Soft totals, three cards or more"
	case "ten-ace":
		return "An Ace drawn to a split ten-value (VE-13)"
	}
	return kind
}

func orderOutcomes(keys []string) []string {
	pref := []string{"17", "18", "19", "20", "21", "21 (5 cards)", "blackjack", "bust"}
	var out []string
	seen := map[string]bool{}
	for _, p := range pref {
		for _, k := range keys {
			if k == p && !seen[k] {
				out = append(out, k)
				seen[k] = true
			}
		}
	}
	for _, k := range keys {
		if !seen[k] {
			out = append(out, k)
		}
	}
	return out
}

func count(n int64) string {
	s := fmt.Sprint(n)
	var b strings.Builder
	for i, c := range s {
		if i > 0 && (len(s)-i)%3 == 0 {
			b.WriteRune(',')
		}
		b.WriteRune(c)
	}
	return b.String()
}

func metaRows(m Meta, p *rules.Profile) [][2]string {
	mod := ""
	if m.Modified {
		mod = " (with changes not committed)"
	}
	rows := [][2]string{
		{"game", "blackjack, profile " + m.Profile},
		{"description", m.Description},
		{"decks", fmt.Sprint(p.Decks)},
	}
	// A table that breaks a rule of its own regulation says so on every
	// document of the kit, rule by rule.
	for _, d := range p.Departures() {
		rows = append(rows, [2]string{"departs from " + p.Regulation, d.String()})
	}
	return append(rows, [][2]string{
		{"profile hash", m.ProfileHash},
		{"game hash", m.GameHash},
		{"sabot", m.Version + ", source " + m.Commit + mod + " (" + m.CommitFrom + "), " + m.Go},
		{"executable SHA-256", m.Executable.SHA256},
		{"reproducible build", reproText(m)},
		{"made", m.Created.UTC().Format("2006-01-02 15:04 UTC")},
		{"command", m.Command},
	}...)
}

// reproText says how the binary is rebuilt, or why it cannot be.
func reproText(m Meta) string {
	if m.Identified() {
		return m.Executable.Build + " at commit " + m.Commit + " with " + m.Go + " rebuilds the same SHA-256"
	}
	return "no: " + m.Executable.NotWhy
}
