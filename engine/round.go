package engine

import (
	"fmt"

	"sabot/card"
	"sabot/money"
	"sabot/rules"
)

// Source is where a round's cards come from: a shoe.
type Source interface {
	// Draw deals the next card; ok is false when the cards have run out.
	Draw() (c card.Card, ok bool)
	// CutCardOut reports whether the cut card has come out (EG-04).
	CutCardOut() bool
}

// Waiter is a Source that may not have the next card yet: a physical shoe,
// whose cards are read as the dealer slides them out. When Draw
// reports no card and Waiting reports true, the round stops where it needs
// the card instead of running out (AR-08): Waiting tells for whom, and it
// takes no decision until it is given the card. The round does not resume:
// its record (Record), with the card added to the source, replays to where
// it waits next (Replay), to the same events.
type Waiter interface {
	Source
	Waiting() bool
}

// Need is whom the next card is for: a box's hand, or the dealer (Box 0);
// FaceDown for a card dealt face down (the hole card; a double's card under
// AR-17). Replace is the hole card's replacement after it was burned
// (AR-23 (c)).
type Need struct {
	Box      int  `json:"box"`
	Hand     int  `json:"hand,omitempty"`
	FaceDown bool `json:"face_down,omitempty"`
	Replace  bool `json:"replace,omitempty"`
}

type box struct {
	void   bool // AR-23: the box sits the round out, its bets returned
	holder string
	hands  [rules.MaxHands]Hand
	n      int // hands in play
}

// Round is one deal at one table: an explicit state machine from the bets to
// the settlement. Act is the checked path: it refuses anything LegalActions
// does not list, with a reason naming the rule, and changes nothing when it
// refuses. A Round is reusable (Reset) and not safe for concurrent use.
type Round struct {
	p   *rules.Profile
	src Source

	phase  Phase
	boxes  [rules.MaxBoxes + 1]box // 1-based
	order  [rules.MaxBoxes]int8    // boxes with bets, in dealing order
	nOrder int
	dealer Hand
	bets   []Bet

	cur     int // index into order of the box in play
	curHand int // index of the hand in play

	// The open window.
	window       uint32 // sequence number of the open window
	followKind   Kind   // Double or Split: what back bettors answer
	challengeBox int    // a split-Ace challenge window: its box and hand index
	challengeIdx int

	void          bool
	voidReason    string
	lastRound     bool
	cutAfter      int // cards drawn when the cut card came out
	cutOutAtStart bool

	events  []Event
	drawn   []card.Card
	actions []Action

	need    Need // the card being drawn: whom it is for
	waiting bool // the source has not the card yet (Waiter)

	bankFirst bool   // AR-23 (f): the bank's hand was completed before the players'
	skipped   [2]int // AR-23 item 9: the box and hand (from 1) of an 11 the dealer gave no card

	insOffered bool // the insurance window was opened this round (ES-10, ES-11, VE-15, VE-16)
	insTurn    int  // the box in turn when it closed: the first to decide
	thirdCard  bool // a player's hand has been dealt a third card (ES-11)

	style money.Style // how refusals show amounts (SetAmountStyle)
}

// New returns a round for a profile. The profile must be valid and must not
// change while the round uses it.
func New(p *rules.Profile) *Round {
	r := &Round{p: p}
	r.bets = make([]Bet, 0, 16)
	r.events = make([]Event, 0, 64)
	r.drawn = make([]card.Card, 0, 32)
	r.actions = make([]Action, 0, 16)
	r.Reset(nil)
	return r
}

