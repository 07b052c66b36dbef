package actor

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
	rebuildTimer // a failed rebuild is tried again (rebuild)
)

// alarm is one of the actor's timers: which it is, and when it fires. The
// actor's loop waits on c; when it fires, the loop calls fired.
type alarm struct {
	t    *time.Timer
	kind timerKind
	due  time.Time
}

// set (re)starts the alarm for due, now being now.
func (l *alarm) set(kind timerKind, due, now time.Time) {
	l.stop()
	l.t, l.kind, l.due = time.NewTimer(max(due.Sub(now), 0)), kind, due
}

// stop stops the alarm, if it runs.
func (l *alarm) stop() {
	if l.t != nil {
		l.t.Stop()
	}
	l.fired()
}

// fired forgets the alarm that has fired.
func (l *alarm) fired() { *l = alarm{} }

// on says whether the alarm runs.
func (l *alarm) on() bool { return l.t != nil }

// c is the alarm's channel (nil, which never fires, when it is off).
func (l *alarm) c() <-chan time.Time {
	if l.t == nil {
		return nil
	}
	return l.t.C
}

// expire applies what the table's rules publish for a timer that ran out:
// the betting window closes and the round is dealt; a window closes; a
// hand whose player did not decide stands (draws where it must, VE-06;
// counts an Ace 11 where one must be declared, AR-11), until the next
// player's turn.
func (a *Table) expire(ctx context.Context) {
	if a.unloaded != nil {
		a.rebuild(ctx)
		return
	}
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

func (a *Table) stopTimer() { a.timer.stop() }

func (a *Table) arm(k timerKind, d time.Duration) {
	now := a.s.now()
	a.timer.set(k, now.Add(d), now)
}

// armBetTimer opens the betting window's timer once a bet is down.
func (a *Table) armBetTimer() {
	if a.dealt || a.timer.kind == betTimer || len(a.t.Bets()) == 0 || a.t.Physical() {
		return // at a physical table the dealer closes the betting (no-more-bets)
	}
	a.arm(betTimer, a.s.timing().BetWindow)
	a.publish(wire.Event{Kind: wire.EvBetting, Deadline: a.timer.due.UnixMilli()})
}

func (a *Table) armDecisionTimer() {
	if a.walkInsOnly() {
		// A walk-in decides at the table, through the dealer:
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
func (a *Table) walkInsOnly() bool {
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
