package sqlstore

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"slices"
	"strings"
	"time"

	"sabot"
)

// CreateTable inserts t, setting its ID and Created.
func (s *Store) CreateTable(ctx context.Context, t *sabot.Table) error {
	opts := t.Options
	if opts == nil {
		opts = map[string]string{}
	}
	data, err := json.Marshal(opts)
	if err != nil {
		return sabot.Internal(err)
	}
	created := s.clock(t.Created)
	var id int64
	err = s.write(ctx, func(tx Tx) error {
		if t.Owner != "" { // the creating node's at once, at epoch 1 (cluster.go)
			return tx.QueryRow(ctx, `INSERT INTO tables (name, profile, options, test_mode, created, last_seq, owner, epoch)
				VALUES ($1, $2, $3, $4, $5, 0, $6, 1) RETURNING id`,
				t.Name, t.Profile, string(data), t.TestMode, stamp(created), t.Owner).Scan(&id)
		}
		return tx.QueryRow(ctx, `INSERT INTO tables (name, profile, options, test_mode, created, last_seq)
			VALUES ($1, $2, $3, $4, $5, 0) RETURNING id`,
			t.Name, t.Profile, string(data), t.TestMode, stamp(created)).Scan(&id)
	})
	if err != nil {
		return fail(err)
	}
	t.ID, t.Created = id, created
	return nil
}

const tableColumns = `id, name, profile, options, test_mode, created`

// Tables returns every table, in the order they were created.
func (s *Store) Tables(ctx context.Context) ([]*sabot.Table, error) {
	var ts []*sabot.Table
	err := s.read(ctx, func(tx Tx) error {
		rows, err := tx.Query(ctx, `SELECT `+tableColumns+` FROM tables ORDER BY id`)
		if err != nil {
			return err
		}
		defer rows.Close()
		for rows.Next() {
			t, err := scanTable(rows)
			if err != nil {
				return err
			}
			ts = append(ts, t)
		}
		return rows.Err()
	})
	if err != nil {
		return nil, fail(err)
	}
	return ts, nil
}

// TableByID returns a table; ENOTFOUND if there is none.
func (s *Store) TableByID(ctx context.Context, id int64) (*sabot.Table, error) {
	var t *sabot.Table
	err := s.read(ctx, func(tx Tx) (err error) {
		t, err = scanTable(tx.QueryRow(ctx, `SELECT `+tableColumns+` FROM tables WHERE id = $1`, id))
		return err
	})
	if noRows(err) {
		return nil, sabot.Errorf(sabot.ENOTFOUND, "no table %d", id)
	} else if err != nil {
		return nil, fail(err)
	}
	return t, nil
}

func scanTable(row Row) (*sabot.Table, error) {
	var t sabot.Table
	var opts string
	var created int64
	if err := row.Scan(&t.ID, &t.Name, &t.Profile, &opts, &t.TestMode, &created); err != nil {
		return nil, err
	}
	if err := json.Unmarshal([]byte(opts), &t.Options); err != nil {
		return nil, err
	}
	if len(t.Options) == 0 {
		t.Options = nil
	}
	t.Created = unstamp(created)
	return &t, nil
}

// errDup ends an append when its command is already in the log.
var errDup = errors.New("duplicate command")

// Append writes a log record and its postings in one transaction, shared
// with the appends of other tables that are ready at the same moment (group
// commit, group.go); it returns when that transaction has committed.
//
// The next Seq is taken by incrementing the table's last_seq, which locks the
// table's row until the transaction ends: appends to one table are
// serialized, and an append that fails gives its Seq back with its rollback
// (to its savepoint in a batch), so the log has no gaps. A command already
// in the log (even one committed a moment ago by a concurrent duplicate, or
// written earlier in the same batch) is found by the partial unique index on
// (table_id, client_id, command_id) when the record is inserted: the insert
// does nothing, the append is rolled back with nothing written, and rec is
// filled from the first record, read once the append's transaction is over.
func (s *Store) Append(ctx context.Context, rec *sabot.LogAppend, postings []sabot.Posting) (dup bool, err error) {
	p, err := s.prepare(rec, postings)
	if err != nil {
		return false, err
	}
	if err := s.submit(ctx, p); err != nil {
		return false, err
	}
	return s.outcome(ctx, rec, p)
}

