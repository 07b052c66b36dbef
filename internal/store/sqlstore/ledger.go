package sqlstore

import (
	"context"
	"fmt"
	"math"
	"slices"
	"strings"
	"time"

	"sabot"
)

// kinds are the account kinds, and whether each may go below zero.
var kinds = map[string]bool{
	sabot.AccountWallet: false,
	sabot.AccountBank:   false,
	sabot.AccountTable:  true,
	sabot.AccountHouse:  true,
}

// Account returns the account of a kind and owner, creating it empty. An
// account that exists is read in a read-only transaction. Two callers racing
// to create the same account get the same one: the insert does nothing on
// the (kind, owner_id) unique key, and the select after it sees whichever
// insert committed.
func (s *Store) Account(ctx context.Context, kind string, ownerID int64) (*sabot.Account, error) {
	if _, ok := kinds[kind]; !ok {
		return nil, sabot.Errorf(sabot.EINVALID, "no account kind %q", kind)
	}
	a := sabot.Account{Kind: kind, OwnerID: ownerID}
	// An account that exists is read, without taking the writer's turn.
	err := s.read(ctx, func(tx Tx) error {
		return tx.QueryRow(ctx, `SELECT id, balance FROM accounts WHERE kind = $1 AND owner_id = $2`,
			kind, ownerID).Scan(&a.ID, &a.Balance)
	})
	if err == nil {
		return &a, nil
	} else if !noRows(err) {
		return nil, fail(err)
	}
	err = s.write(ctx, func(tx Tx) error {
		if _, err := tx.Exec(ctx, `INSERT INTO accounts (kind, owner_id, balance) VALUES ($1, $2, 0) ON CONFLICT DO NOTHING`,
			kind, ownerID); err != nil {
			return err
		}
		return tx.QueryRow(ctx, `SELECT id, balance FROM accounts WHERE kind = $1 AND owner_id = $2`,
			kind, ownerID).Scan(&a.ID, &a.Balance)
	})
	if err != nil {
		return nil, fail(err)
	}
	return &a, nil
}

// Transfer writes one balanced ledger transaction: every posting or none.
// No postings is no transaction, and not an error.
func (s *Store) Transfer(ctx context.Context, memo string, postings []sabot.Posting) error {
	if err := checkPostings(postings); err != nil {
		return err
	}
	if len(postings) == 0 {
		return nil
	}
	at := s.clock(time.Time{})
	return fail(s.write(ctx, func(tx Tx) error {
		return post(ctx, tx, memo, nil, at, postings)
	}))
}

// checkPostings refuses postings that do not sum to zero (EINVALID): such a
// transaction would create or destroy money.
func checkPostings(postings []sabot.Posting) error {
	var sum int64
	for _, p := range postings {
		if (p.Amount > 0 && sum > math.MaxInt64-p.Amount) || (p.Amount < 0 && sum < math.MinInt64-p.Amount) {
			return sabot.Errorf(sabot.EINVALID, "the postings overflow")
		}
		sum += p.Amount
	}
	if sum != 0 {
		return sabot.Errorf(sabot.EINVALID, "the postings sum to %d, not 0: a transaction must balance", sum)
	}
	return nil
}

// logRef is the log record a transaction belongs to.
type logRef struct{ table, seq int64 }

// post writes a transaction of balanced postings in tx. Each account's
// balance changes by one conditional UPDATE that refuses to take a wallet or
// bank below zero: the check and the debit are one statement, under the
// row's lock, so two transactions racing to spend the same money cannot both
// pass the check. Accounts are updated in the order of their IDs so that two
// transactions touching the same accounts cannot deadlock.
func post(ctx context.Context, tx Tx, memo string, ref *logRef, at time.Time, postings []sabot.Posting) error {
	var table, seq any
	if ref != nil {
		table, seq = ref.table, ref.seq
	}
	var txID int64
	if err := tx.QueryRow(ctx, `INSERT INTO transactions (memo, table_id, seq, created) VALUES ($1, $2, $3, $4) RETURNING id`,
		memo, table, seq, stamp(at)).Scan(&txID); err != nil {
		return err
	}

	net := map[int64]int64{}
	for _, p := range postings {
		net[p.AccountID] += p.Amount
	}
	ids := make([]int64, 0, len(net))
	for id := range net {
		ids = append(ids, id)
	}
	slices.Sort(ids)
	for _, id := range ids {
		n, err := tx.Exec(ctx, `UPDATE accounts SET balance = balance + $2
			WHERE id = $1 AND (kind NOT IN ('wallet', 'bank') OR balance + $2 >= 0)`, id, net[id])
		if err != nil {
			return err
		} else if n == 1 {
			continue
		}
		var kind string
		var owner, balance int64
		err = tx.QueryRow(ctx, `SELECT kind, owner_id, balance FROM accounts WHERE id = $1`, id).Scan(&kind, &owner, &balance)
		if noRows(err) {
			return sabot.Errorf(sabot.EINVALID, "no account %d", id)
		} else if err != nil {
			return err
		}
		return sabot.Errorf(sabot.EINSUFFICIENT, "insufficient funds: the %s of %d holds %d, the transaction takes %d",
			kind, owner, balance, -net[id])
	}

	var q strings.Builder
	q.WriteString(`INSERT INTO entries (transaction_id, account_id, amount, memo, created) VALUES `)
	args := make([]any, 0, 2+3*len(postings))
	args = append(args, txID, stamp(at))
	for i, p := range postings {
		if i > 0 {
			q.WriteString(", ")
		}
		n := len(args)
		fmt.Fprintf(&q, "($1, $%d, $%d, $%d, $2)", n+1, n+2, n+3)
		args = append(args, p.AccountID, p.Amount, p.Memo)
	}
	_, err := tx.Exec(ctx, q.String(), args...)
	return err
}

