package engine

import (
	"errors"
	"fmt"
	"slices"

	"sabot/money"
	"sabot/rules"
)

// errQuiet stands for a refusal whose reason nobody will read: LegalActions
// asks check without explanations so that listing allocates nothing.
var errQuiet = errors.New("refused")

// Act applies a decision if the rules allow it now, and otherwise refuses it
// with a *Refusal naming the rule and changes nothing.
func (r *Round) Act(a Action) error {
	if err := r.check(a, true); err != nil {
		return err
	}
	r.apply(a)
	return nil
}

// Apply applies a decision without checking it: the fast path for callers
// that only choose among LegalActions (the simulator). An illegal action
// leaves the round in an undefined state.
func (r *Round) Apply(a Action) { r.apply(a) }

// Legal reports whether Act would accept a.
func (r *Round) Legal(a Action) bool { return r.check(a, false) == nil }

// Check is Act's refusal of a (nil: Act would accept it), changing nothing.
func (r *Round) Check(a Action) error { return r.check(a, true) }

// refuse builds the refusal of a, or errQuiet when no reason is wanted. It
// cites rule's IDs of the table's own regulation (rules.Profile.Cite).
func (r *Round) refuse(explain bool, a Action, sentinel error, why, rule string) error {
	return r.refuseBy(explain, a, sentinel, why, rule, "")
}

// refuseBy is refuse where an option of the table decides the matter: the
// refusal cites it, with its value, where the table's regulation has no
// rule of rule's IDs ("this table's rules: surrender=none").
func (r *Round) refuseBy(explain bool, a Action, sentinel error, why, rule, option string) error {
	if !explain {
		return errQuiet
	}
	var what string
	switch {
	case a.Kind == Close || a.Kind.House():
		what = "the house may not " + a.Kind.String()
	case a.Kind == Declare:
		what = fmt.Sprintf("%s box %d hand %d may not declare %d", a.Player, a.Box, a.Hand, a.Value)
	case a.Kind == Insure:
		what = fmt.Sprintf("%s box %d may not insure %s", a.Player, a.Box, r.amount(a.Stake))
	case a.Kind >= Hit && a.Kind <= Declare || a.Kind == Withdraw:
		what = fmt.Sprintf("%s box %d hand %d may not %s", a.Player, a.Box, a.Hand, a.Kind)
	default:
		what = fmt.Sprintf("%s: unknown action %d", a.Player, a.Kind)
	}
	return &Refusal{Err: sentinel, What: what, Why: why, Rule: r.p.Cite(rule, option)}
}

// findBet returns the index of a bettor's main or split bet on a box's hand, or -1.
func (r *Round) findBet(player string, boxNo, hand int) int {
	for i := range r.bets {
		b := &r.bets[i]
		if b.Box == boxNo && b.Hand == hand && b.Player == player && (b.Kind == MainBet || b.Kind == SplitBet) {
			return i
		}
	}
	return -1
}

func (r *Round) check(a Action, explain bool) error {
	if a.Kind < Hit || a.Kind > BankDiscarded {
		return r.refuse(explain, a, ErrIllegalAction, "unknown action", "")
	}
	if r.waiting && a.Kind != VoidRound {
		return r.refuse(explain, a, ErrPhase, "the round waits for the next card from the shoe", "")
	}
	if a.Kind.House() {
		return r.checkHouse(a, explain)
	}
	switch r.phase {
	case Betting:
		return r.refuse(explain, a, ErrPhase, "the cards have not been dealt", "")
	case Done:
		return r.refuse(explain, a, ErrPhase, "the round is over", "")
	case ChallengeWindow:
		return r.checkChallenge(a, explain)
	case InsuranceWindow:
		return r.checkInsurance(a, explain)
	case FollowWindow:
		return r.checkFollow(a, explain)
	case AceChoice:
		return r.checkAceChoice(a, explain)
	}
	return r.checkPlay(a, explain)
}

