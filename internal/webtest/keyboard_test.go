package webtest

import (
	"context"
	"testing"
	"time"

	"github.com/chromedp/chromedp"
	"github.com/chromedp/chromedp/kb"

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
// the focus and its last seconds are read out (10 s); a key stands; the
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
