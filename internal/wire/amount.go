package wire

import (
	"sabot"
	"sabot/money"
	"sabot/rules"
)

// CheckStake refuses a stake (a bet's, a double's, a split's, an
// insurance's) beyond the most an amount may be (money.Max): it never
// reaches the table or the ledger. Within the bound the table's own limits
// apply.
func CheckStake(stake money.Amount) error {
	if !stake.Valid() {
		return sabot.Errorf(sabot.EINVALID, "refused: a stake of %d minor units is beyond the most an amount may be (%d)", int64(stake), int64(money.Max))
	}
	return nil
}

// CheckLimits refuses table limits under which a stake could win more than
// the most an amount may be: the table maximum at the best payout a hand
// can have. With it, no round's sums come near an overflow (money.Max).
// It also refuses the one reading the table service does not serve:
// back_follow=follow, which the engine and the simulator play.
func CheckLimits(p *rules.Profile) error {
	if p.MaxBet > money.Max {
		return sabot.Errorf(sabot.EINVALID, "refused: max_bet=%d is beyond the most an amount may be (%d minor units)", int64(p.MaxBet), int64(money.Max))
	}
	num, den := p.BestPayout()
	if p.MaxBet > money.Max/money.Amount(num)*money.Amount(den) {
		return sabot.Errorf(sabot.EINVALID, "refused: max_bet=%d paid %d:%d would be beyond the most an amount may be (%d minor units)", int64(p.MaxBet), num, den, int64(money.Max))
	}
	// ES-03, VE-12: a table service debits each stake from the bettor who
	// places it, with his decision; a back bet that follows the holder at
	// once (back_follow=follow) has no decision to carry its debit.
	if p.BackFollow == rules.BackFollows && p.BackBetsPerBox > 0 {
		return sabot.Errorf(sabot.EINVALID, "refused: back_follow=follow is not served: a following back bet's stake would be debited with no decision of its bettor; serve choose or stay (ES-03, VE-12)")
	}
	return nil
}
