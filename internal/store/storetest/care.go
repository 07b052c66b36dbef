package storetest

import (
	"context"
	"crypto/sha256"
	"fmt"
	"sync"
	"testing"
	"time"

	"sabot"
)

// Responsible gaming on the built-in wallets (sabot.Care).

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

	// The pit's block: written apart, so that the player's own care
	// written after it (read before it: a reality check changed as the pit
	// blocks) leaves it; lifted by an empty reason.
	must(t, c.SetBlock(ctx, u.ID, "collusion at table 3", Now()))
	must(t, c.PutCare(ctx, u.ID, *pc))
	pc, err = c.CareOf(ctx, u.ID)
	must(t, err)
	if pc.Blocked != "collusion at table 3" || !pc.BlockedAt.Equal(Now()) || pc.Exclusion != "self-exclusion" {
		t.Fatalf("blocked, then the player's care written: %+v", pc)
	}
	bob := &sabot.User{Name: "bob", PasswordHash: []byte("x")}
	must(t, s.CreateUser(ctx, bob))
	must(t, c.SetBlock(ctx, bob.ID, "a new player blocked", Now())) // no care row yet
	if b, _ := c.CareOf(ctx, bob.ID); b.Blocked == "" || b.RealityMinutes != 60 {
		t.Fatalf("a player blocked before any care of his: %+v", b)
	}
	must(t, c.SetBlock(ctx, u.ID, "", Now()))
	if pc, _ = c.CareOf(ctx, u.ID); pc.Blocked != "" || !pc.BlockedAt.IsZero() || pc.RealityMinutes != 20 {
		t.Fatalf("the block lifted: %+v", pc)
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
		_, err := s.Append(ctx, &sabot.LogAppend{LogRecord: &sabot.LogRecord{TableID: table, Kind: sabot.LogAdmin}}, ps)
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

// A stake's guard (sabot.StakeGuard) reads the player's
// eligibility in the stake's transaction — his session, his exclusion, his
// limits, his usage with the stake included — and its refusal refuses the
// append, which changes nothing. Stakes of one player at eight tables at
// once are checked one after the other: under a limit of 1,000 one stake of
// 600 is taken, whatever the interleaving.
func testStakeGuard(t *testing.T, s sabot.Store) {
	ctx := context.Background()
	c := care(t, s)
	u := &sabot.User{Name: "ana", PasswordHash: []byte("x")}
	must(t, s.CreateUser(ctx, u))
	wallet := account(t, s, sabot.AccountWallet, u.ID)
	credit(t, s, wallet, 100000)
	must(t, c.PutLimit(ctx, u.ID, sabot.Limit{Kind: "stake", Period: "day", Amount: 1000, Pending: sabot.NoPending, SetAt: Now()}))
	over := sabot.PlayerCare{RealityMinutes: 30, Exclusion: "time-out", ExcludedFrom: Now().Add(-48 * time.Hour), ExcludedUntil: Now().Add(-24 * time.Hour)}
	must(t, c.PutCare(ctx, u.ID, over))
	check := func(e sabot.Eligibility) error {
		if !e.SessionLive || len(e.Limits) != 1 || e.Limits[0].Amount != 1000 || e.Care.Exclusion != "time-out" || !e.Care.ExcludedUntil.Equal(over.ExcludedUntil) || e.Care.Blocked != "" {
			return sabot.Errorf(sabot.EINVALID, "the eligibility read: %+v", e)
		}
		us, err := e.Usage(Now().Add(-24 * time.Hour))
		if err != nil {
			return err
		}
		if us.Staked > 1000 {
			return sabot.Errorf(sabot.EFORBIDDEN, "refused: %d staked", us.Staked)
		}
		return nil
	}
	const tables = 8
	var wg sync.WaitGroup
	errs := make([]error, tables)
	for i := range tables {
		tbl := &sabot.Table{Name: fmt.Sprint("t", i), Profile: "venice"}
		must(t, s.CreateTable(ctx, tbl))
		ta := account(t, s, sabot.AccountTable, tbl.ID)
		wg.Go(func() {
			rec := &sabot.LogAppend{LogRecord: &sabot.LogRecord{TableID: tbl.ID, Kind: sabot.LogBet}, Guard: &sabot.StakeGuard{UserID: u.ID, Check: check}}
			_, errs[i] = s.Append(ctx, rec, []sabot.Posting{{AccountID: wallet, Amount: -600, Memo: "bet"}, {AccountID: ta, Amount: 600, Memo: "bet"}})
		})
	}
	wg.Wait()
	taken := 0
	for _, err := range errs {
		if err == nil {
			taken++
		} else {
			code(t, err, sabot.EFORBIDDEN)
		}
	}
	if taken != 1 || balance(t, s, sabot.AccountWallet, u.ID) != 100000-600 {
		t.Fatalf("%d stakes of 600 taken under a limit of 1,000; the wallet holds %d", taken, balance(t, s, sabot.AccountWallet, u.ID))
	}
	checkLedger(t, s)

	// The pit's block, read in the stake's transaction.
	must(t, c.SetBlock(ctx, u.ID, "advantage play", Now()))
	blocked := ""
	_, err := s.Append(ctx, &sabot.LogAppend{LogRecord: &sabot.LogRecord{TableID: 1, Kind: sabot.LogBet}, Guard: &sabot.StakeGuard{UserID: u.ID, Check: func(e sabot.Eligibility) error {
		blocked = e.Care.Blocked
		return sabot.Errorf(sabot.EFORBIDDEN, "refused")
	}}}, nil)
	code(t, err, sabot.EFORBIDDEN)
	if blocked != "advantage play" {
		t.Fatalf("the guard read the block as %q", blocked)
	}
	must(t, c.SetBlock(ctx, u.ID, "", Now()))

	// The session the stake came from: read as it stands.
	must(t, s.CreateSession(ctx, &sabot.Session{Token: "live", UserID: u.ID}))
	tbl := &sabot.Table{Name: "sessions", Profile: "venice"}
	must(t, s.CreateTable(ctx, tbl))
	ta := account(t, s, sabot.AccountTable, tbl.ID)
	for _, tc := range []struct {
		token string
		live  bool
	}{{"live", true}, {"gone", false}, {"", true}} {
		var live bool
		g := &sabot.StakeGuard{UserID: u.ID, Session: tc.token, Check: func(e sabot.Eligibility) error {
			live = e.SessionLive
			return sabot.Errorf(sabot.EUNAUTHORIZED, "refused")
		}}
		_, err := s.Append(ctx, &sabot.LogAppend{LogRecord: &sabot.LogRecord{TableID: tbl.ID, Kind: sabot.LogBet}, Guard: g}, []sabot.Posting{{AccountID: wallet, Amount: -1, Memo: "bet"}, {AccountID: ta, Amount: 1, Memo: "bet"}})
		code(t, err, sabot.EUNAUTHORIZED)
		if live != tc.live {
			t.Fatalf("session %q read as live %v", tc.token, live)
		}
	}
	if log, _ := s.Log(ctx, tbl.ID, 1); len(log) != 0 || balance(t, s, sabot.AccountWallet, u.ID) != 100000-600 {
		t.Fatalf("refused stakes changed the store: %d records, wallet %d", len(log), balance(t, s, sabot.AccountWallet, u.ID))
	}
	if n, err := c.LiveSessions(ctx, u.ID, time.Time{}); err != nil || n != 1 {
		t.Fatalf("live sessions: %d, %v", n, err)
	}
}

// Seen records where players came from and finds, from the same marks, the
// others under an exclusion in force then.
func testCareSeen(t *testing.T, s sabot.Store) {
	ctx := context.Background()
	c := care(t, s)
	ana, ben := &sabot.User{Name: "ana", PasswordHash: []byte("x")}, &sabot.User{Name: "ben", PasswordHash: []byte("x")}
	must(t, s.CreateUser(ctx, ana))
	must(t, s.CreateUser(ctx, ben))
	if xs, err := c.Seen(ctx, ben.ID, []string{"address:10.0.0.1", "device:b"}, Now()); err != nil || len(xs) != 0 {
		t.Fatalf("ben seen first: %+v %v", xs, err)
	}
	until := Now().Add(24 * time.Hour)
	must(t, c.PutCare(ctx, ben.ID, sabot.PlayerCare{RealityMinutes: 60, Exclusion: "time-out", ExcludedFrom: Now(), ExcludedUntil: until}))
	xs, err := c.Seen(ctx, ana.ID, []string{"address:10.0.0.1", "device:a"}, Now())
	must(t, err)
	if len(xs) != 1 || xs[0].UserID != ben.ID || xs[0].Name != "ben" || xs[0].Mark != "address" || xs[0].Exclusion != "time-out" || !xs[0].Until.Equal(until) {
		t.Fatalf("ana seen where ben was: %+v", xs)
	}
	if xs, _ := c.Seen(ctx, ana.ID, []string{"address:10.0.0.2", "device:b"}, Now()); len(xs) != 1 || xs[0].Mark != "device" {
		t.Fatalf("ana on ben's device: %+v", xs)
	}
	if xs, _ := c.Seen(ctx, ana.ID, []string{"address:10.0.0.1", "device:b"}, until); len(xs) != 0 {
		t.Fatalf("after ben's time-out: %+v", xs)
	}
	if xs, _ := c.Seen(ctx, ben.ID, []string{"address:10.0.0.1", "device:a"}, Now()); len(xs) != 0 {
		t.Fatalf("ben seen where ana, not excluded, was: %+v", xs)
	}
}

// Sessions idle past their time are swept, and LiveSessions counts only
// those used since a time (an expired session stayed in the
// store for ever, and was counted live).
func testSessionsSwept(t *testing.T, s sabot.Store) {
	ctx := context.Background()
	c, ok := s.(sabot.Care)
	if !ok {
		t.Skip("not a care store")
	}
	u := &sabot.User{Name: "ana"}
	must(t, s.CreateUser(ctx, u))
	old, recent := Now().Add(-2*time.Hour), Now().Add(-time.Minute)
	must(t, s.CreateSession(ctx, &sabot.Session{Token: "old", UserID: u.ID, Created: old, LastSeen: old}))
	must(t, s.CreateSession(ctx, &sabot.Session{Token: "recent", UserID: u.ID, Created: recent, LastSeen: recent}))
	cut := Now().Add(-time.Hour)
	if n, err := c.LiveSessions(ctx, u.ID, cut); err != nil || n != 1 {
		t.Fatalf("live sessions since %v: %d, %v; want 1", cut, n, err)
	}
	n, err := c.SweepSessions(ctx, cut)
	must(t, err)
	if n != 1 {
		t.Fatalf("swept %d sessions, want 1", n)
	}
	if _, err := s.SessionByToken(ctx, "old"); sabot.ErrorCode(err) != sabot.ENOTFOUND {
		t.Fatalf("the old session: %v", err)
	}
	_, err = s.SessionByToken(ctx, "recent")
	must(t, err)
}

// A player's marks are kept to his latest sabot.MaxSeenMarks: a client
// sending a new device cookie at every login adds no more rows, and a
// sighting of his latest marks still finds him.
func testCareSeenBounded(t *testing.T, s sabot.Store) {
	ctx := context.Background()
	c, ok := s.(sabot.Care)
	if !ok {
		t.Skip("not a care store")
	}
	u := &sabot.User{Name: "ana"}
	must(t, s.CreateUser(ctx, u))
	for i := range 3 * sabot.MaxSeenMarks {
		_, err := c.Seen(ctx, u.ID, []string{fmt.Sprintf("device:%d", i)}, Now().Add(time.Duration(i)*time.Second))
		must(t, err)
	}
	n, err := raw(t, s).RawInt64(ctx, `SELECT COUNT(*) FROM care_seen WHERE user_id = $1`, u.ID)
	must(t, err)
	if n != sabot.MaxSeenMarks {
		t.Fatalf("%d marks kept of one player, want %d", n, sabot.MaxSeenMarks)
	}
	last := sha256.Sum256([]byte(fmt.Sprintf("device:%d", 3*sabot.MaxSeenMarks-1)))
	if n, _ := raw(t, s).RawInt64(ctx, `SELECT COUNT(*) FROM care_seen WHERE mark = $1`, last[:]); n != 1 {
		t.Fatal("the latest mark was not kept")
	}
}
