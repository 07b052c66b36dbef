package main

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"maps"
	"slices"
	"strings"
	"text/tabwriter"

	"github.com/spf13/cobra"

	"sabot"
	"sabot/card"
	"sabot/internal/client"
	"sabot/internal/recall"
	"sabot/internal/store"
	"sabot/internal/wire"
	"sabot/money"
)

// openStore opens the store a --db flag names, for a command that only
// reads it: it must exist (a mistyped name never makes an empty store), and
// a hot standby opens read-only (openExistingRead).
func openStore(ctx context.Context, dsn string) (sabot.Store, error) {
	return openExistingRead(ctx, dsn)
}

// appErr turns an application error into an exit: refused input (2) for
// what the user asked wrongly, failure (1) otherwise.
func appErr(cmd string, err error) error {
	switch sabot.ErrorCode(err) {
	case sabot.EINVALID, sabot.ENOTFOUND, sabot.ECONFLICT:
		return refused("%s: %s", cmd, sabot.ErrorMessage(err))
	}
	return failed("%s: %v", cmd, err)
}

func newRecallCmd(e *env) *cobra.Command {
	var dsn string
	var asJSON bool
	c := &cobra.Command{
		Use:   "recall ROUND",
		Short: "print a round's full record: shoe and position, every card, every decision and who made it, balances (game recall)",
		Args:  cobra.ExactArgs(1),
		RunE: func(cmd *cobra.Command, args []string) error {
			st, err := openStore(cmd.Context(), dsn)
			if err != nil {
				return err
			}
			defer st.Close()
			rr, err := recall.Recall(cmd.Context(), st, args[0])
			if err != nil {
				return appErr("sabot recall", err)
			}
			if asJSON {
				enc := json.NewEncoder(e.stdout)
				enc.SetIndent("", "  ")
				return enc.Encode(rr)
			}
			printRecall(e.stdout, rr)
			return nil
		},
	}
	c.Flags().StringVar(&dsn, "db", store.DefaultDSN, "the store: a SQLite file, or a postgres:// URL")
	c.Flags().BoolVar(&asJSON, "json", false, "print the record as JSON")
	return c
}

func printRecall(w io.Writer, rr *wire.RoundRecord) {
	fmt.Fprintf(w, "round %s  table %d %q  profile %s", rr.ID, rr.Table, rr.TableName, rr.Profile)
	for _, k := range slices.Sorted(maps.Keys(rr.Options)) {
		fmt.Fprintf(w, " %s=%s", k, rr.Options[k])
	}
	fmt.Fprintln(w)
	mode := ""
	if rr.Test {
		mode = "  TEST MODE"
		if rr.Forced {
			mode += " (forced cards)"
		}
	}
	if rr.Physical {
		mode += "  PHYSICAL SHOE: its cards were read as dealt; no seed, no commitment to verify"
	}
	fmt.Fprintf(w, "shoe %s  position %d%s\n", rr.Shoe, rr.ShoePos, mode)
	fmt.Fprintf(w, "dealt %s  closed %s\n", rr.Dealt.Format("2006-01-02 15:04:05.000"), rr.Closed.Format("2006-01-02 15:04:05.000"))
	fmt.Fprintln(w, "\nbets")
	for _, b := range rr.Bets {
		fmt.Fprintf(w, "  %-12s box %d  %s\n", b.Player, b.Box, b.Stake)
	}
	fmt.Fprintf(w, "\ncards drawn  %s\n", card.Format(rr.Cards))
	if len(rr.Readings) > 0 {
		fmt.Fprintln(w, "\ncards read from the shoe")
		for _, r := range rr.Readings {
			from := "at the console"
			if r.Device != 0 {
				from = fmt.Sprintf("by card reader %d", r.Device)
			}
			fmt.Fprintf(w, "  %s  %-8s %-3s by %-12s %s\n", r.At.Format("15:04:05.000"), r.Kind, r.Card, r.By, from)
		}
	}
	fmt.Fprintln(w, "\ndecisions")
	for _, d := range rr.Decisions {
		a := d.Action
		what := a.Kind
		if a.Box > 0 {
			what = fmt.Sprintf("box %d hand %d %s", a.Box, a.Hand, a.Kind)
		}
		if a.Stake != 0 {
			what += " " + a.Stake.String()
		}
		if a.Kind == "declare" {
			what += fmt.Sprintf(" %d", a.Value)
		}
		who := a.Player
		if who == "" {
			who = "dealer"
		}
		fmt.Fprintf(w, "  %s  %-12s %-40s by %s\n", d.At.Format("15:04:05.000"), who, what, d.By)
	}
	fmt.Fprintf(w, "\ndealer  %s\n", card.Format(rr.Dealer))
	tw := tabwriter.NewWriter(w, 0, 0, 2, ' ', 0)
	for _, h := range rr.Hands {
		fmt.Fprintf(tw, "  box %d hand %d\t%s\t%d\t%s\n", h.Box, h.Hand, card.Format(h.Cards), h.Total, h.Result)
	}
	tw.Flush()
	if rr.Void {
		fmt.Fprintf(w, "\nVOID: %s; every stake returned\n", rr.Reason)
	}
	fmt.Fprintln(w, "\nsettlement")
	tw = tabwriter.NewWriter(w, 0, 0, 2, ' ', 0)
	for _, b := range rr.Results {
		fmt.Fprintf(tw, "  %s\tbox %d hand %d\t%s\t%s\t%s\t%s\n", b.Player, b.Box, b.Hand, b.Kind, b.Stake, b.Result, signed(b.Net))
	}
	tw.Flush()
	fmt.Fprintln(w, "\nplayers (wallet at the deal, stakes taken → after the payout)")
	for _, p := range sortedNames(rr.Net, rr.WalletsAtDeal) {
		fmt.Fprintf(w, "  %-12s net %s  wallet %s → %s\n", p, signed(rr.Net[p]), rr.WalletsAtDeal[p], rr.WalletsAfter[p])
	}
	house := "house"
	if rr.Bank != "" {
		house = "bank (" + rr.Bank + ")"
	}
	fmt.Fprintf(w, "  %-12s net %s\n", house, signed(rr.House))
}

