package main

import (
	"encoding/json"
	"fmt"
	"strings"
	"text/tabwriter"
	"time"

	"github.com/spf13/cobra"

	"sabot"
	"sabot/internal/store"
)

// NodeReport is one node of `sabot nodes --json`.
type NodeReport struct {
	ID      string    `json:"id"`
	URL     string    `json:"url"`
	State   string    `json:"state"` // live, draining, left, lost, expired
	Tables  []int64   `json:"tables"`
	Started time.Time `json:"started"`
	Renewed time.Time `json:"renewed"`
	Expires time.Time `json:"expires"`
}

// NodesReport is `sabot nodes --json`.
type NodesReport struct {
	Nodes []NodeReport `json:"nodes"`
	// Unowned are the tables no live node serves at the moment.
	Unowned []int64 `json:"unowned"`
}

func nodeState(n sabot.Node) string {
	switch {
	case n.Left:
		return "left"
	case n.Live && n.Draining:
		return "draining"
	case n.Live:
		return "live"
	case n.Lost:
		return "lost"
	}
	return "expired"
}

func newNodesCmd(e *env) *cobra.Command {
	var dsn string
	var asJSON, all bool
	c := &cobra.Command{
		Use:   "nodes",
		Short: "The serve processes sharing a store, their state and the tables each serves",
		Long: `nodes lists the nodes (sabot serve processes) that joined the store, the live ones and
those that left or were lost in the last day (--all), with the tables each serves, and the
tables no live node serves at the moment (docs/server.md, "Several nodes").`,
		Args: cobra.NoArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			s, err := openExisting(cmd.Context(), dsn)
			if err != nil {
				return err
			}
			defer s.Close()
			cl, ok := s.(sabot.Cluster)
			if !ok {
				return failed("the store %s does not keep nodes", dsn)
			}
			ns, err := cl.Nodes(cmd.Context())
			if err != nil {
				return failed("cannot read the nodes: %s", errCause(err))
			}
			ls, err := cl.Leases(cmd.Context())
			if err != nil {
				return failed("cannot read the leases: %s", errCause(err))
			}
			r := NodesReport{Nodes: []NodeReport{}, Unowned: []int64{}}
			held := map[string][]int64{}
			for _, l := range ls {
				if l.Live {
					held[l.Node] = append(held[l.Node], l.TableID)
				} else {
					r.Unowned = append(r.Unowned, l.TableID)
				}
			}
			for _, n := range ns {
				if !n.Live && !all {
					continue
				}
				tables := held[n.ID]
				if tables == nil {
					tables = []int64{}
				}
				r.Nodes = append(r.Nodes, NodeReport{ID: n.ID, URL: n.URL, State: nodeState(n), Tables: tables,
					Started: n.Started, Renewed: n.Renewed, Expires: n.Expires})
			}
			if asJSON {
				enc := json.NewEncoder(e.stdout)
				enc.SetIndent("", "  ")
				return enc.Encode(r)
			}
			w := tabwriter.NewWriter(e.stdout, 0, 0, 2, ' ', 0)
			fmt.Fprintln(w, "NODE\tURL\tSTATE\tTABLES\tSTARTED\tLAST RENEWAL")
			for _, n := range r.Nodes {
				fmt.Fprintf(w, "%s\t%s\t%s\t%s\t%s\t%s\n", n.ID, n.URL, n.State, tableList(n.Tables),
					n.Started.Local().Format(time.DateTime), n.Renewed.Local().Format("15:04:05.000"))
			}
			w.Flush()
			fmt.Fprintf(e.stdout, "%d live nodes, %d tables, not served at the moment: %s\n", liveCount(r.Nodes), len(ls), tableList(r.Unowned))
			return nil
		},
	}
	c.Flags().StringVar(&dsn, "db", store.DefaultDSN, "the store: a SQLite file, or a postgres:// URL")
	c.Flags().BoolVar(&asJSON, "json", false, "print JSON")
	c.Flags().BoolVar(&all, "all", false, "list the nodes that left or were lost too")
	return c
}

func liveCount(ns []NodeReport) int {
	n := 0
	for _, r := range ns {
		if r.State == "live" || r.State == "draining" {
			n++
		}
	}
	return n
}

// tableList writes table IDs as "1 2 5", "none" for none.
func tableList(ids []int64) string {
	if len(ids) == 0 {
		return "none"
	}
	parts := make([]string, len(ids))
	for i, id := range ids {
		parts[i] = fmt.Sprint(id)
	}
	return strings.Join(parts, " ")
}
