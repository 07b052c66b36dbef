package server_test

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"net/http"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"sabot"
	"sabot/internal/actor"
	"sabot/internal/client"
	"sabot/internal/recall"
	"sabot/internal/server"
	"sabot/internal/store"
	"sabot/internal/testwait"
	"sabot/internal/wire"
	"sabot/money"
)

const password = "correct horse"

// openStore opens the real SQLite store on a file, closed with the test.
func openStore(t *testing.T, path string) sabot.Store {
	t.Helper()
	st, err := store.Open(context.Background(), path)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { st.Close() })
	return st
}

// harness is a server on a store with an administrator and helpers to
// make players.
type harness struct {
	t     *testing.T
	st    sabot.Store
	srv   *server.Server
	admin *client.Client
	log   *slog.Logger // the server's logger (nil: none)
	// set, if given, sets the server's fields before it opens.
	set func(*server.Server)
}

func newHarness(t *testing.T, st sabot.Store, timing actor.Timing) *harness {
	t.Helper()
	if st == nil {
		st = openStore(t, filepath.Join(t.TempDir(), "sabot.db"))
	}
	h := &harness{t: t, st: st}
	h.start(timing)
	return h
}

func (h *harness) start(timing actor.Timing) {
	h.t.Helper()
	h.srv = &server.Server{Store: h.st, TestMode: true, Timing: timing, BcryptCost: 4, Logger: h.log}
	if h.set != nil {
		h.set(h.srv)
	}
	if err := h.srv.EnsureAdmin(context.Background(), "pit", password); err != nil {
		h.t.Fatal(err)
	}
	if err := h.srv.Open(); err != nil {
		h.t.Fatal(err)
	}
	h.t.Cleanup(func() { h.srv.Close() })
	h.admin = &client.Client{URL: h.srv.URL()}
	if _, err := h.admin.Login(context.Background(), "pit", password); err != nil {
		h.t.Fatal(err)
	}
}

// restart stops the server and starts a new one on the same store.
func (h *harness) restart(timing actor.Timing) {
	h.t.Helper()
	h.srv.Close()
	h.start(timing)
}

// player registers, credits and logs in a player.
func (h *harness) player(name string, credit int64) *client.Client {
	h.t.Helper()
	ctx := context.Background()
	c := &client.Client{URL: h.srv.URL()}
	if err := c.Register(ctx, name, password); err != nil {
		h.t.Fatal(err)
	}
	if credit > 0 {
		if err := h.admin.Credit(ctx, name, money.Amount(credit)); err != nil {
			h.t.Fatal(err)
		}
	}
	if _, err := c.Login(ctx, name, password); err != nil {
		h.t.Fatal(err)
	}
	return c
}

func (h *harness) table(profile string, test bool, opts map[string]string) int64 {
	h.t.Helper()
	v, err := h.admin.CreateTable(context.Background(), wire.TableRequest{Name: "t-" + profile, Profile: profile, Options: opts, TestMode: test})
	if err != nil {
		h.t.Fatal(err)
	}
	return v.ID
}

// must returns v, and panics (failing the test) on an error.
func must[T any](v T, err error) T {
	if err != nil {
		panic(err)
	}
	return v
}

func wallet(t *testing.T, c *client.Client) int64 {
	t.Helper()
	return int64(must(c.Me(context.Background())).Wallet)
}

func checkLedger(t *testing.T, st sabot.Store) {
	t.Helper()
	rep := must(st.CheckLedger(context.Background()))
	if !rep.OK() {
		t.Fatalf("ledger: total %d, problems %v", rep.Total, rep.Problems)
	}
}

// waitRound waits until the table's round no is over (settled or void).
func waitRound(t *testing.T, c *client.Client, table int64, no int) *wire.TableView {
	t.Helper()
	for poll := testwait.NewPoll(10 * time.Second); !poll.Expired(); poll.Next() {
		v := must(c.Table(context.Background(), table))
		if v.Round != nil && v.Round.No >= no && v.Round.Phase == "done" && v.Turn == nil {
			return v
		}
	}
	t.Fatalf("round %d of table %d not over in time", no, table)
	return nil
}

