package sqlstore

import (
	"context"
	"fmt"
	"math"
	"sabot/money"
	"slices"
	"strconv"
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
	// A table's side of the house: its settlements, not the
	// central house's row.
	sabot.AccountTableHouse: true,
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
	var balance int64 // SQL reads and writes amounts as integers
	// An account that exists is read, without taking the writer's turn.
	err := s.read(ctx, func(tx Tx) error {
		return tx.QueryRow(ctx, `SELECT id, balance FROM accounts WHERE kind = $1 AND owner_id = $2`,
			kind, ownerID).Scan(&a.ID, &balance)
	})
	if err == nil {
		a.Balance = money.Amount(balance)
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
			kind, ownerID).Scan(&a.ID, &balance)
	})
	if err != nil {
		return nil, fail(err)
	}
	a.Balance = money.Amount(balance)
	return &a, nil
}

// Balances reads the balances of the accounts of a kind and owners in one
// read-only transaction: one snapshot, one transaction's cost for all (a
// table reads its players' wallets at each deal and each settlement). An
// account that does not exist holds 0, as Account would create it; none is
// created here.
func (s *Store) Balances(ctx context.Context, kind string, owners []int64) (map[int64]money.Amount, error) {
	if _, ok := kinds[kind]; !ok {
		return nil, sabot.Errorf(sabot.EINVALID, "no account kind %q", kind)
	}
	out := make(map[int64]money.Amount, len(owners))
	if len(owners) == 0 {
		return out, nil
	}
	err := s.read(ctx, func(tx Tx) error {
		for _, o := range owners {
			if _, ok := out[o]; ok {
				continue
			}
			var balance int64
			err := tx.QueryRow(ctx, `SELECT id, balance FROM accounts WHERE kind = $1 AND owner_id = $2`,
				kind, o).Scan(new(int64), &balance)
			if err != nil && !noRows(err) {
				return err
			}
			out[o] = money.Amount(balance)
		}
		return nil
	})
	if err != nil {
		return nil, fail(err)
	}
	return out, nil
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
		return post(ctx, tx, memo, nil, at, postings, s.oneWriter)
	}))
}

// checkPostings refuses postings that do not sum to zero (EINVALID): such a
// transaction would create or destroy money; and a posting beyond
// int64(money.Max) either way, or postings whose credits together overflow:
// then no account's net in the transaction can overflow either.
func checkPostings(postings []sabot.Posting) error {
	var sum, credits int64
	for _, p := range postings {
		if !p.Amount.Valid() {
			return sabot.Errorf(sabot.EINVALID, "refused: a posting of %d minor units is beyond the most an amount may be (%d)", p.Amount, int64(money.Max))
		}
		if p.Amount > 0 {
			if credits > math.MaxInt64-int64(p.Amount) {
				return sabot.Errorf(sabot.EINVALID, "the postings overflow")
			}
			credits += int64(p.Amount)
		}
		sum += int64(p.Amount) // |sum| <= credits: no overflow
	}
	if sum != 0 {
		return sabot.Errorf(sabot.EINVALID, "the postings sum to %d, not 0: a transaction must balance", sum)
	}
	return nil
}

// maxAmount is int64(money.Max) as SQL: the bound of every balance.
var maxAmount = strconv.FormatInt(int64(money.Max), 10)

// logRef is the log record a transaction belongs to.
type logRef struct{ table, seq int64 }

// post writes a transaction of balanced postings in tx. Each account's
// balance changes by one conditional UPDATE that refuses to take a wallet or
// bank below zero: the check and the debit are one statement, under the
// row's lock, so two transactions racing to spend the same money cannot both
// pass the check. Accounts are updated in the order of their IDs so that two
// transactions touching the same accounts cannot deadlock (applyNets;
// oneWriter: Config.OneWriter).
func post(ctx context.Context, tx Tx, memo string, ref *logRef, at time.Time, postings []sabot.Posting, oneWriter bool) error {
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
		net[p.AccountID] += int64(p.Amount)
	}
	if err := applyNets(ctx, tx, net, oneWriter); err != nil {
		return err
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
		args = append(args, p.AccountID, int64(p.Amount), p.Memo)
	}
	_, err := tx.Exec(ctx, q.String(), args...)
	return err
}