func (r *Round) checkChallenge(a Action, explain bool) error {
	switch a.Kind {
	case Close:
		return nil
	case Challenge:
	default:
		return r.refuse(explain, a, ErrOutOfTurn, "the challenge is open: it comes before the second card", "AR-10")
	}
	if a.Box < 1 || a.Box > r.p.Boxes {
		return r.refuse(explain, a, ErrIllegalAction, "no such box", "")
	}
	i := r.findBet(a.Player, a.Box, a.Hand)
	if i < 0 {
		return r.refuse(explain, a, ErrIllegalAction, "no bet of this player on that hand", "AR-06")
	}
	b := &r.bets[i]
	if !r.canChallenge(b, r.challengeBox, r.challengeIdx) {
		if b.window == r.window {
			return r.refuse(explain, a, ErrIllegalAction, "already challenged", "AR-10")
		}
		if r.challengeBox != 0 {
			return r.refuse(explain, a, ErrOutOfTurn, "the challenge now open is for the split Ace's hand only", "AR-10")
		}
		return r.refuse(explain, a, ErrIllegalAction, "the challenge needs an Ace as the hand's first card", "AR-10")
	}
	if half, ok := rules.ChallengeStake(b.Stake); !ok || (a.Stake != 0 && a.Stake != half) {
		if explain {
			return r.refuse(explain, a, ErrStake, challengeStake(b.Stake, r.amount), "AR-10")
		}
		return errQuiet
	}
	return nil
}

func (r *Round) checkInsurance(a Action, explain bool) error {
	switch a.Kind {
	case Close:
		return nil
	case Insure, EvenMoney:
	default:
		if r.p.InsuranceCloses == rules.ClosesThirdCard {
			return r.refuse(explain, a, ErrOutOfTurn, "insurance and even money are offered now: answer or decline first (the offer stays open while the boxes play, until the first third card)", "ES-10, ES-11, VE-15, VE-16")
		}
		return r.refuse(explain, a, ErrOutOfTurn, "insurance and even money are offered now, before play", "ES-10, ES-11, VE-15, VE-16")
	}
	if a.Hand > 1 {
		return r.refuse(explain, a, ErrIllegalAction, "insurance and even money are on the first hand", "ES-11, VE-15")
	}
	if a.Box < 1 || a.Box > r.p.Boxes {
		return r.refuse(explain, a, ErrIllegalAction, "no such box", "")
	}
	i := r.findBet(a.Player, a.Box, 1)
	if i < 0 {
		return r.refuse(explain, a, ErrIllegalAction, "no bet of this player on that box", "ES-11, VE-15")
	}
	b := &r.bets[i]
	h0 := &r.boxes[a.Box].hands[0]
	bj := r.blackjack(h0)
	if a.Kind == EvenMoney {
		if r.canEvenMoney(b) {
			return nil
		}
		switch {
		case r.p.EvenMoney == rules.NoEvenMoney:
			return r.refuse(explain, a, ErrIllegalAction, "there is no even money at this table", "AR-16, ES-10, VE-16")
		case !bj && h0.split && h0.Count.TwoCard21():
			return r.refuse(explain, a, ErrIllegalAction, "even money needs a blackjack, and an Ace and a ten-value on a split hand are 21, not a blackjack", "ES-10, ES-09, VE-16, VE-14")
		case !bj:
			return r.refuse(explain, a, ErrIllegalAction, "even money needs a blackjack", "ES-10, VE-16")
		case b.settled:
			return r.refuse(explain, a, ErrIllegalAction, "even money has been paid", "ES-10, VE-16")
		case r.p.EvenMoney == rules.EvenMoneyAce && !r.upCard().IsAce():
			return r.refuse(explain, a, ErrIllegalAction, "even money is offered under a dealer Ace", "ES-10, VE-16")
		case !r.upCard().IsAce() && !r.upCard().IsTen():
			return r.refuse(explain, a, ErrIllegalAction, "even money is offered under a dealer Ace or ten", "ES-10, VE-16")
		}
		return r.refuse(explain, a, ErrIllegalAction, "the blackjack has been insured", "ES-10, VE-15")
	}
	switch {
	case !r.p.Insurance:
		return r.refuse(explain, a, ErrIllegalAction, "there is no insurance at this table", "AR-20, ES-11, VE-15")
	case !r.upCard().IsAce():
		return r.refuse(explain, a, ErrIllegalAction, "insurance is offered only under a dealer Ace", "ES-11, VE-15")
	case bj && !r.p.InsureBlackjack:
		return r.refuse(explain, a, ErrIllegalAction, "a blackjack cannot be insured", "ES-10, VE-15")
	case b.settled:
		return r.refuse(explain, a, ErrIllegalAction, "even money has been paid", "ES-10, VE-16")
	case r.hasSideBet(a.Player, a.Box, InsuranceBet):
		return r.refuse(explain, a, ErrIllegalAction, "already insured", "ES-11, VE-15")
	case a.Stake < 1 || a.Stake > b.Stake/2:
		if explain {
			return r.refuse(explain, a, ErrStake, fmt.Sprintf("insurance is 1 to half the original stake, %s", r.amount(b.Stake/2)), "ES-11, VE-15")
		}
		return errQuiet
	}
	return nil
}

