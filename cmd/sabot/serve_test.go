package main

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"math/rand/v2"
	"net"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/rogpeppe/go-internal/testscript"
	"github.com/spf13/pflag"

	"sabot"
	"sabot/internal/client"
	"sabot/internal/recall"
	"sabot/internal/seal"
	"sabot/internal/store"
	"sabot/internal/testwait"
	"sabot/internal/wire"
)

// runMainEnv makes the test binary run the CLI with the JSON-encoded
// arguments it holds: the real program as a subprocess, without a build.
const runMainEnv = "SABOT_TEST_RUN_MAIN"

func TestMain(m *testing.M) {
	if args := os.Getenv(runMainEnv); args != "" {
		var a []string
		if err := json.Unmarshal([]byte(args), &a); err != nil {
			panic(err)
		}
		os.Exit(Run(context.Background(), a, os.Stdin, os.Stdout, os.Stderr))
	}
	// The administrator's password of every server the tests start
	// (startServe), which `sabot bots` run in-process reads: set once
	// here, not by t.Setenv, so that the tests that play bots may run in
	// parallel.
	if os.Getenv(AdminPasswordEnv) == "" {
		os.Setenv(AdminPasswordEnv, "admin-password")
	}
	// The doc scripts (docs_test.go) run `sabot` as a program: testscript
	// puts this binary on their PATH under that name.
	os.Exit(testscript.RunMain(m, map[string]func() int{
		"sabot": func() int { return Run(context.Background(), os.Args[1:], os.Stdin, os.Stdout, os.Stderr) },
	}))
}

// testSeedKey is the seed key of the servers startServe starts on
// PostgreSQL.
var testSeedKey = strings.Repeat("29", 32)

// serveProcess is `sabot serve` running as a subprocess.
type serveProcess struct {
	cmd *exec.Cmd
	url string
	log *os.File
}

func startServe(t *testing.T, db, addr string, extra ...string) *serveProcess {
	t.Helper()
	args, _ := json.Marshal(append([]string{"serve", "--addr", addr, "--db", db, "--admin", "admin", "--bcrypt-cost", "4"}, extra...))
	dir := filepath.Dir(db)
	if store.IsPostgres(db) {
		dir = t.TempDir()
	}
	logf, err := os.OpenFile(filepath.Join(dir, "serve.log"), os.O_CREATE|os.O_APPEND|os.O_WRONLY, 0o644)
	if err != nil {
		t.Fatal(err)
	}
	cmd := exec.Command(os.Args[0], "-test.run=^$")
	cmd.Env = append(os.Environ(), runMainEnv+"="+string(args), AdminPasswordEnv+"=admin-password")
	if store.IsPostgres(db) && os.Getenv(seal.KeyEnv) == "" {
		cmd.Env = append(cmd.Env, seal.KeyEnv+"="+testSeedKey) // serve on PostgreSQL needs the key that seals the shoes' seeds
	}
	cmd.Stdout, cmd.Stderr = logf, logf
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	p := &serveProcess{cmd: cmd, url: "http://" + addr, log: logf}
	if !testwait.Within(20*time.Second, func() bool {
		var resp *http.Response
		if resp, err = http.Get(p.url + "/healthz"); err != nil {
			return false
		}
		resp.Body.Close()
		return resp.StatusCode == 200
	}) {
		p.kill()
		b, _ := os.ReadFile(logf.Name())
		t.Fatalf("sabot serve did not come up: %v\n%s", err, b)
	}
	return p
}

func (p *serveProcess) kill() {
	p.cmd.Process.Kill() // SIGKILL: no shutdown, no flush
	p.cmd.Wait()
	p.log.Close()
}

func (p *serveProcess) stop(t *testing.T) {
	t.Helper()
	p.cmd.Process.Signal(syscall.SIGTERM)
	done := make(chan error, 1)
	go func() { done <- p.cmd.Wait() }()
	select {
	case err := <-done:
		if err != nil {
			b, _ := os.ReadFile(p.log.Name())
			t.Errorf("sabot serve exited: %v; its log ends:\n%s", err, tail(string(b), 2000))
		}
	case <-time.After(10 * time.Second):
		p.kill()
		t.Error("sabot serve did not stop on SIGTERM")
	}
	p.log.Close()
}

func freeAddr(t testing.TB) string {
	t.Helper()
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	defer ln.Close()
	return ln.Addr().String()
}