// applyNets adds each account's net to its balance, refused (EINVALID,
// EINSUFFICIENT) where a balance would leave its bounds: a wallet or bank
// below zero, any balance beyond money.Max. The accounts are taken in the
// order of their IDs, so that two transactions lock them in the same order.
// Where the database admits one writer at a time (Config.OneWriter: SQLite)
// there is no lock to order, and the accounts are updated in one statement,
// up to maxMerged at a time (a round's 7 wallets, the table's float and its
// house: one UPDATE, not 9); a refusal names the same account, the first in
// ID order, with the same error.
func applyNets(ctx context.Context, tx Tx, net map[int64]int64, oneWriter bool) error {
	ids := make([]int64, 0, len(net))
	for id := range net {
		ids = append(ids, id)
	}
	slices.Sort(ids)
	// A net beyond twice the bound takes any balance in range out of it;
	// refused here, it never reaches SQL, where balance + net could
	// overflow. The accounts before it in ID order are updated first, so
	// that a refusal is the first in ID order, whichever it is.
	over := slices.IndexFunc(ids, func(id int64) bool { return net[id] > 2*int64(money.Max) || net[id] < -2*int64(money.Max) })
	todo := ids
	if over >= 0 {
		todo = ids[:over]
	}
	if oneWriter {
		for rest := todo; len(rest) > 0; {
			n := min(len(rest), maxMerged)
			if err := applyMerged(ctx, tx, rest[:n], net); err != nil {
				return err
			}
			rest = rest[n:]
		}
	} else {
		for _, id := range todo {
			if err := applyOne(ctx, tx, id, net[id]); err != nil {
				return err
			}
		}
	}
	if over >= 0 {
		id := ids[over]
		return sabot.Errorf(sabot.EINVALID, "refused: the transaction moves %d minor units on account %d, beyond the most a balance may be (%d)", net[id], id, int64(money.Max))
	}
	return nil
}

// applyOne adds an account's net to its balance in one conditional UPDATE.
func applyOne(ctx context.Context, tx Tx, id, net int64) error {
	n, err := tx.Exec(ctx, `UPDATE accounts SET balance = balance + $2
		WHERE id = $1 AND (kind NOT IN ('wallet', 'bank') OR balance + $2 >= 0)
		AND balance + $2 BETWEEN -`+maxAmount+` AND `+maxAmount, id, net)
	if err != nil {
		return err
	} else if n != 1 {
		return refusal(ctx, tx, id, net)
	}
	return nil
}

// maxMerged bounds the accounts of one merged UPDATE (applyMerged): the
// statements prepared for it are one a count, 1 to maxMerged.
const maxMerged = 16

// applyMerged adds the nets of ids, in ID order, in one UPDATE that returns
// the accounts it changed: an account it did not change was refused, and
// the first of them in ID order is reported (its balance is as it was). A
// refusal fails the transaction, which rolls back the others.
func applyMerged(ctx context.Context, tx Tx, ids []int64, net map[int64]int64) error {
	if len(ids) == 1 {
		return applyOne(ctx, tx, ids[0], net[ids[0]])
	}
	var q strings.Builder
	q.WriteString(`UPDATE accounts SET balance = accounts.balance + v.column2 FROM (VALUES `)
	args := make([]any, 0, 2*len(ids))
	for i, id := range ids {
		if i > 0 {
			q.WriteString(", ")
		}
		q.WriteString("(?, ?)")
		args = append(args, id, net[id])
	}
	q.WriteString(`) AS v WHERE accounts.id = v.column1
		AND (accounts.kind NOT IN ('wallet', 'bank') OR accounts.balance + v.column2 >= 0)
		AND accounts.balance + v.column2 BETWEEN -` + maxAmount + ` AND ` + maxAmount + `
		RETURNING accounts.id`)
	rows, err := tx.Query(ctx, q.String(), args...)
	if err != nil {
		return err
	}
	changed := make(map[int64]bool, len(ids))
	for rows.Next() {
		var id int64
		if err := rows.Scan(&id); err != nil {
			rows.Close()
			return err
		}
		changed[id] = true
	}
	rows.Close()
	if err := rows.Err(); err != nil {
		return err
	}
	for _, id := range ids {
		if !changed[id] {
			return refusal(ctx, tx, id, net[id])
		}
	}
	return nil
}

