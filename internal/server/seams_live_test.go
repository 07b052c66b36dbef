package server_test

import (
	"context"
	"strings"
	"testing"

	"sabot"
	"sabot/internal/client"
	"sabot/internal/recall"
	"sabot/internal/wire"
)

// watchRound reads a table's WebSocket until round no is done and returns
// its events.
func watchRound(t *testing.T, c *client.Client, table int64, no int) <-chan []wire.Event {
	t.Helper()
	ctx := context.Background()
	f := must(c.Subscribe(ctx, table, "", 0))
	// The first message, the snapshot, says the table has the socket: the
	// events of what the test does next come after it.
	if m := must(f.Next(ctx)); m.Type != "snapshot" {
		t.Fatalf("a socket's first message: %+v", m)
	}
	out := make(chan []wire.Event, 1)
	go func() {
		defer f.Close()
		var got []wire.Event
		for {
			m, err := f.Next(ctx)
			if err != nil {
				out <- got
				return
			}
			if m.Type != "event" || m.Event == nil {
				continue
			}
			got = append(got, *m.Event)
			if m.Event.Kind == "done" && m.Event.Round == no {
				out <- got
				return
			}
		}
	}()
	return out
}

// noHiddenKnowledge fails if a player was asked to decide while a card
// the table had shown him (a reveal) was face down again: the hole card
// never reaches a player who can still decide unless the round shows it
// to everyone (AR-09; AR-23 (g)).
func noHiddenKnowledge(t *testing.T, events []wire.Event) {
	t.Helper()
	revealed := map[string]bool{}
	for _, e := range events {
		switch e.Kind {
		case "reveal":
			revealed[e.Card] = true
		case "turn":
			if e.Turn == nil || len(e.Turn.Players) == 0 {
				continue
			}
			shown := strings.Join(e.Turn.Dealer, " ")
			for c := range revealed {
				if !strings.Contains(shown, c) {
					t.Fatalf("%v decide against the dealer's %s, having been shown %s (AR-09)", e.Turn.Players, shown, c)
				}
			}
		}
	}
}

