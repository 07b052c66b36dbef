package server_test

import (
	"context"
	"encoding/json"
	"net/url"
	"strconv"
	"strings"
	"testing"
	"time"

	"sabot"
	"sabot/internal/client"
	"sabot/internal/recall"
	"sabot/internal/testwait"
	"sabot/internal/wire"
)

// events reads the significant-event log as an administrator.
func (h *harness) events(query url.Values) []recall.EventView {
	h.t.Helper()
	var out []recall.EventView
	path := "/api/admin/events"
	if len(query) > 0 {
		path += "?" + query.Encode()
	}
	if err := h.admin.Do(context.Background(), "GET", path, nil, &out); err != nil {
		h.t.Fatal(err)
	}
	return out
}

// A live table's configuration changes between rounds, by an administrator:
// the bets the new limits refuse go back to their wallets, the change is a
// significant event, it survives a restart, recall and replay use the rules
// in force, and a change to the shoe prepares a new one (AR-24).
func TestConfigureLiveTable(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	h := newHarness(t, nil, slow)
	tb := h.table("venice", true, map[string]string{"max_bet": "500"})
	ana, ben, cat := h.player("ana", 1000), h.player("ben", 1000), h.player("cat", 1000)
	for i, p := range []*client.Client{ana, ben, cat} {
		must(p.Command(ctx, tb, "sit", wire.CommandRequest{Box: i + 1}))
	}
	must(ana.Command(ctx, tb, "bet", wire.CommandRequest{Box: 1, Stake: 100}))
	must(ben.Command(ctx, tb, "bet", wire.CommandRequest{Box: 2, Stake: 400}))
	if w := wallet(t, ben); w != 600 {
		t.Fatalf("ben's wallet after a bet of 400: %d", w)
	}

	// Refused, with nothing changed.
	for _, c := range []struct {
		who  *client.Client
		req  wire.CommandRequest
		code string
		text string
	}{
		{ana, wire.CommandRequest{Options: map[string]string{"max_bet": "300"}}, sabot.EFORBIDDEN, ""},
		{h.admin, wire.CommandRequest{}, sabot.EINVALID, "needs options or a bank"},
		{h.admin, wire.CommandRequest{Options: map[string]string{"no_such_option": "1"}}, sabot.EINVALID, "no_such_option"},
		{h.admin, wire.CommandRequest{Options: map[string]string{"min_bet": "800"}}, sabot.EINVALID, "min_bet"},
		{h.admin, wire.CommandRequest{Options: map[string]string{"boxes": "2"}}, sabot.ECONFLICT, "box 3 is held by cat"},
		{h.admin, wire.CommandRequest{Bank: new("ana")}, sabot.EINVALID, "(this table's rules: bank_rotates=false)"}, // not FAM-02: not a family table
	} {
		_, err := c.who.Command(ctx, tb, "configure", c.req)
		wantCode(t, err, c.code, c.text)
	}
	if v := must(ana.Table(ctx, tb)); v.Options["max_bet"] != "500" || len(v.Bets) != 2 {
		t.Fatalf("a refused change changed the table: %v, bets %+v", v.Options, v.Bets)
	}

	// The maximum comes down to 300: ben's 400 goes back, ana's 100 stays.
	res := must(h.admin.Command(ctx, tb, "configure", wire.CommandRequest{Options: map[string]string{"max_bet": "300"}, Reason: "pit: lower limit"}))
	if w := wallet(t, ben); w != 1000 {
		t.Fatalf("ben's refused bet not returned: wallet %d", w)
	}
	if v := must(ana.Table(ctx, tb)); v.Options["max_bet"] != "300" || len(v.Bets) != 1 || v.Bets[0].Player != "ana" {
		t.Fatalf("after the change: options %v, bets %+v", v.Options, v.Bets)
	}
	_, err := ben.Command(ctx, tb, "bet", wire.CommandRequest{Box: 2, Stake: 400})
	wantCode(t, err, sabot.EINVALID, "(VE-21)")
	checkLedger(t, h.st)

	// The significant-event log has it, with who and why.
	evs := h.events(url.Values{"table": {strconv.FormatInt(tb, 10)}})
	if len(evs) == 0 || evs[0].Kind != sabot.LogConfigure || evs[0].Seq != res.Seq {
		t.Fatalf("significant events of table %d: %+v", tb, evs)
	}
	if sum := evs[0].Summary; !strings.Contains(sum, "max_bet: 3.00") || !strings.Contains(sum, "by pit: pit: lower limit") || !strings.Contains(sum, "ben's bet of 4.00 on box 2 returned") {
		t.Errorf("summary %q", sum)
	}
	var pay struct {
		Changed  map[string]string `json:"changed"`
		Returned []struct {
			Player string `json:"player"`
			Stake  int64  `json:"stake"`
		} `json:"returned"`
		Reason, By string
	}
	if err := json.Unmarshal(evs[0].Payload, &pay); err != nil || pay.Changed["max_bet"] != "300" || len(pay.Returned) != 1 ||
		pay.Returned[0].Player != "ben" || pay.Returned[0].Stake != 400 || pay.Reason != "pit: lower limit" || pay.By != "pit" {
		t.Fatalf("the configure event: %s (%v)", evs[0].Payload, err)
	}

	// A restart rebuilds the table under the new configuration.
	h.restart(slow)
	ana.URL, ben.URL, cat.URL = h.srv.URL(), h.srv.URL(), h.srv.URL()
	if v := must(ana.Table(ctx, tb)); v.Options["max_bet"] != "300" || len(v.Bets) != 1 {
		t.Fatalf("after a restart: options %v, bets %+v", v.Options, v.Bets)
	}

	// A round under the new rules: recall names them, replay agrees.
	must(h.admin.Command(ctx, tb, "force-cards", wire.CommandRequest{Cards: "TS 9H 8C 6D 7C 8S TD 9C"}))
	must(ben.Command(ctx, tb, "bet", wire.CommandRequest{Box: 2, Stake: 300}))
	must(cat.Command(ctx, tb, "bet", wire.CommandRequest{Box: 3, Stake: 100}))
	for box, p := range []*client.Client{ana, ben, cat} {
		must(p.Command(ctx, tb, "act", wire.CommandRequest{Action: "stand", Box: box + 1}))
	}
	v := waitRound(t, ana, tb, 1)
	rec := must(h.admin.Round(ctx, v.Round.ID))
	if rec.Options["max_bet"] != "300" {
		t.Fatalf("recall: options %v, want those in force", rec.Options)
	}
	if rep, _, err := recall.ReplayRound(ctx, h.st, v.Round.ID); err != nil || !rep.OK() {
		t.Fatalf("replay: %+v %v", rep, err)
	}

	// Four decks instead of six: a new shoe, the old one revealed and
	// verified under the rules it was dealt with.
	shoe := v.Shoe.ID
	must(h.admin.Command(ctx, tb, "configure", wire.CommandRequest{Options: map[string]string{"decks": "4"}}))
	v = must(ana.Table(ctx, tb))
	if v.Shoe.ID == shoe || v.Shoe.Remaining > 4*52 {
		t.Fatalf("a change of decks kept shoe %s: %+v", shoe, v.Shoe)
	}
	if rep, err := recall.VerifyShoe(ctx, h.st, shoe); err != nil || !rep.Matches || len(rep.Problems) > 0 {
		t.Fatalf("verify the replaced shoe: %+v %v", rep, err)
	}
	if rep, err := recall.VerifyShoe(ctx, h.st, v.Shoe.ID); sabot.ErrorCode(err) != sabot.ECONFLICT {
		t.Fatalf("the new shoe verified while in play: %+v %v", rep, err)
	}
	checkLedger(t, h.st)
}