// The server is killed with SIGKILL again and again while bots play; after
// each restart every table is rebuilt from its log and play goes on. At the
// end every round is settled or void, the ledger balances (`sabot ledger
// check`), the tables hold no money, and rounds replay (GLI-19 §4.16, B.3).
// replayInMoney is replay's line, each amount in units with two decimals
// ("house +12.50, ana -12.50"), never in minor units.
var replayInMoney = regexp.MustCompile(`^round \S+ replays to its stored result: house [+-]?\d{1,3}(?:,\d{3})*\.\d{2}(?:, \S+ [+-]?\d{1,3}(?:,\d{3})*\.\d{2})*(?: \(void\))?\n`)

func TestKill9Recovery(t *testing.T) {
	t.Parallel()
	if testing.Short() {
		t.Skip("kills a server five times")
	}
	dir := t.TempDir()
	db := filepath.Join(dir, "sabot.db")
	addr := freeAddr(t)
	// A snapshot every 3 rounds: most starts restore one (and replay the
	// records after it) instead of the whole log.
	flags := []string{"--public-reads", "-1", "--bet-window", "100ms", "--decision-time", "300ms", "--window-time", "200ms", "--snapshot-every", "3"}
	p := startServe(t, db, addr, flags...)

	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	botsDone := make(chan *client.BotsReport, 1)
	go func() {
		rep, _ := client.RunBots(ctx, client.BotsConfig{URL: p.url, AdminName: "admin", AdminPassword: "admin-password",
			Tables: 3, Players: 4, Rounds: 100000, Profile: "venice", Stake: 100, Credit: 10_000_000, Prefix: "k9"})
		botsDone <- rep
	}()
	// Let the bots set up (tables, players, seats) and play, then kill at
	// random moments: the kills start once a table has dealt its second
	// round, however long a loaded machine takes to get there.
	lobby := &client.Client{URL: p.url}
	testwait.Until(t, 2*time.Minute, "the bots deal a second round", func() bool {
		var views []*wire.TableView
		return lobby.Do(ctx, "GET", "/api/tables", nil, &views) == nil && slices.ContainsFunc(views, func(v *wire.TableView) bool {
			return v.Round != nil && v.Round.No >= 2
		})
	})
	rng := rand.New(rand.NewPCG(1, 2))
	for i := 0; i < 5; i++ {
		testwait.Pause(time.Duration(200+rng.IntN(600)) * time.Millisecond) // a random moment of play
		p.kill()
		p = startServe(t, db, addr, flags...)
	}
	testwait.Pause(time.Second) // a second of play after the last restart
	cancel()
	rep := <-botsDone
	if rep == nil || rep.Rounds == 0 {
		t.Fatalf("the bots played no round: %+v", rep)
	}
	t.Logf("bots: %d rounds, %d decisions, %d errors %v", rep.Rounds, rep.Decisions, rep.Errors, rep.LastErrors)

	// The bots have left; rounds still in play finish by their timers.
	admin := &client.Client{URL: p.url}
	if _, err := admin.Login(context.Background(), "admin", "admin-password"); err != nil {
		t.Fatal(err)
	}
	busy := 0
	if !testwait.Within(15*time.Second, func() bool {
		var ts []wire.TableView
		if err := admin.Do(context.Background(), "GET", "/api/tables", nil, &ts); err != nil {
			t.Fatal(err)
		}
		busy = 0
		for _, v := range ts {
			if v.Turn != nil || len(v.Bets) > 0 {
				busy++
			}
		}
		return busy == 0
	}) {
		t.Fatalf("%d tables still busy", busy)
	}
	p.stop(t)

	if out, errb, code := run(t, "", "ledger", "check", "--db", db); code != 0 {
		t.Fatalf("sabot ledger check: %d %s %s", code, out, errb)
	}
	// The significant-event log: the tables opened and created, the
	// credits, and the decisions the timers applied while the server was
	// down and up again.
	out, errb, code := run(t, "", "events", "--db", db, "--limit", "0", "--json")
	var evs []recall.EventView
	if code != 0 || json.Unmarshal([]byte(out), &evs) != nil {
		t.Fatalf("sabot events: %d %s", code, errb)
	}
	kinds := map[string]int{}
	for _, ev := range evs {
		kinds[ev.Kind]++
		if ev.Summary == "" {
			t.Errorf("event %+v has no summary", ev)
		}
	}
	if kinds[sabot.LogTableOpened] != 3+6 || kinds[sabot.LogAdmin] < 3 { // the bots' 3 tables and the 6 default ones
		t.Errorf("significant events by kind: %v", kinds)
	}
	t.Logf("significant events by kind: %v", kinds)
	if _, errb, code := run(t, "", "events", "--db", db, "--since", "yesterday"); code != 2 || !strings.Contains(errb, "RFC 3339") {
		t.Errorf("sabot events --since yesterday: exit %d, %q", code, errb)
	}
	st, err := store.Open(context.Background(), db)
	if err != nil {
		t.Fatal(err)
	}
	defer st.Close()
	checkTables(t, st, db)
}

