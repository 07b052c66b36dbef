package server_test

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"sabot"
	"sabot/internal/actor"
	"sabot/internal/client"
	"sabot/internal/operator"
	"sabot/internal/recall"
	"sabot/internal/server"
	"sabot/internal/testwait"
	sabotwallet "sabot/internal/wallet"
	"sabot/internal/wallet/specop"
	"sabot/internal/wallet/walletsim"
	"sabot/internal/wire"
	"sabot/money"
)

// The operator's wallet: bots launched from the operator's
// site play on its wallet through each of the reference operator's
// faults; every call is answered in the end, and each player's balance at
// the operator is his start plus the net of his settled rounds.

var opSecret = []byte("the operator's shared secret")

const opStart = 1_000_000

// opHarness is a server on an operator's wallet: the reference operator
// (op), or the one written from docs/wallet.yaml alone (spec); wallet is
// whichever it is.
type opHarness struct {
	*harness
	op      *walletsim.Operator
	spec    *specop.Operator
	wallet  operatorWallet
	ws      *httptest.Server
	checker *specop.Checker // every request, checked against docs/wallet.yaml
}

// operatorWallet is what the tests ask of an operator's wallet.
type operatorWallet interface {
	http.Handler
	AddPlayer(id, name string, balance money.Amount)
	IssueToken(player, token string)
	Balance(player string) money.Amount
	Calls() int
}

// walletSpec is docs/wallet.yaml, read once.
var walletSpec = sync.OnceValues(func() (*specop.Spec, error) { return specop.Load("../../docs/wallet.yaml") })

// specChecked serves an operator's wallet with every request and answer
// checked against docs/wallet.yaml; the test fails on any that does not
// conform (the messages as sent match the spec).
func specChecked(t *testing.T, op http.Handler) (*httptest.Server, *specop.Checker) {
	t.Helper()
	spec, err := walletSpec()
	if err != nil {
		t.Fatal(err)
	}
	c := specop.Checked(spec, op)
	ws := httptest.NewServer(c)
	t.Cleanup(func() {
		ws.Close()
		for _, v := range c.Violations() {
			t.Errorf("a message not as docs/wallet.yaml says: %s", v)
		}
		t.Logf("checked against docs/wallet.yaml: %v", c.Checked())
	})
	return ws, c
}

func newOperator(t *testing.T, f walletsim.Faults, timing actor.Timing, st sabot.Store, more ...func(*server.Server)) *opHarness {
	t.Helper()
	op := walletsim.New(opSecret, "EUR")
	op.Faults = f
	h := newOperatorOn(t, op, timing, st, more...)
	h.op = op
	return h
}

// newSpecOperator is a server on the operator written from the spec alone.
func newSpecOperator(t *testing.T, op *specop.Operator, timing actor.Timing, st sabot.Store, more ...func(*server.Server)) *opHarness {
	t.Helper()
	h := newOperatorOn(t, op, timing, st, more...)
	h.spec = op
	return h
}

func newOperatorOn(t *testing.T, op operatorWallet, timing actor.Timing, st sabot.Store, more ...func(*server.Server)) *opHarness {
	t.Helper()
	ws, checker := specChecked(t, op)
	if st == nil {
		st = openStore(t, filepath.Join(t.TempDir(), "sabot.db"))
	}
	h := &harness{t: t, st: st, set: func(s *server.Server) {
		s.Wallet = &sabotwallet.Client{URL: ws.URL, Secret: opSecret}
		s.Currency = "EUR"
		s.WalletTimeout = time.Second
		// Unanswered calls tried again at least every second: with a 30 s
		// cap, a credit that failed six times in a row (30 % of calls fail
		// in "500 before acting") waited past the test's 30 s drain.
		s.WalletRetryMost = time.Second
		for _, m := range more {
			m(s)
		}
	}}
	h.start(timing)
	return &opHarness{harness: h, wallet: op, ws: ws, checker: checker}
}

// drained waits until the operator has answered every call in the outbox.
func drained(t *testing.T, st sabot.Store, within time.Duration) {
	t.Helper()
	o := st.(sabot.Outbox)
	for poll := testwait.NewPoll(within); ; poll.Next() {
		pending, err := o.Calls(context.Background(), sabot.CallQuery{States: []string{sabot.CallPending}})
		if err != nil {
			t.Fatal(err)
		}
		if len(pending) == 0 {
			return
		}
		if poll.Expired() {
			t.Fatalf("%d calls still unanswered, the first %+v", len(pending), pending[0])
		}
	}
}

