package report

import (
	"math"
	"strconv"

	"sabot/card"
	"sabot/engine"
	"sabot/rules"
)

// Play against the index deviations (docs/pit.md): a
// counter departs from basic strategy at the hands where the count changes
// the best play, and at the count that changes it. Each decision a player
// makes at such a hand is a pair: whether he took the index play, and
// whether the true count at the decision called for it. A basic-strategy
// player never takes it, whatever the count; a player who departs at random
// takes it as often when the count says so as when it does not; a counter
// takes it when, and only when, the count says so. The score is the
// Mantel–Haenszel test of that 2×2 table, stratified by the index's hand
// (so that a player who always doubles 11 against an Ace, say, is not taken
// for a counter because that hand's index happens to be passed often).

// IndexPlay is a Hi-Lo index play: at the hand against the up card, the
// play is Play at true counts at or above Index when Above, below Index
// when not; else Basic.
type IndexPlay struct {
	Hand  string // H16: a hard total (any number of cards; an unsplit pair of fives is H10); P10: a pair of ten-values
	Up    int    // the dealer's up card, 1 the Ace, 10 a ten-value
	Index float64
	Above bool
	Play  engine.Kind
	Basic engine.Kind
}

// IndexPlays are the index plays the detector reads: the Illustrious 18
// (less insurance at +3, which the record does not show declined) and the
// Fab 4 surrenders, Hi-Lo, for multi-deck games with the dealer standing
// on soft 17 (Don Schlesinger, Blackjack Attack: Playing the Pros' Way, 3rd
// ed., 2005, ch. 5; the simulator's sim.Illustrious18, which
// TestIndexPlaysAreSchlesingers holds them to). A row counts at a decision
// only where both its plays are open to the hand (a double on two cards, a
// surrender where the table offers it), so that each profile reads the rows
// its rules allow.
var IndexPlays = []IndexPlay{
	// The Fab 4 (late surrender), decided before the others.
	{"H14", 10, 3, true, engine.Surrender, engine.Hit},
	{"H15", 10, 0, true, engine.Surrender, engine.Hit},
	{"H15", 9, 2, true, engine.Surrender, engine.Hit},
	{"H15", 1, 1, true, engine.Surrender, engine.Hit},
	// The Illustrious 18, in Schlesinger's order of value.
	{"H16", 10, 0, true, engine.Stand, engine.Hit},
	{"H15", 10, 4, true, engine.Stand, engine.Hit},
	{"P10", 5, 5, true, engine.Split, engine.Stand},
	{"P10", 6, 4, true, engine.Split, engine.Stand},
	{"H10", 10, 4, true, engine.Double, engine.Hit},
	{"H12", 3, 2, true, engine.Stand, engine.Hit},
	{"H12", 2, 3, true, engine.Stand, engine.Hit},
	{"H11", 1, 1, true, engine.Double, engine.Hit},
	{"H9", 2, 1, true, engine.Double, engine.Hit},
	{"H10", 1, 4, true, engine.Double, engine.Hit},
	{"H9", 7, 3, true, engine.Double, engine.Hit},
	{"H16", 9, 5, true, engine.Stand, engine.Hit},
	{"H13", 2, -1, false, engine.Hit, engine.Stand},
	{"H12", 4, 0, false, engine.Hit, engine.Stand},
	{"H12", 5, -2, false, engine.Hit, engine.Stand},
	{"H12", 6, -1, false, engine.Hit, engine.Stand},
	{"H13", 3, -2, false, engine.Hit, engine.Stand},
}

// Says is whether the true count calls for the row's index play.
func (x IndexPlay) Says(tc float64) bool {
	if x.Above {
		return tc >= x.Index
	}
	return tc < x.Index
}

// fits is whether the row is a hand's against an up card.
func (x IndexPlay) fits(cards []card.Card, up card.Card) bool {
	if up.Value() != x.Up || len(cards) < 2 {
		return false
	}
	if x.Hand == "P10" {
		return len(cards) == 2 && cards[0].Value() == 10 && cards[1].Value() == 10
	}
	c := rules.CountOf(cards...)
	return !c.Soft() && x.Hand == "H"+strconv.Itoa(c.Total())
}

// IndexRows calls fn with each row of IndexPlays that applies to a hand
// against an up card, both its plays open (legal), the surrenders first.
func IndexRows(cards []card.Card, up card.Card, legal func(engine.Kind) bool, fn func(row int)) {
	for i, x := range IndexPlays {
		if x.fits(cards, up) && legal(x.Play) && legal(x.Basic) {
			fn(i)
		}
	}
}

// IndexDecision is the play the index plays call for at a hand, at a true
// count: the first row that applies, its index play if the count says so,
// else its basic play; false where no row applies (`sabot bots --strategy
// hilo-index`).
func IndexDecision(tc float64, cards []card.Card, up card.Card, legal func(engine.Kind) bool) (engine.Kind, bool) {
	var k engine.Kind
	found := false
	IndexRows(cards, up, legal, func(row int) {
		if found {
			return
		}
		x := IndexPlays[row]
		k, found = x.Basic, true
		if x.Says(tc) {
			k = x.Play
		}
	})
	return k, found
}

// IndexScore is the verdict on a player's decisions at the index plays'
// hands: how often he took the index play when the count called for it
// and when it did not, and the Mantel–Haenszel z of that association,
// stratified by row. Under the null hypothesis that his choices do not
// depend on the count, z is close to a standard normal variable: flagged
// at z ≥ FlagZ (one-sided, about 1 in 1,000).
type IndexScore struct {
	Decisions      int     `json:"decisions"`          // at an index's hand, both its plays open, one of them taken
	Said           int     `json:"count_said"`         // of them, at a count that called for the index play
	DeviatedSaid   int     `json:"deviated_when_said"` // the index play taken when the count called for it
	DeviatedNotSay int     `json:"deviated_when_not"`  // and when it did not
	Z              float64 `json:"z"`
	Flagged        bool    `json:"flagged"`
}