func (r *Round) checkFollow(a Action, explain bool) error {
	boxNo, idx := int(r.order[r.cur]), r.curHand
	if a.Kind == Close {
		return nil
	}
	if a.Kind != r.followKind || a.Box != boxNo || a.Hand != idx+1 {
		if explain {
			return r.refuse(explain, a, ErrOutOfTurn, fmt.Sprintf("the back bettors of box %d hand %d answer the %s now", boxNo, idx+1, r.followKind), "ES-03, VE-11, VE-12")
		}
		return errQuiet
	}
	if a.Player == r.boxes[boxNo].holder {
		return r.refuse(explain, a, ErrIllegalAction, "the box holder has decided; back bettors answer", "ES-03, VE-11, VE-12")
	}
	i := r.findBet(a.Player, boxNo, idx+1)
	if i < 0 {
		return r.refuse(explain, a, ErrIllegalAction, "no back bet of this player on that hand", "ES-03, VE-11, VE-12")
	}
	b := &r.bets[i]
	if b.window == r.window {
		return r.refuse(explain, a, ErrIllegalAction, "already answered", "ES-03, VE-11, VE-12")
	}
	if r.p.StakeBar(a.Stake, rules.Placed) == rules.BarMaximum {
		if explain {
			return r.refuseBy(explain, a, ErrStake, fmt.Sprintf("the table maximum is %s", r.amount(r.p.MaxBet)), "AR-04, ES-03, FAM-01, VE-21", "max_bet")
		}
		return errQuiet
	}
	if a.Stake != 0 && a.Stake != b.Stake && !(a.Kind == Double && r.p.DoubleForLess && a.Stake > 0) {
		if explain {
			return r.refuse(explain, a, ErrStake, fmt.Sprintf("the stake must equal the original, %s", r.amount(b.Stake)), "AR-17, ES-08, ES-09, VE-12")
		}
		return errQuiet
	}
	return nil
}

func (r *Round) checkAceChoice(a Action, explain bool) error {
	boxNo, idx := int(r.order[r.cur]), r.curHand
	switch {
	case a.Kind == Close:
		return nil
	case a.Kind != Declare || a.Box != boxNo || a.Hand != idx+1:
		return r.refuse(explain, a, ErrOutOfTurn, "the box holder may first count the Ace on the split ten 1 or 11", "VE-13")
	case a.Player != r.boxes[boxNo].holder:
		return r.refuse(explain, a, ErrIllegalAction, "the choice is the box holder's", "VE-13")
	case a.Value != 1 && a.Value != 11:
		return r.refuse(explain, a, ErrIllegalAction, "an Ace counts 1 or 11", "VE-13")
	}
	return nil
}

// pos is a box's hand as the rules on splitting and doubling read it;
// Pair is left to the split's check (withPair), which alone reads it.
func (r *Round) pos(b *box, h *Hand) rules.HandPos {
	return rules.HandPos{Count: h.Count, Split: h.split, SplitAces: h.splitAces, Hands: b.n, Index: handIndex(b, h)}
}

// handIndex is h's place in its box, 0 the first (resplit_hands: VE-12).
func handIndex(b *box, h *Hand) int {
	for i := range b.hands {
		if &b.hands[i] == h {
			return i
		}
	}
	return 0
}