// settledNet sums each player's net over the settled rounds of the log.
func settledNet(t *testing.T, st sabot.Store) map[string]money.Amount {
	t.Helper()
	ctx := context.Background()
	recs, err := st.Find(ctx, sabot.LogQuery{Kinds: []string{sabot.LogSettle}})
	if err != nil {
		t.Fatal(err)
	}
	net := map[string]money.Amount{}
	for _, r := range recs {
		var p struct {
			Net map[string]money.Amount `json:"net"`
		}
		if err := json.Unmarshal(r.Payload, &p); err != nil {
			t.Fatal(err)
		}
		for name, n := range p.Net {
			net[name] += n
		}
	}
	return net
}

// checkOperator checks every player's balance at the operator against the
// rounds settled, and that sabot's mirror wallets hold nothing.
func checkOperator(t *testing.T, h *opHarness, players []string) {
	t.Helper()
	drained(t, h.st, 30*time.Second)
	net := settledNet(t, h.st)
	for _, p := range players {
		want := opStart + net["@"+p]
		if got := h.wallet.Balance(p); got != want {
			t.Errorf("%s holds %d at the operator; start %d + settled %d = %d", p, got, opStart, net["@"+p], want)
		}
		u, err := h.st.UserByName(context.Background(), "@"+p)
		if err != nil {
			t.Fatal(err)
		}
		if w := balance(t, h.st, sabot.AccountWallet, u.ID); w != 0 {
			t.Errorf("%s's mirror wallet holds %d", p, w)
		}
	}
	checkLedger(t, h.st)
}

func balance(t *testing.T, st sabot.Store, kind string, owner int64) int64 {
	t.Helper()
	a, err := st.Account(context.Background(), kind, owner)
	if err != nil {
		t.Fatal(err)
	}
	return int64(a.Balance)
}

// opFaults are the faults of an operator's wallet the bots play through.
var opFaults = []struct {
	name string
	f    walletsim.Faults
}{
	{"none", walletsim.Faults{}},
	{"500 before acting", walletsim.Faults{FailRate: 0.3, Seed: 1}},
	{"500 after acting (duplicates)", walletsim.Faults{LostRate: 0.3, Seed: 2}},
	{"time-outs", walletsim.Faults{SlowRate: 0.15, Slow: 1500 * time.Millisecond, Seed: 3}},
	{"reordered", walletsim.Faults{HoldRate: 0.15, Slow: 1500 * time.Millisecond, Seed: 4}},
	{"slow", walletsim.Faults{Delay: 30 * time.Millisecond, Seed: 5}},
}

func TestOperatorWalletFaults(t *testing.T) {
	t.Parallel()
	for _, tc := range opFaults {
		t.Run(tc.name, func(t *testing.T) {
			h := newOperator(t, tc.f, actor.Timing{BetWindow: 50 * time.Millisecond, Decision: 3 * time.Second, Window: 300 * time.Millisecond}, nil)
			playOperator(t, h)
		})
	}
}

// The same faults on a second operator's wallet, written from
// docs/wallet.yaml alone (specop, which imports nothing of sabot's
// wallet): the bots play through each and no player gains or loses a
// minor unit against his settled rounds.
func TestSpecOperatorWalletFaults(t *testing.T) {
	t.Parallel()
	spec, err := walletSpec()
	if err != nil {
		t.Fatal(err)
	}
	for _, tc := range opFaults {
		t.Run(tc.name, func(t *testing.T) {
			op := specop.New(opSecret, "EUR")
			op.FailRate, op.LostRate, op.SlowRate, op.HoldRate = tc.f.FailRate, tc.f.LostRate, tc.f.SlowRate, tc.f.HoldRate
			op.Slow, op.Delay, op.Seed, op.Spec = tc.f.Slow, tc.f.Delay, tc.f.Seed, spec
			h := newSpecOperator(t, op, actor.Timing{BetWindow: 50 * time.Millisecond, Decision: 3 * time.Second, Window: 300 * time.Millisecond}, nil)
			playOperator(t, h)
			for _, v := range op.Violations() {
				t.Errorf("the spec's operator saw: %s", v)
			}
			st, _ := json.Marshal(op.Statement())
			if err := spec.Schema("Statement", st); err != nil {
				t.Errorf("the statement is not the spec's: %v", err)
			}
		})
	}
}

