package live

import (
	"context"
	"fmt"
	"slices"
	"strings"
	"sync"
	"time"

	"sabot"
	"sabot/internal/tablelog"
	"sabot/internal/wire"
	"sabot/money"
	"sabot/table"
)

// Walk-in players at a live table (docs/live.md).
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
// The float has limits: a buy-in or cash-out over the table's
// cash_approval is the inspector's (or the pit's) to make, not the dealer's
// alone, and no buy-in takes the chips out past the float's ceiling,
// float_limit (the pit's options per table; --cash-approval and
// --float-limit by default). One buy-in of 10^15 filled a float that had
// none, and every later buy-in was refused.

// The cash limits a table has unless its options or the server's flags say
// otherwise: 10,000.00 and 1,000,000.00 in hundredths.
const (
	DefaultCashApproval money.Amount = 1_000_000
	DefaultFloatLimit   money.Amount = 100_000_000
)

// CashView is a live table's cash limits in force: the largest buy-in or
// cash-out the dealer makes alone, and the float's ceiling (0: none).
type CashView struct {
	Approval   money.Amount `json:"cash_approval"`
	FloatLimit money.Amount `json:"float_limit"`
}

// limits are a table's cash limits in force (0: none): its options, else
// the server's flags (0: the defaults; negative: none).
func limits(options map[string]string, flagApproval, flagCeiling money.Amount) (approval, ceiling money.Amount) {
	approval, ceiling, _ = sabot.CashLimitsOf(options) // checked when set
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
	return pick(approval, flagApproval, DefaultCashApproval), pick(ceiling, flagCeiling, DefaultFloatLimit)
}

// cashLimits are the table's cash limits in force under the server's
// flags.
func (l *Live) cashLimits(options map[string]string) (approval, ceiling money.Amount) {
	return limits(options, l.CashApproval, l.FloatLimit)
}

// Cash is a table's cash limits as it shows them (its options, else the
// server's flags: 0, the defaults; negative, none): nil at a table dealt from a shuffled shoe (or none yet),
// which sells no chips.
func Cash(t *table.Table, options map[string]string, flagApproval, flagCeiling money.Amount) *CashView {
	if t == nil || !t.Physical() {
		return nil
	}
	approval, ceiling := limits(options, flagApproval, flagCeiling)
	return &CashView{Approval: approval, FloatLimit: ceiling}
}

// DefaultCashShift is the shift over which a walk-in's buy-ins and a
// dealer's are summed against cash_approval (three buy-ins
// of 9,000.00 under 10,000.00 each went by the inspector).
const DefaultCashShift = 8 * time.Hour

// sales are the buy-ins of the shift, by table and by whom (a walk-in; a
// dealer, those he made alone). Kept in memory: a restart starts the sums
// again.
type sales struct {
	mu sync.Mutex
	by map[saleKey][]sale
}

type saleKey struct {
	table int64
	who   string
}

type sale struct {
	at     time.Time
	amount money.Amount
}

func (l *Live) shift() time.Duration {
	if l.CashShift == 0 {
		return DefaultCashShift
	}
	return l.CashShift
}

func (l *Live) now() time.Time {
	if l.Now != nil {
		return l.Now()
	}
	return time.Now()
}

// sold is what a walk-in bought, or a dealer sold alone, at a table over
// the shift.
func (l *Live) sold(table int64, who string) money.Amount {
	shift := l.shift()
	if shift < 0 {
		return 0
	}
	l.sales.mu.Lock()
	defer l.sales.mu.Unlock()
	k, now := saleKey{table, who}, l.now()
	ss := slices.DeleteFunc(l.sales.by[k], func(x sale) bool { return !now.Before(x.at.Add(shift)) })
	if len(ss) == 0 {
		delete(l.sales.by, k)
		return 0
	}
	l.sales.by[k] = ss
	var sum money.Amount
	for _, x := range ss {
		sum, _ = sum.Add(x.amount)
	}
	return sum
}