// IndexScorer counts a player's decisions at the index plays' hands: for
// each row a 2×2 table, so its memory is fixed whatever the rounds. The
// zero value scores none.
type IndexScorer struct {
	cells [][2][2]int // row → [took the index play][the count said so]
}

// Add counts one decision at a row of IndexPlays.
func (s *IndexScorer) Add(row int, deviated, said bool) {
	if s.cells == nil {
		s.cells = make([][2][2]int, len(IndexPlays))
	}
	s.cells[row][b2i(deviated)][b2i(said)]++
}

func b2i(b bool) int {
	if b {
		return 1
	}
	return 0
}

// Score is the verdict on the decisions added.
func (s *IndexScorer) Score() IndexScore {
	var out IndexScore
	var dev, v float64
	for _, c := range s.cells {
		n := c[0][0] + c[0][1] + c[1][0] + c[1][1]
		out.Decisions += n
		out.Said += c[0][1] + c[1][1]
		out.DeviatedSaid += c[1][1]
		out.DeviatedNotSay += c[1][0]
		if n < 2 {
			continue
		}
		m1, n1, fn := float64(c[1][0]+c[1][1]), float64(c[0][1]+c[1][1]), float64(n)
		dev += float64(c[1][1]) - m1*n1/fn
		v += m1 * (fn - m1) * n1 * (fn - n1) / (fn * fn * (fn - 1))
	}
	if v > 0 {
		out.Z = round4(dev / math.Sqrt(v))
		out.Flagged = out.Z >= FlagZ
	}
	return out
}

// indexDecisions replays a round's record and calls fn with each decision
// of a box holder at a hand where a row of IndexPlays applies: the player,
// the row, whether he took the index play, and the Hi-Lo true count at the
// decision. That count is of the cards seen before it: rc, the running
// count of the shoe's earlier rounds (as for the bets), and the cards face
// up on the layout at the decision (every box's hands, the dealer's up
// card; not a face-down card), over the decks left after every card drawn
// so far (pos at the deal, and this round's, face down too: the discard
// tray and the layout show how many).
func indexDecisions(rp replayer, p *rules.Profile, rec engine.Record, rc, pos int, fn func(player string, row int, deviated bool, tc float64)) {
	rp.replay(p, rec, func(r *engine.Round, a engine.Action) {
		if a.Player == "" || r.Holder(a.Box) != a.Player {
			return
		}
		hands := r.Hands(a.Box)
		dealer := r.Dealer().Cards()
		if a.Hand < 1 || a.Hand > len(hands) || len(dealer) == 0 {
			return
		}
		cards := hands[a.Hand-1].Cards()
		legal := func(k engine.Kind) bool {
			b := a
			b.Kind = k
			return r.Legal(b)
		}
		var rows []int
		IndexRows(cards, dealer[0], legal, func(row int) {
			x := IndexPlays[row]
			if a.Kind == x.Play || a.Kind == x.Basic {
				rows = append(rows, row)
			}
		})
		if len(rows) == 0 {
			return
		}
		run, drawn := rc, 0
		see := func(h *engine.Hand) {
			for i, c := range h.Cards() {
				drawn++
				if i != h.FaceDown() {
					run += CountHiLo.Tags[c.Value()]
				}
			}
		}
		for _, box := range r.Boxes() {
			hs := r.Hands(box)
			for i := range hs {
				see(&hs[i])
			}
		}
		see(r.Dealer())
		left := math.Max(float64(p.Decks*52-pos-drawn)/52, 0.5)
		tc := float64(run) / left
		for _, row := range rows {
			fn(a.Player, row, a.Kind == IndexPlays[row].Play, tc)
		}
	})
}

// replayer replays rounds' records through the engine, a round a profile
// kept and reset for each (a report replays every round of a period).
type replayer map[*rules.Profile]*engine.Round

// replay plays a round's record again through the engine and calls fn
// before each decision of a player (not the house's, not Close) with the
// round as it stood.
func (rp replayer) replay(p *rules.Profile, rec engine.Record, fn func(r *engine.Round, a engine.Action)) {
	rp.replayThen(p, rec, fn, nil)
}

// replayThen is replay that also calls after, when set, after every
// action the round took (Close and the house's too), with the round as it
// then stands, and first after the deal with a nil action.
func (rp replayer) replayThen(p *rules.Profile, rec engine.Record, fn func(r *engine.Round, a engine.Action), after func(r *engine.Round, a *engine.Action)) {
	r := rp[p]
	if r == nil {
		r = engine.New(p)
		rp[p] = r
	}
	r.Reset(&engine.Forced{Cards: rec.Cards, CutAfter: rec.CutAfter, CutStart: rec.CutAtStart})
	for _, b := range rec.Bets {
		if r.PlaceBet(b.Player, b.Box, b.Stake) != nil {
			return
		}
	}
	if r.Start() != nil {
		return
	}
	if after != nil {
		after(r, nil)
	}
	for _, a := range rec.Actions {
		if a.Player != "" && !a.Kind.House() && a.Kind != engine.Close {
			fn(r, a)
		}
		if r.Act(a) != nil {
			return
		}
		if after != nil {
			after(r, &a)
		}
	}
}
