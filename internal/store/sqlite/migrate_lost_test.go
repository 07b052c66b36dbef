package sqlite

import (
	"context"
	"database/sql"
	"path/filepath"
	"testing"

	"sabot"
	"sabot/internal/store/sqlstore"
)

// lostConn is a Conn whose transactions fail as lost before their commit
// (EUNAVAILABLE, what PostgreSQL's ending an idle transaction under CPU
// starvation is answered) the first `lose` times, or with another error.
type lostConn struct {
	*conn
	lose  int
	err   error
	tries int
}

func (c *lostConn) InTx(ctx context.Context, readOnly bool, fn func(sqlstore.Tx) error) error {
	c.tries++
	if c.lose > 0 {
		c.lose--
		return c.err
	}
	return c.conn.InTx(ctx, readOnly, fn)
}

// A migration whose transaction was lost before its commit is tried again
// (it applies whole or not at all), a bounded number of times; another
// error is not (TestLedgerCheckPostgres failed on opening the store at a
// load of 35-69: "migration 016_transactions_log.sql: transaction lost
// before its commit").
func TestMigrationLostBeforeCommitTriedAgain(t *testing.T) {
	open := func(t *testing.T) *conn {
		sdb, err := sql.Open("sqlite", filepath.Join(t.TempDir(), "m.db"))
		if err != nil {
			t.Fatal(err)
		}
		sdb.SetMaxOpenConns(1)
		t.Cleanup(func() { sdb.Close() })
		return &conn{db: sdb, writer: make(chan struct{}, 1), stmts: map[string]*sql.Stmt{}, preparing: map[string]bool{}}
	}
	ctx := context.Background()
	lost := sabot.Errorf(sabot.EUNAVAILABLE, "transaction lost before its commit")
	var want int
	{
		c := open(t)
		if err := sqlstore.Migrate(ctx, c, migrations, "migrations", ""); err != nil {
			t.Fatal(err)
		}
		if err := c.db.QueryRow(`SELECT COUNT(*) FROM schema_migrations`).Scan(&want); err != nil || want == 0 {
			t.Fatalf("%d migrations: %v", want, err)
		}
	}
	c := &lostConn{conn: open(t), lose: 2, err: lost}
	if err := sqlstore.Migrate(ctx, c, migrations, "migrations", ""); err != nil {
		t.Fatalf("two transactions lost: %v", err)
	}
	var n int
	if err := c.db.QueryRow(`SELECT COUNT(*) FROM schema_migrations`).Scan(&n); err != nil || n != want {
		t.Fatalf("%d of %d migrations applied: %v", n, want, err)
	}
	if c.tries != want+2 {
		t.Errorf("%d transactions for %d migrations and 2 lost", c.tries, want)
	}
	c = &lostConn{conn: open(t), lose: 100, err: lost}
	if err := sqlstore.Migrate(ctx, c, migrations, "migrations", ""); sabot.ErrorCode(err) != sabot.EUNAVAILABLE || c.tries != 3 {
		t.Errorf("every transaction lost: %d tries, %v; want 3 and unavailable", c.tries, err)
	}
	c = &lostConn{conn: open(t), lose: 1, err: sabot.Errorf(sabot.EINVALID, "a bad migration")}
	if err := sqlstore.Migrate(ctx, c, migrations, "migrations", ""); err == nil || c.tries != 1 {
		t.Errorf("another error: %d tries, %v; want 1 and the error", c.tries, err)
	}
}