// withPair completes pos with whether the hand's first two cards are a pair.
func withPair(pos rules.HandPos, h *Hand) rules.HandPos {
	pos.Pair = h.Count.N == 2 && h.cards[0].Value() == h.cards[1].Value()
	return pos
}

// mustDeclare reports whether the hand must declare its Ace before acting
// (AR-11): an Ace among its first two cards, not yet declared.
func (r *Round) mustDeclare(h *Hand) bool {
	return r.p.DeclareInitialAce && h.Count.Declared == 0 && h.Count.N == 2 && (h.cards[0].IsAce() || h.cards[1].IsAce())
}

func (r *Round) checkPlay(a Action, explain bool) error {
	boxNo, idx := int(r.order[r.cur]), r.curHand
	b := &r.boxes[boxNo]
	h := &b.hands[idx]
	switch a.Kind {
	case Close:
		return r.refuse(explain, a, ErrPhase, "no optional window is open: the box holder decides", "")
	case Insure, EvenMoney:
		if r.insuranceOpen() { // ES-11: open until the first third card
			return r.checkInsurance(a, explain)
		}
		return r.refuseBy(explain, a, ErrPhase, r.sideBetClosed(a.Kind), r.sideBetRule(a.Kind), sideBetOption[a.Kind])
	case Challenge:
		return r.refuseBy(explain, a, ErrPhase, r.sideBetClosed(a.Kind), r.sideBetRule(a.Kind), sideBetOption[a.Kind])
	}
	if a.Box != boxNo || a.Hand != idx+1 {
		if explain {
			return r.refuse(explain, a, ErrOutOfTurn, fmt.Sprintf("it is box %d hand %d's turn (%s)", boxNo, idx+1, b.holder), "AR-12, ES-12, VE-07")
		}
		return errQuiet
	}
	if len(a.Stays) > 0 {
		if err := r.checkStays(a, boxNo, idx, explain); err != nil {
			return err
		}
	}
	if a.Player != b.holder && (a.Kind == Double || a.Kind == Split) && r.p.BackFollow != rules.BackChoose && r.findBet(a.Player, boxNo, idx+1) >= 0 {
		// ES-03, VE-11, VE-12: a back bettor answers no split or double
		// where the table's reading answers for him (back_follow).
		why := "no back bet follows the holder's split or double at this table, it stays where it was placed"
		if r.p.BackFollow == rules.BackFollows {
			why = "a back bet follows the holder's split or double at once at this table, unasked"
		}
		rule := "ES-03, VE-12"
		if a.Kind == Double {
			rule = "ES-03, VE-11"
		}
		return r.refuseBy(explain, a, ErrIllegalAction, why, rule, "back_follow")
	}
	if a.Player != b.holder {
		if explain {
			return r.refuse(explain, a, ErrIllegalAction, fmt.Sprintf("decisions for box %d are its holder's, %s's", boxNo, b.holder), "AR-06, ES-03, VE-03")
		}
		return errQuiet
	}
	// (Only a hand of split Aces may take one card: the others spare
	// building the rules' view of the hand for the question.)
	if h.splitAces && r.p.OneCard(r.pos(b, h)) && a.Kind != Split && a.Kind != Stand {
		return r.refuse(explain, a, ErrIllegalAction, "split Aces get one card each", "ES-09, VE-14")
	}
	if a.Kind == Withdraw {
		skipped := r.skipped == [2]int{boxNo, idx + 1}
		if !r.bankFirst && !skipped || h.split || h.doubled || h.Count.N != 2 {
			return r.refuse(explain, a, ErrIllegalAction, "a bet is withdrawn only by a player skipped before the bank was completed, or by a player on 11 the dealer gave no card, before he plays", "AR-23, ES-01, VE-04")
		}
		return nil
	}
	declare := r.mustDeclare(h)
	switch a.Kind {
	case Declare:
		switch {
		case !r.p.DeclareInitialAce:
			return r.refuseBy(explain, a, ErrIllegalAction, "there is no declaration of the Ace at this table: an Ace counts as suits the hand", "AR-11, ES-02, VE-02", "declare_initial_ace")
		case !declare && h.Count.Declared != 0:
			return r.refuse(explain, a, ErrIllegalAction, "the Ace has been declared, irrevocably", "AR-11")
		case !declare:
			return r.refuse(explain, a, ErrIllegalAction, "there is no Ace among the first two cards to declare", "AR-11")
		case a.Value != 1 && a.Value != 11:
			return r.refuse(explain, a, ErrIllegalAction, "an Ace counts 1 or 11", "AR-11")
		}
		return nil
	case Split:
		return r.checkSplit(a, withPair(r.pos(b, h), h), explain)
	case Surrender:
		switch r.p.SurrenderBar(r.pos(b, h)) {
		case rules.BarNoSurrender:
			return r.refuseBy(explain, a, ErrIllegalAction, "there is no surrender at this table", "", "surrender")
		case rules.BarSurrenderHand:
			return r.refuseBy(explain, a, ErrIllegalAction, "surrender is only on the first two cards of an unsplit hand", "", "surrender")
		}
		return nil
	}
	if declare {
		return r.refuse(explain, a, ErrIllegalAction, "the Ace must first be declared 1 or 11", "AR-11")
	}
	switch a.Kind {
	case Hit:
		return nil
	case Stand:
		if r.p.MustDraw(h.Count) {
			if explain {
				return r.refuse(explain, a, ErrIllegalAction, fmt.Sprintf("a hand of %d or less must draw", r.p.MustDrawAtMost), "VE-06")
			}
			return errQuiet
		}
		return nil
	case Double:
		return r.checkDouble(a, r.pos(b, h), explain)
	}
	return r.refuse(explain, a, ErrIllegalAction, "unknown action", "")
}