func wantCode(t *testing.T, err error, code, text string) {
	t.Helper()
	var e *sabot.Error
	if !errors.As(err, &e) || e.Code != code || !strings.Contains(e.Message, text) {
		t.Fatalf("got %v, want code %s with %q", err, code, text)
	}
}

var slow = actor.Timing{BetWindow: time.Minute, Decision: time.Minute, Window: time.Minute}

// A round over HTTP: seats, bets debited when placed, forced cards in test
// mode, decisions, the settlement credited, the ledger balanced, the round
// recalled and replayed; a repeated command applied once (GLI-19 §4.2.3).
func TestRoundOverHTTP(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	h := newHarness(t, nil, slow)
	tb := h.table("venice", true, map[string]string{"max_bet": "500"})
	ana, ben := h.player("ana", 1000), h.player("ben", 1000)
	must(ana.Command(ctx, tb, "sit", wire.CommandRequest{Box: 1}))
	must(ben.Command(ctx, tb, "sit", wire.CommandRequest{Box: 2}))
	// ana 10+7, ben 9+8, dealer 6, then 10 and 9: bust.
	must(h.admin.Command(ctx, tb, "force-cards", wire.CommandRequest{Cards: "TS 9H 6D 7C 8S TD 9C"}))

	_, err := ana.Command(ctx, tb, "bet", wire.CommandRequest{Box: 1, Stake: 600})
	wantCode(t, err, sabot.EINVALID, "(VE-21)")
	bet := wire.CommandRequest{CommandID: "ana-bet-1", Box: 1, Stake: 100}
	first := must(ana.Command(ctx, tb, "bet", bet))
	again := must(ana.Command(ctx, tb, "bet", bet))
	if !again.Duplicate || again.Seq != first.Seq {
		t.Fatalf("a repeated command: %+v after %+v", again, first)
	}
	if w := wallet(t, ana); w != 900 {
		t.Fatalf("ana's wallet after one bet of 100 sent twice: %d", w)
	}
	must(ben.Command(ctx, tb, "bet", wire.CommandRequest{Box: 2, Stake: 100}))

	// Everyone seated has bet: rien ne va plus, the round is dealt.
	v := must(ana.Table(ctx, tb))
	if v.Round == nil || v.Round.Phase != "playing" || v.Turn == nil || v.Turn.Players[0] != "ana" {
		t.Fatalf("after the bets: %+v", v.Round)
	}
	_, err = ben.Command(ctx, tb, "act", wire.CommandRequest{Action: "stand", Box: 1})
	wantCode(t, err, sabot.EINVALID, "(VE-03)")
	_, err = ben.Command(ctx, tb, "act", wire.CommandRequest{Action: "stand", Box: 2})
	wantCode(t, err, sabot.ECONFLICT, "box 1 hand 1's turn")
	must(ana.Command(ctx, tb, "act", wire.CommandRequest{Action: "stand", Box: 1}))
	must(ben.Command(ctx, tb, "act", wire.CommandRequest{Action: "stand", Box: 2}))

	v = waitRound(t, ana, tb, 1)
	if got := v.Round.Dealer.Cards; strings.Join(got, " ") != "6D TD 9C" {
		t.Fatalf("dealer %v", got)
	}
	if w := wallet(t, ana); w != 1100 {
		t.Fatalf("ana's wallet after a win of 100: %d", w)
	}
	checkLedger(t, h.st)

	rec := must(ana.Round(ctx, v.Round.ID))
	if !rec.Test || !rec.Forced || rec.Net["ana"] != 100 || rec.Net["ben"] != 100 || rec.House != -200 {
		t.Fatalf("recall: %+v", rec)
	}
	if rec.WalletsAtDeal["ana"] != 900 || rec.WalletsAfter["ana"] != 1100 || len(rec.Decisions) != 2 || rec.Decisions[0].By != "player" {
		t.Fatalf("recall: wallets %v → %v, decisions %+v", rec.WalletsAtDeal, rec.WalletsAfter, rec.Decisions)
	}
	// A player recalls his own rounds and sees only his own wallet.
	if _, ok := rec.WalletsAtDeal["ben"]; ok || len(rec.WalletsAfter) != 1 {
		t.Fatalf("ana sees other wallets: %v → %v", rec.WalletsAtDeal, rec.WalletsAfter)
	}
	if _, err := h.player("zed", 0).Round(ctx, v.Round.ID); sabot.ErrorCode(err) != sabot.ENOTFOUND {
		t.Fatalf("a stranger recalled the round: %v", err)
	}
	// GLI-19 §4.14: the player's list of his rounds.
	var mine []wire.RoundSummary
	if err := ana.Do(ctx, "GET", "/api/me/rounds", nil, &mine); err != nil || len(mine) != 1 || mine[0].ID != v.Round.ID || mine[0].Net != 100 || !mine[0].Test {
		t.Fatalf("ana's rounds: %+v %v", mine, err)
	}
	rep, _, err := recall.ReplayRound(ctx, h.st, v.Round.ID)
	if err != nil {
		t.Fatal(err)
	}
	if !rep.OK() {
		t.Fatalf("replay: %v", rep.Problems)
	}
}

