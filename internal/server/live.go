package server

import (
	"context"
	"errors"
	"fmt"
	"maps"
	"slices"
	"time"

	"sabot"
	"sabot/card"
	"sabot/engine"
	"sabot/table"
	"sabot/web"
)

// do sends a command to the actor and waits for its answer.
func (a *actor) do(ctx context.Context, c *command) reply {
	c.reply = make(chan reply, 1)
	select {
	case a.cmds <- c:
	case <-a.done:
		return reply{err: sabot.Errorf(sabot.ECONFLICT, "the table is not serving (the server is shutting down)")}
	case <-ctx.Done():
		return reply{err: ctx.Err()}
	}
	select {
	case r := <-c.reply:
		return r
	case <-a.done:
		return reply{err: sabot.Errorf(sabot.ECONFLICT, "the table is not serving (the server is shutting down)")}
	case <-ctx.Done():
		return reply{err: ctx.Err()}
	}
}

// run is the actor's loop. It returns when ctx is done: the table is
// suspended, everything it did is in the log.
func (a *actor) run(ctx context.Context) {
	defer close(a.done)
	work := context.WithoutCancel(ctx) // a store write is never cut in half by a shutdown
	for {
		var tc, sc <-chan time.Time
		if a.timer != nil {
			tc = a.timer.C
		}
		if a.seatTimer != nil {
			sc = a.seatTimer.C
		}
		select {
		case <-ctx.Done():
			a.stopTimer()
			a.stopSeatTimer()
			for s := range a.subs {
				a.dropSub(s)
			}
			return
		case c := <-a.cmds:
			batch := []*command{c}
			if isClaim(c) {
				// AR-21: requests for a seat that wait together are
				// simultaneous claims; take them together.
			drain:
				for len(batch) < cap(a.cmds) {
					select {
					case more := <-a.cmds:
						batch = append(batch, more)
					default:
						break drain
					}
				}
				a.orderClaims(batch)
			}
			for _, c := range batch {
				start := time.Now()
				r := a.handle(work, c)
				if c.reply != nil {
					c.reply <- r
				}
				if c.cmd != nil {
					a.s.metrics.observe(c.cmd.name, time.Since(start), r.err)
				}
			}
		case <-tc:
			a.timer, a.timerOn = nil, noTimer
			a.expire(work)
		case <-sc:
			a.seatTimer, a.seatDue = nil, time.Time{}
			a.expireSeats(work)
		}
		a.armSeatTimer()
	}
}

func (a *actor) handle(ctx context.Context, c *command) reply {
	if c.inside != nil {
		return c.inside(a)
	}
	if a.closed != "" {
		return reply{err: sabot.Errorf(sabot.ECONFLICT, "table %d is out of service: %s", a.cfg.ID, a.closed)}
	}
	if c.commandID == "" {
		return reply{err: sabot.Errorf(sabot.EINVALID, "every command needs a command_id")}
	}
	// A repeated command is answered with the first answer and changes
	// nothing (GLI-19 §4.2.3): no timer, no message to anyone.
	if seq, ok := a.seen[c.clientID+"\x00"+c.commandID]; ok {
		return reply{seq: seq, dup: true}
	}
	if a.forgot {
		first, err := a.s.Store.Command(ctx, a.cfg.ID, c.clientID, c.commandID)
		if err == nil {
			a.remember(first.ClientID, first.CommandID, first.Seq)
			return reply{seq: first.Seq, dup: true}
		} else if sabot.ErrorCode(err) != sabot.ENOTFOUND {
			return reply{err: err}
		}
	}
	seq, err := a.exec(ctx, c)
	var dup *duplicateError
	if errors.As(err, &dup) {
		// The store knew the command though the table did not (it should
		// not happen: seen and forgot say what the table knows). What the
		// command may have changed in memory is undone by a rebuild.
		a.log.Warn("a command unknown to the table is in its log: rebuilding", "client", c.clientID, "command", c.commandID, "seq", dup.seq)
		a.rebuild(ctx)
		return reply{seq: dup.seq, dup: true}
	}
	return reply{seq: seq, err: err}
}

var errDuplicate = errors.New("duplicate command")

// duplicateError is what an append of a command already in the log
// returns: the first record's seq.
type duplicateError struct{ seq int64 }

func (e *duplicateError) Error() string {
	return fmt.Sprintf("duplicate command (log record %d)", e.seq)
}
func (e *duplicateError) Is(target error) bool { return target == errDuplicate }

// exec runs a client's command: its handler, from tableCommands.
func (a *actor) exec(ctx context.Context, c *command) (int64, error) {
	if !c.cmd.admin {
		a.players[c.user.Name] = c.user.ID // a player's wallet, found by name at settlement
	}
	return c.cmd.run(a, ctx, c)
}

// isClaim says whether a command asks for a seat (AR-21).
func isClaim(c *command) bool {
	_, ok := c.req.(sitRequest)
	return ok
}

