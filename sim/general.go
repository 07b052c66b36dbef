package sim

import (
	"fmt"
	"slices"

	"sabot/card"
	"sabot/engine"
	"sabot/money"
	"sabot/rules"
)

// The general path: the configurations the fast path does not play (back
// bets, the pontoon options, a Strategy that is not a strategy card) play
// their rounds through the engine's own round, engine.Round, on the
// simulator's deck: the round lists what may be done (LegalActions), the
// strategies choose among it, and the round applies the choice unchecked
// (Apply). The simulator writes no round of its own but the fast path's.
//
// It is the engine's round as a table service drives it (the agreement
// test's driver does the same through the checked Act): bets placed box by
// box, the windows answered by each bettor's strategy, the count kept from
// the cards a player sees (face-up cards and reveals), the result read from
// the bets. One difference: the engine's round is given the profile
// without last_round_void, so that a round in which the cut card comes out
// is dealt to its end as the fast path deals it, and endRound voids it
// (EG-04): both paths then take the same cards from the deck.

// The bettors' names in the engine's round: the player holds his boxes and
// each of his back bets is one bettor; every other box is another player's.
const (
	playerName = "me"
	otherName  = "other"
)

var backNames = func() (n [maxBettors]string) {
	for j := 1; j < len(n); j++ {
		n[j] = fmt.Sprintf("back%d", j)
	}
	return n
}()

// maxBettors is the bettors one box can hold: its holder and back bettors.
const maxBettors = 1 + rules.MaxBackBets

// Draw and CutCardOut make the deck the engine round's Source. Past the
// last card (out) Draw reports no card: the round is void (AR-08).
func (d *deck) Draw() (card.Card, bool) {
	c := d.draw()
	return c, d.pos <= d.n
}

// CutCardOut reports whether the cut card has come out (EG-04).
func (d *deck) CutCardOut() bool { return d.cutOut() }

// newGeneral readies the general path: an engine round on the profile,
// less last_round_void (endRound applies it).
func (t *table) newGeneral() {
	p := t.p.Clone()
	p.LastRoundVoid = false
	t.gr = engine.New(p)
	t.acts = make([]engine.Action, 0, 16)
}

// see counts the cards the round has shown since the last call: the cards
// dealt face up and those turned (the hole card, an AR-17 double's card).
func (t *table) see() {
	ev := t.gr.Events()
	if t.counting {
		for i := t.seen; i < len(ev); i++ {
			if e := &ev[i]; e.Kind == engine.EvCard && !e.FaceDown || e.Kind == engine.EvReveal {
				t.rc += t.tag[e.Card]
			}
		}
	}
	t.seen = len(ev)
}

// stratFor is the strategy of a bettor and the count it is shown: the
// player's (his back bets too) or another player's, who does not count.
func (t *table) stratFor(player string) (Strategy, float64) {
	if player == otherName {
		return t.other, 0
	}
	return t.strat, t.count()
}

// play plays one round on the general path and leaves its result in t.x,
// t.w (the player) and t.bx, t.bw (the back bets).
func (t *table) play() {
	r := t.gr
	start := t.d.pos
	t.x, t.bx = 0, 0 // nets, kept unless the round is void
	t.w, t.bw = 0, 0
	t.roundHadBJ = false
	r.Reset(t.d)
	t.seen = 0
	for i := 0; i < t.nBox; i++ {
		b := &t.boxes[i]
		b.net0, b.bj = 0, false
		holder := otherName
		if b.mine {
			holder = playerName
			t.w += b.stake
			t.bw += int64(b.nb-1) * b.stake
		}
		t.bet(holder, i+1, b.stake)
		for j := 1; j < b.nb; j++ {
			t.bet(backNames[j], i+1, b.stake)
		}
	}
	if err := r.Start(); err != nil {
		panic("sim: the engine refuses the deal: " + err.Error())
	}
	for r.Phase() != engine.Done {
		t.see()
		up := r.Dealer().Cards()[0].Value()
		switch r.Phase() {
		case engine.ChallengeWindow:
			t.challenges(up)
		case engine.InsuranceWindow:
			t.insurance(up)
		case engine.FollowWindow:
			t.follow()
		case engine.AceChoice: // VE-13
			box, hand := r.Current()
			s, count := t.stratFor(r.Holder(box))
			v := t.view(box, hand)
			r.Apply(engine.Action{Kind: engine.Declare, Player: r.Holder(box), Box: box, Hand: hand, Value: s.Declare(v, up, count)})
		case engine.Playing:
			t.decide(up)
		}
	}
	t.see()

	bets := r.Bets()
	t.emx, t.emw, t.embx, t.embw = 0, 0, 0, 0
	// An even money stays paid on a void, but not one paid after the cut
	// card came out under last_round_void: the checked engine voids at
	// once (EG-04), before the offer; this round is dealt on (newGeneral).
	late := func(*engine.Bet) bool { return false }
	if t.p.LastRoundVoid {
		cut := false
		var after [][2]any // the even money paid after the cut card: player, box
		for _, e := range r.Events() {
			switch {
			case e.Kind == engine.EvCutCard:
				cut = true
			case cut && e.Kind == engine.EvResult && e.Result == rules.EvenMoneyPaid:
				after = append(after, [2]any{e.Player, e.Box})
			}
		}
		late = func(b *engine.Bet) bool { return slices.Contains(after, [2]any{b.Player, b.Box}) }
	}
	for i := range bets {
		b := &bets[i]
		em := b.Result == rules.EvenMoneyPaid && !late(b)
		switch b.Player {
		case playerName:
			t.x += int64(b.Net)
			t.boxes[b.Box-1].net0 += int64(b.Net)
			if em {
				t.emx, t.emw = t.emx+int64(b.Net), t.emw+int64(b.Stake)
			}
		case otherName:
		default:
			t.bx += int64(b.Net)
			if em {
				t.embx, t.embw = t.embx+int64(b.Net), t.embw+int64(b.Stake)
			}
		}
	}
	for i := 0; i < t.nBox; i++ {
		if hs := r.Hands(i + 1); len(hs) == 1 && hs[0].Count.TwoCard21() {
			t.boxes[i].bj = true
			t.roundHadBJ = true
		}
	}
	t.endRound(start)
}

