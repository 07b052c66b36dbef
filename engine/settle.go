package engine

import (
	"sabot/rules"

	"sabot/money"
)

// settle settles every open bet against the dealer's final hand (AR-15,
// AR-16, ES-06, ES-07, VE-09, VE-10, PON-01, PON-02) and ends the round.
func (r *Round) settle() {
	if r.void || r.waiting {
		return
	}
	d := rules.DealerHand{Count: r.dealer.Count}
	dealerBJ := d.Blackjack()
	for i := 0; i < r.nOrder; i++ {
		boxNo := int(r.order[i])
		b := &r.boxes[boxNo]
		if b.void {
			continue
		}
		for j := 0; j < b.n; j++ {
			h := &b.hands[j]
			if h.faceDown >= 0 { // AR-17: the double's card is turned now
				r.emit(Event{Kind: EvReveal, Box: boxNo, Hand: j + 1, Card: h.cards[h.faceDown]})
				h.faceDown = -1
			}
			h.outcome = r.p.Settle(rules.PlayerHand{Count: h.Count, Split: h.split, SplitAces: h.splitAces, Surrendered: h.surrender}, d)
			h.result = h.outcome.Result
		}
	}
	// VE-09: the dealer settles right to left, box by box; where the
	// regulation says so (AR-15, Profile.LosersFirst) he takes every losing
	// bet first, then pays the winners and leaves the pushes.
	passes := []func(*Bet) bool{func(*Bet) bool { return true }}
	if r.p.LosersFirst() {
		loses := func(b *Bet) bool { res, _ := r.betResult(b, dealerBJ); return res == rules.Lose }
		passes = []func(*Bet) bool{loses, func(*Bet) bool { return true }}
	}
	for _, in := range passes {
		for k := r.nOrder - 1; k >= 0; k-- {
			for i := range r.bets {
				if b := &r.bets[i]; !b.settled && b.Box == int(r.order[k]) && in(b) {
					r.settleBet(b, dealerBJ)
				}
			}
		}
	}
	r.phase = Done
	r.emit(Event{Kind: EvDone})
}

func (r *Round) settleBet(b *Bet, dealerBJ bool) {
	b.settled = true
	b.Result, b.Net = r.betResult(b, dealerBJ)
	r.emit(Event{Kind: EvResult, Box: b.Box, Hand: b.Hand, Player: b.Player, BetKind: b.Kind, Result: b.Result, Amount: b.Net})
}

// betResult is what an open bet comes to against the dealer's final hand.
func (r *Round) betResult(b *Bet, dealerBJ bool) (rules.Result, money.Amount) {
	switch b.Kind {
	case InsuranceBet: // ES-11, VE-15: 2:1 against a dealer blackjack
		if dealerBJ {
			return rules.Win, r.p.Pays(b.Stake, 2)
		}
		return rules.Lose, -b.Stake
	case ChallengeBet:
		// Settled when the second card came; unsettled only if it never did.
		return rules.Void, 0
	}
	o := r.boxes[b.Box].hands[b.Hand-1].outcome
	// VE-19, VE-21: the excess of a double over the original or over the
	// table maximum is neither paid nor lost.
	if o.OriginalOnly && b.Kind != MainBet {
		return rules.Push, 0 // returned
	}
	return o.Result, r.p.Net(b.Plays(), o)
}

// baseStake is a bettor's stake on a hand: the main stake, or the stake of
// the split that made the hand. 0 if the bettor has none there.
func (r *Round) baseStake(player string, boxNo, hand int) money.Amount {
	for i := range r.bets {
		b := &r.bets[i]
		if b.Box == boxNo && b.Hand == hand && b.Player == player && (b.Kind == MainBet || b.Kind == SplitBet) {
			return b.Stake
		}
	}
	return 0
}