// Reset readies the round for a new deal from src.
func (r *Round) Reset(src Source) {
	r.src = src
	r.phase = Betting
	for i := range r.boxes {
		b := &r.boxes[i]
		b.holder = ""
		b.n = 0
		b.void = false
	}
	r.nOrder = 0
	r.dealer.reset()
	r.bets = r.bets[:0]
	r.cur, r.curHand = 0, 0
	r.window = 0
	r.followKind = 0
	r.challengeBox, r.challengeIdx = 0, 0
	r.void, r.voidReason, r.lastRound = false, "", false
	r.need, r.waiting, r.bankFirst, r.skipped = Need{}, false, false, [2]int{}
	r.insOffered, r.insTurn, r.thirdCard = false, 0, false
	r.cutOutAtStart = src != nil && src.CutCardOut()
	r.events = r.events[:0]
	r.drawn = r.drawn[:0]
	r.actions = r.actions[:0]
}

// SetAmountStyle sets how the round's refusals show an amount (a stake,
// a table limit): as its players see money (money.Grouped, money.Plain) or,
// by default, as the integer of minor units given (money.Minor). It holds
// across Reset.
func (r *Round) SetAmountStyle(s money.Style) { r.style = s }

func (r *Round) amount(n money.Amount) string { return n.In(r.style) }

// Profile returns the round's profile.
func (r *Round) Profile() *rules.Profile { return r.p }

// Phase returns where the round stands.
func (r *Round) Phase() Phase { return r.phase }

// Waiting reports whether the round waits for its next card from a
// physical shoe (Waiter), and whom the card is for.
func (r *Round) Waiting() (Need, bool) {
	if !r.waiting {
		return Need{}, false
	}
	return r.need, true
}

// Void reports whether the round is void, and why.
func (r *Round) Void() (bool, string) { return r.void, r.voidReason }

// LastRound reports whether the cut card came out during this round: it is
// the last of the shoe (EG-04).
func (r *Round) LastRound() bool { return r.lastRound }

// Dealer returns the dealer's hand.
func (r *Round) Dealer() *Hand { return &r.dealer }

// Bets returns the round's bets (do not modify).
func (r *Round) Bets() []Bet { return r.bets }

// Boxes returns the numbers of the boxes in play, in dealing order.
func (r *Round) Boxes() []int {
	out := make([]int, r.nOrder)
	for i := 0; i < r.nOrder; i++ {
		out[i] = int(r.order[i])
	}
	return out
}

// Holder returns the box holder of a box ("" when nobody bets on it).
func (r *Round) Holder(box int) string {
	if box < 1 || box > r.p.Boxes {
		return ""
	}
	return r.boxes[box].holder
}

// Hands returns the hands of a box in play order (do not modify).
func (r *Round) Hands(box int) []Hand {
	if box < 1 || box > r.p.Boxes {
		return nil
	}
	b := &r.boxes[box]
	return b.hands[:b.n]
}

// HandOver reports whether a box's hand (from 1) takes no more decision
// by itself: it busted, made 21 (AR-12, VE-06, VE-10), doubled, stood,
// surrendered, or is a split Ace's one card (ES-09, VE-14). A table dealt
// from a physical shoe asks it of the card it last read: a card
// that ended a hand is not the dealer's alone to take back (AR-23).
func (r *Round) HandOver(box, hand int) bool {
	if box < 1 || box > r.p.Boxes || hand < 1 || hand > r.boxes[box].n {
		return false
	}
	b := &r.boxes[box]
	return !r.needsDecision(b, &b.hands[hand-1])
}

// Current returns the box and hand (from 1) whose turn it is while Playing,
// or while a window concerns one hand; zeros otherwise.
func (r *Round) Current() (box, hand int) {
	switch r.phase {
	case Playing, FollowWindow, AceChoice:
		return int(r.order[r.cur]), r.curHand + 1
	case ChallengeWindow:
		if r.challengeBox != 0 {
			return r.challengeBox, r.challengeIdx + 1
		}
	}
	return 0, 0
}

// Net returns each player's net and the house's, once the round is done.
func (r *Round) Net() (players map[string]money.Amount, house money.Amount) {
	players = map[string]money.Amount{}
	for i := range r.bets {
		b := &r.bets[i]
		players[b.Player] += b.Net
		house -= b.Net
	}
	return players, house
}

