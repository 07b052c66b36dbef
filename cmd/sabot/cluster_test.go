package main

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"math/rand/v2"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"syscall"
	"testing"
	"time"

	"sabot"
	"sabot/internal/client"
	"sabot/internal/seal"
	"sabot/internal/store"
	"sabot/internal/store/storetest"
	"sabot/internal/testwait"
	"sabot/internal/wire"
)

// Three `sabot serve` processes on one PostgreSQL database: bots play through
// two of them while nodes are killed
// with SIGKILL and started again; with two of three dead the third serves
// every table within 10 s; a node stopped with SIGSTOP loses its tables
// and, resumed, drops them; at the end no round was dealt twice, the logs
// never went back to an old lease, every round is closed and replays, and
// `sabot ledger check` passes.

// node is one `sabot serve` process of the cluster.
type node struct {
	name, addr, url string
	cmd             *exec.Cmd
	log             *os.File
}

type clusterRun struct {
	t     testing.TB
	dsn   string
	dir   string
	key   string
	flags []string
}

func (c *clusterRun) start(n *node) {
	c.t.Helper()
	args, _ := json.Marshal(append([]string{"serve", "--addr", n.addr, "--db", c.dsn, "--admin", "admin", "--bcrypt-cost", "4",
		"--default-tables=false", "--metrics-public", "--public-reads", "-1"}, c.flags...)) // the test reads every node's metrics and polls its tables as nobody
	logf, err := os.OpenFile(filepath.Join(c.dir, n.name+".log"), os.O_CREATE|os.O_APPEND|os.O_WRONLY, 0o644)
	if err != nil {
		c.t.Fatal(err)
	}
	cmd := exec.Command(os.Args[0], "-test.run=^$")
	cmd.Env = append(os.Environ(), runMainEnv+"="+string(args), AdminPasswordEnv+"=admin-password", seal.KeyEnv+"="+c.key)
	cmd.Stdout, cmd.Stderr = logf, logf
	if err := cmd.Start(); err != nil {
		c.t.Fatal(err)
	}
	n.cmd, n.log, n.url = cmd, logf, "http://"+n.addr
	if !testwait.Within(20*time.Second, func() bool {
		var resp *http.Response
		if resp, err = http.Get(n.url + "/healthz"); err != nil {
			return false
		}
		resp.Body.Close()
		return resp.StatusCode == 200
	}) {
		c.kill(n)
		b, _ := os.ReadFile(logf.Name())
		c.t.Fatalf("node %s did not come up: %v\n%s", n.name, err, tail(string(b), 3000))
	}
}

func (c *clusterRun) kill(n *node) {
	n.cmd.Process.Kill() // SIGKILL
	n.cmd.Wait()
	n.log.Close()
}

// nodes reads `sabot nodes --json`.
func (c *clusterRun) nodes() NodesReport {
	c.t.Helper()
	out, errb, code := run(c.t, "", "nodes", "--db", c.dsn, "--json")
	var r NodesReport
	if code != 0 || json.Unmarshal([]byte(out), &r) != nil {
		c.t.Fatalf("sabot nodes: %d %s %s", code, out, errb)
	}
	return r
}

// metric reads a counter or gauge from a node's /metrics.
func metric(t *testing.T, url, name string) float64 {
	t.Helper()
	resp, err := http.Get(url + "/metrics")
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	b, _ := io.ReadAll(resp.Body)
	for _, line := range strings.Split(string(b), "\n") {
		if v, ok := strings.CutPrefix(line, name+" "); ok {
			var f float64
			fmt.Sscan(v, &f)
			return f
		}
	}
	return 0
}

// servesAll reports whether a node answers for every table itself or
// through the table's owner.
func servesAll(url string, tables []int64) bool {
	for _, id := range tables {
		resp, err := http.Get(fmt.Sprintf("%s/api/tables/%d", url, id))
		if err != nil {
			return false
		}
		resp.Body.Close()
		if resp.StatusCode != 200 {
			return false
		}
	}
	return true
}