// prepare checks an append before it goes to a writer: a kind, a JSON
// payload, balanced postings.
func (s *Store) prepare(rec *sabot.LogAppend, postings []sabot.Posting) (*pending, error) {
	if rec.Kind == "" {
		return nil, sabot.Errorf(sabot.EINVALID, "a log record needs a kind")
	}
	var payload any
	if len(rec.Payload) > 0 {
		if !json.Valid(rec.Payload) {
			return nil, sabot.Errorf(sabot.EINVALID, "the %s record's payload is not JSON", rec.Kind)
		}
		payload = string(rec.Payload)
	}
	if rec.RoundNo < 0 || rec.ShoeNo < 0 {
		return nil, sabot.Errorf(sabot.EINVALID, "the %s record's round (%d) and shoe (%d) are 0 (none) or more", rec.Kind, rec.RoundNo, rec.ShoeNo)
	}
	for _, u := range rec.Users {
		if u < 1 {
			return nil, sabot.Errorf(sabot.EINVALID, "the %s record is indexed under user %d: users are 1 or more", rec.Kind, u)
		}
	}
	if err := checkPostings(postings); err != nil {
		return nil, err
	}
	if err := checkCalls(rec); err != nil {
		return nil, err
	}
	return &pending{rec: rec, payload: payload, postings: postings, idem: rec.ClientID != "" && rec.CommandID != "",
		created: s.clock(rec.Created), done: make(chan struct{})}, nil
}

// outcome is what Append returns for a committed (or refused) append, rec
// filled in.
func (s *Store) outcome(ctx context.Context, rec *sabot.LogAppend, p *pending) (bool, error) {
	if errors.Is(p.err, errDup) {
		first, err := s.command(ctx, rec.TableID, rec.ClientID, rec.CommandID)
		if err != nil {
			return false, err
		}
		*rec.LogRecord = *first
		return true, nil
	} else if p.err != nil {
		return false, fail(p.err)
	}
	rec.Seq, rec.Created = p.seq, p.created
	return false, nil
}

// appendTx writes one append in tx and sets p.seq; errDup if the command is
// in the log, a sabot error if refused.
func (s *Store) appendTx(ctx context.Context, tx Tx, p *pending) error {
	rec := p.rec
	var seq int64
	// The epoch is checked where the row is locked: a claim of the table
	// (cluster.go) commits before or after this append, never beside it.
	err := tx.QueryRow(ctx, `UPDATE tables SET last_seq = last_seq + 1 WHERE id = $1 AND ($2 = 0 OR epoch = $2) RETURNING last_seq`,
		rec.TableID, rec.Epoch).Scan(&seq)
	if noRows(err) {
		var epoch int64
		if err := tx.QueryRow(ctx, `SELECT epoch FROM tables WHERE id = $1`, rec.TableID).Scan(&epoch); noRows(err) {
			return sabot.Errorf(sabot.ENOTFOUND, "no table %d", rec.TableID)
		} else if err != nil {
			return err
		}
		return &sabot.Error{Code: sabot.EUNAVAILABLE, Cause: sabot.ErrFenced,
			Message: fmt.Sprintf("table %d has moved to another node (epoch %d, not %d): try again", rec.TableID, epoch, rec.Epoch)}
	} else if err != nil {
		return err
	}
	n, err := tx.Exec(ctx, `INSERT INTO log (table_id, seq, kind, client_id, command_id, user_id, round_no, shoe_no, payload, created, epoch)
		VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11) ON CONFLICT DO NOTHING`,
		rec.TableID, seq, rec.Kind, rec.ClientID, rec.CommandID, rec.UserID, rec.RoundNo, rec.ShoeNo, p.payload, stamp(p.created), rec.Epoch)
	if err != nil {
		return err
	} else if n == 0 && p.idem {
		return errDup // the command is in the log: the caller reads its record
	} else if n == 0 {
		return fmt.Errorf("table %d seq %d is taken", rec.TableID, seq)
	}
	// The record's index rows, in its transaction: a crash keeps both or
	// neither.
	if err := indexUsers(ctx, tx, rec, seq, p.created); err != nil {
		return err
	}
	if len(p.postings) > 0 {
		if err := post(ctx, tx, rec.Kind, &logRef{rec.TableID, seq}, p.created, p.postings, s.oneWriter); err != nil {
			return err
		}
	}
	// The player's eligibility for the stake (care.go), after its postings:
	// they hold his wallet's row, so his other stakes wait or went before.
	if rec.Guard != nil {
		if err := s.guard(ctx, tx, rec.Guard, p.created); err != nil {
			return err
		}
	}
	for _, g := range rec.Guards {
		if err := s.guard(ctx, tx, g, p.created); err != nil {
			return err
		}
	}
	// The calls to the operator's wallet the record causes (outbox.go),
	// after the duplicate check: a command repeated writes no call twice.
	if len(rec.Calls) > 0 || len(rec.Counts) > 0 {
		if err := writeCalls(ctx, tx, rec, seq, p.created); err != nil {
			return err
		}
	}
	p.seq = seq
	return nil
}