// sell notes a buy-in of the shift.
func (l *Live) sell(table int64, who string, amount money.Amount) {
	if l.shift() < 0 {
		return
	}
	l.sales.mu.Lock()
	defer l.sales.mu.Unlock()
	if l.sales.by == nil {
		l.sales.by = map[saleKey][]sale{}
	}
	k := saleKey{table, who}
	l.sales.by[k] = append(l.sales.by[k], sale{l.now(), amount})
}

// overApproval reports whether an amount is over the table's
// cash_approval (and the limit).
func (l *Live) overApproval(t Table, amount money.Amount) (bool, money.Amount) {
	approval, _ := l.cashLimits(t.Options())
	return approval > 0 && amount > approval, approval
}

// underCeiling refuses a buy-in that would take the chips out past the
// float's ceiling.
func (l *Live) underCeiling(ctx context.Context, t Table, amount money.Amount) error {
	_, ceiling := l.cashLimits(t.Options())
	if ceiling == 0 {
		return nil
	}
	var out money.Amount
	if f, err := l.Store.Account(ctx, sabot.AccountHouse, t.ID()); err == nil {
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
func cashCase(c string) bool { return c == wire.OpBuyIn || c == wire.OpCashOut }

// askCash is the dealer's buy-in or cash-out over the table's
// cash_approval: it waits, with the AR-23 corrections, for the inspector
// (or the pit) to approve it (approve) or refuse it (refuse-correction),
// through a restart and across rounds.
func askCash(ctx context.Context, t Table, by Sender, event, name string, box int, amount, approval money.Amount) (int64, error) {
	if n := len(*t.Pending()); n >= MaxPending {
		return 0, sabot.Errorf(sabot.ECONFLICT, "refused: %d requests wait for the inspector already", n)
	}
	x := wire.CorrectionView{Case: event, Box: box, Player: name, Amount: amount, Asked: by.User.Name,
		Text: "over the table's cash_approval of " + approval.String() + ": the inspector approves it"}
	return ask(ctx, t, x, 0)
}

// approveCash makes a buy-in or cash-out the dealer asked for, on the
// inspector's word, if it still can be: the same walk-in at the box, the
// float's ceiling, a cash-out between rounds with no bet of his down (it
// changes back what he holds now).
func (l *Live) approveCash(ctx context.Context, t Table, by Sender, x wire.CorrectionView) (int64, error) {
	name, id, err := walkInAt(t, x.Box)
	if err == nil && name != x.Player {
		err = sabot.Errorf(sabot.ECONFLICT, "refused: %s no longer holds box %d", x.Player, x.Box)
	}
	if err != nil {
		return 0, err
	}
	x.Status, x.By = "approved", by.User.Name
	who := "asked by " + x.Asked + ", approved by " + x.By
	amount := x.Amount
	if x.Case == wire.OpBuyIn {
		err = l.underCeiling(ctx, t, amount)
	} else {
		amount, err = l.cashable(ctx, t, name, id)
		amount = -amount
	}
	if err != nil {
		return 0, err
	}
	seq, err := l.chips(ctx, t, by, x.Case, name, id, x.Box, amount, who, &x)
	if err != nil {
		return 0, err
	}
	t.Pending().Drop(x.ID)
	publishCorrection(t, x)
	return seq, nil
}

// IsWalkIn reports whether a name is a walk-in's (guests' names start
// with '#', which a registered name cannot).
func IsWalkIn(name string) bool { return strings.HasPrefix(name, "#") }

// SeatWalkIn seats a walk-in player at a free box of a physical table.
func (l *Live) SeatWalkIn(ctx context.Context, t Table, box int) (int64, error) {
	if err := physicalOnly(t); err != nil {
		return 0, err
	}
	tb := t.Table()
	if n := tb.Profile().Boxes; box < 1 || box > n {
		return 0, sabot.Errorf(sabot.EINVALID, "refused: the table has boxes 1 to %d", n)
	}
	if h := tb.Holder(box); h != "" {
		rule := tb.Profile().Cite(SeatRules, "boxes") // as a player's sit cites it
		return 0, sabot.Errorf(sabot.ECONFLICT, "refused: box %d is taken by %s%s", box, h, cite(rule)).WithReason("box_taken", map[string]any{"box": box, "player": h, "rule": rule})
	}
	u := &sabot.User{Name: fmt.Sprintf("#%d-%d", t.ID(), t.Seq()+1), PasswordHash: []byte{}, Role: sabot.RoleGuest}
	if err := l.Store.CreateUser(ctx, u); sabot.ErrorCode(err) == sabot.ECONFLICT {
		// Made by an attempt whose record was not written (the log's seq
		// did not move): the guest was never seated; he is this one.
		if u, err = l.Store.UserByName(ctx, u.Name); err != nil {
			return 0, err
		} else if u.Role != sabot.RoleGuest {
			return 0, sabot.Errorf(sabot.ECONFLICT, "refused: the name %s is not a walk-in's", u.Name)
		}
	} else if err != nil {
		return 0, err
	}
	return t.Sit(ctx, u, box)
}

// ParseBuyIn reads a buy-in's cash paid for the chips (the body's stake).
func ParseBuyIn(stake int64) (money.Amount, error) {
	if stake <= 0 {
		return 0, sabot.Errorf(sabot.EINVALID, "buy-in: give the cash paid for the chips (stake, minor units), more than 0")
	}
	return money.Amount(stake), nil
}

// walkInAt is the walk-in holding a box.
func walkInAt(t Table, box int) (string, int64, error) {
	holder := ""
	if tb := t.Table(); box >= 1 && box <= tb.Profile().Boxes {
		holder = tb.Holder(box)
	}
	id, ok := t.Player(holder)
	if !IsWalkIn(holder) || !ok {
		return "", 0, sabot.Errorf(sabot.ECONFLICT, "refused: box %d is not held by a walk-in player", box)
	}
	return holder, id, nil
}

// BuyIn moves the cash paid from the table's float to the walk-in's chips.
func (l *Live) BuyIn(ctx context.Context, t Table, by Sender, box int, amount money.Amount) (int64, error) {
	if err := physicalOnly(t); err != nil {
		return 0, err
	}
	name, id, err := walkInAt(t, box)
	if err != nil {
		return 0, err
	}
	if err := l.underCeiling(ctx, t, amount); err != nil {
		return 0, err
	}
	who := "by " + by.User.Name
	// Over the shift: the walk-in's buy-ins and the dealer's own sales
	// with this one.
	dealer := by.User.Role == sabot.RoleDealer
	shift, _ := l.sold(t.ID(), name).Add(amount)
	if dealer {
		if d, _ := l.sold(t.ID(), "dealer "+by.User.Name).Add(amount); d > shift {
			shift = d
		}
	}
	if over, approval := l.overApproval(t, max(amount, shift)); over {
		if dealer {
			return askCash(ctx, t, by, wire.OpBuyIn, name, box, amount, approval)
		}
		who += ", over the table's cash_approval of " + approval.String()
	}
	seq, err := l.chips(ctx, t, by, wire.OpBuyIn, name, id, box, amount, who, nil)
	if err == nil && dealer {
		l.sell(t.ID(), "dealer "+by.User.Name, amount)
	}
	return seq, err
}

// CashOut changes the walk-in's chips back to cash, between rounds, with
// no bet of his down (he withdraws it first); he keeps his box until he
// leaves (leave, with walk_in).
func (l *Live) CashOut(ctx context.Context, t Table, by Sender, box int) (int64, error) {
	if err := physicalOnly(t); err != nil {
		return 0, err
	}
	name, id, err := walkInAt(t, box)
	if err != nil {
		return 0, err
	}
	held, err := l.cashable(ctx, t, name, id)
	if err != nil {
		return 0, err
	}
	who := "by " + by.User.Name
	if over, approval := l.overApproval(t, held); over {
		if by.User.Role == sabot.RoleDealer {
			return askCash(ctx, t, by, wire.OpCashOut, name, box, held, approval)
		}
		who += ", over the table's cash_approval of " + approval.String()
	}
	return l.chips(ctx, t, by, wire.OpCashOut, name, id, box, -held, who, nil)
}

// cashable is what a walk-in changes back: his chips, between rounds, with
// no bet of his down.
func (l *Live) cashable(ctx context.Context, t Table, name string, id int64) (money.Amount, error) {
	if t.Dealt() {
		return 0, sabot.Errorf(sabot.ECONFLICT, "refused: a walk-in cashes out between rounds")
	}
	for _, b := range t.Table().Bets() {
		if b.Player == name {
			return 0, sabot.Errorf(sabot.ECONFLICT, "refused: %s has a bet on box %d: withdraw it first", name, b.Box)
		}
	}
	return l.Balance(ctx, sabot.AccountWallet, id), nil
}

// chips writes a walk-in's chips bought (amount > 0) or changed back
// (amount < 0) against the table's float: a significant event with its
// postings (who: who made it, and who approved it), and tells the table.
// An approved request's record carries it (x): a start no longer waits for
// it.
func (l *Live) chips(ctx context.Context, t Table, by Sender, event, name string, id int64, box int, amount money.Amount, who string, x *wire.CorrectionView) (int64, error) {
	ps, err := l.floatPostings(ctx, t.ID(), id, amount, event+" "+name)
	if err != nil {
		return 0, err
	}
	text := fmt.Sprintf("%s buys %s in chips at box %d (%s)", name, amount, box, who)
	if amount < 0 {
		text = fmt.Sprintf("%s changes %s in chips back to cash at box %d (%s)", name, -amount, box, who)
	}
	var ev tablelog.Event = tablelog.BuyIn{User: name, Amount: max(amount, -amount), Table: t.ID(), By: by.User.Name, Box: box, Text: text, Correction: x}
	if event == wire.OpCashOut {
		ev = tablelog.CashOut(ev.(tablelog.BuyIn))
	}
	seq, err := t.Append(ctx, Record{Kind: sabot.LogAdmin, Payload: ev, Postings: ps})
	if err != nil {
		return 0, err
	}
	t.Publish(wire.Event{Kind: event, Player: name, Box: box, Amount: max(amount, -amount)})
	if event == wire.OpBuyIn {
		l.sell(t.ID(), name, amount) // his buy-ins of the shift, approved or not
	}
	return seq, nil
}

// floatPostings move an amount from a table's cash float to a walk-in's
// chips (negative: back to the float).
func (l *Live) floatPostings(ctx context.Context, table, guest int64, amount money.Amount, memo string) ([]sabot.Posting, error) {
	if amount == 0 {
		return nil, nil
	}
	float, err := l.Account(ctx, sabot.AccountHouse, table)
	if err != nil {
		return nil, err
	}
	w, err := l.Account(ctx, sabot.AccountWallet, guest)
	if err != nil {
		return nil, err
	}
	return []sabot.Posting{{AccountID: float, Amount: -amount, Memo: memo}, {AccountID: w, Amount: amount, Memo: memo}}, nil
}

// WalkInView is a walk-in player's chips at his box: what the
// dealer sees by each walk-in's box on the console.
type WalkInView struct {
	Box    int          `json:"box"`
	Player string       `json:"player"`
	Chips  money.Amount `json:"chips"`
}

// Seat is a box and who holds it.
type Seat struct {
	Box    int
	Player string
}

// WalkIns lists the walk-ins seated at a table and the chips each holds,
// for the table's staff (a dealer or inspector on its staff option, or the
// pit): u asks, at a table with those options and seats.
func (l *Live) WalkIns(ctx context.Context, u *sabot.User, options map[string]string, seats []Seat) ([]WalkInView, error) {
	if staff := sabot.StaffOf(options); staff != nil && !u.Admin && !slices.Contains(staff, u.Name) {
		return nil, sabot.Errorf(sabot.EFORBIDDEN, "%s is not on this table's staff (its staff option: %s)", u.Name, strings.Join(staff, ", "))
	}
	out := []WalkInView{}
	for _, seat := range seats {
		if !IsWalkIn(seat.Player) {
			continue
		}
		g, err := l.Store.UserByName(ctx, seat.Player)
		if err != nil {
			return nil, err
		}
		acc, err := l.Store.Account(ctx, sabot.AccountWallet, g.ID)
		if err != nil {
			return nil, err
		}
		out = append(out, WalkInView{Box: seat.Box, Player: seat.Player, Chips: acc.Balance})
	}
	return out, nil
}
