package engine

import (
	"slices"

	"sabot/rules"

	"sabot/money"
)

func (r *Round) apply(a Action) {
	if a.Stays != nil {
		a.Stays = slices.Clone(a.Stays) // the record's own
	}
	r.actions = append(r.actions, a)
	r.emit(Event{Kind: EvAction, Action: a, Player: a.Player, Box: a.Box, Hand: a.Hand})
	if a.Kind.House() {
		r.applyHouse(a)
		return
	}
	switch r.phase {
	case ChallengeWindow:
		r.applyChallenge(a)
	case InsuranceWindow:
		r.applyInsurance(a)
	case FollowWindow:
		r.applyFollow(a)
	case AceChoice:
		boxNo := int(r.order[r.cur])
		if a.Kind == Declare { // VE-13
			h := &r.boxes[boxNo].hands[r.curHand]
			h.Count = h.Count.Declare(a.Value)
		}
		r.phase = Playing
		r.advance()
	case Playing:
		if a.Kind == Insure || a.Kind == EvenMoney { // ES-11: the offer still open
			r.placeInsurance(a)
			return
		}
		r.applyPlay(a)
	}
}

func (r *Round) applyChallenge(a Action) {
	if a.Kind == Challenge {
		b := &r.bets[r.findBet(a.Player, a.Box, a.Hand)]
		b.window = r.window
		half, _ := rules.ChallengeStake(b.Stake) // AR-10: checked even
		r.bets = append(r.bets, Bet{Player: a.Player, Box: a.Box, Hand: a.Hand, Kind: ChallengeBet, Stake: half})
		r.emit(Event{Kind: EvBet, Player: a.Player, Box: a.Box, Hand: a.Hand, BetKind: ChallengeBet, Amount: half})
		for i := range r.bets {
			if r.canChallenge(&r.bets[i], r.challengeBox, r.challengeIdx) {
				return // others may still challenge
			}
		}
	}
	r.closeChallenge()
}

func (r *Round) closeChallenge() {
	if r.challengeBox == 0 {
		r.dealSecond()
		return
	}
	r.challengeBox = 0
	r.phase = Playing
	r.advance()
}

func (r *Round) applyInsurance(a Action) {
	switch a.Kind {
	case Close:
		r.afterInsurance()
		return
	}
	r.placeInsurance(a)
	if !r.insuranceOffered() {
		r.afterInsurance()
	}
}

// placeInsurance places an insurance bet or pays even money.
func (r *Round) placeInsurance(a Action) {
	switch a.Kind {
	case Insure:
		r.bets = append(r.bets, Bet{Player: a.Player, Box: a.Box, Hand: 1, Kind: InsuranceBet, Stake: a.Stake})
		r.emit(Event{Kind: EvBet, Player: a.Player, Box: a.Box, Hand: 1, BetKind: InsuranceBet, Amount: a.Stake})
	case EvenMoney: // ES-10, VE-16: 1:1 at once, ending the bet
		b := &r.bets[r.findBet(a.Player, a.Box, 1)]
		b.settled, b.Result, b.Net = true, rules.EvenMoneyPaid, r.p.Pays(b.Stake, 1)
		r.emit(Event{Kind: EvResult, Player: b.Player, Box: b.Box, Hand: 1, BetKind: b.Kind, Result: b.Result, Amount: b.Net})
	}
}

func (r *Round) applyFollow(a Action) {
	boxNo, idx := int(r.order[r.cur]), r.curHand
	if a.Kind != Close {
		b := &r.bets[r.findBet(a.Player, boxNo, idx+1)]
		b.window = r.window
		stake := a.Stake
		if stake == 0 {
			stake = b.Stake
		}
		if a.Kind == Double {
			r.addBet(a.Player, boxNo, idx+1, DoubleBet, stake)
		} else {
			r.addBet(a.Player, boxNo, r.boxes[boxNo].n, SplitBet, stake)
		}
		if r.followPending(boxNo, idx) {
			return
		}
	}
	r.closeFollow()
}

func (r *Round) addBet(player string, boxNo, hand int, k BetKind, stake money.Amount) {
	var plays money.Amount
	if k == DoubleBet {
		plays = r.p.DoubleCounts(stake, r.baseStake(player, boxNo, hand), r.boundStakes(player, boxNo, hand))
	}
	r.bets = append(r.bets, Bet{Player: player, Box: boxNo, Hand: hand, Kind: k, Stake: stake, plays: plays})
	r.emit(Event{Kind: EvBet, Player: player, Box: boxNo, Hand: hand, BetKind: k, Amount: stake})
}

// boundStakes is what the table maximum binds together with a new double
// on a hand (VE-21): the bettor's own stake there (max_bet_scope=bet), or
// every bettor's on the hand with what the doubles before it play (box).
func (r *Round) boundStakes(player string, boxNo, hand int) money.Amount {
	if !r.p.MaxBindsBox() {
		return r.baseStake(player, boxNo, hand)
	}
	var n money.Amount
	for i := range r.bets {
		if b := &r.bets[i]; b.Box == boxNo && b.Hand == hand && b.Kind != InsuranceBet && b.Kind != ChallengeBet {
			n += b.Plays()
		}
	}
	return n
}

