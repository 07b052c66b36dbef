package webtest

import (
	"context"
	"testing"
	"time"

	"github.com/chromedp/chromedp"
	"github.com/chromedp/chromedp/kb"

	"sabot"
	"sabot/internal/actor"
)

// tabTo presses Tab (back: Shift+Tab) until the focus is on the element
// the selector names, as a keyboard-only player does; at most 120 presses.
func tabTo(t *testing.T, ctx context.Context, sel string, back bool) {
	t.Helper()
	for i := 0; i < 120; i++ {
		if eval[bool](t, ctx, `!!document.activeElement && document.activeElement.matches('`+sel+`')`) {
			return
		}
		opts := []chromedp.KeyOption{}
		if back {
			opts = append(opts, chromedp.KeyModifiers(chromedp.ModifierShift))
		}
		do(t, ctx, "Tab", chromedp.KeyEvent(kb.Tab, opts...))
	}
	t.Fatalf("Tab never reached %s (the focus is on %s)", sel, eval[string](t, ctx, `document.activeElement ? document.activeElement.outerHTML.slice(0, 120) : 'nothing'`))
}

// A whole round with the keyboard only: Tab to Sit and Enter; the focus
// goes to the chip chosen, not to the page; the player's own box is
// reached by Tab and takes the chip on Enter; Deal; the decision takes
// the focus and its last seconds are read out (10 s, then 5 s); a key stands; the
// focus is on the chip again for the next round.
func TestKeyboardOnlyRound(t *testing.T) {
	t.Parallel()
	g := newGame(t, actor.Timing{BetWindow: time.Minute, Decision: 12 * time.Second, Window: time.Minute, KeepBetWindow: true}, "Madrid", "spain")
	ana := g.join(t, "ana")
	focused := func(what, sel string) {
		t.Helper()
		waitJS(t, ana, what, `!!document.activeElement && document.activeElement.matches('`+sel+`')`)
	}
	tabTo(t, ana, `.box[data-box="1"] .sit`, false)
	do(t, ana, "Enter", chromedp.KeyEvent(kb.Enter))
	waitJS(t, ana, "seated at box 1", `!!document.querySelector('.box[data-box="1"] .plate .me')`)
	focused("the focus on the chip chosen after Sit", `.rack .chip.chosen`)
	// ana 9S 3C = 12 against the dealer's 7D.
	g.force(t, "9S 7D 3C 2D TH")
	tabTo(t, ana, `.box[data-box="1"] .spot.holder.open`, true)
	do(t, ana, "Enter", chromedp.KeyEvent(kb.Enter))
	waitJS(t, ana, "the bet", `!!document.querySelector('[data-fk="bet-deal"]:not([disabled])')`)
	tabTo(t, ana, `[data-fk="bet-deal"]`, false)
	do(t, ana, "Enter", chromedp.KeyEvent(kb.Enter))
	waitKey(t, ana, "ana's decision", "s")
	focused("the focus on the decision", `.prompt button`)
	waitJS(t, ana, "the last 10 seconds read out", `document.getElementById('announce-urgent').textContent.startsWith('10 seconds left to decide')`)
	waitJS(t, ana, "the last 5 seconds read out", `document.getElementById('announce-urgent').textContent.startsWith('5 seconds left to decide')`)
	press(t, ana, "stand", "s")
	waitJS(t, ana, "the settlement", `!!document.querySelector('.box[data-box="1"] .badge')`)
	focused("the focus on the chip for the next round", `.rack .chip.chosen`)
}

// The dealer's console: once "no more bets" is called, the card field has
// the focus; a card typed wrong is flagged at the field, as typed, and
// the next keystroke clears it.
func TestConsoleCardFieldFocusAndFlag(t *testing.T) {
	t.Parallel()
	_, _, _, dora, _ := liveRound(t)
	waitJS(t, dora, "the card field focused", `document.activeElement === document.getElementById('card-input')`)
	do(t, dora, "a mistyped card", chromedp.SendKeys(chromedp.ID("card-input"), "ZZ"), chromedp.KeyEvent(kb.Enter))
	waitJS(t, dora, "the card flagged as typed", `document.getElementById('card-input').getAttribute('aria-invalid') === 'true' && document.getElementById('card-error').textContent.startsWith('"ZZ" is not a card')`)
	do(t, dora, "a key", chromedp.SendKeys(chromedp.ID("card-input"), "A"))
	waitJS(t, dora, "the flag cleared", `document.getElementById('card-input').getAttribute('aria-invalid') === 'false' && document.getElementById('card-error').textContent === ''`)
}

