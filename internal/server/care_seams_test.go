package server_test

import (
	"context"
	"fmt"
	"net/http"
	"net/http/cookiejar"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"sabot"
	"sabot/internal/actor"
	"sabot/internal/care"
	"sabot/internal/client"
	"sabot/internal/recall"
	"sabot/internal/server"
	"sabot/internal/wallet/walletsim"
	"sabot/internal/wire"
	"sabot/money"
)

// The seams between responsible gaming and the rest — several
// tables, several nodes, the operator's launch, registration.

// betsAtOnce puts one bet of stake at each table at once, each from the
// client given for it, and returns how many were taken; every refusal must
// be the reason given.
func betsAtOnce(t *testing.T, clients []*client.Client, tables []int64, stake int64, reason string) int {
	t.Helper()
	ctx := context.Background()
	var wg sync.WaitGroup
	errs := make([]error, len(tables))
	start := make(chan struct{})
	for i, tb := range tables {
		wg.Go(func() {
			<-start
			_, errs[i] = clients[i%len(clients)].Command(ctx, tb, "bet", wire.CommandRequest{Box: 1, Stake: money.Amount(stake)})
		})
	}
	close(start)
	wg.Wait()
	taken := 0
	for _, err := range errs {
		if err == nil {
			taken++
			continue
		}
		wantReason(t, err, sabot.EFORBIDDEN, reason)
	}
	return taken
}

// Item 5: a limit holds across tables. Five bets of 6.00 at five tables at
// once under a stake limit of 10.00 a day: one is taken (each table used to
// read the usage, then write: 30.00 went). The loss limit likewise.
func TestCareLimitAcrossTables(t *testing.T) {
	t.Parallel()
	h, _ := careHarness(t)
	for _, kind := range []string{"stake", "loss"} {
		t.Run(kind, func(t *testing.T) { limitAcrossTables(t, h, kind) })
	}
}

func limitAcrossTables(t *testing.T, h *harness, kind string) {
	ctx := context.Background()
	name := "ana-" + kind
	p := h.player(name, 100000)
	var tables []int64
	for i := range 5 {
		v := must(h.admin.CreateTable(ctx, wire.TableRequest{Name: fmt.Sprintf("%s-%d", name, i), Profile: "vegas-s17"}))
		for box := 1; box <= 2; box++ { // two boxes, one bet: the round waits for its window
			must(p.Command(ctx, v.ID, "sit", wire.CommandRequest{Box: box}))
		}
		tables = append(tables, v.ID)
	}
	must(setLimit(t, p, kind, "day", amt(1000)))
	if n := betsAtOnce(t, []*client.Client{p}, tables, 600, kind+"_limit"); n != 1 {
		t.Fatalf("%s limit of 10.00: %d bets of 6.00 taken at once", kind, n)
	}
	if me := must(p.Me(ctx)); me.Wallet != 100000-600 {
		t.Fatalf("%s limit: the wallet holds %d, want %d", kind, me.Wallet, 100000-600)
	}
}

// Item 5 on two nodes: the player's bets at six tables shared by two
// nodes, sent through both at once, under a stake limit of 10.00: one of
// 6.00 is taken.
func TestClusterCareLimit(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	c := newCluster(t, 2)
	tables := c.tables(6)
	within(t, 10*time.Second, "the tables shared out", func() bool {
		return server.Local(c.nodes[0]) == 3 && server.Local(c.nodes[1]) == 3
	})
	ana := c.player("ana", c.nodes[0])
	ana2 := &client.Client{URL: c.nodes[1].URL()}
	must(ana2.Login(ctx, "ana", password))
	for _, tb := range tables {
		for box := 1; box <= 2; box++ { // two boxes, one bet: the round waits for its window
			must(ana.Command(ctx, tb, "sit", wire.CommandRequest{Box: box}))
		}
	}
	must(setLimit(t, ana, "stake", "day", amt(1000)))
	if n := betsAtOnce(t, []*client.Client{ana, ana2}, tables, 600, "stake_limit"); n != 1 {
		t.Fatalf("a stake limit of 10.00 on two nodes: %d bets of 6.00 taken at once", n)
	}
	if me := must(ana2.Me(ctx)); me.Wallet != 10000-600 {
		t.Fatalf("the wallet holds %d, want %d", me.Wallet, 10000-600)
	}
}

