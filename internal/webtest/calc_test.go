package webtest

import (
	"context"
	"fmt"
	"strconv"
	"strings"
	"testing"

	"github.com/chromedp/chromedp"

	"sabot/analysis"
	"sabot/card"
	"sabot/rules"
)

// The hand calculator and the strategy card's values on the table's page,
// on one deck, S17, DAS, resplits to four (vegas-s17 with one deck): 8,8
// against a 6 is worth what Eric Farmer's analyzer 7.6 prints
// (analysis/testdata/farmer-ev/1d-s17-das.txt: Stand −17.817051012 %, Hit
// −39.669184544 %, Double −79.338369088 %, Split 38.529444897 %), the same
// numbers `sabot ev` gives, here to the page's four decimals. The card's
// cell for 8,8 against a 6 shows them on hover, and hard 16 against a ten
// shows its values on a tap, given no dealer blackjack.
func TestHandCalculator(t *testing.T) {
	t.Parallel()
	g := newGame(t, slow, "Short shoe", "vegas-s17", "decks", "1", "burn_cards", "0", "cut_card_reserve", "32")
	ana := g.join(t, "ana")

	// The calculator.
	click(t, ana, "details.calculator > summary")
	do(t, ana, "choose 8,8 against a 6",
		chromedp.SetValue(chromedp.CSS(`details.calculator select[name=up]`), "6"),
		chromedp.SetValue(chromedp.CSS(`details.calculator input[name=hand]`), "8,8"))
	click(t, ana, "details.calculator .calc-go")
	waitJS(t, ana, "the calculator's values", `!!document.querySelector('details.calculator .ev-table')`)
	got := innerText(t, ana, "details.calculator .ev-table")
	for _, want := range []string{"Stand\t−0.1782", "Hit\t−0.3967", "Double\t−0.7934", "Split\t+0.3853\tbest"} {
		if !strings.Contains(got, want) {
			t.Errorf("the calculator says:\n%s\nwant %q", got, want)
		}
	}

	// Nairn's exact splitting (split hands play his basic strategy): 8,8
	// against a 6, one deck, S17, to four hands, doubling after splits on
	// any two cards, 0.385294 (webtables/OneDeck.html; Aces resplit does
	// not change it).
	do(t, ana, "choose exact splitting", chromedp.SetValue(chromedp.CSS(`details.calculator select[name=split_play]`), "exact"))
	click(t, ana, "details.calculator .calc-go")
	waitJS(t, ana, "the exact split", `document.querySelector('details.calculator .ev-table')?.innerText.includes('+0.3853')`)

	// Cards out of the shoe change the values; a bad card is refused with
	// the server's reason.
	do(t, ana, "remove three tens", chromedp.SetValue(chromedp.CSS(`details.calculator input[name=removed]`), "T,T,T"))
	click(t, ana, "details.calculator .calc-go")
	waitJS(t, ana, "the values without three tens", `!document.querySelector('details.calculator .ev-table')?.innerText.includes('−0.1782')`)
	do(t, ana, "a bad card", chromedp.SetValue(chromedp.CSS(`details.calculator input[name=hand]`), "8,X"))
	click(t, ana, "details.calculator .calc-go")
	waitJS(t, ana, "the refusal", `document.querySelector('details.calculator .calc-error')?.innerText.includes('unknown card "X"')`)

	// The rules picked in the calculator: two decks, the dealer hitting soft
	// 17, late surrender and three hands at most (typed), split hands played
	// CDZ-, 8,8 against a ten: each value the page holds is sabot ev's, the
	// same float (analysis.HandValues for those rules).
	waitJS(t, ana, "the table's options in the picker", `document.querySelector('details.calculator fieldset.calc-rules')?.dataset.loaded === '1' && document.querySelector('details.calculator select[name="o-decks"]').value === '1'`)
	do(t, ana, "pick the rules",
		chromedp.SetValue(chromedp.CSS(`details.calculator select[name=up]`), "T"),
		chromedp.SetValue(chromedp.CSS(`details.calculator input[name=hand]`), "8,8"),
		chromedp.SetValue(chromedp.CSS(`details.calculator input[name=removed]`), "5,5"),
		chromedp.SetValue(chromedp.CSS(`details.calculator select[name="o-decks"]`), "2"),
		chromedp.SetValue(chromedp.CSS(`details.calculator select[name="o-dealer_hits_soft_17"]`), "true"),
		chromedp.SetValue(chromedp.CSS(`details.calculator select[name="o-surrender"]`), "late"),
		chromedp.SetValue(chromedp.CSS(`details.calculator input[name="o-more"]`), "max_hands=3"),
		chromedp.SetValue(chromedp.CSS(`details.calculator select[name=split_play]`), "cdz"))
	click(t, ana, "details.calculator .calc-go")
	waitJS(t, ana, "the values under the rules picked", `!!document.querySelector('details.calculator .ev-table tr[data-action=surrender]')`)
	p := rules.MustLookup("vegas-s17")
	if err := p.SetAll([]string{"decks=1", "burn_cards=0", "cut_card_reserve=32", "decks=2", "dealer_hits_soft_17=true", "surrender=late", "max_hands=3"}); err != nil {
		t.Fatal(err)
	}
	want, err := analysis.HandValues(p, card.MustParse("TS"), card.MustParseList("8H 8D"), analysis.EVOptions{Removed: card.MustParseList("5S 5H"), SplitPlay: analysis.SplitCDZ})
	if err != nil {
		t.Fatal(err)
	}
	pageEV(t, ana, "details.calculator", want)

	// The strategy card: hover 8,8 against a 6.
	click(t, ana, "details.strategy > summary")
	waitJS(t, ana, "the card's cells", `!!document.querySelector('table.strategy-grid td[data-hand="8,8"][data-up="6"]')`)
	cell := eval[string](t, ana, `document.querySelector('table.strategy-grid td[data-hand="8,8"][data-up="6"]').textContent`)
	if cell != "P" {
		t.Errorf("8,8 against a 6: %q, want P", cell)
	}
	eval[bool](t, ana, `document.querySelector('table.strategy-grid td[data-hand="8,8"][data-up="6"]').dispatchEvent(new MouseEvent('mouseenter'))`)
	waitJS(t, ana, "the hovered cell's values", `!!document.querySelector('.cell-values .ev-table')`)
	got = innerText(t, ana, ".cell-values")
	for _, want := range []string{"8,8 (8,8) against 6", "Split\t+0.3853\tbest", "Stand\t−0.1782"} {
		if !strings.Contains(got, want) {
			t.Errorf("the cell's values:\n%s\nwant %q", got, want)
		}
	}
	p = rules.MustLookup("vegas-s17")
	if err := p.SetAll([]string{"decks=1", "burn_cards=0", "cut_card_reserve=32"}); err != nil {
		t.Fatal(err)
	}
	if want, err = analysis.HandValues(p, card.MustParse("6S"), card.MustParseList("8H 8D"), analysis.EVOptions{}); err != nil {
		t.Fatal(err)
	}
	pageEV(t, ana, ".cell-values", want)
	// A tap on hard 16 against a ten: stand, hit, double, given no dealer
	// blackjack (the same file: 10,6 against a ten, Stand −54.295185382 %,
	// Hit −50.692924258 %, Double −101.385848516 %).
	click(t, ana, `table.strategy-grid td[data-hand="T,6"][data-up="T"]`)
	waitJS(t, ana, "the tapped cell's values", `document.querySelector('.cell-values')?.innerText.includes('16 (T,6) against T') && !!document.querySelector('.cell-values .ev-table')`)
	got = innerText(t, ana, ".cell-values")
	for _, want := range []string{"Stand\t−0.5430", "Hit\t−0.5069\tbest", "Double\t−1.0139", "no blackjack"} {
		if !strings.Contains(got, want) || strings.Contains(got, "Split") {
			t.Errorf("16 against a ten:\n%s\nwant %q", got, want)
		}
	}
}

