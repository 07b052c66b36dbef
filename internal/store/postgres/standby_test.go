package postgres_test

import (
	"context"
	"crypto/rand"
	"encoding/hex"
	"net/url"
	"os"
	"strconv"
	"strings"
	"testing"

	"github.com/jackc/pgx/v5"

	"sabot"
	"sabot/internal/store/postgres"
	"sabot/internal/store/storetest"
)

// The tests on a primary and its hot standby: $SABOT_TEST_HA_PRIMARY and
// $SABOT_TEST_HA_STANDBY, as scripts/pg-ha.sh prints them (.ci/run starts
// it); without them the tests skip, or fail in CI.
func haDSNs(t *testing.T) (primary, standby string) {
	t.Helper()
	primary, standby = os.Getenv("SABOT_TEST_HA_PRIMARY"), os.Getenv("SABOT_TEST_HA_STANDBY")
	if primary == "" || standby == "" {
		if ci, _ := strconv.ParseBool(os.Getenv("CI")); ci {
			t.Fatal("SABOT_TEST_HA_PRIMARY and SABOT_TEST_HA_STANDBY are not set: CI runs the standby's tests (.ci/run starts scripts/pg-ha.sh)")
		}
		t.Skip("SABOT_TEST_HA_PRIMARY and SABOT_TEST_HA_STANDBY are not set (scripts/pg-ha.sh start prints them)")
	}
	return primary, standby
}

// haSchema makes a schema on the primary, dropped when the test ends, and
// returns both DSNs in it; the primary's commits wait until the standby has
// applied them (synchronous_commit=remote_apply), so that what the primary
// wrote is on the standby when the write returns.
func haSchema(t *testing.T) (primary, standby string) {
	t.Helper()
	primary, standby = haDSNs(t)
	ctx := context.Background()
	admin, err := pgx.Connect(ctx, primary)
	if err != nil {
		t.Fatalf("SABOT_TEST_HA_PRIMARY: %v", err)
	}
	var b [6]byte
	rand.Read(b[:])
	schema := "sabot_test_" + hex.EncodeToString(b[:])
	if _, err := admin.Exec(ctx, "CREATE SCHEMA "+schema); err != nil {
		admin.Close(ctx)
		t.Fatal(err)
	}
	t.Cleanup(func() {
		defer admin.Close(ctx)
		admin.Exec(ctx, "DROP SCHEMA "+schema+" CASCADE")
	})
	in := func(dsn string, extra ...string) string {
		u, err := url.Parse(dsn)
		if err != nil {
			t.Fatal(err)
		}
		q := u.Query()
		q.Set("search_path", schema)
		for i := 0; i+1 < len(extra); i += 2 {
			q.Set(extra[i], extra[i+1])
		}
		u.RawQuery = q.Encode()
		return u.String()
	}
	return in(primary, "synchronous_commit", "remote_apply"), in(standby)
}

// openRead opens a store as store.OpenRead does (the read-only commands),
// or as store.OpenReadOnly does (readOnly: sabot serve --reports-db), or
// as store.Open does (neither).
func openRead(ctx context.Context, dsn string, onStandby, readOnly bool) (*postgres.DB, error) {
	db := postgres.NewDB(dsn)
	db.Now = storetest.Now
	db.ReadOnlyOnStandby, db.ReadOnly = onStandby, readOnly
	if err := db.Open(ctx); err != nil {
		return nil, err
	}
	return db, nil
}

// A hot standby opens for the read-only commands: the migrations checked,
// not applied; what the primary wrote is read there; a write is refused
// (EUNAVAILABLE) before it reaches the server.
func TestStandbyOpensReadOnly(t *testing.T) {
	primary, standby := haSchema(t)
	ctx := context.Background()
	p := mustOpenDSN(t, primary)
	u := &sabot.User{Name: "alice", PasswordHash: []byte("x")}
	if err := p.CreateUser(ctx, u); err != nil {
		t.Fatal(err)
	}
	if _, err := p.Account(ctx, sabot.AccountWallet, u.ID); err != nil {
		t.Fatal(err)
	}

	// What the read-only commands did before: a read-write open, refused.
	if st, err := openRead(ctx, standby, false, false); err == nil {
		st.Close()
		t.Fatal("store.Open on a hot standby: want the migrations' read-write transaction refused")
	}
	st, err := openRead(ctx, standby, true, false)
	if err != nil {
		t.Fatalf("store.OpenRead on a hot standby: %v", err)
	}
	defer st.Close()
	if !st.IsReadOnly() {
		t.Error("store.OpenRead on a hot standby: want it read-only")
	}
	got, err := st.UserByName(ctx, "alice")
	if err != nil || got.ID != u.ID {
		t.Fatalf("the standby's alice: %+v, %v; want id %d", got, err, u.ID)
	}
	r, err := st.CheckLedger(ctx)
	if err != nil || !r.OK() || r.Accounts < 1 {
		t.Fatalf("ledger check on the standby: %+v, %v", r, err)
	}
	err = st.CreateUser(ctx, &sabot.User{Name: "bob", PasswordHash: []byte("x")})
	if sabot.ErrorCode(err) != sabot.EUNAVAILABLE || !strings.Contains(sabot.ErrorMessage(err), "read-only") {
		t.Fatalf("a write on the standby: %v; want EUNAVAILABLE, read-only", err)
	}

	// On the primary, OpenRead opens read-write as Open does.
	pr, err := openRead(ctx, primary, true, false)
	if err != nil {
		t.Fatal(err)
	}
	defer pr.Close()
	if pr.IsReadOnly() {
		t.Error("store.OpenRead on the primary: want it read-write")
	}
}

// A standby whose schema is behind the code's is refused with one clear
// line: the migration it is at and the ones it lacks; it is not migrated.
func TestStandbyBehindTheSchemaIsRefused(t *testing.T) {
	primary, standby := haSchema(t)
	ctx := context.Background()
	old := postgres.NewDB(primary)
	old.Now = storetest.Now
	postgres.MigrateTo(old, 15)
	if err := old.Open(ctx); err != nil {
		t.Fatal(err)
	}
	old.Close()
	_, err := openRead(ctx, standby, true, false)
	if sabot.ErrorCode(err) != sabot.EUNAVAILABLE {
		t.Fatalf("OpenRead on a standby at migration 15: %v; want EUNAVAILABLE", err)
	}
	msg := sabot.ErrorMessage(err)
	for _, want := range []string{"behind", "at migration 15", "016_transactions_log", "017_rollups"} {
		if !strings.Contains(msg, want) {
			t.Errorf("the refusal %q does not say %q", msg, want)
		}
	}
}

// The read-only open of a primary (sabot serve --reports-db) never
// migrates: a schema behind is refused there too.
func TestReadOnlyOpenNeverMigrates(t *testing.T) {
	primary, _ := haSchema(t)
	ctx := context.Background()
	if _, err := openRead(ctx, primary, false, true); sabot.ErrorCode(err) != sabot.EUNAVAILABLE {
		t.Fatalf("OpenReadOnly on an empty schema: %v; want EUNAVAILABLE (nothing to read, nothing migrated)", err)
	}
	raw, err := pgx.Connect(ctx, primary)
	if err != nil {
		t.Fatal(err)
	}
	defer raw.Close(ctx)
	var n int
	if err := raw.QueryRow(ctx, `SELECT COUNT(*) FROM information_schema.tables WHERE table_schema = current_schema()`).Scan(&n); err != nil || n != 0 {
		t.Fatalf("tables made by a read-only open: %d, %v; want none", n, err)
	}
}