// playOperator has bots launched from the operator's site play 8 rounds at
// a table of three, then checks every balance at the operator.
func playOperator(t *testing.T, h *opHarness) {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 90*time.Second)
	defer cancel()
	var players []string
	rep, err := client.RunBots(ctx, client.BotsConfig{URL: h.srv.URL(), AdminName: "pit", AdminPassword: password,
		Tables: 1, Players: 3, Rounds: 8, Profile: "vegas-s17", Stake: 100,
		Launch: func(table, box int) string {
			id := fmt.Sprintf("p%d-%d", table, box)
			h.wallet.AddPlayer(id, id, opStart)
			h.wallet.IssueToken(id, "tok-"+id)
			players = append(players, id)
			return "tok-" + id
		}})
	if err != nil {
		t.Fatal(err)
	}
	if rep.Rounds < 3*8 {
		t.Fatalf("%+v", rep)
	}
	t.Logf("%+v; the operator saw %d calls", rep, h.wallet.Calls())
	checkOperator(t, h, players)
}

// A refusal of the operator's reaches the player with its reason, and
// nothing changes at the table; a launch with a bad token is refused.
func TestOperatorRefusals(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	h := newOperator(t, walletsim.Faults{}, slow, nil)
	h.op.AddPlayer("rich", "Rich", opStart)
	h.op.AddPlayer("poor", "Poor", 50)
	h.op.AddPlayer("blocked", "B", opStart)
	h.op.Block("blocked")
	for _, p := range []string{"rich", "poor", "blocked"} {
		h.op.IssueToken(p, "tok-"+p)
	}
	bad := &client.Client{URL: h.srv.URL()}
	if _, err := bad.Launch(ctx, "forged"); sabot.ErrorCode(err) != sabot.EUNAUTHORIZED {
		t.Fatalf("a forged token: %v", err)
	}
	tv, err := h.admin.CreateTable(ctx, wire.TableRequest{Name: "op", Profile: "vegas-s17"})
	if err != nil {
		t.Fatal(err)
	}
	seat := func(p string, box int) *client.Client {
		c := &client.Client{URL: h.srv.URL()}
		res, err := c.Launch(ctx, "tok-"+p)
		if err != nil {
			t.Fatal(err)
		}
		if res.User.Name != "@"+p || !res.User.Operator || res.User.Wallet != h.op.Balance(p) {
			t.Fatalf("launched as %+v", res.User)
		}
		if _, err := c.Command(ctx, tv.ID, "sit", wire.CommandRequest{Box: box}); err != nil {
			t.Fatal(err)
		}
		return c
	}
	poor, blocked, rich := seat("poor", 1), seat("blocked", 2), seat("rich", 3)
	_, err = poor.Command(ctx, tv.ID, "bet", wire.CommandRequest{Box: 1, Stake: 100})
	if sabot.ErrorCode(err) != sabot.EINSUFFICIENT || !contains(err, "your balance does not cover the stake") {
		t.Fatalf("a bet the operator refuses: %v", err)
	}
	_, err = blocked.Command(ctx, tv.ID, "bet", wire.CommandRequest{Box: 2, Stake: 100})
	if sabot.ErrorCode(err) != sabot.EFORBIDDEN || !contains(err, "may not play") {
		t.Fatalf("a blocked player's bet: %v", err)
	}
	v, err := rich.Table(ctx, tv.ID)
	if err != nil {
		t.Fatal(err)
	}
	if len(v.Bets) != 0 {
		t.Fatalf("refused bets are on the table: %+v", v.Bets)
	}
	if h.op.Balance("poor") != 50 || h.op.Balance("blocked") != opStart {
		t.Fatalf("a refusal moved money: poor %d, blocked %d", h.op.Balance("poor"), h.op.Balance("blocked"))
	}
	// The same command again: answered the same, not debited twice.
	req := wire.CommandRequest{Box: 3, Stake: 100, CommandID: "bet-once"}
	if _, err := rich.Command(ctx, tv.ID, "bet", req); err != nil {
		t.Fatal(err)
	}
	if _, err := rich.Command(ctx, tv.ID, "bet", req); err != nil {
		t.Fatal(err)
	}
	if got := h.op.Balance("rich"); got != opStart-100 {
		t.Fatalf("a bet sent twice: the operator holds %d", got)
	}
	// Withdrawn before the deal: its debit is rolled back.
	if _, err := rich.Command(ctx, tv.ID, "withdraw", wire.CommandRequest{Box: 3}); err != nil {
		t.Fatal(err)
	}
	drained(t, h.st, 10*time.Second)
	if got := h.op.Balance("rich"); got != opStart {
		t.Fatalf("a bet withdrawn: the operator holds %d", got)
	}
	var rolled bool
	for _, e := range h.op.Statement() {
		rolled = rolled || e.Op == sabotwallet.OpRollback && e.Status == sabotwallet.StatusOK
	}
	if !rolled {
		t.Fatalf("no rollback in the operator's statement: %+v", h.op.Statement())
	}
	// The pit cannot credit an operator's player: his money is the operator's.
	if err := h.admin.Credit(ctx, "@rich", 100); sabot.ErrorCode(err) != sabot.EINVALID {
		t.Fatalf("a credit of an operator's player: %v", err)
	}
	// At a family table the bank passes to the seated players and pays from
	// their own money (FAM-01, FAM-02): an operator's player does not sit.
	fam, err := h.admin.CreateTable(ctx, wire.TableRequest{Name: "fam", Profile: "family"})
	if err != nil {
		t.Fatal(err)
	}
	if _, err := rich.Command(ctx, fam.ID, "sit", wire.CommandRequest{Box: 1}); sabot.ErrorCode(err) != sabot.ECONFLICT || !contains(err, "FAM-02") {
		t.Fatalf("an operator's player sits where the bank passes: %v", err)
	}
	// A browser launch: on to the table, the session in the fragment only.
	h.op.IssueToken("rich", "tok-rich-2")
	hc := &http.Client{CheckRedirect: func(*http.Request, []*http.Request) error { return http.ErrUseLastResponse }}
	resp, err := hc.Get(h.srv.URL() + fmt.Sprintf("/launch?token=tok-rich-2&table=%d", tv.ID))
	if err != nil {
		t.Fatal(err)
	}
	resp.Body.Close()
	if loc := resp.Header.Get("Location"); resp.StatusCode != http.StatusSeeOther || len(loc) < 20 || loc[:len(fmt.Sprintf("/tables/%d#session=", tv.ID))] != fmt.Sprintf("/tables/%d#session=", tv.ID) {
		t.Fatalf("GET /launch: %d %q", resp.StatusCode, loc)
	}
}

