package actor

import (
	"context"
	"errors"
	"maps"
	"slices"

	"sabot"
	"sabot/engine"
	"sabot/internal/operator"
	"sabot/internal/recall"
	"sabot/internal/tablelog"
	"sabot/internal/wire"
	"sabot/money"
	"sabot/rules"
)

// configure applies an administrator's change of the table's options and,
// at a family table, of who holds the bank. It takes effect between rounds:
// the next round is dealt under it.
func (a *Table) configure(ctx context.Context, c *Command, req wire.Configure) (int64, error) {
	if a.dealt {
		return 0, sabot.Errorf(sabot.ECONFLICT, "refused: round %d is in play; the configuration changes between rounds", a.t.RoundNo())
	}
	if len(req.Options) == 0 && req.Bank == nil {
		return 0, sabot.Errorf(sabot.EINVALID, "a configuration change needs options or a bank")
	}
	if _, ok := req.Options[sabot.OptionShoe]; ok {
		return 0, sabot.Errorf(sabot.EINVALID, "shoe: a table's shoe (shuffled or physical) is chosen when it opens; open another table to change it")
	}
	opts := maps.Clone(a.cfg.Options)
	if opts == nil {
		opts = map[string]string{}
	}
	for k, v := range req.Options {
		if v == "" {
			delete(opts, k)
		} else {
			opts[k] = v
		}
	}
	prof, err := profileOf(a.cfg.Profile, opts)
	if err != nil {
		return 0, wire.Refusal(err)
	}
	if err := wire.CheckLimits(prof); err != nil {
		return 0, err
	}
	for box := prof.Boxes + 1; box <= a.p.Boxes; box++ {
		if h := a.t.Holder(box); h != "" {
			return 0, sabot.Errorf(sabot.ECONFLICT, "refused: box %d is held by %s; a layout of %d boxes would drop it", box, h, prof.Boxes)
		}
	}
	if req.Bank != nil && operator.PlayerID(*req.Bank) != "" {
		return 0, sabot.Errorf(sabot.ECONFLICT, "refused: %s plays on the operator's wallet; a bank pays from its holder's own money, which sabot does not hold for him%s", *req.Bank, cite(prof.Cite("FAM-01", "bank_rotates")))
	}
	for _, p := range a.t.Seated() {
		if prof.BankRotates && operator.PlayerID(p) != "" {
			return 0, sabot.Errorf(sabot.ECONFLICT, "refused: %s, seated, plays on the operator's wallet, and the bank would pass to him%s", p, cite(prof.Cite("FAM-01, FAM-02", "bank_rotates")))
		}
	}
	if req.Bank != nil {
		switch {
		case !prof.BankRotates:
			return 0, sabot.Errorf(sabot.EINVALID, "refused: the bank is the house's at this table%s", cite(prof.Cite("FAM-02", "bank_rotates")))
		case *req.Bank != "" && !slices.Contains(a.t.Seated(), *req.Bank):
			return 0, sabot.Errorf(sabot.EINVALID, "refused: %s does not sit at table %d; the bank goes to a seated player%s", *req.Bank, a.cfg.ID, cite(prof.Cite("FAM-01", "bank_rotates")))
		}
	}
	pay := tablelog.Configure{Options: opts, Changed: req.Options, Bank: req.Bank, Reason: req.Reason, By: c.user.Name}
	var ps []sabot.Posting
	returned := refusedBets(prof, a.t.Holder, a.t.Bets())
	if req.Bank != nil && *req.Bank != "" {
		// FAM-02: the bank plays the dealer's hand; the bets its new
		// holder placed for the next round go back.
		for _, b := range a.t.Bets() {
			if b.Player == *req.Bank && !slices.Contains(returned, b) {
				returned = append(returned, b)
			}
		}
	}
	for _, b := range returned {
		pay.Returned = append(pay.Returned, tablelog.Bet{Player: b.Player, Box: b.Box, Stake: b.Stake})
		m, err := a.moves(ctx, b.Player, b.Stake, "bet returned: the table's configuration changed")
		if err != nil {
			return 0, err
		}
		ps = append(ps, m...)
	}
	// The change draws a seed when it starts a shoe: make it, then write
	// it (the seed first); if the record cannot be written, rebuild.
	if pay.NewShoe, err = a.reconfigure(prof, pay); err != nil {
		a.rebuild(ctx)
		return 0, wire.Refusal(err)
	}
	rec, err := a.append(ctx, c, sabot.LogConfigure, 0, pay, ps)
	if err != nil {
		if !errors.Is(err, errDuplicate) { // handle rebuilds after a duplicate
			a.rebuild(ctx)
		}
		return 0, err
	}
	a.log.Info("configuration changed", "by", c.user.Name, "changed", req.Options, "returned", len(pay.Returned), "new_shoe", pay.NewShoe)
	words := changeWords(pay)
	a.publish(wire.Event{Kind: wire.EvConfigure, Text: sabot.Sentence(words), Words: words})
	for _, b := range pay.Returned {
		a.publish(wire.Event{Kind: wire.EvWithdraw, Player: b.Player, Box: b.Box, Amount: b.Stake})
	}
	a.revealShoes(ctx)
	a.resync() // every client gets the table's new rules
	a.maybeDeal(ctx)
	return rec.Seq, nil
}