// indexUsers writes a record's index rows under its users (each once), in
// one statement: a deal or a settlement names every player at the table.
func indexUsers(ctx context.Context, tx Tx, rec *sabot.LogAppend, seq int64, created time.Time) error {
	if len(rec.Users) == 0 {
		return nil
	}
	var q strings.Builder
	q.WriteString(`INSERT INTO log_users (user_id, created, table_id, seq) VALUES `)
	args := make([]any, 0, 3+len(rec.Users))
	args = append(args, stamp(created), rec.TableID, seq)
	for i, u := range rec.Users {
		if slices.Contains(rec.Users[:i], u) {
			continue
		}
		if len(args) > 3 {
			q.WriteString(", ")
		}
		args = append(args, u)
		fmt.Fprintf(&q, "($%d, $1, $2, $3)", len(args))
	}
	_, err := tx.Exec(ctx, q.String(), args...)
	return err
}

// Command returns the record a command wrote (ENOTFOUND: none), found by
// the log's index on (table_id, client_id, command_id).
func (s *Store) Command(ctx context.Context, table int64, client, command string) (*sabot.LogRecord, error) {
	if client == "" || command == "" {
		return nil, sabot.Errorf(sabot.ENOTFOUND, "no command %q of client %q", command, client)
	}
	var r *sabot.LogRecord
	err := s.read(ctx, func(tx Tx) (err error) {
		r, err = scanRecord(tx.QueryRow(ctx, byCommand, table, client, command))
		return err
	})
	if noRows(err) {
		return nil, sabot.Errorf(sabot.ENOTFOUND, "no command %q of client %q", command, client)
	} else if err != nil {
		return nil, fail(err)
	}
	return r, nil
}

// command returns the record a command wrote.
func (s *Store) command(ctx context.Context, table int64, client, command string) (*sabot.LogRecord, error) {
	var r *sabot.LogRecord
	err := s.read(ctx, func(tx Tx) (err error) {
		r, err = scanRecord(tx.QueryRow(ctx, byCommand, table, client, command))
		return err
	})
	if err != nil {
		return nil, fail(err)
	}
	return r, nil
}

// Log returns a table's records with Seq >= from, in order; ENOTFOUND if
// there is no such table.
func (s *Store) Log(ctx context.Context, tableID, from int64) ([]*sabot.LogRecord, error) {
	var recs []*sabot.LogRecord
	err := s.read(ctx, func(tx Tx) error {
		var n int64
		if err := tx.QueryRow(ctx, `SELECT COUNT(*) FROM tables WHERE id = $1`, tableID).Scan(&n); err != nil {
			return err
		} else if n == 0 {
			return sabot.Errorf(sabot.ENOTFOUND, "no table %d", tableID)
		}
		var err error
		recs, err = queryRecords(ctx, tx, `SELECT `+recordColumns+` FROM log WHERE table_id = $1 AND seq >= $2 ORDER BY seq`, tableID, from)
		return err
	})
	if err != nil {
		return nil, fail(err)
	}
	return recs, nil
}