func contains(err error, s string) bool { return err != nil && strings.Contains(err.Error(), s) }

// The operator's wallet goes down: a stake then gets no answer in time,
// does not count and is rolled back; a rollback it cannot deliver becomes a
// significant event once it is older than WalletUndeliveredAfter; both are
// in /metrics.
func TestOperatorEventsAndMetrics(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	h := newOperator(t, walletsim.Faults{}, actor.Timing{BetWindow: time.Minute, Decision: time.Minute, Window: time.Minute}, nil,
		func(s *server.Server) { s.WalletUndeliveredAfter = 300 * time.Millisecond })
	h.op.AddPlayer("ana", "Ana", opStart)
	h.op.IssueToken("ana", "tok-ana")
	tv, err := h.admin.CreateTable(ctx, wire.TableRequest{Name: "op", Profile: "vegas-s17"})
	if err != nil {
		t.Fatal(err)
	}
	ana := &client.Client{URL: h.srv.URL()}
	if _, err := ana.Launch(ctx, "tok-ana"); err != nil {
		t.Fatal(err)
	}
	for box := 1; box <= 2; box++ { // two boxes, one bet: the round waits for its window
		if _, err := ana.Command(ctx, tv.ID, "sit", wire.CommandRequest{Box: box}); err != nil {
			t.Fatal(err)
		}
	}
	if _, err := ana.Command(ctx, tv.ID, "bet", wire.CommandRequest{Box: 1, Stake: 100}); err != nil {
		t.Fatal(err)
	}
	h.ws.Close()     // the operator is down
	ana.Resends = -1 // the first answer
	_, err = ana.Command(ctx, tv.ID, "bet", wire.CommandRequest{Box: 1, Stake: 300})
	if sabot.ErrorCode(err) != sabot.EUNAVAILABLE || !contains(err, "did not answer") {
		t.Fatalf("a stake with the operator down: %v", err)
	}
	if _, err := ana.Command(ctx, tv.ID, "withdraw", wire.CommandRequest{Box: 1}); err != nil {
		t.Fatal(err)
	}
	seen := map[string]bool{}
	for poll := testwait.NewPoll(10 * time.Second); !seen["wallet-rollback"] || !seen["wallet-undelivered"]; poll.Next() {
		if poll.Expired() {
			t.Fatalf("significant events seen: %v", seen)
		}
		var evs []recall.EventView
		if err := h.admin.Do(ctx, "GET", "/api/admin/events", nil, &evs); err != nil {
			t.Fatal(err)
		}
		for _, e := range evs {
			var p struct {
				Event string `json:"event"`
			}
			json.Unmarshal(e.Payload, &p)
			seen[p.Event] = true
		}
	}
	resp, err := http.Get(h.srv.URL() + "/metrics")
	if err != nil {
		t.Fatal(err)
	}
	body, _ := io.ReadAll(resp.Body)
	resp.Body.Close()
	for name, atLeast := range map[string]float64{
		`sabot_wallet_calls_total{op="debit",result="ok"}`:        1,
		`sabot_wallet_calls_total{op="debit",result="no-answer"}`: 1,
		"sabot_wallet_rollbacks_total":                            1,
		"sabot_wallet_undelivered":                                1,
		"sabot_wallet_undelivered_oldest_seconds":                 0.3,
	} {
		if v := metricValue(string(body), name); v < atLeast {
			t.Errorf("%s = %v, want at least %v", name, v, atLeast)
		}
	}
}

