// Package storetest is the one test suite of sabot.Store, run against every
// driver: Run(t, open) with open returning a fresh, empty store on the
// clock Now. A store that also implements Raw gets the tests that tamper
// with the database behind the store's back (every driver's test should).
package storetest

import (
	"context"
	"crypto/rand"
	"encoding/hex"
	"fmt"
	"net/url"
	"os"
	"slices"
	"strconv"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/jackc/pgx/v5"

	"sabot"
	"sabot/internal/store/sqlstore"
	"sabot/money"
)

// Now is the clock of the stores under test.
func Now() time.Time { return time.Date(2025, 3, 14, 15, 9, 26, 535897000, time.UTC) }

// Raw reaches the database under a store without its rules: for the tests
// that corrupt the ledger on purpose and look at what is stored. Queries are
// in the dialect both databases share ($1 parameters).
type Raw interface {
	RawExec(ctx context.Context, query string, args ...any) error
	RawInt64(ctx context.Context, query string, args ...any) (int64, error)
}

// PostgresDSN returns the DSN of a fresh, empty schema in the PostgreSQL
// database named by $SABOT_TEST_POSTGRES, dropped when the test ends. With
// the variable unset it fails the test in CI (CI=true) and skips it
// elsewhere, saying why: the PostgreSQL suite never passes by not running.
func PostgresDSN(tb testing.TB) string {
	tb.Helper()
	dsn := os.Getenv("SABOT_TEST_POSTGRES")
	if dsn == "" {
		if ci, _ := strconv.ParseBool(os.Getenv("CI")); ci {
			tb.Fatal("SABOT_TEST_POSTGRES is not set: CI runs the store suite on PostgreSQL (.ci/run starts a server and sets it)")
		}
		tb.Skip("SABOT_TEST_POSTGRES is not set: skipping the PostgreSQL store tests " +
			"(set it to a postgres:// DSN whose role may create schemas, e.g. postgres://sabot:sabot@127.0.0.1:5432/sabot_test)")
	}
	u, err := url.Parse(dsn)
	if err != nil || (u.Scheme != "postgres" && u.Scheme != "postgresql") {
		tb.Fatalf("SABOT_TEST_POSTGRES=%q is not a postgres:// URL", dsn)
	}
	ctx := context.Background()
	admin, err := pgx.Connect(ctx, dsn)
	if err != nil {
		tb.Fatalf("SABOT_TEST_POSTGRES: %v", err)
	}
	var b [6]byte
	rand.Read(b[:])
	schema := "sabot_test_" + hex.EncodeToString(b[:])
	if _, err := admin.Exec(ctx, "CREATE SCHEMA "+schema); err != nil {
		admin.Close(ctx)
		tb.Fatalf("create schema %s: %v", schema, err)
	}
	tb.Cleanup(func() {
		defer admin.Close(ctx)
		if _, err := admin.Exec(ctx, "DROP SCHEMA "+schema+" CASCADE"); err != nil {
			tb.Errorf("drop schema %s: %v", schema, err)
		}
	})
	q := u.Query()
	q.Set("search_path", schema)
	u.RawQuery = q.Encode()
	return u.String()
}

// BenchmarkAppend measures Append of a bet: a log record with two postings
// (the wallet to the table), a command ID each, on one table.
func BenchmarkAppend(b *testing.B, s sabot.Store) { benchmarkAppend(b, s, false) }

// BenchmarkStake is BenchmarkAppend with the stake's guard, as the server
// writes a player's bet: his session and care read in its transaction.
func BenchmarkStake(b *testing.B, s sabot.Store) { benchmarkAppend(b, s, true) }

