package main

import (
	"bufio"
	"context"
	"errors"
	"fmt"
	"io"
	"net/http"
	"os"
	"os/signal"
	"strconv"
	"strings"
	"syscall"
	"time"

	"github.com/spf13/cobra"

	"sabot"
	"sabot/card"
	"sabot/engine"
	"sabot/internal/client"
	"sabot/internal/report"
	"sabot/rules"
)

func newBotsCmd(e *env) *cobra.Command {
	var (
		cfg      client.BotsConfig
		opts     profileFlags
		limit    time.Duration
		strategy string
		profile  string
	)
	c := &cobra.Command{
		Use:   "bots --url URL",
		Short: "play bots over the real protocol with a basic strategy: for demos, tests and load",
		Long: `bots creates --tables tables, registers --players players per table and credits them (as the
administrator --admin, password in $` + AdminPasswordEnv + `), then each plays --rounds rounds at its
box over the table's WebSocket, and prints the decisions per second and the decision-to-event latency.
SIGINT or SIGTERM stops the play and prints the same report of what was played until then.`,
		Args: cobra.NoArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			if cfg.URL == "" {
				return refused("sabot bots: --url is required")
			}
			if cfg.Think < 0 || cfg.ThinkJitter < 0 || cfg.ThinkJitter > 1 {
				return refused("sabot bots: --think must not be negative and --think-jitter must be within 0..1 (got %s and %g)", cfg.Think, cfg.ThinkJitter)
			}
			switch strategy {
			case "basic":
			case "hilo-ramp":
				cfg.Count = &client.BotCount{Tags: report.CountHiLo.Tags, Ramp: report.HiLoRampUnits}
			case "hilo-index":
				cfg.Count = &client.BotCount{Tags: report.CountHiLo.Tags, Ramp: report.HiLoRampUnits, Deviate: indexPlay}
			case "hilo-back":
				cfg.Count = &client.BotCount{Tags: report.CountHiLo.Tags, BackAt: report.BackCount}
				if cfg.Backers == 0 {
					cfg.Backers = 1
				}
			default:
				return refused("sabot bots: --strategy %q: want basic, hilo-ramp, hilo-index or hilo-back", strategy)
			}
			if cfg.Backers < 0 || strategy != "hilo-back" && cfg.Backers != 0 {
				return refused("sabot bots: --backers (%d) is a number of back bettors, with --strategy hilo-back", cfg.Backers)
			}
			cfg.AdminPassword = os.Getenv(AdminPasswordEnv)
			if len(opts.options) > 0 {
				cfg.Options = map[string]string{}
				for _, o := range opts.options {
					k, v, ok := strings.Cut(o, "=")
					if !ok {
						return refused("sabot bots: %q is not key=value", o)
					}
					cfg.Options[k] = v
				}
			}
			// VE-20: a lone customer plays at least lone_customer_boxes
			// boxes; each bot plays one, so one bot alone would never be
			// dealt a round.
			if prof, err := sabot.ProfileOf(cfg.Profile, cfg.Options); err == nil && cfg.Players == 1 && cfg.Backers == 0 && prof.LoneBar(1, 1) != rules.NoBar {
				return refused("sabot bots: --players 1 at %s: a lone customer must play at least %d boxes and each bot plays one, so no round would be dealt; give --players 2 or more (%s)",
					cfg.Profile, prof.LoneBoxes(), prof.Cite("VE-20", "lone_customer_boxes"))
			}
			// A signal stops the bots where they are, with the report of
			// what they played: a load run ended from outside.
			ctx, stop := signal.NotifyContext(cmd.Context(), os.Interrupt, syscall.SIGTERM)
			defer stop()
			if limit > 0 {
				var cancel func()
				ctx, cancel = context.WithTimeout(ctx, limit)
				defer cancel()
			}
			stopProfile, err := startCPUProfile("sabot bots", profile)
			if err != nil {
				return err
			}
			// The server's CPU per decision over the play, from its own
			// /metrics (private: $SABOT_METRICS_TOKEN), when it answers.
			var before serverCPU
			token := os.Getenv(MetricsTokenEnv)
			if token != "" {
				cfg.Playing = func() { before = scrapeServerCPU(ctx, cfg.URL, token) }
			}
			rep, err := client.RunBots(ctx, cfg)
			stopProfile()
			var after serverCPU
			if before.ok {
				after = scrapeServerCPU(context.Background(), cfg.URL, token)
			}
			if rep == nil {
				return failed("sabot bots: %v", err)
			}
			fmt.Fprintf(e.stdout, "tables %d  players %d  rounds %d  decisions %d  errors %d  races %d  in %.1fs\n",
				rep.Tables, rep.Players, rep.Rounds, rep.Decisions, rep.Errors, rep.Races, rep.Elapsed.Seconds())
			fmt.Fprintf(e.stdout, "decisions/s %.0f  decision-to-event p50 %s  p99 %s  max %s\n",
				rep.DecisionsPerSecond(), rep.P50, rep.P99, rep.Max)
			if d := after.decisions - before.decisions; after.ok && d > 0 {
				fmt.Fprintf(e.stdout, "server CPU per decision %.3f ms  (its /metrics: process_cpu_seconds_total over sabot_decisions_total{by=\"player\"}, %.0f decisions)\n",
					(after.cpu-before.cpu)*1000/d, d)
			}
			for _, m := range rep.LastErrors {
				fmt.Fprintln(e.stderr, "error:", m)
			}
			if err != nil && !(errors.Is(err, context.Canceled) && cmd.Context().Err() == nil) { // a signal: the report is the answer
				return failed("sabot bots: stopped: %v", err)
			}
			if rep.Errors > 0 {
				return failed("sabot bots: %d errors", rep.Errors)
			}
			return nil
		},
	}
	f := c.Flags()
	f.StringVar(&cfg.URL, "url", "", "the server's base URL, e.g. http://127.0.0.1:8080; or several nodes' separated by commas: the bots spread over them and move to the next when one does not answer")
	f.StringVar(&cfg.AdminName, "admin", "admin", "the administrator who creates the tables and credits the players")
	f.IntVar(&cfg.Tables, "tables", 1, "tables to create")
	f.IntVar(&cfg.Players, "players", 3, "players per table (at most the table's boxes)")
	f.IntVar(&cfg.Rounds, "rounds", 10, "rounds each player plays")
	f.StringVar(&cfg.Profile, "profile", "venice", "the tables' profile")
	f.Int64Var((*int64)(&cfg.Stake), "stake", 100, "each bet, in minor units")
	f.DurationVar(&cfg.Think, "think", 0, "pause before each decision")
	f.Float64Var(&cfg.ThinkJitter, "think-jitter", 0.5, "spread of the pause: each is drawn uniformly within ±this fraction of --think (0: every pause exactly --think)")
	f.StringVar(&cfg.Prefix, "prefix", "", "prefix of the tables' and players' names (default: random)")
	f.DurationVar(&limit, "timeout", 0, "stop after this long (0: when every bot has played)")
	f.StringVar(&strategy, "strategy", "basic", "how the bots bet: basic (flat --stake); hilo-ramp (they count Hi-Lo and bet --stake × 1, 2, 4, 6, 8 at true counts below +2, +2, +3, +4, +5 and up); hilo-index (the ramp, and the Illustrious 18 and Fab 4 index plays); hilo-back (the players bet flat, and --backers back bettors a table count Hi-Lo and bet --stake behind their boxes at true counts of +2 and up): docs/pit.md")
	f.IntVar(&cfg.Backers, "backers", 0, "with --strategy hilo-back: back bettors per table (default 1), behind the players' boxes (the profile must take back bets: spain, venice)")
	f.StringVar(&profile, "cpuprofile", "", "write a CPU profile of the bots (go tool pprof) to this file: the load generator's own cost")
	opts.add(c)
	return c
}

