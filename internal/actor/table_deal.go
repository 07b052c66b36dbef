package actor

import (
	"context"
	"fmt"
	"maps"
	"slices"
	"strconv"
	"time"

	"sabot"
	"sabot/card"
	"sabot/engine"
	"sabot/internal/recall"
	"sabot/internal/tablelog"
	"sabot/internal/wire"
	"sabot/money"
	"sabot/table"
)

// A round at a table: the deal once the bets allow it (VE-04, ES-01,
// AR-22), the round moved on after each decision (windows closed, whose
// turn), and the settlement that closes it and opens the next betting.

// maybeDeal deals at once when every seated player has a bet on each box
// he holds and the table's conditions are met, and, where the table keeps
// its betting window (Timing.KeepBetWindow), every seated player has said
// "deal" (callDeal); else the betting window's timer deals. A table dealt
// from a physical shoe deals when the dealer calls "no more bets"
// (noMoreBets), never by itself.
func (a *Table) maybeDeal(ctx context.Context) {
	if a.allBet() && a.allReady() && a.t.CanDeal() == nil {
		a.tryDeal(ctx)
	}
}

// allBet reports whether the round could be dealt by the players alone:
// bets are down, the table is dealt by the server, and every seated
// player has a bet on each box he holds.
func (a *Table) allBet() bool {
	if a.dealt || len(a.t.Bets()) == 0 || a.t.Physical() { // a physical table deals at the dealer's word
		return false
	}
	if a.forced == nil && a.t.Awaiting() != table.StepNone { // AR-07, EG-02: the betting window's timer decides
		a.armBetTimer()
		return false
	}
	has := map[[2]any]bool{}
	for _, b := range a.t.Bets() {
		has[[2]any{b.Player, b.Box}] = true
	}
	for box := 1; box <= a.p.Boxes; box++ {
		if h := a.t.Holder(box); h != "" && h != a.t.Bank() && !has[[2]any{h, box}] {
			return false
		}
	}
	return true
}

// allReady reports whether every seated player (the bank's holder aside)
// has said "deal", where the table keeps its betting window; true where
// it does not.
func (a *Table) allReady() bool {
	if !a.s.timing().KeepBetWindow {
		return true
	}
	for _, p := range a.t.Seated() {
		if p != a.t.Bank() && !a.ready[p] {
			return false
		}
	}
	return true
}

// callDeal is a seated player's "deal": he has placed his bets. The round
// is dealt once every seated player has said so and has a bet on each box
// he holds, and the table's conditions allow it (AR-03, VE-20: refused
// with their words where they do not); else the betting window goes on.
// It writes nothing: the deal is its own record.
func (a *Table) callDeal(ctx context.Context, c *Command, _ wire.Deal) (int64, error) {
	name := c.user.Name
	switch {
	case a.t.Physical():
		return 0, sabot.Errorf(sabot.ECONFLICT, "refused: at this table the dealer calls \"no more bets\"").WithReason("deal_by_dealer", nil)
	case a.dealt:
		rule := a.p.Cite("AR-22, ES-01, VE-04", "")
		return 0, sabot.Errorf(sabot.ECONFLICT, "refused: the round is dealt%s", cite(rule)).WithReason("deal_dealt", ruleParams(rule, map[string]any{}))
	case !slices.Contains(a.t.Seated(), name):
		return 0, sabot.Errorf(sabot.ECONFLICT, "refused: only a seated player calls the deal").WithReason("deal_not_seated", nil)
	}
	mine := false
	for _, b := range a.t.Bets() {
		mine = mine || b.Player == name
	}
	if !mine {
		return 0, sabot.Errorf(sabot.ECONFLICT, "refused: place a bet before the deal").WithReason("deal_no_bet", nil)
	}
	if err := a.t.CanDeal(); err != nil {
		w := waitingView(err)
		return 0, sabot.Errorf(sabot.ECONFLICT, "refused: %s", w.Text).WithReason(w.Reason, w.Params)
	}
	if a.ready == nil {
		a.ready = map[string]bool{}
	}
	a.ready[name] = true
	a.publish(wire.Event{Kind: wire.EvReady, Player: name})
	a.maybeDeal(ctx)
	return 0, nil
}