// queryRecords runs a query of recordColumns and scans its rows.
func queryRecords(ctx context.Context, tx Tx, query string, args ...any) ([]*sabot.LogRecord, error) {
	rows, err := tx.Query(ctx, query, args...)
	if err != nil {
		return nil, err
	}
	defer rows.Close()
	recs := []*sabot.LogRecord{}
	for rows.Next() {
		r, err := scanRecord(rows)
		if err != nil {
			return nil, err
		}
		recs = append(recs, r)
	}
	return recs, rows.Err()
}

const recordColumns = `seq, table_id, kind, client_id, command_id, user_id, round_no, shoe_no, payload, created, epoch`

// byCommand finds the record of a command. It repeats the condition of the
// partial index log_command so that the planner may use the index: it cannot
// tell on its own that the parameters are not empty.
const byCommand = `SELECT ` + recordColumns + ` FROM log
	WHERE table_id = $1 AND client_id = $2 AND command_id = $3 AND client_id <> '' AND command_id <> ''`

func scanRecord(row Row) (*sabot.LogRecord, error) {
	var r sabot.LogRecord
	var payload *string
	var created int64
	if err := row.Scan(&r.Seq, &r.TableID, &r.Kind, &r.ClientID, &r.CommandID, &r.UserID, &r.RoundNo, &r.ShoeNo, &payload, &created, &r.Epoch); err != nil {
		return nil, err
	}
	if payload != nil {
		r.Payload = json.RawMessage(*payload)
	}
	r.Created = unstamp(created)
	return &r, nil
}

// Find returns the records of the kinds asked, of one table or of every
// table, in (created, table, seq) order or its reverse; each narrowing of
// the query is served by an index (see the migrations), so that its cost
// follows what it returns, not the length of the logs.
//
// Across tables without a user, the kinds are those of CrossTableKinds: the
// index of the log by kind and time (log_kind_created) holds only theirs,
// and a query of another kind across tables reads the whole log.
func (s *Store) Find(ctx context.Context, q sabot.LogQuery) ([]*sabot.LogRecord, error) {
	query, args, err := FindQuery(q)
	if err != nil {
		return nil, err
	}
	var recs []*sabot.LogRecord
	err = s.read(ctx, func(tx Tx) (err error) {
		recs, err = queryRecords(ctx, tx, query, args...)
		return err
	})
	if err != nil {
		return nil, fail(err)
	}
	return recs, nil
}

// CrossTableKinds are the kinds of record read across tables by time (the
// reports' deals, settlements, voids and admin records, recall's
// significant events): the kinds of the SQLite index log_kind_created
// (migration 022), which the other records — bets, actions, sittings, most
// of the log — no longer write a row into.
var CrossTableKinds = []string{sabot.LogTableOpened, sabot.LogAdmin, sabot.LogConfigure, sabot.LogVoid,
	sabot.LogTimeout, sabot.LogShoeStep, sabot.LogDeal, sabot.LogSettle}

