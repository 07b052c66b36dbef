package care_test

import (
	"context"
	"strings"
	"testing"
	"time"

	"sabot"
	"sabot/internal/care"
	"sabot/money"
)

// A first limit applies at once, a lower one too; a raise or a removal
// waits for the cooling period, and asked again keeps its date; bad limits
// are refused with the reason; the reality check takes only its choices
// (moved here from the server's TestCareLimits).
func TestLimitRules(t *testing.T) { eachStore(t, testLimitRules) }

func testLimitRules(t *testing.T, f *fixture) {
	ana := f.user(sabot.User{Name: "ana"})

	v := must(f.setLimit(ana, "stake", "day", amt(1000)))
	if len(v.Limits) != 1 || v.Limits[0].Amount != 1000 || v.Limits[0].Pending != nil {
		t.Fatalf("a first limit applies at once: %+v", v.Limits)
	}
	if v.CoolingHours != care.DefaultCooling.Hours() || len(v.RealityChoices) != len(care.RealityChoices) || len(v.Exclusions) != 2 {
		t.Fatalf("the view's choices: %+v", v)
	}

	// A raise waits for the cooling period; asked again it keeps its date.
	v = must(f.setLimit(ana, "stake", "day", amt(5000)))
	l := v.Limits[0]
	if l.Amount != 1000 || l.Pending == nil || *l.Pending != 5000 || l.PendingFrom == nil || !near(*l.PendingFrom, f.now().Add(care.DefaultCooling)) {
		t.Fatalf("a raise: %+v", l)
	}
	from := *l.PendingFrom
	f.advance(time.Hour)
	if v = must(f.setLimit(ana, "stake", "day", amt(5000))); !v.Limits[0].PendingFrom.Equal(from) {
		t.Fatalf("the same raise asked again moved its date: %v, was %v", v.Limits[0].PendingFrom, from)
	}
	// Another raise starts the period again.
	if v = must(f.setLimit(ana, "stake", "day", amt(6000))); !near(*v.Limits[0].PendingFrom, f.now().Add(care.DefaultCooling)) || *v.Limits[0].Pending != 6000 {
		t.Fatalf("another raise: %+v", v.Limits[0])
	}
	f.advance(care.DefaultCooling)
	if v = must(f.setLimit(ana, "stake", "day", amt(2000))); v.Limits[0].Amount != 2000 || v.Limits[0].Pending != nil {
		t.Fatalf("a lower limit applies at once (the raise applied before it): %+v", v.Limits[0])
	}

	// A removal waits too, then the limit is gone.
	must(f.setLimit(ana, "loss", "week", amt(1500)))
	v = must(f.setLimit(ana, "loss", "week", nil))
	found := false
	for _, l := range v.Limits {
		if l.Kind == "loss" {
			found = true
			if !l.Removal || l.Amount != 1500 || l.Pending != nil {
				t.Fatalf("a removal: %+v", l)
			}
		}
	}
	if !found {
		t.Fatalf("a removal took the limit at once: %+v", v.Limits)
	}
	f.advance(care.DefaultCooling)
	var now care.View
	must(0, f.do("GET", "/api/me/care", ana, "", nil, &now))
	for _, l := range now.Limits {
		if l.Kind == "loss" {
			t.Fatalf("a removal past its cooling period: still %+v", l)
		}
	}
	// No limit, and none asked for: nothing.
	must(f.setLimit(ana, "deposit", "day", nil))
	if ls := must(f.st.(sabot.Care).Limits(context.Background(), ana.ID)); len(ls) != 2 {
		t.Fatalf("the store holds %+v", ls)
	}

	for _, bad := range []care.LimitRequest{
		{Kind: "fun", Period: "day", Amount: amt(1)},
		{Kind: "loss", Period: "year", Amount: amt(1)},
		{Kind: "loss", Period: "day", Amount: amt(-5)},
		{Kind: "loss", Period: "day", Amount: amt(money.Max + 1)},
	} {
		_, err := f.setLimit(ana, bad.Kind, bad.Period, bad.Amount)
		wantCode(t, err, sabot.EINVALID, "limit")
	}
	wantCode(t, f.do("POST", "/api/me/care/limits", ana, "", map[string]any{"kind": "loss", "period": "day", "amount": 1, "extra": 1}, nil), sabot.EINVALID, "bad JSON body")

	var rv care.View
	token := f.session(ana)
	wantCode(t, f.do("POST", "/api/me/care/reality", ana, token, map[string]int{"minutes": 7}, &rv), sabot.EINVALID, "reality check")
	must(0, f.do("POST", "/api/me/care/reality", ana, token, map[string]int{"minutes": 15}, &rv))
	if rv.RealityMinutes != 15 || rv.SessionStarted.IsZero() || rv.SessionNet != 0 {
		t.Fatalf("the reality check: %+v", rv)
	}
	if pc := must(f.st.(sabot.Care).CareOf(context.Background(), ana.ID)); pc.RealityMinutes != 15 {
		t.Fatalf("the store's reality check: %+v", pc)
	}
}