// sit gives a free box to the player (AR-21).
func (a *actor) sit(ctx context.Context, c *command, req sitRequest) (int64, error) {
	name := c.user.Name
	if req.Box < 1 || req.Box > a.p.Boxes {
		return 0, sabot.Errorf(sabot.EINVALID, "refused: the table has boxes 1 to %d", a.p.Boxes)
	}
	if h := a.t.Holder(req.Box); h != "" {
		return 0, sabot.Errorf(sabot.ECONFLICT, "refused: box %d is taken by %s (AR-21)", req.Box, h)
	}
	if err := a.checkSeatCap(name); err != nil {
		return 0, err
	}
	rec, err := a.append(ctx, c, sabot.LogSit, 0, seatPayload{Player: name, Box: req.Box}, nil)
	if err != nil {
		return 0, err
	}
	a.t.Sit(name, req.Box)
	a.seatSince[req.Box] = a.s.now()
	a.publish(Event{Kind: "sit", Player: name, Box: req.Box})
	a.maybeDeal(ctx)
	return rec.Seq, nil
}

// leave stands the player up: every box he holds is freed and his bets for
// the next round are returned.
func (a *actor) leave(ctx context.Context, c *command, _ noFields) (int64, error) {
	name := c.user.Name
	var pending int64
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
		return 0, sabot.Errorf(sabot.ECONFLICT, "refused: %s neither sits nor bets at table %d", name, a.cfg.ID)
	}
	ps, err := a.moves(ctx, name, pending, "leave: bets returned")
	if err != nil {
		return 0, err
	}
	rec, err := a.append(ctx, c, sabot.LogLeave, 0, seatPayload{Player: name, Returned: pending}, ps)
	if err != nil {
		return 0, err
	}
	a.t.Leave(name)
	a.publish(Event{Kind: "leave", Player: name, Amount: pending})
	a.maybeDeal(ctx)
	return rec.Seq, nil
}

