package webtest

import (
	"context"
	"strings"
	"testing"
)

// Betting as players expect. Ana holds boxes 1
// and 2 (no deal until both carry a bet): chips on box 1, Undo takes them
// back one by one, Double (double-clicked: sent once) doubles, Undo again,
// Clear withdraws all; the round is played; Re-bet places the same stakes
// on the same spots for round 2. The history panel shows each round from
// the server, and the session's result adds them up.
func TestBettingActions(t *testing.T) {
	t.Parallel()
	g := newGame(t, slow, "Madrid", "spain")
	ana := g.join(t, "ana")
	sit(t, ana, 1)
	sit(t, ana, 2)
	stakes := func(want, what string) {
		t.Helper()
		waitJS(t, ana, what+": "+want, `[...document.querySelectorAll('.mybets li')].map(l => l.firstChild.textContent.trim()).join(' | ') === '`+want+`'`)
	}
	enabled := func(key string) bool {
		return eval[bool](t, ana, `(() => { const b = document.querySelector('[data-fk="bet-`+key+`"]'); return !!b && !b.disabled })()`)
	}
	// standOn stands on the box once its decision is offered.
	standOn := func(box int) {
		t.Helper()
		b := itoa(int64(box))
		waitJS(t, ana, "ana's decision on box "+b, `/^Box `+b+`:/.test(document.querySelector('.prompt:not([hidden]) .prompt-text')?.textContent) && !document.querySelector('.prompt button.act-stand').disabled`)
		click(t, ana, `.prompt button.act-stand`)
	}
	waitJS(t, ana, "the bet buttons", `!!document.querySelector('[data-fk="bet-undo"]')`)
	for _, k := range []string{"undo", "clear", "rebet", "double"} {
		if enabled(k) {
			t.Errorf("%s is enabled with no bet and no last round", k)
		}
	}
	if !strings.Contains(text(t, ana, ".session-result"), "over 0 rounds") {
		t.Errorf("the session's result at first: %q", text(t, ana, ".session-result"))
	}

	bet(t, ana, 1, 500)
	stakes("Box 1: 5.00", "one chip")
	bet(t, ana, 1, 0)
	stakes("Box 1: 10.00", "two chips")
	waitJS(t, ana, "undo enabled", `!document.querySelector('[data-fk="bet-undo"]').disabled`)
	click(t, ana, `[data-fk="bet-undo"]`)
	stakes("Box 1: 5.00", "the last chip undone")
	click(t, ana, `[data-fk="bet-undo"]`)
	stakes("", "the first chip undone")
	waitBalance(t, ana, "nothing held", "1,000.00")
	bet(t, ana, 1, 0)
	stakes("Box 1: 5.00", "a chip again")
	dblclick(t, ana, `[data-fk="bet-double"]`)
	stakes("Box 1: 10.00", "doubled once")
	waitBalance(t, ana, "10.00 held", "990.00")
	waitJS(t, ana, "undo enabled", `!document.querySelector('[data-fk="bet-undo"]').disabled`)
	click(t, ana, `[data-fk="bet-undo"]`)
	stakes("Box 1: 5.00", "the double undone")
	bet(t, ana, 1, 0)
	stakes("Box 1: 10.00", "a chip again")
	waitJS(t, ana, "clear enabled", `!document.querySelector('[data-fk="bet-clear"]').disabled`)
	dblclick(t, ana, `[data-fk="bet-clear"]`)
	stakes("", "cleared")
	waitBalance(t, ana, "all returned", "1,000.00")

	// Round 1: box 1 TS 7C = 17, box 2 TH 8C = 18 against the dealer's 6D,
	// who draws TD and 9C: 25, bust. +5.00 on each box.
	g.force(t, "TS TH 6D 7C 8C TD 9C")
	bet(t, ana, 1, 0)
	stakes("Box 1: 5.00", "box 1")
	bet(t, ana, 2, 0)
	standOn(1)
	standOn(2)
	waitJS(t, ana, "the settlement", `document.querySelectorAll('.badge.win').length === 2`)
	waitBalance(t, ana, "round 1: +10.00", "1,010.00")
	waitJS(t, ana, "the history's first round", `document.querySelectorAll('.history-list > li').length === 1`)
	if h := text(t, ana, ".history-list > li"); !strings.Contains(h, "Dealer 25") || !strings.Contains(h, "Box 1: win with 17 +5.00") || !strings.Contains(h, "Box 2: win with 18 +5.00") || !strings.Contains(h, "+10.00") {
		t.Errorf("the history's round 1: %q", h)
	}
	waitJS(t, ana, "the session's result", `/\+10\.00 over 1 round$/.test(document.querySelector('.session-result').textContent)`)

	// Round 2: Re-bet (double-clicked) places 5.00 on each box again, once;
	// the round deals at once. Box 1 TS 9C = 19, box 2 TH 7D = 17 against
	// 9D, who draws TC: 19. A push on box 1, box 2 loses 5.00.
	g.force(t, "TS TH 9D 9C 7D TC")
	waitJS(t, ana, "re-bet enabled", `!document.querySelector('[data-fk="bet-rebet"]').disabled`)
	dblclick(t, ana, `[data-fk="bet-rebet"]`)
	standOn(1)
	standOn(2)
	waitBalance(t, ana, "round 2: −5.00", "1,005.00")
	waitJS(t, ana, "the history's two rounds", `document.querySelectorAll('.history-list > li').length === 2`)
	if h := text(t, ana, ".history-list > li"); !strings.Contains(h, "Dealer 19") || !strings.Contains(h, "Box 1: push with 19 0.00") || !strings.Contains(h, "Box 2: lose with 17 −5.00") {
		t.Errorf("the history's round 2: %q", h)
	}
	waitJS(t, ana, "the session's result", `/\+5\.00 over 2 rounds$/.test(document.querySelector('.session-result').textContent)`)

	// Up from the table, the spots are no longer hers: Re-bet is refused,
	// and the page says why.
	click(t, ana, `[data-fk="leave"]`)
	waitJS(t, ana, "re-bet refused", `document.querySelector('[data-fk="bet-rebet"]')?.disabled && /box 1 is no longer yours: take a seat first/.test(document.querySelector('.rebet-why')?.textContent)`)
	for _, f := range g.logs[ana].allFrames() {
		if strings.Contains(f, `"type":"error"`) {
			t.Errorf("the server refused a command: %s", f)
		}
	}
}

// animation is the animation a dealt card (.card.fresh) is drawn with now.
func animation(t testing.TB, ctx context.Context) string {
	t.Helper()
	return eval[string](t, ctx, `(() => { const c = document.createElement('span'); c.className = 'card fresh'; document.body.append(c); const a = getComputedStyle(c).animationName; c.remove(); return a })()`)
}