// tryDeal says "rien ne va plus" and deals (VE-04, ES-01, AR-22), if the
// bets allow a round.
func (a *Table) tryDeal(ctx context.Context) {
	a.stopTimer()
	if a.forced == nil && a.t.Awaiting() == table.StepCut && !a.t.Physical() && len(a.t.Bets()) > 0 && !a.cutByTimeout(ctx) { // AR-07: nobody cut in time (a physical shoe's cut is recorded at the console)
		return
	}
	if err := a.t.ShoeReady(); a.forced == nil && err != nil { // AR-07, EG-02: the inspector's authorisation
		if len(a.t.Bets()) > 0 {
			a.publish(waiting(err))
		}
		return
	}
	if err := a.t.CanDeal(); err != nil {
		if len(a.t.Bets()) > 0 {
			a.publish(waiting(err))
		}
		return
	}
	if !a.returnUnbacked(ctx) || !a.refuseUncovered(ctx) { // ES-03, VE-03; FAM-01
		return
	}
	if err := a.t.CanDeal(); err != nil {
		if len(a.t.Bets()) > 0 {
			a.publish(waiting(err))
		}
		return
	}
	// The players' wallets, read together: one read of the store a deal.
	var owners []int64
	for _, b := range a.t.Bets() {
		owners = append(owners, a.players[b.Player])
	}
	funds := a.s.balances(ctx, sabot.AccountWallet, owners)
	wallets := map[string]money.Amount{}
	for _, b := range a.t.Bets() {
		wallets[b.Player] = funds[a.players[b.Player]]
	}
	seatedBefore := a.t.Seated()
	held := make([]string, a.p.Boxes+1)
	for box := 1; box <= a.p.Boxes; box++ {
		held[box] = a.t.Holder(box)
	}
	a.ready = nil // the next betting window starts with nobody ready
	if err := a.deal(); err != nil {
		a.log.Error("deal refused", "err", err)
		a.rebuild(ctx)
		return
	}
	for _, p := range seatedBefore {
		if !slices.Contains(a.t.Seated(), p) {
			rule := a.p.Own("AR-21")
			a.publish(wire.Event{Kind: wire.EvLeave, Player: p, Text: "no bet this round: the seat is given up" + cite(rule), Reason: "seat_no_bet", Params: ruleParams(rule, map[string]any{})})
		}
	}
	for box := 1; box <= a.p.Boxes; box++ {
		if held[box] != "" && a.t.Holder(box) == "" {
			a.gaveUp(held[box], box) // AR-21: no bet on it this round
		}
	}
	r := a.t.Round()
	rec := r.Record()
	var bettors []string
	for _, b := range rec.Bets {
		bettors = append(bettors, b.Player)
	}
	a.played(bettors)
	seats := map[string]string{}
	for box := 1; box <= a.p.Boxes; box++ {
		if h := a.t.Holder(box); h != "" {
			seats[strconv.Itoa(box)] = h
		}
	}
	pay := tablelog.Deal{Round: a.t.RoundNo(), Shoe: a.t.ShoeNo(), ShoePos: a.roundPos, Test: a.cfg.TestMode,
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
	a.publish(wire.Event{Kind: wire.EvDeal, Round: a.t.RoundNo(), Shoe: recall.ShoeID(a.cfg.ID, a.t.ShoeNo()), ShoePos: a.roundPos, Test: a.cfg.TestMode})
	a.publishRound("")
	a.proceed(ctx)
}

// returnUnbacked returns, before the deal, the back bets on a box that
// nobody plays this round (table.Unbacked: its holder has no bet on it, or
// has left): a back bettor follows the holder's decisions and never plays
// a box himself (ES-03, VE-03). It reports false if a record could not be
// written (the table is rebuilt).
func (a *Table) returnUnbacked(ctx context.Context) bool {
	rule := a.p.Own("ES-03, VE-03")
	return a.returnBets(ctx, a.t.Unbacked(), "bet returned: nobody plays the box ("+rule+")", func(b engine.PlacedBet) wire.Event {
		return wire.Event{Text: fmt.Sprintf("returned before the deal: nobody plays box %d this round, and a bet behind it follows its holder's decisions (%s)", b.Box, rule),
			Reason: "back_bet_unplayed", Params: unplayedParams(b.Box, rule)}
	})
}

// unplayedParams are the values of a back bet returned because nobody
// plays its box (reason.back_bet_unplayed).
func unplayedParams(box int, rule string) map[string]any {
	return map[string]any{"box": box, "rule": rule}
}

// proceed moves the round on after a change: it closes a window nobody
// has left to answer, settles a round that is over, and otherwise starts
// the decision timer and tells the players whose turn it is.
func (a *Table) proceed(ctx context.Context) {
	for a.dealt {
		r := a.t.Round()
		if r.Phase() == engine.Done {
			a.settle(ctx)
			return
		}
		if n := a.needView(); n != nil {
			// A physical shoe: the round waits for the dealer's next card;
			// nobody decides meanwhile, so no timer runs.
			a.stopTimer()
			a.publish(wire.Event{Kind: wire.EvNeed, Round: n.Round, Box: n.Box, Hand: n.Hand, FaceDown: n.FaceDown, Need: n})
			return
		}
		if a.expose {
			// The inspector took back a card after which the hole card
			// was turned: the players saw it, so nobody decides before it
			// is turned again (AR-23 (g)).
			a.expose = false
			if r.Dealer().FaceDown() >= 0 {
				if !a.house(ctx, engine.Action{Kind: engine.ExposeHole}, false) {
					return
				}
				continue
			}
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

// eligible lists who may still answer the open optional window.
func (a *Table) eligible() map[declineKey]bool {
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

// house applies a decision that is not a player's: the dealer closing a
// window, or a default when a decision timer ran out (GLI-19 §4.16.3).
func (a *Table) house(ctx context.Context, act engine.Action, byTimeout bool) bool {
	r := a.t.Round()
	if err := r.Act(act); err != nil {
		a.log.Error("house decision refused", "action", act.String(), "err", err)
		return false
	}
	// The decision is applied first: a failed write rebuilds from the log.
	pay := tablelog.Decision{Round: a.t.RoundNo(), Action: wire.ActionOf(act), ByTimeout: byTimeout}
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
		a.s.Metrics.decisions.WithLabelValues("timeout").Inc()
	}
	a.publishRound(by)
	return true
}

// settle settles a round that is over (or returns every stake of a void
// one), closes it in the table and opens the betting for the next.
func (a *Table) settle(ctx context.Context) {
	r := a.t.Round()
	void, reason := r.Void()
	stakes, net, ret := map[string]money.Amount{}, map[string]money.Amount{}, map[string]money.Amount{}
	var house, escrow money.Amount
	pay := tablelog.Settle{Round: a.t.RoundNo(), Void: void, Reason: reason, Record: r.Record(), Bank: a.t.Bank(), Net: net, Returned: ret}
	for _, b := range r.Bets() {
		stakes[b.Player] += b.Stake
		net[b.Player] += b.Net
		house -= b.Net
		escrow += b.Stake
		pay.Bets = append(pay.Bets, wire.BetResult{Player: b.Player, Box: b.Box, Hand: b.Hand, Kind: b.Kind.String(), Stake: b.Stake, Result: b.Result.String(), Net: b.Net})
	}
	pay.House = house
	for p, at := range a.left {
		if _, ok := stakes[p]; ok {
			if pay.Left == nil {
				pay.Left = map[string]time.Time{}
			}
			pay.Left[p] = at
		}
	}
	pay.Dealer = append([]card.Card(nil), r.Dealer().Cards()...)
	for _, box := range r.Boxes() {
		for i, h := range r.Hands(box) {
			pay.Hands = append(pay.Hands, wire.HandResult{Box: box, Hand: i + 1, Cards: append([]card.Card(nil), h.Cards()...), Total: h.Total(), Result: h.Result().String()})
		}
	}
	var ps []sabot.Posting
	pay.Wallets = map[string]money.Amount{}
	players := slices.Sorted(maps.Keys(stakes))
	owners := make([]int64, 0, len(players))
	for _, p := range players {
		owners = append(owners, a.players[p])
	}
	// The wallets before the settlement, read together: one read a round.
	held := a.s.balances(ctx, sabot.AccountWallet, owners)
	for _, p := range players {
		ret[p] = stakes[p] + net[p]
		if a.escrow[p] != stakes[p] {
			a.log.Error("escrow differs from the round's stakes", "player", p, "escrow", int64(a.escrow[p]), "stakes", int64(stakes[p]))
		}
		w, err := a.s.account(ctx, sabot.AccountWallet, a.players[p])
		if err != nil {
			a.log.Error("settle", "err", err)
			return
		}
		if ret[p] != 0 {
			ps = append(ps, sabot.Posting{AccountID: w, Amount: ret[p], Memo: "round " + strconv.Itoa(a.t.RoundNo())})
		}
		pay.Wallets[p] = held[a.players[p]] + ret[p]
	}
	tid, err := a.s.account(ctx, sabot.AccountTable, a.cfg.ID)
	if err != nil {
		a.log.Error("settle", "err", err)
		return
	}
	if escrow != 0 {
		ps = append(ps, sabot.Posting{AccountID: tid, Amount: -escrow, Memo: "round " + strconv.Itoa(a.t.RoundNo())})
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
	a.s.Metrics.rounds.WithLabelValues(result).Inc()
	a.watchRTP(ctx, &pay)
	a.watchCount(ctx, &pay)
	a.roundEnd = a.s.now() // AR-21: every seat has its time to bet on the next round
	a.stopTimer()
	a.publish(wire.Event{Kind: wire.EvSettle, Round: round, Void: void, Text: reason, Net: net, House: house, NewBank: newBank})
	a.revealShoes(ctx)
	a.maybeSnapshot(ctx)
	a.armBetTimer()
	a.maybeDeal(ctx)
}

// housePostings are the house's side of a settlement: the house pays or
// collects the round's net, on the table's house account
// (sabot.AccountTableHouse). FAM-02: at a family table whose bank a player
// holds, the bank's cover goes back from his bank account to his wallet
// with the bank's net; the cover taken at the deal (FAM-01) pays what the
// bank loses, and the house pays nothing (bank.go).
func (a *Table) housePostings(ctx context.Context, bank string, net money.Amount, ret map[string]money.Amount, pay *tablelog.Settle) ([]sabot.Posting, error) {
	memo := "round " + strconv.Itoa(a.t.RoundNo())
	if bank != "" && a.bankCover > 0 {
		pay.BankPaid, pay.BankCover = map[string]money.Amount{"wallet": net}, a.bankCover
		return a.returnCover(ctx, bank, net, memo)
	}
	// The table's own house account, not the central one: no two
	// tables' settlements lock one row.
	houseID, err := a.s.account(ctx, sabot.AccountTableHouse, a.cfg.ID)
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
		pay.BankPaid = map[string]money.Amount{"bank": net}
		return []sabot.Posting{{AccountID: bankID, Amount: net, Memo: memo}}, nil
	}
	need := -net
	fromBank := min(need, a.s.balance(ctx, sabot.AccountBank, owner))
	fromWallet := min(need-fromBank, max(0, a.s.balance(ctx, sabot.AccountWallet, owner)+ret[bank]))
	fromHouse := need - fromBank - fromWallet
	pay.BankPaid = map[string]money.Amount{"bank": -fromBank, "wallet": -fromWallet, "house": -fromHouse}
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