func benchmarkAppend(b *testing.B, s sabot.Store, guarded bool) {
	ctx := context.Background()
	tbl := &sabot.Table{Name: "bench", Profile: "venice"}
	if err := s.CreateTable(ctx, tbl); err != nil {
		b.Fatal(err)
	}
	house, wallet, table := account(b, s, sabot.AccountHouse, 0), account(b, s, sabot.AccountWallet, 1), account(b, s, sabot.AccountTable, tbl.ID)
	if err := s.Transfer(ctx, "credit", []sabot.Posting{{AccountID: house, Amount: -1 << 40}, {AccountID: wallet, Amount: 1 << 40}}); err != nil {
		b.Fatal(err)
	}
	payload := []byte(`{"box":1,"stake":1000}`)
	n := 0
	b.ReportAllocs()
	b.ResetTimer()
	for b.Loop() {
		n++
		rec := &sabot.LogAppend{LogRecord: &sabot.LogRecord{TableID: tbl.ID, Kind: sabot.LogBet, ClientID: "bench", CommandID: strconv.Itoa(n), UserID: 1, Payload: payload}}
		if guarded {
			rec.Guard = &sabot.StakeGuard{UserID: 1, Session: "bench", Check: func(sabot.Eligibility) error { return nil }}
		}
		if _, err := s.Append(ctx, rec, []sabot.Posting{{AccountID: wallet, Amount: -1000}, {AccountID: table, Amount: 1000}}); err != nil {
			b.Fatal(err)
		}
	}
	b.ReportMetric(float64(n)/b.Elapsed().Seconds(), "ops/s")
}

// BenchmarkSettle measures the append of a settle record that pays a full
// table, seven players: nine accounts' postings (the seven wallets, the
// table's float and its house), as the table server's settlement writes.
// It reports the processor time per append (cpu-ns/op: the whole
// process's, SQLite's writer included).
func BenchmarkSettle(b *testing.B, s sabot.Store) {
	ctx := context.Background()
	tbl := &sabot.Table{Name: "bench", Profile: "venice"}
	if err := s.CreateTable(ctx, tbl); err != nil {
		b.Fatal(err)
	}
	float, house := account(b, s, sabot.AccountTable, tbl.ID), account(b, s, sabot.AccountTableHouse, tbl.ID)
	var wallets []int64
	for i := range 7 {
		wallets = append(wallets, account(b, s, sabot.AccountWallet, int64(i+1)))
	}
	payload := []byte(`{"round":1}`)
	n := 0
	b.ReportAllocs()
	b.ResetTimer()
	cpu0 := processCPU()
	for b.Loop() {
		n++
		ps := make([]sabot.Posting, 0, 16)
		for _, w := range wallets {
			ps = append(ps, sabot.Posting{AccountID: w, Amount: 1000, Memo: "win"}, sabot.Posting{AccountID: float, Amount: -1000, Memo: "win"})
		}
		ps = append(ps, sabot.Posting{AccountID: house, Amount: -500, Memo: "house"}, sabot.Posting{AccountID: float, Amount: 500, Memo: "house"})
		rec := &sabot.LogRecord{TableID: tbl.ID, Kind: sabot.LogSettle, RoundNo: int64(n), Payload: payload}
		if _, err := s.Append(ctx, &sabot.LogAppend{LogRecord: rec, Users: []int64{1, 2, 3, 4, 5, 6, 7}}, ps); err != nil {
			b.Fatal(err)
		}
	}
	b.ReportMetric(float64(processCPU()-cpu0)/float64(b.N), "cpu-ns/op")
}

// account returns the ID of an account, creating it.
func account(tb testing.TB, s sabot.Store, kind string, owner int64) int64 {
	tb.Helper()
	a, err := s.Account(context.Background(), kind, owner)
	if err != nil {
		tb.Fatal(err)
	}
	return a.ID
}

// code checks an error's code.
func code(tb testing.TB, err error, want string) {
	tb.Helper()
	if got := sabot.ErrorCode(err); got != want {
		tb.Fatalf("error %v: code %q, want %q", err, got, want)
	}
}

// balance returns an account's balance.
func balance(tb testing.TB, s sabot.Store, kind string, owner int64) int64 {
	tb.Helper()
	a, err := s.Account(context.Background(), kind, owner)
	if err != nil {
		tb.Fatal(err)
	}
	return int64(a.Balance)
}

// checkLedger fails the test unless the ledger balances.
func checkLedger(tb testing.TB, s sabot.Store) *sabot.LedgerReport {
	tb.Helper()
	r, err := s.CheckLedger(context.Background())
	if err != nil {
		tb.Fatal(err)
	}
	if !r.OK() {
		tb.Fatalf("the ledger does not balance: total %d, %v", r.Total, r.Problems)
	}
	return r
}

// raw returns the store's Raw, failing the test if it has none.
func raw(tb testing.TB, s sabot.Store) Raw {
	tb.Helper()
	r, ok := s.(Raw)
	if !ok {
		tb.Fatalf("%T does not implement storetest.Raw: the driver's test must give the suite raw access", s)
	}
	return r
}

func must(tb testing.TB, err error) {
	tb.Helper()
	if err != nil {
		tb.Fatal(err)
	}
}

