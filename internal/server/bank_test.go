package server_test

import (
	"context"
	"encoding/json"
	"strings"
	"testing"

	"sabot"
	"sabot/internal/client"
	"sabot/internal/wire"
)

// familyBank is a family table in test mode whose bank the players agreed
// to give to holder (FAM-01), with options on top.
func familyBank(t *testing.T, h *harness, holder string, seated map[string]*client.Client, boxes map[string]int, opts map[string]string) int64 {
	t.Helper()
	ctx := context.Background()
	tb := h.table("family", true, nil)
	for name, c := range seated {
		must(c.Command(ctx, tb, "sit", wire.CommandRequest{Box: boxes[name]}))
	}
	must(h.admin.Command(ctx, tb, "configure", wire.CommandRequest{Bank: &holder, Options: opts}))
	return tb
}

// balanceOf is the balance of a player's account of a kind.
func balanceOf(t *testing.T, h *harness, c *client.Client, kind string) int64 {
	t.Helper()
	me := must(c.Me(context.Background()))
	return int64(must(h.st.Account(context.Background(), kind, me.ID)).Balance)
}

// houseBalance is the house's: the central account and every table's,
// as the ledger check sums them.
func houseBalance(t *testing.T, h *harness) int64 {
	t.Helper()
	return must(h.st.CheckLedger(context.Background())).House
}

// What a player's bank won stayed in his bank account
// when the bank passed, and no page showed it. The bank's account gives
// its cover and its net back to the holder's wallet at the settlement:
// when the bank passes, it holds nothing (FAM-02).
func TestFamilyBankPassesToWallet_FAM02(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	h := newHarness(t, nil, slow)
	ana, ben := h.player("ana", 1000), h.player("ben", 1000)
	tb := familyBank(t, h, "ben", map[string]*client.Client{"ana": ana, "ben": ben}, map[string]int{"ana": 1, "ben": 2},
		map[string]string{"bank_rounds": "1"})
	house := houseBalance(t, h)
	// ana 10+6 stands; the bank, ben's, draws 10+8: it wins ana's 100.
	must(h.admin.Command(ctx, tb, "force-cards", wire.CommandRequest{Cards: "TS TH 6C 8D"}))
	must(ana.Command(ctx, tb, "bet", wire.CommandRequest{Box: 1, Stake: 100}))
	// During the round the bank holds the cover of ana's stake: the most it
	// can win, 3:2 for a blackjack.
	if b, w := balanceOf(t, h, ben, sabot.AccountBank), wallet(t, ben); b != 150 || w != 850 {
		t.Fatalf("in the round: ben's bank account %d, wallet %d; want the cover 150 and 850", b, w)
	}
	must(ana.Command(ctx, tb, "act", wire.CommandRequest{Action: "stand", Box: 1}))
	v := waitRound(t, ana, tb, 1)
	if v.Bank != "ana" {
		t.Fatalf("after bank_rounds=1 the bank is %q's, want ana's", v.Bank)
	}
	if b, w := balanceOf(t, h, ben, sabot.AccountBank), wallet(t, ben); b != 0 || w != 1100 {
		t.Fatalf("the bank passed on: ben's bank account %d, wallet %d; want 0 and 1100", b, w)
	}
	if w := wallet(t, ana); w != 900 {
		t.Fatalf("ana's wallet %d", w)
	}
	if got := houseBalance(t, h); got != house {
		t.Fatalf("the house moved %+d in a round between players", got-house)
	}
	rec := must(h.admin.Round(ctx, v.Round.ID))
	if rec.Bank != "ben" || rec.House != 100 {
		t.Fatalf("recall: bank %q, house net %d", rec.Bank, rec.House)
	}
	checkLedger(t, h.st)
}

