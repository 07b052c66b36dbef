package server_test

import (
	"context"
	"testing"
	"time"

	"sabot"
	"sabot/internal/actor"
	"sabot/internal/client"
	"sabot/internal/testwait"
	"sabot/internal/wire"
	"sabot/money"
	"sabot/rules"
)

// keep is the timing of `sabot serve`: the betting window stays open once
// every box has a bet, until its end or every seated player's "deal".
var keep = actor.Timing{BetWindow: time.Minute, Decision: time.Minute, Window: time.Minute, KeepBetWindow: true}

// undealt fails the test if the table's round has been dealt.
func undealt(t *testing.T, c *client.Client, table int64, what string) *wire.TableView {
	t.Helper()
	v := must(c.Table(context.Background(), table))
	if v.Round != nil || v.Turn != nil {
		t.Fatalf("%s: the round was dealt (round %+v)", what, v.Round)
	}
	return v
}

// waitDealt waits until the table's first round is dealt.
func waitDealt(t *testing.T, c *client.Client, table int64) *wire.TableView {
	t.Helper()
	for poll := testwait.NewPoll(10 * time.Second); !poll.Expired(); poll.Next() {
		if v := must(c.Table(context.Background(), table)); v.Round != nil {
			return v
		}
	}
	t.Fatal("the round was not dealt")
	return nil
}

// A lone player builds his stake chip by chip, bets a second box and
// lets another bet behind him before he says "deal": his first chip no
// longer deals the round.
func TestLonePlayerBuildsStakeThenDeals(t *testing.T) {
	t.Parallel()
	h := newHarness(t, nil, keep)
	tb := h.table("spain", false, map[string]string{"player_cut": "false"}) // the cut of a new shoe is TestPlayerCut_EG02_OverHTTP's
	ctx := context.Background()
	ana := h.player("ana", 100000)
	ben := h.player("ben", 100000)
	must(ana.Command(ctx, tb, "sit", wire.CommandRequest{Box: 1}))
	must(ana.Command(ctx, tb, "bet", wire.CommandRequest{Box: 1, Stake: 500}))
	v := undealt(t, ana, tb, "after the first chip")
	if v.BettingDeadline == 0 || !v.KeepBetWindow {
		t.Fatalf("the betting window is not shown: deadline %d, keep %v", v.BettingDeadline, v.KeepBetWindow)
	}
	must(ana.Command(ctx, tb, "bet", wire.CommandRequest{Box: 1, Stake: 1000})) // a second chip: 10 €
	must(ben.Command(ctx, tb, "bet", wire.CommandRequest{Box: 1, Stake: 500}))  // behind ana (ES-03)
	undealt(t, ana, tb, "after the second chip and a bet behind")
	v = waitDealtAfter(t, ana, tb, func() { must(ana.Command(ctx, tb, "deal", wire.CommandRequest{})) })
	stakes := map[string]int64{}
	for _, b := range v.Round.Bets {
		stakes[b.Player] += int64(b.Stake)
	}
	if stakes["ana"] != 1000 || stakes["ben"] != 500 {
		t.Fatalf("the round's stakes are %v, want ana 1000 and ben 500 behind her", stakes)
	}
}

// At every profile a lone player's window stays open while he builds his
// stake: two chips on his box, then a second box taken and bet on, Undo
// of a chip, and a bet behind him from one who does not sit (where the
// profile takes back bets); the round is dealt only by his "deal", where
// the seed lets a lone player play (not at Argentina, AR-03).
func TestEveryProfileKeepsTheLonePlayersWindow(t *testing.T) {
	t.Parallel()
	h := newHarness(t, nil, keep)
	ctx := context.Background()
	ana, ben := h.player("ana", 1000000), h.player("ben", 1000000)
	for _, name := range rules.Names() {
		p := must(rules.Lookup(name))
		tb := h.table(name, false, map[string]string{"player_cut": "false"})
		must(ana.Command(ctx, tb, "sit", wire.CommandRequest{Box: 1}))
		stake := p.MinBet
		must(ana.Command(ctx, tb, "bet", wire.CommandRequest{Box: 1, Stake: stake}))
		undealt(t, ana, tb, name+": after the first chip")
		must(ana.Command(ctx, tb, "bet", wire.CommandRequest{Box: 1, Stake: 2 * stake})) // a second chip
		must(ana.Command(ctx, tb, "bet", wire.CommandRequest{Box: 1, Stake: stake}))     // Undo: the stake before it
		must(ana.Command(ctx, tb, "sit", wire.CommandRequest{Box: 2}))
		must(ana.Command(ctx, tb, "bet", wire.CommandRequest{Box: 2, Stake: stake}))
		if p.BackBetsPerBox > 0 {
			must(ben.Command(ctx, tb, "bet", wire.CommandRequest{Box: 1, Stake: stake}))
		}
		v := undealt(t, ana, tb, name+": after two boxes, an undo and a bet behind")
		if v.BettingDeadline == 0 || !v.KeepBetWindow {
			t.Fatalf("%s: the betting window is not shown: deadline %d, keep %v", name, v.BettingDeadline, v.KeepBetWindow)
		}
		if name == "argentina" {
			continue // AR-03: TestDealKeepsLoneRules_VE20_AR03
		}
		v = waitDealtAfter(t, ana, tb, func() { must(ana.Command(ctx, tb, "deal", wire.CommandRequest{})) })
		stakes := map[int]money.Amount{}
		for _, b := range v.Round.Bets {
			if b.Player == "ana" {
				stakes[b.Box] += b.Stake
			}
		}
		if stakes[1] != stake || stakes[2] != stake {
			t.Errorf("%s: ana's stakes %v, want %v on boxes 1 and 2 (a chip undone)", name, stakes, stake)
		}
	}
}