// PlaceBet places a stake on a box before the deal. The first bettor on a box
// is its box holder; any further one is a back bettor (ES-03, VE-03), refused
// where the profile has no back betting (AR-05).
func (r *Round) PlaceBet(player string, boxNo int, stake money.Amount) error {
	refuseBy := func(err error, why, rule, option string) error {
		return &Refusal{err, fmt.Sprintf("%s may not bet %s on box %d", player, r.amount(stake), boxNo), why, r.p.Cite(rule, option)}
	}
	refuse := func(err error, why, rule string) error { return refuseBy(err, why, rule, "") }
	if r.phase != Betting {
		return refuse(ErrPhase, "no bet once the first card has left the shoe", "AR-22, ES-01, VE-04")
	}
	if player == "" {
		return refuse(ErrStake, "a bet needs a player", "")
	}
	if boxNo < 1 || boxNo > r.p.Boxes {
		return refuse(ErrStake, fmt.Sprintf("the table has boxes 1 to %d", r.p.Boxes), "")
	}
	// The deal takes the stakes as they stand (VE-18).
	if bar := r.p.StakeBar(stake, rules.Dealt); bar != rules.NoBar {
		return r.stakeRefusal(bar, refuseBy)
	}
	b := &r.boxes[boxNo]
	onBox, boxTotal := 0, money.Amount(0)
	for i := range r.bets {
		if r.bets[i].Box == boxNo {
			if r.bets[i].Player == player {
				return refuse(ErrStake, player+" already bets on this box", "AR-22, ES-01, VE-04")
			}
			onBox++
			boxTotal += r.bets[i].Stake
		}
	}
	if bar := r.p.BoxBar(onBox, boxTotal, stake); bar != rules.NoBar {
		switch bar {
		case rules.BarNoBackBets:
			return refuseBy(ErrStake, "no back betting: nobody adds to another player's box", "AR-05, FAM-01", "back_bets_per_box")
		case rules.BarBackBettors:
			return refuse(ErrStake, fmt.Sprintf("box %d already has %d back bettors", boxNo, r.p.BackBetsPerBox), "ES-03, VE-03")
		}
		return refuse(ErrStake, fmt.Sprintf("the box's stakes together may not exceed the table maximum %s, not even with others' stakes (%s on the box already)", r.amount(r.p.MaxBet), r.amount(boxTotal)), "ES-03, VE-21") // BarBoxMaximum
	}
	if b.holder == "" {
		b.holder = player
		r.order[r.nOrder] = int8(boxNo)
		r.nOrder++
		// Keep dealing order: boxes from 1 up, whatever the order of bets.
		for i := r.nOrder - 1; i > 0 && r.order[i] < r.order[i-1]; i-- {
			r.order[i], r.order[i-1] = r.order[i-1], r.order[i]
		}
	}
	r.bets = append(r.bets, Bet{Player: player, Box: boxNo, Hand: 1, Kind: MainBet, Stake: stake})
	r.emit(Event{Kind: EvBet, Box: boxNo, Hand: 1, Player: player, Amount: stake, BetKind: MainBet})
	return nil
}

// stakeRefusal words a StakeBar's refusal of a bet (AR-04, FAM-01, VE-21).
func (r *Round) stakeRefusal(bar rules.Bar, refuse func(err error, why, rule, option string) error) error {
	switch bar {
	case rules.BarStake:
		return refuse(ErrStake, "a stake must be positive", "AR-04, FAM-01, VE-21", "min_bet")
	case rules.BarMinimum:
		return refuse(ErrStake, fmt.Sprintf("the table minimum is %s", r.amount(r.p.MinBet)), "AR-04, FAM-01, VE-21", "min_bet")
	}
	return refuse(ErrStake, fmt.Sprintf("the table maximum is %s", r.amount(r.p.MaxBet)), "AR-04, ES-03, FAM-01, VE-21", "max_bet") // BarMaximum
}