// AR-09, AR-23: a card that ends a player's turn by
// itself (here a 21) makes the dealer turn his hole card; the dealer may
// not then take that card back and have the player decide again knowing
// the dealer's total. Taking it back is an AR-23 correction the inspector
// approves; the hole card the players saw stays turned (AR-23 (g)), and
// no turn is offered against a hole card a player was shown.
func TestRevealThenUndo_AR09_AR23(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	h := newHarness(t, nil, slow)
	tb := h.table("argentina", false, map[string]string{"shoe": "physical", "player_cut": "false", "min_bets_to_start": "1"})
	dora, ivo := h.staff("dora", "dealer"), h.staff("ivo", "inspector")
	ana := h.player("ana", 100000)
	must(ana.Command(ctx, tb, "sit", wire.CommandRequest{Box: 1}))
	must(ana.Command(ctx, tb, "bet", wire.CommandRequest{Box: 1, Stake: 1000}))
	feed := watchRound(t, ana, tb, 1)
	must(dora.Command(ctx, tb, "no-more-bets", wire.CommandRequest{}))
	for _, c := range strings.Fields("5S 6C 6D QH") { // ana 11; the dealer 6 and QH face down
		must(dora.Command(ctx, tb, "card", wire.CommandRequest{Card: c}))
	}
	must(ana.Command(ctx, tb, "act", wire.CommandRequest{Action: "hit", Box: 1}))
	must(dora.Command(ctx, tb, "card", wire.CommandRequest{Card: "TC"})) // 21: the dealer turns QH (16) and draws
	if n := need(t, ana, tb); n == nil || n.Box != 0 {
		t.Fatalf("after ana's 21 the table asks for %+v, want the dealer's card", n)
	}

	// The attack: the dealer takes the 21 back after the reveal.
	_, err := dora.Command(ctx, tb, "undo-card", wire.CommandRequest{})
	wantCode(t, err, sabot.ECONFLICT, "AR-23")
	if n := need(t, ana, tb); n == nil || n.Box != 0 {
		t.Fatalf("a refused undo changed the table: it asks for %+v", n)
	}

	// The inspector's correction: the card goes back, recorded; the hole
	// card stays turned.
	x := must(dora.Command(ctx, tb, "correct", wire.CommandRequest{Case: "undo"}))
	if v := must(ana.Table(ctx, tb)); len(v.Corrections) != 1 || v.Corrections[0].Card != 0 || strings.Contains(v.Corrections[0].Text, "TC") {
		t.Fatalf("the correction as the table shows it: %+v", v.Corrections)
	}
	_, err = dora.Command(ctx, tb, "approve", wire.CommandRequest{Correction: x.Seq})
	wantCode(t, err, sabot.EFORBIDDEN, "")
	must(ivo.Command(ctx, tb, "approve", wire.CommandRequest{Correction: x.Seq}))
	if n := need(t, ana, tb); n == nil || n.Box != 1 {
		t.Fatalf("after the take-back the table asks for %+v, want ana's card", n)
	}
	h.restart(slow) // the take-back and the exposure replay from the log
	for _, c := range []*client.Client{ana, dora, ivo} {
		c.URL = h.srv.URL()
	}
	after := watchRound(t, ana, tb, 1)
	must(dora.Command(ctx, tb, "card", wire.CommandRequest{Card: "9C"})) // 20: ana decides, seeing QH
	v := must(ana.Table(ctx, tb))
	if v.Turn == nil || v.Turn.Box != 1 || strings.Join(v.Turn.Dealer, " ") != "6C QH" {
		t.Fatalf("ana's turn on 20: %+v", v.Turn)
	}
	must(ana.Command(ctx, tb, "act", wire.CommandRequest{Action: "stand", Box: 1}))
	must(dora.Command(ctx, tb, "card", wire.CommandRequest{Card: "2H"})) // 18
	v = waitRound(t, ana, tb, 1)
	if w := wallet(t, ana); w != 101000 {
		t.Fatalf("ana's 20 beat 18: wallet %d", w)
	}
	readings := func(c *client.Client) string {
		var read []string
		for _, r := range must(c.Round(ctx, v.Round.ID)).Readings {
			read = append(read, r.Kind+":"+r.Card+":"+r.By)
		}
		return strings.Join(read, " ")
	}
	if got := readings(h.admin); !strings.Contains(got, "card:TC:dora undo:TC:ivo card:9C:dora") {
		t.Fatalf("the round's readings: %s", got)
	}
	// A player's recall hides the card taken back while its shoe goes on
	// (AR-23 (d), as a burn).
	if got := readings(ana); !strings.Contains(got, "card:TC:dora undo::ivo card:9C:dora") {
		t.Fatalf("the round's readings as ana recalls them mid-shoe: %s", got)
	}
	checkLedger(t, h.st)
	rep, _, err := recall.ReplayRound(ctx, h.st, v.Round.ID)
	if err != nil || !rep.OK() {
		t.Fatalf("replay: %v %+v", err, rep)
	}
	// The feeds ana's page saw, before the restart and after: no turn
	// against a hole card she had been shown; after, QH turned again
	// before her turn.
	noHiddenKnowledge(t, <-feed)
	events := <-after
	noHiddenKnowledge(t, events)
	var kinds []string
	for _, e := range events {
		if e.Kind == "reveal" || e.Kind == "turn" {
			kinds = append(kinds, e.Kind+":"+e.Card)
		}
	}
	if len(kinds) < 2 || kinds[0] != "reveal:QH" || kinds[1] != "turn:" {
		t.Fatalf("after the take-back, ana's page saw %v, want QH turned before her turn", kinds)
	}
}

