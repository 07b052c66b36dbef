package actor

import (
	"context"
	"fmt"
	"path/filepath"
	"testing"
	"testing/synctest"
	"time"

	"sabot"
	"sabot/internal/store/sqlite"
	"sabot/internal/wire"
)

// The table's timers on a fake clock (testing/synctest): the whole table
// is in the bubble, its actor's loop, its timers and its SQLite store, so
// the test's time is the table's own. A time.Sleep in the bubble moves the
// fake clock on at once; synctest.Wait then waits until the actor has done
// all it does at that moment. Each deadline is checked on both sides: a
// millisecond before it nothing has run out, at it the default applies.

// timedTable is a test-mode table of the profile with these timers, its
// actor's loop running until the test ends; it must be called in a bubble.
func timedTable(t *testing.T, timing Timing, profile string, opts map[string]string) (*playedTable, context.Context) {
	t.Helper()
	ctx, cancel := context.WithCancel(context.Background())
	st := sqlite.NewDB(filepath.Join(t.TempDir(), "sabot.db") + "?_pragma=synchronous(OFF)")
	if err := st.Open(ctx); err != nil {
		t.Fatal(err)
	}
	p := &playedTable{st: st, s: &Host{Store: st, Metrics: NewMetrics(), Timing: timing}}
	p.open(t, &sabot.Table{Name: "timed", Profile: profile, Options: opts, TestMode: true})
	go p.a.run(ctx)
	t.Cleanup(func() {
		cancel()
		<-p.a.done
		st.Close()
	})
	return p, ctx
}

// send runs a command through the actor's loop, as a client's does.
func (p *playedTable) send(t *testing.T, ctx context.Context, u *sabot.User, op string, body wire.CommandRequest) {
	t.Helper()
	cmdNo++
	if r := p.a.Do(ctx, testCommand(t, op, u, u.Name, fmt.Sprint(cmdNo), body)); r.Err != nil {
		t.Fatalf("%s %s: %v", u.Name, op, r.Err)
	}
}

// look is the table's view, read through its loop.
func (p *playedTable) look(t *testing.T, ctx context.Context) *wire.TableView {
	t.Helper()
	r := p.a.do(ctx, &Command{inside: viewTable, reads: true})
	if r.err != nil {
		t.Fatal(r.err)
	}
	return r.view
}

// after lets d pass on the bubble's clock and waits until the table has
// done what it does then.
func after(d time.Duration) {
	time.Sleep(d)
	synctest.Wait()
}

// phase is the round's phase, "" before the first deal.
func phase(v *wire.TableView) string {
	if v.Round == nil {
		return ""
	}
	return v.Round.Phase
}

