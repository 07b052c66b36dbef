package sqlstore

import (
	"context"
	"encoding/json"
	"fmt"
	"maps"
	"slices"
	"strings"
	"time"

	"sabot"
)

var _ sabot.BulkLoader = (*Store)(nil)

// bulkRows is the most rows of one multi-row INSERT: 8 parameters a log
// row, well under SQLite's 32,766 and PostgreSQL's 65,535 parameters a
// statement.
const bulkRows = 1000

// BulkLoad implements sabot.BulkLoader: one transaction that writes the
// log's rows, the users' index, the transactions and their entries in
// bulk (a COPY each where the driver's Tx is a Copier, PostgreSQL;
// multi-row INSERTs where not, SQLite), a table's last_seq moved once for
// all its records and each account's balance once for the net of the
// batch. Rounds go in at thousands a second where Append, a statement a
// row, writes hundreds (docs/pit.md).
func (s *Store) BulkLoad(ctx context.Context, batch []sabot.BulkAppend) error {
	type row struct {
		rec     *sabot.LogRecord
		users   []int64
		payload any
		created time.Time
	}
	rows := make([]row, len(batch))
	count := map[int64]int64{} // records a table
	for i, b := range batch {
		rec := b.Rec
		switch {
		case rec == nil:
			return sabot.Errorf(sabot.EINVALID, "bulk load: record %d is missing", i)
		case rec.Kind == "":
			return sabot.Errorf(sabot.EINVALID, "a log record needs a kind")
		case rec.ClientID != "" || rec.CommandID != "" || rec.Epoch != 0:
			return sabot.Errorf(sabot.EINVALID, "bulk load: the %s record of table %d has a command's IDs or an epoch: append it", rec.Kind, rec.TableID)
		case rec.RoundNo < 0 || rec.ShoeNo < 0:
			return sabot.Errorf(sabot.EINVALID, "the %s record's round (%d) and shoe (%d) are 0 (none) or more", rec.Kind, rec.RoundNo, rec.ShoeNo)
		}
		for _, u := range b.Users {
			if u < 1 {
				return sabot.Errorf(sabot.EINVALID, "the %s record is indexed under user %d: users are 1 or more", rec.Kind, u)
			}
		}
		var payload any
		if len(rec.Payload) > 0 {
			if !json.Valid(rec.Payload) {
				return sabot.Errorf(sabot.EINVALID, "the %s record's payload is not JSON", rec.Kind)
			}
			payload = string(rec.Payload)
		}
		if err := checkPostings(b.Postings); err != nil {
			return err
		}
		rows[i] = row{rec, b.Users, payload, s.clock(rec.Created)}
		count[rec.TableID]++
	}
	seqs := make([]int64, len(batch))
	err := s.write(ctx, func(tx Tx) error {
		// Each table's seqs, its row locked once; the tables in the
		// order of their IDs, as accounts are, against deadlocks.
		next := map[int64]int64{}
		for _, t := range slices.Sorted(maps.Keys(count)) {
			var last int64
			err := tx.QueryRow(ctx, `UPDATE tables SET last_seq = last_seq + $2 WHERE id = $1 RETURNING last_seq`, t, count[t]).Scan(&last)
			if noRows(err) {
				return sabot.Errorf(sabot.ENOTFOUND, "no table %d", t)
			} else if err != nil {
				return err
			}
			next[t] = last - count[t] + 1
		}
		for i, r := range rows {
			seqs[i] = next[r.rec.TableID]
			next[r.rec.TableID]++
		}
		if err := s.insertRows(ctx, tx, "log", []string{"table_id", "seq", "kind", "user_id", "round_no", "shoe_no", "payload", "created"}, len(rows),
			func(i int, args []any) []any {
				r := rows[i]
				return append(args, r.rec.TableID, seqs[i], r.rec.Kind, r.rec.UserID, r.rec.RoundNo, r.rec.ShoeNo, r.payload, stamp(r.created))
			}); err != nil {
			return err
		}
		type indexed struct {
			user int64
			row  int
		}
		var users []indexed
		for i, r := range rows {
			seen := map[int64]bool{}
			for _, u := range r.users {
				if !seen[u] {
					seen[u] = true
					users = append(users, indexed{u, i})
				}
			}
		}
		if err := s.insertRows(ctx, tx, "log_users", []string{"user_id", "created", "table_id", "seq"}, len(users),
			func(j int, args []any) []any {
				u := users[j]
				return append(args, u.user, stamp(rows[u.row].created), rows[u.row].rec.TableID, seqs[u.row])
			}); err != nil {
			return err
		}
		// The ledger: a transaction a record with postings, its entries
		// naming it by its ID.
		var posted []int
		for i, b := range batch {
			if len(b.Postings) > 0 {
				posted = append(posted, i)
			}
		}
		ids, err := s.insertTransactions(ctx, tx, len(posted), func(j int) (string, int64, int64, int64) {
			i := posted[j]
			return rows[i].rec.Kind, rows[i].rec.TableID, seqs[i], stamp(rows[i].created)
		})
		if err != nil {
			return err
		}
		type entry struct {
			row  int
			txID int64
			p    sabot.Posting
		}
		var entries []entry
		net := map[int64]int64{}
		for j, i := range posted {
			for _, p := range batch[i].Postings {
				entries = append(entries, entry{i, ids[j], p})
				net[p.AccountID] += int64(p.Amount)
			}
		}
		if err := s.insertRows(ctx, tx, "entries", []string{"transaction_id", "account_id", "amount", "memo", "created"}, len(entries),
			func(j int, args []any) []any {
				e := entries[j]
				return append(args, e.txID, e.p.AccountID, int64(e.p.Amount), e.p.Memo, stamp(rows[e.row].created))
			}); err != nil {
			return err
		}
		return applyNets(ctx, tx, net, s.oneWriter)
	})
	if err != nil {
		return fail(err)
	}
	for i, r := range rows {
		r.rec.Seq, r.rec.Created = seqs[i], r.created
	}
	return nil
}