// A hostile player of the operator's wallet sends stakes faster than the
// operator answers: at most maxDebitsPerPlayer of his wait at once, the
// rest are refused at once, and another player's stake goes through
// meanwhile; when all is answered the operator holds exactly the stake on
// the table.
func TestOperatorDebitsBoundedPerPlayer(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	h := newOperator(t, walletsim.Faults{Delay: 300 * time.Millisecond}, slow, nil)
	for _, p := range []string{"eve", "ben"} {
		h.op.AddPlayer(p, p, opStart)
		h.op.IssueToken(p, "tok-"+p)
	}
	tv, err := h.admin.CreateTable(ctx, wire.TableRequest{Name: "op", Profile: "vegas-s17"})
	if err != nil {
		t.Fatal(err)
	}
	launch := func(p string, boxes ...int) *client.Client {
		c := &client.Client{URL: h.srv.URL()}
		if _, err := c.Launch(ctx, "tok-"+p); err != nil {
			t.Fatal(err)
		}
		for _, b := range boxes {
			if _, err := c.Command(ctx, tv.ID, "sit", wire.CommandRequest{Box: b}); err != nil {
				t.Fatal(err)
			}
		}
		return c
	}
	eve, ben := launch("eve", 1, 2), launch("ben", 3, 4) // two boxes each: the round waits for its window
	eve.Resends = -1                                     // the first answers: refused at once
	const n = 8
	errs := make(chan error, n)
	for i := range n {
		go func() {
			_, err := eve.Command(ctx, tv.ID, "bet", wire.CommandRequest{Box: 1, Stake: money.Amount(100 * (i + 1))})
			errs <- err
		}()
	}
	// The stakes beyond the four that may wait are answered at once; ben
	// stakes while eve's four wait for the operator.
	refused := 0
	count := func(k int) {
		for range k {
			if err := <-errs; sabot.ErrorCode(err) == sabot.EUNAVAILABLE && contains(err, "wait for the operator's wallet already") {
				refused++
			}
		}
	}
	count(n - 4)
	if _, err := ben.Command(ctx, tv.ID, "bet", wire.CommandRequest{Box: 3, Stake: 100}); err != nil {
		t.Fatalf("ben's stake while eve's wait: %v", err)
	}
	count(4)
	if refused < n-4 {
		t.Fatalf("%d of eve's %d stakes refused at once; at most 4 may wait", refused, n)
	}
	drained(t, h.st, 10*time.Second)
	v, err := ben.Table(ctx, tv.ID)
	if err != nil {
		t.Fatal(err)
	}
	var onTable money.Amount
	for _, b := range v.Bets {
		if b.Player == "@eve" {
			onTable += b.Stake
		}
	}
	if got := h.op.Balance("eve"); got != opStart-onTable {
		t.Fatalf("eve holds %d at the operator with %d on the table (start %d)", got, onTable, opStart)
	}
}

