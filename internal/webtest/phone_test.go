package webtest

import (
	"testing"

	"github.com/chromedp/chromedp"
)

// On a phone (390×844) the hand being decided stays in
// sight with the decision sheet open — above the sheet, not under it, not
// below the fold — whichever box the player sits at.
func TestPhoneDecisionInSight(t *testing.T) {
	t.Parallel()
	g := newGame(t, slow, "Madrid", "spain")
	ana := g.join(t, "ana")
	do(t, ana, "a phone", chromedp.EmulateViewport(390, 844, chromedp.EmulateScale(2), chromedp.EmulateMobile, chromedp.EmulateTouch))
	sit(t, ana, 7)
	// ana 9S 3C = 12 against the dealer's 7D: she hits (2D: 14) and stands;
	// the dealer draws TH: 17.
	g.force(t, "9S 7D 3C 2D TH")
	bet(t, ana, 7, 500)
	waitKey(t, ana, "ana's decision", "h")
	const inSight = `(() => {
		const hand = document.querySelector('.box[data-box="7"] .hand.current').getBoundingClientRect();
		const sheet = document.querySelector('.prompt').getBoundingClientRect();
		return hand.top >= 0 && hand.bottom <= sheet.top && hand.height > 0;
	})()`
	waitJS(t, ana, "the hand in sight above the sheet", inSight)
	// The page scrolled back to the top and the next decision asked: the
	// hand comes back into sight.
	eval[bool](t, ana, `(window.scrollTo(0, 0), true)`)
	click(t, ana, `.prompt button.act-hit`)
	waitJS(t, ana, "the hit's card", `document.querySelectorAll('.box[data-box="7"] .card').length === 3`)
	waitJS(t, ana, "the decision on 14, the hand in sight", `!!document.querySelector('.prompt:not([hidden]) button.act-stand:not([disabled])') && `+inSight)
	click(t, ana, `.prompt button.act-stand`)
	waitJS(t, ana, "the settlement", `!!document.querySelector('.box[data-box="7"] .badge.lose')`)
}
