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
func CheckLimits(p *rules.Profile) error {
	if p.MaxBet > money.Max {
		return sabot.Errorf(sabot.EINVALID, "refused: max_bet=%d is beyond the most an amount may be (%d minor units)", int64(p.MaxBet), int64(money.Max))
	}
	num, den := p.BestPayout()
	if p.MaxBet > money.Max/money.Amount(num)*money.Amount(den) {
		return sabot.Errorf(sabot.EINVALID, "refused: max_bet=%d paid %d:%d would be beyond the most an amount may be (%d minor units)", int64(p.MaxBet), num, den, int64(money.Max))
	}
	return nil
}
