package main

import (
	"context"
	"fmt"
	"maps"
	"os"
	"slices"
	"strconv"
	"sync"
	"sync/atomic"
	"time"

	"github.com/schollz/progressbar/v3"
	"github.com/spf13/cobra"
	"golang.org/x/term"

	"sabot"
	"sabot/internal/report"
	"sabot/internal/store"
	"sabot/money"
)

// newReportSynthCmd is `sabot report synth`, hidden: a store of synthetic
// rounds to measure the reports on (docs/pit.md). It writes
// through the store's bulk load (sabot.BulkLoader: the records and their
// ledger postings, thousands of rounds a transaction), not through a
// server; the rounds are made on one goroutine and written on another.
func newReportSynthCmd(e *env) *cobra.Command {
	var dsn, from, cpuProfile string
	var rounds, tables, players, batch, days, writers int
	var progress bool
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
			if rounds < 1 || tables < 1 || players < 1 || batch < 1 || days < 1 || writers < 1 {
				return refused("report synth: --rounds, --tables, --players, --batch, --days and --writers are 1 or more")
			}
			ctx := cmd.Context()
			st, err := store.Open(ctx, dsn)
			if err != nil {
				return failed("%v", err)
			}
			defer st.Close()
			bl, ok := st.(sabot.BulkLoader)
			if !ok {
				return failed("report synth: the store does not load in bulk")
			}
			showBar := progress
			if f, ok := e.stderr.(*os.File); ok && !cmd.Flags().Changed("progress") {
				showBar = term.IsTerminal(int(f.Fd()))
			}
			stopProfile, err := startCPUProfile("report synth", cpuProfile)
			if err != nil {
				return err
			}
			defer stopProfile()
			return synth(ctx, e, st, bl, start, time.Duration(days)*24*time.Hour, rounds, tables, players, batch, writers, showBar)
		},
	}
	c.Flags().StringVar(&dsn, "db", store.DefaultDSN, "the store: a SQLite file, or a postgres:// URL (its tables are added to)")
	c.Flags().StringVar(&from, "from", "2025-11-26", "the first round's day; the rounds span --days from it")
	c.Flags().IntVar(&days, "days", 365, "the days the rounds span")
	c.Flags().IntVar(&rounds, "rounds", 10_000_000, "rounds, over every table")
	c.Flags().IntVar(&tables, "tables", 20, "tables, vegas-s17 and vegas-h17 in turn")
	c.Flags().IntVar(&players, "players", 2000, "players; every fifth counts cards (a Hi-Lo ramp)")
	c.Flags().IntVar(&batch, "batch", 2000, "rounds a transaction")
	c.Flags().IntVar(&writers, "writers", 1, "transactions written side by side, each for its share of the tables (2 on PostgreSQL: a connection each)")
	c.Flags().StringVar(&cpuProfile, "cpuprofile", "", "write a CPU profile (go tool pprof) to this file")
	c.Flags().BoolVar(&progress, "progress", false, "show the progress bar on stderr even when it is not a terminal")
	return c
}

