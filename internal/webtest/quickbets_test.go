package webtest

import (
	"testing"
)

// Issue 15, deliverable 6: Re-bet, Double, Undo and Clear between rounds,
// each sent once when double-clicked; the table's history beside the felt
// and the session's result.
func TestQuickBetsAndHistory(t *testing.T) {
	g := newGame(t, slow, "Madrid", "spain")
	ana, ben := g.join(t, "ana"), g.join(t, "ben")
	sit(t, ana, 1)
	sit(t, ben, 2) // seated without a bet, ben keeps the betting window open
	stake := func(what, want string) {
		t.Helper()
		// The player's bets as the betting section lists them.
		waitJS(t, ana, what, `[...document.querySelectorAll('.mybets li')].map(li => li.firstChild.textContent.trim()).join(' | ') === '`+want+`'`)
	}
	// Round 1: ana TS 9C = 19, ben 9H TC = 19 against the dealer's 7D, who
	// draws TH: 17.
	g.force(t, "TS 9H 7D 9C TC TH")
	bet(t, ana, 1, 500)
	bet(t, ben, 2, 500)
	waitKey(t, ana, "ana's decision", "s")
	click(t, ana, `.prompt button.act-stand`)
	waitKey(t, ben, "ben's decision", "s")
	click(t, ben, `.prompt button.act-stand`)
	waitJS(t, ana, "round 1 settled", `!!document.querySelector('.box[data-box="1"] .badge.win')`)
	waitBalance(t, ana, "round 1 won", "1,005.00")

	dblclick(t, ana, `.quick-bets [data-fk="rebet"]:not([disabled])`)
	stake("the last round's stake again", "Box 1: 5.00")
	dblclick(t, ana, `.quick-bets [data-fk="double-bets"]:not([disabled])`)
	stake("doubled once", "Box 1: 10.00")
	bet(t, ana, 1, 0) // a 5.00 chip
	stake("a chip more", "Box 1: 15.00")
	dblclick(t, ana, `.quick-bets [data-fk="undo"]:not([disabled])`)
	stake("the chip taken back", "Box 1: 10.00")
	if !eval[bool](t, ana, `document.querySelector('.quick-bets [data-fk="undo"]').disabled`) {
		t.Error("Undo is offered with no chip left to take back")
	}
	click(t, ana, `.quick-bets [data-fk="clear"]:not([disabled])`)
	stake("cleared", "")
	click(t, ana, `.quick-bets [data-fk="rebet"]:not([disabled])`)
	stake("re-bet after a clear", "Box 1: 5.00")

	// Round 2: ana TS 8C = 18, ben 9H TC = 19 against 7D, who draws TH: 17.
	g.force(t, "TS 9H 7D 8C TC TH")
	bet(t, ben, 2, 500)
	waitKey(t, ana, "ana's decision", "s")
	click(t, ana, `.prompt button.act-stand`)
	waitKey(t, ben, "ben's decision", "s")
	click(t, ben, `.prompt button.act-stand`)
	waitJS(t, ana, "round 2 settled", `!!document.querySelector('.box[data-box="1"] .badge.win')`)
	waitBalance(t, ana, "round 2 won", "1,010.00")
	waitJS(t, ana, "the history", `document.querySelectorAll('.round-history li a').length === 2`)
	if got := text(t, ana, ".round-history li"); got != "Round 2 · dealer 17 · +5.00" {
		t.Errorf("the last round in the history: %q", got)
	}
	if got := text(t, ana, ".session-result"); got != "This session: 2 rounds, +10.00" {
		t.Errorf("the session's result: %q", got)
	}
	if !eval[bool](t, ana, `document.getElementById('toast').hidden`) {
		t.Errorf("a refusal was shown: %q", text(t, ana, "#toast"))
	}
}
