package actor

import (
	"context"
	"fmt"
	"slices"

	"sabot"
	"sabot/engine"
	"sabot/internal/tablelog"
	"sabot/internal/wire"
	"sabot/money"
	"sabot/rules"
)

// A family bank held by a player (FAM-01, FAM-02) pays what it loses from
// its own money, never the house's, and keeps nothing after the round:
//
//   - At the deal, the bank covers the bets in dealing order (box 1 first;
//     on a box its player first, then back bets as placed) up to its funds,
//     the holder's wallet. A bet's cover is the most it can win (its stake
//     at the best payout a hand can have: a blackjack, PON-01, PON-02). A
//     bet the bank cannot cover is refused before the deal and its stake
//     returned; a bet that could not be covered when it is placed is
//     refused then. The cover of the bets dealt moves from the holder's
//     wallet to his bank account, in the deal's transaction.
//   - A stake added in the round (a double, a split, insurance, the
//     challenge) is covered the same way when it is made, or refused.
//   - At the settlement the bank account gives its cover back to the
//     holder's wallet, with the bank's net: won, it adds; lost, it takes,
//     and never more than the cover. The bank account is empty again after
//     every round, so nothing is left in it when the bank passes, when its
//     holder leaves, or when the table closes (a void returns the cover).

// cover is what a stake can win at most, which a player's bank must hold
// for it: a hand's stake (the main bet, a double, a split) at the best
// payout a hand can have; a side bet, insurance or the challenge, at 2:1
// (ES-11, AR-10). Payouts round down: the cover rounds up.
func cover(p *rules.Profile, side bool, stake money.Amount) money.Amount {
	num, den := p.BestPayout()
	if side {
		num, den = 2, 1
	}
	return (stake*money.Amount(num) + money.Amount(den) - 1) / money.Amount(den)
}

// dealingOrder sorts bets placed for the next round as the deal takes
// them: box by box from box 1; on a box, the one who plays it first (its
// holder, or on a free box its first bettor), then the back bets as placed.
func dealingOrder(holder func(box int) string, bets []engine.PlacedBet) []engine.PlacedBet {
	first := map[int]string{}
	for _, b := range bets {
		if _, ok := first[b.Box]; !ok {
			first[b.Box] = b.Player
		}
	}
	plays := func(b engine.PlacedBet) bool {
		h := holder(b.Box)
		return h == b.Player || h == "" && first[b.Box] == b.Player
	}
	out := slices.Clone(bets)
	slices.SortStableFunc(out, func(x, y engine.PlacedBet) int {
		if x.Box != y.Box {
			return x.Box - y.Box
		}
		switch px, py := plays(x), plays(y); {
		case px && !py:
			return -1
		case py && !px:
			return 1
		}
		return 0
	})
	return out
}

// bankCovers judges bets placed for the next round as a player's bank with
// funds covers them (FAM-01): in dealing order, each bet whose cover fits
// in what the bets before it left. It returns the cover of the bets
// covered, and the others.
func (a *Table) bankCovers(bets []engine.PlacedBet, funds money.Amount) (covered money.Amount, refused []engine.PlacedBet) {
	for _, b := range dealingOrder(a.t.Holder, bets) {
		c := cover(a.p, false, b.Stake)
		if c > funds-covered {
			refused = append(refused, b)
			continue
		}
		covered += c
	}
	return covered, refused
}

// bankFunds are the funds of the bank a player holds: his wallet.
func (a *Table) bankFunds(ctx context.Context, bank string) money.Amount {
	return a.s.balance(ctx, sabot.AccountWallet, a.players[bank])
}

// checkBankCover refuses a bet that the player's bank could not cover if
// the round were dealt now (FAM-01): the bets before it in dealing order
// take the bank's funds first.
func (a *Table) checkBankCover(ctx context.Context, player string, box int, stake money.Amount) error {
	bank := a.t.Bank()
	if bank == "" || bank == player { // the table refuses the holder's bets (FAM-02)
		return nil
	}
	bets := a.t.Bets()
	i := slices.IndexFunc(bets, func(b engine.PlacedBet) bool { return b.Player == player && b.Box == box })
	if i >= 0 {
		bets[i].Stake = stake
	} else {
		bets = append(bets, engine.PlacedBet{Player: player, Box: box, Stake: stake})
	}
	funds := a.bankFunds(ctx, bank)
	_, refused := a.bankCovers(bets, funds)
	if slices.ContainsFunc(refused, func(b engine.PlacedBet) bool { return b.Player == player && b.Box == box }) {
		return sabot.Errorf(sabot.ECONFLICT, "refused: %s (FAM-01)", a.uncovered(bank, funds, stake)).
			WithReason("bank_cannot_cover", a.uncoveredParams(bank, funds, stake))
	}
	return nil
}

// uncovered says why a bank cannot cover a stake.
func (a *Table) uncovered(bank string, funds, stake money.Amount) string {
	return fmt.Sprintf("the bank, %s's, cannot cover a stake of %s: it covers bets in dealing order up to its funds, %s, and this one can win %s",
		bank, stake, funds, cover(a.p, false, stake))
}

// uncoveredParams are uncovered's values, for the client's catalogue
// (reason.bank_cannot_cover).
func (a *Table) uncoveredParams(bank string, funds, stake money.Amount) map[string]any {
	return map[string]any{"bank": bank, "stake": stake, "funds": funds, "win": cover(a.p, false, stake), "rule": "FAM-01"}
}

