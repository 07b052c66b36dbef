package server

import (
	"context"
	"fmt"
	"net/http"
	"slices"
	"strings"

	"sabot"
	"sabot/money"
)

// Walk-in players at a live table (issue 13, deliverable 4; docs/live.md).
// A player who sits at the physical table plays with chips he bought there
// for cash. The dealer seats him (seat-walk-in: a guest of the table, named
// "#TABLE-N", who has no password and never logs in), sells him chips
// (buy-in: the amount moves from the table's cash float, the house's
// account owned by the table, to the guest's wallet: the ledger balances
// and `sabot ledger check` covers it), enters his bets and decisions (any
// player's command with walk_in: the box; it is applied as the guest's own,
// AR-06 holding: only the box's bettor decides), and changes his chips back
// to cash when he leaves (cash-out: his whole wallet back to the float).
// Chips a walk-in takes away stay in his wallet: the float says what the
// table's cash owes for the chips still out.
//
// The float has limits (issue 25): a buy-in or cash-out over the table's
// cash_approval is the inspector's (or the pit's) to make, not the dealer's
// alone, and no buy-in takes the chips out past the float's ceiling,
// float_limit (the pit's options per table; --cash-approval and
// --float-limit by default). One buy-in of 10^15 filled a float that had
// none, and every later buy-in was refused.

// The walk-in commands, the dealer's.
const (
	opSeatWalkIn = "seat-walk-in"
	opBuyIn      = "buy-in"
	opCashOut    = "cash-out"
)

// The cash limits a table has unless its options or the server's flags say
// otherwise: 10,000.00 and 1,000,000.00 in hundredths.
const (
	DefaultCashApproval money.Amount = 1_000_000
	DefaultFloatLimit   money.Amount = 100_000_000
)

// cashLimits are the table's cash limits in force (0: none): its options,
// else the server's.
func (a *actor) cashLimits() (approval, ceiling money.Amount) {
	approval, ceiling, _ = sabot.CashLimitsOf(a.cfg.Options) // checked when set
	pick := func(opt, flag, def money.Amount) money.Amount {
		switch {
		case opt > 0:
			return opt
		case flag == 0:
			return def
		case flag < 0:
			return 0
		}
		return flag
	}
	return pick(approval, a.s.CashApproval, DefaultCashApproval), pick(ceiling, a.s.FloatLimit, DefaultFloatLimit)
}

func (a *actor) cashView() *CashView {
	if a.t == nil || !a.t.Physical() {
		return nil
	}
	approval, ceiling := a.cashLimits()
	return &CashView{Approval: approval, FloatLimit: ceiling}
}

// overApproval reports whether an amount is over the table's
// cash_approval (and the limit).
func (a *actor) overApproval(amount money.Amount) (bool, money.Amount) {
	approval, _ := a.cashLimits()
	return approval > 0 && amount > approval, approval
}

// underCeiling refuses a buy-in that would take the chips out past the
// float's ceiling.
func (a *actor) underCeiling(ctx context.Context, amount money.Amount) error {
	_, ceiling := a.cashLimits()
	if ceiling == 0 {
		return nil
	}
	var out money.Amount
	if f, err := a.s.Store.Account(ctx, sabot.AccountHouse, a.created.ID); err == nil {
		out = -f.Balance
	} else if sabot.ErrorCode(err) != sabot.ENOTFOUND {
		return err
	}
	if amount > ceiling-out {
		return sabot.Errorf(sabot.ECONFLICT, "refused: with %s in chips out, %s more would take the float past its ceiling (float_limit) of %s: the pit raises it", max(out, 0), amount, ceiling)
	}
	return nil
}

// cashCase reports whether a correction is a walk-in's buy-in or cash-out
// waiting for the inspector.
func cashCase(c string) bool { return c == opBuyIn || c == opCashOut }