// sabot refuses a launch token it has used already, even where the
// operator would take it again: an operator's token
// opens one game session. A launch sent again for want of an answer is the
// same call (its transaction ID is the token's), which the operator
// answers as the first time.
func TestOperatorLaunchTokenOnce(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	h := newOperator(t, walletsim.Faults{}, slow, nil)
	h.op.AddPlayer("ana", "Ana", opStart)
	h.op.IssueToken("ana", "tok-ana")
	first := &client.Client{URL: h.srv.URL()}
	if _, err := first.Launch(ctx, "tok-ana"); err != nil {
		t.Fatal(err)
	}
	h.op.IssueToken("ana", "tok-ana") // a careless operator takes it again
	again := &client.Client{URL: h.srv.URL()}
	if _, err := again.Launch(ctx, "tok-ana"); sabot.ErrorCode(err) != sabot.ECONFLICT || !contains(err, "launch token") {
		t.Fatalf("a launch token used again: %v", err)
	}
	hc := &http.Client{CheckRedirect: func(*http.Request, []*http.Request) error { return http.ErrUseLastResponse }}
	resp, err := hc.Get(h.srv.URL() + "/launch?token=tok-ana")
	if err != nil {
		t.Fatal(err)
	}
	resp.Body.Close()
	if resp.StatusCode != http.StatusConflict || resp.Header.Get("Location") != "" {
		t.Fatalf("GET /launch with a token used again: %d %q", resp.StatusCode, resp.Header.Get("Location"))
	}
	// The first session still plays.
	if _, err := first.Me(ctx); err != nil {
		t.Fatalf("the first launch's session: %v", err)
	}
}