// checkTables checks every table's log: each round dealt is settled or
// void, its record replays, the table's account is empty, finished shoes
// verify.
func checkTables(t *testing.T, st sabot.Store, db string) {
	t.Helper()
	ctx := context.Background()
	ts, err := st.Tables(ctx)
	if err != nil {
		t.Fatal(err)
	}
	rounds, replayed, shoes := 0, 0, 0
	for _, tb := range ts {
		if tb.Profile == "" {
			continue
		}
		recs, err := st.Log(ctx, tb.ID, 1)
		if err != nil {
			t.Fatal(err)
		}
		open := map[int64]bool{}
		revealed := []int{}
		for _, r := range recs {
			switch r.Kind {
			case sabot.LogDeal:
				open[r.RoundNo] = true
				rounds++
			case sabot.LogSettle, sabot.LogVoid:
				delete(open, r.RoundNo)
			case sabot.LogShoeReveal:
				var p struct{ Shoe int }
				json.Unmarshal(r.Payload, &p)
				revealed = append(revealed, p.Shoe)
			}
		}
		for no := range open {
			t.Errorf("table %d round %d was dealt and never settled nor void", tb.ID, no)
		}
		acc, err := st.Account(ctx, sabot.AccountTable, tb.ID)
		if err != nil {
			t.Fatal(err)
		}
		if acc.Balance != 0 {
			t.Errorf("table %d holds %d after every round and bet is closed", tb.ID, acc.Balance)
		}
		// Replay a few rounds through the CLI, and verify the shoes that are over.
		for _, r := range recs {
			if r.Kind == sabot.LogSettle && r.RoundNo%7 == 1 {
				id := recall.RoundID(tb.ID, int(r.RoundNo))
				if out, errb, code := run(t, "", "replay", id, "--db", db); code != 0 {
					t.Errorf("sabot replay %s: %s %s", id, out, errb)
				} else if !replayInMoney.MatchString(out) {
					t.Errorf("sabot replay %s prints its amounts not as money (units, two decimals): %s", id, out)
				}
				replayed++
			}
		}
		for _, no := range revealed {
			id := recall.ShoeID(tb.ID, no)
			if out, errb, code := run(t, "", "verify", id, "--db", db); code != 0 || !strings.Contains(out, "ok:") {
				t.Errorf("sabot verify %s: %s %s", id, out, errb)
			}
			shoes++
		}
	}
	if rounds == 0 || replayed == 0 {
		t.Fatalf("%d rounds, %d replayed", rounds, replayed)
	}
	t.Logf("%d rounds settled or void, %d replayed, %d shoes verified", rounds, replayed, shoes)
	_ = fmt.Sprint
}

