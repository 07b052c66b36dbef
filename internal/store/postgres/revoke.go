package postgres

import (
	"context"
	"encoding/json"
	"fmt"
	"strings"
	"time"

	"github.com/jackc/pgx/v5"

	"sabot"
)

// Revocations between the nodes of one database (sabot.Revoker):
// NOTIFY on one channel, each payload prefixed with the schema that made it
// (a channel is the database's, and two stores may share a database in two
// schemas); every node LISTENs on a connection of its own.

var _ sabot.Revoker = (*DB)(nil)

const revokeChannel = "sabot_revocations"

// Revoke notifies every node listening on the store's schema.
func (db *DB) Revoke(ctx context.Context, r sabot.Revocation) error {
	b, err := json.Marshal(r)
	if err != nil {
		return sabot.Internal(err)
	}
	if _, err := db.pool.Exec(ctx, `SELECT pg_notify($1, current_schema() || ' ' || $2)`, revokeChannel, string(b)); err != nil {
		return sabot.Internal(fmt.Errorf("postgres: notify: %w", err))
	}
	return nil
}

// WatchRevocations listens until ctx ends; a broken connection is opened
// again, after which fn is told to check everything (Revocation{}).
func (db *DB) WatchRevocations(ctx context.Context, fn func(sabot.Revocation)) error {
	for first := true; ; first = false {
		err := db.listen(ctx, fn, !first)
		if ctx.Err() != nil {
			return nil
		}
		if err != nil {
			select {
			case <-ctx.Done():
				return nil
			case <-time.After(time.Second):
			}
		}
	}
}

func (db *DB) listen(ctx context.Context, fn func(sabot.Revocation), again bool) error {
	// A listening connection is nobody else's, and a session's: straight
	// to PostgreSQL, never through a pooler in transaction mode.
	c, err := pgx.ConnectConfig(ctx, db.direct)
	if err != nil {
		return err
	}
	defer c.Close(context.Background())
	var schema string
	if err := c.QueryRow(ctx, `SELECT current_schema()`).Scan(&schema); err != nil {
		return err
	}
	if _, err := c.Exec(ctx, `LISTEN `+revokeChannel); err != nil {
		return err
	}
	if again {
		fn(sabot.Revocation{}) // some may have been missed
	}
	for {
		n, err := c.WaitForNotification(ctx)
		if err != nil {
			return err
		}
		body, ok := strings.CutPrefix(n.Payload, schema+" ")
		if !ok {
			continue // another schema's
		}
		var r sabot.Revocation
		if json.Unmarshal([]byte(body), &r) == nil {
			fn(r)
		}
	}
}