// Start closes the bets ("rien ne va plus", VE-04) and deals: a card to each
// box in order, the dealer's up card, the challenge window (AR-10), the
// second cards and the hole card (AR-09, ES-12, VE-05), the insurance window,
// the peek; then the round waits for the first decision.
func (r *Round) Start() error {
	if r.phase != Betting {
		return &Refusal{ErrPhase, "the deal may not start", "the round has started", ""}
	}
	if r.nOrder == 0 {
		return &Refusal{ErrStake, "the deal may not start", "no bet has been placed", ""}
	}
	if r.src == nil {
		return &Refusal{ErrPhase, "the deal may not start", "the round has no shoe", ""}
	}
	for i := 0; i < r.nOrder; i++ {
		b := &r.boxes[r.order[i]]
		b.n = 1
		b.hands[0].reset()
	}
	r.phase = Playing // dealing
	for i := 0; i < r.nOrder; i++ {
		if !r.deal(int(r.order[i]), 0, false) {
			return nil
		}
	}
	if !r.dealDealer(false) {
		return nil
	}
	if r.p.Challenge && r.openChallenge(0, 0) {
		return nil
	}
	r.dealSecond()
	return nil
}

// openChallenge opens the challenge window: for the first cards (box 0), or
// for a split Ace's hand before its second card (AR-10). It reports whether
// anybody may challenge.
func (r *Round) openChallenge(boxNo, idx int) bool {
	r.window++ // a fresh window: answers to earlier ones do not count
	for i := range r.bets {
		if r.canChallenge(&r.bets[i], boxNo, idx) {
			r.challengeBox, r.challengeIdx = boxNo, idx
			r.phase = ChallengeWindow
			r.emit(Event{Kind: EvWindow, Phase: ChallengeWindow, Box: boxNo, Hand: idx + 1})
			return true
		}
	}
	return false
}

func (r *Round) canChallenge(b *Bet, boxNo, idx int) bool {
	if b.Kind != MainBet && b.Kind != SplitBet || b.window == r.window || b.settled {
		return false
	}
	if boxNo == 0 {
		if b.Kind != MainBet {
			return false
		}
		h := &r.boxes[b.Box].hands[0]
		return h.Count.N == 1 && h.cards[0].IsAce()
	}
	if b.Box != boxNo || b.Hand != idx+1 {
		return false
	}
	// AR-10 «también», read as a second challenge: only by one who
	// challenged the first Ace (challenge_after_first).
	return !r.p.ChallengeAfterFirst || r.hasHandBet(b.Player, boxNo, 1, ChallengeBet)
}

// hasHandBet reports whether a bettor has a bet of kind k on a box's hand.
func (r *Round) hasHandBet(player string, boxNo, hand int, k BetKind) bool {
	for i := range r.bets {
		if b := &r.bets[i]; b.Kind == k && b.Box == boxNo && b.Hand == hand && b.Player == player {
			return true
		}
	}
	return false
}

func (r *Round) openWindow(ph Phase) {
	r.window++
	r.phase = ph
	r.emit(Event{Kind: EvWindow, Phase: ph})
}

func (r *Round) dealSecond() {
	r.phase = Playing
	for i := 0; i < r.nOrder; i++ {
		boxNo := int(r.order[i])
		if r.boxes[boxNo].void {
			continue
		}
		if !r.deal(boxNo, 0, false) {
			return
		}
		r.settleChallenges(boxNo, 0)
	}
	if r.p.HoleCard != rules.NoHole {
		if !r.dealDealer(true) {
			return
		}
	}
	if r.insuranceOffered() {
		r.insOffered = true
		r.openWindow(InsuranceWindow)
		return
	}
	r.afterInsurance()
}