func credit(tb testing.TB, s sabot.Store, wallet, amount int64) {
	tb.Helper()
	house := account(tb, s, sabot.AccountHouse, 0)
	must(tb, s.Transfer(context.Background(), fmt.Sprintf("credit %d", amount),
		[]sabot.Posting{{AccountID: house, Amount: -money.Amount(amount)}, {AccountID: wallet, Amount: money.Amount(amount)}}))
}

// BenchmarkAppendTables measures Append from many tables at once, as a
// server's tables append: each of tables goroutines appends bets to its own
// table, one after the other. It reports appends/s, the latency of an append
// (p50, p99) and, for a store that says (GroupStats), the appends per
// transaction of the group commit, and the processor time per append
// (cpu-ns/op: the whole process's, SQLite's writer included).
func BenchmarkAppendTables(b *testing.B, s sabot.Store, tables int) {
	ctx := context.Background()
	house := account(b, s, sabot.AccountHouse, 0)
	type seat struct{ table, wallet, account int64 }
	seats := make([]seat, tables)
	for i := range seats {
		tbl := &sabot.Table{Name: fmt.Sprint("bench ", i), Profile: "venice"}
		if err := s.CreateTable(ctx, tbl); err != nil {
			b.Fatal(err)
		}
		w := account(b, s, sabot.AccountWallet, int64(i+1))
		if err := s.Transfer(ctx, "credit", []sabot.Posting{{AccountID: house, Amount: -1 << 40}, {AccountID: w, Amount: 1 << 40}}); err != nil {
			b.Fatal(err)
		}
		seats[i] = seat{tbl.ID, w, account(b, s, sabot.AccountTable, tbl.ID)}
	}
	stats, _ := s.(interface{ GroupStats() sqlstore.GroupStats })
	var before sqlstore.GroupStats
	if stats != nil {
		before = stats.GroupStats()
	}
	payload := []byte(`{"box":1,"stake":1000}`)
	var next atomic.Int64
	lat := make([][]time.Duration, tables)
	b.ReportAllocs()
	b.ResetTimer()
	cpu0 := processCPU()
	var wg sync.WaitGroup
	for i := range seats {
		wg.Go(func() {
			st := seats[i]
			for next.Add(1) <= int64(b.N) {
				n := next.Load()
				rec := &sabot.LogRecord{TableID: st.table, Kind: sabot.LogBet, ClientID: "bench", CommandID: strconv.FormatInt(n, 10), UserID: int64(i + 1), Payload: payload}
				t := time.Now()
				if _, err := s.Append(ctx, sabot.Appending(rec), []sabot.Posting{{AccountID: st.wallet, Amount: -1000}, {AccountID: st.account, Amount: 1000}}); err != nil {
					b.Error(err)
					return
				}
				lat[i] = append(lat[i], time.Since(t))
			}
		})
	}
	wg.Wait()
	b.StopTimer()
	b.ReportMetric(float64(processCPU()-cpu0)/float64(b.N), "cpu-ns/op")
	var all []time.Duration
	for _, l := range lat {
		all = append(all, l...)
	}
	slices.Sort(all)
	if n := len(all); n > 0 {
		b.ReportMetric(float64(n)/b.Elapsed().Seconds(), "appends/s")
		b.ReportMetric(float64(all[n/2].Microseconds()), "p50-µs")
		b.ReportMetric(float64(all[min(n-1, n*99/100)].Microseconds()), "p99-µs")
	}
	if stats != nil {
		after := stats.GroupStats()
		if txs := after.Transactions - before.Transactions; txs > 0 {
			b.ReportMetric(float64(after.Appends-before.Appends)/float64(txs), "appends/tx")
		}
	}
}

