package webtest

import (
	"testing"
	"time"

	"sabot/internal/actor"
)

// keep is `sabot serve`'s betting window: open once every box has a bet,
// until its end or every seated player's "Deal".
var keep = actor.Timing{BetWindow: time.Minute, Decision: time.Minute, Window: time.Minute, KeepBetWindow: true}

// A lone player builds a 10.00 stake from two 5.00 chips, sees the time
// left to bet, and deals with the Deal button: his first chip no longer
// deals the round.
func TestLonePlayerBuildsStakeAndDeals(t *testing.T) {
	t.Parallel()
	g := newGame(t, keep, "Madrid", "spain", "player_cut", "false") // the new shoe's cut: TestPlayerCut_EG02_OverHTTP
	ana := g.join(t, "ana")
	sit(t, ana, 1)
	bet(t, ana, 1, 500)
	waitJS(t, ana, "the Deal button", `!!document.querySelector('[data-fk="bet-deal"]:not([disabled])')`)
	bet(t, ana, 1, 0)
	waitJS(t, ana, "two chips: 10.00", `[...document.querySelectorAll('.mybets li')].map(l => l.firstChild.textContent.trim()).join(' | ') === 'Box 1: 10.00'`)
	waitJS(t, ana, "the betting open after two chips, its countdown shown", `document.querySelector('.betting').classList.contains('open') && !!document.querySelector('.bet-tray .clock:not([hidden])')`)
	click(t, ana, `[data-fk="bet-deal"]`)
	waitJS(t, ana, "the round dealt", `!document.querySelector('.betting').classList.contains('open')`)
}
