package storetest

import (
	"context"
	"testing"
	"time"

	"sabot"
)

// Responsible gaming on the built-in wallets (sabot.Care, issue 15).

func care(t *testing.T, s sabot.Store) sabot.Care {
	t.Helper()
	c, ok := s.(sabot.Care)
	if !ok {
		t.Fatalf("%T is not a sabot.Care", s)
	}
	return c
}

// Limits are kept as given, one per kind and period; a player's care has
// its defaults until set; his sessions end together.
func testCareSettings(t *testing.T, s sabot.Store) {
	ctx := context.Background()
	c := care(t, s)
	u := &sabot.User{Name: "ana", PasswordHash: []byte("x")}
	must(t, s.CreateUser(ctx, u))
	ls, err := c.Limits(ctx, u.ID)
	must(t, err)
	if len(ls) != 0 {
		t.Fatalf("limits of a new player: %+v", ls)
	}
	day := sabot.Limit{Kind: "loss", Period: "day", Amount: 5000, Pending: sabot.NoPending}
	must(t, c.PutLimit(ctx, u.ID, day))
	from := Now().Add(24 * time.Hour)
	must(t, c.PutLimit(ctx, u.ID, sabot.Limit{Kind: "stake", Period: "week", Amount: 100, Pending: 900, PendingFrom: from}))
	must(t, c.PutLimit(ctx, u.ID, sabot.Limit{Kind: "loss", Period: "day", Amount: 4000, Pending: sabot.RemovalPending, PendingFrom: from}))
	ls, err = c.Limits(ctx, u.ID)
	must(t, err)
	if len(ls) != 2 || ls[0].Kind != "loss" || ls[0].Amount != 4000 || ls[0].Pending != sabot.RemovalPending || !ls[0].PendingFrom.Equal(from) ||
		ls[1].Kind != "stake" || ls[1].Period != "week" || ls[1].Pending != 900 || ls[0].SetAt.IsZero() {
		t.Fatalf("limits: %+v", ls)
	}
	must(t, c.DeleteLimit(ctx, u.ID, "loss", "day"))
	if ls, _ = c.Limits(ctx, u.ID); len(ls) != 1 {
		t.Fatalf("after a delete: %+v", ls)
	}

	pc, err := c.CareOf(ctx, u.ID)
	must(t, err)
	if pc.RealityMinutes != 60 || pc.Exclusion != "" || !pc.ExcludedUntil.IsZero() {
		t.Fatalf("a new player's care: %+v", pc)
	}
	want := sabot.PlayerCare{RealityMinutes: 20, Exclusion: "self-exclusion", ExcludedFrom: Now(), ExcludedUntil: Now().AddDate(0, 6, 0)}
	must(t, c.PutCare(ctx, u.ID, want))
	pc, err = c.CareOf(ctx, u.ID)
	must(t, err)
	if pc.RealityMinutes != 20 || pc.Exclusion != "self-exclusion" || !pc.ExcludedFrom.Equal(want.ExcludedFrom) || !pc.ExcludedUntil.Equal(want.ExcludedUntil) {
		t.Fatalf("care: %+v, want %+v", pc, want)
	}

	for _, tok := range []string{"t1", "t2"} {
		must(t, s.CreateSession(ctx, &sabot.Session{Token: tok, UserID: u.ID}))
	}
	n, err := c.EndSessions(ctx, u.ID)
	must(t, err)
	if n != 2 {
		t.Fatalf("%d sessions ended, want 2", n)
	}
	_, err = s.SessionByToken(ctx, "t1")
	code(t, err, sabot.ENOTFOUND)
}

// Usage reads the wallet: credits (the pit's, appended on the event log;
// a plain transfer) are deposits; at a table of play a stake is staked, a
// stake withdrawn is not, a settlement is won back; over the period only.
func testCareUsage(t *testing.T, s sabot.Store) {
	ctx := context.Background()
	c := care(t, s)
	u := &sabot.User{Name: "ana", PasswordHash: []byte("x")}
	must(t, s.CreateUser(ctx, u))
	wallet := account(t, s, sabot.AccountWallet, u.ID)
	house := account(t, s, sabot.AccountHouse, 0)
	events := &sabot.Table{Name: "significant events"}
	must(t, s.CreateTable(ctx, events))
	play := &sabot.Table{Name: "Venezia", Profile: "venice"}
	must(t, s.CreateTable(ctx, play))
	tbl := account(t, s, sabot.AccountTable, play.ID)
	post := func(table int64, ps ...sabot.Posting) {
		t.Helper()
		_, err := s.Append(ctx, &sabot.LogRecord{TableID: table, Kind: sabot.LogAdmin}, ps)
		must(t, err)
	}
	credit(t, s, wallet, 300)
	post(events.ID, sabot.Posting{AccountID: wallet, Amount: 1000, Memo: "credit"}, sabot.Posting{AccountID: house, Amount: -1000, Memo: "credit"})
	post(play.ID, sabot.Posting{AccountID: wallet, Amount: -500, Memo: "bet"}, sabot.Posting{AccountID: tbl, Amount: 500, Memo: "bet"})
	post(play.ID, sabot.Posting{AccountID: wallet, Amount: 200, Memo: "bet withdrawn"}, sabot.Posting{AccountID: tbl, Amount: -200, Memo: "bet withdrawn"})
	post(play.ID, sabot.Posting{AccountID: wallet, Amount: -100, Memo: "double"}, sabot.Posting{AccountID: tbl, Amount: 100, Memo: "double"})
	post(play.ID, sabot.Posting{AccountID: wallet, Amount: 800, Memo: "round 1"}, sabot.Posting{AccountID: tbl, Amount: -400, Memo: "round 1"}, sabot.Posting{AccountID: house, Amount: -400, Memo: "round 1"})
	got, err := c.Usage(ctx, u.ID, Now().Add(-time.Hour))
	must(t, err)
	if want := (sabot.Usage{Credited: 1300, Staked: 400, Net: 400}); got != want {
		t.Fatalf("usage %+v, want %+v", got, want)
	}
	if got, _ := c.Usage(ctx, u.ID, Now().Add(time.Second)); got != (sabot.Usage{}) {
		t.Fatalf("usage after the entries: %+v", got)
	}
	if got, _ := c.Usage(ctx, u.ID+1, Now().Add(-time.Hour)); got != (sabot.Usage{}) {
		t.Fatalf("another player's usage: %+v", got)
	}
}