// FoldedNamesMigration checks migration 004 (names unique as sabot.FoldName
// folds them) on a store made before it that holds names differing only by
// case: db is a fresh store, taken back to before the migration; reopen
// closes it and opens the same database again, which applies it again. Both
// accounts are kept and log in with their own spelling; another spelling
// finds the first registered; no new name may clash with them.
func FoldedNamesMigration(t *testing.T, db sabot.Store, reopen func() sabot.Store) {
	ctx := context.Background()
	raw := db.(Raw)
	for _, q := range []string{
		`DROP INDEX users_name_folded`,
		`ALTER TABLE users DROP COLUMN name_folded`,
		`DELETE FROM schema_migrations WHERE version = 4`,
		`INSERT INTO users (name, password_hash, admin, created) VALUES ('Alice', '', FALSE, 1)`,
		`INSERT INTO users (name, password_hash, admin, created) VALUES ('bob', '', FALSE, 2)`,
		`INSERT INTO users (name, password_hash, admin, created) VALUES ('alice', '', FALSE, 3)`,
		`INSERT INTO users (name, password_hash, admin, created) VALUES ('ALICE', '', FALSE, 4)`,
	} {
		must(t, raw.RawExec(ctx, q))
	}
	s := reopen()
	for name, want := range map[string]string{"Alice": "Alice", "alice": "alice", "ALICE": "ALICE", "aLiCe": "Alice", "BOB": "bob"} {
		u, err := s.UserByName(ctx, name)
		must(t, err)
		if u.Name != want {
			t.Errorf("UserByName(%q) = %q, want %q", name, u.Name, want)
		}
	}
	for _, name := range []string{"aLICE", "Bob"} {
		if err := s.CreateUser(ctx, &sabot.User{Name: name}); sabot.ErrorCode(err) != sabot.ECONFLICT {
			t.Errorf("CreateUser(%q) after the migration: %v, want a conflict", name, err)
		}
	}
	must(t, s.CreateUser(ctx, &sabot.User{Name: "carla"}))
}

// BenchmarkSettleNodes measures settlements from several nodes at once, as
// a cluster's tables settle (no hot row): each of the stores
// (a node each, on one database) serves tables tables, a goroutine each,
// appending settle records one after the other whose postings pay or
// collect a round's net between the table's player's wallet and the house:
// the central house (perTable false: one row every settlement of every
// node locks until its batch commits, as before the split) or the table's
// own (sabot.AccountTableHouse). It reports settles/s and the latency of
// one (p50, p99).
func BenchmarkSettleNodes(b *testing.B, stores []sabot.Store, tables int, perTable bool) {
	ctx := context.Background()
	s0 := stores[0]
	central := account(b, s0, sabot.AccountHouse, 0)
	type seat struct {
		s                    sabot.Store
		table, wallet, house int64
	}
	var seats []seat
	for n, s := range stores {
		for i := range tables {
			tbl := &sabot.Table{Name: fmt.Sprint("bench ", n, " ", i), Profile: "venice"}
			if err := s.CreateTable(ctx, tbl); err != nil {
				b.Fatal(err)
			}
			w := account(b, s, sabot.AccountWallet, int64(len(seats)+1))
			if err := s.Transfer(ctx, "credit", []sabot.Posting{{AccountID: central, Amount: -1 << 40}, {AccountID: w, Amount: 1 << 40}}); err != nil {
				b.Fatal(err)
			}
			h := central
			if perTable {
				h = account(b, s, sabot.AccountTableHouse, tbl.ID)
			}
			seats = append(seats, seat{s, tbl.ID, w, h})
		}
	}
	payload := []byte(`{"round":1}`)
	var next atomic.Int64
	lat := make([][]time.Duration, len(seats))
	b.ReportAllocs()
	b.ResetTimer()
	var wg sync.WaitGroup
	for i := range seats {
		wg.Go(func() {
			st := seats[i]
			for next.Add(1) <= int64(b.N) {
				n := next.Load()
				net := money.Amount(1000)
				if n%2 == 0 {
					net = -net // the house wins one, loses the next
				}
				rec := &sabot.LogRecord{TableID: st.table, Kind: sabot.LogSettle, RoundNo: n, Payload: payload}
				t := time.Now()
				if _, err := st.s.Append(ctx, sabot.Appending(rec), []sabot.Posting{{AccountID: st.wallet, Amount: net}, {AccountID: st.house, Amount: -net}}); err != nil {
					b.Error(err)
					return
				}
				lat[i] = append(lat[i], time.Since(t))
			}
		})
	}
	wg.Wait()
	b.StopTimer()
	var all []time.Duration
	for _, l := range lat {
		all = append(all, l...)
	}
	slices.Sort(all)
	if n := len(all); n > 0 {
		b.ReportMetric(float64(n)/b.Elapsed().Seconds(), "settles/s")
		b.ReportMetric(float64(all[n/2].Microseconds()), "p50-µs")
		b.ReportMetric(float64(all[min(n-1, n*99/100)].Microseconds()), "p99-µs")
	}
}
