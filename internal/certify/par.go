package certify

import (
	"encoding/csv"
	"fmt"
	"math"
	"strings"

	"sabot/analysis"
	"sabot/rules"
)

// Summary is one strategy's PAR figures as `sabot edge --json` writes them.
type Summary struct {
	EV              float64 `json:"ev"`
	HouseEdge       float64 `json:"house_edge"`
	RTP             float64 `json:"rtp"`
	Win             float64 `json:"win"`
	Push            float64 `json:"push"`
	Lose            float64 `json:"lose"`
	Blackjack       float64 `json:"blackjack"`
	DealerBlackjack float64 `json:"dealer_blackjack"`
	Stake           float64 `json:"average_stake"`
	Doubles         float64 `json:"doubles"`
	Splits          float64 `json:"splits"`
	Surrenders      float64 `json:"surrenders"`
	Insurance       float64 `json:"insurance"`
	EvenMoney       float64 `json:"even_money"`
	Challenge       float64 `json:"challenge"`
}

// SummaryOf is a strategy's figures as `sabot edge --json` writes them.
func SummaryOf(s analysis.Summary) Summary {
	return Summary{s.EV, s.HouseEdge, s.RTP, s.Win, s.Push, s.Lose, s.Blackjack, s.DealerBlackjack, s.Stake,
		s.Doubles, s.Splits, s.Surrenders, s.Insurance, s.EvenMoney, s.Challenge}
}

// Edge is `sabot edge PROFILE --json`, read back: the kit's figures are
// those of that command, from its own output.
type Edge struct {
	Profile     string  `json:"profile"`
	Hash        string  `json:"hash"`
	Decks       int     `json:"decks"`
	Strategy    string  `json:"strategy"`
	EV          float64 `json:"ev"`
	HouseEdge   float64 `json:"house_edge"`
	RTP         float64 `json:"rtp"`
	HouseEdgeTD float64 `json:"house_edge_td"`
	HouseEdgeCD float64 `json:"house_edge_cd"`
	PAR         Summary `json:"par"`
	TD          Summary `json:"td"`
	CD          Summary `json:"cd"`
	Dealer      []struct {
		Up  string             `json:"up"`
		P   float64            `json:"p"`
		All map[string]float64 `json:"all"`
	} `json:"dealer"`
	InsuranceEV *float64 `json:"insurance_ev,omitempty"`
	Challenge   []struct {
		Up      string  `json:"up"`
		PTen    float64 `json:"p_ten"`
		EV      float64 `json:"ev"`
		Advised bool    `json:"advised"`
	} `json:"challenge,omitempty"`
	Effects []struct {
		Option string   `json:"option"`
		Value  string   `json:"value"`
		Rules  []string `json:"rules"`
		EV     float64  `json:"ev"`
		Delta  float64  `json:"delta"`
	} `json:"effects,omitempty"`
}

// Contribution is one line of the PAR sheet's make-up of the return: an
// outcome or decision, how often it comes, what it pays, and what it adds to
// the player's expected return per initial unit.
type Contribution struct {
	Outcome      string  `json:"outcome"`
	Probability  float64 `json:"probability"` // per round
	Pays         string  `json:"pays,omitempty"`
	Contribution float64 `json:"contribution"` // to the EV per initial unit
	Note         string  `json:"note,omitempty"`
}

