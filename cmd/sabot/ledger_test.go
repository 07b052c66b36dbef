package main

import (
	"context"
	"database/sql"
	"path/filepath"
	"strings"
	"testing"

	"github.com/jackc/pgx/v5"
	_ "modernc.org/sqlite"

	"sabot"
	"sabot/internal/store"
	"sabot/internal/store/storetest"
)

// ledgerDB makes a store with a credit and a bet in it, closed again.
func ledgerDB(t *testing.T, dsn string) {
	t.Helper()
	ctx := context.Background()
	s, err := store.Open(ctx, dsn)
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	tbl := &sabot.Table{Name: "t", Profile: "venice"}
	house, _ := s.Account(ctx, sabot.AccountHouse, 0)
	wallet, _ := s.Account(ctx, sabot.AccountWallet, 1)
	if err := s.CreateTable(ctx, tbl); err != nil {
		t.Fatal(err)
	}
	table, _ := s.Account(ctx, sabot.AccountTable, tbl.ID)
	if err := s.Transfer(ctx, "credit", []sabot.Posting{{AccountID: house.ID, Amount: -1000}, {AccountID: wallet.ID, Amount: 1000}}); err != nil {
		t.Fatal(err)
	}
	if _, err := s.Append(ctx, sabot.Appending(&sabot.LogRecord{TableID: tbl.ID, Kind: sabot.LogBet}),
		[]sabot.Posting{{AccountID: wallet.ID, Amount: -100}, {AccountID: table.ID, Amount: 100}}); err != nil {
		t.Fatal(err)
	}
}

func TestLedgerCheck(t *testing.T) {
	t.Parallel()
	path := filepath.Join(t.TempDir(), "sabot.db")
	ledgerDB(t, path)
	stdout, stderr, code := run(t, "", "ledger", "check", "--db", path)
	if code != 0 || stderr != "" || stdout != "the ledger balances: 3 accounts, 2 transactions, 4 entries, total 0\nthe house: -1000 (the central account and 0 table accounts)\n" {
		t.Fatalf("exit %d\nstdout %q\nstderr %q", code, stdout, stderr)
	}

	// A balance changed behind the store's back.
	db, err := sql.Open("sqlite", path)
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	if _, err := db.Exec(`UPDATE accounts SET balance = balance + 7 WHERE kind = 'wallet'`); err != nil {
		t.Fatal(err)
	}
	stdout, stderr, code = run(t, "", "ledger", "check", "--db", path)
	if code != 1 || !strings.HasPrefix(stdout, "the ledger does NOT balance") ||
		!strings.Contains(stdout, "balance 907, its entries sum to 900") || !strings.Contains(stderr, "2 problems") {
		t.Fatalf("exit %d\nstdout %q\nstderr %q", code, stdout, stderr)
	}
}

// A balance SQLite turned into a REAL when a sum
// overflowed (as a database written before the bound of amounts may hold:
// its triggers are dropped here) is reported with its account, and the
// check exits 1; it does not die on "integer overflow".
func TestLedgerCheckOverflowedBalance(t *testing.T) {
	t.Parallel()
	path := filepath.Join(t.TempDir(), "sabot.db")
	ledgerDB(t, path)
	db, err := sql.Open("sqlite", path)
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	for _, q := range []string{
		`DROP TRIGGER accounts_balance_bound_update`,
		`UPDATE accounts SET balance = balance + 9223372036854775807 WHERE kind = 'wallet'`,
	} {
		if _, err := db.Exec(q); err != nil {
			t.Fatalf("%s: %v", q, err)
		}
	}
	var kind string
	if err := db.QueryRow(`SELECT typeof(balance) FROM accounts WHERE kind = 'wallet'`).Scan(&kind); err != nil || kind != "real" {
		t.Fatalf("the wallet's balance is %q (%v), want a REAL", kind, err)
	}
	stdout, stderr, code := run(t, "", "ledger", "check", "--db", path)
	if code != 1 || !strings.HasPrefix(stdout, "the ledger does NOT balance: 3 accounts, 2 transactions, 4 entries") ||
		!strings.Contains(stdout, "account 2 (wallet of 1): balance 9.22337203685477") ||
		strings.Contains(stderr, "overflow") || !strings.Contains(stderr, "problems") {
		t.Fatalf("exit %d\nstdout %q\nstderr %q", code, stdout, stderr)
	}
}

// The same on PostgreSQL: a balance beyond the bound (its constraint
// dropped, as before migration 007) is reported with its account.
func TestLedgerCheckOutOfRangePostgres(t *testing.T) {
	t.Parallel()
	dsn := storetest.PostgresDSN(t)
	ledgerDB(t, dsn)
	ctx := context.Background()
	conn, err := pgx.Connect(ctx, dsn)
	if err != nil {
		t.Fatal(err)
	}
	defer conn.Close(ctx)
	if _, err := conn.Exec(ctx, `ALTER TABLE accounts DROP CONSTRAINT accounts_balance_bound;
		UPDATE accounts SET balance = 9223372036854775807 WHERE kind = 'wallet'`); err != nil {
		t.Fatal(err)
	}
	stdout, stderr, code := run(t, "", "ledger", "check", "--db", dsn)
	if code != 1 || !strings.HasPrefix(stdout, "the ledger does NOT balance: 3 accounts") ||
		!strings.Contains(stdout, "(wallet of 1): balance 9223372036854775807 is not an amount") || strings.Contains(stderr, "out of range") {
		t.Fatalf("exit %d\nstdout %q\nstderr %q", code, stdout, stderr)
	}
}

func TestLedgerCheckPostgres(t *testing.T) {
	t.Parallel()
	dsn := storetest.PostgresDSN(t)
	ledgerDB(t, dsn)
	stdout, stderr, code := run(t, "", "ledger", "check", "--db", dsn)
	if code != 0 || !strings.HasPrefix(stdout, "the ledger balances: 3 accounts") {
		t.Fatalf("exit %d\nstdout %q\nstderr %q", code, stdout, stderr)
	}
}

func TestLedgerCheckRefused(t *testing.T) {
	dir := t.TempDir()
	missing := filepath.Join(dir, "none.db")
	for _, args := range [][]string{
		{"ledger", "check", "--db", missing},
		{"ledger", "check", "--db", "postgres://sabot@localhost:notaport/db"},
		{"ledger", "check", "extra"},
	} {
		stdout, stderr, code := run(t, "", args...)
		if code != 2 || stdout != "" || strings.Count(strings.TrimSpace(stderr), "\n") != 0 || stderr == "" {
			t.Errorf("%q: want exit 2 and one line on stderr; got %d %q %q", args, code, stdout, stderr)
		}
	}
	if m, _ := filepath.Glob(filepath.Join(dir, "*")); len(m) != 0 {
		t.Fatalf("checking a missing database created %v", m)
	}
	// The default is the file serve uses, in the current directory.
	t.Chdir(dir)
	_, stderr, code := run(t, "", "ledger", "check")
	if code != 2 || !strings.Contains(stderr, store.DefaultDSN) {
		t.Fatalf("no sabot.db here: exit %d, %q", code, stderr)
	}
}

func TestLedgerCheckNoServer(t *testing.T) {
	t.Parallel()
	_, stderr, code := run(t, "", "ledger", "check", "--db", "postgres://sabot@127.0.0.1:1/db?connect_timeout=2")
	if code != 1 || !strings.HasPrefix(stderr, "cannot open the store") || strings.Count(stderr, "\n") != 1 {
		t.Fatalf("exit %d, %q", code, stderr)
	}
}