func (t *table) bet(player string, box int, stake int64) {
	if err := t.gr.PlaceBet(player, box, money.Amount(stake)); err != nil {
		panic("sim: the engine refuses a bet the configuration allows: " + err.Error())
	}
}

// challenges answers the challenge window (AR-10): each bettor's strategy
// on a first-card Ace (or a split Ace) says whether to challenge.
func (t *table) challenges(up int) {
	r := t.gr
	t.acts = r.LegalActions(t.acts[:0])
	for _, a := range t.acts {
		if a.Kind == engine.Challenge && r.Phase() == engine.ChallengeWindow {
			if s, count := t.stratFor(a.Player); s.Challenge(up, count) {
				r.Apply(a)
			}
		}
	}
	if r.Phase() == engine.ChallengeWindow {
		r.Apply(engine.Action{Kind: engine.Close})
	}
}

// insurance answers the insurance window: even money for a blackjack
// (ES-10, VE-16), else insurance (ES-11, VE-15), as each bettor's strategy
// says.
func (t *table) insurance(up int) {
	r := t.gr
	for i, n := 0, len(r.Bets()); i < n && r.Phase() == engine.InsuranceWindow; i++ {
		b := r.Bets()[i]
		if b.Kind != engine.MainBet {
			continue
		}
		s, count := t.stratFor(b.Player)
		em := engine.Action{Kind: engine.EvenMoney, Player: b.Player, Box: b.Box, Hand: 1}
		ins := engine.Action{Kind: engine.Insure, Player: b.Player, Box: b.Box, Hand: 1, Stake: b.Stake / 2}
		switch {
		case r.Legal(em) && s.EvenMoney(up, count):
			r.Apply(em)
		case r.Legal(ins) && s.Insure(up, r.Hands(b.Box)[0].Count.TwoCard21(), count):
			r.Apply(ins)
		}
	}
	if r.Phase() == engine.InsuranceWindow {
		r.Apply(engine.Action{Kind: engine.Close})
	}
}

// follow answers the holder's double or split: the back bets match it or
// stay as they are (VE-11, VE-12).
func (t *table) follow() {
	r := t.gr
	if t.cfg.BackFollow {
		t.acts = r.LegalActions(t.acts[:0])
		for _, a := range t.acts {
			if a.Kind != engine.Close && r.Phase() == engine.FollowWindow {
				r.Apply(a)
			}
		}
	}
	if r.Phase() == engine.FollowWindow {
		r.Apply(engine.Action{Kind: engine.Close})
	}
}

// decide asks the holder's strategy for the decision on the hand in play
// and applies it. An answer the rules do not allow is a declaration where
// the Ace must first be declared (AR-11), else a hit, or where a hand may
// not draw (split Aces that may split again) a stand.
func (t *table) decide(up int) {
	r := t.gr
	box, hand := r.Current()
	holder := r.Holder(box)
	s, count := t.stratFor(holder)
	t.acts = r.LegalActions(t.acts[:0])
	legal, declare := legalOf(t.acts)
	v := t.view(box, hand)
	m := s.Play(v, up, legal, count)
	a := engine.Action{Player: holder, Box: box, Hand: hand}
	if !legal.Has(m) {
		if declare {
			a.Kind, a.Value = engine.Declare, s.Declare(v, up, count)
			r.Apply(a)
			return
		}
		switch {
		case legal.Has(Hit):
			m = Hit
		case legal.Has(Stand):
			m = Stand
		default:
			m = Split
		}
	}
	a.Kind = moveKind[m]
	r.Apply(a)
}

// moveKind is the engine's action for a move.
var moveKind = [...]engine.Kind{Hit: engine.Hit, Stand: engine.Stand, Double: engine.Double, Split: engine.Split, Surrender: engine.Surrender}

// view fills the strategy's view of a box's hand.
func (t *table) view(box, hand int) *Hand {
	hs := t.gr.Hands(box)
	h := &hs[hand-1]
	cs := h.Cards()
	v := &t.hand
	v.Count = h.Count
	v.Pair = 0
	if len(cs) == 2 && cs[0].Value() == cs[1].Value() {
		v.Pair = cs[0].Value()
	}
	v.Split = h.Split()
	v.Hands = len(hs)
	// VE-13: the engine offers the choice on a split ten's second card, an Ace.
	v.TenAce = t.p.SplitTenAceChoice && v.Split && len(cs) == 2 && cs[0].IsTen() && cs[1].IsAce()
	return v
}

// legalOf is the set of moves a strategy chooses among for the engine's
// legal actions, and whether the hand may declare (pontoon).
func legalOf(acts []engine.Action) (legal Legal, declare bool) {
	for _, a := range acts {
		switch a.Kind {
		case engine.Hit:
			legal = legal.With(Hit)
		case engine.Stand:
			legal = legal.With(Stand)
		case engine.Double:
			legal = legal.With(Double)
		case engine.Split:
			legal = legal.With(Split)
		case engine.Surrender:
			legal = legal.With(Surrender)
		case engine.Declare:
			declare = true
		}
	}
	return legal, declare
}
