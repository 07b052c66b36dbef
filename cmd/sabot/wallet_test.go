package main

import (
	"bufio"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"math/rand/v2"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"sabot"
	"sabot/internal/client"
	"sabot/internal/store"
	"sabot/internal/testwait"
	"sabot/internal/wallet"
	"sabot/internal/wallet/specop"
	"sabot/internal/wallet/walletsim"
	"sabot/internal/wire"
	"sabot/money"
)

// sabot wallet reconcile finds every kind of difference between the
// outbox and the operator's statement, and agrees when there is none.
func TestWalletReconcile(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	db := filepath.Join(t.TempDir(), "sabot.db")
	st, err := store.Open(ctx, db)
	if err != nil {
		t.Fatal(err)
	}
	tb := &sabot.Table{Name: "t", Profile: "vegas-s17"}
	if err := st.CreateTable(ctx, tb); err != nil {
		t.Fatal(err)
	}
	call := func(id, op string, amount money.Amount, ref string) sabot.WalletCall {
		return sabot.WalletCall{ID: id, Op: op, Player: "p1", Round: "1-1", Amount: amount, Reference: ref}
	}
	if _, err := st.Append(ctx, &sabot.LogAppend{LogRecord: &sabot.LogRecord{TableID: tb.ID, Kind: "x"}, Calls: []sabot.WalletCall{
		call("d1", "debit", 100, ""), call("c1", "credit", 200, ""), call("d2", "debit", 50, ""),
		call("d3", "debit", 70, ""), call("r3", "rollback", 70, "d3"), call("c2", "credit", 0, ""),
	}}, nil); err != nil {
		t.Fatal(err)
	}
	o := st.(sabot.Outbox)
	now := time.Now()
	for id, state := range map[string]string{"d1": sabot.CallOK, "c1": sabot.CallOK, "d2": sabot.CallLapsed, "d3": sabot.CallLapsed, "r3": sabot.CallOK} {
		if err := o.AnswerCall(ctx, id, state, nil, now, time.Time{}); err != nil {
			t.Fatal(err)
		}
	}
	st.Close()
	ok := func(id, op string, amount money.Amount) wallet.StatementEntry {
		return wallet.StatementEntry{TransactionID: id, Op: op, Player: "p1", Amount: amount, Status: "ok", At: now}
	}
	write := func(es []wallet.StatementEntry) string {
		f := filepath.Join(t.TempDir(), "statement.json")
		b, _ := json.Marshal(es)
		os.WriteFile(f, b, 0o600)
		return f
	}
	// Agreeing, but for c2 not delivered yet.
	agree := []wallet.StatementEntry{ok("d1", "debit", 100), ok("c1", "credit", 200), ok("d3", "debit", 70), ok("r3", "rollback", 70),
		{TransactionID: "a-1", Op: "authenticate", Status: "ok"}}
	out, errOut, code := run(t, "", "wallet", "reconcile", "--db", db, "--statement", write(agree))
	if code != exitFailure || !strings.Contains(out, "credit c2") || !strings.Contains(out, "not answered yet") || strings.Count(out, "\n") != 1 {
		t.Fatalf("one call undelivered: exit %d\n%s%s", code, out, errOut)
	}
	// Every difference.
	diff := []wallet.StatementEntry{ok("d1", "debit", 100), ok("c1", "credit", 250), ok("d2", "debit", 50), ok("d3", "debit", 70),
		ok("x9", "credit", 5)}
	out, _, code = run(t, "", "wallet", "reconcile", "--db", db, "--statement", write(diff))
	for _, want := range []string{
		"credit c1 (p1, 1-1, 200): the operator has credit of 250",
		"debit d2 (p1, 1-1, 50): lapsed in sabot (no answer in time) and taken by the operator, with no rollback acknowledged",
		"rollback r3 (p1, 1-1, 70): acknowledged in sabot; not in the operator's statement",
		"credit x9 (p1, , 5): in the operator's statement; sabot made no such call",
	} {
		if !strings.Contains(out, want) {
			t.Errorf("missing %q in\n%s", want, out)
		}
	}
	if code != exitFailure || strings.Contains(out, "debit d1") || strings.Contains(out, "debit d3") {
		t.Fatalf("exit %d\n%s", code, out)
	}
	// Refused input: exit 2, one line.
	if _, e, code := run(t, "", "wallet", "reconcile", "--db", db); code != exitRefused || !strings.Contains(e, "--statement FILE") {
		t.Fatalf("no statement: %d %q", code, e)
	}
	if _, e, code := run(t, "", "wallet", "reconcile", "--db", db, "--statement", write(nil), "--since", "yesterday"); code != exitRefused || !strings.Contains(e, "2026-11-25") {
		t.Fatalf("a bad time: %d %q", code, e)
	}
}

