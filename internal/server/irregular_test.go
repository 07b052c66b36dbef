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
	ctx := context.Background()
	h := newHarness(t, nil, slow)
	tb := h.table("argentina", false, map[string]string{"shoe": "physical", "min_bets_to_start": "1"})
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
