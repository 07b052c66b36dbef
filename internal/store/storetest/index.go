package storetest

import (
	"context"
	"encoding/json"
	"fmt"
	"strings"
	"testing"
	"time"

	"sabot"
)

// testFindIndexed: the queries recall, shoes and a player's rounds are
// served by (LogQuery's round, shoe, user and cursor), and the index rows an
// append writes with its record — none for a refused or repeated append.
func testFindIndexed(t *testing.T, s sabot.Store) {
	ctx := context.Background()
	a := &sabot.Table{Name: "A", Profile: "spain"}
	b := &sabot.Table{Name: "B", Profile: "venice"}
	must(t, s.CreateTable(ctx, a))
	must(t, s.CreateTable(ctx, b))
	ana, bea := &sabot.User{Name: "ana"}, &sabot.User{Name: "bea"}
	must(t, s.CreateUser(ctx, ana))
	must(t, s.CreateUser(ctx, bea))
	A, B := a.ID, b.ID
	at := func(sec int) time.Time { return Now().Add(time.Duration(sec) * time.Second) }
	for _, rec := range []*sabot.LogAppend{
		{LogRecord: &sabot.LogRecord{TableID: A, Kind: sabot.LogTableOpened, Created: at(0)}},                                                 // A.1
		{LogRecord: &sabot.LogRecord{TableID: A, Kind: sabot.LogShoe, ShoeNo: 1, Created: at(1)}},                                             // A.2
		{LogRecord: &sabot.LogRecord{TableID: A, Kind: sabot.LogConfigure, Created: at(2)}},                                                   // A.3
		{LogRecord: &sabot.LogRecord{TableID: A, Kind: sabot.LogDeal, RoundNo: 1, ShoeNo: 1, Created: at(3)}},                                 // A.4
		{LogRecord: &sabot.LogRecord{TableID: A, Kind: sabot.LogAction, RoundNo: 1, Created: at(4)}},                                          // A.5
		{LogRecord: &sabot.LogRecord{TableID: A, Kind: sabot.LogSettle, RoundNo: 1, Created: at(5)}, Users: []int64{ana.ID, bea.ID, ana.ID}},  // A.6
		{LogRecord: &sabot.LogRecord{TableID: B, Kind: sabot.LogTableOpened, Created: at(5)}},                                                 // B.1
		{LogRecord: &sabot.LogRecord{TableID: B, Kind: sabot.LogSettle, RoundNo: 1, Created: at(5)}, Users: []int64{bea.ID}},                  // B.2
		{LogRecord: &sabot.LogRecord{TableID: A, Kind: sabot.LogConfigure, Created: at(6)}},                                                   // A.7
		{LogRecord: &sabot.LogRecord{TableID: A, Kind: sabot.LogDeal, RoundNo: 2, ShoeNo: 1, Created: at(7)}},                                 // A.8
		{LogRecord: &sabot.LogRecord{TableID: A, Kind: sabot.LogShoeReveal, ShoeNo: 1, Created: at(8)}},                                       // A.9
		{LogRecord: &sabot.LogRecord{TableID: A, Kind: sabot.LogShoe, ShoeNo: 2, Created: at(8)}},                                             // A.10
		{LogRecord: &sabot.LogRecord{TableID: A, Kind: sabot.LogVoid, RoundNo: 2, Created: at(9)}, Users: []int64{ana.ID}},                    // A.11
		{LogRecord: &sabot.LogRecord{TableID: A, Kind: sabot.LogDeal, RoundNo: 3, ShoeNo: 2, Created: at(10)}},                                // A.12
		{LogRecord: &sabot.LogRecord{TableID: A, Kind: sabot.LogSnapshot, RoundNo: 3, Created: at(11), Payload: json.RawMessage(`{"v": 1}`)}}, // A.13
	} {
		_, err := s.Append(ctx, rec, nil)
		must(t, err)
	}
	// A refused append and a repeated one write no index row.
	wallet := account(t, s, sabot.AccountWallet, ana.ID)
	tbl := account(t, s, sabot.AccountTable, A)
	refused := &sabot.LogAppend{LogRecord: &sabot.LogRecord{TableID: A, Kind: sabot.LogSettle, RoundNo: 9, Created: at(20)}, Users: []int64{ana.ID}}
	_, err := s.Append(ctx, refused, []sabot.Posting{{AccountID: wallet, Amount: -1}, {AccountID: tbl, Amount: 1}})
	code(t, err, sabot.EINSUFFICIENT)
	first := &sabot.LogAppend{LogRecord: &sabot.LogRecord{TableID: B, Kind: sabot.LogSettle, RoundNo: 2, ClientID: "c", CommandID: "x", Created: at(12)}, Users: []int64{ana.ID}} // B.3
	_, err = s.Append(ctx, first, nil)
	must(t, err)
	again := &sabot.LogAppend{LogRecord: &sabot.LogRecord{TableID: B, Kind: sabot.LogSettle, RoundNo: 3, ClientID: "c", CommandID: "x", Created: at(21)}, Users: []int64{ana.ID}}
	dup, err := s.Append(ctx, again, nil)
	must(t, err)
	if !dup {
		t.Fatal("a repeated command was appended again")
	}

	ids := func(recs []*sabot.LogRecord) string {
		var out []string
		for _, r := range recs {
			out = append(out, fmt.Sprintf("%d.%d", r.TableID, r.Seq))
		}
		return strings.Join(out, " ")
	}
	want := func(s ...string) string { return strings.Join(s, " ") }
	at4 := func(table, seq int64) string { return fmt.Sprintf("%d.%d", table, seq) }
	round := []string{sabot.LogDeal, sabot.LogAction, sabot.LogTimeout, sabot.LogSettle, sabot.LogVoid}
	closing := []string{sabot.LogSettle, sabot.LogVoid}
	for _, tc := range []struct {
		name string
		q    sabot.LogQuery
		want string
	}{
		{"a round", sabot.LogQuery{Kinds: round, TableID: A, FromRound: 1, ToRound: 1}, want(at4(A, 4), at4(A, 5), at4(A, 6))},
		{"rounds from", sabot.LogQuery{Kinds: round, TableID: A, FromRound: 2}, want(at4(A, 8), at4(A, 11), at4(A, 12))},
		{"rounds to", sabot.LogQuery{Kinds: []string{sabot.LogDeal}, TableID: A, ToRound: 2}, want(at4(A, 4), at4(A, 8))},
		{"no such round", sabot.LogQuery{Kinds: round, TableID: B, FromRound: 2, ToRound: 2}, want(at4(B, 3))},
		{"a shoe", sabot.LogQuery{Kinds: []string{sabot.LogShoe, sabot.LogShoeReveal, sabot.LogDeal}, TableID: A, Shoe: 1},
			want(at4(A, 2), at4(A, 4), at4(A, 8), at4(A, 9))},
		{"a shoe's deals from a round", sabot.LogQuery{Kinds: []string{sabot.LogDeal}, TableID: A, Shoe: 1, FromRound: 2}, want(at4(A, 8))},
		{"a shoe's start", sabot.LogQuery{Kinds: []string{sabot.LogShoe}, TableID: A, Shoe: 2}, want(at4(A, 10))},
		{"the options at a deal", sabot.LogQuery{Kinds: []string{sabot.LogConfigure}, TableID: A, Before: &sabot.LogRecord{Seq: 8}, Newest: true, Limit: 1}, want(at4(A, 7))},
		{"the options at an earlier deal", sabot.LogQuery{Kinds: []string{sabot.LogConfigure}, TableID: A, Before: &sabot.LogRecord{Seq: 4}, Newest: true, Limit: 1}, want(at4(A, 3))},
		{"none before", sabot.LogQuery{Kinds: []string{sabot.LogConfigure}, TableID: A, Before: &sabot.LogRecord{Seq: 3}, Newest: true, Limit: 1}, ""},
		{"a player's rounds", sabot.LogQuery{Kinds: closing, UserID: ana.ID, Newest: true}, want(at4(B, 3), at4(A, 11), at4(A, 6))},
		{"another's", sabot.LogQuery{Kinds: closing, UserID: bea.ID, Newest: true}, want(at4(B, 2), at4(A, 6))},
		{"a page", sabot.LogQuery{Kinds: closing, UserID: ana.ID, Newest: true, Limit: 2}, want(at4(B, 3), at4(A, 11))},
		{"the next page", sabot.LogQuery{Kinds: closing, UserID: ana.ID, Newest: true, Limit: 2, Before: &sabot.LogRecord{TableID: A, Seq: 11, Created: at(9)}}, want(at4(A, 6))},
		// Records of the same time are ordered by table, then seq.
		{"a tie", sabot.LogQuery{Kinds: closing, UserID: bea.ID, Newest: true, Before: &sabot.LogRecord{TableID: B, Seq: 2, Created: at(5)}}, want(at4(A, 6))},
		{"oldest first", sabot.LogQuery{Kinds: closing, UserID: ana.ID}, want(at4(A, 6), at4(A, 11), at4(B, 3))},
		{"a player at a table", sabot.LogQuery{Kinds: closing, UserID: ana.ID, TableID: A, Newest: true}, want(at4(A, 11), at4(A, 6))},
		{"every table, before", sabot.LogQuery{Kinds: closing, Before: &sabot.LogRecord{TableID: B, Seq: 2, Created: at(5)}}, want(at4(A, 6))},
		{"the snapshot of round 3", sabot.LogQuery{Kinds: []string{sabot.LogSnapshot}, TableID: A, FromRound: 3, ToRound: 3}, want(at4(A, 13))},
	} {
		got, err := s.Find(ctx, tc.q)
		must(t, err)
		if ids(got) != tc.want {
			t.Errorf("%s: Find = %q, want %q", tc.name, ids(got), tc.want)
		}
	}
	got, err := s.Find(ctx, sabot.LogQuery{Kinds: []string{sabot.LogShoe}, TableID: A, Shoe: 2})
	must(t, err)
	if len(got) != 1 || got[0].ShoeNo != 2 || got[0].RoundNo != 0 {
		t.Errorf("the shoe record reads back as %+v", got)
	}
	log, err := s.Log(ctx, A, 4)
	must(t, err)
	if log[0].ShoeNo != 1 || log[0].RoundNo != 1 {
		t.Errorf("the deal reads back as %+v", log[0])
	}
	for _, q := range []sabot.LogQuery{
		{Kinds: round, FromRound: 1},          // a round needs a table
		{Kinds: round, Shoe: 1},               // so does a shoe
		{Kinds: round, TableID: A, Shoe: -1},  // no negative shoe
		{Kinds: []string{"deal'; --"}},        // a kind is a name
		{Kinds: []string{"Deal"}},             // in lower case
		{Kinds: round, UserID: -1, Limit: 1},  // no negative user
		{Kinds: round, TableID: A, Limit: -1}, // no negative limit
	} {
		_, err := s.Find(ctx, q)
		code(t, err, sabot.EINVALID)
	}
	for _, rec := range []*sabot.LogAppend{
		{LogRecord: &sabot.LogRecord{TableID: A, Kind: sabot.LogSettle}, Users: []int64{0}},
		{LogRecord: &sabot.LogRecord{TableID: A, Kind: sabot.LogDeal, ShoeNo: -1}},
		{LogRecord: &sabot.LogRecord{TableID: A, Kind: sabot.LogDeal, RoundNo: -1}},
	} {
		_, err := s.Append(ctx, rec, nil)
		code(t, err, sabot.EINVALID)
	}
}

