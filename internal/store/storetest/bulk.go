package storetest

import (
	"context"
	"encoding/json"
	"fmt"
	"reflect"
	"testing"
	"time"

	"sabot"
	"sabot/money"
)

// testBulkLoad: a log bulk-loaded (sabot.BulkLoader) reads back as the same
// records appended one at a time do, at another table: the same seqs,
// payloads, times, users' index and ledger (each record's transaction, the
// balances); and a batch with anything refused writes nothing.
func testBulkLoad(t *testing.T, s sabot.Store) {
	ctx := context.Background()
	bl, ok := s.(sabot.BulkLoader)
	if !ok {
		t.Fatalf("%T is not a sabot.BulkLoader", s)
	}
	appended := &sabot.Table{Name: "appended", Profile: "vegas-s17"}
	must(t, s.CreateTable(ctx, appended))
	loaded := &sabot.Table{Name: "loaded", Profile: "vegas-s17"}
	must(t, s.CreateTable(ctx, loaded))
	// Each table's players have wallets of their own, owners 1, 2 at the
	// appended table and 11, 12 at the loaded one.
	house := account(t, s, sabot.AccountHouse, 0)
	wallets := map[int64][2]int64{}
	for _, tbl := range []*sabot.Table{appended, loaded} {
		base := int64(1)
		if tbl == loaded {
			base = 11
		}
		w := [2]int64{account(t, s, sabot.AccountWallet, base), account(t, s, sabot.AccountWallet, base+1)}
		credit(t, s, w[0], 5000)
		credit(t, s, w[1], 5000)
		wallets[tbl.ID] = w
	}
	at := time.Date(2026, 1, 2, 3, 4, 5, 6000, time.UTC)
	// A table's rounds: a deal, then a settle whose postings move the two
	// players' nets against the house, indexed under them.
	rounds := func(tbl *sabot.Table, n int) []sabot.BulkAppend {
		var out []sabot.BulkAppend
		w := wallets[tbl.ID]
		users := []int64{1, 2}
		if tbl == loaded {
			users = []int64{11, 12}
		}
		for r := 1; r <= n; r++ {
			deal := &sabot.LogRecord{TableID: tbl.ID, Kind: sabot.LogDeal, RoundNo: int64(r), ShoeNo: int64(1 + r/7),
				Created: at.Add(time.Duration(r) * time.Minute), Payload: json.RawMessage(fmt.Sprintf(`{"round": %d, "bets": []}`, r))}
			if r%6 == 0 {
				deal.Payload = nil // none: NULL, not "null"
			}
			a, b := money.Amount(10*(r%5)-21), money.Amount(15*(r%3)-10)
			settle := &sabot.LogAppend{LogRecord: &sabot.LogRecord{TableID: tbl.ID, Kind: sabot.LogSettle, RoundNo: int64(r),
				Created: at.Add(time.Duration(r)*time.Minute + 40*time.Second), Payload: json.RawMessage(fmt.Sprintf(`{"round": %d}`, r))}, Users: []int64{users[0], users[1], users[0]}}
			ps := []sabot.Posting{{AccountID: w[0], Amount: a, Memo: "round"}, {AccountID: w[1], Amount: b, Memo: "round"},
				{AccountID: house, Amount: -a - b, Memo: "round"}}
			if r%4 == 0 {
				ps = nil // a round nobody won or lost: no transaction
				settle.Users = nil
			}
			out = append(out, sabot.BulkAppend{Rec: deal}, sabot.BulkAppend{Rec: settle.LogRecord, Users: settle.Users, Postings: ps})
		}
		return out
	}
	const n = 1203 // more than one multi-row INSERT's rows (bulkRows)
	for _, b := range rounds(appended, n) {
		if _, err := s.Append(ctx, &sabot.LogAppend{LogRecord: b.Rec, Users: b.Users}, b.Postings); err != nil {
			t.Fatal(err)
		}
	}
	// Loaded in two batches, the second's seqs and transactions after the
	// first's; the cut is inside a round.
	batch := rounds(loaded, n)
	const cut = 2*500 + 1
	must(t, bl.BulkLoad(ctx, batch[:cut]))
	must(t, bl.BulkLoad(ctx, batch[cut:]))
	for i, b := range batch {
		if b.Rec.Seq != int64(i+1) || !b.Rec.Created.Equal(at.Add(time.Duration(i/2+1)*time.Minute+time.Duration(i%2)*40*time.Second)) {
			t.Fatalf("record %d loaded as seq %d at %v", i, b.Rec.Seq, b.Rec.Created)
		}
	}

	a, err := s.Log(ctx, appended.ID, 1)
	must(t, err)
	l, err := s.Log(ctx, loaded.ID, 1)
	must(t, err)
	if len(a) != 2*n || len(l) != 2*n {
		t.Fatalf("%d records appended, %d loaded; want %d each", len(a), len(l), 2*n)
	}
	for i := range a {
		x, y := *a[i], *l[i]
		x.TableID = y.TableID
		if !reflect.DeepEqual(x, y) {
			t.Fatalf("record %d: appended %+v payload %s, loaded %+v payload %s", i, x, x.Payload, y, y.Payload)
		}
	}
	// The users' index: the same rounds under each player.
	for k, u := range []int64{2, 12} {
		got, err := s.Find(ctx, sabot.LogQuery{Kinds: []string{sabot.LogSettle}, UserID: u})
		must(t, err)
		want := n - n/4
		if len(got) != want {
			t.Fatalf("user %d (%d): %d rounds indexed, want %d", u, k, len(got), want)
		}
	}
	// The ledger: a transaction a settle with postings, named by its
	// record, of its time, and the same nets.
	for _, tbl := range []*sabot.Table{appended, loaded} {
		txs, err := raw(t, s).RawInt64(ctx, `SELECT COUNT(*) FROM transactions t JOIN log l ON l.table_id = t.table_id AND l.seq = t.seq
			WHERE t.table_id = $1 AND t.memo = l.kind AND t.created = l.created`, tbl.ID)
		must(t, err)
		entries, err := raw(t, s).RawInt64(ctx, `SELECT COUNT(*) FROM entries e JOIN transactions t ON t.id = e.transaction_id
			WHERE t.table_id = $1 AND e.memo = 'round' AND e.created = t.created`, tbl.ID)
		must(t, err)
		if txs != n-n/4 || entries != 3*(n-n/4) {
			t.Fatalf("table %s: %d transactions, %d entries; want %d and %d", tbl.Name, txs, entries, n-n/4, 3*(n-n/4))
		}
	}
	// Each entry under the transaction of its own record: every loaded
	// entry has its appended twin, the same amount on the same player's
	// wallet (or the house) under the record of the same seq.
	aw, lw := wallets[appended.ID], wallets[loaded.ID]
	stray, err := raw(t, s).RawInt64(ctx, `SELECT COUNT(*) FROM entries e JOIN transactions t ON t.id = e.transaction_id
		WHERE t.table_id = $1 AND NOT EXISTS (SELECT 1 FROM entries e2 JOIN transactions t2 ON t2.id = e2.transaction_id
			WHERE t2.table_id = $2 AND t2.seq = t.seq AND e2.amount = e.amount
			AND e2.account_id = CASE e.account_id WHEN $3 THEN $4 WHEN $5 THEN $6 ELSE e.account_id END)`,
		loaded.ID, appended.ID, lw[0], aw[0], lw[1], aw[1])
	must(t, err)
	if stray != 0 {
		t.Fatalf("%d loaded entries are not their appended twins", stray)
	}
	for i := range 2 {
		if x, y := balance(t, s, sabot.AccountWallet, int64(1+i)), balance(t, s, sabot.AccountWallet, int64(11+i)); x != y || x == 5000 {
			t.Fatalf("player %d's wallet: %d appended, %d loaded (5000 before)", i+1, x, y)
		}
	}
	before := checkLedger(t, s)

	// Refused, and nothing written: a command's IDs, an unbalanced
	// transaction, a table that does not exist, a wallet that ends below
	// zero; each after a good record of the loaded table.
	good := func() sabot.BulkAppend {
		return sabot.BulkAppend{Rec: &sabot.LogRecord{TableID: loaded.ID, Kind: sabot.LogDeal, Payload: json.RawMessage(`{}`)}}
	}
	w := wallets[loaded.ID]
	for _, c := range []struct {
		name string
		bad  sabot.BulkAppend
		code string
	}{
		{"a command", sabot.BulkAppend{Rec: &sabot.LogRecord{TableID: loaded.ID, Kind: sabot.LogBet, ClientID: "c", CommandID: "k"}}, sabot.EINVALID},
		{"an epoch", sabot.BulkAppend{Rec: &sabot.LogRecord{TableID: loaded.ID, Kind: sabot.LogDeal, Epoch: 1}}, sabot.EINVALID},
		{"unbalanced", sabot.BulkAppend{Rec: &sabot.LogRecord{TableID: loaded.ID, Kind: sabot.LogSettle},
			Postings: []sabot.Posting{{AccountID: w[0], Amount: 5}, {AccountID: house, Amount: -4}}}, sabot.EINVALID},
		{"no table", sabot.BulkAppend{Rec: &sabot.LogRecord{TableID: 999, Kind: sabot.LogDeal}}, sabot.ENOTFOUND},
		{"a wallet below zero", sabot.BulkAppend{Rec: &sabot.LogRecord{TableID: loaded.ID, Kind: sabot.LogSettle},
			Postings: []sabot.Posting{{AccountID: w[0], Amount: -1_000_000}, {AccountID: house, Amount: 1_000_000}}}, sabot.EINSUFFICIENT},
		{"not JSON", sabot.BulkAppend{Rec: &sabot.LogRecord{TableID: loaded.ID, Kind: sabot.LogDeal, Payload: json.RawMessage(`{`)}}, sabot.EINVALID},
	} {
		code(t, bl.BulkLoad(ctx, []sabot.BulkAppend{good(), c.bad, good()}), c.code)
		if got := checkLedger(t, s); !reflect.DeepEqual(got, before) {
			t.Fatalf("%s: the ledger went from %+v to %+v", c.name, before, got)
		}
		if l, err := s.Log(ctx, loaded.ID, 2*n+1); err != nil || len(l) != 0 {
			t.Fatalf("%s: %v, %d records written", c.name, err, len(l))
		}
	}
	// A big batch (the log's, the index's, the transactions' and the
	// entries' rows all written) refused at its very end, by its last
	// record's balance: nothing of it is written.
	big := rounds(loaded, n)
	big = append(big, sabot.BulkAppend{Rec: &sabot.LogRecord{TableID: loaded.ID, Kind: sabot.LogSettle},
		Postings: []sabot.Posting{{AccountID: w[1], Amount: -1_000_000}, {AccountID: house, Amount: 1_000_000}}})
	code(t, bl.BulkLoad(ctx, big), sabot.EINSUFFICIENT)
	if got := checkLedger(t, s); !reflect.DeepEqual(got, before) {
		t.Fatalf("a big batch refused at its end: the ledger went from %+v to %+v", before, got)
	}
	if l, err := s.Log(ctx, loaded.ID, 2*n+1); err != nil || len(l) != 0 {
		t.Fatalf("a big batch refused at its end: %v, %d records written", err, len(l))
	}
	if u, err := s.Find(ctx, sabot.LogQuery{Kinds: []string{sabot.LogSettle}, UserID: 12}); err != nil || len(u) != n-n/4 {
		t.Fatalf("a big batch refused at its end: %v, %d rounds indexed under user 12, want %d", err, len(u), n-n/4)
	}
	// The balances are checked at the end of the batch: a wallet that
	// goes below zero within it and comes back is written.
	b := balance(t, s, sabot.AccountWallet, 11)
	must(t, bl.BulkLoad(ctx, []sabot.BulkAppend{
		{Rec: &sabot.LogRecord{TableID: loaded.ID, Kind: sabot.LogSettle}, Postings: []sabot.Posting{{AccountID: w[0], Amount: -money.Amount(b + 1)}, {AccountID: house, Amount: money.Amount(b + 1)}}},
		{Rec: &sabot.LogRecord{TableID: loaded.ID, Kind: sabot.LogSettle}, Postings: []sabot.Posting{{AccountID: w[0], Amount: 1}, {AccountID: house, Amount: -1}}},
	}))
	if got := balance(t, s, sabot.AccountWallet, 11); got != 0 {
		t.Fatalf("wallet %d, want 0", got)
	}
	if r := checkLedger(t, s); r.Transactions != before.Transactions+2 {
		t.Fatalf("%d transactions, want %d", r.Transactions, before.Transactions+2)
	}
}