// indexPlay is the hilo-index bots' play: report.IndexDecision at the
// bot's true count, in the protocol's decision names.
func indexPlay(tc float64, hand []card.Card, up card.Card, legal func(kind string) bool) (string, bool) {
	k, ok := report.IndexDecision(tc, hand, up, func(k engine.Kind) bool { return legal(k.String()) })
	return k.String(), ok
}

// serverCPU is a reading of a server's /metrics: its process's CPU
// seconds and the players' decisions it has applied.
type serverCPU struct {
	cpu, decisions float64
	ok             bool
}

// scrapeServerCPU reads the first node's /metrics with the metrics token;
// a server that does not answer gives no reading (ok false).
func scrapeServerCPU(ctx context.Context, urls, token string) serverCPU {
	base := strings.TrimRight(strings.Split(urls, ",")[0], "/")
	ctx, cancel := context.WithTimeout(ctx, 5*time.Second)
	defer cancel()
	req, err := http.NewRequestWithContext(ctx, http.MethodGet, base+"/metrics", nil)
	if err != nil {
		return serverCPU{}
	}
	req.Header.Set("Authorization", "Bearer "+token)
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		return serverCPU{}
	}
	defer resp.Body.Close()
	if resp.StatusCode != http.StatusOK {
		return serverCPU{}
	}
	var r serverCPU
	var seenCPU bool // the decisions' counter shows once a decision is made: none until then
	sc := bufio.NewScanner(io.LimitReader(resp.Body, 8<<20))
	sc.Buffer(make([]byte, 0, 64<<10), 1<<20)
	for sc.Scan() {
		name, value, ok := strings.Cut(sc.Text(), " ")
		if !ok {
			continue
		}
		v, err := strconv.ParseFloat(strings.TrimSpace(value), 64)
		if err != nil {
			continue
		}
		switch name {
		case "process_cpu_seconds_total":
			r.cpu, seenCPU = v, true
		case `sabot_decisions_total{by="player"}`:
			r.decisions = v
		}
	}
	r.ok = sc.Err() == nil && seenCPU
	return r
}