// bet places or changes the player's bet on a box for the next round; the
// stake (or what it adds) is debited from his wallet at once.
func (a *actor) bet(ctx context.Context, c *command, req betRequest) (int64, error) {
	name := c.user.Name
	if err := a.checkBet(name, req.Box, req.Stake); err != nil {
		return 0, err
	}
	var old int64
	for _, b := range a.t.Bets() {
		if b.Player == name && b.Box == req.Box {
			old = b.Stake
		}
	}
	if err := a.t.Bet(name, req.Box, req.Stake); err != nil {
		return 0, refusal(err)
	}
	debit := req.Stake - old
	err := a.checkBankCover(ctx, name, req.Box, req.Stake) // FAM-01
	var ps []sabot.Posting
	if err == nil {
		ps, err = a.moves(ctx, name, -debit, "bet")
	}
	if err == nil {
		var rec *sabot.LogRecord
		rec, err = a.append(ctx, c, sabot.LogBet, 0, betPayload{Player: name, Box: req.Box, Stake: req.Stake, Debit: debit}, ps)
		if err == nil {
			a.publish(Event{Kind: "bet", Player: name, Box: req.Box, Amount: req.Stake})
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

// withdraw takes back the player's bet on a box before the deal (VE-04).
func (a *actor) withdraw(ctx context.Context, c *command, req withdrawRequest) (int64, error) {
	name := c.user.Name
	stake, err := a.t.Withdraw(name, req.Box)
	if err != nil {
		return 0, refusal(err)
	}
	ps, err := a.moves(ctx, name, stake, "bet withdrawn")
	if err == nil {
		var rec *sabot.LogRecord
		rec, err = a.append(ctx, c, sabot.LogBetWithdraw, 0, betPayload{Player: name, Box: req.Box, Stake: stake}, ps)
		if err == nil {
			a.publish(Event{Kind: "withdraw", Player: name, Box: req.Box, Amount: stake})
			return rec.Seq, nil
		}
	}
	a.rebuild(ctx)
	return 0, err
}

// forceCards gives the next round's cards at a test-mode table.
func (a *actor) forceCards(ctx context.Context, c *command, req forceRequest) (int64, error) {
	if !a.cfg.TestMode {
		return 0, sabot.Errorf(sabot.EFORBIDDEN, "forced cards are for test-mode tables only")
	}
	if a.dealt {
		return 0, sabot.Errorf(sabot.ECONFLICT, "refused: forced cards are given between rounds")
	}
	rec, err := a.append(ctx, c, sabot.LogAdmin, 0, adminPayload{Event: "force-cards", Cards: req.Cards}, nil)
	if err != nil {
		return 0, err
	}
	a.forced = req.Cards
	return rec.Seq, nil
}

// newShoe prepares a new shoe between rounds on the pit's order (AR-24).
func (a *actor) newShoe(ctx context.Context, c *command, _ noFields) (int64, error) {
	if a.dealt {
		return 0, sabot.Errorf(sabot.ECONFLICT, "refused: a new shoe is prepared between rounds (AR-24)")
	}
	if err := a.t.NewShoe(); err != nil {
		return 0, refusal(err)
	}
	a.noteShoe()
	rec, err := a.append(ctx, c, sabot.LogAdmin, 0, adminPayload{Event: "new-shoe", Text: "a new shoe on the inspector's request (AR-24)"}, nil)
	if err != nil {
		a.rebuild(ctx)
		return 0, err
	}
	a.revealShoes(ctx)
	return rec.Seq, nil
}

// claimTick is the resolution of the time of a claim for a seat: two
// requests for a free box received within the same tick are a tie, which
// AR-21 gives to the claimant seated nearest box 1.
const claimTick = time.Millisecond

// orderClaims puts the requests for seats in a batch of commands that
// waited together in the order AR-21 serves them: "a free box goes to the
// first player who asks; on a tie, to the one seated nearest box 1" (a
// player already seated at a box; one not yet seated comes after every
// seat). The other commands keep their places.
func (a *actor) orderClaims(batch []*command) {
	seatOf := func(c *command) int {
		if c.user == nil {
			return a.p.Boxes + 1
		}
		for box := 1; box <= a.p.Boxes; box++ {
			if a.t.Holder(box) == c.user.Name {
				return box
			}
		}
		return a.p.Boxes + 1
	}
	// Only requests for seats that wait next to each other are claims made
	// together: a sit never moves past another command (a leave that frees
	// the box, a bet on it).
	for i := 0; i < len(batch); {
		j := i
		for j < len(batch) && isClaim(batch[j]) {
			j++
		}
		if j-i > 1 {
			slices.SortStableFunc(batch[i:j], func(x, y *command) int {
				tx, ty := x.at.Truncate(claimTick), y.at.Truncate(claimTick)
				if c := tx.Compare(ty); c != 0 {
					return c
				}
				return seatOf(x) - seatOf(y)
			})
		}
		i = max(j, i+1)
	}
}

// checkBet refuses a back bet that the engine would refuse at the deal
// (ES-03, VE-03: back bettors per box; the box maximum), so that a bet
// accepted now never stops the deal.
func (a *actor) checkBet(player string, box int, stake int64) error {
	if box < 1 || box > a.p.Boxes {
		return sabot.Errorf(sabot.EINVALID, "refused: the table has boxes 1 to %d", a.p.Boxes)
	}
	// A stake outside the table's limits is a wrong stake, whatever the
	// table's state: `invalid`, as docs/protocol.md says (the table would
	// refuse it too, as a conflict).
	if stake <= 0 || stake > a.p.MaxBet || stake < a.p.MinBet && !a.p.BelowMinStands {
		return sabot.Errorf(sabot.EINVALID, "refused: a stake must be between %s and %s (AR-04, VE-21)", web.Money(a.p.MinBet), web.Money(a.p.MaxBet))
	}
	others, total := 0, stake
	for _, b := range a.t.Bets() {
		if b.Box == box && b.Player != player {
			others++
			total += b.Stake
		}
	}
	if others > 0 && a.p.BackBetsPerBox == 0 {
		// Two seated players on one free box: the second would be a back bet.
		return sabot.Errorf(sabot.ECONFLICT, "refused: box %d has a bet already, and no back betting here (AR-05)", box)
	}
	if others > a.p.BackBetsPerBox {
		return sabot.Errorf(sabot.ECONFLICT, "refused: box %d already has %d back bettors (ES-03, VE-03)", box, a.p.BackBetsPerBox)
	}
	if others > 0 && a.p.MaxScope == 1 && total > a.p.MaxBet {
		return sabot.Errorf(sabot.EINVALID, "refused: the box's stakes would exceed the table maximum %s (ES-03)", web.Money(a.p.MaxBet))
	}
	return nil
}

// moves returns the postings that move amount from the table to a player's
// wallet (negative: from the wallet to the table).
func (a *actor) moves(ctx context.Context, player string, amount int64, memo string) ([]sabot.Posting, error) {
	if amount == 0 {
		return nil, nil
	}
	w, err := a.s.account(ctx, sabot.AccountWallet, a.players[player])
	if err != nil {
		return nil, err
	}
	t, err := a.s.account(ctx, sabot.AccountTable, a.cfg.ID)
	if err != nil {
		return nil, err
	}
	return []sabot.Posting{{AccountID: w, Amount: amount, Memo: memo}, {AccountID: t, Amount: -amount, Memo: memo}}, nil
}

// short tells a player his wallet cannot pay a stake. The store's refusal
// (EINSUFFICIENT) names the account by its ID and the amounts in minor
// units; the player reads his balance and the stake as money. Any other
// error is returned as it is.
func (a *actor) short(ctx context.Context, err error, player string, debit int64, what string) error {
	if sabot.ErrorCode(err) != sabot.EINSUFFICIENT {
		return err
	}
	held := a.s.balance(ctx, sabot.AccountWallet, a.players[player])
	return sabot.Errorf(sabot.EINSUFFICIENT, "insufficient funds: %s's wallet holds %s, the %s takes %s", player, web.Money(held), what, web.Money(debit))
}

// append writes a record (after the seeds of any shoe the change started)
// and its postings in one store transaction.
func (a *actor) append(ctx context.Context, c *command, kind string, round int, payload any, ps []sabot.Posting) (*sabot.LogRecord, error) {
	if err := a.writeFresh(ctx); err != nil {
		return nil, err
	}
	rec := &sabot.LogRecord{TableID: a.cfg.ID, Kind: kind, RoundNo: int64(round), Payload: mustJSON(payload), Created: a.s.now()}
	a.index(rec, payload)
	if c != nil {
		rec.ClientID, rec.CommandID = c.clientID, c.commandID
		if c.user != nil {
			rec.UserID = c.user.ID
		}
	}
	dup, err := a.s.Store.Append(ctx, rec, ps)
	if err != nil {
		return nil, err
	}
	if dup {
		return rec, &duplicateError{seq: rec.Seq}
	}
	a.trackAs(rec, payload)
	return rec, nil
}

// index sets what the store finds a record by besides its table and round
// (in the record's transaction): the shoe of a deal, the players who bet in
// the round a settlement closes.
func (a *actor) index(rec *sabot.LogRecord, payload any) {
	switch p := payload.(type) {
	case dealPayload:
		rec.ShoeNo = int64(p.Shoe)
	case settlePayload:
		if p.Closed || rec.RoundNo == 0 {
			return
		}
		for _, b := range p.Record.Bets {
			if id := a.players[b.Player]; id != 0 && !slices.Contains(rec.Users, id) {
				rec.Users = append(rec.Users, id)
			}
		}
	}
}

// writeFresh writes the record of each shoe seed drawn since the last
// record, with its commitment, and tells the players the commitment.
func (a *actor) writeFresh(ctx context.Context) error {
	for len(a.fresh) > 0 {
		seed := a.fresh[0]
		no := a.t.ShoeNo() - len(a.fresh) + 1
		order, err := ShoeOrder(a.p, seed)
		if err != nil {
			return err
		}
		pay := shoePayload{Shoe: no, Commitment: Commitment(seed, order), Options: a.configured}
		a.s.sealSeed(&pay, a.cfg.ID, seed)
		rec := &sabot.LogRecord{TableID: a.cfg.ID, Kind: sabot.LogShoe, ShoeNo: int64(no), Created: a.s.now(), Payload: mustJSON(pay)}
		if _, err := a.s.Store.Append(ctx, rec, nil); err != nil {
			return err
		}
		a.track(rec)
		a.shoes[no] = &shoeState{seed: seed, commitment: pay.Commitment}
		a.fresh = a.fresh[1:]
		a.publish(Event{Kind: "shoe", Shoe: ShoeID(a.cfg.ID, no), Commitment: a.shoes[no].commitment})
	}
	return nil
}

// revealShoes reveals the seed of every shoe that is over: replaced, or
// whose last round has been played (EG-04).
func (a *actor) revealShoes(ctx context.Context) {
	for _, no := range slices.Sorted(maps.Keys(a.shoes)) {
		sh := a.shoes[no]
		if sh.revealed || no > a.t.ShoeNo() || no == a.t.ShoeNo() && !a.t.LastRound() {
			continue
		}
		rec := &sabot.LogRecord{TableID: a.cfg.ID, Kind: sabot.LogShoeReveal, ShoeNo: int64(no), Created: a.s.now(),
			Payload: mustJSON(revealPayload{Shoe: no, Seed: seedHex(sh.seed), Commitment: sh.commitment})}
		if _, err := a.s.Store.Append(ctx, rec, nil); err != nil {
			a.log.Error("shoe reveal not written", "shoe", no, "err", err)
			return
		}
		a.track(rec)
		a.publish(Event{Kind: "shoe-reveal", Shoe: ShoeID(a.cfg.ID, no), Seed: seedHex(sh.seed), Commitment: sh.commitment})
	}
}

// ShoeID names a shoe: table and shoe number, "3-2".
func ShoeID(table int64, no int) string { return RoundID(table, no) }

// fillStake sets the stake a decision adds, so that the log and the ledger
// say it and the engine checks it.
func (a *actor) fillStake(act *engine.Action) {
	r := a.t.Round()
	base := func() int64 {
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

func stakeOf(act engine.Action) int64 {
	switch act.Kind {
	case engine.Double, engine.Split, engine.Challenge, engine.Insure:
		return act.Stake
	}
	return 0
}

// act applies a player's decision in the round in play.
func (a *actor) act(ctx context.Context, c *command, req actRequest) (int64, error) {
	r := a.t.Round()
	if !a.dealt || r.Phase() == engine.Done {
		return 0, sabot.Errorf(sabot.ECONFLICT, "refused: no round is in play at table %d", a.cfg.ID)
	}
	w := WireAction{Kind: req.Action, Player: c.user.Name, Box: req.Box, Hand: req.Hand, Stake: req.Stake, Value: req.Value}
	act, err := w.engine()
	if err != nil {
		return 0, err
	}
	if act.Kind == engine.Close || act.Kind >= engine.VoidBox {
		return 0, sabot.Errorf(sabot.EFORBIDDEN, "refused: %s is the house's, not a player's", act.Kind)
	}
	a.fillStake(&act)
	if !r.Legal(act) {
		return 0, refusal(r.Act(act)) // Act refuses and changes nothing: its reason names the rule
	}
	debit := stakeOf(act)
	ps, err := a.moves(ctx, act.Player, -debit, act.Kind.String())
	if err != nil {
		return 0, err
	}
	cps, bankCover, err := a.actCover(ctx, act, debit) // FAM-01
	if err != nil {
		return 0, err
	}
	ps = append(ps, cps...)
	rec, err := a.append(ctx, c, sabot.LogAction, a.t.RoundNo(), actionPayload{Round: a.t.RoundNo(), Action: toWire(act), Debit: debit, BankCover: bankCover}, ps)
	if err != nil {
		if bankCover > 0 && sabot.ErrorCode(err) == sabot.EINSUFFICIENT {
			if _, _, again := a.actCover(ctx, act, debit); again != nil {
				return 0, again // the bank's funds went meanwhile
			}
		}
		return 0, a.short(ctx, err, act.Player, debit, act.Kind.String())
	}
	if err := r.Act(act); err != nil { // cannot happen: checked above
		a.log.Error("a checked decision was refused", "err", err)
		a.rebuild(ctx)
		return 0, sabot.Internal(err)
	}
	a.s.metrics.decisions.WithLabelValues("player").Inc()
	a.publishRound("player")
	a.s.metrics.decided(c)
	a.proceed(ctx)
	return rec.Seq, nil
}

// eligible lists who may still answer the open optional window.
func (a *actor) eligible() map[declineKey]bool {
	r := a.t.Round()
	out := map[declineKey]bool{}
	var buf [64]engine.Action
	for _, x := range r.LegalActions(buf[:0]) {
		if x.Kind != engine.Close && !a.declined[declineKey{x.Player, x.Box}] {
			out[declineKey{x.Player, x.Box}] = true
		}
	}
	return out
}

func inWindow(ph engine.Phase) bool {
	switch ph {
	case engine.ChallengeWindow, engine.InsuranceWindow, engine.FollowWindow, engine.AceChoice:
		return true
	}
	return false
}

// decline passes, for the player's box, in the optional window open.
func (a *actor) decline(ctx context.Context, c *command, req declineRequest) (int64, error) {
	r := a.t.Round()
	if !a.dealt || !inWindow(r.Phase()) {
		return 0, sabot.Errorf(sabot.ECONFLICT, "refused: no optional window is open")
	}
	a.syncWindow()
	key := declineKey{c.user.Name, req.Box}
	if !a.eligible()[key] {
		return 0, sabot.Errorf(sabot.ECONFLICT, "refused: %s has nothing to answer on box %d in the %s window", c.user.Name, req.Box, r.Phase())
	}
	rec, err := a.append(ctx, c, sabot.LogAction, a.t.RoundNo(), actionPayload{Round: a.t.RoundNo(), Decline: true,
		Action: WireAction{Kind: "decline", Player: c.user.Name, Box: req.Box, Hand: req.Hand}}, nil)
	if err != nil {
		return 0, err
	}
	a.declined[key] = true
	a.publish(Event{Kind: "decline", Player: c.user.Name, Box: req.Box, Round: a.t.RoundNo()})
	a.s.metrics.decided(c)
	a.proceed(ctx)
	return rec.Seq, nil
}

// house applies a decision that is not a player's: the dealer closing a
// window, or a default when a decision timer ran out (GLI-19 §4.16.3).
func (a *actor) house(ctx context.Context, act engine.Action, byTimeout bool) bool {
	r := a.t.Round()
	if err := r.Act(act); err != nil {
		a.log.Error("house decision refused", "action", act.String(), "err", err)
		return false
	}
	// The decision is applied first: a failed write rebuilds from the log.
	pay := actionPayload{Round: a.t.RoundNo(), Action: toWire(act), ByTimeout: byTimeout}
	kind := sabot.LogAction
	if byTimeout {
		kind = sabot.LogTimeout
	}
	if _, err := a.append(ctx, nil, kind, a.t.RoundNo(), pay, nil); err != nil {
		a.log.Error("house decision not written", "err", err)
		a.rebuild(ctx)
		return false
	}
	by := "dealer"
	if byTimeout {
		by = "timeout"
		a.s.metrics.decisions.WithLabelValues("timeout").Inc()
	}
	a.publishRound(by)
	return true
}

// proceed moves the round on after a change: it closes a window nobody
// has left to answer, settles a round that is over, and otherwise starts
// the decision timer and tells the players whose turn it is.
func (a *actor) proceed(ctx context.Context) {
	for a.dealt {
		r := a.t.Round()
		if r.Phase() == engine.Done {
			a.settle(ctx)
			return
		}
		a.syncWindow()
		if inWindow(r.Phase()) && len(a.eligible()) == 0 {
			if !a.house(ctx, engine.Action{Kind: engine.Close}, false) {
				return
			}
			continue
		}
		a.armDecisionTimer()
		a.publishTurn()
		return
	}
}

// expire applies what the table's rules publish for a timer that ran out:
// the betting window closes and the round is dealt; a window closes; a
// hand whose player did not decide stands (draws where it must, VE-06;
// counts an Ace 11 where one must be declared, AR-11), until the next
// player's turn.
func (a *actor) expire(ctx context.Context) {
	if !a.dealt {
		// The betting window closes: a box its holder has not bet on is
		// given up (AR-21), then the round is dealt.
		a.releaseSeats(ctx, true)
		a.tryDeal(ctx)
		return
	}
	r := a.t.Round()
	if inWindow(r.Phase()) {
		a.house(ctx, engine.Action{Kind: engine.Close}, true)
		a.proceed(ctx)
		return
	}
	box, hand := r.Current()
	for a.dealt && r.Phase() == engine.Playing {
		b, h := r.Current()
		if b != box || h != hand {
			break
		}
		act, ok := defaultAction(r)
		if !ok || !a.house(ctx, act, true) {
			break
		}
	}
	a.proceed(ctx)
}

// defaultAction is the decision applied when a player's timer runs out.
func defaultAction(r *engine.Round) (engine.Action, bool) {
	box, hand := r.Current()
	p := r.Holder(box)
	for _, act := range []engine.Action{
		{Kind: engine.Stand, Player: p, Box: box, Hand: hand},
		{Kind: engine.Declare, Player: p, Box: box, Hand: hand, Value: 11},
		{Kind: engine.Hit, Player: p, Box: box, Hand: hand},
	} {
		if r.Legal(act) {
			return act, true
		}
	}
	return engine.Action{}, false
}

// maybeDeal deals at once when every seated player has a bet on each box
// he holds and the table's conditions are met; else the betting window's
// timer deals.
func (a *actor) maybeDeal(ctx context.Context) {
	if a.dealt || len(a.t.Bets()) == 0 {
		return
	}
	has := map[[2]any]bool{}
	for _, b := range a.t.Bets() {
		has[[2]any{b.Player, b.Box}] = true
	}
	for box := 1; box <= a.p.Boxes; box++ {
		if h := a.t.Holder(box); h != "" && h != a.t.Bank() && !has[[2]any{h, box}] {
			return
		}
	}
	if a.t.CanDeal() == nil {
		a.tryDeal(ctx)
	}
}

// tryDeal says "rien ne va plus" and deals (VE-04, ES-01, AR-22), if the
// bets allow a round.
func (a *actor) tryDeal(ctx context.Context) {
	a.stopTimer()
	if err := a.t.CanDeal(); err != nil {
		if len(a.t.Bets()) > 0 {
			a.publish(Event{Kind: "waiting", Text: refusal(err).Error()})
		}
		return
	}
	if !a.refuseUncovered(ctx) { // FAM-01
		return
	}
	if err := a.t.CanDeal(); err != nil {
		if len(a.t.Bets()) > 0 {
			a.publish(Event{Kind: "waiting", Text: refusal(err).Error()})
		}
		return
	}
	wallets := map[string]int64{}
	for _, b := range a.t.Bets() {
		if _, ok := wallets[b.Player]; !ok {
			wallets[b.Player] = a.s.balance(ctx, sabot.AccountWallet, a.players[b.Player])
		}
	}
	seatedBefore := a.t.Seated()
	if err := a.deal(); err != nil {
		a.log.Error("deal refused", "err", err)
		a.rebuild(ctx)
		return
	}
	for _, p := range seatedBefore {
		if !slices.Contains(a.t.Seated(), p) {
			a.publish(Event{Kind: "leave", Player: p, Text: "no bet this round: the seat is given up (AR-21)"})
		}
	}
	r := a.t.Round()
	rec := r.Record()
	seats := map[string]string{}
	for box := 1; box <= a.p.Boxes; box++ {
		if h := a.t.Holder(box); h != "" {
			seats[itoa(box)] = h
		}
	}
	pay := dealPayload{Round: a.t.RoundNo(), Shoe: a.t.ShoeNo(), ShoePos: a.roundPos, Test: a.cfg.TestMode,
		Bets: rec.Bets, Seats: seats, Bank: a.t.Bank(), Wallets: wallets}
	if a.forcedRound {
		pay.Forced = a.forcedCards
	}
	ps, bankCover, err := a.dealCover(ctx, pay.Bank) // FAM-01
	if err != nil {
		a.log.Error("deal not written", "err", err)
		a.rebuild(ctx)
		return
	}
	pay.BankCover = bankCover
	if _, err := a.append(ctx, nil, sabot.LogDeal, a.t.RoundNo(), pay, ps); err != nil {
		a.log.Error("deal not written", "err", err)
		a.rebuild(ctx)
		return
	}
	a.revealShoes(ctx)
	a.sent = 0
	a.publish(Event{Kind: "deal", Round: a.t.RoundNo(), Shoe: ShoeID(a.cfg.ID, a.t.ShoeNo()), ShoePos: a.roundPos, Test: a.cfg.TestMode})
	a.publishRound("")
	a.proceed(ctx)
}

// settle settles a round that is over (or returns every stake of a void
// one), closes it in the table and opens the betting for the next.
func (a *actor) settle(ctx context.Context) {
	r := a.t.Round()
	void, reason := r.Void()
	stakes, net, ret := map[string]int64{}, map[string]int64{}, map[string]int64{}
	var house, escrow int64
	pay := settlePayload{Round: a.t.RoundNo(), Void: void, Reason: reason, Record: r.Record(), Bank: a.t.Bank(), Net: net, Returned: ret}
	for _, b := range r.Bets() {
		stakes[b.Player] += b.Stake
		net[b.Player] += b.Net
		house -= b.Net
		escrow += b.Stake
		pay.Bets = append(pay.Bets, betResult{b.Player, b.Box, b.Hand, b.Kind.String(), b.Stake, b.Result.String(), b.Net})
	}
	pay.House = house
	pay.Dealer = append([]card.Card(nil), r.Dealer().Cards()...)
	for _, box := range r.Boxes() {
		for i, h := range r.Hands(box) {
			pay.Hands = append(pay.Hands, handResult{box, i + 1, append([]card.Card(nil), h.Cards()...), h.Total(), h.Result().String()})
		}
	}
	var ps []sabot.Posting
	pay.Wallets = map[string]int64{}
	for _, p := range slices.Sorted(maps.Keys(stakes)) {
		ret[p] = stakes[p] + net[p]
		if a.escrow[p] != stakes[p] {
			a.log.Error("escrow differs from the round's stakes", "player", p, "escrow", a.escrow[p], "stakes", stakes[p])
		}
		w, err := a.s.account(ctx, sabot.AccountWallet, a.players[p])
		if err != nil {
			a.log.Error("settle", "err", err)
			return
		}
		if ret[p] != 0 {
			ps = append(ps, sabot.Posting{AccountID: w, Amount: ret[p], Memo: "round " + itoa(a.t.RoundNo())})
		}
		pay.Wallets[p] = a.s.balance(ctx, sabot.AccountWallet, a.players[p]) + ret[p]
	}
	tid, err := a.s.account(ctx, sabot.AccountTable, a.cfg.ID)
	if err != nil {
		a.log.Error("settle", "err", err)
		return
	}
	if escrow != 0 {
		ps = append(ps, sabot.Posting{AccountID: tid, Amount: -escrow, Memo: "round " + itoa(a.t.RoundNo())})
	}
	if house != 0 || a.bankCover != 0 { // FAM-01: a bank's cover goes back even when it nets nothing
		bps, err := a.housePostings(ctx, pay.Bank, house, ret, &pay)
		if err != nil {
			a.log.Error("settle", "err", err)
			return
		}
		ps = append(ps, bps...)
	}
	round := a.t.RoundNo()
	newBank, err := a.finish()
	if err != nil {
		a.log.Error("finish refused", "err", err)
		return
	}
	pay.NewBank = newBank
	kind := sabot.LogSettle
	if void {
		kind = sabot.LogVoid
	}
	if _, err := a.append(ctx, nil, kind, round, pay, ps); err != nil {
		a.log.Error("settlement not written", "round", round, "err", err)
		a.rebuild(ctx)
		return
	}
	result := "settled"
	if void {
		result = "void"
	}
	a.s.metrics.rounds.WithLabelValues(result).Inc()
	a.roundEnd = a.s.now() // AR-21: every seat has its time to bet on the next round
	a.stopTimer()
	a.publish(Event{Kind: "settle", Round: round, Void: void, Text: reason, Net: net, House: house, NewBank: newBank})
	a.revealShoes(ctx)
	a.maybeSnapshot(ctx)
	a.armBetTimer()
	a.maybeDeal(ctx)
}

// housePostings are the house's side of a settlement: the house pays or
// collects the round's net. FAM-02: at a family table whose bank a player
// holds, the bank's cover goes back from his bank account to his wallet
// with the bank's net; the cover taken at the deal (FAM-01) pays what the
// bank loses, and the house pays nothing (bank.go).
func (a *actor) housePostings(ctx context.Context, bank string, net int64, ret map[string]int64, pay *settlePayload) ([]sabot.Posting, error) {
	memo := "round " + itoa(a.t.RoundNo())
	if bank != "" && a.bankCover > 0 {
		pay.BankPaid, pay.BankCover = map[string]int64{"wallet": net}, a.bankCover
		return a.returnCover(ctx, bank, net, memo)
	}
	houseID, err := a.s.account(ctx, sabot.AccountHouse, 0)
	if err != nil {
		return nil, err
	}
	if bank == "" {
		return []sabot.Posting{{AccountID: houseID, Amount: net, Memo: memo}}, nil
	}
	// A round dealt before banks took cover (its deal has no bank_cover),
	// settled as it was then: the bank account, then the bank player's
	// wallet, then the house.
	owner := a.players[bank]
	bankID, err := a.s.account(ctx, sabot.AccountBank, owner)
	if err != nil {
		return nil, err
	}
	if net > 0 {
		pay.BankPaid = map[string]int64{"bank": net}
		return []sabot.Posting{{AccountID: bankID, Amount: net, Memo: memo}}, nil
	}
	need := -net
	fromBank := min(need, a.s.balance(ctx, sabot.AccountBank, owner))
	fromWallet := min(need-fromBank, max(0, a.s.balance(ctx, sabot.AccountWallet, owner)+ret[bank]))
	fromHouse := need - fromBank - fromWallet
	pay.BankPaid = map[string]int64{"bank": -fromBank, "wallet": -fromWallet, "house": -fromHouse}
	var ps []sabot.Posting
	if fromBank > 0 {
		ps = append(ps, sabot.Posting{AccountID: bankID, Amount: -fromBank, Memo: memo + ": the bank pays"})
	}
	if fromWallet > 0 {
		wid, err := a.s.account(ctx, sabot.AccountWallet, owner)
		if err != nil {
			return nil, err
		}
		ps = append(ps, sabot.Posting{AccountID: wid, Amount: -fromWallet, Memo: memo + ": the bank player pays"})
	}
	if fromHouse > 0 {
		ps = append(ps, sabot.Posting{AccountID: houseID, Amount: -fromHouse, Memo: memo + ": the house covers the bank"})
	}
	return ps, nil
}

// voidRound voids the round in play on the pit's order: every box is void
// (AR-23) and every stake returned.
func (a *actor) voidRound(ctx context.Context, c *command, _ noFields) (int64, error) {
	if !a.dealt {
		return 0, sabot.Errorf(sabot.ECONFLICT, "refused: no round is in play")
	}
	rec, err := a.append(ctx, c, sabot.LogAdmin, a.t.RoundNo(), adminPayload{Event: "void", Round: a.t.RoundNo(), Text: "void by the pit"}, nil)
	if err != nil {
		return 0, err
	}
	r := a.t.Round()
	for _, box := range r.Boxes() {
		if r.Phase() == engine.Done {
			break
		}
		if r.Legal(engine.Action{Kind: engine.VoidBox, Box: box}) {
			a.house(ctx, engine.Action{Kind: engine.VoidBox, Box: box}, false)
		}
	}
	a.proceed(ctx)
	return rec.Seq, nil
}

// rebuild throws the table's state away and replays its log: after a
// write that failed half-way, or a command the store knew and the actor
// had forgotten. Subscribers get a fresh snapshot. What the log left open
// is taken up again a moment later, by a timer, so that a write that keeps
// failing is retried, not looped on.
func (a *actor) rebuild(ctx context.Context) {
	a.stopTimer()
	if err := a.load(ctx); err != nil {
		a.log.Error("rebuild failed", "err", err)
		a.closed = "the table could not be rebuilt from its log"
	}
	if a.dealt {
		a.sent = len(a.t.Round().Events())
		a.arm(decisionTimer, retryAfter)
	} else {
		a.armBetTimer()
	}
	a.resync()
}

// retryAfter is when a table takes up again what a failed write left open.
const retryAfter = time.Second

// resume goes on from the state the log left, live: the seeds of a shoe
// drawn at the end of the replay are written, a round over in the engine
// but not settled in the log is settled, a round in play gets its timer.
func (a *actor) resume(ctx context.Context) error {
	if a.closed != "" {
		return nil
	}
	a.revealShoes(ctx)
	if a.dealt {
		a.sent = len(a.t.Round().Events())
		a.proceed(ctx)
		return nil
	}
	a.armBetTimer()
	return nil
}

func (a *actor) stopTimer() {
	if a.timer != nil {
		a.timer.Stop()
	}
	a.timer, a.timerOn = nil, noTimer
}

func (a *actor) arm(k timerKind, d time.Duration) {
	a.stopTimer()
	a.timer, a.timerOn, a.due = time.NewTimer(d), k, a.s.now().Add(d)
}

// armBetTimer opens the betting window's timer once a bet is down.
func (a *actor) armBetTimer() {
	if a.dealt || a.timerOn == betTimer || len(a.t.Bets()) == 0 {
		return
	}
	a.arm(betTimer, a.s.timing().BetWindow)
	a.publish(Event{Kind: "betting", Deadline: a.due.UnixMilli()})
}

func (a *actor) armDecisionTimer() {
	d := a.s.timing().Decision
	if inWindow(a.t.Round().Phase()) {
		d = a.s.timing().Window
	}
	a.arm(decisionTimer, d)
}

// refusal turns a rule's refusal into an error a player reads: what was
// refused and why, with the rule ID.
func refusal(err error) error {
	if err == nil {
		return nil
	}
	var r *engine.Refusal
	switch {
	case errors.As(err, &r):
		code := sabot.EINVALID
		if errors.Is(err, engine.ErrOutOfTurn) || errors.Is(err, engine.ErrPhase) {
			code = sabot.ECONFLICT
		}
		return sabot.Errorf(code, "refused: %s", r.Error())
	case errors.Is(err, table.ErrRefused):
		return sabot.Errorf(sabot.ECONFLICT, "%s", err.Error())
	}
	var se *sabot.Error
	if errors.As(err, &se) {
		return err
	}
	return sabot.Errorf(sabot.EINVALID, "refused: %v", err)
}