// settleChallenges settles the challenges on a hand that has just received
// its second card: 2:1 if it is ten-value (AR-10).
func (r *Round) settleChallenges(boxNo, idx int) {
	if !r.p.Challenge {
		return
	}
	h := &r.boxes[boxNo].hands[idx]
	ten := h.cards[1].IsTen()
	for i := range r.bets {
		b := &r.bets[i]
		if b.Kind != ChallengeBet || b.Box != boxNo || b.Hand != idx+1 || b.settled {
			continue
		}
		b.settled = true
		if ten {
			b.Result, b.Net = rules.Win, r.p.Pays(b.Stake, 2)
		} else {
			b.Result, b.Net = rules.Lose, -b.Stake
		}
		r.emit(Event{Kind: EvResult, Box: b.Box, Hand: b.Hand, Player: b.Player, BetKind: b.Kind, Result: b.Result, Amount: b.Net})
	}
}

// insuranceOffered reports whether the dealer's up card opens the insurance
// window for anybody: insurance under an Ace (ES-11, VE-15), even money under
// an Ace or a ten as the profile says (ES-10, VE-16).
func (r *Round) insuranceOffered() bool {
	for i := range r.bets {
		b := &r.bets[i]
		if b.Kind == MainBet && (r.canInsure(b) || r.canEvenMoney(b)) {
			return true
		}
	}
	return false
}

// insuranceOpen reports whether insurance and even money are still open
// while the boxes play: where the profile closes them only when a player
// is dealt a third card (ES-11: «antes de dar la tercera carta al primer
// jugador que la pida»), until then.
func (r *Round) insuranceOpen() bool {
	return r.p.InsuranceCloses == rules.ClosesThirdCard && r.insOffered && !r.thirdCard && r.phase == Playing
}

func (r *Round) upCard() card.Card { return r.dealer.cards[0] }

func (r *Round) canInsure(b *Bet) bool {
	if !r.p.Insurance || !r.upCard().IsAce() || b.Kind != MainBet || b.settled || b.Stake/2 < 1 {
		return false
	}
	if r.hasSideBet(b.Player, b.Box, InsuranceBet) {
		return false
	}
	return r.p.InsureBlackjack || !r.blackjack(&r.boxes[b.Box].hands[0])
}

// blackjack reports whether a player's hand ranks as a blackjack: a split
// hand's Ace and ten-value is 21 and not a blackjack (ES-09, VE-14: «se
// contará como 21 y no como Black Jack») unless split_blackjack ranks it so
// (AR-19).
func (r *Round) blackjack(h *Hand) bool {
	return r.p.IsBlackjack(rules.PlayerHand{Count: h.Count, Split: h.split, SplitAces: h.splitAces})
}

// canEvenMoney reports whether a main bet may take even money now: its box's
// first hand is a blackjack (ES-10: «los jugadores que tengan Black Jack»; a
// split hand's 21 is none) under an up card the profile names (VE-16).
func (r *Round) canEvenMoney(b *Bet) bool {
	if b.Kind != MainBet || b.settled || !r.blackjack(&r.boxes[b.Box].hands[0]) {
		return false
	}
	up := r.upCard()
	switch r.p.EvenMoney {
	case rules.EvenMoneyAce:
		return up.IsAce() && !r.hasSideBet(b.Player, b.Box, InsuranceBet)
	case rules.EvenMoneyAceTen:
		return (up.IsAce() || up.IsTen()) && !r.hasSideBet(b.Player, b.Box, InsuranceBet)
	}
	return false
}

func (r *Round) hasSideBet(player string, boxNo int, k BetKind) bool {
	for i := range r.bets {
		if b := &r.bets[i]; b.Kind == k && b.Box == boxNo && b.Player == player {
			return true
		}
	}
	return false
}