func synth(ctx context.Context, e *env, st sabot.Store, bl sabot.BulkLoader,
	from time.Time, span time.Duration, rounds, tables, players, batch, writers int, showBar bool) error {
	s := &report.Synth{From: from, Unit: 1000, Seed: uint64(from.Unix()), Counters: 5}
	s.Every = span / time.Duration((rounds+tables-1)/tables)
	tableHouse := map[int64]int64{}
	for i := range tables {
		prof := []string{"vegas-s17", "vegas-h17"}[i%2]
		t := &sabot.Table{Name: "synth " + strconv.Itoa(i+1), Profile: prof}
		if err := st.CreateTable(ctx, t); err != nil {
			return failed("report synth: %v", err)
		}
		s.Tables = append(s.Tables, t)
		// The house's side of the table's rounds, as a table posts it:
		// the table's own account.
		th, err := st.Account(ctx, sabot.AccountTableHouse, t.ID)
		if err != nil {
			return failed("report synth: %v", err)
		}
		tableHouse[t.ID] = th.ID
		opened := &sabot.LogRecord{TableID: t.ID, Kind: sabot.LogTableOpened, Created: from,
			Payload: []byte(fmt.Sprintf(`{"name":%q,"profile":%q}`, t.Name, prof))}
		if _, err := st.Append(ctx, sabot.Appending(opened), nil); err != nil {
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
	var bar *progressbar.ProgressBar
	if showBar {
		bar = progressbar.NewOptions64(int64(rounds),
			progressbar.OptionSetWriter(e.stderr),
			progressbar.OptionSetDescription("synth"),
			progressbar.OptionShowCount(),
			progressbar.OptionShowIts(),
			progressbar.OptionSetItsString("rounds"),
			progressbar.OptionSetPredictTime(true),
			progressbar.OptionThrottle(200*time.Millisecond),
			progressbar.OptionClearOnFinish())
	}
	// The rounds are made here and written by other goroutines, a batch
	// behind: the engine's work and the store's overlap. Each writer
	// writes the rounds of its share of the tables (the table's place,
	// modulo the writers), so that a table's records keep their order and
	// two writers never wait for each other's table; only the accounts of
	// the players, updated at the end of each transaction, are shared
	// (each table has its house account).
	ctx, cancel := context.WithCancel(ctx)
	defer cancel()
	writerOf := map[int64]int{}
	for i, t := range s.Tables {
		writerOf[t.ID] = i % writers
	}
	var (
		wrote sync.WaitGroup
		errMu sync.Mutex
		wrErr error
		done  atomic.Int64
	)
	queues := make([]chan []sabot.BulkAppend, writers)
	for w := range queues {
		queues[w] = make(chan []sabot.BulkAppend, 2)
		wrote.Go(func() {
			ok := true
			for b := range queues[w] {
				if !ok {
					continue
				}
				if err := bl.BulkLoad(ctx, b); err != nil {
					errMu.Lock()
					if wrErr == nil {
						wrErr = err
					}
					errMu.Unlock()
					ok = false
					cancel() // the rounds stop being made
					continue
				}
				n := done.Add(int64(len(b) / 2))
				if bar != nil {
					bar.Set64(n)
				}
			}
		})
	}
	pending := make([][]sabot.BulkAppend, writers)
	var made error
	send := func(w int) {
		select {
		case queues[w] <- pending[w]:
		case <-ctx.Done():
			made = ctx.Err()
		}
		pending[w] = make([]sabot.BulkAppend, 0, 2*batch)
	}
	for n := 1; n <= rounds && made == nil; n++ {
		r, err := s.Next()
		if err != nil {
			made = failed("report synth: %v", err)
			break
		}
		ps := []sabot.Posting{{AccountID: tableHouse[r.Deal.TableID], Amount: r.House, Memo: "round"}}
		for _, p := range slices.Sorted(maps.Keys(r.Net)) {
			ps = append(ps, sabot.Posting{AccountID: wallets[p], Amount: r.Net[p], Memo: "round"})
		}
		w := writerOf[r.Deal.TableID]
		pending[w] = append(pending[w], sabot.BulkAppend{Rec: r.Deal}, sabot.BulkAppend{Rec: r.Settle, Postings: ps})
		if len(pending[w]) == 2*batch {
			send(w)
		}
	}
	for w := range pending {
		if len(pending[w]) > 0 && made == nil {
			send(w)
		}
		close(queues[w])
	}
	wrote.Wait()
	if wrErr != nil {
		return failed("report synth: %v", wrErr)
	} else if made != nil {
		return made
	}
	if bar != nil {
		bar.Finish()
	}
	el := time.Since(began)
	fmt.Fprintf(e.stderr, "%d rounds in %s (%.0f a second)\n", rounds, el.Round(time.Second), float64(rounds)/el.Seconds())
	return nil
}