// Contributions is the make-up of the basic-strategy (td) return: every
// initial hand against every up card of the exact analysis, by the
// strategy's first decision (a blackjack apart). Standing, doubling and
// surrendering end the hand's decisions, so theirs are exact; the analysis
// values a hit and a split with the best play for the exact cards after
// the first decision, so a last line takes basic strategy's play after a hit
// or a split back to edge's td figure: the lines add up to it exactly. The
// profile's own bets follow with their effect (the option off), and the side
// decisions basic strategy never takes (insurance, even money, the
// challenge) with what they return.
func Contributions(p *rules.Profile, res *analysis.Result, e *Edge) []Contribution {
	type acc struct{ p, ev float64 }
	by := map[string]*acc{}
	order := []string{"blackjack", "S", "H", "D", "P", "R"}
	for _, k := range order {
		by[k] = &acc{}
	}
	for _, h := range res.Hands {
		k := "blackjack"
		natural := (h.Cards[0] == "A" && h.Cards[1] == "T") || (h.Cards[0] == "T" && h.Cards[1] == "A")
		if !natural {
			k = "?"
			if h.TD != "" {
				k = h.TD[:1]
			}
			if by[k] == nil {
				by[k] = &acc{}
				order = append(order, k)
			}
		}
		by[k].p += h.P
		by[k].ev += h.P * h.EV[h.TD]
	}
	names := map[string]string{"S": "stand", "H": "hit (then the best play for the cards)", "D": "double",
		"P": "split (then the best play for the cards)", "R": "surrender"}
	var out []Contribution
	sum := 0.0
	for _, k := range order {
		a := by[k]
		if a.p == 0 {
			continue
		}
		c := Contribution{Outcome: names[k], Probability: a.p, Contribution: a.ev}
		switch k {
		case "blackjack":
			c.Outcome = "player blackjack"
			c.Pays = p.BlackjackPays.String()
			c.Note = "a dealer blackjack pushes it"
		case "S", "H", "P":
			c.Pays = "1:1"
		case "D":
			c.Pays = "1:1 on twice the stake"
		case "R":
			c.Pays = "half the stake lost"
		}
		if c.Outcome == "" {
			c.Outcome = "first decision " + k
		}
		sum += a.ev
		out = append(out, c)
	}
	out = append(out, Contribution{Outcome: "basic strategy's play after a hit or a split, against the best play", Contribution: e.TD.EV - sum,
		Note: "edge's td figure less the lines above"})
	for _, ef := range e.Effects {
		if (ef.Option == "five_card_21" || ef.Option == "three_sevens" || ef.Option == "declare_initial_ace") && ef.Value == "false" {
			out = append(out, Contribution{Outcome: map[string]string{"five_card_21": "five-card 21 pays 2:1 (PON-01)",
				"three_sevens": "three sevens pay 3:1 (PON-02)", "declare_initial_ace": "the Ace declared 1 or 11 (AR-11)"}[ef.Option],
				Contribution: -ef.Delta, Note: "the option's effect: included in the lines above"})
		}
	}
	if p.Insurance {
		note := "never taken by basic strategy"
		if e.InsuranceEV != nil {
			note += fmt.Sprintf("; returns %+.4f%% of its stake off the top", 100**e.InsuranceEV)
		}
		out = append(out, Contribution{Outcome: "insurance", Probability: e.TD.Insurance, Pays: "2:1", Note: note})
	}
	if p.EvenMoney != rules.NoEvenMoney {
		out = append(out, Contribution{Outcome: "even money", Probability: e.TD.EvenMoney, Pays: "1:1", Note: "never taken by basic strategy off the top"})
	}
	if p.Challenge {
		best := math.Inf(-1)
		for _, c := range e.Challenge {
			best = max(best, c.EV)
		}
		out = append(out, Contribution{Outcome: "the challenge (AR-10)", Probability: e.TD.Challenge, Pays: "2:1 on half the stake",
			Note: fmt.Sprintf("never taken: returns at best %+.4f%% of its stake", 100*best)})
	}
	return out
}

// StrategyGrid is a strategy card's CSV (analysis.StrategyCard.WriteCSV) as
// grids: for each kind of hand in the card's order, its rows (the player's
// hand and the codes under each up card).
type StrategyGrid struct {
	Kind string     `json:"kind"`
	Ups  []string   `json:"ups"`
	Rows [][]string `json:"rows"`
}

// Grids reads a strategy card's CSV into grids.
func Grids(csvText string) ([]StrategyGrid, error) {
	recs, err := csv.NewReader(strings.NewReader(csvText)).ReadAll()
	if err != nil {
		return nil, err
	}
	ups := []string{"2", "3", "4", "5", "6", "7", "8", "9", "T", "A"}
	col := map[string]int{}
	for i, u := range ups {
		col[u] = i
	}
	var out []StrategyGrid
	idx := map[string]int{}
	rowIdx := map[string]map[string]int{}
	for _, r := range recs[1:] {
		if len(r) < 4 {
			continue
		}
		kind, hand, up, act := r[0], r[1], r[2], r[3]
		g, ok := idx[kind]
		if !ok {
			g = len(out)
			idx[kind] = g
			rowIdx[kind] = map[string]int{}
			out = append(out, StrategyGrid{Kind: kind, Ups: ups})
		}
		ri, ok := rowIdx[kind][hand]
		if !ok {
			ri = len(out[g].Rows)
			rowIdx[kind][hand] = ri
			row := make([]string, 1+len(ups))
			row[0] = hand
			out[g].Rows = append(out[g].Rows, row)
		}
		if c, ok := col[up]; ok {
			out[g].Rows[ri][1+c] = act
		}
	}
	return out, nil
}

// actionColour is a strategy card's cell colour by its action code.
func actionColour(code string) (int, int, int) {
	switch {
	case code == "":
		return 255, 255, 255
	case strings.HasPrefix(code, "P"):
		return 190, 215, 245
	case strings.HasPrefix(code, "D"):
		return 250, 225, 150
	case strings.HasPrefix(code, "R"):
		return 235, 200, 235
	case strings.HasPrefix(code, "H"):
		return 245, 190, 185
	case strings.HasPrefix(code, "S"):
		return 200, 235, 195
	}
	return 240, 240, 240
}
