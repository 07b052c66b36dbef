package webtest

import (
	"context"
	"sabot/internal/live"
	"strings"
	"testing"

	"github.com/chromedp/chromedp"
	"github.com/chromedp/chromedp/kb"

	"sabot"
	"sabot/internal/wire"
)

// staffLogin makes a member of the staff through the API and logs him in
// through the login page in a tab of his own.
func staffLogin(t *testing.T, g *game, name, role string) context.Context {
	t.Helper()
	if err := g.site.Admin.Do(context.Background(), "POST", "/api/admin/staff", live.StaffRequest{Name: name, Password: Password, Role: role}, nil); err != nil {
		t.Fatal(err)
	}
	ctx := g.tab(t)
	g.logs[ctx] = watch(t, ctx)
	login(t, ctx, g.site, name)
	return ctx
}

// readCard types a card into the console as a reader that types like a
// keyboard does, and waits for the table to ask for the next one (or for
// none).
func readCard(t *testing.T, ctx context.Context, code, after string) {
	t.Helper()
	waitJS(t, ctx, "a card due before "+code, `!document.getElementById('card-input').disabled`)
	before := text(t, ctx, ".console-shoe") // it counts the cards read
	do(t, ctx, "read "+code, chromedp.SendKeys(chromedp.ID("card-input"), code))
	waitJS(t, ctx, "after "+code+": "+after, `document.querySelector('.console-shoe').textContent !== `+quote(before)+` && document.getElementById('console-need').textContent.includes(`+quote(after)+`)`)
}

func quote(s string) string { return "'" + strings.ReplaceAll(s, "'", `\'`) + "'" }

// liveRound sets up a physical table's round in browsers: ana at box 1
// and ben at box 2, each betting 1.00, the dealer dora and the inspector
// ivo on the console, "no more bets" called: the console asks for box 1's
// card.
func liveRound(t *testing.T) (g *game, ana, ben, dora, ivo context.Context) {
	t.Helper()
	g = newGame(t, slow, "Live", "spain", "shoe", "physical", "player_cut", "false")
	ana = g.join(t, "ana")
	sit(t, ana, 1)
	ben = g.player(t, "ben")
	open(t, ben, g.site, g.path(), ".box .plate")
	sit(t, ben, 2)
	dora = staffLogin(t, g, "dora", "dealer")
	ivo = staffLogin(t, g, "ivo", "inspector")
	open(t, dora, g.site, g.path()+"/console", "#card-input")
	open(t, ivo, g.site, g.path()+"/console", "#console-need")
	bet(t, ana, 1, 100)
	bet(t, ben, 2, 100)
	waitJS(t, dora, "the bets on the console", `document.querySelector('.console-table tr[data-box="2"]')?.textContent.includes('ben 1.00')`)
	click(t, dora, `[data-op="no-more-bets"]`)
	waitJS(t, dora, "box 1's card asked for", `document.getElementById('console-need').textContent.includes('box 1, hand 1')`)
	return g, ana, ben, dora, ivo
}

