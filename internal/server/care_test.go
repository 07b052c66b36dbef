package server_test

import (
	"context"
	"path/filepath"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"sabot"
	"sabot/internal/actor"
	"sabot/internal/care"
	"sabot/internal/client"
	"sabot/internal/recall"
	"sabot/internal/server"
	"sabot/internal/wire"
	"sabot/money"
)

// careHarness is a server whose clock the test moves.
func careHarness(t *testing.T) (*harness, *atomic.Int64) {
	var clock atomic.Int64
	clock.Store(time.Now().UnixNano())
	h := &harness{t: t, st: openStore(t, filepath.Join(t.TempDir(), "sabot.db")), set: func(s *server.Server) {
		s.Now = func() time.Time { return time.Unix(0, clock.Load()) }
	}}
	h.start(actor.Timing{BetWindow: time.Minute, Decision: time.Minute, Window: time.Minute, SessionIdle: 1000 * time.Hour, SeatIdle: 1000 * time.Hour})
	return h, &clock
}

func setLimit(t *testing.T, c *client.Client, kind, period string, amount *money.Amount) (*care.View, error) {
	t.Helper()
	var v care.View
	err := c.Do(context.Background(), "POST", "/api/me/care/limits", care.LimitRequest{Kind: kind, Period: period, Amount: amount}, &v)
	return &v, err
}

func amt(n money.Amount) *money.Amount { return &n }

func wantReason(t *testing.T, err error, code, reason string) map[string]any {
	t.Helper()
	r, params := sabot.ReasonOf(err)
	if sabot.ErrorCode(err) != code || r != reason {
		t.Fatalf("got %v (reason %q), want %s %s", err, r, code, reason)
	}
	return params
}

// Stake and loss limits refuse the stake that would
// pass them, with nothing changed; a raise applies after the cooling
// period; a deposit limit refuses the pit's credit; a bad limit is refused
// with the reason (the rules of a change of limit are internal/care's
// TestLimitRules; here, the table's stakes and the pit's credits).
func TestCareLimits(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	h, clock := careHarness(t)
	tb := h.table("vegas-s17", false, nil)
	ana, cy := h.player("ana", 100000), h.player("cy", 100000)
	must(ana.Command(ctx, tb, "sit", wire.CommandRequest{Box: 1}))
	must(cy.Command(ctx, tb, "sit", wire.CommandRequest{Box: 3})) // seated, no bet yet: the window stays open

	v := must(setLimit(t, ana, "stake", "day", amt(1000)))
	if len(v.Limits) != 1 || v.Limits[0].Amount != 1000 || v.Limits[0].Pending != nil {
		t.Fatalf("a first limit applies at once: %+v", v.Limits)
	}
	must(ana.Command(ctx, tb, "bet", wire.CommandRequest{Box: 1, Stake: 500}))
	_, err := ana.Command(ctx, tb, "bet", wire.CommandRequest{Box: 1, Stake: 1200})
	p := wantReason(t, err, sabot.EFORBIDDEN, "stake_limit")
	if p["limit"] != float64(1000) || p["used"] != float64(500) || p["amount"] != float64(700) || p["period"] != "day" {
		t.Fatalf("the refusal's values: %v", p)
	}
	if !strings.Contains(err.Error(), "your stake limit is 10.00 a day; 5.00 staked so far, 7.00 more would pass it") {
		t.Fatalf("the refusal says %v", err)
	}
	if tv := must(ana.Table(ctx, tb)); len(tv.Bets) != 1 || tv.Bets[0].Stake != 500 {
		t.Fatalf("a refused bet changed the table: %+v", tv.Bets)
	}
	if me := must(ana.Me(ctx)); me.Wallet != 100000-500 {
		t.Fatalf("a refused bet changed the wallet: %d", me.Wallet)
	}

	// A raise waits for the cooling period (internal/care's
	// TestLimitRules holds the rules of a change; here, the stakes).
	v = must(setLimit(t, ana, "stake", "day", amt(5000)))
	if l := v.Limits[0]; l.Amount != 1000 || l.Pending == nil || *l.Pending != 5000 || l.PendingFrom == nil {
		t.Fatalf("a raise: %+v", l)
	}
	clock.Add(int64(time.Hour))
	_, err = ana.Command(ctx, tb, "bet", wire.CommandRequest{Box: 1, Stake: 1200})
	wantReason(t, err, sabot.EFORBIDDEN, "stake_limit")
	clock.Add(int64(24 * time.Hour))
	must(ana.Command(ctx, tb, "bet", wire.CommandRequest{Box: 1, Stake: 1200})) // raised; and yesterday's stakes are out of the day

	// A loss limit: the stakes down count as lost until settled.
	must(setLimit(t, ana, "loss", "week", amt(1500)))
	_, err = ana.Command(ctx, tb, "bet", wire.CommandRequest{Box: 1, Stake: 1600})
	wantReason(t, err, sabot.EFORBIDDEN, "loss_limit")

	// The pit's credit past a deposit limit.
	must(setLimit(t, ana, "deposit", "month", amt(150000)))
	err = h.admin.Credit(ctx, "ana", 60000)
	wantReason(t, err, sabot.EFORBIDDEN, "deposit_limit")
	must(0, h.admin.Credit(ctx, "ana", 50000))

	_, err = setLimit(t, ana, "loss", "day", amt(money.Max+1))
	wantCode(t, err, sabot.EINVALID, "limit")
	var rv care.View
	wantCode(t, ana.Do(ctx, "POST", "/api/me/care/reality", map[string]int{"minutes": 7}, &rv), sabot.EINVALID, "reality check")
	must(0, ana.Do(ctx, "POST", "/api/me/care/reality", map[string]int{"minutes": 15}, &rv))
	if rv.RealityMinutes != 15 || rv.SessionStarted.IsZero() {
		t.Fatalf("the reality check: %+v", rv)
	}
}

