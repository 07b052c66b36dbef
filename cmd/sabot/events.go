package main

import (
	"encoding/json"
	"fmt"
	"slices"
	"strings"
	"time"

	"github.com/spf13/cobra"

	"sabot/internal/recall"
	"sabot/internal/store"
)

func newEventsCmd(e *env) *cobra.Command {
	var (
		dsn, since, class string
		table             int64
		limit             int
		asJSON            bool
	)
	c := &cobra.Command{
		Use:   "events",
		Short: "print the significant-event log: voids, timeouts, credits, pit actions, configuration changes (newest first)",
		Args:  cobra.NoArgs,
		RunE: func(cmd *cobra.Command, args []string) error {
			q := recall.EventQuery{Table: table, Limit: limit, Class: class}
			if since != "" {
				at, err := time.Parse(time.RFC3339, since)
				if err != nil {
					return refused("sabot events: --since %q is not an RFC 3339 time, e.g. 2026-11-22T10:00:00Z", since)
				}
				q.Since = at
			}
			if class != "" && !slices.Contains(recall.EventClasses, class) {
				return refused("sabot events: --class %q: give one of %s", class, strings.Join(recall.EventClasses, ", "))
			}
			if limit < 0 {
				return refused("sabot events: --limit %d: give 0 (all) or more", limit)
			}
			st, err := openStore(cmd.Context(), dsn)
			if err != nil {
				return err
			}
			defer st.Close()
			evs, err := recall.Events(cmd.Context(), st, q)
			if err != nil {
				return appErr("sabot events", err)
			}
			if asJSON {
				enc := json.NewEncoder(e.stdout)
				enc.SetIndent("", "  ")
				return enc.Encode(evs)
			}
			for _, ev := range evs {
				who := "server"
				if ev.UserID != 0 {
					who = fmt.Sprintf("user %d", ev.UserID)
				}
				fmt.Fprintf(e.stdout, "%s  table %d #%d  %-12s %-8s %s\n", ev.At.Format("2006-01-02 15:04:05.000"), ev.Table, ev.Seq, ev.Kind, who, ev.Summary)
			}
			return nil
		},
	}
	f := c.Flags()
	f.StringVar(&dsn, "db", store.DefaultDSN, "the store: a SQLite file, or a postgres:// URL")
	f.Int64Var(&table, "table", 0, "one table's events (0: every table's)")
	f.StringVar(&since, "since", "", "events at or after this time (RFC 3339)")
	f.StringVar(&class, "class", "", "one class of events: "+strings.Join(recall.EventClasses, ", ")+" (\"\": every one)")
	f.IntVar(&limit, "limit", 200, "at most this many (0: all)")
	f.BoolVar(&asJSON, "json", false, "print the events as JSON")
	return c
}
