package main

import (
	"encoding/json"
	"errors"
	"fmt"
	"net"
	"net/http"
	"os"
	"slices"
	"strings"
	"time"

	"github.com/spf13/cobra"

	"sabot"
	"sabot/internal/store"
	"sabot/internal/wallet"
	"sabot/internal/wallet/walletsim"
	"sabot/money"
)

func newWalletCmd(e *env) *cobra.Command {
	c := &cobra.Command{
		Use:   "wallet",
		Short: "The operator's wallet (docs/wallet.md): reconcile sabot's outbox with the operator's statement",
		Args:  cobra.NoArgs,
	}
	var dsn, statement, since, until string
	rec := &cobra.Command{
		Use:   "reconcile",
		Short: "Compare sabot's calls to the operator's wallet with the operator's statement for a period; print every difference (exit 1 if any)",
		Long: `reconcile reads the calls sabot made to the operator's wallet (its outbox) and the
operator's statement (a JSON array of the transactions it acted on: transaction_id, op,
player, amount, status — the reference operator's Statement), over a period, and prints
every difference:

  - a call the operator acknowledged that sabot has not, or holds as refused;
  - a call sabot holds as acknowledged that the statement does not have;
  - a transaction whose operation, player or amount differ;
  - a debit that lapsed in sabot (no answer in time) and that the operator took, with no
    rollback of it acknowledged;
  - a call sabot has not delivered yet;
  - money owed: a credit or rollback the operator refused that no call sent again has paid
    and the pit has not resolved by hand (POST /api/admin/wallet/owed/{id}/resolve), with
    the amount owed.

Money owed that the pit resolved by hand is listed with its reason; it is no difference.

The period (--since, --until: RFC 3339 or YYYY-MM-DD) selects sabot's calls by when they
were written; the statement's entries are matched by transaction ID.`,
		Args: cobra.NoArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			var from, to time.Time
			var err error
			if from, err = parseWhen("--since", since); err != nil {
				return err
			}
			if to, err = parseWhen("--until", until); err != nil {
				return err
			}
			if statement == "" {
				return refused("sabot wallet reconcile: give the operator's statement: --statement FILE (a JSON array of transactions)")
			}
			b, err := os.ReadFile(statement)
			if err != nil {
				return refused("sabot wallet reconcile: --statement: %v", errors.Unwrap(err))
			}
			var entries []wallet.StatementEntry
			if err := json.Unmarshal(b, &entries); err != nil {
				return refused("sabot wallet reconcile: --statement %s is not a JSON array of transactions: %v", statement, err)
			}
			s, err := openExisting(cmd.Context(), dsn)
			if err != nil {
				return err
			}
			defer s.Close()
			o, ok := s.(sabot.Outbox)
			if !ok {
				return failed("the store %T has no outbox", s)
			}
			calls, err := o.Calls(cmd.Context(), sabot.CallQuery{Since: from, Until: to})
			if err != nil {
				return failed("cannot read the outbox: %s", errCause(err))
			}
			// The statement's entries of the period (by the operator's clock).
			entries = slices.DeleteFunc(entries, func(x wallet.StatementEntry) bool {
				return !from.IsZero() && x.At.Before(from) || !to.IsZero() && !x.At.Before(to)
			})
			diffs := reconcile(calls, entries)
			owed, err := o.Owed(cmd.Context())
			if err != nil {
				return failed("cannot read the money owed: %s", errCause(err))
			}
			inPeriod := map[string]bool{}
			for _, c := range calls {
				inPeriod[c.ID] = true
			}
			for _, c := range owed {
				if inPeriod[c.ID] {
					diffs = append(diffs, owedLine(c))
				}
			}
			for _, d := range diffs {
				fmt.Fprintln(e.stdout, d)
			}
			for _, c := range calls {
				if c.Resolved != "" {
					fmt.Fprintf(e.stdout, "%s %s (%s, %s, %d): refused by the operator; resolved by %s at %s: %s\n", c.Op, c.ID, c.Player, c.Round, c.Amount,
						c.ResolvedBy, c.ResolvedAt.UTC().Format(time.RFC3339), c.Resolved)
				}
			}
			if len(diffs) > 0 {
				return failed("sabot wallet reconcile: %d differences in %d calls", len(diffs), len(calls))
			}
			fmt.Fprintf(e.stdout, "sabot and the operator agree: %d calls\n", len(calls))
			return nil
		},
	}
	rec.Flags().StringVar(&dsn, "db", store.DefaultDSN, "the store: a SQLite file, or a postgres:// URL")
	rec.Flags().StringVar(&statement, "statement", "", "the operator's statement: a JSON array of transactions")
	rec.Flags().StringVar(&since, "since", "", "from this time (RFC 3339 or YYYY-MM-DD; default: the first call)")
	rec.Flags().StringVar(&until, "until", "", "to this time, excluded (default: the last call)")
	c.AddCommand(rec)
	return c
}