// tableOnNode0 opens two tables, waits until each node serves one, and
// returns node 0's.
func tableOnNode0(t *testing.T, c *cluster) int64 {
	t.Helper()
	tables := c.tables(2)
	within(t, 10*time.Second, "one table on each node", func() bool {
		return server.Local(c.nodes[0]) == 1 && server.Local(c.nodes[1]) == 1
	})
	if server.Serves(c.nodes[0], tables[0]) {
		return tables[0]
	}
	return tables[1]
}

// stakeOnSocket sends a bet on a socket whose session or player was just
// revoked on another node: the bet must not be taken — refused (the
// session is over, the player excluded) or never run (the socket closed).
func stakeOnSocket(t *testing.T, f *client.Feed, tb int64, stake int64) {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 20*time.Second)
	defer cancel()
	id, err := f.Send(ctx, wire.CommandRequest{Op: "bet", Box: 1, Stake: money.Amount(stake)})
	if err != nil {
		return // closed already
	}
	for {
		m, err := f.Next(ctx)
		if ctx.Err() != nil {
			t.Fatalf("the socket neither refused the bet nor closed")
		}
		if err != nil {
			return // closed
		}
		if m.CommandID != id {
			continue
		}
		if m.Type == "result" {
			t.Fatalf("a bet of a revoked session was taken at table %d: %+v", tb, m)
		}
		if m.Reason != "session_over" && m.Reason != "excluded" && m.Reason != "blocked" && m.Code != sabot.EUNAUTHORIZED {
			t.Fatalf("the bet refused for another reason: %+v", m)
		}
		return
	}
}

// offTable waits until the player neither sits nor bets at a table, and
// says how long it took from since.
func offTable(t *testing.T, admin *client.Client, tb int64, name string, since time.Time) {
	t.Helper()
	defer func() { t.Logf("%s off table %d %v after the revocation's answer", name, tb, time.Since(since)) }()
	within(t, 10*time.Second, name+" taken off table "+fmt.Sprint(tb), func() bool {
		v := must(admin.Table(context.Background(), tb))
		for _, s := range v.Seats {
			if s.Player == name {
				return false
			}
		}
		for _, b := range v.Bets {
			if b.Player == name {
				return false
			}
		}
		return true
	})
}

// Item 3: a session's end and a player's exclusion made through one node
// hold on the other. A logout through node 1 ends the session's socket on
// node 0 (it kept betting for 60 s); a time-out chosen through node 1 ends
// the player's socket on node 0, takes him off its table (his bet
// returned) and refuses his stakes there (it kept betting for two rounds).
func TestClusterRevocation(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	c := newCluster(t, 2)
	tb := tableOnNode0(t, c)

	// A logout.
	ana := c.player("ana", c.nodes[1])
	must(ana.Command(ctx, tb, "sit", wire.CommandRequest{Box: 1}))
	feed := must(ana.Subscribe(ctx, tb, "", 0)) // through node 1, served by node 0
	defer feed.Close()
	must(feed.Next(ctx)) // the snapshot: the socket is node 0's
	must(0, ana.Do(ctx, "POST", "/api/logout", nil, nil))
	at := time.Now()
	stakeOnSocket(t, feed, tb, 100)
	offTable(t, c.admin, tb, "ana", at) // her last session: her box is given up
	anaID := must(c.nodes[0].Store.UserByName(ctx, "ana")).ID
	if w := must(c.nodes[0].Store.Account(ctx, sabot.AccountWallet, anaID)).Balance; w != 10000 {
		t.Fatalf("ana's wallet holds %d after her logout, want 10000", w)
	}

	// A time-out.
	ben := c.player("ben", c.nodes[0])
	ben1 := &client.Client{URL: c.nodes[1].URL()}
	must(ben1.Login(ctx, "ben", password))
	must(ben.Command(ctx, tb, "sit", wire.CommandRequest{Box: 2}))
	must(c.player("cy", c.nodes[0]).Command(ctx, tb, "sit", wire.CommandRequest{Box: 3})) // no bet: the window stays open
	must(ben.Command(ctx, tb, "bet", wire.CommandRequest{Box: 2, Stake: 700}))
	bf := must(ben.Subscribe(ctx, tb, "", 0))
	defer bf.Close()
	must(bf.Next(ctx))
	var pc sabot.PlayerCare
	must(0, ben1.Do(ctx, "POST", "/api/me/care/exclusion", care.ExclusionRequest{Kind: "time-out", Days: 1}, &pc))
	at = time.Now()
	stakeOnSocket(t, bf, tb, 100)
	offTable(t, c.admin, tb, "ben", at)
	benID := must(c.nodes[0].Store.UserByName(ctx, "ben")).ID
	if w := must(c.nodes[0].Store.Account(ctx, sabot.AccountWallet, benID)).Balance; w != 10000 {
		t.Fatalf("ben's wallet holds %d after his time-out, want 10000 (his bet returned)", w)
	}
}

