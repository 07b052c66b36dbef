package main

import (
	"context"
	"fmt"
	"os"
	"os/signal"
	"syscall"
	"time"

	"github.com/spf13/cobra"

	"sabot/internal/client"
)

func newHostileCmd(e *env) *cobra.Command {
	var (
		h   client.Hostile
		dur time.Duration
	)
	c := &cobra.Command{
		Use:   "hostile --url URL --table ID",
		Short: "one hostile client at full speed, to measure what it does to the other players (load tests)",
		Long: `hostile attacks a server of yours for --for: password guessing on --victim and on unknown
names, registrations, up to --sockets WebSockets of one account on --table each asking for snapshots
without pause, and table commands with malformed IDs, each attack with --workers goroutines. It prints
(at the end, or when interrupted) what each attack met (HTTP statuses, sockets refused or closed). Run it beside 'sabot bots' and compare
the bots' latency with a quiet run (docs/server.md, "Abuse and limits"). Point it only at your own
server: --from sends from another loopback address (127.0.0.2) so that the limits per client address
meet it and not the bots.`,
		Args: cobra.NoArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			if h.URL == "" || h.Table < 1 {
				return refused("sabot hostile: --url and --table are required")
			}
			if dur <= 0 {
				return refused("sabot hostile: --for must be positive (got %s)", dur)
			}
			// Interrupted (Ctrl-C, SIGTERM), it stops and prints what it met.
			ctx, stop := signal.NotifyContext(cmd.Context(), os.Interrupt, syscall.SIGTERM)
			defer stop()
			ctx, cancel := context.WithTimeout(ctx, dur)
			defer cancel()
			rep, err := h.Run(ctx)
			if err != nil {
				return failed("sabot hostile: %v", err)
			}
			fmt.Fprint(e.stdout, rep)
			return nil
		},
	}
	f := c.Flags()
	f.StringVar(&h.URL, "url", "", "the server's base URL, e.g. http://127.0.0.1:8080")
	f.Int64Var(&h.Table, "table", 0, "the table its sockets and commands go to")
	f.StringVar(&h.Name, "name", "mallory", "its own account (registered if it does not exist)")
	f.StringVar(&h.Password, "password", "mallory-password", "its own account's password")
	f.StringVar(&h.Victim, "victim", "admin", "a name whose password it guesses")
	f.IntVar(&h.Workers, "workers", 8, "goroutines per attack")
	f.IntVar(&h.Sockets, "sockets", 256, "WebSockets it tries to hold on the table")
	f.StringVar(&h.LocalAddr, "from", "", "the local address it sends from (e.g. 127.0.0.2)")
	f.DurationVar(&dur, "for", 30*time.Second, "how long it attacks")
	return c
}