// afterInsurance peeks where the profile has a peek (US hole card): a dealer
// blackjack ends the round at once. Otherwise play begins.
func (r *Round) afterInsurance() {
	r.phase = Playing
	if r.p.HoleCard == rules.Peek && (r.upCard().IsAce() || r.upCard().IsTen()) && r.dealer.Count.TwoCard21() {
		r.revealDealer()
		r.settle()
		return
	}
	r.cur, r.curHand = 0, 0
	r.advance()
	if r.phase != Done && r.cur < r.nOrder {
		r.insTurn = int(r.order[r.cur])
	}
}

// advance moves play to the next hand that needs a decision, dealing the
// second card of split hands on the way, and plays the dealer and settles
// when no hand needs one.
func (r *Round) advance() {
	for ; r.cur < r.nOrder; r.cur, r.curHand = r.cur+1, 0 {
		boxNo := int(r.order[r.cur])
		b := &r.boxes[boxNo]
		if b.void {
			continue
		}
		for ; r.curHand < b.n; r.curHand++ {
			h := &b.hands[r.curHand]
			if h.Count.N == 1 && !h.stood {
				// A split hand waits for its second card (not one paid as
				// it stands, AR-23 (f)). AR-10: a split Ace may be
				// challenged first.
				if r.p.Challenge && r.p.ChallengeSplitAce && h.splitAces && !h.challenge {
					h.challenge = true
					if r.openChallenge(boxNo, r.curHand) {
						return
					}
				}
				if !r.deal(boxNo, r.curHand, false) {
					return
				}
				r.settleChallenges(boxNo, r.curHand)
			}
			// VE-13: an Ace on a split ten-value may be counted 1.
			if r.p.SplitTenAceChoice && h.fromTens && !h.aceChoice && h.Count.N == 2 && h.cards[1].IsAce() && h.Count.Declared == 0 {
				h.aceChoice = true
				r.openWindow(AceChoice)
				return
			}
			if r.needsDecision(b, h) {
				r.phase = Playing
				return
			}
		}
	}
	r.playDealer()
	r.settle()
}

// needsDecision reports whether a hand waits for its holder.
func (r *Round) needsDecision(b *box, h *Hand) bool {
	switch {
	case h.stood, h.doubled, h.surrender:
		return false
	case h.splitAces && r.p.OneCard(r.pos(b, h)):
		// ES-09, VE-14: one card each; only a new pair of Aces may be
		// split again where resplit_aces allows it.
		return r.p.MaySplit(withPair(r.pos(b, h), h))
	}
	t := h.Count.Total()
	if t > 21 {
		return false
	}
	if t == 21 {
		// AR-12, VE-06, VE-10: a blackjack or a 21 draws nothing.
		return !r.p.StandOn21 && !h.Count.TwoCard21()
	}
	return true
}

// deal gives the next card to a box's hand. It reports false when the round
// has become void.
func (r *Round) deal(boxNo, idx int, faceDown bool) bool {
	r.need = Need{Box: boxNo, Hand: idx + 1, FaceDown: faceDown}
	c, ok := r.draw()
	if !ok {
		return false
	}
	h := &r.boxes[boxNo].hands[idx]
	if h.Count.N == 2 {
		r.thirdCard = true
	}
	if faceDown {
		h.faceDown = int8(h.Count.N)
	}
	h.add(c)
	r.emit(Event{Kind: EvCard, Box: boxNo, Hand: idx + 1, Card: c, FaceDown: faceDown})
	return true
}

func (r *Round) dealDealer(faceDown bool) bool {
	r.need = Need{FaceDown: faceDown}
	c, ok := r.draw()
	if !ok {
		return false
	}
	if faceDown {
		r.dealer.faceDown = int8(r.dealer.Count.N)
	}
	// AR-13: the dealer's count by the profile's reading (dealer_ace).
	r.dealer.cards[r.dealer.Count.N] = c
	r.dealer.Count = r.p.DealerAdd(r.dealer.Count, c)
	r.emit(Event{Kind: EvCard, Card: c, FaceDown: faceDown})
	return true
}