// A deposit limit holds against credits made at once (each credit read the
// usage, then wrote): eight credits of 600.00 in
// parallel against a limit of 1,000.00 a day, one taken, the others refused
// with the reason and nothing written.
func TestParallelCreditsDepositLimit(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	h, _ := careHarness(t)
	ana := h.player("ana", 0)
	must(setLimit(t, ana, "deposit", "day", amt(100000)))
	var wg sync.WaitGroup
	errs := make([]error, 8)
	for i := range errs {
		wg.Go(func() {
			errs[i] = h.admin.Do(ctx, "POST", "/api/admin/credit", wire.CreditRequest{CommandID: fmt.Sprint("c-", i), User: "ana", Amount: 60000}, nil)
		})
	}
	wg.Wait()
	taken := 0
	for _, err := range errs {
		if err == nil {
			taken++
		} else {
			wantReason(t, err, sabot.EFORBIDDEN, "deposit_limit")
		}
	}
	if me := must(ana.Me(ctx)); taken != 1 || me.Wallet != 60000 {
		t.Fatalf("%d credits of 600.00 taken under a deposit limit of 1,000.00; the wallet holds %d", taken, me.Wallet)
	}
}

// The pit's block, made through one node, holds on the other at once: the
// player's socket on node 0 takes no more
// stakes, he is taken off its table with his bet returned, he cannot log in
// (reason blocked, the pit's reason not told), and the event names the pit.
// Lifted, he logs in again; a repeat of either writes nothing.
func TestClusterPitBlock(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	c := newCluster(t, 2)
	tb := tableOnNode0(t, c)
	pit1 := &client.Client{URL: c.nodes[1].URL(), Token: c.admin.Token} // the pit on node 1
	ben := c.player("ben", c.nodes[0])
	must(ben.Command(ctx, tb, "sit", wire.CommandRequest{Box: 1}))
	must(c.player("cy", c.nodes[0]).Command(ctx, tb, "sit", wire.CommandRequest{Box: 3})) // no bet: the window stays open
	must(ben.Command(ctx, tb, "bet", wire.CommandRequest{Box: 1, Stake: 700}))
	bf := must(ben.Subscribe(ctx, tb, "", 0))
	defer bf.Close()
	must(bf.Next(ctx))

	var v care.BlockView
	wantReason(t, pit1.Do(ctx, "POST", "/api/admin/players/ben/block", care.BlockRequest{}, &v), sabot.EINVALID, "error_invalid")
	wantReason(t, ben.Do(ctx, "POST", "/api/admin/players/ben/block", care.BlockRequest{Reason: "me"}, &v), sabot.EFORBIDDEN, "error_forbidden")
	wantReason(t, pit1.Do(ctx, "POST", "/api/admin/players/pit/block", care.BlockRequest{Reason: "staff"}, &v), sabot.EINVALID, "error_invalid")
	must(0, pit1.Do(ctx, "POST", "/api/admin/players/ben/block", care.BlockRequest{Reason: "chip dumping with cy"}, &v))
	at := time.Now()
	if !v.Blocked || v.Reason != "chip dumping with cy" || v.At == "" {
		t.Fatalf("the block's answer: %+v", v)
	}
	stakeOnSocket(t, bf, tb, 100)
	offTable(t, c.admin, tb, "ben", at)
	benID := must(c.nodes[0].Store.UserByName(ctx, "ben")).ID
	if w := must(c.nodes[0].Store.Account(ctx, sabot.AccountWallet, benID)).Balance; w != 10000 {
		t.Fatalf("ben's wallet holds %d after his block, want 10000 (his bet returned)", w)
	}
	for _, n := range c.nodes {
		_, err := (&client.Client{URL: n.URL()}).Login(ctx, "ben", password)
		if m := wantReason(t, err, sabot.EFORBIDDEN, "blocked"); m != nil {
			t.Fatalf("the refusal tells the pit's reason: %v", m)
		}
		if strings.Contains(err.Error(), "chip dumping") {
			t.Fatalf("the refusal tells the pit's reason: %v", err)
		}
	}
	must(0, pit1.Do(ctx, "POST", "/api/admin/players/ben/block", care.BlockRequest{Reason: "again"}, &v)) // a repeat
	must(0, c.admin.Do(ctx, "POST", "/api/admin/players/ben/unblock", care.BlockRequest{Reason: "cleared by security"}, &v))
	if v.Blocked {
		t.Fatalf("lifted: %+v", v)
	}
	must((&client.Client{URL: c.nodes[1].URL()}).Login(ctx, "ben", password))
	evs := must(recall.Events(ctx, c.nodes[0].Store, recall.EventQuery{Limit: 50}))
	var got []string
	for _, e := range evs {
		if strings.Contains(e.Summary, "ben") && (strings.Contains(e.Summary, "block")) {
			got = append(got, e.Summary)
		}
	}
	if len(got) != 2 || !strings.Contains(got[0]+got[1], "ben blocked by pit: chip dumping with cy") || !strings.Contains(got[0]+got[1], "ben's block lifted by pit: cleared by security") {
		t.Fatalf("the block's events: %q", got)
	}
}

