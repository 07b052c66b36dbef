package care_test

import (
	"context"
	"reflect"
	"slices"
	"strings"
	"testing"
	"time"

	"sabot"
	"sabot/internal/care"
	"sabot/internal/wire"
)

// A time-out is recorded, ends the player's sessions, bars him from the
// tables on every node, refuses him until it ends with its end, cannot be
// shortened, and is a significant event for the pit; a bad one is refused
// with the reason and changes nothing (moved here from the server's
// TestCareExclusion, which keeps what the tables do).
func TestExclusion(t *testing.T) { eachStore(t, testExclusion) }

func testExclusion(t *testing.T, f *fixture) {
	ctx := context.Background()
	ben := f.user(sabot.User{Name: "ben"})
	f.session(ben)

	var bad sabot.PlayerCare
	wantCode(t, f.do("POST", "/api/me/care/exclusion", ben, "", care.ExclusionRequest{Kind: "time-out", Days: 2}, &bad), sabot.EINVALID, "lasts")
	wantCode(t, f.do("POST", "/api/me/care/exclusion", ben, "", care.ExclusionRequest{Kind: "holiday", Days: 1}, &bad), sabot.EINVALID, "time-out or a self-exclusion")
	if evs, _ := f.takeEvents(); len(evs) != 0 || len(f.tables.barredOnes()) != 0 {
		t.Fatalf("a refused exclusion: events %+v, barred %v", evs, f.tables.barredOnes())
	}
	if err := f.care.Excluded(ctx, ben.ID); err != nil {
		t.Fatalf("before his time-out: %v", err)
	}

	var pc sabot.PlayerCare
	must(0, f.do("POST", "/api/me/care/exclusion", ben, "", care.ExclusionRequest{Kind: "time-out", Days: 7}, &pc))
	until := f.now().AddDate(0, 0, 7)
	if pc.Exclusion != "time-out" || pc.ExcludedUntil.Sub(pc.ExcludedFrom) != 7*24*time.Hour || !pc.ExcludedUntil.Equal(until) {
		t.Fatalf("the exclusion: %+v", pc)
	}
	if n := must(f.st.(sabot.Care).LiveSessions(ctx, ben.ID, time.Time{})); n != 0 {
		t.Fatalf("%d sessions of ben's after his time-out", n)
	}
	if b := f.tables.barredOnes(); !slices.Equal(b, []int64{ben.ID}) {
		t.Fatalf("barred from the tables: %v, want ben (%d)", b, ben.ID)
	}
	evs, by := f.takeEvents()
	stamp := until.UTC().Format(time.RFC3339)
	want := wire.AdminEvent{Event: "time-out", User: "ben", Days: 7, Until: stamp, Text: "ben chose a time-out of 7 days, until " + stamp}
	if len(evs) != 1 || !reflect.DeepEqual(evs[0], want) || by[0] != "" {
		t.Fatalf("the event: %+v by %q, want %+v", evs, by, want)
	}

	err := f.care.Excluded(ctx, ben.ID)
	p := wantReason(t, err, sabot.EFORBIDDEN, "excluded")
	if p["exclusion"] != "time-out" || p["until"] != stamp || sabot.ErrorMessage(err) != "refused: a time-out is in force until "+stamp+": no play until then" {
		t.Fatalf("the refusal: %v %v", err, p)
	}
	// Never shortened: a day is refused; a longer one replaces it.
	wantCode(t, f.do("POST", "/api/me/care/exclusion", ben, "", care.ExclusionRequest{Kind: "time-out", Days: 1}, &bad), sabot.ECONFLICT, "never shortened")
	must(0, f.do("POST", "/api/me/care/exclusion", ben, "", care.ExclusionRequest{Kind: "self-exclusion", Days: 180}, &pc))
	if pc.Exclusion != "self-exclusion" || !pc.ExcludedUntil.Equal(f.now().AddDate(0, 0, 180)) {
		t.Fatalf("the longer exclusion: %+v", pc)
	}
	f.advance(181 * 24 * time.Hour)
	if err := f.care.Excluded(ctx, ben.ID); err != nil {
		t.Fatalf("after his self-exclusion: %v", err)
	}
}

// An operator's player sets his limits and exclusions on the operator's
// site: refused here with the reason; an exclusion on
// record for him still refuses him.
func TestOperatorPlayerCare(t *testing.T) { eachStore(t, testOperatorPlayerCare) }

func testOperatorPlayerCare(t *testing.T, f *fixture) {
	ctx := context.Background()
	ana := f.user(sabot.User{Name: "@ana", OperatorID: "ana"})
	var pc sabot.PlayerCare
	wantReason(t, f.do("POST", "/api/me/care/exclusion", ana, "", care.ExclusionRequest{Kind: "time-out", Days: 1}, &pc), sabot.EFORBIDDEN, "operator_care")
	_, err := f.setLimit(ana, "stake", "day", amt(100))
	wantReason(t, err, sabot.EFORBIDDEN, "operator_care")
	wantReason(t, f.do("POST", "/api/me/care/reality", ana, "", map[string]int{"minutes": 15}, nil), sabot.EFORBIDDEN, "operator_care")
	wantReason(t, f.do("GET", "/api/me/care", ana, "", nil, nil), sabot.EFORBIDDEN, "operator_care")

	now := f.now()
	must(0, f.st.(sabot.Care).PutCare(ctx, ana.ID, sabot.PlayerCare{RealityMinutes: 60, Exclusion: "time-out", ExcludedFrom: now, ExcludedUntil: now.Add(24 * time.Hour)}))
	wantReason(t, f.care.Excluded(ctx, ana.ID), sabot.EFORBIDDEN, "excluded")
}