func parseWhen(flag, v string) (time.Time, error) {
	if v == "" {
		return time.Time{}, nil
	}
	for _, layout := range []string{time.RFC3339Nano, time.DateOnly} {
		if t, err := time.Parse(layout, v); err == nil {
			return t, nil
		}
	}
	return time.Time{}, refused("sabot wallet reconcile: %s %q: give a time as 2026-11-25T16:00:00Z or a date as 2026-11-25", flag, v)
}

// reconcile returns the differences between sabot's calls and the
// operator's statement, one line each, in the order of sabot's calls then
// the statement's.
func reconcile(calls []*sabot.WalletCall, entries []wallet.StatementEntry) []string {
	byID := map[string]wallet.StatementEntry{}
	for _, e := range entries {
		if e.Op == wallet.OpAuthenticate || e.Op == wallet.OpBalance {
			continue // reads: nothing to reconcile
		}
		if _, ok := byID[e.TransactionID]; !ok {
			byID[e.TransactionID] = e
		}
	}
	ours := map[string]*sabot.WalletCall{}
	rolledBack := map[string]bool{}
	for _, c := range calls {
		ours[c.ID] = c
		if c.Op == wallet.OpRollback && c.State == sabot.CallOK {
			rolledBack[c.Reference] = true
		}
	}
	var out []string
	for _, c := range calls {
		e, there := byID[c.ID]
		say := func(format string, a ...any) {
			out = append(out, fmt.Sprintf("%s %s (%s, %s, %d): ", c.Op, c.ID, c.Player, c.Round, c.Amount)+fmt.Sprintf(format, a...))
		}
		switch {
		case c.State == sabot.CallPending:
			say("not answered yet (%d tries)", c.Attempts)
		case there && (e.Op != c.Op || e.Player != c.Player || e.Amount != c.Amount):
			say("the operator has %s of %d for %s", e.Op, e.Amount, e.Player)
		case c.State == sabot.CallOK && !there:
			say("acknowledged in sabot; not in the operator's statement")
		case c.State == sabot.CallOK && e.Status != wallet.StatusOK:
			say("acknowledged in sabot; %s by the operator (%s)", e.Status, e.Reason)
		case c.State == sabot.CallRefused && there && e.Status == wallet.StatusOK:
			say("refused in sabot; acted on by the operator")
		case c.State == sabot.CallLapsed && there && e.Status == wallet.StatusOK && !rolledBack[c.ID]:
			say("lapsed in sabot (no answer in time) and taken by the operator, with no rollback acknowledged")
		}
	}
	ids := make([]string, 0, len(byID))
	for id := range byID {
		ids = append(ids, id)
	}
	slices.Sort(ids)
	for _, id := range ids {
		e := byID[id]
		if _, ok := ours[id]; !ok && e.Status == wallet.StatusOK {
			out = append(out, fmt.Sprintf("%s %s (%s, %s, %d): in the operator's statement; sabot made no such call in the period", e.Op, id, e.Player, e.Round, e.Amount))
		}
	}
	return out
}

// owedLine says an item of money owed: the refused call, why, how much is
// owed to whom, and its tries.
func owedLine(c *sabot.WalletCall) string {
	var res wallet.Response
	json.Unmarshal(c.Answer, &res)
	next := "no more tries by sabot: the pit resolves it"
	if !c.NextRetry.IsZero() {
		next = "sent again at " + c.NextRetry.UTC().Format(time.RFC3339)
	}
	return fmt.Sprintf("%s %s (%s, %s, %d): refused by the operator (%s %s): %s owed to %s since %s, sent again %d times; %s",
		c.Op, c.ID, c.Player, c.Round, c.Amount, res.Reason, res.Message, c.Amount, c.Player, c.Answered.UTC().Format(time.RFC3339), c.Retries, next)
}

