package actor

import (
	"context"
	"errors"
	"slices"

	"sabot"
	"sabot/engine"
	"sabot/internal/operator"
	"sabot/internal/tablelog"
	"sabot/internal/wire"
	"sabot/money"
	"sabot/rules"
)

// The players' commands at a table (the registry's player commands, in
// table_commands.go): a seat taken and left, a bet placed, changed and
// withdrawn, a decision, a window passed.

// sit gives a free box to the player (AR-21).
func (a *Table) sit(ctx context.Context, c *Command, req wire.Sit) (int64, error) {
	name := c.user.Name
	if req.Box < 1 || req.Box > a.p.Boxes {
		return 0, sabot.Errorf(sabot.EINVALID, "refused: the table has boxes 1 to %d", a.p.Boxes).WithReason("no_such_box", map[string]any{"boxes": a.p.Boxes})
	}
	if h := a.t.Holder(req.Box); h != "" {
		if h != name {
			a.wants(name)
		}
		rule := a.p.Cite("AR-21, ES-03, VE-03", "boxes")
		return 0, sabot.Errorf(sabot.ECONFLICT, "refused: box %d is taken by %s%s", req.Box, h, cite(rule)).WithReason("box_taken", map[string]any{"box": req.Box, "player": h, "rule": rule})
	}
	if err := a.checkReseat(name, req.Box); err != nil {
		return 0, err
	}
	if err := a.checkSeatCap(name); err != nil {
		return 0, err
	}
	if a.p.BankRotates && operator.PlayerID(name) != "" {
		// The bank would pass to him (FAM-02) and pay from his own money
		// (FAM-01), which is the operator's.
		return 0, sabot.Errorf(sabot.ECONFLICT, "refused: the bank passes among the seated players here (FAM-02) and pays from its holder's own money (FAM-01); a player of the operator's wallet may back-bet, not sit")
	}
	rec, err := a.append(ctx, c, sabot.LogSit, 0, tablelog.Seat{Player: name, Box: req.Box}, nil)
	if err != nil {
		return 0, err
	}
	a.t.Sit(name, req.Box)
	a.seatSince[req.Box] = a.s.now()
	a.sat(name)
	a.publish(wire.Event{Kind: wire.EvSit, Player: name, Box: req.Box})
	a.maybeDeal(ctx)
	return rec.Seq, nil
}

// leave stands the player up: every box he holds is freed and his bets for
// the next round are returned.
func (a *Table) leave(ctx context.Context, c *Command, _ wire.Leave) (int64, error) {
	name := c.user.Name
	var pending money.Amount
	for _, b := range a.t.Bets() {
		if b.Player == name {
			pending += b.Stake
		}
	}
	seated := false
	for _, p := range a.t.Seated() {
		seated = seated || p == name
	}
	if !seated && pending == 0 {
		return 0, sabot.Errorf(sabot.ECONFLICT, "refused: %s neither sits nor bets at table %d", name, a.cfg.ID).WithReason("not_at_table", nil)
	}
	ps, err := a.moves(ctx, name, pending, "leave: bets returned")
	if err != nil {
		return 0, err
	}
	rec, err := a.append(ctx, c, sabot.LogLeave, 0, tablelog.Seat{Player: name, Returned: pending}, ps)
	if err != nil {
		return 0, err
	}
	a.t.Leave(name)
	a.publish(wire.Event{Kind: wire.EvLeave, Player: name, Amount: pending})
	a.maybeDeal(ctx)
	return rec.Seq, nil
}