// refusal is the error of a net that an account's UPDATE refused: no such
// account, a balance out of an amount's range, a net that would take it
// beyond the bound, or a wallet's or bank's insufficient funds.
func refusal(ctx context.Context, tx Tx, id, net int64) error {
	var kind string
	var owner int64
	var held string // a balance written before the bound may not be an integer (SQLite)
	err := tx.QueryRow(ctx, `SELECT kind, owner_id, CAST(balance AS TEXT) FROM accounts WHERE id = $1`, id).Scan(&kind, &owner, &held)
	if noRows(err) {
		return sabot.Errorf(sabot.EINVALID, "no account %d", id)
	} else if err != nil {
		return err
	}
	balance, err := strconv.ParseInt(held, 10, 64)
	switch {
	case err != nil || balance > int64(money.Max) || balance < -int64(money.Max):
		return sabot.Errorf(sabot.EINVALID, "refused: the %s of %d holds %s, out of the range of an amount (±%d): run sabot ledger check", kind, owner, held, int64(money.Max))
	case net > int64(money.Max)-balance || net < -int64(money.Max)-balance:
		return sabot.Errorf(sabot.EINVALID, "refused: the %s of %d holds %d; %+d would take it beyond the most a balance may be (±%d minor units)",
			kind, owner, balance, net, int64(money.Max))
	}
	return sabot.Errorf(sabot.EINSUFFICIENT, "insufficient funds: the %s of %d holds %d, the transaction takes %d",
		kind, owner, balance, -net)
}