// askCash is the dealer's buy-in or cash-out over the table's
// cash_approval: it waits, with the AR-23 corrections, for the inspector
// (or the pit) to approve it (approve) or refuse it (refuse-correction),
// through a restart and across rounds.
func (a *actor) askCash(ctx context.Context, c *command, event, name string, box int, amount, approval money.Amount) (int64, error) {
	if len(a.pending) >= MaxPending {
		return 0, sabot.Errorf(sabot.ECONFLICT, "refused: %d requests wait for the inspector already", len(a.pending))
	}
	x := correction{Case: event, Box: box, Player: name, Amount: amount, Asked: c.user.Name,
		Text: "over the table's cash_approval of " + approval.String() + ": the inspector approves it"}
	rec, err := a.append(ctx, c, sabot.LogAdmin, 0, adminPayload{Event: "correction-asked", Correction: &x, Text: x.words() + " (asked by " + x.Asked + ")"}, nil)
	if err != nil {
		return 0, err
	}
	x.ID = rec.Seq
	a.pending = append(a.pending, x)
	a.publishCorrection(x)
	return rec.Seq, nil
}

// approveCash makes a buy-in or cash-out the dealer asked for, on the
// inspector's word, if it still can be: the same walk-in at the box, the
// float's ceiling, a cash-out between rounds with no bet of his down (it
// changes back what he holds now).
func (a *actor) approveCash(ctx context.Context, c *command, x correction) (int64, error) {
	name, id, err := a.walkInAt(x.Box)
	if err == nil && name != x.Player {
		err = sabot.Errorf(sabot.ECONFLICT, "refused: %s no longer holds box %d", x.Player, x.Box)
	}
	if err != nil {
		return 0, err
	}
	x.Status, x.By = "approved", c.user.Name
	who := "asked by " + x.Asked + ", approved by " + x.By
	amount := x.Amount
	if x.Case == opBuyIn {
		err = a.underCeiling(ctx, amount)
	} else {
		amount, err = a.cashable(ctx, name, id)
		amount = -amount
	}
	if err != nil {
		return 0, err
	}
	seq, err := a.chips(ctx, c, x.Case, name, id, x.Box, amount, who, &x)
	if err != nil {
		return 0, err
	}
	a.drop(x.ID)
	a.publishCorrection(x)
	return seq, nil
}

// walkInPlayer reports whether a name is a walk-in's (guests' names start
// with '#', which a registered name cannot).
func walkInPlayer(name string) bool { return strings.HasPrefix(name, "#") }

// asWalkIn turns a player's command the dealer sent for the walk-in at a
// box into the walk-in's own.
func (a *actor) asWalkIn(c *command) error {
	holder := a.t.Holder(c.walkIn)
	if c.walkIn < 1 || c.walkIn > a.p.Boxes || !walkInPlayer(holder) {
		return sabot.Errorf(sabot.ECONFLICT, "refused: box %d is not held by a walk-in player", c.walkIn)
	}
	id, ok := a.players[holder]
	if !ok {
		return sabot.Errorf(sabot.ECONFLICT, "refused: the walk-in at box %d is not known here", c.walkIn)
	}
	c.user = &sabot.User{ID: id, Name: holder, Role: sabot.RoleGuest}
	return nil
}

// seatWalkIn seats a walk-in player at a free box of a physical table.
func (a *actor) seatWalkIn(ctx context.Context, c *command, req sitRequest) (int64, error) {
	if err := a.physicalOnly(); err != nil {
		return 0, err
	}
	if req.Box < 1 || req.Box > a.p.Boxes {
		return 0, sabot.Errorf(sabot.EINVALID, "refused: the table has boxes 1 to %d", a.p.Boxes)
	}
	if h := a.t.Holder(req.Box); h != "" {
		return 0, sabot.Errorf(sabot.ECONFLICT, "refused: box %d is taken by %s (AR-21)", req.Box, h)
	}
	u := &sabot.User{Name: fmt.Sprintf("#%d-%d", a.created.ID, a.lastSeq+1), PasswordHash: []byte{}, Role: sabot.RoleGuest}
	if err := a.s.Store.CreateUser(ctx, u); sabot.ErrorCode(err) == sabot.ECONFLICT {
		// Made by an attempt whose record was not written (the log's seq
		// did not move): the guest was never seated; he is this one.
		if u, err = a.s.Store.UserByName(ctx, u.Name); err != nil {
			return 0, err
		} else if u.Role != sabot.RoleGuest {
			return 0, sabot.Errorf(sabot.ECONFLICT, "refused: the name %s is not a walk-in's", u.Name)
		}
	} else if err != nil {
		return 0, err
	}
	g := *c
	g.user = u
	a.players[u.Name] = u.ID
	return a.sit(ctx, &g, req)
}