// FindQuery is the SQL of Find and its arguments.
func FindQuery(q sabot.LogQuery) (string, []any, error) {
	if len(q.Kinds) == 0 {
		return "", nil, sabot.Errorf(sabot.EINVALID, "a log query needs at least one kind")
	}
	if q.Limit < 0 {
		return "", nil, sabot.Errorf(sabot.EINVALID, "a log query's limit is 0 (none) or more, not %d", q.Limit)
	}
	if q.FromRound < 0 || q.ToRound < 0 || q.Shoe < 0 || q.UserID < 0 {
		return "", nil, sabot.Errorf(sabot.EINVALID, "a log query's rounds, shoe and user are 0 (any) or more")
	}
	if q.TableID == 0 && (q.FromRound != 0 || q.ToRound != 0 || q.Shoe != 0 || q.After != 0) {
		return "", nil, sabot.Errorf(sabot.EINVALID, "a log query by round, shoe or seq needs a table")
	}
	if q.After < 0 {
		return "", nil, sabot.Errorf(sabot.EINVALID, "a log query's After is a seq, 0 (none) or more, not %d", q.After)
	}
	var where []string
	var args []any
	arg := func(v any) string {
		args = append(args, v)
		return fmt.Sprintf("$%d", len(args))
	}
	// The kinds are written in the query, not bound: a partial index on a
	// kind (log_configure) is used only when the planner sees the kind.
	in := make([]string, len(q.Kinds))
	for i, k := range q.Kinds {
		if !kindName(k) {
			return "", nil, sabot.Errorf(sabot.EINVALID, "a log query's kind is lower-case letters and hyphens, not %q", k)
		}
		in[i] = "'" + k + "'"
	}
	if len(in) == 1 {
		where = append(where, "l.kind = "+in[0])
	} else if q.TableID == 0 && q.UserID == 0 {
		// Kinds as equalities, each of which SQLite sees implies the
		// condition of the partial index log_kind_created (an IN list it
		// does not).
		where = append(where, "(l.kind = "+strings.Join(in, " OR l.kind = ")+")")
	} else {
		where = append(where, "l.kind IN ("+strings.Join(in, ", ")+")")
	}
	// Across tables with a user, the order and the bounds are the user
	// index's (the same values as the record's), so that it is read in
	// order from the cursor.
	from, ord := "log l", "l"
	if q.UserID != 0 {
		from, ord = "log_users u JOIN log l ON l.table_id = u.table_id AND l.seq = u.seq", "u"
		where = append(where, "u.user_id = "+arg(q.UserID))
	}
	if q.TableID != 0 {
		where = append(where, "l.table_id = "+arg(q.TableID))
	}
	if !q.Since.IsZero() {
		where = append(where, ord+".created >= "+arg(stamp(q.Since)))
	}
	// The conditions <> 0 repeat those of the partial indexes log_round
	// and log_shoe, which the planner cannot tell from a parameter.
	if q.FromRound != 0 || q.ToRound != 0 {
		where = append(where, "l.round_no <> 0")
		if q.FromRound != 0 {
			where = append(where, "l.round_no >= "+arg(q.FromRound))
		}
		if q.ToRound != 0 {
			where = append(where, "l.round_no <= "+arg(q.ToRound))
		}
	}
	if q.Shoe != 0 {
		where = append(where, "l.shoe_no = "+arg(q.Shoe), "l.shoe_no <> 0")
	}
	if q.After != 0 {
		where = append(where, "l.seq > "+arg(q.After))
	}
	if b := q.Before; b != nil {
		if q.TableID != 0 {
			where = append(where, "l.seq < "+arg(b.Seq))
		} else {
			// A row value, which both planners read as a range of the
			// index (log_users' primary key): the page is read in order
			// from the cursor.
			where = append(where, fmt.Sprintf("(%[1]s.created, %[1]s.table_id, %[1]s.seq) < (%[2]s, %[3]s, %[4]s)",
				ord, arg(stamp(b.Created)), arg(b.TableID), arg(b.Seq)))
		}
	}
	// One table's records in the order of its log (on the primary key);
	// every table's by time.
	order := ord + ".created, " + ord + ".table_id, " + ord + ".seq"
	if q.TableID != 0 {
		order = "l.seq"
		if q.FromRound != 0 || q.ToRound != 0 || q.Shoe != 0 {
			// Sorted after the search on log_round or log_shoe: ordered
			// by l.seq alone, SQLite would read the table's whole log on
			// the primary key rather than sort a round's or a shoe's
			// records.
			order = "l.seq + 0"
		}
	}
	if q.Newest {
		order = strings.ReplaceAll(order, ",", " DESC,") + " DESC"
	}
	query := `SELECT ` + findColumns + ` FROM ` + from + ` WHERE ` + strings.Join(where, " AND ") + ` ORDER BY ` + order
	if q.Limit > 0 {
		query += " LIMIT " + arg(q.Limit)
	}
	return query, args, nil
}

// findColumns are recordColumns of the log as l.
const findColumns = `l.seq, l.table_id, l.kind, l.client_id, l.command_id, l.user_id, l.round_no, l.shoe_no, l.payload, l.created, l.epoch`

// kindName reports whether k may be written in a query: lower-case letters
// and hyphens, as every kind of record is.
func kindName(k string) bool {
	if k == "" {
		return false
	}
	for _, c := range k {
		if (c < 'a' || c > 'z') && c != '-' {
			return false
		}
	}
	return true
}