func TestCluster(t *testing.T) {
	t.Parallel()
	if testing.Short() {
		t.Skip("three server processes killed and stopped")
	}
	dsn := storetest.PostgresDSN(t)
	c := &clusterRun{t: t, dsn: dsn, dir: t.TempDir(), key: strings.Repeat("5a", 32),
		flags: []string{"--lease", "1s", "--bet-window", "100ms", "--decision-time", "300ms", "--window-time", "200ms", "--snapshot-every", "3"}}
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
				t.Logf("node %s's log ends:\n%s", n.name, tail(string(b), 3000))
			}
		}
	}()

	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	botsDone := make(chan *client.BotsReport, 1)
	go func() {
		rep, _ := client.RunBots(ctx, client.BotsConfig{URL: ns[0].url + "," + ns[1].url, AdminName: "admin", AdminPassword: "admin-password",
			Tables: 6, Players: 3, Rounds: 100000, Profile: "venice", Stake: 100, Credit: 10_000_000, Prefix: "cl"})
		botsDone <- rep
	}()
	var tables []int64
	within(t, 30*time.Second, "the bots' six tables shared out, two on each node", func() bool {
		r := c.nodes()
		tables = tables[:0]
		for _, n := range r.Nodes {
			if len(n.Tables) != 2 {
				return false
			}
			tables = append(tables, n.Tables...)
		}
		return len(r.Nodes) == 3 && len(tables) == 6
	})
	// The bots registered and playing on every node before any is killed
	// (on a busy machine their set-up takes a while; a kill during it
	// would stop them before they play).
	within(t, 60*time.Second, "rounds settled on every node", func() bool {
		for _, n := range ns {
			if metric(t, n.url, `sabot_rounds_total{result="settled"}`) == 0 {
				return false
			}
		}
		return true
	})
	testwait.Pause(time.Second) // the bots play a second on every node

	// SIGKILL a node at a random moment, start it again; three times.
	rng := rand.New(rand.NewPCG(3, 4))
	for i := 0; i < 3; i++ {
		n := ns[rng.IntN(3)]
		testwait.Pause(time.Duration(300+rng.IntN(700)) * time.Millisecond) // a random moment of play
		c.kill(n)
		testwait.Pause(time.Duration(500+rng.IntN(1000)) * time.Millisecond) // dead a random while
		c.start(n)
	}

	// Two of three dead: the third serves every table within 10 s.
	testwait.Pause(time.Second) // a second of play
	c.kill(ns[0])
	c.kill(ns[1])
	killed := time.Now()
	within(t, 10*time.Second, "the last node serves every table", func() bool { return servesAll(ns[2].url, tables) })
	t.Logf("two of three nodes killed: the third served all %d tables after %v", len(tables), time.Since(killed).Round(10*time.Millisecond))
	c.start(ns[0])
	c.start(ns[1])
	within(t, 15*time.Second, "the tables shared out again", func() bool {
		for _, n := range c.nodes().Nodes {
			if len(n.Tables) != 2 {
				return false
			}
		}
		return true
	})
	testwait.Pause(time.Second) // a second of play on the three

	// SIGSTOP: the stopped node's tables are taken over; resumed, it drops
	// them (its appends would be refused) and takes a share again.
	stopped := ns[2]
	before := metric(t, stopped.url, "sabot_lease_lost_total")
	stopped.cmd.Process.Signal(syscall.SIGSTOP)
	within(t, 10*time.Second, "the stopped node's tables taken over", func() bool {
		r := c.nodes()
		return len(r.Nodes) == 2 && len(r.Unowned) == 0
	})
	stopped.cmd.Process.Signal(syscall.SIGCONT)
	within(t, 10*time.Second, "the resumed node drops the tables it lost", func() bool {
		return metric(t, stopped.url, "sabot_lease_lost_total") >= before+2
	})
	within(t, 15*time.Second, "three nodes share the tables again", func() bool {
		r := c.nodes()
		return len(r.Nodes) == 3 && len(r.Unowned) == 0 && servesAll(stopped.url, tables)
	})
	testwait.Pause(time.Second) // a second of play after the resume

	cancel()
	rep := <-botsDone
	if rep == nil || rep.Rounds == 0 {
		t.Fatalf("the bots played no round: %+v", rep)
	}
	t.Logf("bots: %d rounds, %d decisions, %d errors %v", rep.Rounds, rep.Decisions, rep.Errors, rep.LastErrors)
	// The rounds in play finish by their timers.
	admin := &client.Client{URL: ns[0].url}
	if _, err := admin.Login(context.Background(), "admin", "admin-password"); err != nil {
		t.Fatal(err)
	}
	within(t, 20*time.Second, "every table idle", func() bool {
		var vs []wire.TableView
		if err := admin.Do(context.Background(), "GET", "/api/tables", nil, &vs); err != nil || len(vs) != len(tables) {
			return false
		}
		for _, v := range vs {
			if v.Turn != nil || len(v.Bets) > 0 {
				return false
			}
		}
		return true
	})
	for _, n := range ns { // SIGTERM: each drains to the others, the last suspends
		n.cmd.Process.Signal(syscall.SIGTERM)
	}
	for _, n := range ns {
		done := make(chan error, 1)
		go func() { done <- n.cmd.Wait() }()
		select {
		case err := <-done:
			if err != nil {
				t.Errorf("node %s exited: %v", n.name, err)
			}
		case <-time.After(20 * time.Second):
			t.Errorf("node %s did not stop on SIGTERM", n.name)
			c.kill(n)
		}
		n.log.Close()
	}

	if out, errb, code := run(t, "", "ledger", "check", "--db", dsn); code != 0 {
		t.Fatalf("sabot ledger check: %d %s %s", code, out, errb)
	}
	st, err := store.Open(context.Background(), dsn)
	if err != nil {
		t.Fatal(err)
	}
	defer st.Close()
	lost := 0
	evs, err := st.Find(context.Background(), sabot.LogQuery{Kinds: []string{sabot.LogAdmin}})
	if err != nil {
		t.Fatal(err)
	}
	for _, e := range evs {
		if strings.Contains(string(e.Payload), `"node-lost"`) {
			lost++
		}
	}
	if lost < 6 { // three kills, two more, one stop
		t.Errorf("%d node-lost events after six nodes lost", lost)
	}
	for _, id := range tables {
		recs, err := st.Log(context.Background(), id, 1)
		if err != nil {
			t.Fatal(err)
		}
		dealt := map[int64]int{}
		for i, r := range recs {
			if r.Kind == sabot.LogVoid {
				// Kills resume the rounds in play, hand-overs wait for
				// them: nothing is voided.
				t.Errorf("table %d round %d voided: %s", id, r.RoundNo, r.Payload)
			}
			if r.Kind == sabot.LogDeal {
				if dealt[r.RoundNo]++; dealt[r.RoundNo] > 1 {
					t.Errorf("table %d round %d dealt twice", id, r.RoundNo)
				}
			}
			if i > 0 && r.Epoch < recs[i-1].Epoch {
				t.Errorf("table %d record %d under epoch %d after %d", id, r.Seq, r.Epoch, recs[i-1].Epoch)
			}
		}
		if last := recs[len(recs)-1].Epoch; last < 3 {
			t.Errorf("table %d's last record under epoch %d: it never moved", id, last)
		}
	}
	checkTables(t, st, dsn)
}

