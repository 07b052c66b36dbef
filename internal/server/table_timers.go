package server

import (
	"context"
	"time"

	"sabot/engine"
	"sabot/internal/wire"
)

// A table's timers (the seats' are in seats.go, AR-21): the betting
// window's, which deals; the decision's, which applies a default when a
// player does not decide (GLI-19 §4.16.3) or closes an optional window.

// timerKind says which timer is running: one at a time.
type timerKind uint8

const (
	noTimer timerKind = iota
	betTimer
	decisionTimer
)

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
	if a.dealt || a.timerOn == betTimer || len(a.t.Bets()) == 0 || a.t.Physical() {
		return // at a physical table the dealer closes the betting (no-more-bets)
	}
	a.arm(betTimer, a.s.timing().BetWindow)
	a.publish(wire.Event{Kind: "betting", Deadline: a.due.UnixMilli()})
}

func (a *actor) armDecisionTimer() {
	if a.walkInsOnly() {
		// A walk-in decides at the table, through the dealer (issue 28):
		// the round waits for the dealer's entry as it waits for a card;
		// no online player's timer stands him.
		a.stopTimer()
		return
	}
	d := a.s.timing().Decision
	if inWindow(a.t.Round().Phase()) {
		d = a.s.timing().Window
	}
	a.arm(decisionTimer, d)
}

// walkInsOnly reports whether everyone the round waits for now is a walk-in
// at a physical table.
func (a *actor) walkInsOnly() bool {
	if !a.t.Physical() {
		return false
	}
	tv := a.turn()
	if tv == nil || len(tv.Players) == 0 {
		return false
	}
	for _, p := range tv.Players {
		if !walkInPlayer(p) {
			return false
		}
	}
	return true
}