// near says whether a time the store kept is the time given (the store
// keeps less than nanoseconds).
func near(kept, t time.Time) bool { return kept.Sub(t).Abs() < time.Millisecond }

// The stake's guard, as the store runs it in the stake's transaction: the
// session must stand, no exclusion or block be in force, and no stake or
// loss limit be passed, the usage read including the stake itself; each
// refusal with its reason and values, exactly at the limit.
func TestStakeGuard(t *testing.T) { eachStore(t, testStakeGuard) }

func testStakeGuard(t *testing.T, f *fixture) {
	now := f.now()
	if f.care.StakeGuard("s", 7, 0) != nil || f.care.StakeGuard("s", 0, 100) != nil {
		t.Fatalf("a guard for nothing staked, or no player")
	}
	g := f.care.StakeGuard("tok", 7, 700)
	if g == nil || g.UserID != 7 || g.Session != "tok" {
		t.Fatalf("the guard: %+v", g)
	}
	limits := []sabot.Limit{
		{Kind: "stake", Period: "day", Amount: 1000, Pending: sabot.NoPending},
		{Kind: "loss", Period: "week", Amount: 5000, Pending: sabot.NoPending},
		{Kind: "deposit", Period: "day", Amount: 1, Pending: sabot.NoPending}, // not a stake's
	}
	// usage: before this stake, 500 staked and lost today, 500 + lost this week.
	elig := func(live bool, pc sabot.PlayerCare, stake money.Amount, lostWeek money.Amount) sabot.Eligibility {
		return sabot.Eligibility{SessionLive: live, Care: pc, Limits: limits, Usage: func(since time.Time) (sabot.Usage, error) {
			if now.Sub(since) > 24*time.Hour {
				return sabot.Usage{Staked: 500 + stake, Net: -lostWeek - stake}, nil
			}
			return sabot.Usage{Staked: 500 + stake, Net: -500 - stake}, nil
		}}
	}

	err := g.Check(elig(true, sabot.PlayerCare{}, 700, 500))
	p := wantReason(t, err, sabot.EFORBIDDEN, "stake_limit")
	if p["limit"] != int64(1000) || p["used"] != int64(500) || p["amount"] != int64(700) || p["period"] != "day" {
		t.Fatalf("the refusal's values: %v", p)
	}
	if !strings.Contains(err.Error(), "your stake limit is 10.00 a day; 5.00 staked so far, 7.00 more would pass it") {
		t.Fatalf("the refusal says %v", err)
	}
	if err := f.care.StakeGuard("tok", 7, 500).Check(elig(true, sabot.PlayerCare{}, 500, 500)); err != nil {
		t.Fatalf("a stake up to the limit: %v", err)
	}
	err = f.care.StakeGuard("tok", 7, 400).Check(elig(true, sabot.PlayerCare{}, 400, 4700))
	p = wantReason(t, err, sabot.EFORBIDDEN, "loss_limit")
	if p["used"] != int64(4700) || p["period"] != "week" || !strings.Contains(err.Error(), "your loss limit is 50.00 a week; 47.00 lost so far, a stake of 4.00 could pass it") {
		t.Fatalf("the loss limit's refusal: %v %v", err, p)
	}

	wantReason(t, g.Check(elig(false, sabot.PlayerCare{}, 1, 0)), sabot.EUNAUTHORIZED, "session_over")
	if g.Check(elig(false, sabot.PlayerCare{}, 1, 0)) != care.ErrSessionOver {
		t.Fatalf("a session over is not ErrSessionOver")
	}
	out := sabot.PlayerCare{Exclusion: "time-out", ExcludedFrom: now.Add(-time.Hour), ExcludedUntil: now.Add(time.Hour)}
	p = wantReason(t, g.Check(elig(true, out, 1, 0)), sabot.EFORBIDDEN, "excluded")
	if p["exclusion"] != "time-out" || p["until"] != now.Add(time.Hour).UTC().Format(time.RFC3339) {
		t.Fatalf("the exclusion's values: %v", p)
	}
	out.ExcludedUntil = now // over
	if err := f.care.StakeGuard("tok", 7, 1).Check(elig(true, out, 1, 0)); err != nil {
		t.Fatalf("an exclusion over still refuses: %v", err)
	}
	err = g.Check(elig(true, sabot.PlayerCare{Blocked: "chip dumping"}, 1, 0))
	wantReason(t, err, sabot.EFORBIDDEN, "blocked")
	if strings.Contains(err.Error(), "chip dumping") {
		t.Fatalf("the refusal tells the pit's reason: %v", err)
	}

	// A raise past its cooling period has applied.
	limits[0] = sabot.Limit{Kind: "stake", Period: "day", Amount: 1000, Pending: 3000, PendingFrom: now}
	if err := f.care.StakeGuard("tok", 7, 700).Check(elig(true, sabot.PlayerCare{}, 700, 500)); err != nil {
		t.Fatalf("a raise applied: %v", err)
	}
	limits[0].PendingFrom = now.Add(time.Second)
	wantReason(t, f.care.StakeGuard("tok", 7, 700).Check(elig(true, sabot.PlayerCare{}, 700, 500)), sabot.EFORBIDDEN, "stake_limit")
}