// CheckLedger proves, on one snapshot of the database, that every account's
// balance equals the sum of its entries, that no wallet or bank is below
// zero, that every transaction nets to zero, and that all the entries sum to
// zero.
func (s *Store) CheckLedger(ctx context.Context) (*sabot.LedgerReport, error) {
	r := &sabot.LedgerReport{}
	err := s.read(ctx, func(tx Tx) error {
		var accounts, entries, transactions, balances int64
		if err := tx.QueryRow(ctx, `SELECT
			(SELECT COUNT(*) FROM accounts),
			(SELECT COUNT(*) FROM entries),
			(SELECT COUNT(*) FROM transactions),
			(SELECT CAST(COALESCE(SUM(amount), 0) AS BIGINT) FROM entries),
			(SELECT CAST(COALESCE(SUM(balance), 0) AS BIGINT) FROM accounts)`).
			Scan(&accounts, &entries, &transactions, &r.Total, &balances); err != nil {
			return err
		}
		r.Accounts, r.Entries, r.Transactions = int(accounts), int(entries), int(transactions)

		rows, err := tx.Query(ctx, `SELECT a.id, a.kind, a.owner_id, a.balance, COALESCE(e.total, 0)
			FROM accounts a
			LEFT JOIN (SELECT account_id, CAST(SUM(amount) AS BIGINT) AS total FROM entries GROUP BY account_id) e
				ON e.account_id = a.id
			WHERE a.balance <> COALESCE(e.total, 0) OR (a.kind IN ('wallet', 'bank') AND a.balance < 0)
			ORDER BY a.id`)
		if err != nil {
			return err
		}
		for rows.Next() {
			var id, owner, balance, sum int64
			var kind string
			if err := rows.Scan(&id, &kind, &owner, &balance, &sum); err != nil {
				rows.Close()
				return err
			}
			if balance != sum {
				r.Problems = append(r.Problems, fmt.Sprintf("account %d (%s of %d): balance %d, its entries sum to %d", id, kind, owner, balance, sum))
			}
			if !kinds[kind] && balance < 0 {
				r.Problems = append(r.Problems, fmt.Sprintf("account %d (%s of %d): balance %d is below zero", id, kind, owner, balance))
			}
		}
		rows.Close()
		if err := rows.Err(); err != nil {
			return err
		}

		rows, err = tx.Query(ctx, `SELECT t.id, t.memo, CAST(SUM(e.amount) AS BIGINT)
			FROM transactions t JOIN entries e ON e.transaction_id = t.id
			GROUP BY t.id, t.memo HAVING SUM(e.amount) <> 0
			ORDER BY t.id`)
		if err != nil {
			return err
		}
		for rows.Next() {
			var id, sum int64
			var memo string
			if err := rows.Scan(&id, &memo, &sum); err != nil {
				rows.Close()
				return err
			}
			r.Problems = append(r.Problems, fmt.Sprintf("transaction %d (%s): its entries net %+d", id, memo, sum))
		}
		rows.Close()
		if err := rows.Err(); err != nil {
			return err
		}
		if r.Total != 0 {
			r.Problems = append(r.Problems, fmt.Sprintf("the entries sum to %+d, not 0", r.Total))
		}
		if balances != 0 {
			r.Problems = append(r.Problems, fmt.Sprintf("the balances sum to %+d, not 0", balances))
		}
		return nil
	})
	if err != nil {
		return nil, fail(err)
	}
	return r, nil
}
