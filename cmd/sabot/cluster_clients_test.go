package main

import (
	"context"
	"net/http"
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"

	"sabot"
	"sabot/internal/client"
	"sabot/internal/store"
	"sabot/internal/store/storetest"
	"sabot/internal/testwait"
	"sabot/internal/wire"
)

// Clients never wait on a node that cannot serve them,
// with three `sabot serve` processes, the default lease, and bots spread
// over the three: a node stopped with SIGSTOP has its clients playing on
// another node within 10 s (before, its sockets hung for the whole pause),
// and a rolling restart (each node in turn SIGTERM, drained, started again)
// times out no decision (before, bots whose decision or resync was lost
// with the old socket waited for the decision timer).
func TestClusterClientsMove(t *testing.T) {
	t.Parallel()
	if testing.Short() {
		t.Skip("three server processes stopped and restarted")
	}
	dsn := storetest.PostgresDSN(t)
	c := &clusterRun{t: t, dsn: dsn, dir: t.TempDir(), key: strings.Repeat("5c", 32),
		flags: []string{"--bet-window", "200ms", "--decision-time", "10s", "--window-time", "10s", "--drain-timeout", "20s"}}
	ns := []*node{{name: "a", addr: freeAddr(t)}, {name: "b", addr: freeAddr(t)}, {name: "c", addr: freeAddr(t)}}
	for _, n := range ns {
		c.start(n)
	}
	defer func() {
		for _, n := range ns {
			if n.cmd.ProcessState == nil {
				n.cmd.Process.Signal(syscall.SIGCONT)
				c.kill(n)
			}
		}
		if t.Failed() {
			for _, n := range ns {
				b, _ := os.ReadFile(filepath.Join(c.dir, n.name+".log"))
				t.Logf("node %s's log ends:\n%s", n.name, tail(string(b), 4000))
			}
		}
	}()
	urls := ns[0].url + "," + ns[1].url + "," + ns[2].url
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	botsDone := make(chan *client.BotsReport, 1)
	go func() {
		rep, err := client.RunBots(ctx, client.BotsConfig{URL: urls, AdminName: "admin", AdminPassword: "admin-password",
			Tables: 3, Players: 3, Rounds: 100000, Profile: "vegas-s17", Stake: 100, Credit: 10_000_000, Prefix: "mv",
			Think: 100 * time.Millisecond})
		if err != nil && ctx.Err() == nil {
			t.Errorf("bots: %v", err)
		}
		botsDone <- rep
	}()
	within(t, 30*time.Second, "the bots' three tables shared out, one on each node", func() bool {
		r := c.nodes()
		if len(r.Nodes) != 3 {
			return false
		}
		for _, n := range r.Nodes {
			if len(n.Tables) != 1 {
				return false
			}
		}
		return true
	})
	within(t, 60*time.Second, "rounds settled on every node", func() bool {
		for _, n := range ns {
			if metric(t, n.url, `sabot_rounds_total{result="settled"}`) == 0 {
				return false
			}
		}
		return true
	})
	// Every request of the test is bounded: one waiting on a stopped node
	// fails instead of holding the test.
	hc := &http.Client{Timeout: 3 * time.Second}
	admin := &client.Client{URL: urls, HTTP: hc}
	if _, err := admin.Login(context.Background(), "admin", "admin-password"); err != nil {
		t.Fatal(err)
	}
	view := func(id int64) *wire.TableView {
		v, err := admin.Table(context.Background(), id)
		if err != nil {
			return nil
		}
		return v
	}
	// all reports whether a round after round no was dealt at a table with
	// a bet of each of its three bots.
	all := func(v *wire.TableView, no int) bool {
		if v == nil || v.Round == nil || v.Round.No <= no {
			return false
		}
		seen := map[string]bool{}
		for _, b := range v.Round.Bets {
			if strings.HasPrefix(b.Player, v.Name+"-") {
				seen[b.Player] = true
			}
		}
		return len(seen) == 3
	}

	// SIGSTOP: the stopped node's clients are playing on another node
	// within 10 s.
	stopped := ns[2]
	var theirs []int64
	for _, n := range c.nodes().Nodes {
		if n.URL == stopped.url {
			theirs = n.Tables
		}
	}
	others := &client.Client{URL: ns[0].url + "," + ns[1].url, Token: admin.Token, HTTP: hc}
	at := map[int64]int{}
	for _, id := range theirs {
		v, err := others.Table(context.Background(), id)
		if err != nil || v.Round == nil {
			t.Fatalf("table %d: %v %+v", id, err, v)
		}
		at[id] = v.Round.No
	}
	stopped.cmd.Process.Signal(syscall.SIGSTOP)
	stop := time.Now()
	var taken time.Duration
	within(t, 10*time.Second, "the stopped node's tables dealing again on another node, to each of their bots", func() bool {
		for _, id := range theirs {
			v, err := others.Table(context.Background(), id)
			if err == nil && taken == 0 {
				taken = time.Since(stop)
			}
			if err != nil || !all(v, at[id]) {
				return false
			}
		}
		return true
	})
	t.Logf("SIGSTOP: the stopped node's tables answered again after %v", taken.Round(10*time.Millisecond))
	t.Logf("SIGSTOP: the stopped node's tables dealt again to all their bots on another node after %v", time.Since(stop).Round(10*time.Millisecond))
	stopped.cmd.Process.Signal(syscall.SIGCONT)
	within(t, 20*time.Second, "three nodes share the tables again", func() bool {
		r := c.nodes()
		return len(r.Nodes) == 3 && len(r.Unowned) == 0 && servesAll(stopped.url, theirs)
	})

	// A rolling restart: each node in turn drained (SIGTERM), started
	// again, and given its share back.
	for _, n := range ns {
		n.cmd.Process.Signal(syscall.SIGTERM)
		done := make(chan error, 1)
		go func() { done <- n.cmd.Wait() }()
		select {
		case err := <-done:
			if err != nil {
				t.Fatalf("node %s exited: %v", n.name, err)
			}
		case <-time.After(30 * time.Second):
			t.Fatalf("node %s did not stop on SIGTERM", n.name)
		}
		n.log.Close()
		c.start(n)
		within(t, 30*time.Second, "the tables shared out again after node "+n.name+"'s restart", func() bool {
			r := c.nodes()
			if len(r.Nodes) != 3 || len(r.Unowned) != 0 {
				return false
			}
			for _, n := range r.Nodes {
				if len(n.Tables) != 1 {
					return false
				}
			}
			return true
		})
	}
	// Every table still plays to its three bots, and a decision lost in
	// the restart would have timed out by now.
	last := map[int64]int{}
	var tables []int64
	for _, n := range c.nodes().Nodes {
		tables = append(tables, n.Tables...)
	}
	for _, id := range tables {
		if v := view(id); v != nil && v.Round != nil {
			last[id] = v.Round.No
		}
	}
	within(t, 15*time.Second, "every table dealing to its three bots after the restart", func() bool {
		for _, id := range tables {
			if !all(view(id), last[id]) {
				return false
			}
		}
		return true
	})
	testwait.Pause(11 * time.Second) // play on for the decision time, and a second
	end := time.Now()
	cancel()
	rep := <-botsDone
	if rep == nil || rep.Rounds == 0 {
		t.Fatalf("the bots played no round: %+v", rep)
	}
	t.Logf("bots: %d rounds, %d decisions, %d errors %v", rep.Rounds, rep.Decisions, rep.Errors, rep.LastErrors)

	st, err := store.Open(context.Background(), dsn)
	if err != nil {
		t.Fatal(err)
	}
	defer st.Close()
	timeouts, err := st.Find(context.Background(), sabot.LogQuery{Kinds: []string{sabot.LogTimeout}})
	if err != nil {
		t.Fatal(err)
	}
	for _, r := range timeouts {
		if r.Created.Before(end) {
			t.Errorf("table %d round %d: a decision timed out at %s: %s", r.TableID, r.RoundNo, r.Created.Format(time.TimeOnly), r.Payload)
		}
	}
	for _, id := range tables {
		recs, err := st.Log(context.Background(), id, 1)
		if err != nil {
			t.Fatal(err)
		}
		for _, r := range recs {
			if r.Kind == sabot.LogVoid {
				t.Errorf("table %d round %d voided: %s", id, r.RoundNo, r.Payload)
			}
		}
	}
}
