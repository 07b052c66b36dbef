package webtest

import (
	"context"
	"fmt"
	"slices"
	"strings"
	"testing"
)

// dblclick clicks the first element a selector finds twice in one tick, as
// a double-click or an impatient player does.
func dblclick(t testing.TB, ctx context.Context, sel string) {
	t.Helper()
	waitJS(t, ctx, "the button "+sel, fmt.Sprintf(`!!document.querySelector(%q)`, sel))
	if n := eval[int](t, ctx, fmt.Sprintf(`(() => { const b = document.querySelector(%q); b.click(); b.click(); return 2 })()`, sel)); n != 2 {
		t.Fatal("the clicks were not made")
	}
}

// cardsOf is how many cards a box's hands hold, hand by hand.
func cardsOf(t testing.TB, ctx context.Context, box int) string {
	t.Helper()
	return eval[string](t, ctx, fmt.Sprintf(`[...document.querySelectorAll('.box[data-box="%d"] .hand')].map(h => h.querySelectorAll('.card').length).join(' ')`, box))
}

// Each decision is sent once, however often its button
// is clicked or its key pressed: a double-click on Sit, Insure, Hit, Stand,
// Split and Double, and H pressed twice, each act once — one card, one
// stake — with no refusal shown.
func TestDoubleClickActsOnce(t *testing.T) {
	t.Parallel()
	g := newGame(t, slow, "Madrid", "spain")
	ana := g.join(t, "ana")
	dblclick(t, ana, `.box[data-box="1"] .sit`)
	waitJS(t, ana, "seated at box 1", `!!document.querySelector('.box[data-box="1"] .plate .me')`)

	// Round 1: ana 9S 3C = 12 under the dealer's Ace; she insures, hits
	// (2H: 14), hits with the key pressed twice (4D: 18) and stands; the
	// dealer draws 6C: soft 17, stands (ES-05). Insurance lost, 18 wins.
	g.force(t, "9S AD 3C 2H 4D 6C")
	bet(t, ana, 1, 500)
	waitKey(t, ana, "the insurance window", "i")
	dblclick(t, ana, `.prompt button.act-insure`)
	waitKey(t, ana, "ana's decision on 12", "h")
	dblclick(t, ana, `.prompt button.act-hit`)
	waitJS(t, ana, "the hit's card", `document.querySelectorAll('.box[data-box="1"] .card').length >= 3`)
	waitKey(t, ana, "ana's decision on 14", "h")
	press(t, ana, "h twice", "hh")
	waitJS(t, ana, "the second hit's card", `document.querySelectorAll('.box[data-box="1"] .card').length >= 4`)
	waitKey(t, ana, "ana's decision on 18", "s")
	dblclick(t, ana, `.prompt button.act-stand`)
	waitJS(t, ana, "the settlement", `!!document.querySelector('.box[data-box="1"] .badge.win')`)
	if got := cardsOf(t, ana, 1); got != "4" {
		t.Errorf("ana's hand holds %s cards, want 4: 9S 3C 2H 4D", got)
	}
	waitBalance(t, ana, "round 1: +5.00 on the hand, −2.50 of insurance", "1,002.50")

	// Round 2: ana 8S 8C against the dealer's 6D: she splits (hand 1 8S 3H,
	// hand 2 8C 2S), doubles hand 1 (TD: 21), stands on hand 2's 10; the
	// dealer draws TC and 9H: 25, bust.
	g.force(t, "8S 6D 8C 3H TD 2S TC 9H")
	bet(t, ana, 1, 500)
	waitKey(t, ana, "ana's decision on 8 8", "p")
	dblclick(t, ana, `.prompt button.act-split`)
	waitJS(t, ana, "the split", `document.querySelectorAll('.box[data-box="1"] .hand').length >= 2`)
	waitKey(t, ana, "ana's decision on 11", "d")
	dblclick(t, ana, `.prompt button.act-double`)
	waitJS(t, ana, "ana's decision on hand 2's 10", `/^Box 1 hand 2: 10/.test(document.querySelector('.prompt-text')?.textContent) && !document.querySelector('.prompt button.act-stand').disabled`)
	dblclick(t, ana, `.prompt button.act-stand`)
	waitJS(t, ana, "the settlement", `document.querySelectorAll('.box[data-box="1"] .badge.win').length === 2`)
	if got := cardsOf(t, ana, 1); got != "3 2" {
		t.Errorf("ana's hands hold %s cards, want 3 2: 8S 3H TD | 8C 2S", got)
	}
	waitBalance(t, ana, "round 2: +10.00 on the double, +5.00 on hand 2", "1,017.50")

	if !eval[bool](t, ana, `document.getElementById('toast').hidden`) {
		t.Errorf("a refusal was shown: %q", text(t, ana, "#toast"))
	}
	for _, f := range g.logs[ana].allFrames() {
		if strings.Contains(f, `"type":"error"`) {
			t.Errorf("the server refused a command: %s", f)
		}
	}
	for round, want := range map[int][]string{
		1: {"ana 1 1 main 5.00 win +5.00", "ana 1 1 insurance 2.50 lose −2.50"},
		2: {"ana 1 1 main 5.00 win +5.00", "ana 1 2 split 5.00 win +5.00", "ana 1 1 double 5.00 win +5.00"},
	} {
		if _, rows := g.record(t, ana, round); !slices.Equal(rows, want) {
			t.Errorf("round %d's stakes: %q, want %q", round, rows, want)
		}
	}
}
