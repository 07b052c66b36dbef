package main

import (
	"context"
	"fmt"
	"strconv"
	"time"

	"github.com/spf13/cobra"

	"sabot"
	"sabot/internal/report"
	"sabot/internal/store"
	"sabot/internal/store/sqlstore"
	"sabot/money"
)

// newReportSynthCmd is `sabot report synth`, hidden: a store of synthetic
// rounds to measure the reports on (issue 29 item 6, docs/pit.md). It writes
// through the store (AppendBatch: the records and their ledger postings),
// not through a server.
func newReportSynthCmd(e *env) *cobra.Command {
	var dsn, from string
	var rounds, tables, players, batch int
	c := &cobra.Command{
		Use:    "synth",
		Short:  "Write synthetic rounds into a new store, to measure the reports on (docs/pit.md)",
		Hidden: true,
		Args:   cobra.NoArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			start, err := reportTime("from", from)
			if err != nil {
				return err
			}
			if rounds < 1 || tables < 1 || players < 1 || batch < 1 {
				return refused("report synth: --rounds, --tables, --players and --batch are 1 or more")
			}
			ctx := cmd.Context()
			st, err := store.Open(ctx, dsn)
			if err != nil {
				return failed("%v", err)
			}
			defer st.Close()
			b, ok := st.(interface {
				AppendBatch(context.Context, []sqlstore.BatchAppend)
			})
			if !ok {
				return failed("report synth: the store does not append in batches")
			}
			return synth(ctx, e, st, b.AppendBatch, start, rounds, tables, players, batch)
		},
	}
	c.Flags().StringVar(&dsn, "db", store.DefaultDSN, "the store: a SQLite file, or a postgres:// URL (its tables are added to)")
	c.Flags().StringVar(&from, "from", "2025-11-26", "the first round's day; the rounds span a year from it")
	c.Flags().IntVar(&rounds, "rounds", 10_000_000, "rounds, over every table")
	c.Flags().IntVar(&tables, "tables", 20, "tables, vegas-s17 and vegas-h17 in turn")
	c.Flags().IntVar(&players, "players", 2000, "players; every fifth counts cards (a Hi-Lo ramp)")
	c.Flags().IntVar(&batch, "batch", 500, "rounds a transaction")
	return c
}

func synth(ctx context.Context, e *env, st sabot.Store, appendBatch func(context.Context, []sqlstore.BatchAppend),
	from time.Time, rounds, tables, players, batch int) error {
	s := &report.Synth{From: from, Unit: 1000, Seed: uint64(from.Unix()), Counters: 5}
	s.Every = 365 * 24 * time.Hour / time.Duration((rounds+tables-1)/tables)
	for i := range tables {
		prof := []string{"vegas-s17", "vegas-h17"}[i%2]
		t := &sabot.Table{Name: "synth " + strconv.Itoa(i+1), Profile: prof}
		if err := st.CreateTable(ctx, t); err != nil {
			return failed("report synth: %v", err)
		}
		s.Tables = append(s.Tables, t)
		opened := &sabot.LogRecord{TableID: t.ID, Kind: sabot.LogTableOpened, Created: from,
			Payload: []byte(fmt.Sprintf(`{"name":%q,"profile":%q}`, t.Name, prof))}
		if _, err := st.Append(ctx, opened, nil); err != nil {
			return failed("report synth: %v", err)
		}
	}
	house, err := st.Account(ctx, sabot.AccountHouse, 0)
	if err != nil {
		return failed("report synth: %v", err)
	}
	wallets := map[string]int64{}
	for i := range players {
		name := fmt.Sprintf("synth%05d", i)
		s.Players = append(s.Players, name)
		u := &sabot.User{Name: name}
		if err := st.CreateUser(ctx, u); err != nil {
			return failed("report synth: %v", err)
		}
		w, err := st.Account(ctx, sabot.AccountWallet, u.ID)
		if err != nil {
			return failed("report synth: %v", err)
		}
		wallets[name] = w.ID
		// Enough to lose at the ramp's top every round of the year.
		const stake = money.Amount(1_000_000_000)
		if err := st.Transfer(ctx, "synth credit", []sabot.Posting{{AccountID: house.ID, Amount: -stake}, {AccountID: w.ID, Amount: stake}}); err != nil {
			return failed("report synth: %v", err)
		}
	}
	began := time.Now()
	var b []sqlstore.BatchAppend
	flush := func() error {
		appendBatch(ctx, b)
		for _, x := range b {
			if x.Err != nil {
				return failed("report synth: %v", x.Err)
			}
		}
		b = b[:0]
		return ctx.Err()
	}
	for n := 1; n <= rounds; n++ {
		r, err := s.Next()
		if err != nil {
			return failed("report synth: %v", err)
		}
		ps := []sabot.Posting{{AccountID: house.ID, Amount: r.House, Memo: "round"}}
		for p, net := range r.Net {
			ps = append(ps, sabot.Posting{AccountID: wallets[p], Amount: net, Memo: "round"})
		}
		b = append(b, sqlstore.BatchAppend{Rec: r.Deal}, sqlstore.BatchAppend{Rec: r.Settle, Postings: ps})
		if n%batch == 0 || n == rounds {
			if err := flush(); err != nil {
				return err
			}
		}
		if n%100_000 == 0 || n == rounds {
			el := time.Since(began)
			fmt.Fprintf(e.stderr, "%d rounds in %s (%.0f a second)\n", n, el.Round(time.Second), float64(n)/el.Seconds())
		}
	}
	return nil
}
