package main

import (
	"context"
	"errors"
	"fmt"
	"os"
	"strings"

	"github.com/spf13/cobra"

	"sabot"
	"sabot/internal/store"
)

func newLedgerCmd(e *env) *cobra.Command {
	c := &cobra.Command{
		Use:   "ledger",
		Short: "The table server's double-entry ledger",
		Args:  cobra.NoArgs,
	}
	var dsn string
	check := &cobra.Command{
		Use:   "check",
		Short: "Prove every balance equals the sum of its entries and every transaction nets to zero (exit 1 if not)",
		Args:  cobra.NoArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			// Checking a file that is not there must not create it.
			s, err := openExistingRead(cmd.Context(), dsn)
			if err != nil {
				return err
			}
			defer s.Close()
			r, err := s.CheckLedger(cmd.Context())
			if err != nil {
				return failed("cannot check the ledger: %s", errCause(err))
			}
			verdict := "the ledger balances"
			if !r.OK() {
				verdict = "the ledger does NOT balance"
			}
			fmt.Fprintf(e.stdout, "%s: %d accounts, %d transactions, %d entries, total %d\n",
				verdict, r.Accounts, r.Transactions, r.Entries, r.Total)
			// The house is the central account and each table's.
			fmt.Fprintf(e.stdout, "the house: %d (the central account and %d table accounts)\n", r.House, r.HouseTables)
			for _, p := range r.Problems {
				fmt.Fprintf(e.stdout, "  %s\n", p)
			}
			if !r.OK() {
				return failed("ledger check: %d problems", len(r.Problems))
			}
			return nil
		},
	}
	check.Flags().StringVar(&dsn, "db", store.DefaultDSN, "the store: a SQLite file, or a postgres:// URL")
	c.AddCommand(check)
	return c
}

// errCause is what an operator reads of an internal error: its cause, on
// one line.
func errCause(err error) string {
	var e *sabot.Error
	if errors.As(err, &e) && e.Cause != nil {
		err = e.Cause
	}
	return strings.Join(strings.Fields(err.Error()), " ")
}

// openExisting opens a store that must exist already (a command that reads
// it must not create an empty file): refused (exit 2) for a SQLite file
// that is not there or a DSN the store refuses, failed (exit 1) otherwise.
func openExisting(ctx context.Context, dsn string) (sabot.Store, error) {
	return openExistingBy(ctx, dsn, store.Open)
}

// openExistingRead is openExisting for a command that only reads: a hot
// standby opens read-only (store.OpenRead), and a schema behind the code's
// is refused with what to do.
func openExistingRead(ctx context.Context, dsn string) (sabot.Store, error) {
	return openExistingBy(ctx, dsn, store.OpenRead)
}

func openExistingBy(ctx context.Context, dsn string, open func(context.Context, string) (sabot.Store, error)) (sabot.Store, error) {
	if path, _, _ := strings.Cut(dsn, "?"); !store.IsPostgres(dsn) && path != ":memory:" {
		if _, err := os.Stat(path); err != nil {
			return nil, refused("no database %s: %v", path, errors.Unwrap(err))
		}
	}
	s, err := open(ctx, dsn)
	if sabot.ErrorCode(err) == sabot.EINVALID {
		return nil, refused("%s", sabot.ErrorMessage(err))
	} else if sabot.ErrorCode(err) == sabot.EUNAVAILABLE {
		return nil, failed("cannot open the store: %s", sabot.ErrorMessage(err))
	} else if err != nil {
		return nil, failed("cannot open the store: %s", errCause(err))
	}
	return s, nil
}