// bet places or changes the player's bet on a box for the next round; the
// stake (or what it adds) is debited from his wallet at once.
func (a *Table) bet(ctx context.Context, c *Command, req wire.Bet) (int64, error) {
	name, stake := c.user.Name, req.Stake // checked within ±money.Max (checkStake)
	if err := a.checkBet(name, req.Box, stake); err != nil {
		return 0, err
	}
	var old money.Amount
	for _, b := range a.t.Bets() {
		if b.Player == name && b.Box == req.Box {
			old = b.Stake
		}
	}
	if err := a.t.Bet(name, req.Box, stake); err != nil {
		return 0, wire.Refusal(err)
	}
	debit := stake - old
	err := a.checkBankCover(ctx, name, req.Box, stake) // FAM-01
	var ps []sabot.Posting
	if err == nil {
		ps, err = a.moves(ctx, name, -debit, "bet")
	}
	if err == nil {
		var rec *sabot.LogRecord
		// The player's eligibility and limits, in the stake's transaction.
		rec, err = a.appendStake(ctx, c, sabot.LogBet, 0, tablelog.Bet{Player: name, Box: req.Box, Stake: stake, Debit: debit}, ps, a.s.betGuard(c, a.players[name], debit))
		if err == nil {
			a.publish(wire.Event{Kind: wire.EvBet, Player: name, Box: req.Box, Amount: stake})
			a.armBetTimer()
			a.maybeDeal(ctx)
			return rec.Seq, nil
		}
	}
	if errors.Is(err, errDuplicate) {
		return 0, err
	}
	// Undo exactly: the bet keeps its place in the table's list.
	if old > 0 {
		a.t.Bet(name, req.Box, old)
	} else {
		a.t.Withdraw(name, req.Box)
	}
	return 0, a.short(ctx, err, name, debit, "bet")
}

// checkBet refuses a back bet that the engine would refuse at the deal
// (ES-03, VE-03: back bettors per box; the box maximum), so that a bet
// accepted now never stops the deal.
func (a *Table) checkBet(player string, box int, stake money.Amount) error {
	if box < 1 || box > a.p.Boxes {
		return sabot.Errorf(sabot.EINVALID, "refused: the table has boxes 1 to %d", a.p.Boxes).WithReason("no_such_box", map[string]any{"boxes": a.p.Boxes})
	}
	// A stake outside the table's limits is a wrong stake, whatever the
	// table's state: `invalid`, as docs/protocol.md says (the table would
	// refuse it too, as a conflict).
	// VE-18 lets a stake found short stand once dealt, not one placed short.
	if bar := a.p.StakeBar(stake, rules.Placed); bar != rules.NoBar {
		bound := "min_bet"
		if bar == rules.BarMaximum {
			bound = "max_bet"
		}
		rule := a.p.Cite("AR-04, ES-03, FAM-01, VE-21", bound)
		return sabot.Errorf(sabot.EINVALID, "refused: a stake must be between %s and %s%s", a.p.MinBet, a.p.MaxBet, cite(rule)).
			WithReason("stake_range", ruleParams(rule, map[string]any{"min": a.p.MinBet, "max": a.p.MaxBet}))
	}
	others, total := 0, money.Amount(0)
	for _, b := range a.t.Bets() {
		if b.Box == box && b.Player != player {
			others++
			total += b.Stake
		}
	}
	switch a.p.BoxBar(others, total, stake) {
	case rules.BarNoBackBets:
		// Two seated players on one free box: the second would be a back bet.
		rule := a.p.Cite("AR-05, FAM-01", "back_bets_per_box")
		return sabot.Errorf(sabot.ECONFLICT, "refused: box %d has a bet already, and no back betting here%s", box, cite(rule)).WithReason("no_back_betting", map[string]any{"box": box, "rule": rule})
	case rules.BarBackBettors:
		rule := a.p.Cite("ES-03, VE-03", "back_bets_per_box")
		return sabot.Errorf(sabot.ECONFLICT, "refused: box %d already has %d back bettors%s", box, a.p.BackBetsPerBox, cite(rule)).WithReason("back_bettors_full", map[string]any{"box": box, "n": a.p.BackBetsPerBox, "rule": rule})
	case rules.BarBoxMaximum:
		rule := a.p.Cite("ES-03, VE-21", "max_bet_scope")
		return sabot.Errorf(sabot.EINVALID, "refused: the box's stakes would exceed the table maximum %s%s", a.p.MaxBet, cite(rule)).WithReason("box_maximum", map[string]any{"max": a.p.MaxBet, "rule": rule})
	}
	return nil
}

// withdraw takes back the player's bet on a box before the deal (VE-04).
func (a *Table) withdraw(ctx context.Context, c *Command, req wire.Withdraw) (int64, error) {
	name := c.user.Name
	stake, err := a.t.Withdraw(name, req.Box)
	if err != nil {
		return 0, wire.Refusal(err)
	}
	ps, err := a.moves(ctx, name, stake, "bet withdrawn")
	if err == nil {
		var rec *sabot.LogRecord
		rec, err = a.append(ctx, c, sabot.LogBetWithdraw, 0, tablelog.Bet{Player: name, Box: req.Box, Stake: stake}, ps)
		if err == nil {
			a.publish(wire.Event{Kind: wire.EvWithdraw, Player: name, Box: req.Box, Amount: stake})
			return rec.Seq, nil
		}
	}
	a.rebuild(ctx)
	return 0, err
}