// A password change through one node ends every other session of the
// player on every node: a socket of his old session on
// the other node takes no more stakes, the old token is refused, the old
// password too; the page that changed it gets a new session and the player
// stays at his table. A wrong current password changes nothing.
func TestClusterPasswordChange(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	c := newCluster(t, 2)
	tb := tableOnNode0(t, c)
	ana := c.player("ana", c.nodes[0])
	must(ana.Command(ctx, tb, "sit", wire.CommandRequest{Box: 1}))
	must(c.player("cy", c.nodes[0]).Command(ctx, tb, "sit", wire.CommandRequest{Box: 3})) // no bet: the window stays open
	feed := must(ana.Subscribe(ctx, tb, "", 0))
	defer feed.Close()
	must(feed.Next(ctx))
	ana1 := &client.Client{URL: c.nodes[1].URL()}
	must(ana1.Login(ctx, "ana", password))

	var res wire.LoginResult
	wantReason(t, ana1.Do(ctx, "POST", "/api/me/password", server.PasswordRequest{Password: "not hers", NewPassword: "a new secret 1"}, &res), sabot.EFORBIDDEN, "wrong_password")
	wantCode(t, ana1.Do(ctx, "POST", "/api/me/password", server.PasswordRequest{Password: password, NewPassword: "short"}, &res), sabot.EINVALID, "at least")
	must(ana.Me(ctx)) // nothing changed yet
	old := ana1.Token
	must(0, ana1.Do(ctx, "POST", "/api/me/password", server.PasswordRequest{Password: password, NewPassword: "a new secret 1"}, &res))
	if res.Token == "" || res.Token == old || res.User.Name != "ana" {
		t.Fatalf("the change's answer: %+v", res)
	}
	stakeOnSocket(t, feed, tb, 100) // the socket of her session on node 0
	_, err := ana.Me(ctx)
	wantCode(t, err, sabot.EUNAUTHORIZED, "")
	_, err = ana1.Me(ctx) // the old token of the page that changed it
	wantCode(t, err, sabot.EUNAUTHORIZED, "")
	_, err = (&client.Client{URL: c.nodes[0].URL()}).Login(ctx, "ana", password)
	wantCode(t, err, sabot.EUNAUTHORIZED, "")
	fresh := &client.Client{URL: c.nodes[0].URL(), Token: res.Token}
	if me := must(fresh.Me(ctx)); me.Name != "ana" {
		t.Fatalf("the new session: %+v", me)
	}
	must((&client.Client{URL: c.nodes[1].URL()}).Login(ctx, "ana", "a new secret 1"))
	v := must(c.admin.Table(ctx, tb))
	seated := false
	for _, s := range v.Seats {
		seated = seated || s.Player == "ana"
	}
	if !seated {
		t.Fatalf("ana was taken off the table by her own password change: %+v", v.Seats)
	}
}