// Errors carry a code, one HTTP status per code, and a one-line reason.
func TestErrorStatus(t *testing.T) {
	t.Parallel()
	h := newHarness(t, nil, slow)
	pat := h.player("pat", 0)
	for _, c := range []struct {
		method, path, token string
		status              int
	}{
		{"GET", "/api/me", "", http.StatusUnauthorized},
		{"GET", "/api/me", "nonsense", http.StatusUnauthorized},
		{"GET", "/api/tables/99", "", http.StatusNotFound},
		{"GET", "/api/rounds/x", "", http.StatusUnauthorized},
		{"GET", "/api/rounds/x", "player", http.StatusBadRequest},
		{"POST", "/api/tables", "player", http.StatusForbidden},
		{"GET", "/healthz", "", http.StatusOK},
	} {
		req, _ := http.NewRequest(c.method, h.srv.URL()+c.path, strings.NewReader(`{"name":"x","profile":"venice"}`))
		req.Header.Set("Content-Type", "application/json")
		if c.token == "player" {
			req.Header.Set("Authorization", "Bearer "+pat.Token)
		} else if c.token != "" {
			req.Header.Set("Authorization", "Bearer "+c.token)
		}
		resp, err := http.DefaultClient.Do(req)
		if err != nil {
			t.Fatal(err)
		}
		resp.Body.Close()
		if resp.StatusCode != c.status {
			t.Errorf("%s %s: %d, want %d", c.method, c.path, resp.StatusCode, c.status)
		}
	}
	// An insufficient wallet refuses the bet with nothing changed.
	ctx := context.Background()
	tb := h.table("vegas-s17", false, nil)
	poor := h.player("poor", 50)
	must(poor.Command(ctx, tb, "sit", wire.CommandRequest{Box: 1}))
	_, err := poor.Command(ctx, tb, "bet", wire.CommandRequest{Box: 1, Stake: 100})
	// The refusal shows money as the player sees it, not minor units.
	wantCode(t, err, sabot.EINSUFFICIENT, "insufficient funds: poor's wallet holds 0.50, the bet takes 1.00")
	// With its reason and values, which the page words in its language.
	if reason, params := sabot.ReasonOf(err); reason != "insufficient_funds" || params["held"] != float64(50) || params["amount"] != float64(100) || params["player"] != "poor" {
		t.Fatalf("the refusal's reason is %q %v, want insufficient_funds with held 50, amount 100, player poor", reason, params)
	}
	v := must(poor.Table(ctx, tb))
	if len(v.Bets) != 0 {
		t.Fatalf("a refused bet stayed: %+v", v.Bets)
	}
	// So do the table's limits (AR-04, VE-21; a reference profile cites
	// no seed's rule).
	_, err = poor.Command(ctx, tb, "bet", wire.CommandRequest{Box: 1, Stake: v.Rules.MaxBet + 1})
	wantCode(t, err, sabot.EINVALID, fmt.Sprintf("a stake must be between %s and %s", v.Rules.MinBet, v.Rules.MaxBet))
	checkLedger(t, h.st)
}