// BenchmarkBulkLoad measures BulkLoad of rounds as `sabot report synth`
// writes them: per op a batch of 1,000 rounds at one table, each a deal
// and a settle (payloads of the synthetic rounds' sizes, some 140 and 750
// bytes) whose three postings move two players' wallets against the house.
// It reports rounds/s.
func BenchmarkBulkLoad(b *testing.B, s sabot.Store) {
	ctx := context.Background()
	bl, ok := s.(sabot.BulkLoader)
	if !ok {
		b.Fatalf("%T is not a sabot.BulkLoader", s)
	}
	tbl := &sabot.Table{Name: "bench", Profile: "vegas-s17"}
	must(b, s.CreateTable(ctx, tbl))
	house, w1, w2 := account(b, s, sabot.AccountHouse, 0), account(b, s, sabot.AccountWallet, 1), account(b, s, sabot.AccountWallet, 2)
	credit(b, s, w1, 1<<40)
	credit(b, s, w2, 1<<40)
	deal := json.RawMessage(`{"round":1,"shoe":1,"bets":[{"player":"p1","box":1,"stake":1000},{"player":"p2","box":2,"stake":1000}],"count":{"hilo":3,"decks":5.5},"at":"2026-01-02T03:04:05Z"}`)
	settle := json.RawMessage(`{"round":1,"void":false,"record":{"cards":["9S","KH","4S","5D","3S","8H","AC","7S","2S","KD","QC"],` +
		`"bets":[{"player":"p1","box":1,"stake":1000},{"player":"p2","box":2,"stake":1000}],` +
		`"actions":[{"Kind":1,"Player":"p1","Box":1,"Hand":1,"Stake":0,"Value":0},{"Kind":2,"Player":"p2","Box":2,"Hand":1,"Stake":0,"Value":0}],"cut_after":-1},` +
		`"hands":[{"box":1,"hand":1,"cards":["9S","3S","2S","KD"]},{"box":2,"hand":1,"cards":["KH","8H"]}],` +
		`"bets":[{"player":"p1","box":1,"hand":1,"kind":"main","stake":1000,"result":"bust","net":-1000},` +
		`{"player":"p2","box":2,"hand":1,"kind":"main","stake":1000,"result":"win","net":1000}],"house":0,"bank":"","bank_paid":null}`)
	const rounds = 1000
	at := time.Date(2026, 1, 2, 3, 4, 5, 0, time.UTC)
	n := 0
	b.ReportAllocs()
	b.ResetTimer()
	for b.Loop() {
		b.StopTimer()
		batch := make([]sabot.BulkAppend, 0, 2*rounds)
		for range rounds {
			n++
			t := at.Add(time.Duration(n) * time.Minute)
			a := money.Amount(10*(n%5) - 20)
			batch = append(batch,
				sabot.BulkAppend{Rec: &sabot.LogRecord{TableID: tbl.ID, Kind: sabot.LogDeal, RoundNo: int64(n), ShoeNo: int64(1 + n/60), Created: t, Payload: deal}},
				sabot.BulkAppend{Rec: &sabot.LogRecord{TableID: tbl.ID, Kind: sabot.LogSettle, RoundNo: int64(n), Created: t.Add(40 * time.Second), Payload: settle},
					Postings: []sabot.Posting{{AccountID: w1, Amount: a, Memo: "round"}, {AccountID: w2, Amount: -2 * a, Memo: "round"}, {AccountID: house, Amount: a, Memo: "round"}}})
		}
		b.StartTimer()
		if err := bl.BulkLoad(ctx, batch); err != nil {
			b.Fatal(err)
		}
	}
	b.ReportMetric(float64(n)/b.Elapsed().Seconds(), "rounds/s")
}