// A whole round of a table dealt from a
// physical shoe, in real browsers. The dealer calls "no more bets" on his
// console and reads the cards in (typed as a reader types them, and one
// with the on-screen buttons) where the console says each goes; the two
// players see them and decide on their pages; box 2 got three cards (AR-23
// (b)): the dealer asks for the correction and the inspector approves it on
// his own screen, so that bet is void; the settlement and the ledger
// balance.
func TestDealerConsole_AR23(t *testing.T) {
	t.Parallel()
	g, ana, ben, dora, ivo := liveRound(t)

	readCard(t, dora, "TS", "box 2, hand 1")
	// A reader types the next card before the last is answered: none is lost.
	readCard(t, dora, "9h6D", "box 1, hand 1")
	readCard(t, dora, "7C", "box 2, hand 1")
	// The last of the deal with the on-screen buttons: 8 of spades.
	click(t, dora, `[data-rank="8"]`)
	click(t, dora, `[data-suit="S"]`)
	waitJS(t, dora, "box 1's decision awaited", `document.getElementById('console-need').textContent.includes('box 1 to decide')`)

	// ana sees her cards as read: 10 and 7.
	waitKey(t, ana, "ana's decision", "s")
	if got := text(t, ana, `.box[data-box="1"] .total`); !strings.Contains(got, "17") {
		t.Errorf("ana's hand on her page: %q", got)
	}

	// AR-23 (b): box 2 got a third card. The dealer asks; the inspector
	// approves on his screen.
	do(t, dora, "ask for AR-23 (b) on box 2",
		chromedp.SetValue(chromedp.ID("corr-case"), "b"),
		chromedp.SendKeys(chromedp.ID("corr-box"), "2"))
	click(t, dora, `#corr-form button[type=submit]`)
	waitJS(t, ivo, "the correction on the inspector's screen", `!!document.querySelector('.console-waiting li [data-op="approve"]')`)
	picture(t, ivo, "console", false)
	if eval[bool](t, dora, `!!document.querySelector('.console-waiting li [data-op="approve"]')`) {
		t.Error("the dealer is offered to approve his own correction")
	}
	click(t, ivo, `.console-waiting li [data-op="approve"]`)
	waitJS(t, dora, "the correction applied", `!document.querySelector('.console-waiting li')`)

	click(t, ana, `.prompt:not([hidden]) button.act-stand`) // ana stands
	waitJS(t, dora, "the dealer's card asked for", `document.getElementById('console-need').textContent.includes("the dealer's card")`)
	readCard(t, dora, "TD", "the dealer's card") // 16: draws again
	waitJS(t, dora, "a card due before 2H", `!document.getElementById('card-input').disabled`)
	do(t, dora, "read 2H", chromedp.SendKeys(chromedp.ID("card-input"), "2H"))

	// 18 beats ana's 17; ben's bet was void: his stake back.
	waitBalance(t, ana, "ana lost 1.00", "999.00")
	waitBalance(t, ben, "ben's void bet returned", "1,000.00")
	events := must(g.site.Store.Find(context.Background(), sabot.LogQuery{Kinds: []string{sabot.LogAdmin}, TableID: g.table}))
	approved := false
	for _, e := range events {
		approved = approved || strings.Contains(string(e.Payload), "asked by dora, approved by ivo")
	}
	if !approved {
		t.Error("the significant events do not name the dealer and the inspector")
	}
	rep, err := g.site.Store.CheckLedger(context.Background())
	if err != nil || !rep.OK() {
		t.Fatalf("ledger: %+v %v", rep, err)
	}
}

func must[T any](v T, err error) T {
	if err != nil {
		panic(err)
	}
	return v
}