// refuseUncovered withdraws, before the deal, the bets the player's bank
// cannot cover (FAM-01), each in a record that says why, its stake back
// in its bettor's wallet. It reports false if a record could not be
// written (the table is rebuilt).
func (a *Table) refuseUncovered(ctx context.Context) bool {
	bank := a.t.Bank()
	if bank == "" {
		return true
	}
	funds := a.bankFunds(ctx, bank)
	_, refused := a.bankCovers(a.t.Bets(), funds)
	return a.returnBets(ctx, refused, "bet returned: the bank cannot cover it (FAM-01)", func(b engine.PlacedBet) wire.Event {
		return wire.Event{Text: "refused before the deal: " + a.uncovered(bank, funds, b.Stake) + " (FAM-01)",
			Reason: "bank_cannot_cover", Params: a.uncoveredParams(bank, funds, b.Stake)}
	})
}

// returnBets withdraws bets before the deal, each in a record that says
// why (the withdraw event's Text, Reason and Params, which why gives), its
// stake back in its bettor's wallet under memo. It reports false if a
// record could not be written (the table is rebuilt).
func (a *Table) returnBets(ctx context.Context, bets []engine.PlacedBet, memo string, why func(engine.PlacedBet) wire.Event) bool {
	for _, b := range bets {
		e := why(b)
		ps, err := a.moves(ctx, b.Player, b.Stake, memo)
		if err == nil {
			_, err = a.append(ctx, nil, sabot.LogBetWithdraw, 0, tablelog.Bet{Player: b.Player, Box: b.Box, Stake: b.Stake, Reason: e.Text}, ps)
		}
		if err != nil {
			a.log.Error("bet not returned before the deal", "player", b.Player, "box", b.Box, "why", e.Reason, "err", err)
			a.rebuild(ctx)
			return false
		}
		a.t.Withdraw(b.Player, b.Box)
		e.Kind, e.Player, e.Box, e.Amount = wire.EvWithdraw, b.Player, b.Box, b.Stake
		a.publish(e)
	}
	return true
}

// dealCover is the deal's transaction at a table whose bank a player
// holds: the cover of the bets dealt, from his wallet to his bank account.
func (a *Table) dealCover(ctx context.Context, bank string) ([]sabot.Posting, money.Amount, error) {
	if bank == "" {
		return nil, 0, nil
	}
	var total money.Amount
	for _, b := range a.t.Round().Bets() {
		total += cover(a.p, b.Kind == engine.InsuranceBet || b.Kind == engine.ChallengeBet, b.Stake)
	}
	ps, err := a.coverMoves(ctx, bank, total, "cover of the bets dealt (FAM-01)")
	return ps, total, err
}

// actCover is the cover of a stake a decision adds at a table whose bank a
// player holds (FAM-01): refused if his wallet cannot hold it.
func (a *Table) actCover(ctx context.Context, act engine.Action, stake money.Amount) ([]sabot.Posting, money.Amount, error) {
	bank := a.t.Bank()
	if bank == "" || stake == 0 {
		return nil, 0, nil
	}
	c := cover(a.p, act.Kind == engine.Insure || act.Kind == engine.Challenge, stake)
	if funds := a.bankFunds(ctx, bank); c > funds {
		return nil, 0, sabot.Errorf(sabot.ECONFLICT, "refused: the bank, %s's, cannot cover a %s of %s: it can win %s, and the bank's funds are %s (FAM-01)",
			bank, act.Kind, stake, c, funds)
	}
	ps, err := a.coverMoves(ctx, bank, c, act.Kind.String()+": cover (FAM-01)")
	return ps, c, err
}

// holderAccounts are the wallet and the bank account of the player
// holding the bank.
func (a *Table) holderAccounts(ctx context.Context, bank string) (wallet, account int64, err error) {
	owner, ok := a.players[bank]
	if !ok {
		return 0, 0, fmt.Errorf("the bank's holder %q is not known at table %d", bank, a.cfg.ID)
	}
	if wallet, err = a.s.account(ctx, sabot.AccountWallet, owner); err != nil {
		return 0, 0, err
	}
	account, err = a.s.account(ctx, sabot.AccountBank, owner)
	return wallet, account, err
}

// coverMoves move amount from the bank holder's wallet to his bank
// account.
func (a *Table) coverMoves(ctx context.Context, bank string, amount money.Amount, memo string) ([]sabot.Posting, error) {
	if amount == 0 {
		return nil, nil
	}
	w, b, err := a.holderAccounts(ctx, bank)
	if err != nil {
		return nil, err
	}
	return []sabot.Posting{{AccountID: w, Amount: -amount, Memo: memo}, {AccountID: b, Amount: amount, Memo: memo}}, nil
}

// returnCover gives the round's cover back from the bank account to the
// holder's wallet, with the bank's net (positive: it won): the bank's side
// of the settlement (FAM-02). The cover makes cover + net at least 0.
func (a *Table) returnCover(ctx context.Context, bank string, net money.Amount, memo string) ([]sabot.Posting, error) {
	w, b, err := a.holderAccounts(ctx, bank)
	if err != nil {
		return nil, err
	}
	var ps []sabot.Posting
	if a.bankCover != 0 {
		ps = append(ps, sabot.Posting{AccountID: b, Amount: -a.bankCover, Memo: memo + ": the bank's cover back"})
	}
	if back := a.bankCover + net; back != 0 {
		ps = append(ps, sabot.Posting{AccountID: w, Amount: back, Memo: memo + ": the bank's cover and net"})
	}
	return ps, nil
}
