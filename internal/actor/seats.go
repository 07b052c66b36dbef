package actor

import (
	"context"
	"fmt"
	"sabot/internal/wire"
	"sabot/money"
	"strconv"
	"time"

	"sabot"
)

// AR-21: "a seated player must bet every round or give up the seat". The
// table server reads a seat as a box: a box whose holder has no bet on it
// when the betting window closes is given up; a box held SeatIdle with no
// round dealt (nobody bets, so no window closes; or the bets do not allow a
// round, AR-03) is given up, its holder's bet on it returned; and a player
// holds at most MaxBoxesWithoutBet boxes he has not bet on. The holder of a
// family table's bank keeps his seat (FAM-02: he plays the dealer's hand).
// Each box given up is a leave record of the table's log (with the box and
// the reason), replayed at every start.

// DefaultMaxBoxesWithoutBet is how many boxes a player may hold without a
// bet on them, unless Host.MaxBoxesWithoutBet says otherwise.
const DefaultMaxBoxesWithoutBet = 3

// betOn is a player's stake on a box for the next round (0: none).
func (a *Table) betOn(player string, box int) money.Amount {
	for _, b := range a.t.Bets() {
		if b.Player == player && b.Box == box {
			return b.Stake
		}
	}
	return 0
}

// unbetBoxes counts the boxes a player holds with no bet of his on them:
// none placed for the next round, none in the round in play.
func (a *Table) unbetBoxes(player string) int {
	playing := map[int]bool{}
	if a.dealt {
		for _, b := range a.t.Round().Bets() {
			if b.Player == player {
				playing[b.Box] = true
			}
		}
	}
	n := 0
	for box := 1; box <= a.p.Boxes; box++ {
		if a.t.Holder(box) == player && !playing[box] && a.betOn(player, box) == 0 {
			n++
		}
	}
	return n
}

// checkSeatCap refuses a seat to a player who holds his limit of boxes
// without a bet on them.
func (a *Table) checkSeatCap(player string) error {
	limit := a.s.maxBoxesWithoutBet()
	if limit < 0 || player == a.t.Bank() {
		return nil
	}
	if n := a.unbetBoxes(player); n >= limit {
		return sabot.Errorf(sabot.ECONFLICT, "refused: %s holds %d boxes without a bet on them, at most %d here: bet on them before taking another (AR-21)", player, n, limit).
			WithReason("boxes_without_bet", map[string]any{"n": n, "most": limit, "rule": "AR-21"})
	}
	return nil
}

// vacate gives up one box of a player, with his bet on it (returned, as
// the record says): live and in a replay.
func (a *Table) vacate(player string, box int, returned money.Amount) error {
	if h := a.t.Holder(box); h != player {
		return fmt.Errorf("box %d given up by %s is held by %q", box, player, h)
	}
	if returned > 0 {
		stake, err := a.t.Withdraw(player, box)
		if err != nil {
			return err
		}
		if stake != returned {
			return fmt.Errorf("box %d given up by %s returns %d, logged %d", box, player, stake, returned)
		}
	}
	a.t.Vacate(box)
	delete(a.seatSince, box)
	return nil
}

// seatDeadline is when a box is given up if no round is dealt.
func (a *Table) seatDeadline(box int) time.Time {
	since := a.roundEnd
	if t, ok := a.seatSince[box]; ok && t.After(since) {
		since = t
	}
	return since.Add(a.s.timing().SeatIdle)
}

// releaseSeats gives up the seats AR-21 takes back now: with windowClosed,
// every box its holder has not bet on; and every box held past its
// deadline with no round dealt, except one bet on while the betting window
// is open (its close decides).
func (a *Table) releaseSeats(ctx context.Context, windowClosed bool) {
	if a.dealt || a.closed != "" || a.t == nil {
		return
	}
	now := a.s.now()
	for box := 1; box <= a.p.Boxes; box++ {
		h := a.t.Holder(box)
		if h == "" || h == a.t.Bank() {
			continue
		}
		if a.t.Physical() && walkInPlayer(h) {
			// A walk-in sits at the table itself, on the dealer's time
			// (issue 28): he leaves when the dealer cashes him out, not
			// when an online player's seat would be given up.
			continue
		}
		stake := a.betOn(h, box)
		var reason, key string
		switch {
		case windowClosed && stake == 0:
			reason, key = "no bet on it when the betting window closed", "box_given_up_no_bet"
		case !now.Before(a.seatDeadline(box)) && (stake == 0 || a.timer.kind != betTimer && !a.t.Physical()):
			reason, key = fmt.Sprintf("held %v with no round dealt", a.s.timing().SeatIdle), "box_given_up_idle"
		default:
			continue
		}
		a.release(ctx, h, box, stake, reason, key)
	}
}

// release writes and applies the give-up of one box.
// key names the reason for the client's catalogue (reason.KEY).
func (a *Table) release(ctx context.Context, player string, box int, stake money.Amount, reason, key string) {
	ps, err := a.moves(ctx, player, stake, "seat given up: bet returned (AR-21)")
	if err != nil {
		a.log.Error("seat not given up", "player", player, "box", box, "err", err)
		return
	}
	pay := seatPayload{Player: player, Box: box, Returned: stake, Reason: reason}
	if _, err := a.append(ctx, nil, sabot.LogLeave, 0, pay, ps); err != nil {
		a.log.Error("seat not given up", "player", player, "box", box, "err", err)
		return
	}
	if err := a.vacate(player, box, stake); err != nil { // cannot happen: checked above
		a.log.Error("a seat given up in the log is not in the table", "err", err)
		a.rebuild(ctx)
		return
	}
	rule := a.p.Own("AR-21") // the table's regulation's rule: Argentina's, not Spain's or Venice's
	a.publish(wire.Event{Kind: "release", Player: player, Box: box, Amount: stake, Text: "box " + strconv.Itoa(box) + " given up: " + reason + cite(rule),
		Reason: key, Params: releaseParams(box, a.s.timing().SeatIdle, rule)})
}

// releaseParams are the values of a box given up (reason.box_given_up_*);
// rule is the regulation's rule that says so, where it has one.
func releaseParams(box int, idle time.Duration, rule string) map[string]any {
	return ruleParams(rule, map[string]any{"box": box, "seconds": int64(idle / time.Second)})
}

// expireSeats is the seat timer: the boxes past their time are given up,
// and the round is dealt if the bets left allow it.
func (a *Table) expireSeats(ctx context.Context) {
	a.releaseSeats(ctx, false)
	a.maybeDeal(ctx)
}

// armSeatTimer sets the seat timer to the first box's deadline (none in
// a round, nor for a box bet on while the betting window is open).
func (a *Table) armSeatTimer() {
	var due time.Time
	if !a.dealt && a.closed == "" && a.t != nil {
		for box := 1; box <= a.p.Boxes; box++ {
			h := a.t.Holder(box)
			if h == "" || h == a.t.Bank() || (a.timer.kind == betTimer || a.t.Physical()) && a.betOn(h, box) > 0 {
				continue
			}
			if d := a.seatDeadline(box); due.IsZero() || d.Before(due) {
				due = d
			}
		}
	}
	if due.Equal(a.seatTimer.due) && a.seatTimer.on() == !due.IsZero() {
		return
	}
	a.stopSeatTimer()
	if !due.IsZero() {
		a.seatTimer.set(noTimer, due, a.s.now())
	}
}

func (a *Table) stopSeatTimer() { a.seatTimer.stop() }