// In a real browser: the dealer seats a walk-in
// at box 2, sells him chips for cash and bets for him from the console; an
// online player bets at box 1; the dealer reads the cards and enters the
// walk-in's decision when his turn comes; once settled the walk-in changes
// his chips back and leaves; the ledger, the table's cash float included,
// balances.
func TestDealerConsoleWalkIn(t *testing.T) {
	t.Parallel()
	g := newGame(t, slow, "Live", "spain", "shoe", "physical", "player_cut", "false")
	ana := g.join(t, "ana")
	sit(t, ana, 1)
	dora := staffLogin(t, g, "dora", "dealer")
	open(t, dora, g.site, g.path()+"/console", "#card-input")

	click(t, dora, `[data-op="seat-walk-in"][data-box="2"]`)
	waitJS(t, dora, "the walk-in seated", `!!document.querySelector('[data-op="buy-in"][data-box="2"]')`)
	do(t, dora, "50.00 of chips", chromedp.SendKeys(chromedp.CSS(`.walkin-amount[data-box="2"]`), "50"))
	click(t, dora, `[data-op="buy-in"][data-box="2"]`)
	waitJS(t, dora, "the amount field cleared", `document.querySelector('.walkin-amount[data-box="2"]').value === ''`)
	// The walk-in is named by his box, his chips shown
	// by it; the staff's header has no balance and no rounds of his own.
	waitJS(t, dora, "the walk-in's chips by his box", `document.querySelector('.console-table tr[data-box="2"] .console-holder')?.textContent === 'Walk-in, box 2chips 50.00'`)
	if got := eval[bool](t, dora, `!!document.getElementById('balance') || !!document.querySelector('.nav a[href="/recall"]:not([hidden])')`); got {
		t.Error("the dealer's header shows a balance or My rounds")
	}
	// Over the table's cash_approval (10,000.00 by default): it waits for
	// the inspector.
	do(t, dora, "20,000.00 of chips", chromedp.SendKeys(chromedp.CSS(`.walkin-amount[data-box="2"]`), "20000"))
	click(t, dora, `[data-op="buy-in"][data-box="2"]`)
	waitJS(t, dora, "the buy-in waiting for the inspector", `document.querySelector('.console-waiting li').textContent.includes('a buy-in of 20,000.00 at box 2 asked by dora')`)
	do(t, dora, "a bet of 10.00", chromedp.SendKeys(chromedp.CSS(`.walkin-amount[data-box="2"]`), "10"))
	click(t, dora, `[data-op="bet"][data-box="2"]`)
	waitJS(t, dora, "the walk-in's bet", `document.querySelector('.console-table tr[data-box="2"]').textContent.includes('Walk-in, box 2 10.00') && !/#\d/.test(document.querySelector('.console-table').textContent)`)
	bet(t, ana, 1, 100)
	waitJS(t, dora, "ana's bet on the console", `document.querySelector('.console-table tr[data-box="1"]').textContent.includes('ana 1.00')`)
	picture(t, dora, "console-walkin", false)
	click(t, dora, `[data-op="no-more-bets"]`)
	readCard(t, dora, "TS", "box 2, hand 1")
	// A mistyped card is refused with a toast; the next good card clears it.
	do(t, dora, "a mistyped card", chromedp.SendKeys(chromedp.ID("card-input"), "ZZ"+kb.Enter))
	waitJS(t, dora, "the refusal's toast", `!document.getElementById('toast').hidden && document.getElementById('toast').textContent.includes('"ZZ" is not a card')`)
	eval[bool](t, dora, `(document.getElementById('card-input').value = '') === ''`)
	readCard(t, dora, "9H", "the dealer's card")
	waitJS(t, dora, "9H read", `document.querySelector('.console .pit-status').textContent === '9♥ read.'`)
	if eval[bool](t, dora, `!document.getElementById('toast').hidden`) {
		t.Error("the refusal's toast stays after a good card")
	}
	readCard(t, dora, "6D", "box 1, hand 1")
	readCard(t, dora, "7C", "box 2, hand 1")
	readCard(t, dora, "8S", "box 1 to decide")
	waitKey(t, ana, "ana's decision", "s")
	click(t, ana, `.prompt:not([hidden]) button.act-stand`) // ana stands on 17
	// The walk-in's 17: the dealer enters his stand.
	click(t, dora, `[data-op="act"][data-box="2"][data-action="stand"]`)
	waitJS(t, dora, "the dealer's card asked for", `document.getElementById('console-need').textContent.includes("the dealer's card")`)
	readCard(t, dora, "TD", "the dealer's card")
	waitJS(t, dora, "a card due before 2H", `!document.getElementById('card-input').disabled`)
	do(t, dora, "read 2H", chromedp.SendKeys(chromedp.ID("card-input"), "2H")) // 18: both lose
	waitBalance(t, ana, "ana lost 1.00", "999.00")
	click(t, dora, `[data-op="cash-out"][data-box="2"]`)
	waitJS(t, dora, "the walk-in gone", `!document.querySelector('[data-op="buy-in"][data-box="2"]') && !!document.querySelector('[data-op="seat-walk-in"][data-box="2"]')`)
	float := must(g.site.Store.Account(context.Background(), sabot.AccountHouse, g.table))
	if float.Balance != -1000 { // 50.00 sold, 40.00 changed back: the table's cash holds 10.00 more
		t.Errorf("the table's cash float: %d", float.Balance)
	}
	rep, err := g.site.Store.CheckLedger(context.Background())
	if err != nil || !rep.OK() {
		t.Fatalf("ledger: %+v %v", rep, err)
	}
}