// A time-out takes the player off the table (his bet returned), ends his
// sessions, refuses his login with its end, cannot be shortened, and is a
// significant event for the pit.
func TestCareExclusion(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	h, _ := careHarness(t)
	tb := h.table("vegas-s17", false, nil)
	ben, cy := h.player("ben", 100000), h.player("cy", 100000)
	must(ben.Command(ctx, tb, "sit", wire.CommandRequest{Box: 2}))
	must(cy.Command(ctx, tb, "sit", wire.CommandRequest{Box: 3})) // seated, no bet yet: the window stays open
	must(ben.Command(ctx, tb, "bet", wire.CommandRequest{Box: 2, Stake: 700}))

	var bad sabot.PlayerCare
	wantCode(t, ben.Do(ctx, "POST", "/api/me/care/exclusion", care.ExclusionRequest{Kind: "time-out", Days: 2}, &bad), sabot.EINVALID, "lasts")
	wantCode(t, ben.Do(ctx, "POST", "/api/me/care/exclusion", care.ExclusionRequest{Kind: "holiday", Days: 1}, &bad), sabot.EINVALID, "time-out or a self-exclusion")
	var pc sabot.PlayerCare
	must(0, ben.Do(ctx, "POST", "/api/me/care/exclusion", care.ExclusionRequest{Kind: "time-out", Days: 7}, &pc))
	if pc.Exclusion != "time-out" || pc.ExcludedUntil.Sub(pc.ExcludedFrom) != 7*24*time.Hour {
		t.Fatalf("the exclusion: %+v", pc)
	}
	tv := must(h.admin.Table(ctx, tb))
	if len(tv.Seats) != 1 || len(tv.Bets) != 0 {
		t.Fatalf("ben still at the table: %+v %+v", tv.Seats, tv.Bets)
	}
	if _, err := ben.Me(ctx); sabot.ErrorCode(err) != sabot.EUNAUTHORIZED {
		t.Fatalf("ben's session after his time-out: %v", err)
	}
	_, err := ben.Login(ctx, "ben", password)
	p := wantReason(t, err, sabot.EFORBIDDEN, "excluded")
	if p["exclusion"] != "time-out" || !strings.HasPrefix(err.Error(), "sabot error: code=forbidden message=refused: a time-out is in force until ") {
		t.Fatalf("the login's refusal: %v %v", err, p)
	}
	u := must(h.st.UserByName(ctx, "ben"))
	if w := must(h.st.Account(ctx, sabot.AccountWallet, u.ID)).Balance; w != 100000 {
		t.Fatalf("ben's wallet %d: his bet was not returned", w)
	}
	evs := must(recall.Events(ctx, h.st, recall.EventQuery{Limit: 50}))
	found := false
	for _, e := range evs {
		found = found || strings.Contains(e.Summary+string(e.Payload), "ben chose a time-out of 7 days")
	}
	if !found {
		t.Fatalf("no significant event of ben's time-out: %+v", evs)
	}
}

// The care view tells the page the most a stake may take
// now (stake_room) — the least of what the stake and loss limits leave —
// and it is exactly where the stake's check refuses: a stake of the room
// is taken, one unit more refused.
func TestCareStakeRoom(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	h, _ := careHarness(t)
	tb := h.table("vegas-s17", false, nil)
	ana, cy := h.player("ana", 100000), h.player("cy", 100000)
	must(ana.Command(ctx, tb, "sit", wire.CommandRequest{Box: 1}))
	must(ana.Command(ctx, tb, "sit", wire.CommandRequest{Box: 2}))
	must(cy.Command(ctx, tb, "sit", wire.CommandRequest{Box: 3})) // seated, no bet yet: the window stays open

	var v care.View
	if err := ana.Do(ctx, "GET", "/api/me/care", nil, &v); err != nil || v.StakeRoom != nil {
		t.Fatalf("no limit: stake_room %v (%v), want none", v.StakeRoom, err)
	}
	must(setLimit(t, ana, "stake", "day", amt(5000)))
	must(setLimit(t, ana, "loss", "day", amt(2000)))
	must(setLimit(t, ana, "deposit", "day", amt(100))) // not a stake's
	must(ana.Command(ctx, tb, "bet", wire.CommandRequest{Box: 1, Stake: 1200}))
	if err := ana.Do(ctx, "GET", "/api/me/care", nil, &v); err != nil || v.StakeRoom == nil || *v.StakeRoom != 800 {
		t.Fatalf("stake_room %v (%v), want 800: the loss limit's 20.00 less 12.00 down", v.StakeRoom, err)
	}
	_, err := ana.Command(ctx, tb, "bet", wire.CommandRequest{Box: 2, Stake: 801})
	wantReason(t, err, sabot.EFORBIDDEN, "loss_limit")
	must(ana.Command(ctx, tb, "bet", wire.CommandRequest{Box: 2, Stake: 800}))
	if err := ana.Do(ctx, "GET", "/api/me/care", nil, &v); err != nil || v.StakeRoom == nil || *v.StakeRoom != 0 {
		t.Fatalf("stake_room %v (%v), want 0", v.StakeRoom, err)
	}
}
