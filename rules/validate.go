package rules

import "fmt"

// Limits of the engine's fixed-size round state.
const (
	MaxBoxes    = 9
	MaxHands    = 8
	MaxBackBets = 20
)

// Validate refuses an impossible profile with one reason naming the option.
func (p *Profile) Validate() error {
	bad := func(format string, a ...any) error {
		return fmt.Errorf("%w: %s", ErrInvalid, fmt.Sprintf(format, a...))
	}
	switch {
	case p.Decks < 1 || p.Decks > 16:
		return bad("decks=%d: want 1 to 16 decks", p.Decks)
	case p.Boxes < 1 || p.Boxes > MaxBoxes:
		return bad("boxes=%d: want 1 to %d boxes", p.Boxes, MaxBoxes)
	case p.BackBetsPerBox < 0 || p.BackBetsPerBox > MaxBackBets:
		return bad("back_bets_per_box=%d: want 0 to %d", p.BackBetsPerBox, MaxBackBets)
	case p.MinBet < 1:
		return bad("min_bet=%d: want at least 1 minor unit", p.MinBet)
	case p.MaxBet < p.MinBet:
		return bad("max_bet=%d is below min_bet=%d", p.MaxBet, p.MinBet)
	case p.MaxBet > 1<<40:
		return bad("max_bet=%d: too large", p.MaxBet)
	case p.PayoutUnit < 1 || p.PayoutUnit > p.MinBet && p.PayoutUnit > 1:
		return bad("payout_unit=%d: want 1 up to min_bet", p.PayoutUnit)
	case p.MinBetsToStart < 0 || p.MinBetsToStart > p.Boxes*(1+p.BackBetsPerBox):
		return bad("min_bets_to_start=%d: want 0 to the table's %d betting spots", p.MinBetsToStart, p.Boxes*(1+p.BackBetsPerBox))
	case p.LoneCustomerBoxes < 0 || p.LoneCustomerBoxes > p.Boxes:
		return bad("lone_customer_boxes=%d: want 0 to boxes=%d", p.LoneCustomerBoxes, p.Boxes)
	case p.BurnCards < 0 || p.BurnCards > 52:
		return bad("burn_cards=%d: want 0 to 52", p.BurnCards)
	case p.MinCut < 0 || 2*p.MinCut >= p.Cards():
		return bad("min_cut=%d: a cut must leave more than that on both sides of %d cards", p.MinCut, p.Cards())
	case p.CutCardReserve < 0 || p.CutCardReserve+p.BurnCards+20 > p.Cards():
		return bad("cut_card_reserve=%d: with %d burned cards it leaves fewer than 20 of %d cards to deal", p.CutCardReserve, p.BurnCards, p.Cards())
	case p.BankRounds < 0:
		return bad("bank_rounds=%d: want 0 or more", p.BankRounds)
	case p.MaxHands < 1 || p.MaxHands > MaxHands:
		return bad("max_hands=%d: want 1 (no split) to %d", p.MaxHands, MaxHands)
	case p.MaxHands > 16*p.Decks:
		// Ten-values split as equals (AR-18, VE-12): a deck holds 16 cards
		// that pair with each other, the most any value has.
		return bad("max_hands=%d: %d deck(s) hold only %d ten-values", p.MaxHands, p.Decks, 16*p.Decks)
	case p.MustDrawAtMost < 0 || p.MustDrawAtMost > 20:
		return bad("must_draw_at_most=%d: want 0 (no obligation) to 20", p.MustDrawAtMost)
	case p.BlackjackPays.Num <= 0 || p.BlackjackPays.Den <= 0:
		return bad("blackjack_pays=%v: want a positive ratio", p.BlackjackPays)
	case p.HoleCard > NoHole || p.DealerBlackjackTakes > TakesOriginal || p.DoubleOn > Double11 ||
		p.SplitBlackjack > SplitBlackjackAcesEven || p.Surrender > EarlySurrender || p.EvenMoney > EvenMoneyAceTen ||
		p.MaxScope > MaxPerBox || p.Collected > UnderFaceDown || p.DealerPlays > PlaysUnlessAllBust || p.InsuranceCloses > ClosesThirdCard ||
		p.BackFollow > BackStays:
		return bad("an enumerated option is out of range")
	case p.BackFollow != BackChoose && p.BackBetsPerBox == 0:
		return bad("back_follow=%s with back_bets_per_box=0: no back bet to follow or stay (ES-03, VE-12)", backFollowName[p.BackFollow])
	case p.Surrender == LateSurrender && p.HoleCard == NoPeek:
		return bad("surrender=late with hole_card=no-peek: late surrender needs the dealer's peek (or no hole card)")
	case p.Surrender == EarlySurrender && p.HoleCard == Peek:
		return bad("surrender=early with hole_card=peek: early surrender would have to come before the peek; use late")
	case p.InsuranceCloses == ClosesThirdCard && p.HoleCard == Peek:
		return bad("insurance_closes=third-card with hole_card=peek: the peek ends the insurance before play (use first-decision)")
	case p.Collected != DiscardTray && p.CutCardReserve != 0:
		return bad("collected_cards=%s deals through the deck: cut_card_reserve must be 0 (FAM-03)", collectedNames[p.Collected])
	}
	return nil
}