// signed shows a net amount in units with its sign: "+12.50", "-5.00",
// "0.00" (money.Amount: amounts print as units with two decimals, never
// as minor units).
func signed(a money.Amount) string {
	if a > 0 {
		return "+" + a.String()
	}
	return a.String()
}

func sortedNames[V any](ms ...map[string]V) []string {
	seen := map[string]bool{}
	var out []string
	for _, m := range ms {
		for k := range m {
			if !seen[k] {
				seen[k] = true
				out = append(out, k)
			}
		}
	}
	slices.Sort(out)
	return out
}

func newReplayCmd(e *env) *cobra.Command {
	var dsn string
	c := &cobra.Command{
		Use:   "replay ROUND",
		Short: "replay a recorded round through the engine and check its stored result",
		Args:  cobra.ExactArgs(1),
		RunE: func(cmd *cobra.Command, args []string) error {
			st, err := openStore(cmd.Context(), dsn)
			if err != nil {
				return err
			}
			defer st.Close()
			rep, _, err := recall.ReplayRound(cmd.Context(), st, args[0])
			if err != nil {
				return appErr("sabot replay", err)
			}
			if !rep.OK() {
				for _, p := range rep.Problems {
					fmt.Fprintln(e.stdout, "MISMATCH", p)
				}
				return failed("sabot replay: round %s does not replay to its stored result", rep.Round)
			}
			fmt.Fprintf(e.stdout, "round %s replays to its stored result: house %s", rep.Round, signed(rep.House))
			for _, p := range sortedNames(rep.Net) {
				fmt.Fprintf(e.stdout, ", %s %s", p, signed(rep.Net[p]))
			}
			if rep.Void {
				fmt.Fprint(e.stdout, " (void)")
			}
			fmt.Fprintln(e.stdout)
			return nil
		},
	}
	c.Flags().StringVar(&dsn, "db", store.DefaultDSN, "the store: a SQLite file, or a postgres:// URL")
	return c
}

func newVerifyCmd(e *env) *cobra.Command {
	var dsn, url string
	c := &cobra.Command{
		Use:   "verify SHOE",
		Short: "check a finished shoe against the commitment published when it started, and its rounds against its order",
		Long: `verify checks a finished shoe ("TABLE-SHOE"): its revealed seed and the order it gives hash to the
commitment published when the shoe started, and every round of the shoe drew exactly the next cards of
that order. With --db it reads the store; with --url it asks a server (GET /api/shoes/{id}, no login),
as any player can.`,
		Example: `  sabot verify 3-2 --db sabot.db
  sabot verify 3-2 --url https://tables.example.com`,
		Args: cobra.ExactArgs(1),
		RunE: func(cmd *cobra.Command, args []string) error {
			var rep *wire.VerifyReport
			var err error
			if url != "" {
				if cmd.Flags().Changed("db") {
					return refused("sabot verify: give --db or --url, not both")
				}
				rep, err = verifyShoeAt(cmd.Context(), &client.Client{URL: url}, args[0])
			} else {
				st, oerr := openStore(cmd.Context(), dsn)
				if oerr != nil {
					return oerr
				}
				defer st.Close()
				rep, err = recall.VerifyShoe(cmd.Context(), st, args[0])
			}
			if err != nil {
				return appErr("sabot verify", err)
			}
			fmt.Fprintf(e.stdout, "shoe %s  commitment %s\n", rep.Shoe, rep.Commitment)
			if len(rep.Skipped) > 0 {
				fmt.Fprintf(e.stdout, "skipped (forced cards, test mode): %s\n", strings.Join(rep.Skipped, " "))
			}
			for _, p := range rep.Problems {
				fmt.Fprintln(e.stdout, "PROBLEM", p)
			}
			if !rep.OK() {
				return failed("sabot verify: shoe %s does not verify", rep.Shoe)
			}
			fmt.Fprintf(e.stdout, "ok: the revealed seed gives the committed order; %d rounds, %d cards dealt in order\n", rep.Rounds, rep.Cards)
			return nil
		},
	}
	c.Flags().StringVar(&dsn, "db", store.DefaultDSN, "the store: a SQLite file, or a postgres:// URL")
	c.Flags().StringVar(&url, "url", "", "ask the server at this URL instead of reading a store (http://host:port)")
	return c
}

// verifyShoeAt checks a finished shoe from a server, without its store:
// every page of GET /api/shoes/{id}, checked by recall.CheckShoe (`sabot
// verify --url`).
func verifyShoeAt(ctx context.Context, c *client.Client, id string) (*wire.VerifyReport, error) {
	info, err := recall.WholeShoe(func(after int) (*wire.ShoeReport, error) { return c.Shoe(ctx, id, after, recall.MaxShoePage) })
	if err != nil {
		return nil, err
	}
	return recall.CheckShoe(info)
}