// The money calls carry what docs/wallet.yaml says: a
// bet withdrawn is the rollback of its debit, kind withdrawn, in the
// debit's round, the round not closed; a round void by the pit pays the
// stake back in its settlement, a credit with its amount and the round
// closed; each names the game and the session of the launch.
func TestOperatorCallsCarry(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	h := newOperator(t, walletsim.Faults{}, slow, nil)
	h.op.AddPlayer("ana", "Ana", opStart)
	h.op.IssueToken("ana", "tok-ana")
	// Forced cards: boxes 1 and 2 on 18 and 17 against a 7, both to decide,
	// so the round is in play when the pit voids it.
	tv, err := h.admin.CreateTable(ctx, wire.TableRequest{Name: "op", Profile: "vegas-s17", TestMode: true})
	if err != nil {
		t.Fatal(err)
	}
	if _, err := h.admin.Command(ctx, tv.ID, "force-cards", wire.CommandRequest{Cards: "TS 9H 7C 8D 8S 9D"}); err != nil {
		t.Fatal(err)
	}
	ana := &client.Client{URL: h.srv.URL()}
	if _, err := ana.Launch(ctx, "tok-ana"); err != nil {
		t.Fatal(err)
	}
	for box := 1; box <= 2; box++ { // two boxes, one bet: the round waits for its window
		if _, err := ana.Command(ctx, tv.ID, "sit", wire.CommandRequest{Box: box}); err != nil {
			t.Fatal(err)
		}
	}
	if _, err := ana.Command(ctx, tv.ID, "bet", wire.CommandRequest{Box: 1, Stake: 200}); err != nil {
		t.Fatal(err)
	}
	if _, err := ana.Command(ctx, tv.ID, "withdraw", wire.CommandRequest{Box: 1}); err != nil {
		t.Fatal(err)
	}
	for box := 1; box <= 2; box++ { // both boxes bet: the round is dealt
		if _, err := ana.Command(ctx, tv.ID, "bet", wire.CommandRequest{Box: box, Stake: 150}); err != nil {
			t.Fatal(err)
		}
	}
	// The deal follows the second bet's debit, after its answer: the void
	// waits until the round is in play.
	for poll := testwait.NewPoll(10 * time.Second); ; poll.Next() {
		_, err := h.admin.Command(ctx, tv.ID, "void", wire.CommandRequest{})
		if err == nil {
			break
		}
		if !strings.Contains(err.Error(), "no round is in play") || poll.Expired() {
			t.Fatal(err)
		}
	}
	drained(t, h.st, 10*time.Second)
	if got := h.op.Balance("ana"); got != opStart {
		t.Fatalf("after a bet withdrawn and a round void the operator holds %d", got)
	}
	rounds := map[string]string{}
	var session string
	seen := map[string]int{}
	for _, m := range h.checker.Requests() {
		var r sabotwallet.Request
		json.Unmarshal(m.Body, &r)
		if m.Op == sabotwallet.OpAuthenticate {
			session = r.TransactionID
			continue
		}
		if m.Op != sabotwallet.OpBalance && (r.Game != "blackjack-vegas-s17" || r.Session != session || r.Timestamp == "" || r.Attempt < 1) {
			t.Errorf("%s: no game, session (%s), timestamp or attempt: %s", m.Op, session, m.Body)
		}
		switch m.Op {
		case sabotwallet.OpDebit:
			rounds[r.TransactionID] = r.Round
			if r.Kind != "bet" || r.Expires == "" {
				t.Errorf("a bet's debit: %s", m.Body)
			}
		case sabotwallet.OpRollback:
			if r.Kind != "withdrawn" || r.Round != rounds[r.Reference] || r.RoundClosed || r.Amount != 200 {
				t.Errorf("the rollback of a bet withdrawn: %s (the debit's round %s)", m.Body, rounds[r.Reference])
			}
		case sabotwallet.OpCredit:
			if r.Kind != "settle" || !r.RoundClosed || r.Amount != 300 || !strings.Contains(string(m.Body), `"amount":300`) {
				t.Errorf("the void round's settlement: %s", m.Body)
			}
		}
		seen[m.Op]++
	}
	if seen[sabotwallet.OpDebit] != 3 || seen[sabotwallet.OpRollback] != 1 || seen[sabotwallet.OpCredit] != 1 {
		t.Fatalf("calls %v", seen)
	}
}