// A configuration change waits for the round in play to end.
func TestConfigureBetweenRounds(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	h := newHarness(t, nil, slow)
	tb := h.table("vegas-s17", true, nil)
	ana := h.player("ana", 1000)
	must(ana.Command(ctx, tb, "sit", wire.CommandRequest{Box: 1}))
	must(h.admin.Command(ctx, tb, "force-cards", wire.CommandRequest{Cards: "TS 6H 9C 7D"}))
	must(ana.Command(ctx, tb, "bet", wire.CommandRequest{Box: 1, Stake: 100}))
	_, err := h.admin.Command(ctx, tb, "configure", wire.CommandRequest{Options: map[string]string{"max_bet": "50"}})
	wantCode(t, err, sabot.ECONFLICT, "between rounds")
	must(ana.Command(ctx, tb, "act", wire.CommandRequest{Action: "stand", Box: 1}))
	waitRound(t, ana, tb, 1)
	must(h.admin.Command(ctx, tb, "configure", wire.CommandRequest{Options: map[string]string{"max_bet": "50"}}))
	// "" puts the profile's value back.
	must(h.admin.Command(ctx, tb, "configure", wire.CommandRequest{Options: map[string]string{"max_bet": ""}}))
	if v := must(ana.Table(ctx, tb)); len(v.Options) != 0 {
		t.Fatalf("options after putting max_bet back: %v", v.Options)
	}
}