// A whole round of the dealer's console with the keyboard only, at a
// table dealt from a physical shoe: Tab to seat a walk-in at box 2 and
// Enter; type his buy-in of 50.00 and Enter on Buy-in; his bet of 10.00;
// Tab to "No more bets" and Enter: the card field has the focus and the
// cards are typed into it as they come out (box 2, the dealer, box 2); Tab
// to the walk-in's Stand on his 17 and Enter; the dealer's card typed (19):
// the round settles; Tab to Cash out and Enter. The table's cash float
// holds the 10.00 he lost.
func TestConsoleKeyboardOnlyRound(t *testing.T) {
	t.Parallel()
	g := newGame(t, slow, "Live", "spain", "shoe", "physical", "player_cut", "false")
	dora := staffLogin(t, g, "dora", "dealer")
	open(t, dora, g.site, g.path()+"/console", "#card-input")
	enter := func(what, sel string) {
		t.Helper()
		waitJS(t, dora, what+" offered", `!!document.querySelector('`+sel+`:not([disabled])')`)
		tabTo(t, dora, sel, false)
		do(t, dora, what, chromedp.KeyEvent(kb.Enter))
	}
	typeInto := func(sel, keys string) {
		t.Helper()
		tabTo(t, dora, sel, false)
		do(t, dora, "type "+keys, chromedp.KeyEvent(keys))
	}
	// card types a card into the focused card field, as a reader does.
	card := func(code, after string) {
		t.Helper()
		waitJS(t, dora, "the card field focused before "+code, `document.activeElement === document.getElementById('card-input') && !document.getElementById('card-input').disabled`)
		before := text(t, dora, ".console-shoe")
		do(t, dora, "type "+code, chromedp.KeyEvent(code))
		waitJS(t, dora, "after "+code+": "+after, `document.querySelector('.console-shoe').textContent !== `+quote(before)+` && document.getElementById('console-need').textContent.includes(`+quote(after)+`)`)
	}

	enter("seat a walk-in", `[data-op="seat-walk-in"][data-box="2"]`)
	waitJS(t, dora, "the walk-in seated", `!!document.querySelector('[data-op="buy-in"][data-box="2"]')`)
	typeInto(`.walkin-amount[data-box="2"]`, "50")
	enter("buy-in", `[data-op="buy-in"][data-box="2"]`)
	waitJS(t, dora, "the walk-in's chips", `document.querySelector('.console-table tr[data-box="2"] .console-holder')?.textContent === 'Walk-in, box 2chips 50.00'`)
	typeInto(`.walkin-amount[data-box="2"]`, "10")
	enter("bet", `[data-op="bet"][data-box="2"]`)
	waitJS(t, dora, "the walk-in's bet", `document.querySelector('.console-table tr[data-box="2"]').textContent.includes('Walk-in, box 2 10.00')`)
	enter("no more bets", `[data-op="no-more-bets"]`)
	card("TS", "the dealer's card")
	card("9H", "box 2, hand 1")
	card("7C", "box 2 to decide")
	enter("the walk-in's stand", `[data-op="act"][data-box="2"][data-action="stand"]`)
	waitJS(t, dora, "the dealer's card asked for", `document.getElementById('console-need').textContent.includes("the dealer's card")`)
	tabTo(t, dora, `#card-input`, false)
	do(t, dora, "type TD", chromedp.KeyEvent("TD")) // 19 stands: the walk-in's 17 loses
	waitJS(t, dora, "the round over", `!!document.querySelector('[data-op="no-more-bets"]') && document.querySelector('.console-table tr[data-box="2"] .console-holder')?.textContent === 'Walk-in, box 2chips 40.00'`)
	enter("cash out", `[data-op="cash-out"][data-box="2"]`)
	waitJS(t, dora, "the walk-in gone", `!document.querySelector('[data-op="buy-in"][data-box="2"]') && !!document.querySelector('[data-op="seat-walk-in"][data-box="2"]')`)
	if float := must(g.site.Store.Account(context.Background(), sabot.AccountHouse, g.table)); float.Balance != -1000 {
		t.Errorf("the table's cash float: %d, want -1000 (50.00 sold, 40.00 changed back)", float.Balance)
	}
}
