package postgres

import (
	"context"
	"fmt"
	"net/url"
	"strings"

	"github.com/jackc/pgx/v5"
	"github.com/jackc/pgx/v5/pgxpool"

	"sabot"
)

// PgBouncer in transaction mode (docs/server.md, "Behind PgBouncer"): a
// server connection is the client's for one transaction only, so that
// nothing of a session may be relied on. Two parameters of the DSN, sabot's
// own (removed before it reaches PgBouncer), say so:
//
//	pgbouncer=transaction   the DSN names a PgBouncer in transaction mode
//	direct=HOST:PORT[,...]  PostgreSQL itself, for the revocations' LISTEN
//	                        (several hosts: the one that can write)
//
// Behind it the store sends no startup parameters (PgBouncer refuses them,
// and a pooled session would not keep them): the session defaults
// (sessionDefaults) must be the server's, set for the role (ALTER ROLE ...
// SET), and Open refuses a server that has not got them. Statements are
// sent unnamed (pgx's exec mode), never prepared on a connection the next
// transaction may not have.

// pooled is what the DSN says of a pooler.
type pooled struct {
	transaction bool
	direct      *pgx.ConnConfig // nil: the pool's own configuration
}

// parseDSN parses a DSN: the pool's configuration with the session
// defaults, and what it says of a pooler.
func parseDSN(dsn string) (*pgxpool.Config, pooled, error) {
	var p pooled
	u, err := url.Parse(dsn)
	if err != nil {
		return nil, p, sabot.Errorf(sabot.EINVALID, "bad PostgreSQL DSN: %v", err)
	}
	q := u.Query()
	mode, direct := q.Get("pgbouncer"), q.Get("direct")
	q.Del("pgbouncer")
	q.Del("direct")
	switch mode {
	case "":
		if direct != "" {
			return nil, p, sabot.Errorf(sabot.EINVALID, "bad PostgreSQL DSN: direct= is for a DSN through PgBouncer (pgbouncer=transaction)")
		}
		cfg, err := poolConfig(dsn)
		return cfg, p, err
	case "transaction", "session":
	default:
		return nil, p, sabot.Errorf(sabot.EINVALID, "bad PostgreSQL DSN: pgbouncer=%q: give transaction (or session)", mode)
	}
	u.RawQuery = q.Encode()
	cfg, err := pgxpool.ParseConfig(u.String())
	if err != nil {
		return nil, p, sabot.Errorf(sabot.EINVALID, "bad PostgreSQL DSN: %v", err)
	}
	if mode == "session" {
		// A session pooler keeps a session: the defaults go as usual.
		for k, v := range sessionDefaults {
			if _, ok := cfg.ConnConfig.RuntimeParams[k]; !ok {
				cfg.ConnConfig.RuntimeParams[k] = v
			}
		}
	} else {
		p.transaction = true
		cfg.ConnConfig.DefaultQueryExecMode = pgx.QueryExecModeExec
		for k := range sessionDefaults {
			if _, ok := cfg.ConnConfig.RuntimeParams[k]; ok {
				return nil, p, sabot.Errorf(sabot.EINVALID, "bad PostgreSQL DSN: %s cannot go through PgBouncer in transaction mode: set it for the role (ALTER ROLE ... SET %s = ...)", k, k)
			}
		}
	}
	if direct != "" {
		d := *u
		d.Host = direct
		dq := d.Query()
		if strings.Contains(direct, ",") && dq.Get("target_session_attrs") == "" {
			dq.Set("target_session_attrs", "read-write") // NOTIFY is the primary's
		}
		d.RawQuery = dq.Encode()
		dc, err := pgx.ParseConfig(d.String())
		if err != nil {
			return nil, p, sabot.Errorf(sabot.EINVALID, "bad PostgreSQL DSN: direct=%q: %v", direct, err)
		}
		for k, v := range sessionDefaults {
			if _, ok := dc.RuntimeParams[k]; !ok {
				dc.RuntimeParams[k] = v
			}
		}
		p.direct = dc
	} else if p.transaction {
		return nil, p, sabot.Errorf(sabot.EINVALID, "bad PostgreSQL DSN: through PgBouncer in transaction mode give direct=HOST:PORT, PostgreSQL itself, for the revocations' LISTEN")
	}
	return cfg, p, nil
}

// checkPooledDefaults refuses a server behind a transaction pooler whose
// sessions start without the store's defaults: a paused node's
// transaction would hold its locks as long as it sleeps.
func checkPooledDefaults(ctx context.Context, pool *pgxpool.Pool) error {
	for k := range sessionDefaults {
		var v string
		if err := pool.QueryRow(ctx, `SELECT current_setting($1)`, k).Scan(&v); err != nil {
			return sabot.Internal(fmt.Errorf("postgres: %w", err))
		}
		if v == "0" || v == "" {
			return sabot.Errorf(sabot.EINVALID, "behind PgBouncer in transaction mode the server must set %s for sabot's role (a pooled session cannot): ALTER ROLE %s SET idle_in_transaction_session_timeout = 2000; ALTER ROLE %s SET lock_timeout = 5000", k, pool.Config().ConnConfig.User, pool.Config().ConnConfig.User)
		}
	}
	return nil
}