// act applies a player's decision in the round in play.
func (a *Table) act(ctx context.Context, c *Command, req wire.Act) (int64, error) {
	r := a.t.Round()
	if !a.dealt || r.Phase() == engine.Done {
		return 0, sabot.Errorf(sabot.ECONFLICT, "refused: no round is in play at table %d", a.cfg.ID).WithReason("no_round", nil)
	}
	w := wire.Action{Kind: req.Action, Player: c.user.Name, Box: req.Box, Hand: req.Hand, Stake: req.Stake, Value: req.Value}
	act, err := w.Engine()
	if err != nil {
		return 0, err
	}
	if act.Kind == engine.Close || act.Kind.House() {
		return 0, sabot.Errorf(sabot.EFORBIDDEN, "refused: %s is the house's, not a player's", act.Kind)
	}
	a.fillStake(&act)
	if !r.Legal(act) {
		return 0, wire.Refusal(r.Act(act)) // Act refuses and changes nothing: its reason names the rule
	}
	debit := stakeOf(act)
	// ES-03, VE-12: under back_follow=follow the back bets follow with the
	// holder's decision, their stakes taken in its transaction; a bettor
	// who cannot pay stays (following). A follower refused in the
	// transaction (his care, his wallet meanwhile) stays, and it is written
	// again: at most once more than there are followers.
	var left []string
	var rec *sabot.LogRecord
	for {
		var follows []tablelog.Follow
		follows, act.Stays = a.following(ctx, act, left)
		var refused string
		rec, err = a.actWrite(ctx, c, act, debit, follows, &refused)
		if err == nil {
			break
		}
		if refused == "" {
			return 0, err
		}
		left = append(left, refused)
	}
	if err := r.Act(act); err != nil { // cannot happen: checked above
		a.log.Error("a checked decision was refused", "err", err)
		a.rebuild(ctx)
		return 0, sabot.Internal(err)
	}
	a.s.Metrics.decisions.WithLabelValues("player").Inc()
	a.publishRound("player")
	a.s.Metrics.decided(c)
	a.proceed(ctx)
	return rec.Seq, nil
}

// actWrite writes a decision with its stake's postings and the back bets
// that follow it (follows), each bettor's guard checked in its
// transaction. A refusal that is a follower's, not the decision's, names
// him in refused.
func (a *Table) actWrite(ctx context.Context, c *Command, act engine.Action, debit money.Amount, follows []tablelog.Follow, refused *string) (*sabot.LogRecord, error) {
	ps, err := a.moves(ctx, act.Player, -debit, act.Kind.String())
	if err != nil {
		return nil, err
	}
	total := debit
	var guards []*sabot.StakeGuard
	for _, f := range follows {
		fps, err := a.moves(ctx, f.Player, -f.Debit, act.Kind.String()+" followed (ES-03, VE-12)")
		if err != nil {
			return nil, err
		}
		ps = append(ps, fps...)
		total += f.Debit
		if g := a.s.followGuard(a.players[f.Player], f.Debit); g != nil {
			check, player := g.Check, f.Player
			g.Check = func(e sabot.Eligibility) error {
				err := check(e)
				if err != nil {
					*refused = player
				}
				return err
			}
			guards = append(guards, g)
		}
	}
	cps, bankCover, err := a.actCover(ctx, act, total) // FAM-01
	if err != nil {
		return nil, err
	}
	ps = append(ps, cps...)
	d := tablelog.Decision{Round: a.t.RoundNo(), Action: wire.ActionOf(act), Debit: debit, BankCover: bankCover, Follows: follows}
	// The player's eligibility and limits, in the stake's transaction.
	rec, err := a.appendStakes(ctx, c, sabot.LogAction, a.t.RoundNo(), d, ps, a.s.stakeGuard(c, a.players[act.Player], debit), guards)
	if err != nil {
		if *refused != "" {
			return nil, err
		}
		if bankCover > 0 && sabot.ErrorCode(err) == sabot.EINSUFFICIENT {
			if _, _, again := a.actCover(ctx, act, total); again != nil {
				return nil, again // the bank's funds went meanwhile
			}
		}
		if sabot.ErrorCode(err) == sabot.EINSUFFICIENT && len(follows) > 0 && a.s.balance(ctx, sabot.AccountWallet, a.players[act.Player]) >= debit {
			// A follower's wallet went meanwhile (his stakes at another table).
			for _, f := range follows {
				if a.s.balance(ctx, sabot.AccountWallet, a.players[f.Player]) < f.Debit {
					*refused = f.Player
					return nil, err
				}
			}
		}
		return nil, a.short(ctx, err, act.Player, debit, act.Kind.String())
	}
	return rec, nil
}