// sabot serve --wallet is killed with SIGKILL again and again while the
// operator's players play; after the last restart every call is answered,
// `sabot wallet reconcile` finds no difference with the operator's
// statement, each player's balance at the operator is his start plus the
// net of his settled rounds, and the ledger balances.
func TestKill9OperatorWallet(t *testing.T) {
	if testing.Short() {
		t.Skip("kills a server four times")
	}
	secret := "a secret shared with the operator"
	kill9Wallet(t, secret, simOperator{walletsim.New([]byte(secret), "EUR")})
}

// The same on the second operator, written from docs/wallet.yaml alone:
// sabot killed four times, nothing lost.
func TestKill9SpecOperatorWallet(t *testing.T) {
	if testing.Short() {
		t.Skip("kills a server four times")
	}
	secret := "a secret shared with the operator"
	op := specop.New([]byte(secret), "EUR")
	kill9Wallet(t, secret, op)
	for _, v := range op.Violations() {
		t.Errorf("the spec's operator saw: %s", v)
	}
}

// kill9Operator is what the kill -9 test asks of an operator's wallet.
type kill9Operator interface {
	http.Handler
	AddPlayer(id, name string, balance money.Amount)
	IssueToken(player, token string)
	Balance(player string) money.Amount
	Calls() int
	StatementJSON() []byte
}

type simOperator struct{ *walletsim.Operator }

func (o simOperator) StatementJSON() []byte {
	b, _ := json.Marshal(o.Statement())
	return b
}