// AR-23: the dealer's own undo is for a misread card
// that nothing followed and that decided nothing. A card that busted a
// hand, and a hole card read face down, are the inspector's to take back;
// a hit card that ended nothing is still the dealer's.
func TestDealerUndoDecidingCard_AR23(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	h := newHarness(t, nil, slow)
	tb := h.table("spain", false, map[string]string{"shoe": "physical", "player_cut": "false", "decks": "1", "cut_card_reserve": "10", "burn_cards": "1", "max_hands": "4"})
	dora := h.staff("dora", "dealer")
	ana, ben := h.player("ana", 100000), h.player("ben", 100000)
	must(ana.Command(ctx, tb, "sit", wire.CommandRequest{Box: 1}))
	must(ben.Command(ctx, tb, "sit", wire.CommandRequest{Box: 2}))
	must(ana.Command(ctx, tb, "bet", wire.CommandRequest{Box: 1, Stake: 1000}))
	must(ben.Command(ctx, tb, "bet", wire.CommandRequest{Box: 2, Stake: 1000}))
	must(dora.Command(ctx, tb, "no-more-bets", wire.CommandRequest{}))
	for _, c := range strings.Fields("TS 9H 6D 2C 8S") { // ana 12, ben 17, the dealer 6
		must(dora.Command(ctx, tb, "card", wire.CommandRequest{Card: c}))
	}
	must(ana.Command(ctx, tb, "act", wire.CommandRequest{Action: "hit", Box: 1}))
	must(dora.Command(ctx, tb, "card", wire.CommandRequest{Card: "2D"})) // 14: it ends nothing
	must(dora.Command(ctx, tb, "undo-card", wire.CommandRequest{}))      // the dealer's own
	must(dora.Command(ctx, tb, "card", wire.CommandRequest{Card: "2D"}))
	must(ana.Command(ctx, tb, "act", wire.CommandRequest{Action: "hit", Box: 1}))
	must(dora.Command(ctx, tb, "card", wire.CommandRequest{Card: "QH"})) // 24: busted; ben's turn
	_, err := dora.Command(ctx, tb, "undo-card", wire.CommandRequest{})
	wantCode(t, err, sabot.ECONFLICT, "it busted box 1 hand 1 (24): taking it back is a correction the inspector approves (correct, case undo) (ES-01)")
	v := must(ana.Table(ctx, tb))
	if v.Turn == nil || v.Turn.Box != 2 {
		t.Fatalf("a refused undo changed the table: turn %+v", v.Turn)
	}

	// A hole card read face down is the inspector's to take back too.
	ar := h.table("argentina", false, map[string]string{"shoe": "physical", "player_cut": "false", "min_bets_to_start": "1"})
	must(ana.Command(ctx, ar, "sit", wire.CommandRequest{Box: 1}))
	must(ana.Command(ctx, ar, "bet", wire.CommandRequest{Box: 1, Stake: 1000}))
	must(dora.Command(ctx, ar, "no-more-bets", wire.CommandRequest{}))
	for _, c := range strings.Fields("5S 6C 6D QH") {
		must(dora.Command(ctx, ar, "card", wire.CommandRequest{Card: c}))
	}
	_, err = dora.Command(ctx, ar, "undo-card", wire.CommandRequest{})
	wantCode(t, err, sabot.ECONFLICT, "it was read face down: taking it back is a correction the inspector approves (correct, case undo) (AR-23)") // argentina: its own AR-23
}