// A credit the operator refuses is money owed: the pit
// sees it (GET /api/admin/wallet/owed, the event wallet-refused) with the
// amount; it is sent again under a new transaction ID until the operator
// takes it (wallet-paid), or resolved by hand with a reason, recorded
// (wallet-resolved). Before, the win was never paid and nobody saw it.
func TestOperatorRefusedCreditOwed(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	op := specop.New(opSecret, "EUR")
	spec, err := walletSpec()
	if err != nil {
		t.Fatal(err)
	}
	op.Spec = spec
	h := newSpecOperator(t, op, slow, nil, func(s *server.Server) {
		s.WalletRetryRefused = 100 * time.Millisecond
		s.WalletUndeliveredAfter = 200 * time.Millisecond // the gauges are read every 100 ms
	})
	op.AddPlayer("ana", "Ana", opStart)
	op.IssueToken("ana", "tok-ana")
	tv, err := h.admin.CreateTable(ctx, wire.TableRequest{Name: "op", Profile: "vegas-s17", TestMode: true})
	if err != nil {
		t.Fatal(err)
	}
	ana := &client.Client{URL: h.srv.URL()}
	if _, err := ana.Launch(ctx, "tok-ana"); err != nil {
		t.Fatal(err)
	}
	if _, err := ana.Command(ctx, tv.ID, "sit", wire.CommandRequest{Box: 1}); err != nil {
		t.Fatal(err)
	}
	// ana 10+7 stands; the dealer 6+10 draws 9 and busts: ana wins 10.00.
	win := func(no int) {
		t.Helper()
		must(h.admin.Command(ctx, tv.ID, "force-cards", wire.CommandRequest{Cards: "TS 6D 7C TD 9C"}))
		must(ana.Command(ctx, tv.ID, "bet", wire.CommandRequest{Box: 1, Stake: 1000}))
		op.Close("ana") // the operator refuses her calls from now on
		must(ana.Command(ctx, tv.ID, "act", wire.CommandRequest{Action: "stand", Box: 1}))
		waitRound(t, ana, tv.ID, no)
	}
	owed := func(want int) []operator.OwedView {
		t.Helper()
		var list []operator.OwedView
		for poll := testwait.NewPoll(20 * time.Second); ; poll.Next() {
			if err := h.admin.Do(ctx, "GET", "/api/admin/wallet/owed", nil, &list); err != nil {
				t.Fatal(err)
			}
			if len(list) == want && (want == 0 || list[0].Retries > 0) {
				return list
			}
			if poll.Expired() {
				t.Fatalf("money owed: %+v, want %d items sent again", list, want)
			}
		}
	}
	win(1)
	list := owed(1)
	if o := list[0]; o.Op != "credit" || o.Player != "@ana" || o.Amount != 2000 || o.Reason != "player_blocked" || o.Round != fmt.Sprintf("%d-1", tv.ID) || o.NextRetry == nil && o.Retries < 10 {
		t.Fatalf("the item owed: %+v", o)
	}
	if got := op.Balance("ana"); got != opStart-1000 {
		t.Fatalf("the operator holds %d", got)
	}
	for poll := testwait.NewPoll(10 * time.Second); ; poll.Next() {
		resp, err := http.Get(h.srv.URL() + "/metrics")
		if err != nil {
			t.Fatal(err)
		}
		body, _ := io.ReadAll(resp.Body)
		resp.Body.Close()
		if metricValue(string(body), "sabot_wallet_owed") == 1 && metricValue(string(body), "sabot_wallet_owed_minor_units") == 2000 {
			break
		}
		if poll.Expired() {
			t.Fatalf("the gauges of money owed: %v, %v", metricValue(string(body), "sabot_wallet_owed"), metricValue(string(body), "sabot_wallet_owed_minor_units"))
		}
	}
	op.Reopen("ana") // the next try pays
	owed(0)
	if got := op.Balance("ana"); got != opStart+1000 {
		t.Fatalf("after the win paid the operator holds %d, want %d", got, opStart+1000)
	}
	// Refused again, and resolved by hand with a reason.
	win(2)
	list = owed(1)
	if err := h.admin.Do(ctx, "POST", "/api/admin/wallet/owed/"+list[0].ID+"/resolve", operator.ResolveRequest{}, nil); sabot.ErrorCode(err) != sabot.EINVALID {
		t.Fatalf("resolved with no reason: %v", err)
	}
	if err := h.admin.Do(ctx, "POST", "/api/admin/wallet/owed/nope/resolve", operator.ResolveRequest{Reason: "x"}, nil); sabot.ErrorCode(err) != sabot.ENOTFOUND {
		t.Fatalf("an unknown item resolved: %v", err)
	}
	for poll := testwait.NewPoll(20 * time.Second); ; poll.Next() {
		err := h.admin.Do(ctx, "POST", "/api/admin/wallet/owed/"+list[0].ID+"/resolve", operator.ResolveRequest{Reason: "paid by the operator's cashier, ticket 4411"}, nil)
		if err == nil {
			break
		}
		if sabot.ErrorCode(err) != sabot.ECONFLICT || poll.Expired() { // a try out: resolved once it is answered
			t.Fatalf("resolve: %v", err)
		}
	}
	owed(0)
	seen := map[string]string{}
	var evs []recall.EventView
	if err := h.admin.Do(ctx, "GET", "/api/admin/events", nil, &evs); err != nil {
		t.Fatal(err)
	}
	for _, e := range evs {
		var p struct{ Event, Text, By string }
		json.Unmarshal(e.Payload, &p)
		if strings.HasPrefix(p.Event, "wallet-") && seen[p.Event] == "" {
			seen[p.Event] = p.Text + " by " + p.By
		}
	}
	if !strings.Contains(seen["wallet-refused"], "20.00 owed to ana") || !strings.Contains(seen["wallet-paid"], "paid when sent again") ||
		!strings.Contains(seen["wallet-resolved"], "ticket 4411 by pit") {
		t.Fatalf("the events: %v", seen)
	}
}
