//go:build logfixture

package server_test

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"sabot/internal/actor"
	"sabot/internal/client"
	"sabot/internal/store"
	"sabot/internal/testwait"
	"sabot/internal/wallet/walletsim"
	"sabot/internal/wire"
)

// TestWriteLogFixture writes the store internal/recall replays as a fixture
// (internal/recall/logfixture_test.go: no stored byte
// changes). It was run once on main at 1b82554, the code before the log
// had one owner:
//
//	go test -tags logfixture ./internal/server -run TestWriteLogFixture -count 1
//	go test ./internal/recall -run TestLogFixture -update-log-fixture
//
// It is not run otherwise (the build tag): the fixture is what that code
// wrote, and is kept, not rewritten.
func TestWriteLogFixture(t *testing.T) {
	ctx := context.Background()
	path := filepath.Join("..", "recall", "testdata", "log-1b82554.db")
	for _, suffix := range []string{"", "-wal", "-shm"} {
		os.Remove(path + suffix)
	}
	st, err := store.Open(ctx, path)
	if err != nil {
		t.Fatal(err)
	}
	defer st.Close()
	fast := actor.Timing{BetWindow: 50 * time.Millisecond, Decision: 2 * time.Second, Window: 300 * time.Millisecond}
	h := newOperator(t, walletsim.Faults{}, fast, st)

	// Bots on the profiles with windows: the Desafío, declarations,
	// insurance, splits and doubles, back bettors' answers.
	for _, profile := range []string{"argentina", "spain", "venice", "family", "vegas-s17"} {
		cfg := client.BotsConfig{URL: h.srv.URL(), AdminName: "pit", AdminPassword: password,
			Tables: 1, Players: 3, Rounds: 6, Profile: profile, Stake: 10, Prefix: profile + "-"}
		if profile == "spain" || profile == "venice" {
			cfg.Backers = 1
		}
		rep, err := client.RunBots(ctx, cfg)
		if err != nil {
			t.Fatal(err)
		}
		if rep.Errors != 0 {
			t.Fatalf("%s: %+v", profile, rep)
		}
	}

	// Forced rounds on vegas: a split, insurance offered, a void by the
	// pit, a new shoe, a configuration change.
	tb := h.table("vegas-s17", true, nil)
	ana := h.player("ana", 100000)
	must(ana.Command(ctx, tb, "sit", wire.CommandRequest{Box: 1}))
	must(h.admin.Command(ctx, tb, "force-cards", wire.CommandRequest{Cards: "8S 6D 8H TD 3C 2H"}))
	must(ana.Command(ctx, tb, "bet", wire.CommandRequest{Box: 1, Stake: 1000}))
	waitTurn(t, ana, tb)
	must(ana.Command(ctx, tb, "act", wire.CommandRequest{Box: 1, Hand: 1, Action: "split"}))
	for waitTurn(t, ana, tb) {
		v := must(ana.Table(ctx, tb))
		must(ana.Command(ctx, tb, "act", wire.CommandRequest{Box: 1, Hand: v.Turn.Hand, Action: "stand"}))
	}
	waitRound(t, ana, tb, 1)
	must(h.admin.Command(ctx, tb, "new-shoe", wire.CommandRequest{}))
	must(h.admin.Command(ctx, tb, "configure", wire.CommandRequest{Options: map[string]string{"decks": "6"}}))
	must(h.admin.Command(ctx, tb, "force-cards", wire.CommandRequest{Cards: "TS AD 9H KD"}))
	must(ana.Command(ctx, tb, "bet", wire.CommandRequest{Box: 1, Stake: 500}))
	for poll := testwait.NewPoll(10 * time.Second); ; poll.Next() { // the dealer's ace: insurance
		if v := must(ana.Table(ctx, tb)); v.Round != nil && v.Round.Phase == "insurance" {
			break
		}
		if poll.Expired() {
			t.Fatal("no insurance window")
		}
	}
	must(ana.Command(ctx, tb, "act", wire.CommandRequest{Box: 1, Hand: 1, Action: "insure"}))
	waitRound(t, ana, tb, 2)

	// A physical shoe: the dealer's cards, a walk-in's buy-in, an AR-23
	// correction asked and approved.
	ph := h.table("spain", false, map[string]string{"shoe": "physical", "decks": "1", "cut_card_reserve": "10", "burn_cards": "1", "max_hands": "4"})
	dora, ivo := h.staff("dora", "dealer"), h.staff("ivo", "inspector")
	ben := h.player("ben", 100000)
	must(ben.Command(ctx, ph, "sit", wire.CommandRequest{Box: 1}))
	must(dora.Command(ctx, ph, "seat-walk-in", wire.CommandRequest{Box: 2}))
	must(dora.Command(ctx, ph, "buy-in", wire.CommandRequest{Box: 2, Stake: 5000}))
	must(dora.Command(ctx, ph, "bet", wire.CommandRequest{Box: 2, Stake: 1000, WalkIn: 2}))
	must(ben.Command(ctx, ph, "bet", wire.CommandRequest{Box: 1, Stake: 1000}))
	must(h.admin.Command(ctx, ph, "no-more-bets", wire.CommandRequest{}))
	for _, c := range strings.Fields("TS 9H 6D 7C 8S") {
		must(dora.Command(ctx, ph, "card", wire.CommandRequest{Card: c}))
	}
	b := must(dora.Command(ctx, ph, "correct", wire.CommandRequest{Case: "b", Box: 2}))
	must(ivo.Command(ctx, ph, "approve", wire.CommandRequest{Correction: b.Seq}))
	must(ben.Command(ctx, ph, "act", wire.CommandRequest{Action: "stand", Box: 1}))
	must(dora.Command(ctx, ph, "card", wire.CommandRequest{Card: "TD"}))
	must(dora.Command(ctx, ph, "card", wire.CommandRequest{Card: "2H"}))
	waitRound(t, ben, ph, 1)

	// An operator's player: the debits asked of its wallet.
	h.op.AddPlayer("opa", "Opa", opStart)
	h.op.IssueToken("opa", "tok-opa")
	ot := h.table("vegas-s17", true, nil)
	opa := &client.Client{URL: h.srv.URL()}
	must(opa.Launch(ctx, "tok-opa"))
	must(opa.Command(ctx, ot, "sit", wire.CommandRequest{Box: 1}))
	for n := 1; n <= 2; n++ {
		must(h.admin.Command(ctx, ot, "force-cards", wire.CommandRequest{Cards: "AS 6D KH TD"}))
		must(opa.Command(ctx, ot, "bet", wire.CommandRequest{Box: 1, Stake: 1000}))
		waitRound(t, opa, ot, n)
	}
	drained(t, st, 30*time.Second)
	checkLedger(t, st)
}

// waitTurn waits until it is a player's turn at the table (true), or the
// round is over (false).
func waitTurn(t *testing.T, c *client.Client, table int64) bool {
	t.Helper()
	for poll := testwait.NewPoll(10 * time.Second); !poll.Expired(); poll.Next() {
		v := must(c.Table(context.Background(), table))
		if v.Turn != nil {
			return true
		}
		if v.Round != nil && v.Round.Phase == "done" {
			return false
		}
	}
	t.Fatalf("no turn nor the round over at table %d", table)
	return false
}