// FAM-01: the players of a family table agree who starts with the bank
// (the pit records it); the bank goes only to a seated player, and a bank
// held by a player pays and collects the round's house net.
func TestFamilyBankAgreed(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	h := newHarness(t, nil, slow)
	tb := h.table("family", true, nil)
	ana, ben := h.player("ana", 1000), h.player("ben", 1000)
	must(ana.Command(ctx, tb, "sit", wire.CommandRequest{Box: 1}))
	must(ben.Command(ctx, tb, "sit", wire.CommandRequest{Box: 2}))
	_, err := h.admin.Command(ctx, tb, "configure", wire.CommandRequest{Bank: new("zed")})
	wantCode(t, err, sabot.EINVALID, "FAM-01")
	must(h.admin.Command(ctx, tb, "configure", wire.CommandRequest{Bank: new("ben"), Options: map[string]string{"bank_rounds": "3"}, Reason: "agreed by the players"}))
	if v := must(ana.Table(ctx, tb)); v.Bank != "ben" || v.Options["bank_rounds"] != "3" {
		t.Fatalf("bank %q, options %v", v.Bank, v.Options)
	}
	// ana 10+9 stands, the bank (ben, who does not bet) 10+8: ana wins
	// 100 from ben's bank.
	must(h.admin.Command(ctx, tb, "force-cards", wire.CommandRequest{Cards: "TS TH 9C 8D"}))
	must(ana.Command(ctx, tb, "bet", wire.CommandRequest{Box: 1, Stake: 100}))
	testwait.Until(t, 5*time.Second, "the deal", func() bool {
		v := must(ana.Table(ctx, tb))
		return v.Round != nil && v.Round.Phase == "playing"
	})
	must(ana.Command(ctx, tb, "act", wire.CommandRequest{Action: "stand", Box: 1}))
	v := waitRound(t, ana, tb, 1)
	rec := must(h.admin.Round(ctx, v.Round.ID))
	if rec.Bank != "ben" || rec.Net["ana"] != 100 || rec.House != -100 {
		t.Fatalf("recall: bank %q, net %v, house %d", rec.Bank, rec.Net, rec.House)
	}
	if w := wallet(t, ben); w != 900 {
		t.Fatalf("ben, holding the bank, paid ana's 100 from his wallet: %d", w)
	}
	checkLedger(t, h.st)
	// Back to the house.
	must(h.admin.Command(ctx, tb, "configure", wire.CommandRequest{Bank: new("")}))
	if v := must(ana.Table(ctx, tb)); v.Bank != "" {
		t.Fatalf("bank %q, want the house", v.Bank)
	}
}