// checkStays checks an action's Stays: only the holder's split or double
// under back_follow=follow has back bettors who stay for want of the
// matching stake, each with a bet on the hand (ES-03, VE-11, VE-12).
func (r *Round) checkStays(a Action, boxNo, idx int, explain bool) error {
	holder := r.boxes[boxNo].holder
	if r.p.BackFollow != rules.BackFollows || a.Player != holder || a.Kind != Double && a.Kind != Split {
		return r.refuseBy(explain, a, ErrIllegalAction, "only the holder's split or double at a table where back bets follow it names back bets that stay", "ES-03, VE-12", "back_follow")
	}
	for i, name := range a.Stays {
		if name == holder || r.findBet(name, boxNo, idx+1) < 0 || slices.Contains(a.Stays[:i], name) {
			return r.refuse(explain, a, ErrIllegalAction, fmt.Sprintf("%s has no back bet on box %d hand %d to stay", name, boxNo, idx+1), "ES-03, VE-12")
		}
	}
	return nil
}

var doubleRule = [...]struct{ why, rule string }{
	rules.DoubleAny:    {"doubling needs the first two cards", "VE-11"},
	rules.Double9to11:  {"doubling needs a two-card 9, 10 or 11", "ES-08"},
	rules.Double10to11: {"doubling needs a two-card 10 or 11", ""},
	rules.Double11:     {"doubling needs a two-card 11", "AR-17"},
}

func (r *Round) checkDouble(a Action, pos rules.HandPos, explain bool) error {
	switch r.p.DoubleBar(pos) {
	case rules.BarCards:
		return r.refuse(explain, a, ErrIllegalAction, "doubling needs the first two cards", "AR-17, ES-08, VE-11")
	case rules.BarAfterSplit:
		return r.refuse(explain, a, ErrIllegalAction, "no double after a split", "AR-17, ES-08, VE-13")
	case rules.BarSplitAces:
		return r.refuse(explain, a, ErrIllegalAction, "split Aces get one card each", "ES-09, VE-14")
	case rules.BarTotal:
		dr := doubleRule[r.p.DoubleOn]
		return r.refuseBy(explain, a, ErrIllegalAction, dr.why, dr.rule, "double_on")
	}
	base := r.baseStake(a.Player, a.Box, a.Hand)
	if r.p.StakeBar(a.Stake, rules.Placed) == rules.BarMaximum {
		if explain {
			return r.refuseBy(explain, a, ErrStake, fmt.Sprintf("the table maximum is %s", r.amount(r.p.MaxBet)), "AR-04, ES-03, FAM-01, VE-21", "max_bet")
		}
		return errQuiet
	}
	if a.Stake != 0 && a.Stake != base && !(r.p.DoubleForLess && a.Stake > 0) {
		if explain {
			return r.refuseBy(explain, a, ErrStake, fmt.Sprintf("a double stakes the original %s", r.amount(base)), "AR-17, ES-08, VE-19", "double_for_less")
		}
		return errQuiet
	}
	return nil
}