// A credit past the player's deposit limit is refused before it is
// written and in its transaction (the guard, whose usage includes the
// credit); a credit up to the limit is taken.
func TestDepositLimit(t *testing.T) { eachStore(t, testDepositLimit) }

func testDepositLimit(t *testing.T, f *fixture) {
	ctx := context.Background()
	ana := f.user(sabot.User{Name: "ana"})
	if err := f.care.Deposit(ctx, ana.ID, 100000); err != nil {
		t.Fatalf("no limit: %v", err)
	}
	must(f.setLimit(ana, "deposit", "month", amt(1500)))
	p := wantReason(t, f.care.Deposit(ctx, ana.ID, 1600), sabot.EFORBIDDEN, "deposit_limit")
	if p["limit"] != int64(1500) || p["used"] != int64(0) || p["amount"] != int64(1600) || p["period"] != "month" {
		t.Fatalf("the refusal's values: %v", p)
	}
	if err := f.care.Deposit(ctx, ana.ID, 1500); err != nil {
		t.Fatalf("a credit up to the limit: %v", err)
	}

	g := f.care.DepositGuard(ana.ID, 600)
	if g == nil || g.UserID != ana.ID || g.Session != "" || f.care.DepositGuard(ana.ID, 0) != nil {
		t.Fatalf("the deposit's guard: %+v", g)
	}
	ls := must(f.st.(sabot.Care).Limits(ctx, ana.ID))
	credited := func(before money.Amount) sabot.Eligibility {
		return sabot.Eligibility{Limits: ls, Usage: func(time.Time) (sabot.Usage, error) {
			return sabot.Usage{Credited: before + 600, Staked: 99999}, nil // this credit included
		}}
	}
	if err := g.Check(credited(900)); err != nil {
		t.Fatalf("600 after 900 under 1500: %v", err)
	}
	p = wantReason(t, g.Check(credited(901)), sabot.EFORBIDDEN, "deposit_limit")
	if p["used"] != int64(901) || p["amount"] != int64(600) {
		t.Fatalf("the guard's refusal: %v", p)
	}
}

// The care view's stake_room is the least of what the stake and loss
// limits leave: exactly what the stake's guard takes.
func TestStakeRoom(t *testing.T) { eachStore(t, testStakeRoom) }

func testStakeRoom(t *testing.T, f *fixture) {
	ana := f.user(sabot.User{Name: "ana"})
	var v care.View
	must(0, f.do("GET", "/api/me/care", ana, "", nil, &v))
	if v.StakeRoom != nil {
		t.Fatalf("no limit: stake_room %v, want none", *v.StakeRoom)
	}
	must(f.setLimit(ana, "deposit", "day", amt(100))) // not a stake's
	if v = *must(f.setLimit(ana, "stake", "day", amt(5000))); v.StakeRoom == nil || *v.StakeRoom != 5000 {
		t.Fatalf("stake_room under a stake limit of 50.00: %v", v.StakeRoom)
	}
	if v = *must(f.setLimit(ana, "loss", "day", amt(2000))); v.StakeRoom == nil || *v.StakeRoom != 2000 {
		t.Fatalf("stake_room under a loss limit of 20.00: %v", v.StakeRoom)
	}
	ls := must(f.st.(sabot.Care).Limits(context.Background(), ana.ID))
	unused := sabot.Eligibility{SessionLive: true, Limits: ls, Usage: func(time.Time) (sabot.Usage, error) {
		return sabot.Usage{Staked: 2001, Net: -2001}, nil
	}}
	wantReason(t, f.care.StakeGuard("", ana.ID, 2001).Check(unused), sabot.EFORBIDDEN, "loss_limit")
	unused.Usage = func(time.Time) (sabot.Usage, error) { return sabot.Usage{Staked: 2000, Net: -2000}, nil }
	if err := f.care.StakeGuard("", ana.ID, 2000).Check(unused); err != nil {
		t.Fatalf("a stake of the room: %v", err)
	}
}