// following are the back bets that follow the holder's split or double
// under back_follow=follow (ES-03, VE-12), each with its bettor's matching
// stake, and the bettors who stay for want of it: their bets stay where
// they were placed, as a back bettor's who does not match it at a table of
// back_follow=choose (VE-11: «devono accettare l'attribuzione di una sola
// carta»). A bettor stays whose wallet holds less than the stake; an
// operator's player, whose stake waits for the operator's debit, which no
// decision of his asks for; one in left (his care refused the stake).
func (a *Table) following(ctx context.Context, act engine.Action, left []string) (follows []tablelog.Follow, stays []string) {
	act.Stays = nil
	for _, b := range a.t.Round().Following(act) {
		if slices.Contains(left, b.Player) || operator.PlayerID(b.Player) != "" || a.s.balance(ctx, sabot.AccountWallet, a.players[b.Player]) < b.Stake {
			stays = append(stays, b.Player)
			continue
		}
		follows = append(follows, tablelog.Follow{Player: b.Player, Debit: b.Stake})
	}
	return follows, stays
}

// fillStake sets the stake a decision adds, so that the log and the ledger
// say it and the engine checks it.
func (a *Table) fillStake(act *engine.Action) {
	r := a.t.Round()
	base := func() money.Amount {
		for _, b := range r.Bets() {
			if b.Player == act.Player && b.Box == act.Box && b.Hand == act.Hand && (b.Kind == engine.MainBet || b.Kind == engine.SplitBet) {
				return b.Stake
			}
		}
		return 0
	}
	switch act.Kind {
	case engine.Double, engine.Split:
		if act.Stake == 0 {
			act.Stake = base()
		}
	case engine.Challenge:
		if act.Stake == 0 {
			act.Stake = base() / 2
		}
	case engine.Insure:
		if act.Stake == 0 {
			act.Stake = base() / 2
		}
	}
}

func stakeOf(act engine.Action) money.Amount {
	switch act.Kind {
	case engine.Double, engine.Split, engine.Challenge, engine.Insure:
		return act.Stake
	}
	return 0
}

// decline passes, for the player's box, in the optional window open.
func (a *Table) decline(ctx context.Context, c *Command, req wire.Decline) (int64, error) {
	r := a.t.Round()
	if !a.dealt || !inWindow(r.Phase()) {
		return 0, sabot.Errorf(sabot.ECONFLICT, "refused: no optional window is open").WithReason("no_window", nil)
	}
	a.syncWindow()
	key := declineKey{c.user.Name, req.Box}
	if !a.eligible()[key] {
		return 0, sabot.Errorf(sabot.ECONFLICT, "refused: %s has nothing to answer on box %d in the %s window", c.user.Name, req.Box, r.Phase()).WithReason("nothing_to_answer", map[string]any{"box": req.Box})
	}
	rec, err := a.append(ctx, c, sabot.LogAction, a.t.RoundNo(), tablelog.Decision{Round: a.t.RoundNo(), Decline: true,
		Action: wire.Action{Kind: wire.OpDecline, Player: c.user.Name, Box: req.Box, Hand: req.Hand}}, nil)
	if err != nil {
		return 0, err
	}
	a.declined[key] = true
	a.publish(wire.Event{Kind: wire.EvDecline, Player: c.user.Name, Box: req.Box, Round: a.t.RoundNo()})
	a.s.Metrics.decided(c)
	a.proceed(ctx)
	return rec.Seq, nil
}
