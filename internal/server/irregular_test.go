package server_test

import (
	"context"
	"strings"
	"testing"

	"sabot"
	"sabot/internal/wire"
)

// AR-23 item 9 and (d)'s exception at the console of a physical shoe: the
// dealer's skipped-eleven gives the player on 11 the option to withdraw
// his bet, which he takes (stake returned); card-stands lets the card
// drawn to a first-card Ace before the challenge was offered stand as its
// second card, nobody challenging. Each is refused with the reason where
// it does not apply, and to a player.
func TestConsoleIrregularities_AR23(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	h := newHarness(t, nil, slow)
	tb := h.table("argentina", false, map[string]string{"shoe": "physical", "player_cut": "false", "min_bets_to_start": "1"})
	dora := h.staff("dora", "dealer")
	ana := h.player("ana", 100000)
	must(ana.Command(ctx, tb, "sit", wire.CommandRequest{Box: 1}))
	must(ana.Command(ctx, tb, "bet", wire.CommandRequest{Box: 1, Stake: 1000}))
	must(dora.Command(ctx, tb, "no-more-bets", wire.CommandRequest{}))
	_, err := dora.Command(ctx, tb, "skipped-eleven", wire.CommandRequest{})
	wantCode(t, err, sabot.ECONFLICT, "the round waits for the next card")
	for _, c := range strings.Fields("6S 9D 5H 7C") {
		must(dora.Command(ctx, tb, "card", wire.CommandRequest{Card: c}))
	}
	_, err = ana.Command(ctx, tb, "skipped-eleven", wire.CommandRequest{})
	wantCode(t, err, sabot.EFORBIDDEN, "")
	_, err = ana.Command(ctx, tb, "act", wire.CommandRequest{Action: "withdraw", Box: 1})
	wantCode(t, err, sabot.EINVALID, "(AR-23)")
	must(dora.Command(ctx, tb, "skipped-eleven", wire.CommandRequest{}))
	must(ana.Command(ctx, tb, "act", wire.CommandRequest{Action: "withdraw", Box: 1}))
	if w := wallet(t, ana); w != 100000 {
		t.Fatalf("ana's wallet after withdrawing: %d", w)
	}

	must(ana.Command(ctx, tb, "bet", wire.CommandRequest{Box: 1, Stake: 1000}))
	must(dora.Command(ctx, tb, "no-more-bets", wire.CommandRequest{}))
	for _, c := range strings.Fields("AS 8D") {
		must(dora.Command(ctx, tb, "card", wire.CommandRequest{Card: c}))
	}
	if n := need(t, ana, tb); n != nil {
		t.Fatalf("the challenge is open, yet the table asks for a card: %+v", n)
	}
	must(dora.Command(ctx, tb, "card-stands", wire.CommandRequest{}))
	if n := need(t, ana, tb); n == nil || n.Box != 1 {
		t.Fatalf("after card-stands the table asks for %+v, want box 1's second card", n)
	}
	for _, c := range strings.Fields("KH 7C") {
		must(dora.Command(ctx, tb, "card", wire.CommandRequest{Card: c}))
	}
	if w := wallet(t, ana); w != 101500 {
		t.Fatalf("ana's wallet after a blackjack, no challenge: %d", w)
	}
	checkLedger(t, h.st)
}

// AR-23 item 14 at the console: the dealer put the bank's hole card into
// the discard by mistake; he asks (case j, the card), the inspector
// approves, and the table asks for the bank's next card, face down, in its
// place: «Próximas cartas para la Banca». The new card stays face down to
// the players; a restart replays the round where it stood; the round
// settles against the bank's new cards and the ledger balances.
func TestBankCardsIntoTheDiscard_AR23(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	h := newHarness(t, nil, slow)
	tb := h.table("argentina", false, map[string]string{"shoe": "physical", "player_cut": "false", "min_bets_to_start": "1"})
	dora := h.staff("dora", "dealer")
	ivo := h.staff("ivo", "inspector")
	ana := h.player("ana", 100000)
	must(ana.Command(ctx, tb, "sit", wire.CommandRequest{Box: 1}))
	must(ana.Command(ctx, tb, "bet", wire.CommandRequest{Box: 1, Stake: 1000}))
	must(dora.Command(ctx, tb, "no-more-bets", wire.CommandRequest{}))
	for _, c := range strings.Fields("TS 9S 8C AD") {
		must(dora.Command(ctx, tb, "card", wire.CommandRequest{Card: c}))
	}
	_, err := dora.Command(ctx, tb, "correct", wire.CommandRequest{Case: "j", Card: "KH"})
	wantCode(t, err, sabot.EINVALID, "the bank holds no KH (AR-23)")
	x := must(dora.Command(ctx, tb, "correct", wire.CommandRequest{Case: "j", Card: "AD"}))
	must(ivo.Command(ctx, tb, "approve", wire.CommandRequest{Correction: x.Seq}))
	if n := need(t, ana, tb); n == nil || n.Box != 0 || !n.FaceDown || !n.Replace {
		t.Fatalf("after the approval the table asks for %+v, want the bank's card face down in its place", n)
	}
	h.restart(slow)
	ana.URL, dora.URL = h.srv.URL(), h.srv.URL()
	if n := need(t, ana, tb); n == nil || n.Box != 0 || !n.FaceDown {
		t.Fatalf("after a restart the table asks for %+v", n)
	}
	must(dora.Command(ctx, tb, "card", wire.CommandRequest{Card: "5C"}))
	v := must(ana.Table(ctx, tb))
	if d := v.Round.Dealer; len(d.Cards) != 2 || d.Cards[1] != wire.Hidden {
		t.Fatalf("the bank shows %v, want 9S and its new card face down", d.Cards)
	}
	must(ana.Command(ctx, tb, "act", wire.CommandRequest{Action: "stand", Box: 1}))
	must(dora.Command(ctx, tb, "card", wire.CommandRequest{Card: "KD"})) // 9 5 K: the bank busts
	if w := wallet(t, ana); w != 101000 {
		t.Fatalf("ana's wallet: %d, want 18 paid against the bank's bust", w)
	}
	checkLedger(t, h.st)
}