// A player's bank covers the bets in dealing order up
// to its funds (FAM-01). A bet it could not cover is refused when placed;
// one that the bets before it in dealing order (placed later) leave
// uncovered is refused before the deal, its stake returned, with the rule
// named. The bank then loses everything it covered, and the house pays
// nothing for it.
func TestFamilyBankCoversInDealingOrder_FAM01(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	h := newHarness(t, nil, slow)
	ana, ben, cy, dan := h.player("ana", 1000), h.player("ben", 300), h.player("cy", 1000), h.player("dan", 1000)
	tb := familyBank(t, h, "ben", map[string]*client.Client{"ana": ana, "ben": ben, "cy": cy, "dan": dan},
		map[string]int{"ana": 1, "ben": 2, "cy": 3, "dan": 4}, nil)
	house := houseBalance(t, h)
	// ana: A+K, a blackjack; the bank 10+7.
	must(h.admin.Command(ctx, tb, "force-cards", wire.CommandRequest{Cards: "AS TH KC 7D"}))
	// cy on box 3 first: 100 can win 150 of ben's 300.
	must(cy.Command(ctx, tb, "bet", wire.CommandRequest{Box: 3, Stake: 100}))
	// ana on box 1, dealt before cy: 200 can win 300, all of it.
	must(ana.Command(ctx, tb, "bet", wire.CommandRequest{Box: 1, Stake: 200}))
	// dan on box 4 comes after both: refused now.
	_, err := dan.Command(ctx, tb, "bet", wire.CommandRequest{Box: 4, Stake: 100})
	wantCode(t, err, sabot.ECONFLICT, "FAM-01")
	if !strings.Contains(err.Error(), "dealing order") {
		t.Fatalf("the reason does not say the rule: %v", err)
	}
	if w := wallet(t, dan); w != 1000 {
		t.Fatalf("dan's refused bet took %d", 1000-w)
	}
	// dan leaves: every seated player has bet, the round is dealt, and cy's
	// bet, which the bank cannot cover after ana's, goes back first.
	must(dan.Command(ctx, tb, "leave", wire.CommandRequest{}))
	v := must(ana.Table(ctx, tb))
	if v.Round == nil || len(v.Round.Bets) != 1 || v.Round.Bets[0].Player != "ana" {
		t.Fatalf("dealt %+v, want ana's bet only", v.Round)
	}
	if w := wallet(t, cy); w != 1000 {
		t.Fatalf("cy's uncovered bet: wallet %d, want 1000", w)
	}
	var reason string
	var cover int64 = -1
	for _, r := range must(h.st.Log(ctx, tb, 1)) {
		var p struct {
			Player, Reason string
			Cover          int64 `json:"bank_cover"`
		}
		if json.Unmarshal(r.Payload, &p) != nil {
			continue
		}
		switch {
		case r.Kind == sabot.LogBetWithdraw && p.Player == "cy":
			reason = p.Reason
		case r.Kind == sabot.LogDeal:
			cover = p.Cover
		}
	}
	if !strings.Contains(reason, "FAM-01") || !strings.Contains(reason, "before the deal") {
		t.Fatalf("cy's bet returned with reason %q, want the rule", reason)
	}
	if cover != 300 {
		t.Fatalf("the deal took a cover of %d from ben's wallet, want all his 300", cover)
	}

	// ana's blackjack (the round is over at once) takes all the bank
	// covered: 3:2 on 200.
	v = waitRound(t, ana, tb, 1)
	if got := must(h.admin.Round(ctx, v.Round.ID)); got.Net["ana"] != 300 || got.House != -300 {
		t.Fatalf("recall: net %v, house %d", got.Net, got.House)
	}
	if w := wallet(t, ana); w != 1300 {
		t.Fatalf("ana's wallet %d, want 1300", w)
	}
	if b, w := balanceOf(t, h, ben, sabot.AccountBank), wallet(t, ben); b != 0 || w != 0 {
		t.Fatalf("the bank lost all: ben's bank account %d, wallet %d", b, w)
	}
	if got := houseBalance(t, h); got != house {
		t.Fatalf("the house paid %d for ben's bank", house-got)
	}
	if v.Bank != "ana" {
		t.Fatalf("ana's blackjack: the bank is %q's, want ana's (FAM-02)", v.Bank)
	}
	checkLedger(t, h.st)
}

// A stake added in the round (a double) that the bank
// cannot cover is refused, with the rule; the cover taken at the deal
// survives a restart and goes back at the settlement.
func TestFamilyBankCoversDouble_FAM01(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	h := newHarness(t, nil, slow)
	ana, ben := h.player("ana", 1000), h.player("ben", 200)
	tb := familyBank(t, h, "ben", map[string]*client.Client{"ana": ana, "ben": ben}, map[string]int{"ana": 1, "ben": 2}, nil)
	house := houseBalance(t, h)
	// ana 5+5 = 10 may double (ES-08); the bank 10, then 8.
	must(h.admin.Command(ctx, tb, "force-cards", wire.CommandRequest{Cards: "5S TH 5C 8D"}))
	must(ana.Command(ctx, tb, "bet", wire.CommandRequest{Box: 1, Stake: 100}))
	if b, w := balanceOf(t, h, ben, sabot.AccountBank), wallet(t, ben); b != 150 || w != 50 {
		t.Fatalf("after the deal: ben's bank account %d, wallet %d", b, w)
	}
	// A restart rebuilds the round, and the cover, from the log.
	h.restart(slow)
	ana, ben = relogin(h, "ana"), relogin(h, "ben")
	_, err := ana.Command(ctx, tb, "act", wire.CommandRequest{Action: "double", Box: 1})
	wantCode(t, err, sabot.ECONFLICT, "FAM-01")
	if w := wallet(t, ana); w != 900 {
		t.Fatalf("ana's refused double took %d", 900-w)
	}
	must(ana.Command(ctx, tb, "act", wire.CommandRequest{Action: "stand", Box: 1}))
	waitRound(t, ana, tb, 1)
	// The bank won 100: its cover and its net are ben's again.
	if b, w := balanceOf(t, h, ben, sabot.AccountBank), wallet(t, ben); b != 0 || w != 300 {
		t.Fatalf("after the round: ben's bank account %d, wallet %d; want 0 and 300", b, w)
	}
	if got := houseBalance(t, h); got != house {
		t.Fatalf("the house moved %+d", got-house)
	}
	checkLedger(t, h.st)
}

// relogin logs a player in again (after a restart).
func relogin(h *harness, name string) *client.Client {
	h.t.Helper()
	c := &client.Client{URL: h.srv.URL()}
	if _, err := c.Login(context.Background(), name, password); err != nil {
		h.t.Fatal(err)
	}
	return c
}