func kill9Wallet(t *testing.T, secret string, op kill9Operator) {
	t.Helper()
	spec, err := specop.Load("../../docs/wallet.yaml")
	if err != nil {
		t.Fatal(err)
	}
	checker := specop.Checked(spec, op) // every message against docs/wallet.yaml
	ws := httptest.NewServer(checker)
	defer ws.Close()
	t.Setenv(WalletSecretEnv, secret)
	const start = 1_000_000
	dir := t.TempDir()
	db := filepath.Join(dir, "sabot.db")
	addr := freeAddr(t)
	flags := []string{"--public-reads", "-1", "--bet-window", "100ms", "--decision-time", "300ms", "--window-time", "200ms",
		"--wallet", ws.URL, "--currency", "EUR", "--wallet-timeout", "1s"}
	p := startServe(t, db, addr, flags...)

	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	var players []string
	botsDone := make(chan *client.BotsReport, 1)
	go func() {
		rep, _ := client.RunBots(ctx, client.BotsConfig{URL: p.url, AdminName: "admin", AdminPassword: "admin-password",
			Tables: 2, Players: 3, Rounds: 100000, Profile: "vegas-s17", Stake: 100, Prefix: "k9w",
			Launch: func(table, box int) string {
				id := fmt.Sprintf("p%d-%d", table, box)
				op.AddPlayer(id, id, start)
				op.IssueToken(id, "tok-"+id)
				players = append(players, id)
				return "tok-" + id
			}})
		botsDone <- rep
	}()
	lobby := &client.Client{URL: p.url}
	testwait.Until(t, time.Minute, "the bots deal a round", func() bool {
		var views []*wire.TableView
		return lobby.Do(ctx, "GET", "/api/tables", nil, &views) == nil && slices.ContainsFunc(views, func(v *wire.TableView) bool {
			return v.Round != nil && v.Round.No >= 1
		})
	})
	rng := rand.New(rand.NewPCG(3, 4))
	for i := 0; i < 4; i++ {
		testwait.Pause(time.Duration(200+rng.IntN(600)) * time.Millisecond) // a random moment of play
		p.kill()
		p = startServe(t, db, addr, flags...)
	}
	// Play after the last restart until a round is dealt twice past the
	// one in play at the restart (so one round has been settled with the
	// bots in it): a fixed second of play settled none on a loaded machine.
	roundNo := func() int {
		var views []*wire.TableView
		n := 0
		if lobby.Do(ctx, "GET", "/api/tables", nil, &views) == nil {
			for _, v := range views {
				if v.Round != nil {
					n = max(n, v.Round.No)
				}
			}
		}
		return n
	}
	after := roundNo()
	testwait.Until(t, 2*time.Minute, "a round settled after the last restart", func() bool { return roundNo() >= after+2 })
	cancel()
	rep := <-botsDone
	if rep == nil || rep.Rounds == 0 {
		t.Fatalf("the bots played no round: %+v", rep)
	}
	t.Logf("bots: %d rounds, %d errors %v; the operator saw %d calls", rep.Rounds, rep.Errors, rep.LastErrors, op.Calls())

	// The rounds in play finish by their timers; the deliverer empties the
	// outbox.
	st, err := store.Open(context.Background(), db)
	if err != nil {
		t.Fatal(err)
	}
	defer st.Close()
	o := st.(sabot.Outbox)
	// The tables are read before the outbox: a round that settles between
	// the two reads writes its credits after an outbox read that missed them.
	var open, debits []*sabot.WalletCall
	busy := 0
	if !testwait.Within(30*time.Second, func() bool {
		busy = 0
		var ts []wire.TableView
		if err := (&client.Client{URL: p.url}).Do(context.Background(), "GET", "/api/tables", nil, &ts); err != nil {
			t.Fatal(err)
		}
		for _, v := range ts {
			if v.Turn != nil || len(v.Bets) > 0 {
				busy++
			}
		}
		var err error
		if open, err = o.Calls(context.Background(), sabot.CallQuery{States: []string{sabot.CallPending}}); err != nil {
			t.Fatal(err)
		}
		debits, _ = o.Calls(context.Background(), sabot.CallQuery{Uncounted: true, States: []string{sabot.CallOK}})
		return len(open) == 0 && busy == 0
	}) {
		t.Fatalf("%d calls unanswered, %d debits not counted, %d tables busy", len(open), len(debits), busy)
	}
	p.stop(t)

	for _, v := range checker.Violations() {
		t.Errorf("a message not as docs/wallet.yaml says: %s", v)
	}
	t.Logf("checked against docs/wallet.yaml: %v", checker.Checked())
	b := op.StatementJSON()
	if err := spec.Schema("Statement", b); err != nil {
		t.Errorf("the statement is not as docs/wallet.yaml says: %v", err)
	}
	statement := filepath.Join(dir, "statement.json")
	os.WriteFile(statement, b, 0o600)
	if out, errb, code := run(t, "", "wallet", "reconcile", "--db", db, "--statement", statement); code != 0 {
		t.Fatalf("sabot wallet reconcile: exit %d\n%s%s", code, out, errb)
	}
	if out, errb, code := run(t, "", "ledger", "check", "--db", db); code != 0 {
		t.Fatalf("sabot ledger check: %d %s %s", code, out, errb)
	}
	recs, err := st.Find(context.Background(), sabot.LogQuery{Kinds: []string{sabot.LogSettle}})
	if err != nil {
		t.Fatal(err)
	}
	net := map[string]money.Amount{}
	for _, r := range recs {
		var pay struct {
			Net map[string]money.Amount `json:"net"`
		}
		json.Unmarshal(r.Payload, &pay)
		for name, n := range pay.Net {
			net[name] += n
		}
	}
	for _, id := range players {
		if got, want := op.Balance(id), start+net["@"+id]; got != want {
			t.Errorf("%s holds %d at the operator; start %d + settled %d = %d", id, got, start, net["@"+id], want)
		}
	}
	var entries []struct{ Op string }
	json.Unmarshal(b, &entries)
	rolled := 0
	for _, e := range entries {
		if e.Op == "rollback" {
			rolled++
		}
	}
	t.Logf("%d players, %d rollbacks in the operator's statement", len(players), rolled)
}