// draw takes the next card from the shoe. When the cards run out the round is
// void (AR-08); when the cut card comes out this is the last round, void at
// once under the house option (EG-04). A physical shoe that has not the
// card yet stops the round where it is (Waiter): it reports false, as a
// void does, and every caller returns at once.
func (r *Round) draw() (card.Card, bool) {
	c, ok := r.src.Draw()
	if !ok {
		if w, isW := r.src.(Waiter); isW && w.Waiting() {
			r.waiting = true
			return 0, false
		}
		r.voidRound(r.p.VoidText()) // AR-08, or the profile's reading (rules.CardsOut)
		return 0, false
	}
	r.drawn = append(r.drawn, c)
	if !r.lastRound && !r.cutOutAtStart && r.src.CutCardOut() {
		r.lastRound, r.cutAfter = true, len(r.drawn)
		r.emit(Event{Kind: EvCutCard})
		if r.p.LastRoundVoid {
			r.voidRound("the cut card came out and the house stops the shoe (EG-04)")
			return 0, false
		}
	}
	return c, true
}

// revealDealer turns the dealer's face-down card.
func (r *Round) revealDealer() {
	if r.dealer.faceDown >= 0 {
		r.emit(Event{Kind: EvReveal, Card: r.dealer.cards[r.dealer.faceDown]})
		r.dealer.faceDown = -1
	}
}

// dealerNeed says how far the dealer must play for the bets still to
// settle (AR-14): the farthest any of them needs (Profile.DealerNeed; an
// insurance bet, two cards).
func (r *Round) dealerNeed() rules.DealerPlay {
	need := r.p.DealerFloor()
	for i := range r.bets {
		b := &r.bets[i]
		if b.settled {
			continue
		}
		switch b.Kind {
		case InsuranceBet:
			need = max(need, rules.DealerTwoCards)
			continue
		case ChallengeBet:
			continue
		}
		h := &r.boxes[b.Box].hands[b.Hand-1]
		n := r.p.DealerNeed(rules.PlayerHand{Count: h.Count, Split: h.split, SplitAces: h.splitAces, Surrendered: h.surrender})
		if n == rules.DealerFull {
			return n
		}
		need = max(need, n)
	}
	return need
}

// playDealer plays the dealer's hand after the boxes (AR-13, AR-14, ES-05,
// VE-08): he turns his hole card and takes cards as far as the bets need
// (Profile.DealerTakes).
func (r *Round) playDealer() {
	if r.void || r.bankFirst { // AR-23 (f): played already
		return
	}
	need := r.dealerNeed()
	r.revealDealer()
	for r.p.DealerTakes(need, r.dealer.Count) {
		if !r.dealDealer(false) {
			return
		}
	}
}

func (r *Round) voidRound(reason string) {
	r.void, r.voidReason = true, reason
	for i := range r.bets {
		b := &r.bets[i]
		if b.Result == rules.EvenMoneyPaid {
			// Final before the void: «finalizando con esto su jugada»
			// (ES-10), «l'immediato pagamento» (VE-16).
			continue
		}
		b.Net, b.Result, b.settled = 0, rules.Void, true
		r.emit(Event{Kind: EvResult, Box: b.Box, Hand: b.Hand, Player: b.Player, BetKind: b.Kind, Result: rules.Void})
	}
	for i := 0; i < r.nOrder; i++ {
		b := &r.boxes[r.order[i]]
		for j := 0; j < b.n; j++ {
			if b.hands[j].result != rules.EvenMoneyPaid {
				b.hands[j].result = rules.Void
			}
		}
	}
	r.phase = Done
	r.emit(Event{Kind: EvVoid, Text: reason})
	r.emit(Event{Kind: EvDone})
}

func (r *Round) emit(e Event) {
	e.Seq = len(r.events) + 1
	r.events = append(r.events, e)
}