// Item 4: an operator's player is held to his operator's tools. He records
// no time-out or limit here (he used to: timed out, launched and betting at
// once); an exclusion on record for him (the pit's, or one recorded before)
// refuses his launch and his stakes.
func TestOperatorPlayerCare(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	h := newOperator(t, walletsim.Faults{}, actor.Timing{BetWindow: time.Minute, Decision: time.Minute, Window: time.Minute}, nil)
	h.op.AddPlayer("ana", "Ana", opStart)
	h.op.IssueToken("ana", "tok-1")
	h.op.IssueToken("ana", "tok-2")
	tv := must(h.admin.CreateTable(ctx, wire.TableRequest{Name: "op", Profile: "vegas-s17"}))
	ana := &client.Client{URL: h.srv.URL()}
	must(ana.Launch(ctx, "tok-1"))
	for box := 1; box <= 2; box++ { // two boxes, one bet: the round waits for its window
		must(ana.Command(ctx, tv.ID, "sit", wire.CommandRequest{Box: box}))
	}
	var pc sabot.PlayerCare
	wantReason(t, ana.Do(ctx, "POST", "/api/me/care/exclusion", care.ExclusionRequest{Kind: "time-out", Days: 1}, &pc), sabot.EFORBIDDEN, "operator_care")
	_, err := setLimit(t, ana, "stake", "day", amt(100))
	wantReason(t, err, sabot.EFORBIDDEN, "operator_care")
	must(ana.Command(ctx, tv.ID, "bet", wire.CommandRequest{Box: 1, Stake: 100}))

	u := must(h.st.UserByName(ctx, "@ana"))
	now := time.Now()
	must(0, h.st.(sabot.Care).PutCare(ctx, u.ID, sabot.PlayerCare{RealityMinutes: 60, Exclusion: "time-out", ExcludedFrom: now, ExcludedUntil: now.Add(24 * time.Hour)}))
	_, err = ana.Command(ctx, tv.ID, "bet", wire.CommandRequest{Box: 2, Stake: 100})
	wantReason(t, err, sabot.EFORBIDDEN, "excluded")
	_, err = (&client.Client{URL: h.srv.URL()}).Launch(ctx, "tok-2")
	wantReason(t, err, sabot.EFORBIDDEN, "excluded")
	drained(t, h.st, 10*time.Second)
	if got := h.op.Balance("ana"); got != opStart-100 {
		t.Fatalf("the operator holds %d for ana, want %d: the refused stake's debit not rolled back", got, opStart-100)
	}
}