// followPending reports whether a back bettor on the hand has yet to answer
// the holder's double or split (VE-11, VE-12).
func (r *Round) followPending(boxNo, idx int) bool {
	holder := r.boxes[boxNo].holder
	for i := range r.bets {
		b := &r.bets[i]
		if b.Box == boxNo && b.Hand == idx+1 && b.Player != holder && (b.Kind == MainBet || b.Kind == SplitBet) && b.window != r.window && !b.settled {
			return true
		}
	}
	return false
}

func (r *Round) closeFollow() {
	r.phase = Playing
	if r.followKind == Double {
		r.dealDouble()
		return
	}
	r.advance()
}

func (r *Round) dealDouble() {
	boxNo := int(r.order[r.cur])
	if !r.deal(boxNo, r.curHand, r.p.DoubleCardFaceDown) { // AR-17: face down
		return
	}
	r.advance()
}

func (r *Round) applyPlay(a Action) {
	boxNo := int(r.order[r.cur])
	bx := &r.boxes[boxNo]
	h := &bx.hands[r.curHand]
	switch a.Kind {
	case Hit:
		if !r.deal(boxNo, r.curHand, false) {
			return
		}
	case Stand:
		h.stood = true
	case Declare: // AR-11
		h.Count = h.Count.Declare(a.Value)
	case Surrender:
		h.surrender = true
	case Withdraw: // AR-23 (f): the skipped player takes his bet back
		bx.void = true
		for i := range r.bets {
			if b := &r.bets[i]; b.Box == boxNo && !b.settled {
				b.settled, b.Result, b.Net = true, rules.Void, 0
				r.emit(Event{Kind: EvResult, Box: b.Box, Hand: b.Hand, Player: b.Player, BetKind: b.Kind, Result: rules.Void})
			}
		}
		for j := 0; j < bx.n; j++ {
			bx.hands[j].result = rules.Void
		}
	case Double:
		h.doubled = true
		stake := a.Stake
		if stake == 0 {
			stake = r.baseStake(a.Player, boxNo, r.curHand+1)
		}
		r.addBet(a.Player, boxNo, r.curHand+1, DoubleBet, stake)
		if r.openFollow(Double, boxNo, a.Stays) {
			return
		}
		r.dealDouble()
		return
	case Split:
		stake := a.Stake
		if stake == 0 {
			stake = r.baseStake(a.Player, boxNo, r.curHand+1)
		}
		c1, c2 := h.cards[0], h.cards[1]
		aces, tens := c1.IsAce(), c1.IsTen()
		nh := &bx.hands[bx.n]
		bx.n++
		h.reset()
		h.add(c1)
		h.split, h.splitAces, h.fromTens, h.challenge = true, aces, tens, true
		nh.reset()
		nh.add(c2)
		nh.split, nh.splitAces, nh.fromTens = true, aces, tens
		r.addBet(a.Player, boxNo, bx.n, SplitBet, stake)
		if r.openFollow(Split, boxNo, a.Stays) {
			return
		}
	}
	r.advance()
}

// openFollow opens the window in which back bettors answer the holder's
// double or split, if the hand has any (VE-11, VE-12). The table's reading
// (back_follow) may leave them no answer: under follow every back bet on
// the hand follows at once, a matching stake put on the double or the new
// hand, but for the bettors among stays who cannot pay it (Action.Stays):
// theirs stay where they were placed; under stay none does, and no window
// opens.
func (r *Round) openFollow(k Kind, boxNo int, stays []string) bool {
	r.followKind = k
	r.window++ // a fresh window: answers to earlier ones do not count
	if r.p.BackFollow == rules.BackStays || !r.followPending(boxNo, r.curHand) {
		return false
	}
	if r.p.BackFollow == rules.BackFollows {
		r.followAll(k, boxNo, stays)
		return false
	}
	r.phase = FollowWindow
	r.emit(Event{Kind: EvWindow, Phase: FollowWindow})
	return true
}

// followAll makes every back bet on the hand follow the holder's double or
// split (back_follow=follow): each bettor's matching stake, in the order
// the bets were placed, as if each had answered with it. A bettor among
// stays has not the matching stake: his bet stays as if he had declined,
// on the first hand only after a split, at its own stake on the doubled
// hand, taking the one card (VE-11's «devono accettare l'attribuzione di
// una sola carta»).
func (r *Round) followAll(k Kind, boxNo int, stays []string) {
	idx := r.curHand
	for r.followPending(boxNo, idx) {
		holder := r.boxes[boxNo].holder
		for i := range r.bets {
			b := &r.bets[i]
			if b.Box == boxNo && b.Hand == idx+1 && b.Player != holder && (b.Kind == MainBet || b.Kind == SplitBet) && b.window != r.window && !b.settled {
				b.window = r.window
				player, stake := b.Player, b.Stake
				if slices.Contains(stays, player) {
					continue
				}
				if k == Double {
					r.addBet(player, boxNo, idx+1, DoubleBet, stake)
				} else {
					r.addBet(player, boxNo, r.boxes[boxNo].n, SplitBet, stake)
				}
				break // addBet may move r.bets: look again
			}
		}
	}
}