// AR-23 (f) in real browsers. The dealer skipped
// box 1 and completed the bank: he asks for (f), the inspector approves on
// his screen, the console asks for the bank's cards; the skipped players
// then see the bank and choose: ana plays her 18 against it (a push), ben
// withdraws his 16 (his stake back).
func TestDealerConsoleBankFirst_AR23(t *testing.T) {
	t.Parallel()
	g, ana, ben, dora, ivo := liveRound(t)
	readCard(t, dora, "TS", "box 2, hand 1")
	// A mistyped card is refused with a toast; the next good card clears it.
	do(t, dora, "a mistyped card", chromedp.SendKeys(chromedp.ID("card-input"), "ZZ"+kb.Enter))
	waitJS(t, dora, "the refusal's toast", `!document.getElementById('toast').hidden && document.getElementById('toast').textContent.includes('"ZZ" is not a card')`)
	eval[bool](t, dora, `(document.getElementById('card-input').value = '') === ''`)
	readCard(t, dora, "9H", "the dealer's card")
	waitJS(t, dora, "9H read", `document.querySelector('.console .pit-status').textContent === '9♥ read.'`)
	if eval[bool](t, dora, `!document.getElementById('toast').hidden`) {
		t.Error("the refusal's toast stays after a good card")
	}
	readCard(t, dora, "6D", "box 1, hand 1")
	readCard(t, dora, "8C", "box 2, hand 1")
	readCard(t, dora, "7S", "box 1 to decide")

	do(t, dora, "ask for AR-23 (f)", chromedp.SetValue(chromedp.ID("corr-case"), "f"))
	click(t, dora, `#corr-form button[type=submit]`)
	click(t, ivo, `.console-waiting li [data-op="approve"]`)
	waitJS(t, dora, "the bank's card asked for", `document.getElementById('console-need').textContent.includes("the dealer's card")`)
	readCard(t, dora, "TD", "the dealer's card")
	readCard(t, dora, "2C", "box 1 to decide") // the bank: 18

	// The skipped players see the bank and may withdraw.
	waitJS(t, ana, "ana offered to withdraw", `!!document.querySelector('.prompt:not([hidden]) button.act-withdraw')`)
	if got := text(t, ana, `.prompt:not([hidden]) button.act-withdraw`); !strings.Contains(got, "Withdraw the bet") {
		t.Errorf("the withdraw button reads %q", got)
	}
	click(t, ana, `.prompt:not([hidden]) button.act-stand`) // 18 against 18
	waitJS(t, ben, "ben offered to withdraw", `!!document.querySelector('.prompt:not([hidden]) button.act-withdraw')`)
	click(t, ben, `.prompt:not([hidden]) button.act-withdraw`)
	waitJS(t, ana, "the round settled", `!!document.querySelector('.box[data-box="1"] .badge.push')`)
	waitBalance(t, ana, "ana's push", "1,000.00")
	waitBalance(t, ben, "ben's stake back", "1,000.00")
	rep, err := g.site.Store.CheckLedger(context.Background())
	if err != nil || !rep.OK() {
		t.Fatalf("ledger: %+v %v", rep, err)
	}
}