// waitDealtAfter does f and waits for the deal.
func waitDealtAfter(t *testing.T, c *client.Client, table int64, f func()) *wire.TableView {
	t.Helper()
	f()
	return waitDealt(t, c, table)
}

// Two seated players: the window ends when both have said "deal", not
// when the first has.
func TestDealWaitsForEverySeatedPlayer(t *testing.T) {
	t.Parallel()
	h := newHarness(t, nil, keep)
	tb := h.table("vegas-s17", false, nil)
	ctx := context.Background()
	ana, ben := h.player("ana", 100000), h.player("ben", 100000)
	must(ana.Command(ctx, tb, "sit", wire.CommandRequest{Box: 1}))
	must(ben.Command(ctx, tb, "sit", wire.CommandRequest{Box: 2}))
	must(ana.Command(ctx, tb, "bet", wire.CommandRequest{Box: 1, Stake: 500}))
	must(ben.Command(ctx, tb, "bet", wire.CommandRequest{Box: 2, Stake: 500}))
	must(ana.Command(ctx, tb, "deal", wire.CommandRequest{}))
	v := undealt(t, ana, tb, "after ana's deal alone")
	if len(v.Ready) != 1 || v.Ready[0] != "ana" {
		t.Fatalf("ready %v, want [ana]", v.Ready)
	}
	waitDealtAfter(t, ana, tb, func() { must(ben.Command(ctx, tb, "deal", wire.CommandRequest{})) })
}

// The seed's rules on a lone player still hold: a lone customer plays two
// boxes at Venice (VE-20) and a shoe starts with three players at
// Argentina (AR-03); "deal" is refused with the rule and its reason.
func TestDealKeepsLoneRules_VE20_AR03(t *testing.T) {
	t.Parallel()
	h := newHarness(t, nil, keep)
	ctx := context.Background()
	ana := h.player("ana", 100000)

	ve := h.table("venice", false, nil)
	must(ana.Command(ctx, ve, "sit", wire.CommandRequest{Box: 1}))
	must(ana.Command(ctx, ve, "bet", wire.CommandRequest{Box: 1, Stake: 500}))
	_, err := ana.Command(ctx, ve, "deal", wire.CommandRequest{})
	wantCode(t, err, sabot.ECONFLICT, "VE-20")
	if r, _ := sabot.ReasonOf(err); r == "" {
		t.Errorf("the refusal %v has no reason code", err)
	}
	undealt(t, ana, ve, "a lone player's one box at Venice")
	must(ana.Command(ctx, ve, "sit", wire.CommandRequest{Box: 2}))
	must(ana.Command(ctx, ve, "bet", wire.CommandRequest{Box: 2, Stake: 500}))
	waitDealtAfter(t, ana, ve, func() { must(ana.Command(ctx, ve, "deal", wire.CommandRequest{})) })

	ar := h.table("argentina", false, map[string]string{"player_cut": "false"})
	ben := h.player("ben", 100000)
	must(ben.Command(ctx, ar, "sit", wire.CommandRequest{Box: 1}))
	must(ben.Command(ctx, ar, "bet", wire.CommandRequest{Box: 1, Stake: 500}))
	_, err = ben.Command(ctx, ar, "deal", wire.CommandRequest{})
	wantCode(t, err, sabot.ECONFLICT, "AR-03")
	undealt(t, ben, ar, "a lone player at Argentina")
}

// "deal" without a bet, or from one who does not sit, is refused.
func TestDealRefusedWithoutBetOrSeat(t *testing.T) {
	t.Parallel()
	h := newHarness(t, nil, keep)
	tb := h.table("vegas-s17", false, nil)
	ctx := context.Background()
	ana, ben := h.player("ana", 100000), h.player("ben", 100000)
	must(ana.Command(ctx, tb, "sit", wire.CommandRequest{Box: 1}))
	_, err := ana.Command(ctx, tb, "deal", wire.CommandRequest{})
	wantCode(t, err, sabot.ECONFLICT, "place a bet")
	_, err = ben.Command(ctx, tb, "deal", wire.CommandRequest{})
	wantCode(t, err, sabot.ECONFLICT, "seated")
}

// The bots say "deal" once their bets are down where the table keeps its
// window: a minute's window never runs out while they play.
func TestBotsSayDealWhereTheWindowIsKept(t *testing.T) {
	t.Parallel()
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	h := newHarness(t, nil, actor.Timing{BetWindow: time.Minute, Decision: 2 * time.Second, Window: 300 * time.Millisecond, KeepBetWindow: true})
	rep, err := client.RunBots(ctx, client.BotsConfig{URL: h.srv.URL(), AdminName: "pit", AdminPassword: password,
		Tables: 1, Players: 3, Rounds: 3, Profile: "spain", Stake: 10})
	if err != nil {
		t.Fatal(err)
	}
	if rep.Errors != 0 || rep.Rounds < 3*3 {
		t.Fatalf("%+v", rep)
	}
	checkLedger(t, h.st)
}