// The betting window, kept open to its end (KeepBetWindow), deals when it
// runs out, BetWindow after the first bet and not a moment before; then the
// player in turn who does not decide stands when his Decision runs out
// (the default the table publishes, GLI-19 §4.16.3), and the round settles.
func TestBetWindowAndDecisionRunOutOnTheirClock(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		timing := Timing{BetWindow: 15 * time.Second, Decision: 30 * time.Second, Window: 10 * time.Second, KeepBetWindow: true}
		p, ctx := timedTable(t, timing, "vegas-s17", map[string]string{"min_bet": "100", "max_bet": "100000"})
		eve := p.player(t, "eve")
		p.send(t, ctx, eve, wire.OpSit, wire.CommandRequest{Box: 1})
		// eve TS 8H = 18; the dealer 9D 7C = 16, draws 5S: 21.
		p.send(t, ctx, stepsPit, wire.OpForceCards, wire.CommandRequest{Cards: "TS 9D 8H 7C 5S"})
		p.send(t, ctx, eve, wire.OpBet, wire.CommandRequest{Box: 1, Stake: 500})
		bet := time.Now()
		v := p.look(t, ctx)
		if want := bet.Add(timing.BetWindow).UnixMilli(); v.BettingDeadline != want {
			t.Fatalf("the betting deadline %d, want %d (the first bet and BetWindow)", v.BettingDeadline, want)
		}

		after(timing.BetWindow - time.Millisecond)
		if v := p.look(t, ctx); phase(v) != "" || v.BettingDeadline == 0 {
			t.Fatalf("a millisecond before the betting window ends: round %q, deadline %d", phase(v), v.BettingDeadline)
		}
		after(time.Millisecond)
		v = p.look(t, ctx)
		if v.Round == nil || v.Round.No != 1 || v.Turn == nil || v.Turn.Box != 1 {
			t.Fatalf("the betting window ran out: round %+v, turn %+v; want round 1 dealt, box 1 in turn", v.Round, v.Turn)
		}
		if want := time.Now().Add(timing.Decision).UnixMilli(); v.Turn.Deadline != want || v.Turn.Default != "stand" {
			t.Fatalf("eve's turn: deadline %d (want %d), default %q (want stand)", v.Turn.Deadline, want, v.Turn.Default)
		}

		after(timing.Decision - time.Millisecond)
		if v := p.look(t, ctx); v.Turn == nil || v.Turn.Box != 1 || phase(v) == "done" {
			t.Fatalf("a millisecond before eve's decision runs out: phase %q, turn %+v", phase(v), v.Turn)
		}
		after(time.Millisecond)
		v = p.look(t, ctx)
		if phase(v) != "done" || v.Turn != nil {
			t.Fatalf("eve's decision ran out: phase %q, turn %+v; want the round settled", phase(v), v.Turn)
		}
		if h := v.Round.Hands; len(h) != 1 || len(h[0].Cards) != 2 || v.Round.Dealer.Total != 21 || h[0].Result != "lose" {
			t.Fatalf("eve stood on her two cards against the dealer's 21: hands %+v, dealer %+v", h, v.Round.Dealer)
		}
	})
}

// An optional window (insurance, the dealer showing an Ace) closes when its
// Window runs out, and not before: nobody insured, the dealer's hole card
// is no ten, and the player's turn begins with a Decision of its own.
func TestOptionalWindowClosesOnItsClock(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		timing := Timing{BetWindow: 15 * time.Second, Decision: 30 * time.Second, Window: 10 * time.Second}
		p, ctx := timedTable(t, timing, "vegas-s17", map[string]string{"min_bet": "100", "max_bet": "100000"})
		eve := p.player(t, "eve")
		p.send(t, ctx, eve, wire.OpSit, wire.CommandRequest{Box: 1})
		// eve TS 8H = 18; the dealer AD 7C = 18.
		p.send(t, ctx, stepsPit, wire.OpForceCards, wire.CommandRequest{Cards: "TS AD 8H 7C"})
		p.send(t, ctx, eve, wire.OpBet, wire.CommandRequest{Box: 1, Stake: 500}) // every seated box bet: the deal
		synctest.Wait()
		v := p.look(t, ctx)
		if v.Turn == nil || v.Turn.Phase == "playing" || v.Turn.Deadline != time.Now().Add(timing.Window).UnixMilli() {
			t.Fatalf("the dealer shows an Ace: turn %+v, phase %q; want the insurance window, Window long", v.Turn, phase(v))
		}
		window := v.Turn.Phase

		after(timing.Window - time.Millisecond)
		if v := p.look(t, ctx); v.Turn == nil || v.Turn.Phase != window {
			t.Fatalf("a millisecond before the window closes: turn %+v", v.Turn)
		}
		after(time.Millisecond)
		v = p.look(t, ctx)
		if v.Turn == nil || v.Turn.Phase == window || v.Turn.Box != 1 {
			t.Fatalf("the window ran out: turn %+v; want eve's decision", v.Turn)
		}
		if want := time.Now().Add(timing.Decision).UnixMilli(); v.Turn.Deadline != want {
			t.Fatalf("eve's turn after the window: deadline %d, want %d", v.Turn.Deadline, want)
		}
	})
}