// The pit's block: it needs a reason
// of one line, is for players only, ends the player's sessions and bars
// him, refuses him without telling the pit's reason, and names the pit in
// its event; a repeat writes nothing; lifted, he may play again.
func TestPitBlock(t *testing.T) { eachStore(t, testPitBlock) }

func testPitBlock(t *testing.T, f *fixture) {
	ctx := context.Background()
	pit := f.user(sabot.User{Name: "pit", Admin: true})
	f.user(sabot.User{Name: "dora", Role: sabot.RoleDealer})
	ben := f.user(sabot.User{Name: "ben"})
	f.session(ben)

	var v care.BlockView
	block := func(name, reason string) error {
		return f.do("POST", "/api/admin/players/"+name+"/block", pit, "", care.BlockRequest{Reason: reason}, &v)
	}
	wantCode(t, block("ben", " "), sabot.EINVALID, "need a reason")
	wantCode(t, block("ben", "two\nlines"), sabot.EINVALID, "one line")
	wantCode(t, block("ben", strings.Repeat("x", care.MaxBlockReason+1)), sabot.EINVALID, "one line")
	wantCode(t, block("pit", "staff"), sabot.EINVALID, "staff, not a player")
	wantCode(t, block("dora", "staff"), sabot.EINVALID, "staff, not a player")
	wantCode(t, block("nobody", "who"), sabot.ENOTFOUND, "")
	if evs, _ := f.takeEvents(); len(evs) != 0 {
		t.Fatalf("refused blocks wrote events: %+v", evs)
	}

	must(0, block("ben", " chip dumping with cy "))
	if !v.Blocked || v.Player != "ben" || v.Reason != "chip dumping with cy" || v.At != f.now().UTC().Format(time.RFC3339) {
		t.Fatalf("the block's answer: %+v", v)
	}
	if n := must(f.st.(sabot.Care).LiveSessions(ctx, ben.ID, time.Time{})); n != 0 {
		t.Fatalf("%d sessions of ben's after his block", n)
	}
	if b := f.tables.barredOnes(); !slices.Equal(b, []int64{ben.ID}) {
		t.Fatalf("barred: %v", b)
	}
	err := f.care.Excluded(ctx, ben.ID)
	if m := wantReason(t, err, sabot.EFORBIDDEN, "blocked"); m != nil || strings.Contains(err.Error(), "chip dumping") {
		t.Fatalf("the refusal tells the pit's reason: %v %v", err, m)
	}
	v = care.BlockView{}
	must(0, block("ben", "again")) // a repeat
	if v.Reason != "chip dumping with cy" {
		t.Fatalf("a repeat changed the block: %+v", v)
	}
	must(0, f.do("POST", "/api/admin/players/ben/unblock", pit, "", care.BlockRequest{Reason: "cleared by security"}, &v))
	v = care.BlockView{}
	must(0, f.do("POST", "/api/admin/players/ben/unblock", pit, "", care.BlockRequest{Reason: "a repeat"}, &v))
	if v.Blocked || v.Reason != "" || v.At != "" {
		t.Fatalf("lifted: %+v", v)
	}
	if err := f.care.Excluded(ctx, ben.ID); err != nil {
		t.Fatalf("after the block was lifted: %v", err)
	}
	if b := f.tables.barredOnes(); len(b) != 1 {
		t.Fatalf("the repeat or the lifting barred him again: %v", b)
	}
	evs, by := f.takeEvents()
	want := []wire.AdminEvent{
		{Event: "player-blocked", User: "ben", By: "pit", Memo: "chip dumping with cy", Text: "ben blocked by pit: chip dumping with cy"},
		{Event: "player-unblocked", User: "ben", By: "pit", Memo: "cleared by security", Text: "ben's block lifted by pit: cleared by security"},
	}
	if !reflect.DeepEqual(evs, want) || !slices.Equal(by, []string{"pit", "pit"}) {
		t.Fatalf("the block's events: %+v by %q", evs, by)
	}
}

// A store that keeps no care: no check is made, and the endpoints say why
// they refuse.
func TestNoCareStore(t *testing.T) { eachStore(t, testNoCareStore) }

func testNoCareStore(t *testing.T, f *fixture) {
	ctx := context.Background()
	c := care.New(care.Config{Users: f.st, Tables: f.tables, HTTP: f.http})
	if c.StakeGuard("tok", 1, 100) != nil || c.DepositGuard(1, 100) != nil {
		t.Fatalf("guards without a care store")
	}
	if err := c.Deposit(ctx, 1, 100); err != nil {
		t.Fatalf("a deposit without a care store: %v", err)
	}
	if err := c.Excluded(ctx, 1); err != nil {
		t.Fatalf("an exclusion without a care store: %v", err)
	}
	if c.Sighted(ctx, nil, nil, &sabot.User{ID: 1, Name: "ana"}, "127.0.0.1", "logged in") {
		t.Fatalf("sighted without a care store")
	}
	f.care = c
	f.srv.Config.Handler = f.mux()
	ana := f.user(sabot.User{Name: "ana"})
	pit := f.user(sabot.User{Name: "pit", Admin: true})
	wantCode(t, f.do("GET", "/api/me/care", ana, "", nil, nil), sabot.ENOTFOUND, "responsible-gaming tools")
	wantCode(t, f.do("POST", "/api/admin/players/ana/block", pit, "", care.BlockRequest{Reason: "x"}, nil), sabot.EINVALID, "no block")
}