// --debug-addr serves Go's profiling endpoints on their own listener.
func TestServeDebug(t *testing.T) {
	t.Parallel()
	url, stop, err := serveDebug("127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	defer stop()
	res, err := http.Get(url + "goroutine?debug=1")
	if err != nil {
		t.Fatal(err)
	}
	defer res.Body.Close()
	body, _ := io.ReadAll(res.Body)
	if res.StatusCode != http.StatusOK || !strings.Contains(string(body), "goroutine profile") {
		t.Fatalf("GET %sgoroutine: %d %.80q", url, res.StatusCode, body)
	}
	if _, _, err := serveDebug("127.0.0.1:-1"); err == nil {
		t.Error("a bad --debug-addr was accepted")
	}
}

// Every flag of `sabot serve` is documented in docs/server.md (the flags
// table, or the table of "Abuse and limits" for a limit).
func TestServeFlagsDocumented(t *testing.T) {
	t.Parallel()
	doc, err := os.ReadFile("../../docs/server.md")
	if err != nil {
		t.Fatal(err)
	}
	n := 0
	newServeCmd(&env{}).Flags().VisitAll(func(f *pflag.Flag) {
		n++
		if !strings.Contains(string(doc), "`--"+f.Name) {
			t.Errorf("--%s is not in docs/server.md", f.Name)
		}
	})
	if n < 20 {
		t.Fatalf("only %d flags", n)
	}
}

// On a database it may read but not write, `sabot
// serve` refuses to start and says why, instead of serving logins that all
// fail.
func TestServeRefusesReadOnlyStore(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	path := filepath.Join(t.TempDir(), "sabot.db")
	st, err := store.Open(ctx, path)
	if err != nil {
		t.Fatal(err)
	}
	st.Close()
	var stdout, stderr strings.Builder
	code := Run(ctx, []string{"serve", "--addr", "127.0.0.1:0", "--db", "file:" + path + "?mode=ro"}, strings.NewReader(""), &stdout, &stderr)
	if code != 1 || !strings.Contains(stderr.String(), "the store does not accept writes") {
		t.Fatalf("exit %d, stdout %q, stderr %q", code, stdout.String(), stderr.String())
	}
}

// A second `sabot serve` on a SQLite file that one already serves is
// refused, in one line naming the file and the process that holds it; a
// reader (`sabot ledger check`) is not; once the first is killed with -9
// the file can be served again (the lock is the kernel's: nothing stale).
// Two processes on one file both served every table.
func TestServeOneProcessPerSQLiteFile(t *testing.T) {
	t.Parallel()
	db := filepath.Join(t.TempDir(), "sabot.db")
	first := startServe(t, db, freeAddr(t))
	var stdout, stderr strings.Builder
	// Were it not refused, it would serve until this context ends.
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	code := Run(ctx, []string{"serve", "--addr", "127.0.0.1:0", "--db", db}, strings.NewReader(""), &stdout, &stderr)
	want := fmt.Sprintf("sabot serve: %s is served by process %d", db, first.cmd.Process.Pid)
	if code != 1 || !strings.Contains(stderr.String(), want) || strings.Count(strings.TrimSpace(stderr.String()), "\n") != 0 {
		first.kill()
		t.Fatalf("a second server: exit %d, stderr %q; want 1 and one line with %q", code, stderr.String(), want)
	}
	stdout.Reset()
	stderr.Reset()
	if code := Run(context.Background(), []string{"ledger", "check", "--db", db}, strings.NewReader(""), &stdout, &stderr); code != 0 {
		t.Errorf("ledger check beside the server: exit %d, %s%s", code, stdout.String(), stderr.String())
	}
	first.kill()
	unlock, err := store.Lock(db)
	if err != nil {
		t.Fatalf("after kill -9 the file is still locked: %v", err)
	}
	unlock()
}

// tail is the end of a text, at most n bytes.
func tail(s string, n int) string {
	if len(s) > n {
		return "…" + s[len(s)-n:]
	}
	return s
}

// --currency names the money the pages show; a
// code that is not ISO 4217, or whose minor unit is not a hundredth, is
// refused with exit 2 before anything is opened.
func TestServeRefusesCurrency(t *testing.T) {
	t.Parallel()
	for _, c := range []struct{ code, want string }{
		{"EURO", `--currency "EURO": not an ISO 4217 code`},
		{"JPY", "--currency JPY: its minor unit is not a hundredth (0 decimals)"},
		{"kwd", "--currency KWD: its minor unit is not a hundredth (3 decimals)"},
	} {
		db := filepath.Join(t.TempDir(), "sabot.db")
		var stdout, stderr strings.Builder
		code := Run(context.Background(), []string{"serve", "--addr", "127.0.0.1:0", "--db", db, "--currency", c.code}, strings.NewReader(""), &stdout, &stderr)
		if code != 2 || !strings.Contains(stderr.String(), c.want) {
			t.Errorf("--currency %s: exit %d, stderr %q; want 2 and %q", c.code, code, stderr.String(), c.want)
		}
		if _, err := os.Stat(db); !os.IsNotExist(err) {
			t.Errorf("--currency %s: the database was made (%v)", c.code, err)
		}
	}
}
