package rules

// The rules of betting that the engine, the table, the table server and
// the simulator ask: what a stake may be, who may bet on a box and how
// much the box may hold, and which hand may surrender. Each is written
// here once; the others call it and word its refusal in their own terms.

import "sabot/money"

// The bars on a bet and on a surrender (StakeBar, BoxBar, SurrenderBar),
// after the bars on play (play.go).
const (
	// BarStake: a stake must be positive (AR-04, FAM-01, VE-21).
	BarStake Bar = BarTotal + 1 + iota
	// BarMinimum: the stake is below the table minimum min_bet (AR-04,
	// FAM-01, VE-18, VE-21).
	BarMinimum
	// BarMaximum: the stake is above the table maximum max_bet (AR-04,
	// ES-03, FAM-01, VE-21).
	BarMaximum
	// BarNoBackBets: the box has its bettor and the table has no back
	// betting, back_bets_per_box=0 (AR-05, FAM-01).
	BarNoBackBets
	// BarBackBettors: the box has back_bets_per_box back bettors already
	// (ES-03, VE-03).
	BarBackBettors
	// BarBoxMaximum: the box's stakes together would exceed the table
	// maximum, which binds the box (max_bet_scope=box: ES-03, VE-21).
	BarBoxMaximum
	// BarNoSurrender: the table has no surrender (surrender=none;
	// reference profiles only).
	BarNoSurrender
	// BarSurrenderHand: only an unsplit hand's first two cards surrender.
	BarSurrenderHand
	// BarLoneBoxes: a lone customer plays at least lone_customer_boxes
	// boxes (VE-20).
	BarLoneBoxes
)

// StakeWhen is when a stake is judged (StakeBar).
type StakeWhen uint8

// When a stake is judged.
const (
	// Placed: a bet placed now, at the table, before the deal.
	Placed StakeWhen = iota
	// Dealt: a stake as the deal takes it, which may have been placed
	// under other limits (a table's limits changed, a snapshot restored).
	Dealt
)

// StakeBar says what forbids a stake on a box, or NoBar: a stake is
// positive, within the table's minimum and maximum (AR-04, FAM-01, VE-21).
// A stake below the minimum found when the cards are dealt stands where
// below_min_stands says so (VE-18); one placed short never does. Whether
// the box takes it beside the others' stakes is BoxBar's.
func (p *Profile) StakeBar(stake money.Amount, when StakeWhen) Bar {
	switch {
	case stake <= 0:
		return BarStake
	case stake < p.MinBet && (when == Placed || !p.BelowMinStands):
		return BarMinimum
	case stake > p.MaxBet:
		return BarMaximum
	}
	return NoBar
}

// BoxBar says what forbids one more bet of stake on a box that holds
// bettors bets already, of total stakes together, or NoBar. The box's
// first bet is its holder's (or, on a free box, its player's); any other
// is a back bet: none where the table has no back betting (AR-05, FAM-01),
// at most back_bets_per_box of them (ES-03, VE-03), and the box's stakes
// together within the table maximum where it binds the box (max_bet_scope
// =box: ES-03, VE-21). The stake itself is StakeBar's.
func (p *Profile) BoxBar(bettors int, total, stake money.Amount) Bar {
	switch {
	case bettors <= 0:
		return NoBar
	case p.BackBetsPerBox == 0:
		return BarNoBackBets
	case bettors > p.BackBetsPerBox:
		return BarBackBettors
	case p.MaxBindsBox() && total+stake > p.MaxBet:
		return BarBoxMaximum
	}
	return NoBar
}

// MaxBindsBox reports whether the table maximum binds a box's stakes
// together, the holder's and the back bettors' (max_bet_scope=box: ES-03,
// VE-21 «neppure con l'intervento di terzi»), rather than each bettor's
// stake alone (bet). BoxBar asks it of a bet; a double's share under the
// maximum (DoubleCounts) is measured against what it binds.
func (p *Profile) MaxBindsBox() bool { return p.MaxScope == MaxPerBox }

// LoneBoxes is how many boxes a lone customer must play: lone_customer_boxes
// (VE-20), at least one.
func (p *Profile) LoneBoxes() int { return max(1, p.LoneCustomerBoxes) }

// LoneBar says what forbids a round whose bets are of players players on
// boxes boxes, or NoBar: a lone customer plays at least LoneBoxes boxes
// (VE-20).
func (p *Profile) LoneBar(players, boxes int) Bar {
	if players == 1 && boxes < p.LoneBoxes() {
		return BarLoneBoxes
	}
	return NoBar
}

// LeastRoundStake is the least a lone customer stakes on a round: the
// boxes he must play (lone_customer_boxes, VE-20; at least one) at the
// least stake that stands once the cards are dealt, the table minimum
// (AR-04, FAM-01, VE-21), or one unit where a stake below it stands
// (below_min_stands, VE-18). A bankroll below it cannot play a round.
func (p *Profile) LeastRoundStake() money.Amount {
	least := p.MinBet
	if p.BelowMinStands {
		least = 1
	}
	return least * money.Amount(p.LoneBoxes())
}

// DoubleCapped reports whether doubling a hand of stake, the maximum
// binding only that stake, plays less than the stake doubled: the excess
// over the table maximum is returned (max_bet_caps_double, VE-21).
func (p *Profile) DoubleCapped(stake money.Amount) bool {
	return p.DoubleCounts(stake, stake, stake) < stake
}

// SurrenderBar says what forbids the hand to surrender now, or NoBar: a
// table with surrender (late or early; reference profiles only), on an
// unsplit hand's first two cards.
func (p *Profile) SurrenderBar(h HandPos) Bar {
	switch {
	case p.Surrender == NoSurrender:
		return BarNoSurrender
	case h.Count.N != 2 || h.Split:
		return BarSurrenderHand
	}
	return NoBar
}

// MaySurrender reports whether the hand may surrender now (SurrenderBar).
func (p *Profile) MaySurrender(h HandPos) bool { return p.SurrenderBar(h) == NoBar }