// buyInRequest sells chips to the walk-in at a box.
type buyInRequest struct {
	Box    int
	Amount int64
}

func (buyInRequest) read(b CommandRequest) (buyInRequest, error) {
	if b.Stake <= 0 {
		return buyInRequest{}, sabot.Errorf(sabot.EINVALID, "buy-in: give the cash paid for the chips (stake, minor units), more than 0")
	}
	return buyInRequest{Box: b.Box, Amount: int64(b.Stake)}, nil
}

// walkInAt is the walk-in holding a box.
func (a *actor) walkInAt(box int) (string, int64, error) {
	holder := ""
	if box >= 1 && box <= a.p.Boxes {
		holder = a.t.Holder(box)
	}
	id, ok := a.players[holder]
	if !walkInPlayer(holder) || !ok {
		return "", 0, sabot.Errorf(sabot.ECONFLICT, "refused: box %d is not held by a walk-in player", box)
	}
	return holder, id, nil
}

// buyIn moves the cash paid from the table's float to the walk-in's chips.
func (a *actor) buyIn(ctx context.Context, c *command, req buyInRequest) (int64, error) {
	if err := a.physicalOnly(); err != nil {
		return 0, err
	}
	name, id, err := a.walkInAt(req.Box)
	if err != nil {
		return 0, err
	}
	amount := money.Amount(req.Amount)
	if err := a.underCeiling(ctx, amount); err != nil {
		return 0, err
	}
	who := "by " + c.user.Name
	if over, approval := a.overApproval(amount); over {
		if c.user.Role == sabot.RoleDealer {
			return a.askCash(ctx, c, opBuyIn, name, req.Box, amount, approval)
		}
		who += ", over the table's cash_approval of " + approval.String()
	}
	return a.chips(ctx, c, opBuyIn, name, id, req.Box, amount, who, nil)
}

// cashOut changes the walk-in's chips back to cash, between rounds, with
// no bet of his down (he withdraws it first); he keeps his box until he
// leaves (leave, with walk_in).
func (a *actor) cashOut(ctx context.Context, c *command, req sitRequest) (int64, error) {
	if err := a.physicalOnly(); err != nil {
		return 0, err
	}
	name, id, err := a.walkInAt(req.Box)
	if err != nil {
		return 0, err
	}
	held, err := a.cashable(ctx, name, id)
	if err != nil {
		return 0, err
	}
	who := "by " + c.user.Name
	if over, approval := a.overApproval(held); over {
		if c.user.Role == sabot.RoleDealer {
			return a.askCash(ctx, c, opCashOut, name, req.Box, held, approval)
		}
		who += ", over the table's cash_approval of " + approval.String()
	}
	return a.chips(ctx, c, opCashOut, name, id, req.Box, -held, who, nil)
}

// cashable is what a walk-in changes back: his chips, between rounds, with
// no bet of his down.
func (a *actor) cashable(ctx context.Context, name string, id int64) (money.Amount, error) {
	if a.dealt {
		return 0, sabot.Errorf(sabot.ECONFLICT, "refused: a walk-in cashes out between rounds")
	}
	for _, b := range a.t.Bets() {
		if b.Player == name {
			return 0, sabot.Errorf(sabot.ECONFLICT, "refused: %s has a bet on box %d: withdraw it first", name, b.Box)
		}
	}
	return a.s.balance(ctx, sabot.AccountWallet, id), nil
}

