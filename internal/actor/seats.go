package actor

import (
	"context"
	"fmt"
	"sabot/internal/tablelog"
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

// Boxes held for ever by players who re-sit as soon as they are given up
// (three accounts held every box of a table; a fourth player
// asked 91 times in 100 s and sat 0 times). A box given up for no bet is
// not its holder's again for ReseatAfter while another player waits for a
// box (he asked for one taken within ReseatAfter: AR-21's first who asks);
// the boxes a player was given up
// for no bet within UnbetWindow count with those he holds unbet against
// MaxBoxesWithoutBet beyond his first box (a round he plays with a bet
// clears them); and a
// player sits down at most SitsPerMinute times a minute at a table. These
// are the table's own memory, lost at a restart (a restart gives every
// seat held its full time again too).
const (
	DefaultReseatAfter   = time.Minute
	DefaultUnbetWindow   = 10 * time.Minute
	DefaultSitsPerMinute = 10
)

// seatUse is what a player did with a table's boxes lately.
type seatUse struct {
	givenUp []boxGivenUp // boxes given up for no bet, within UnbetWindow
	sits    []time.Time  // his sits within the last minute
}

type boxGivenUp struct {
	box int
	at  time.Time
}

// prune forgets what is older than its bounds; it reports whether nothing
// is left.
func (u *seatUse) prune(now time.Time, window time.Duration) bool {
	i := 0
	for i < len(u.givenUp) && (window <= 0 || !now.Before(u.givenUp[i].at.Add(window))) {
		i++
	}
	u.givenUp = u.givenUp[i:]
	j := 0
	for j < len(u.sits) && !now.Before(u.sits[j].Add(time.Minute)) {
		j++
	}
	u.sits = u.sits[j:]
	return len(u.givenUp) == 0 && len(u.sits) == 0
}

// use returns a player's seat use, pruned (nil: none).
func (a *Table) use(player string, now time.Time) *seatUse {
	u := a.seatUses[player]
	if u != nil && u.prune(now, a.s.unbetWindow()) {
		delete(a.seatUses, player)
		return nil
	}
	return u
}

// useOf returns a player's seat use, made if need be; now and then it
// forgets every player's old ones.
func (a *Table) useOf(player string, now time.Time) *seatUse {
	if a.seatUses == nil {
		a.seatUses = map[string]*seatUse{}
	}
	if len(a.seatUses) > 64 {
		for p := range a.seatUses {
			a.use(p, now)
		}
	}
	u := a.use(player, now)
	if u == nil {
		u = &seatUse{}
		a.seatUses[player] = u
	}
	return u
}

// gaveUp notes a box given up for no bet of its holder's.
func (a *Table) gaveUp(player string, box int) {
	if a.t.Physical() && walkInPlayer(player) {
		return
	}
	now := a.s.now()
	u := a.useOf(player, now)
	u.givenUp = append(u.givenUp, boxGivenUp{box, now})
}

// played forgets the boxes given up of the players who bet in the round
// just dealt: they play.
func (a *Table) played(bets []string) {
	for _, p := range bets {
		if u := a.seatUses[p]; u != nil {
			u.givenUp = nil
		}
	}
}

// checkReseat refuses a sit to a player past his sits of the minute, or on
// a box given up for no bet of his less than ReseatAfter ago.
func (a *Table) checkReseat(player string, box int) error {
	if player == a.t.Bank() || a.t.Physical() && walkInPlayer(player) {
		return nil
	}
	now := a.s.now()
	u := a.use(player, now)
	if u == nil {
		return nil
	}
	if limit := a.s.sitsPerMinute(); limit > 0 && len(u.sits) >= limit {
		wait := u.sits[0].Add(time.Minute).Sub(now)
		return sabot.Throttled(wait, "refused: %s sat down %d times at this table in the last minute, at most %d: try again in %ds%s",
			player, len(u.sits), limit, int64((wait+time.Second-1)/time.Second), cite(a.p.Own("AR-21")))
	}
	if after := a.s.reseatAfter(); after > 0 && a.othersWait(player, now, after) {
		for _, g := range u.givenUp {
			if g.box == box && now.Before(g.at.Add(after)) {
				return sabot.Errorf(sabot.ECONFLICT, "refused: box %d was given up by %s for no bet %ds ago: it is not his again for %ds; another box may be%s",
					box, player, int64(now.Sub(g.at)/time.Second), int64(after/time.Second), cite(a.p.Own("AR-21")))
			}
		}
	}
	return nil
}

// wants notes a player's sit refused for a box taken: he waits for one.
func (a *Table) wants(player string) {
	now := a.s.now()
	if a.waiting == nil {
		a.waiting = map[string]time.Time{}
	}
	if len(a.waiting) > 64 {
		for p, t := range a.waiting {
			if now.Sub(t) > a.s.reseatAfter() {
				delete(a.waiting, p)
			}
		}
	}
	a.waiting[player] = now
}

// othersWait reports whether a player other than this one asked for a
// box taken within the last span.
func (a *Table) othersWait(player string, now time.Time, span time.Duration) bool {
	for p, t := range a.waiting {
		if p != player && now.Sub(t) < span {
			return true
		}
	}
	return false
}

// sat notes a sit.
func (a *Table) sat(player string) {
	if a.t.Physical() && walkInPlayer(player) {
		return
	}
	now := a.s.now()
	u := a.useOf(player, now)
	u.sits = append(u.sits, now)
}

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

// holds reports whether a player holds a box.
func (a *Table) holds(player string) bool {
	for box := 1; box <= a.p.Boxes; box++ {
		if a.t.Holder(box) == player {
			return true
		}
	}
	return false
}

// checkSeatCap refuses a seat to a player who holds his limit of boxes
// without a bet on them.
func (a *Table) checkSeatCap(player string) error {
	limit := a.s.maxBoxesWithoutBet()
	if limit < 0 || player == a.t.Bank() {
		return nil
	}
	n, gone := a.unbetBoxes(player), 0
	if u := a.use(player, a.s.now()); u != nil {
		gone = len(u.givenUp)
	}
	// A player who holds no box may take one, to play: the boxes given up
	// bound how many more he takes without betting.
	if n >= limit || gone > 0 && n+gone >= limit && a.holds(player) {
		if gone == 0 {
			return sabot.Errorf(sabot.ECONFLICT, "refused: %s holds %d boxes without a bet on them, at most %d here: bet on them before taking another%s", player, n, limit, cite(a.p.Own("AR-21"))).
				WithReason("boxes_without_bet", ruleParams(a.p.Own("AR-21"), map[string]any{"n": n, "most": limit}))
		}
		return sabot.Errorf(sabot.ECONFLICT, "refused: %s holds %d boxes without a bet on them and was given up %d for no bet in the last %v, at most %d here: bet on the boxes he holds before taking another%s",
			player, n, gone, a.s.unbetWindow(), limit, cite(a.p.Own("AR-21"))).
			WithReason("boxes_without_bet", ruleParams(a.p.Own("AR-21"), map[string]any{"n": n + gone, "most": limit}))
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
			// A walk-in sits at the table itself, on the dealer's time:
			// he leaves when the dealer cashes him out, not
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
	rule := a.p.Own("AR-21") // the table's regulation's rule: Argentina's, not Spain's or Venice's
	ps, err := a.moves(ctx, player, stake, "seat given up: bet returned"+cite(rule))
	if err != nil {
		a.log.Error("seat not given up", "player", player, "box", box, "err", err)
		return
	}
	pay := tablelog.Seat{Player: player, Box: box, Returned: stake, Reason: reason}
	if _, err := a.append(ctx, nil, sabot.LogLeave, 0, pay, ps); err != nil {
		a.log.Error("seat not given up", "player", player, "box", box, "err", err)
		return
	}
	if err := a.vacate(player, box, stake); err != nil { // cannot happen: checked above
		a.log.Error("a seat given up in the log is not in the table", "err", err)
		a.rebuild(ctx)
		return
	}
	if stake == 0 {
		a.gaveUp(player, box)
	}
	a.publish(wire.Event{Kind: wire.EvRelease, Player: player, Box: box, Amount: stake, Text: "box " + strconv.Itoa(box) + " given up: " + reason + cite(rule),
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