// AR-23 item 9 and (d)'s exception, from the console's own buttons: the
// dealer gave no card to ana's two-card 11 (skipped-eleven): she is offered
// to withdraw, and does, her stake back; next round the card drawn to her
// first-card Ace before the challenge was offered stands (card-stands): the
// challenge closes and the console asks for her second card.
func TestDealerConsoleButtons_AR23(t *testing.T) {
	t.Parallel()
	g := newGame(t, slow, "Rosario", "argentina", "shoe", "physical", "player_cut", "false", "min_bets_to_start", "1")
	ana := g.join(t, "ana")
	sit(t, ana, 1)
	dora := staffLogin(t, g, "dora", "dealer")
	open(t, dora, g.site, g.path()+"/console", "#card-input")
	bet(t, ana, 1, 100)
	waitJS(t, dora, "the bet on the console", `document.querySelector('.console-table tr[data-box="1"]')?.textContent.includes('ana 1.00')`)
	click(t, dora, `[data-op="no-more-bets"]`)
	readCard(t, dora, "6S", "the dealer's card")
	readCard(t, dora, "9D", "box 1, hand 1")
	readCard(t, dora, "5H", "hole card")
	do(t, dora, "read 7C", chromedp.SendKeys(chromedp.ID("card-input"), "7C"))
	waitJS(t, dora, "the skipped-eleven button", `!document.querySelector('[data-op="skipped-eleven"]').disabled`)
	click(t, dora, `[data-op="skipped-eleven"]`)
	waitJS(t, dora, "skipped-eleven answered", `document.querySelector('.console .pit-status').textContent.startsWith('No card given to the 11')`)
	waitJS(t, ana, "ana offered to withdraw", `!!document.querySelector('.prompt:not([hidden]) button.act-withdraw')`)
	click(t, ana, `.prompt:not([hidden]) button.act-withdraw`)
	waitBalance(t, ana, "ana's stake back", "1,000.00")

	waitJS(t, dora, "the round over", `!!document.querySelector('[data-op="no-more-bets"]')`)
	bet(t, ana, 1, 100)
	waitJS(t, dora, "no more bets offered", `!document.querySelector('[data-op="no-more-bets"]').disabled`)
	click(t, dora, `[data-op="no-more-bets"]`)
	readCard(t, dora, "AS", "the dealer's card")
	do(t, dora, "read 8D", chromedp.SendKeys(chromedp.ID("card-input"), "8D"))
	waitJS(t, dora, "the card-stands button", `!document.querySelector('[data-op="card-stands"]').disabled`)
	click(t, dora, `[data-op="card-stands"]`)
	waitJS(t, dora, "box 1's second card asked for", `document.getElementById('console-need').textContent.includes('box 1, hand 1')`)
}

// AR-07, EG-02 at the console of a table dealt from a physical shoe, in real
// browsers: a new shoe (the pit's order; the table's
// first had its steps taken by the pit) waits for the inspector's
// authorisation of its shuffle, which only he is offered; then the dealer
// records who cut, choosing the player's box; then "no more bets" deals.
func TestConsoleShoeSteps_AR07_EG02(t *testing.T) {
	t.Parallel()
	g := newGame(t, slow, "Rosario", "argentina", "shoe", "physical", "min_bets_to_start", "1")
	ana := g.join(t, "ana")
	sit(t, ana, 1)
	dora := staffLogin(t, g, "dora", "dealer")
	ivo := staffLogin(t, g, "ivo", "inspector")
	open(t, dora, g.site, g.path()+"/console", "#card-input")
	open(t, ivo, g.site, g.path()+"/console", "#console-need")
	waitJS(t, dora, "the first shoe's steps", `document.getElementById('console-steps').textContent.includes('cut by pit')`)
	must(g.site.Admin.Command(context.Background(), g.table, "new-shoe", wire.CommandRequest{}))
	// A physical table's new shoe tells the table nothing (no commitment):
	// the consoles are opened again.
	open(t, dora, g.site, g.path()+"/console", "#card-input")
	open(t, ivo, g.site, g.path()+"/console", "#console-need")
	waitJS(t, dora, "the shoe waits for the authorisation", `document.getElementById('console-steps').textContent.includes('authorise its shuffle')`)
	if eval[bool](t, dora, `!!document.querySelector('[data-op="authorise-shuffle"]')`) {
		t.Error("the dealer is offered to authorise the shuffle")
	}
	click(t, ivo, `[data-op="authorise-shuffle"]`)
	waitJS(t, dora, "the cut asked for", `!!document.querySelector('#cut-form select option[value="1"]')`)
	if eval[bool](t, dora, `!!document.querySelector('#cut-form select option[value="0"]')`) {
		t.Error("the dealer is offered to record a cut of his own")
	}
	do(t, dora, "ana cut", chromedp.SetValue(chromedp.ID("cut-who"), "1"))
	click(t, dora, `#cut-form button[type=submit]`)
	waitJS(t, dora, "the steps taken", `document.getElementById('console-steps').textContent.includes('authorised by ivo; cut by ana')`)
	bet(t, ana, 1, 100)
	waitJS(t, dora, "the bet on the console", `document.querySelector('.console-table tr[data-box="1"]')?.textContent.includes('ana 1.00')`)
	click(t, dora, `[data-op="no-more-bets"]`)
	waitJS(t, dora, "box 1's card asked for", `document.getElementById('console-need').textContent.includes('box 1, hand 1')`)
}