// sabot wallet-sim runs the reference operator: it answers signed calls
// and serves its statement; bad input is refused with exit 2.
func TestWalletSimCommand(t *testing.T) {
	t.Setenv(WalletSecretEnv, "")
	if _, e, code := run(t, "", "wallet-sim", "--currency", "EUR"); code != exitRefused || !strings.Contains(e, WalletSecretEnv) {
		t.Fatalf("no secret: %d %q", code, e)
	}
	secret := "a secret shared with the operator"
	t.Setenv(WalletSecretEnv, secret)
	for _, args := range [][]string{
		{"--player", "ana:lots:tok"},
		{"--player", "ana:100"},
		{"--fail-rate", "2", "--currency", "EUR"},
		{"--player", "ana:100:tok"}, // no currency
		{"--player", "ana:100:tok,,x", "--currency", "EUR"},
		{"--token-ttl", "0s", "--currency", "EUR"},
	} {
		if _, e, code := run(t, "", append([]string{"wallet-sim"}, args...)...); code != exitRefused || e == "" {
			t.Errorf("%v: exit %d %q", args, code, e)
		}
	}
	ctx, cancel := context.WithCancel(context.Background())
	r, w, _ := os.Pipe()
	done := make(chan int, 1)
	go func() {
		done <- Run(ctx, []string{"wallet-sim", "--addr", "127.0.0.1:0", "--currency", "EUR", "--player", "ana:100000:tok-ana"}, strings.NewReader(""), w, io.Discard)
	}()
	line, err := bufio.NewReader(r).ReadString('\n')
	if err != nil {
		t.Fatal(err)
	}
	base := strings.TrimSpace(strings.TrimPrefix(line, "sabot wallet-sim: "))
	base, _, _ = strings.Cut(base, " ")
	c := &wallet.Client{URL: base, Secret: []byte(secret)}
	res, err := c.Call(ctx, wallet.OpAuthenticate, wallet.Request{TransactionID: "a-1", Token: "tok-ana"})
	if err != nil || res.Player != "ana" || res.Balance != 100000 || res.Currency != "EUR" {
		t.Fatalf("authenticate: %+v, %v", res, err)
	}
	if _, err := c.Call(ctx, wallet.OpDebit, wallet.Request{TransactionID: "d-1", Player: "ana", Amount: 500, Currency: "EUR"}); err != nil {
		t.Fatal(err)
	}
	resp, err := http.Get(base + "/statement")
	if err != nil {
		t.Fatal(err)
	}
	var st []wallet.StatementEntry
	json.NewDecoder(resp.Body).Decode(&st)
	resp.Body.Close()
	if len(st) != 2 || st[1].TransactionID != "d-1" || st[1].Balance != 99500 {
		t.Fatalf("the statement: %+v", st)
	}
	cancel()
	if code := <-done; code != 0 {
		t.Fatalf("wallet-sim exited %d", code)
	}
}

// A credit the operator refused is money owed: sabot wallet reconcile
// reports it with the amount and exits 1 until it is paid or resolved by
// hand. Before, a refused 20.00 win left the player
// unpaid and reconcile said all agreed (exit 0).
func TestWalletReconcileOwed(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	db := filepath.Join(t.TempDir(), "sabot.db")
	st, err := store.Open(ctx, db)
	if err != nil {
		t.Fatal(err)
	}
	tb := &sabot.Table{Name: "t", Profile: "vegas-s17"}
	if err := st.CreateTable(ctx, tb); err != nil {
		t.Fatal(err)
	}
	if _, err := st.Append(ctx, &sabot.LogAppend{LogRecord: &sabot.LogRecord{TableID: tb.ID, Kind: "x"}, Calls: []sabot.WalletCall{
		{ID: "d1", Op: "debit", Player: "p1", Round: "1-3", Amount: 1000},
		{ID: "c1", Op: "credit", Player: "p1", Round: "1-3", Amount: 2000, Kind: "settle", RoundClosed: true},
	}}, nil); err != nil {
		t.Fatal(err)
	}
	o := st.(sabot.Outbox)
	now := time.Now()
	must := func(err error) {
		t.Helper()
		if err != nil {
			t.Fatal(err)
		}
	}
	must(o.AnswerCall(ctx, "d1", sabot.CallOK, []byte(`{"transaction_id":"d1","status":"ok","balance":99000}`), now, time.Time{}))
	must(o.AnswerCall(ctx, "c1", sabot.CallRefused, []byte(`{"transaction_id":"c1","status":"refused","balance":99000,"reason":"player_blocked","message":"closed"}`), now, time.Time{}))
	statement := filepath.Join(t.TempDir(), "statement.json")
	b, _ := json.Marshal([]wallet.StatementEntry{
		{TransactionID: "d1", Op: "debit", Player: "p1", Amount: 1000, Status: "ok", At: now},
		{TransactionID: "c1", Op: "credit", Player: "p1", Amount: 2000, Status: "refused", Reason: "player_blocked", At: now},
	})
	must(os.WriteFile(statement, b, 0o600))
	st.Close()
	out, errOut, code := run(t, "", "wallet", "reconcile", "--db", db, "--statement", statement)
	if code != exitFailure || !strings.Contains(out, "credit c1 (p1, 1-3, 2000)") || !strings.Contains(out, "20.00 owed to p1") || !strings.Contains(out, "player_blocked") {
		t.Fatalf("a refused win: exit %d\n%s%s", code, out, errOut)
	}
	// Resolved by hand: no difference; the resolution is said.
	st, err = store.Open(ctx, db)
	if err != nil {
		t.Fatal(err)
	}
	must(st.(sabot.Outbox).ResolveOwed(ctx, "c1", "paid by the cashier", "pit", now))
	st.Close()
	out, errOut, code = run(t, "", "wallet", "reconcile", "--db", db, "--statement", statement)
	if code != 0 || !strings.Contains(out, "resolved by pit") || !strings.Contains(out, "agree") {
		t.Fatalf("resolved: exit %d\n%s%s", code, out, errOut)
	}
}