// applyHouse applies the house's correction of an irregularity (AR-23).
func (r *Round) applyHouse(a Action) {
	switch a.Kind {
	case VoidRound:
		r.waiting = false
		r.voidRound("void by the inspector")
		return
	case BankFirst: // (f): the bank is played out now, the skipped players against it
		r.bankFirst = true
		r.revealDealer()
		for r.p.DealerTakes(rules.DealerFull, r.dealer.Count) {
			if !r.dealDealer(false) {
				return
			}
		}
		if r.dealer.Count.Total() > 21 { // "si la Banca se hubiera pasado, el jugador cobrará su apuesta"
			for i := r.cur; i < r.nOrder; i++ {
				b := &r.boxes[r.order[i]]
				for j := 0; j < b.n; j++ {
					b.hands[j].stood = true
				}
			}
			r.advance()
		}
		return
	case CardStands: // (d)'s exception: the card stands
		if r.phase == ChallengeWindow {
			r.closeChallenge() // nobody challenges: the card is the second
			return
		}
		boxNo := int(r.order[r.cur])
		r.applyPlay(Action{Kind: Hit, Player: r.boxes[boxNo].holder, Box: boxNo, Hand: r.curHand + 1})
		return
	case SkippedEleven: // item 9: withdraw, or take the next card
		box, hand := r.Current()
		r.skipped = [2]int{box, hand}
		return
	case ExposeHole: // (g): the players decide seeing it
		r.revealDealer()
		return
	case BankDiscarded: // item 14: «Próximas cartas para la Banca»
		i := a.Value - 1
		old, down := r.dealer.cards[i], int(r.dealer.faceDown) == i
		r.need = Need{FaceDown: down, Replace: true}
		c, ok := r.draw()
		if !ok {
			return
		}
		r.dealer.cards[i] = c
		r.dealer.Count = r.p.DealerCount(r.dealer.cards[:r.dealer.Count.N]...)
		// A face-down card keeps its face: the players have no right to it.
		r.emit(Event{Kind: EvBurn, Card: old, FaceDown: down})
		r.emit(Event{Kind: EvCard, Card: c, FaceDown: down})
		return
	case BurnHole: // (c): burned and replaced by the next card
		old := r.dealer.cards[1]
		r.need = Need{FaceDown: true, Replace: true}
		c, ok := r.draw()
		if !ok {
			return
		}
		r.dealer.cards[1] = c
		r.dealer.Count = r.p.DealerCount(r.dealer.cards[0], c)
		r.emit(Event{Kind: EvBurn, Card: old})
		r.emit(Event{Kind: EvCard, Card: c, FaceDown: true})
		return
	}
	// VoidBox, (a) (b) (e): the box's bets are void, its cards burned.
	bx := &r.boxes[a.Box]
	bx.void = true
	for i := range r.bets {
		if b := &r.bets[i]; b.Box == a.Box {
			b.settled, b.Result, b.Net = true, rules.Void, 0
			r.emit(Event{Kind: EvResult, Box: b.Box, Hand: b.Hand, Player: b.Player, BetKind: b.Kind, Result: rules.Void})
		}
	}
	for j := 0; j < bx.n; j++ {
		bx.hands[j].result = rules.Void
	}
	switch r.phase {
	case ChallengeWindow:
		for i := range r.bets {
			if r.canChallenge(&r.bets[i], r.challengeBox, r.challengeIdx) {
				return
			}
		}
		r.closeChallenge()
	case InsuranceWindow:
		if !r.insuranceOffered() {
			r.afterInsurance()
		}
	default:
		if int(r.order[r.cur]) == a.Box {
			r.phase = Playing
			r.advance()
		}
	}
}

// Following returns the back bets that follow the holder's split or double
// a at once under back_follow=follow (ES-03, VE-12), in the order the bets
// were placed: each bettor adds his bet's stake, unless a names him among
// its Stays. Nil for any other action or reading.
func (r *Round) Following(a Action) []Bet {
	if r.p.BackFollow != rules.BackFollows || a.Kind != Double && a.Kind != Split || a.Box < 1 || a.Box >= len(r.boxes) {
		return nil
	}
	holder := r.boxes[a.Box].holder
	var out []Bet
	for i := range r.bets {
		if b := &r.bets[i]; b.Box == a.Box && b.Hand == a.Hand && b.Player != holder && (b.Kind == MainBet || b.Kind == SplitBet) && !b.settled {
			out = append(out, *b)
		}
	}
	return out
}
