package server

import (
	"sabot"
	"sabot/money"
	"sabot/rules"
)

// checkStake refuses a stake (a bet's, a double's, a split's, an
// insurance's) beyond the most an amount may be: it never reaches the table
// or the ledger. Within the bound the table's own limits apply.
func checkStake(stake int64) error {
	if !money.Amount(stake).Valid() {
		return sabot.Errorf(sabot.EINVALID, "refused: a stake of %d minor units is beyond the most an amount may be (%d)", stake, sabot.MaxAmount)
	}
	return nil
}

// checkLimits refuses table limits under which a stake could win more than
// the most an amount may be: the table maximum at the best payout a hand
// can have. With it, no round's sums come near an overflow (sabot.MaxAmount).
func checkLimits(p *rules.Profile) error {
	if p.MaxBet > money.Max {
		return sabot.Errorf(sabot.EINVALID, "refused: max_bet=%d is beyond the most an amount may be (%d minor units)", p.MaxBet, sabot.MaxAmount)
	}
	num, den := bestPayout(p)
	if p.MaxBet > money.Max/money.Amount(num)*money.Amount(den) {
		return sabot.Errorf(sabot.EINVALID, "refused: max_bet=%d paid %d:%d would be beyond the most an amount may be (%d minor units)", p.MaxBet, num, den, sabot.MaxAmount)
	}
	return nil
}

// bestPayout is the most a stake on a hand can win, as a ratio: a
// blackjack (AR-16), 2:1 for a five-card 21 (PON-01), 3:1 for three sevens
// (PON-02), and 1:1 for any other win.
func bestPayout(p *rules.Profile) (num, den int64) {
	num, den = 1, 1
	better := func(n, d int64) {
		if n*den > num*d {
			num, den = n, d
		}
	}
	better(p.BlackjackPays.Num, p.BlackjackPays.Den)
	if p.FiveCard21 {
		better(2, 1)
	}
	if p.ThreeSevens {
		better(3, 1)
	}
	return num, den
}