// pageEV checks that the values shown under sel are want's, each action's
// the same float (the page's data-ev), and no other action shown.
func pageEV(t *testing.T, ctx context.Context, sel string, want *analysis.Values) {
	t.Helper()
	got := eval[map[string]string](t, ctx, fmt.Sprintf(`Object.fromEntries([...document.querySelectorAll('%s .ev-table tr')].map(r => [r.dataset.action, r.querySelector('td').dataset.ev]))`, sel))
	n := 0
	for name, w := range map[string]*float64{"stand": want.Stand, "hit": want.Hit, "double": want.Double, "split": want.Split, "surrender": want.Surrender, "even_money": want.EvenMoney} {
		g, shown := got[name]
		if w == nil {
			if shown {
				t.Errorf("%s: %s shown (%s), not open", sel, name, g)
			}
			continue
		}
		n++
		x, err := strconv.ParseFloat(g, 64)
		if err != nil || x != *w {
			t.Errorf("%s: %s %q, sabot ev %v", sel, name, g, *w)
		}
	}
	if len(got) != n {
		t.Errorf("%s: %d values shown, want %d: %v", sel, len(got), n, got)
	}
}

// innerText is an element's text as shown (table cells by tabs).
func innerText(t testing.TB, ctx context.Context, sel string) string {
	t.Helper()
	return eval[string](t, ctx, fmt.Sprintf(`document.querySelector(%q)?.innerText ?? ''`, sel))
}