func newWalletSimCmd(e *env) *cobra.Command {
	var (
		addr, currency string
		players        []string
		f              walletsim.Faults
		tokenTTL       time.Duration
	)
	c := &cobra.Command{
		Use:   "wallet-sim",
		Short: "Run the reference operator's wallet (docs/wallet.md): players, tokens, faults, its statement at GET /statement",
		Long: `wallet-sim is the operator's side of the seamless wallet on its own accounts, for trying
sabot serve --wallet without an operator, and for an operator to compare its wallet with.
It answers the calls at http://ADDR/{authenticate,balance,debit,credit,rollback}, signed with
the secret in $` + WalletSecretEnv + `, and serves its statement (every transaction it acted
on, the input of sabot wallet reconcile) at GET /statement. Each --player is
ID:BALANCE:TOKEN[,TOKEN…] (the balance in minor units; a token is what the operator's site would
put in the launch link: /launch?token=TOKEN). A token launches once, within --token-ttl, as an
operator's must: give a player several to launch him several times. Faults are shares of calls,
0 to 1.`,
		Example: `  export ` + WalletSecretEnv + `=a-long-shared-secret
  sabot wallet-sim --currency EUR --player ana:100000:tok-ana --player ben:5000:tok-ben &
  sabot serve --wallet http://127.0.0.1:9090 --currency EUR
  # a browser opens http://127.0.0.1:8080/launch?token=tok-ana`,
		Args: cobra.NoArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			secret := os.Getenv(WalletSecretEnv)
			if len(secret) < 16 {
				return refused("sabot wallet-sim: the shared secret (16 bytes or more) goes in $%s", WalletSecretEnv)
			}
			if currency == "" {
				return refused("sabot wallet-sim: give the accounts' currency: --currency EUR")
			}
			for _, r := range []float64{f.FailRate, f.LostRate, f.SlowRate, f.HoldRate} {
				if r < 0 || r > 1 {
					return refused("sabot wallet-sim: a fault's rate is a share of calls, 0 to 1: %v", r)
				}
			}
			if tokenTTL <= 0 {
				return refused("sabot wallet-sim: --token-ttl %v: give a positive time", tokenTTL)
			}
			op := walletsim.New([]byte(secret), currency)
			op.Faults = f
			op.TokenTTL = tokenTTL
			for _, p := range players {
				parts := strings.Split(p, ":")
				var balance money.Amount
				if len(parts) != 3 || parts[0] == "" || parts[2] == "" {
					return refused("sabot wallet-sim: --player %q: give ID:BALANCE:TOKEN, e.g. ana:100000:tok-ana", p)
				}
				if _, err := fmt.Sscan(parts[1], &balance); err != nil || balance < 0 || balance > money.Max {
					return refused("sabot wallet-sim: --player %q: the balance is minor units, 0 to %d (money.Max)", p, int64(money.Max))
				}
				op.AddPlayer(parts[0], parts[0], balance)
				for _, tok := range strings.Split(parts[2], ",") {
					if tok == "" {
						return refused("sabot wallet-sim: --player %q: an empty token", p)
					}
					op.IssueToken(parts[0], tok)
				}
			}
			mux := http.NewServeMux()
			mux.HandleFunc("GET /statement", func(w http.ResponseWriter, r *http.Request) {
				w.Header().Set("Content-Type", "application/json")
				json.NewEncoder(w).Encode(op.Statement())
			})
			mux.Handle("/", op)
			ln, err := net.Listen("tcp", addr)
			if err != nil {
				return failed("sabot wallet-sim: %v", err)
			}
			srv := &http.Server{Handler: mux, ReadHeaderTimeout: 10 * time.Second}
			fmt.Fprintf(e.stdout, "sabot wallet-sim: http://%s (%d players)\n", ln.Addr(), len(players))
			go func() {
				<-cmd.Context().Done()
				srv.Close()
			}()
			if err := srv.Serve(ln); err != nil && !errors.Is(err, http.ErrServerClosed) {
				return failed("sabot wallet-sim: %v", err)
			}
			return nil
		},
	}
	fl := c.Flags()
	fl.StringVar(&addr, "addr", "127.0.0.1:9090", "listen address")
	fl.StringVar(&currency, "currency", "", "the accounts' currency (ISO 4217)")
	fl.StringArrayVar(&players, "player", nil, "a player: ID:BALANCE:TOKEN[,TOKEN…], each token launching once (repeat)")
	fl.DurationVar(&tokenTTL, "token-ttl", time.Hour, "how long after the start a token launches")
	fl.Float64Var(&f.FailRate, "fail-rate", 0, "calls answered 500 before acting")
	fl.Float64Var(&f.LostRate, "lost-rate", 0, "calls acted on, then answered 500 (sabot sends them again)")
	fl.Float64Var(&f.SlowRate, "slow-rate", 0, "calls acted on, then answered after --slow")
	fl.Float64Var(&f.HoldRate, "hold-rate", 0, "calls held for --slow before acting (later calls act first)")
	fl.DurationVar(&f.Slow, "slow", 5*time.Second, "how long a slow or held call waits")
	fl.DurationVar(&f.Delay, "delay", 0, "every answer waits this long")
	return c
}