func (r *Round) checkSplit(a Action, pos rules.HandPos, explain bool) error {
	switch r.p.SplitBar(pos) {
	case rules.BarCards:
		return r.refuse(explain, a, ErrIllegalAction, "splitting needs the first two cards", "AR-18, ES-09, VE-12")
	case rules.BarPair:
		return r.refuse(explain, a, ErrIllegalAction, "splitting needs two cards of equal value", "AR-18, ES-09, VE-12")
	case rules.BarHands:
		if explain {
			return r.refuseBy(explain, a, ErrIllegalAction, fmt.Sprintf("a box may reach %d hands by splitting", r.p.MaxHands), "AR-18, ES-09, VE-12", "max_hands")
		}
		return errQuiet
	case rules.BarResplitAces:
		return r.refuse(explain, a, ErrIllegalAction, "split Aces are not split again", "AR-19, ES-09, VE-14")
	case rules.BarResplitHand:
		return r.refuseBy(explain, a, ErrIllegalAction, "only the first split hand, dealt the third card, may split again («Se con la terza carta ricevuta forma un'altra coppia»)", "VE-12", "resplit_hands")
	case rules.BarDeclared:
		return r.refuse(explain, a, ErrIllegalAction, "the Aces have been declared, irrevocably until the round is settled: a pair of Aces splits before it declares", "AR-11")
	}
	if base := r.baseStake(a.Player, a.Box, a.Hand); a.Stake != 0 && a.Stake != base {
		if explain {
			return r.refuse(explain, a, ErrStake, fmt.Sprintf("a split stakes the original %s", r.amount(base)), "AR-18, ES-09, VE-12")
		}
		return errQuiet
	}
	return nil
}

// challengeStake says what the challenge on a stake stakes: exactly half
// of it, which an odd stake has not (AR-10).
func challengeStake(stake money.Amount, show func(money.Amount) string) string {
	if _, ok := rules.ChallengeStake(stake); !ok {
		return fmt.Sprintf("the challenge stakes exactly half the original stake, and %s has no half to stake: a challenge needs an even stake", show(stake))
	}
	return fmt.Sprintf("the challenge stakes half the original stake, %s", show(stake/2))
}

// sideBetClosed says why insurance, even money or the challenge is not open.
func (r *Round) sideBetClosed(k Kind) string {
	up := r.upCard()
	switch k {
	case Insure:
		switch {
		case !r.p.Insurance:
			return "there is no insurance at this table"
		case !up.IsAce():
			return "insurance is offered only under a dealer Ace"
		}
		return r.insuranceClosed("insurance")
	case EvenMoney:
		switch {
		case r.p.EvenMoney == rules.NoEvenMoney:
			return "there is no even money at this table"
		case r.p.EvenMoney == rules.EvenMoneyAce && !up.IsAce():
			return "even money is offered under a dealer Ace"
		case !up.IsAce() && !up.IsTen():
			return "even money is offered under a dealer Ace or ten"
		}
		return r.insuranceClosed("even money")
	}
	if !r.p.Challenge {
		return "there is no challenge at this table"
	}
	return "the challenge is placed on a first-card Ace before the second card"
}

// insuranceClosed says what closed the insurance window, by what happened
// (ES-11: the offer is made to all players at once, before play; VE-15).
func (r *Round) insuranceClosed(what string) string {
	switch {
	case r.thirdCard:
		return what + " closed when the first third card was dealt"
	case r.insOffered && r.insTurn != 0:
		return fmt.Sprintf("%s was offered to every box before play and closed when the dealer turned to box %d", what, r.insTurn)
	case r.insOffered:
		return what + " was offered to every box before play and has closed"
	}
	return what + " was offered to nobody: no bet on the table could take it"
}

