package postgres_test

import (
	"context"
	"net/url"
	"os"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/jackc/pgx/v5"
	"github.com/jackc/pgx/v5/pgxpool"

	"sabot"
	"sabot/internal/store/postgres"
	"sabot/internal/store/storetest"
)

// bouncerDSN is $SABOT_TEST_HA_BOUNCER (a PgBouncer in transaction mode in
// front of $SABOT_TEST_HA_PRIMARY's database, as scripts/pg-ha.sh starts
// it) with sabot's parameters for it, and a connection to the database
// itself whose public schema — the store's behind PgBouncer, which passes
// no search_path — it empties now and when the test ends; and that
// connection's DSN (the suite's raw access).
func bouncerDSN(t *testing.T) (bouncer, direct string) {
	t.Helper()
	primary, _ := haDSNs(t)
	bouncer = os.Getenv("SABOT_TEST_HA_BOUNCER")
	if bouncer == "" {
		if ci, _ := strconv.ParseBool(os.Getenv("CI")); ci {
			t.Fatal("SABOT_TEST_HA_BOUNCER is not set: CI runs the store behind PgBouncer (.ci/run starts scripts/pg-ha.sh)")
		}
		t.Skip("SABOT_TEST_HA_BOUNCER is not set (scripts/pg-ha.sh start prints it)")
	}
	ctx := context.Background()
	admin, err := pgx.Connect(ctx, primary)
	if err != nil {
		t.Fatal(err)
	}
	empty := func() {
		if _, err := admin.Exec(ctx, `DROP SCHEMA public CASCADE; CREATE SCHEMA public`); err != nil {
			t.Fatal(err)
		}
	}
	empty()
	t.Cleanup(func() { empty(); admin.Close(ctx) })
	p, _ := url.Parse(primary)
	u, err := url.Parse(bouncer)
	if err != nil {
		t.Fatal(err)
	}
	q := u.Query()
	q.Set("pgbouncer", "transaction")
	q.Set("direct", p.Host)
	u.RawQuery = q.Encode()
	return u.String(), primary
}

// The store suite behind PgBouncer in transaction mode: every statement
// unprepared, no startup parameter sent, the session defaults the role's.
func TestStoreBehindPgBouncer(t *testing.T) {
	storetest.Run(t, func(t *testing.T) sabot.Store {
		dsn, direct := bouncerDSN(t)
		db := postgres.NewDB(dsn)
		db.Now = storetest.Now
		if err := db.Open(context.Background()); err != nil {
			t.Fatal(err)
		}
		raw, err := pgxpool.New(context.Background(), direct)
		if err != nil {
			t.Fatal(err)
		}
		t.Cleanup(func() { raw.Close(); db.Close() })
		return &DB{db, raw}
	})
}

// Behind PgBouncer the revocations' LISTEN is on a connection to
// PostgreSQL itself (direct=): a NOTIFY sent through PgBouncer by one node
// reaches another's listener; the session defaults hold in the store's
// transactions (the role's, since PgBouncer passes none).
func TestRevocationsBehindPgBouncer(t *testing.T) {
	dsn, _ := bouncerDSN(t)
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	open := func() *postgres.DB {
		db := postgres.NewDB(dsn)
		db.Now = storetest.Now
		if err := db.Open(ctx); err != nil {
			t.Fatal(err)
		}
		t.Cleanup(func() { db.Close() })
		return db
	}
	a, b := open(), open()
	got := make(chan sabot.Revocation, 8)
	go b.WatchRevocations(ctx, func(r sabot.Revocation) { got <- r })
	// The listener is up once a check-everything revocation or our own
	// arrives; send until ours does.
	tick := time.NewTicker(50 * time.Millisecond)
	defer tick.Stop()
	for {
		if err := a.Revoke(ctx, sabot.Revocation{UserID: 7, Origin: "a"}); err != nil {
			t.Fatal(err)
		}
		select {
		case r := <-got:
			if r.UserID == 7 && r.Origin == "a" {
				return
			}
		case <-tick.C:
		case <-ctx.Done():
			t.Fatal("no revocation reached the other node's listener behind PgBouncer")
		}
	}
}

// Behind PgBouncer in transaction mode a DSN must name the direct
// connection, may not carry the session parameters (PgBouncer refuses
// them), and a server whose role lacks the session defaults is refused:
// a paused node's locks would otherwise be held as long as it sleeps.
func TestPgBouncerDSNRefused(t *testing.T) {
	ctx := context.Background()
	for _, dsn := range []string{
		"postgres://u@h/db?pgbouncer=transaction",
		"postgres://u@h/db?pgbouncer=transaction&direct=h:5432&lock_timeout=100",
		"postgres://u@h/db?pgbouncer=statement&direct=h:5432",
		"postgres://u@h/db?direct=h:5432",
	} {
		err := postgres.NewDB(dsn).Open(ctx)
		if sabot.ErrorCode(err) != sabot.EINVALID {
			t.Errorf("%s: %v; want EINVALID", dsn, err)
		}
	}
	// The CI's server: its role has no defaults of its own.
	dsn := storetest.PostgresDSN(t)
	u, _ := url.Parse(dsn)
	q := u.Query()
	q.Set("pgbouncer", "transaction")
	q.Set("direct", u.Host)
	u.RawQuery = q.Encode()
	err := postgres.NewDB(u.String()).Open(ctx)
	if sabot.ErrorCode(err) != sabot.EINVALID || !strings.Contains(sabot.ErrorMessage(err), "ALTER ROLE") {
		t.Fatalf("a server without the role's session defaults behind PgBouncer: %v; want EINVALID naming ALTER ROLE", err)
	}
}