// reconfigure applies a configuration change to the table, live or from
// the log: the refused bets are withdrawn, the profile changes, the bank
// is given.
func (a *Table) reconfigure(prof *rules.Profile, pay tablelog.Configure) (newShoe bool, err error) {
	for _, b := range pay.Returned {
		if _, err := a.t.Withdraw(b.Player, b.Box); err != nil {
			return false, err
		}
	}
	if newShoe, err = a.t.Reconfigure(prof); err != nil {
		return false, err
	}
	if pay.Bank != nil {
		again, err := a.t.GiveBank(*pay.Bank)
		if err != nil {
			return false, err
		}
		newShoe = newShoe || again
	}
	if newShoe {
		a.noteShoe()
	}
	a.inForce(prof, pay.Options)
	return newShoe, nil
}

// inForce makes a configuration change's options (and the profile they
// give) the table's: opts nil keeps those it was created with.
func (a *Table) inForce(prof *rules.Profile, opts map[string]string) {
	a.cfg, a.p, a.configured = a.created, prof, opts
	if opts != nil {
		cfg := *a.created
		cfg.Options = opts
		a.cfg = &cfg
	}
}

// refusedBets are the bets that a table under p would refuse: the table's
// limits (AR-04, VE-18, VE-21), back betting (AR-05, ES-03, VE-03), the
// layout. They are judged as the deal takes them: on each box the holder's
// bet first (or, on a free box, the first placed), then the others, which
// are back bets, in the order placed.
func refusedBets(p *rules.Profile, holder func(box int) string, bets []engine.PlacedBet) []engine.PlacedBet {
	ordered := slices.Clone(bets)
	slices.SortStableFunc(ordered, func(x, y engine.PlacedBet) int {
		hx := x.Box <= p.Boxes && holder(x.Box) == x.Player
		hy := y.Box <= p.Boxes && holder(y.Box) == y.Player
		switch {
		case hx && !hy:
			return -1
		case hy && !hx:
			return 1
		}
		return 0
	})
	var out []engine.PlacedBet
	bettors := map[int]int{}
	total := map[int]money.Amount{}
	for _, b := range ordered {
		// The box's first bettor plays it; the others are back bets.
		refused := b.Box > p.Boxes || p.StakeBar(b.Stake, rules.Dealt) != rules.NoBar ||
			p.BoxBar(bettors[b.Box], total[b.Box], b.Stake) != rules.NoBar
		if refused {
			out = append(out, b)
			continue
		}
		bettors[b.Box]++
		total[b.Box] += b.Stake
	}
	return out
}

// changeWords says a configuration change in a line, for the players and
// the pit: the options changed (an empty value is the profile's), the bank
// and a new shoe.
func changeWords(p tablelog.Configure) []sabot.Phrase {
	return recall.ChangeWords(tablelog.Configure{Changed: p.Changed, Bank: p.Bank, NewShoe: p.NewShoe})
}