// CheckLedger proves, on one snapshot of the database, that every account's
// balance equals the sum of its entries, that no wallet or bank is below
// zero, that every transaction nets to zero, and that all the entries sum to
// zero; and it sums the house: the central account and every table's
// (sabot.IsHouse). Every balance and every entry must be an integer within
// ±int64(money.Max): one that is not (a balance SQLite turned into a REAL when
// a sum overflowed, before the bound; a row changed behind the store's back)
// is a problem named by its ID, left out of the sums. The sums are made
// here, not in SQL, so that no data, however corrupt, can make the check
// fail with an overflow instead of reporting.
func (s *Store) CheckLedger(ctx context.Context) (*sabot.LedgerReport, error) {
	r := &sabot.LedgerReport{}
	err := s.read(ctx, func(tx Tx) error {
		var transactions int64
		if err := tx.QueryRow(ctx, `SELECT COUNT(*) FROM transactions`).Scan(&transactions); err != nil {
			return err
		}
		r.Transactions = int(transactions)

		type account struct {
			kind    string
			owner   int64
			balance int64
			sum     int64
			over    bool // the sum of its entries overflows
		}
		accounts := map[int64]*account{}
		var ids []int64
		var balances int64
		balancesOver := false
		rows, err := tx.Query(ctx, `SELECT id, kind, owner_id, CAST(balance AS TEXT) FROM accounts ORDER BY id`)
		if err != nil {
			return err
		}
		for rows.Next() {
			var id, owner int64
			var kind, held string
			if err := rows.Scan(&id, &kind, &owner, &held); err != nil {
				rows.Close()
				return err
			}
			r.Accounts++
			balance, ok := amountOf(held)
			if !ok {
				r.Problems = append(r.Problems, fmt.Sprintf("account %d (%s of %d): balance %s is not an amount (an integer within ±%d)", id, kind, owner, held, int64(money.Max)))
				continue
			}
			accounts[id] = &account{kind: kind, owner: owner, balance: balance}
			ids = append(ids, id)
			balances, balancesOver = addChecked(balances, balance, balancesOver)
			if sabot.IsHouse(kind, owner) {
				// The house is the central account and every table's
				// (a balance that would take the sum beyond an int64,
				// 9,000 tables at the bound, is left out of it).
				house, over := addChecked(r.House, balance, false)
				if !over {
					r.House = house
				}
				if kind == sabot.AccountTableHouse {
					r.HouseTables++
				}
			}
		}
		rows.Close()
		if err := rows.Err(); err != nil {
			return err
		}

		// The entries in the order of their transactions: each
		// transaction's sum is made as its entries go by.
		type unbalanced struct{ id, net int64 }
		var bad []unbalanced
		txID, txSum, txOver, txAny := int64(0), int64(0), false, false
		endTx := func() {
			if txAny && (txSum != 0 || txOver) {
				bad = append(bad, unbalanced{txID, txSum})
			}
		}
		totalOver := false
		rows, err = tx.Query(ctx, `SELECT id, transaction_id, account_id, CAST(amount AS TEXT) FROM entries ORDER BY transaction_id, id`)
		if err != nil {
			return err
		}
		for rows.Next() {
			var id, t, acc int64
			var text string
			if err := rows.Scan(&id, &t, &acc, &text); err != nil {
				rows.Close()
				return err
			}
			r.Entries++
			if t != txID || !txAny {
				endTx()
				txID, txSum, txOver, txAny = t, 0, false, true
			}
			amount, ok := amountOf(text)
			if !ok {
				r.Problems = append(r.Problems, fmt.Sprintf("entry %d (account %d, transaction %d): amount %s is not an amount (an integer within ±%d)", id, acc, t, text, int64(money.Max)))
				continue
			}
			txSum, txOver = addChecked(txSum, amount, txOver)
			r.Total, totalOver = addChecked(r.Total, amount, totalOver)
			if a := accounts[acc]; a != nil {
				a.sum, a.over = addChecked(a.sum, amount, a.over)
			}
		}
		rows.Close()
		if err := rows.Err(); err != nil {
			return err
		}
		endTx()

		for _, id := range ids {
			a := accounts[id]
			switch {
			case a.over:
				r.Problems = append(r.Problems, fmt.Sprintf("account %d (%s of %d): balance %d, its entries sum beyond the range of an int64", id, a.kind, a.owner, a.balance))
			case a.balance != a.sum:
				r.Problems = append(r.Problems, fmt.Sprintf("account %d (%s of %d): balance %d, its entries sum to %d", id, a.kind, a.owner, a.balance, a.sum))
			}
			if !kinds[a.kind] && a.balance < 0 {
				r.Problems = append(r.Problems, fmt.Sprintf("account %d (%s of %d): balance %d is below zero", id, a.kind, a.owner, a.balance))
			}
		}
		for _, u := range bad {
			var memo string
			if err := tx.QueryRow(ctx, `SELECT memo FROM transactions WHERE id = $1`, u.id).Scan(&memo); err != nil {
				return err
			}
			r.Problems = append(r.Problems, fmt.Sprintf("transaction %d (%s): its entries net %+d", u.id, memo, u.net))
		}
		if totalOver {
			r.Problems = append(r.Problems, "the entries sum beyond the range of an int64")
		} else if r.Total != 0 {
			r.Problems = append(r.Problems, fmt.Sprintf("the entries sum to %+d, not 0", r.Total))
		}
		if balancesOver {
			r.Problems = append(r.Problems, "the balances sum beyond the range of an int64")
		} else if balances != 0 {
			r.Problems = append(r.Problems, fmt.Sprintf("the balances sum to %+d, not 0", balances))
		}
		return nil
	})
	if err != nil {
		return nil, fail(err)
	}
	return r, nil
}

// amountOf parses a balance or an amount as the database gives it in text:
// ok only for an integer within ±int64(money.Max).
func amountOf(text string) (int64, bool) {
	n, err := strconv.ParseInt(text, 10, 64)
	if err != nil || n > int64(money.Max) || n < -int64(money.Max) {
		return 0, false
	}
	return n, true
}

// addChecked adds b to a, and reports whether the sum has overflowed (once
// it has, it stays so).
func addChecked(a, b int64, over bool) (int64, bool) {
	sum := a + b
	if (b > 0 && sum < a) || (b < 0 && sum > a) {
		over = true
	}
	return sum, over
}
