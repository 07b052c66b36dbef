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

// BulkLoad implements sabot.BulkLoader: one transaction of multi-row
// INSERTs, the log's, the users' index, the transactions' (their IDs
// returned with the record each belongs to) and the entries', a table's
// last_seq moved once for all its records and each account's balance once
// for the net of the batch. Rounds go in at tens of thousands a second
// where Append, a statement a row, writes hundreds (docs/pit.md).
func (s *Store) BulkLoad(ctx context.Context, batch []sabot.BulkAppend) error {
	type row struct {
		rec     *sabot.LogRecord
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
		case rec.ClientID != "" || rec.CommandID != "" || rec.Epoch != 0 || len(rec.Calls) > 0 || len(rec.Counts) > 0 || rec.Guard != nil:
			return sabot.Errorf(sabot.EINVALID, "bulk load: the %s record of table %d has a command's IDs, an epoch, wallet calls or a stake's guard: append it", rec.Kind, rec.TableID)
		case rec.RoundNo < 0 || rec.ShoeNo < 0:
			return sabot.Errorf(sabot.EINVALID, "the %s record's round (%d) and shoe (%d) are 0 (none) or more", rec.Kind, rec.RoundNo, rec.ShoeNo)
		}
		for _, u := range rec.Users {
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
		rows[i] = row{rec, payload, s.clock(rec.Created)}
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
		if err := s.insertRows(ctx, tx, `INSERT INTO log (table_id, seq, kind, user_id, round_no, shoe_no, payload, created) VALUES `, 8, len(rows),
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
			for _, u := range r.rec.Users {
				if !seen[u] {
					seen[u] = true
					users = append(users, indexed{u, i})
				}
			}
		}
		if err := s.insertRows(ctx, tx, `INSERT INTO log_users (user_id, created, table_id, seq) VALUES `, 4, len(users),
			func(j int, args []any) []any {
				u := users[j]
				return append(args, u.user, stamp(rows[u.row].created), rows[u.row].rec.TableID, seqs[u.row])
			}); err != nil {
			return err
		}
		// The ledger: a transaction a record with postings, found again
		// by its record (RETURNING's order is not promised).
		var posted []int
		for i, b := range batch {
			if len(b.Postings) > 0 {
				posted = append(posted, i)
			}
		}
		txID := make(map[logRef]int64, len(posted))
		for start := 0; start < len(posted); start += bulkRows {
			part := posted[start:min(start+bulkRows, len(posted))]
			var q strings.Builder
			q.WriteString(`INSERT INTO transactions (memo, table_id, seq, created) VALUES `)
			args := make([]any, 0, 4*len(part))
			for j, i := range part {
				s.values(&q, j, 4)
				args = append(args, rows[i].rec.Kind, rows[i].rec.TableID, seqs[i], stamp(rows[i].created))
			}
			q.WriteString(` RETURNING id, table_id, seq`)
			rs, err := tx.Query(ctx, q.String(), args...)
			if err != nil {
				return err
			}
			for rs.Next() {
				var id int64
				var ref logRef
				if err := rs.Scan(&id, &ref.table, &ref.seq); err != nil {
					rs.Close()
					return err
				}
				txID[ref] = id
			}
			rs.Close()
			if err := rs.Err(); err != nil {
				return err
			}
		}
		type entry struct {
			row int
			p   sabot.Posting
		}
		var entries []entry
		net := map[int64]int64{}
		for _, i := range posted {
			for _, p := range batch[i].Postings {
				entries = append(entries, entry{i, p})
				net[p.AccountID] += int64(p.Amount)
			}
		}
		if err := s.insertRows(ctx, tx, `INSERT INTO entries (transaction_id, account_id, amount, memo, created) VALUES `, 5, len(entries),
			func(j int, args []any) []any {
				e := entries[j]
				id, ok := txID[logRef{rows[e.row].rec.TableID, seqs[e.row]}]
				if !ok {
					id = -1 // no such transaction: the foreign key refuses it
				}
				return append(args, id, e.p.AccountID, int64(e.p.Amount), e.p.Memo, stamp(rows[e.row].created))
			}); err != nil {
			return err
		}
		return applyNets(ctx, tx, net)
	})
	if err != nil {
		return fail(err)
	}
	for i, r := range rows {
		r.rec.Seq, r.rec.Created = seqs[i], r.created
	}
	return nil
}

// insertRows writes n rows of cols columns with multi-row INSERTs of at
// most bulkRows rows: head is the statement up to VALUES, and add appends
// the ith row's arguments.
func (s *Store) insertRows(ctx context.Context, tx Tx, head string, cols, n int, add func(i int, args []any) []any) error {
	var q strings.Builder
	args := make([]any, 0, cols*min(n, bulkRows))
	for start := 0; start < n; start += bulkRows {
		end := min(start+bulkRows, n)
		q.Reset()
		q.WriteString(head)
		args = args[:0]
		for i := start; i < end; i++ {
			s.values(&q, i-start, cols)
			args = add(i, args)
		}
		if _, err := tx.Exec(ctx, q.String(), args...); err != nil {
			return err
		}
	}
	return nil
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