// Item 8: a registration or a login from where a player under an
// exclusion was seen is a significant event for the pit, and a
// registration there gets no welcome credit (the same browser registered a
// new account, with its welcome credit, right after a time-out).
func TestCareReRegistration(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	h := &harness{t: t, st: openStore(t, filepath.Join(t.TempDir(), "sabot.db")), set: func(s *server.Server) { s.WelcomeCredit = 100000 }}
	h.start(actor.Timing{BetWindow: time.Minute, Decision: time.Minute, Window: time.Minute})
	cy := h.player("cy", 0) // before: his welcome credit
	jar := must(cookiejar.New(nil))
	browser := &http.Client{Jar: jar}
	ben := &client.Client{URL: h.srv.URL(), HTTP: browser}
	must(0, ben.Register(ctx, "ben", password))
	must(ben.Login(ctx, "ben", password))
	if me := must(ben.Me(ctx)); me.Wallet != 100000 {
		t.Fatalf("ben's welcome credit: %d", me.Wallet)
	}
	var pc sabot.PlayerCare
	must(0, ben.Do(ctx, "POST", "/api/me/care/exclusion", care.ExclusionRequest{Kind: "time-out", Days: 1}, &pc))

	again := &client.Client{URL: h.srv.URL(), HTTP: browser} // the same browser
	must(0, again.Register(ctx, "benjamin", password))
	must(again.Login(ctx, "benjamin", password))
	if me := must(again.Me(ctx)); me.Wallet != 0 {
		t.Fatalf("a new account from an excluded player's browser got a welcome credit: %d", me.Wallet)
	}
	must(cy.Login(ctx, "cy", password)) // another browser, the same address
	evs := must(recall.Events(ctx, h.st, recall.EventQuery{Limit: 50}))
	want := []string{
		"benjamin registered from the address and device of ben, under a time-out until " + pc.ExcludedUntil.UTC().Format(time.RFC3339) + ": no welcome credit",
		"benjamin logged in from the address and device of ben",
		"cy logged in from the address of ben, under a time-out",
	}
	for _, w := range want {
		found := false
		for _, e := range evs {
			found = found || strings.Contains(e.Summary, w)
		}
		if !found {
			t.Errorf("no significant event %q", w)
		}
	}
	if t.Failed() {
		for _, e := range evs {
			t.Log(e.Summary)
		}
	}
}

// A bet lowered is a bet too. A player blocked where this node
// has not heard of it yet (the block written to the store alone, as
// another node's would be before its notice arrives) cannot change his bet
// down either: the bet's transaction reads his eligibility whatever it
// stakes, and his 7.00 stays where it was.
func TestLoweredBetOfBlockedPlayer(t *testing.T) {
	t.Parallel()
	h, _ := careHarness(t)
	ctx := context.Background()
	p := h.player("ana", 10000)
	v := must(h.admin.CreateTable(ctx, wire.TableRequest{Name: "lowered", Profile: "vegas-s17"}))
	for box := 1; box <= 2; box++ { // two boxes, one bet: the round waits for its window
		must(p.Command(ctx, v.ID, "sit", wire.CommandRequest{Box: box}))
	}
	must(p.Command(ctx, v.ID, "bet", wire.CommandRequest{Box: 1, Stake: 700}))
	id := must(h.st.UserByName(ctx, "ana")).ID
	if err := h.st.(sabot.Care).SetBlock(ctx, id, "chip dumping", time.Now()); err != nil {
		t.Fatal(err)
	}
	for _, stake := range []int64{100, 700} {
		_, err := p.Command(ctx, v.ID, "bet", wire.CommandRequest{Box: 1, Stake: money.Amount(stake)})
		wantReason(t, err, sabot.EFORBIDDEN, "blocked")
	}
	if w := must(h.st.Account(ctx, sabot.AccountWallet, id)).Balance; w != 10000-700 {
		t.Fatalf("ana's wallet holds %d, want %d: her bet of 7.00 changed", w, 10000-700)
	}
}

// The pit's view of the players shows where each sits at the tables of
// every node, not only those of the node the pit asks: ben sits at a table
// node 0 serves, and the pit asks node 1.
func TestClusterPitSeesEverySeat(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	c := newCluster(t, 2)
	tb := tableOnNode0(t, c)
	must(c.player("ben", c.nodes[0]).Command(ctx, tb, "sit", wire.CommandRequest{Box: 2}))
	pit1 := &client.Client{URL: c.nodes[1].URL(), Token: c.admin.Token}
	var ps []care.PlayerView
	must(0, pit1.Do(ctx, "GET", "/api/admin/players?q=ben", nil, &ps))
	if len(ps) != 1 || len(ps[0].Seats) != 1 || ps[0].Seats[0].Table != tb || ps[0].Seats[0].Box != 2 || ps[0].Seats[0].Name == "" {
		t.Fatalf("the pit on node 1 sees ben at %+v, want box 2 of table %d (node 0's)", ps, tb)
	}
}