func within(t testing.TB, d time.Duration, what string, ok func() bool) {
	t.Helper()
	testwait.Until(t, d, what, ok)
}

// BenchmarkFailover measures the time from a node's SIGKILL to every one
// of its tables answering again through a survivor, three nodes on
// PostgreSQL with the default lease: one kill per iteration, the node
// started again and the tables shared out before the next (docs/server.md,
// "Several nodes"):
//
//	go test ./cmd/sabot -run XXX -bench Failover -benchtime 20x
func BenchmarkFailover(b *testing.B) {
	dsn := storetest.PostgresDSN(b)
	c := &clusterRun{t: b, dsn: dsn, dir: b.TempDir(), key: strings.Repeat("5b", 32)}
	ns := []*node{{name: "a", addr: freeAddr(b)}, {name: "b", addr: freeAddr(b)}, {name: "c", addr: freeAddr(b)}}
	for _, n := range ns {
		c.start(n)
	}
	defer func() {
		for _, n := range ns {
			if n.cmd.ProcessState == nil {
				c.kill(n)
			}
		}
	}()
	admin := &client.Client{URL: ns[0].url}
	if _, err := admin.Login(context.Background(), "admin", "admin-password"); err != nil {
		b.Fatal(err)
	}
	for i := range 9 {
		if _, err := admin.CreateTable(context.Background(), wire.TableRequest{Name: fmt.Sprint("f", i), Profile: "vegas-s17"}); err != nil {
			b.Fatal(err)
		}
	}
	shared := func() bool {
		r := c.nodes()
		if len(r.Nodes) != 3 || len(r.Unowned) != 0 {
			return false
		}
		for _, n := range r.Nodes {
			if len(n.Tables) != 3 {
				return false
			}
		}
		return true
	}
	within(b, 30*time.Second, "three tables on each node", shared)
	rng := rand.New(rand.NewPCG(5, 6))
	var times, firsts []time.Duration
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		b.StopTimer()
		victim := ns[rng.IntN(3)]
		var mine []int64
		for _, n := range c.nodes().Nodes {
			if n.URL == victim.url {
				mine = n.Tables
			}
		}
		var survivor *node
		for _, n := range ns {
			if n != victim {
				survivor = n
			}
		}
		// At a random moment of the victim's renewal cycle.
		testwait.Pause(time.Duration(rng.IntN(1000)) * time.Millisecond) // a random moment of its lease's renewal
		b.StartTimer()
		c.kill(victim)
		killed := time.Now()
		first := time.Duration(0)
		pending := map[int64]bool{}
		for _, id := range mine {
			pending[id] = true
		}
		poll := time.NewTicker(10 * time.Millisecond) // the measure's resolution
		for len(pending) > 0 {
			for id := range pending {
				if servesAll(survivor.url, []int64{id}) {
					delete(pending, id)
					if first == 0 {
						first = time.Since(killed)
					}
				}
			}
			<-poll.C
			if time.Since(killed) > 30*time.Second {
				b.Fatalf("kill %d: tables %v not back in 30 s", i, pending)
			}
		}
		poll.Stop()
		times = append(times, time.Since(killed))
		firsts = append(firsts, first)
		b.StopTimer()
		c.start(victim)
		within(b, 30*time.Second, "the tables shared out again", shared)
		b.StartTimer()
	}
	b.StopTimer()
	slices.Sort(times)
	slices.Sort(firsts)
	pct := func(ds []time.Duration, p float64) float64 { return ds[int(p*float64(len(ds)-1)+0.5)].Seconds() }
	b.ReportMetric(pct(firsts, 0.5), "s-first-p50")
	b.ReportMetric(pct(times, 0.5), "s-all-p50")
	b.ReportMetric(pct(times, 0.99), "s-all-p99")
	b.ReportMetric(times[len(times)-1].Seconds(), "s-all-max")
	b.Logf("%d kills: every table of the killed node back after %v … %v; the first after %v … %v", len(times), times[0], times[len(times)-1], firsts[0], firsts[len(firsts)-1])
}
