package postgres_test

import (
	"context"
	"crypto/rand"
	"encoding/hex"
	"errors"
	"net/url"
	"strconv"
	"testing"
	"time"

	"sabot"
	"sabot/internal/store/postgres"
	"sabot/internal/store/sqlstore"
	"sabot/internal/store/storetest"
	"sabot/internal/testwait"
)

// A transaction whose connection the server ended (a primary restarted or
// replaced, a session ended by pg_terminate_backend or after it idled) is
// tried once more on another connection: the write and the append after
// every connection of the store was cut succeed, and the ledger balances.
func TestLostConnectionRetriedOnce(t *testing.T) {
	ctx := context.Background()
	dsn := storetest.PostgresDSN(t)
	u, _ := url.Parse(dsn)
	var b [4]byte
	rand.Read(b[:])
	app := "sabot-lost-" + hex.EncodeToString(b[:])
	q := u.Query()
	q.Set("application_name", app)
	u.RawQuery = q.Encode()
	db := mustOpenDSN(t, u.String())
	admin := mustOpenDSN(t, dsn) // not cut
	cut := func() {
		t.Helper()
		if err := admin.RawExec(ctx, `SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE application_name = $1`, app); err != nil {
			t.Fatal(err)
		}
	}
	tbl := &sabot.Table{Name: "t", Profile: "venice"}
	if err := db.CreateTable(ctx, tbl); err != nil {
		t.Fatal(err)
	}
	house, err := db.Account(ctx, sabot.AccountHouse, 0)
	if err != nil {
		t.Fatal(err)
	}
	table, err := db.Account(ctx, sabot.AccountTable, tbl.ID)
	if err != nil {
		t.Fatal(err)
	}
	for i := range 3 {
		cut()
		if err := db.CreateUser(ctx, &sabot.User{Name: "p" + strconv.Itoa(i), PasswordHash: []byte("x")}); err != nil {
			t.Fatalf("a write after the store's connections were cut: %v", err)
		}
		cut()
		rec := &sabot.LogRecord{TableID: tbl.ID, Kind: sabot.LogBet, ClientID: "c", CommandID: strconv.Itoa(i), UserID: 1, Payload: []byte(`{}`)}
		if _, err := db.Append(ctx, sabot.Appending(rec), []sabot.Posting{{AccountID: house.ID, Amount: -100}, {AccountID: table.ID, Amount: 100}}); err != nil {
			t.Fatalf("an append after the store's connections were cut: %v", err)
		}
	}
	r, err := db.CheckLedger(ctx)
	if err != nil || !r.OK() {
		t.Fatalf("ledger: %+v, %v", r, err)
	}
	if n, err := db.RawInt64(ctx, `SELECT COUNT(*) FROM log WHERE table_id = $1`, tbl.ID); err != nil || n != 3 {
		t.Fatalf("log records: %d, %v; want 3, each once", n, err)
	}
}

// A transaction the server ended after it idled (SQLSTATE 25P03, as under
// CPU starvation) is EUNAVAILABLE with a retry hint (503), never EINTERNAL,
// and ErrLost: the store tries it once more.
func TestLostIsUnavailable(t *testing.T) {
	ctx := context.Background()
	dsn := storetest.PostgresDSN(t)
	db, other := mustOpenDSN(t, dsn), mustOpenDSN(t, dsn)
	err := postgres.InTx(db.DB, ctx, func(tx sqlstore.Tx) error {
		if _, err := tx.Exec(ctx, `SET LOCAL idle_in_transaction_session_timeout = 50`); err != nil {
			return err
		}
		var pid int64
		if err := tx.QueryRow(ctx, `SELECT pg_backend_pid()`).Scan(&pid); err != nil {
			return err
		}
		// Idle in the transaction until the server has ended its session
		// (past its 50 ms), seen from another connection.
		testwait.Until(t, 10*time.Second, "the idle transaction's session ended by the server", func() bool {
			n, err := other.RawInt64(ctx, `SELECT COUNT(*) FROM pg_stat_activity WHERE pid = $1`, pid)
			return err == nil && n == 0
		})
		_, err := tx.Exec(ctx, `SELECT 1`)
		return err
	})
	if sabot.ErrorCode(err) != sabot.EUNAVAILABLE || !errors.Is(err, sqlstore.ErrLost) {
		t.Fatalf("a transaction the server ended after it idled (25P03): %v; want EUNAVAILABLE, ErrLost", err)
	}
	var e *sabot.Error
	if !errors.As(err, &e) || e.RetryAfter <= 0 {
		t.Fatalf("%v: want a retry hint", err)
	}
}