// The table's cash float has a ceiling. No buy-in takes
// the chips out past the float's ceiling (the table's float_limit;
// --float-limit by default); a walk-in's buy-in or cash-out over the
// table's cash_approval (--cash-approval) made by the dealer waits for the
// inspector's approval, through a restart; the inspector (or the pit) may
// make one himself. The attack: one buy-in of 10^15 filled the float and
// blocked every later buy-in.
func TestCashFloatCeiling(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	h := newHarness(t, nil, slow)
	dora, ivo := h.staff("dora", "dealer"), h.staff("ivo", "inspector")
	tb := h.table("spain", false, map[string]string{"shoe": "physical", "player_cut": "false"})
	must(dora.Command(ctx, tb, "seat-walk-in", wire.CommandRequest{Box: 1}))
	for _, c := range []*client.Client{dora, ivo} {
		_, err := c.Command(ctx, tb, "buy-in", wire.CommandRequest{Box: 1, Stake: 1_000_000_000_000_000})
		wantCode(t, err, sabot.ECONFLICT, "with 0.00 in chips out, 10,000,000,000,000.00 more would take the float past its ceiling (float_limit) of 1,000,000.00")
	}
	must(dora.Command(ctx, tb, "buy-in", wire.CommandRequest{Box: 1, Stake: 5000})) // later buy-ins go on
	float := func(table, want int64) {
		t.Helper()
		if f := must(h.st.Account(ctx, sabot.AccountHouse, table)); int64(f.Balance) != want {
			t.Fatalf("table %d's float: %d, want %d", table, f.Balance, want)
		}
	}
	float(tb, -5000)
	// Over the default cash_approval (10,000.00): it waits for the inspector.
	x := must(dora.Command(ctx, tb, "buy-in", wire.CommandRequest{Box: 1, Stake: 2_000_000}))
	v := must(dora.Table(ctx, tb))
	if len(v.Corrections) != 1 || v.Corrections[0].Case != "buy-in" || v.Corrections[0].Amount != 2_000_000 || v.Cash == nil || v.Cash.Approval != 1_000_000 || v.Cash.FloatLimit != 100_000_000 {
		t.Fatalf("the buy-in waiting: %+v, limits %+v", v.Corrections, v.Cash)
	}
	float(tb, -5000)
	_, err := dora.Command(ctx, tb, "approve", wire.CommandRequest{Correction: x.Seq})
	wantCode(t, err, sabot.EFORBIDDEN, "")
	must(ivo.Command(ctx, tb, "approve", wire.CommandRequest{Correction: x.Seq}))
	float(tb, -2_005_000)

	// The pit's limits for one table, its options.
	lim := h.table("spain", false, map[string]string{"shoe": "physical", "player_cut": "false", "cash_approval": "100000", "float_limit": "1000000"})
	must(dora.Command(ctx, lim, "seat-walk-in", wire.CommandRequest{Box: 1}))
	must(dora.Command(ctx, lim, "seat-walk-in", wire.CommandRequest{Box: 2}))
	x = must(dora.Command(ctx, lim, "buy-in", wire.CommandRequest{Box: 1, Stake: 500000}))
	must(ivo.Command(ctx, lim, "approve", wire.CommandRequest{Correction: x.Seq}))
	must(dora.Command(ctx, lim, "buy-in", wire.CommandRequest{Box: 2, Stake: 100000})) // not over: the dealer's
	float(lim, -600000)
	for _, c := range []*client.Client{dora, ivo} {
		_, err = c.Command(ctx, lim, "buy-in", wire.CommandRequest{Box: 2, Stake: 400001})
		wantCode(t, err, sabot.ECONFLICT, "with 6,000.00 in chips out, 4,000.01 more would take the float past its ceiling (float_limit) of 10,000.00")
	}
	x = must(dora.Command(ctx, lim, "buy-in", wire.CommandRequest{Box: 2, Stake: 400000}))
	h.restart(slow) // the request waits through a restart
	dora.URL, ivo.URL = h.srv.URL(), h.srv.URL()
	must(ivo.Command(ctx, lim, "refuse-correction", wire.CommandRequest{Correction: x.Seq}))
	float(lim, -600000)
	must(ivo.Command(ctx, lim, "buy-in", wire.CommandRequest{Box: 2, Stake: 400000})) // the inspector's own
	x = must(dora.Command(ctx, lim, "cash-out", wire.CommandRequest{Box: 1}))
	float(lim, -1_000_000)
	must(ivo.Command(ctx, lim, "approve", wire.CommandRequest{Correction: x.Seq}))
	float(lim, -500000)
	if v := must(dora.Table(ctx, lim)); len(v.Corrections) != 0 {
		t.Fatalf("requests still waiting: %+v", v.Corrections)
	}
	events := must(h.st.Find(ctx, sabot.LogQuery{Kinds: []string{sabot.LogAdmin}, TableID: lim}))
	var said []string
	for _, e := range events {
		said = append(said, string(e.Payload))
	}
	all := strings.Join(said, "\n")
	if strings.Contains(all, " for #") { // a walk-in is named by his box, as the console names him
		t.Errorf("a significant event names a walk-in by his account:\n%s", all)
	}
	for _, want := range []string{
		"buys 5,000.00 in chips at box 1 (asked by dora, approved by ivo)",
		"buy-in of 4,000.00 for walk-in, box 2: ",
		"(asked by dora, refused by ivo)",
		"buys 4,000.00 in chips at box 2 (by ivo, over the table's cash_approval of 1,000.00)",
		"changes 5,000.00 in chips back to cash at box 1 (asked by dora, approved by ivo)",
	} {
		if !strings.Contains(all, want) {
			t.Errorf("the significant events lack %q:\n%s", want, all)
		}
	}
	_, err = h.admin.Command(ctx, lim, "configure", wire.CommandRequest{Options: map[string]string{"float_limit": "-1"}})
	wantCode(t, err, sabot.EINVALID, "float_limit=-1: give a positive amount")
	must(h.admin.Command(ctx, lim, "configure", wire.CommandRequest{Options: map[string]string{"float_limit": "2000000"}}))
	must(ivo.Command(ctx, lim, "buy-in", wire.CommandRequest{Box: 1, Stake: 500000}))
	float(lim, -1_000_000)
	checkLedger(t, h.st)
}