// Copier is a Tx that writes rows in bulk by its database's own protocol
// (PostgreSQL's COPY FROM STDIN, binary): no statement to parse, no
// parameters to bind, the rows streamed. BulkLoad writes through it where
// the Tx has it, and through multi-row INSERTs where not (SQLite).
type Copier interface {
	// CopyFrom writes n rows of table's columns cols: row appends the
	// jth row's values, in the order of cols, to dst and returns it.
	CopyFrom(ctx context.Context, table string, cols []string, n int, row func(j int, dst []any) []any) error
	// NextIDs takes n values of the identity (or serial) column col of
	// table, for rows written with them: a COPY returns nothing.
	NextIDs(ctx context.Context, table, col string, n int) ([]int64, error)
}

// insertRows writes n rows of table's columns cols, by COPY where tx is a
// Copier, or with multi-row INSERTs of at most bulkRows rows; add appends
// the ith row's arguments.
func (s *Store) insertRows(ctx context.Context, tx Tx, table string, cols []string, n int, add func(i int, args []any) []any) error {
	if n == 0 {
		return nil
	}
	if c, ok := tx.(Copier); ok {
		return c.CopyFrom(ctx, table, cols, n, add)
	}
	head := `INSERT INTO ` + table + ` (` + strings.Join(cols, ", ") + `) VALUES `
	var q strings.Builder
	args := make([]any, 0, len(cols)*min(n, bulkRows))
	for start := 0; start < n; start += bulkRows {
		end := min(start+bulkRows, n)
		q.Reset()
		q.WriteString(head)
		args = args[:0]
		for i := start; i < end; i++ {
			s.values(&q, i-start, len(cols))
			args = add(i, args)
		}
		if _, err := tx.Exec(ctx, q.String(), args...); err != nil {
			return err
		}
	}
	return nil
}

// insertTransactions writes n transactions of the ledger, the jth's memo,
// log record (table and seq) and time given by row, and returns their
// IDs in the same order. Where tx is a Copier the IDs are taken first and
// written with them by COPY; otherwise multi-row INSERTs return them, each
// found again by its record (RETURNING's order is not promised).
func (s *Store) insertTransactions(ctx context.Context, tx Tx, n int, row func(j int) (memo string, table, seq, created int64)) ([]int64, error) {
	if n == 0 {
		return nil, nil
	}
	if c, ok := tx.(Copier); ok {
		ids, err := c.NextIDs(ctx, "transactions", "id", n)
		if err != nil {
			return nil, err
		}
		if len(ids) != n {
			return nil, fmt.Errorf("bulk load: %d transaction IDs taken, %d asked for", len(ids), n)
		}
		err = c.CopyFrom(ctx, "transactions", []string{"id", "memo", "table_id", "seq", "created"}, n,
			func(j int, args []any) []any {
				memo, table, seq, created := row(j)
				return append(args, ids[j], memo, table, seq, created)
			})
		return ids, err
	}
	ids := make([]int64, n)
	at := make(map[logRef]int, n)
	var q strings.Builder
	for start := 0; start < n; start += bulkRows {
		end := min(start+bulkRows, n)
		q.Reset()
		q.WriteString(`INSERT INTO transactions (memo, table_id, seq, created) VALUES `)
		args := make([]any, 0, 4*(end-start))
		for j := start; j < end; j++ {
			memo, table, seq, created := row(j)
			s.values(&q, j-start, 4)
			args = append(args, memo, table, seq, created)
			at[logRef{table, seq}] = j
		}
		q.WriteString(` RETURNING id, table_id, seq`)
		rs, err := tx.Query(ctx, q.String(), args...)
		if err != nil {
			return nil, err
		}
		got := 0
		for rs.Next() {
			var id int64
			var ref logRef
			if err := rs.Scan(&id, &ref.table, &ref.seq); err != nil {
				rs.Close()
				return nil, err
			}
			ids[at[ref]] = id
			got++
		}
		rs.Close()
		if err := rs.Err(); err != nil {
			return nil, err
		} else if got != end-start {
			return nil, fmt.Errorf("bulk load: %d transactions written, %d returned", end-start, got)
		}
	}
	return ids, nil
}

// values writes the jth row's placeholders, ($k+1, …, $k+cols) or (?, …,
// ?) where the driver binds them in order (Config.Positional), with the
// comma before it after the first.
func (s *Store) values(q *strings.Builder, j, cols int) {
	if j > 0 {
		q.WriteString(", ")
	}
	q.WriteByte('(')
	for c := range cols {
		if c > 0 {
			q.WriteString(", ")
		}
		if s.positional {
			q.WriteByte('?')
		} else {
			fmt.Fprintf(q, "$%d", j*cols+c+1)
		}
	}
	q.WriteByte(')')
}
