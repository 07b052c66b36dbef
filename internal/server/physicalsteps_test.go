package server_test

import (
	"context"
	"net/url"
	"strconv"
	"strings"
	"testing"

	"sabot"
	"sabot/internal/wire"
)

// AR-07, EG-02 at a table dealt from a physical shoe (000 item 5: «con
// autorización del Inspector o Jefe de Mesa … solicitando
// a los apostadores realizar el corte»; 003 §10): a new shoe waits for the
// inspector's authorisation of its shuffle and for the dealer's record of
// who cut it before its first deal, as a shuffled shoe does; each step is
// a shoe-step record of the table's log, naming who authorised, who cut
// and who recorded it, through a restart and in the significant-event
// log; and the shoe that follows the cut card's waits for them again.
func TestPhysicalShoeSteps_AR07_EG02(t *testing.T) {
	ctx := context.Background()
	h := newHarness(t, nil, slow)
	tb := h.table("argentina", false, map[string]string{"shoe": "physical", "min_bets_to_start": "1", "decks": "8"})
	dora, ivo := h.staff("dora", "dealer"), h.staff("ivo", "inspector")
	ana := h.player("ana", 100000)
	must(ana.Command(ctx, tb, "sit", wire.CommandRequest{Box: 1}))
	must(ana.Command(ctx, tb, "bet", wire.CommandRequest{Box: 1, Stake: 1000}))
	v := must(dora.Table(ctx, tb))
	if v.Shoe.Await != "authorise" || v.Round != nil {
		t.Fatalf("the new table: shoe %+v, round %+v", v.Shoe, v.Round)
	}
	_, err := dora.Command(ctx, tb, "no-more-bets", wire.CommandRequest{})
	wantCode(t, err, sabot.ECONFLICT, "authorise its shuffle (AR-07)")
	_, err = dora.Command(ctx, tb, "authorise-shuffle", wire.CommandRequest{})
	wantCode(t, err, sabot.EFORBIDDEN, "the inspector's or the pit's only (AR-07)")
	_, err = dora.Command(ctx, tb, "record-cut", wire.CommandRequest{Box: 1})
	wantCode(t, err, sabot.ECONFLICT, "once its shuffle is authorised")
	must(ivo.Command(ctx, tb, "authorise-shuffle", wire.CommandRequest{}))

	h.restart(slow) // the step is in the log
	dora.URL, ivo.URL, ana.URL = h.srv.URL(), h.srv.URL(), h.srv.URL()
	v = must(dora.Table(ctx, tb))
	if v.Shoe.Await != "cut" || v.Shoe.AuthorisedBy != "ivo" {
		t.Fatalf("after a restart: shoe %+v", v.Shoe)
	}
	_, err = dora.Command(ctx, tb, "no-more-bets", wire.CommandRequest{})
	wantCode(t, err, sabot.ECONFLICT, "a player's cut (AR-07)")
	_, err = ana.Command(ctx, tb, "cut-shoe", wire.CommandRequest{Value: 100})
	wantCode(t, err, sabot.ECONFLICT, "the dealer records who cut it (record-cut) (AR-07)")
	_, err = dora.Command(ctx, tb, "record-cut", wire.CommandRequest{})
	wantCode(t, err, sabot.EINVALID, "the dealer does not cut")
	_, err = dora.Command(ctx, tb, "record-cut", wire.CommandRequest{Box: 4})
	wantCode(t, err, sabot.ECONFLICT, "nobody holds box 4")
	_, err = ana.Command(ctx, tb, "record-cut", wire.CommandRequest{Box: 1})
	wantCode(t, err, sabot.EFORBIDDEN, "")
	must(dora.Command(ctx, tb, "record-cut", wire.CommandRequest{Box: 1}))
	v = must(dora.Table(ctx, tb))
	if v.Shoe.Await != "" || v.Shoe.CutBy != "ana" || v.Shoe.AuthorisedBy != "ivo" {
		t.Fatalf("after the cut: shoe %+v", v.Shoe)
	}
	must(dora.Command(ctx, tb, "no-more-bets", wire.CommandRequest{}))
	if n := need(t, dora, tb); n == nil || n.Box != 1 {
		t.Fatalf("after the steps no-more-bets deals: the table asks for %+v", n)
	}
	var said []string
	for _, e := range h.events(url.Values{"table": {strconv.FormatInt(tb, 10)}}) {
		if e.Kind == sabot.LogShoeStep {
			said = append(said, e.Summary)
		}
	}
	if want := []string{"shoe 1: cut by the player ana, recorded by dora", "shoe 1: the shuffle authorised by the inspector ivo"}; strings.Join(said, "|") != strings.Join(want, "|") {
		t.Fatalf("the significant events say %q, want %q (newest first)", said, want)
	}

	// The cut card comes out: the next shoe waits for its steps again.
	must(dora.Command(ctx, tb, "cut-card", wire.CommandRequest{}))
	pool := strings.Fields("TS 9H 9C 8D 2S 3S 4S 5S")
	feed := func() {
		for need(t, dora, tb) != nil {
			must(dora.Command(ctx, tb, "card", wire.CommandRequest{Card: pool[0]}))
			pool = pool[1:]
		}
	}
	feed() // ana 19; the dealer's 9 and his hole card
	must(ana.Command(ctx, tb, "act", wire.CommandRequest{Action: "stand", Box: 1}))
	feed() // the dealer's hand: 17, he stands
	v = must(dora.Table(ctx, tb))
	if v.Shoe.Await != "authorise" || v.Shoe.AuthorisedBy != "" || v.Shoe.CutBy != "" {
		t.Fatalf("after the shoe's last round: shoe %+v, round %+v", v.Shoe, v.Round)
	}
	checkLedger(t, h.st)
}