// Backfill: a store written before the log's indexes (migration 005) is
// indexed when it is opened by this version: its shoes, its rounds and its
// players' rounds are found as those written since. open opens the store at
// dsn with the migrations up to a version (0: all); the old one must be a
// Raw.
func Backfill(t *testing.T, dsn string, open func(tb testing.TB, dsn string, upTo int64) sabot.Store) {
	ctx := context.Background()
	old := open(t, dsn, 4)
	tbl := &sabot.Table{Name: "A", Profile: "spain"}
	must(t, old.CreateTable(ctx, tbl))
	ana, bea := &sabot.User{Name: "ana"}, &sabot.User{Name: "bea"}
	must(t, old.CreateUser(ctx, ana))
	must(t, old.CreateUser(ctx, bea))
	raw := raw(t, old)
	at := func(sec int) int64 { return Now().Add(time.Duration(sec) * time.Second).UnixMicro() }
	for i, r := range []struct {
		kind    string
		round   int64
		payload string
	}{
		{sabot.LogTableOpened, 0, `{"name":"A","profile":"spain"}`},
		{sabot.LogShoe, 0, `{"shoe":1,"seed":"00","commitment":"c1","options":null}`},
		{sabot.LogDeal, 1, `{"round":1,"shoe":1,"shoe_pos":1,"bets":[{"player":"ana","box":1,"stake":100},{"player":"bea","box":2,"stake":100},{"player":"ana","box":3,"stake":100}]}`},
		{sabot.LogAction, 1, `{"round":1,"action":{"action":"stand","player":"ana","box":1}}`},
		{sabot.LogSettle, 1, `{"round":1,"net":{"ana":100,"bea":-100}}`},
		{sabot.LogDeal, 2, `{"round":2,"shoe":1,"shoe_pos":9,"bets":[{"player":"gone","box":1,"stake":100},{"player":"bea","box":2,"stake":100}]}`},
		{sabot.LogVoid, 2, `{"round":2,"void":true}`},
		{sabot.LogShoeReveal, 0, `{"shoe":1,"seed":"00","commitment":"c1"}`},
		{sabot.LogShoe, 0, `{"shoe":2,"seed":"01","commitment":"c2","options":null}`},
		{sabot.LogVoid, 0, `{"void":true,"closed":true,"returned":{"ana":100}}`}, // a closed table's: no round
	} {
		must(t, raw.RawExec(ctx, `INSERT INTO log (table_id, seq, kind, round_no, payload, created) VALUES ($1, $2, $3, $4, $5, $6)`,
			tbl.ID, i+1, r.kind, r.round, r.payload, at(i)))
	}
	must(t, raw.RawExec(ctx, `UPDATE tables SET last_seq = 10 WHERE id = $1`, tbl.ID))
	must(t, old.Close())

	s := open(t, dsn, 0)
	ids := func(recs []*sabot.LogRecord) string {
		var out []string
		for _, r := range recs {
			out = append(out, fmt.Sprintf("%d/%d/%d", r.Seq, r.RoundNo, r.ShoeNo))
		}
		return strings.Join(out, " ")
	}
	for _, tc := range []struct {
		name string
		q    sabot.LogQuery
		want string // seq/round/shoe
	}{
		{"shoe 1", sabot.LogQuery{Kinds: []string{sabot.LogShoe, sabot.LogShoeReveal, sabot.LogDeal}, TableID: tbl.ID, Shoe: 1}, "2/0/1 3/1/1 6/2/1 8/0/1"},
		{"shoe 2", sabot.LogQuery{Kinds: []string{sabot.LogShoe}, TableID: tbl.ID, Shoe: 2}, "9/0/2"},
		{"round 1", sabot.LogQuery{Kinds: []string{sabot.LogDeal, sabot.LogAction, sabot.LogSettle}, TableID: tbl.ID, FromRound: 1, ToRound: 1}, "3/1/1 4/1/0 5/1/0"},
		{"ana's rounds", sabot.LogQuery{Kinds: []string{sabot.LogSettle, sabot.LogVoid}, UserID: ana.ID, Newest: true}, "5/1/0"},
		{"bea's rounds", sabot.LogQuery{Kinds: []string{sabot.LogSettle, sabot.LogVoid}, UserID: bea.ID, Newest: true}, "7/2/0 5/1/0"},
	} {
		got, err := s.Find(ctx, tc.q)
		must(t, err)
		if ids(got) != tc.want {
			t.Errorf("%s after the migration: %q, want %q", tc.name, ids(got), tc.want)
		}
	}
	// The log goes on after the migration.
	rec := &sabot.LogAppend{LogRecord: &sabot.LogRecord{TableID: tbl.ID, Kind: sabot.LogSettle, RoundNo: 3, Created: Now().Add(time.Minute)}, Users: []int64{ana.ID}}
	_, err := s.Append(ctx, rec, nil)
	must(t, err)
	got, err := s.Find(ctx, sabot.LogQuery{Kinds: []string{sabot.LogSettle}, UserID: ana.ID, Newest: true, Limit: 1})
	must(t, err)
	if rec.Seq != 11 || len(got) != 1 || got[0].Seq != 11 {
		t.Errorf("appended as seq %d after the migration; ana's last round is %s", rec.Seq, ids(got))
	}
}