// chips writes a walk-in's chips bought (amount > 0) or changed back
// (amount < 0) against the table's float: a significant event with its
// postings (who: who made it, and who approved it), and tells the table.
// An approved request's record carries it (x): a start no longer waits for
// it.
func (a *actor) chips(ctx context.Context, c *command, event, name string, id int64, box int, amount money.Amount, who string, x *correction) (int64, error) {
	ps, err := a.floatPostings(ctx, id, amount, event+" "+name)
	if err != nil {
		return 0, err
	}
	text := fmt.Sprintf("%s buys %s in chips at box %d (%s)", name, amount, box, who)
	if amount < 0 {
		text = fmt.Sprintf("%s changes %s in chips back to cash at box %d (%s)", name, -amount, box, who)
	}
	rec, err := a.append(ctx, c, sabot.LogAdmin, 0, adminPayload{Event: event, User: name, Amount: max(amount, -amount), Table: a.created.ID, By: c.user.Name, Text: text, Correction: x}, ps)
	if err != nil {
		return 0, err
	}
	a.publish(Event{Kind: event, Player: name, Box: box, Amount: max(amount, -amount)})
	return rec.Seq, nil
}

// floatPostings move an amount from the table's cash float to a walk-in's
// chips (negative: back to the float).
func (a *actor) floatPostings(ctx context.Context, guest int64, amount money.Amount, memo string) ([]sabot.Posting, error) {
	if amount == 0 {
		return nil, nil
	}
	float, err := a.s.account(ctx, sabot.AccountHouse, a.created.ID)
	if err != nil {
		return nil, err
	}
	w, err := a.s.account(ctx, sabot.AccountWallet, guest)
	if err != nil {
		return nil, err
	}
	return []sabot.Posting{{AccountID: float, Amount: -amount, Memo: memo}, {AccountID: w, Amount: amount, Memo: memo}}, nil
}

// WalkInView is a walk-in player's chips at his box (issue 28): what the
// dealer sees by each walk-in's box on the console.
type WalkInView struct {
	Box    int          `json:"box"`
	Player string       `json:"player"`
	Chips  money.Amount `json:"chips"`
}

// handleWalkIns lists the walk-ins seated at a table and the chips each
// holds, for the table's staff (a dealer or inspector on its staff option,
// or the pit).
func (s *Server) handleWalkIns(w http.ResponseWriter, r *http.Request, u *sabot.User) {
	if !u.Admin && !u.Staff() {
		s.writeError(w, r, sabot.Errorf(sabot.EFORBIDDEN, "a table's walk-ins are for its staff"))
		return
	}
	a, err := s.tableOf(r)
	if err != nil {
		s.writeError(w, r, err)
		return
	}
	rep := a.do(r.Context(), &command{inside: viewTable})
	if rep.err != nil {
		s.writeError(w, r, rep.err)
		return
	}
	if staff := sabot.StaffOf(rep.view.Options); staff != nil && !u.Admin && !slices.Contains(staff, u.Name) {
		s.writeError(w, r, sabot.Errorf(sabot.EFORBIDDEN, "%s is not on this table's staff (its staff option: %s)", u.Name, strings.Join(staff, ", ")))
		return
	}
	out := []WalkInView{}
	for _, seat := range rep.view.Seats {
		if !walkInPlayer(seat.Player) {
			continue
		}
		g, err := s.Store.UserByName(r.Context(), seat.Player)
		if err != nil {
			s.writeError(w, r, err)
			return
		}
		acc, err := s.Store.Account(r.Context(), sabot.AccountWallet, g.ID)
		if err != nil {
			s.writeError(w, r, err)
			return
		}
		out = append(out, WalkInView{Box: seat.Box, Player: seat.Player, Chips: acc.Balance})
	}
	writeJSON(w, http.StatusOK, out)
}