// sideBetOption is the option that decides whether the table has a side
// bet at all, cited where the table's regulation has no rule on it.
var sideBetOption = map[Kind]string{Insure: "insurance", EvenMoney: "even_money", Challenge: "challenge"}

func (r *Round) sideBetRule(k Kind) string {
	switch k {
	case Insure:
		return "AR-20, ES-11, VE-15"
	case EvenMoney:
		return "AR-16, ES-10, VE-16"
	}
	return "AR-10"
}

// checkHouse checks the house's corrections of irregularities (AR-23).
func (r *Round) checkHouse(a Action, explain bool) error {
	if r.phase == Betting || r.phase == Done {
		return r.refuse(explain, a, ErrPhase, "the round is not in play", "AR-23")
	}
	if a.Player != "" {
		return r.refuse(explain, a, ErrIllegalAction, "only the house corrects an irregularity", "AR-23")
	}
	switch a.Kind {
	case VoidBox:
		if a.Box < 1 || a.Box > r.p.Boxes || r.boxes[a.Box].holder == "" || r.boxes[a.Box].void {
			return r.refuse(explain, a, ErrIllegalAction, "no box in play by that number", "AR-23")
		}
	case BurnHole:
		if r.p.HoleCard == rules.NoHole || r.dealer.Count.N != 2 || r.dealer.faceDown != 1 {
			return r.refuse(explain, a, ErrIllegalAction, "there is no unturned hole card", "AR-23")
		}
	case ExposeHole:
		if r.dealer.faceDown < 0 {
			return r.refuse(explain, a, ErrIllegalAction, "there is no face-down dealer card", "AR-23")
		}
	case BankFirst:
		if r.phase != Playing || r.bankFirst {
			return r.refuse(explain, a, ErrIllegalAction, "the bank's hand is completed out of turn while a player decides, once", "AR-23")
		}
	case CardStands:
		if r.phase == ChallengeWindow {
			return nil
		}
		if !r.elevenInTurn() {
			return r.refuse(explain, a, ErrIllegalAction, "a card drawn out of turn stands only for a first-card Ace while the challenge is open, or for a two-card 11 in turn that may double", "AR-23")
		}
	case BankDiscarded:
		switch {
		case a.Value < 1 || a.Value > 2 || int(r.dealer.Count.N) < a.Value:
			return r.refuse(explain, a, ErrIllegalAction, fmt.Sprintf("the bank holds no card %d: give its first card (1) or its second (2)", a.Value), "AR-23")
		case a.Value == 1 && (r.p.HoleCard == rules.Peek || r.p.Insurance || r.p.EvenMoney != rules.NoEvenMoney):
			// The peek, insurance and even money were offered on the up card.
			return r.refuse(explain, a, ErrIllegalAction, "the bank's first card decided the peek, insurance or even money: it is not replaced", "AR-23")
		case a.Value == 2 && r.p.HoleCard == rules.Peek:
			return r.refuse(explain, a, ErrIllegalAction, "the bank's second card was peeked at: it is not replaced", "AR-23")
		}
	case SkippedEleven:
		if !r.elevenInTurn() {
			return r.refuse(explain, a, ErrIllegalAction, "the option to withdraw or take the next card is for a two-card 11 in turn that may double", "AR-23")
		}
		if box, hand := r.Current(); r.skipped == [2]int{box, hand} {
			return r.refuse(explain, a, ErrIllegalAction, "the player on 11 has been given the option already", "AR-23")
		}
	}
	return nil
}

// elevenInTurn reports whether the hand in turn is a two-card 11 that may
// double (AR-23: «las dos primeras suman "ONCE"»).
func (r *Round) elevenInTurn() bool {
	if r.phase != Playing {
		return false
	}
	boxNo, idx := int(r.order[r.cur]), r.curHand
	b := &r.boxes[boxNo]
	h := &b.hands[idx]
	return h.Count.N == 2 && h.Count.Hard == 11 && h.Count.Aces == 0 && !r.mustDeclare(h) && r.p.MayDouble(r.pos(b, h))
}
