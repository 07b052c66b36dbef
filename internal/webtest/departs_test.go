package webtest

import "testing"

// AR-01, AR-05, AR-20: an argentina table dealt from 4 decks, with back
// bets and insurance, says in the lobby which rules of its regulation it
// departs from, and its rules page says how, beside the rule's own words;
// a table that keeps its regulation says nothing of the kind.
func TestTableDepartsFromItsRegulation_AR01_AR05_AR20(t *testing.T) {
	t.Parallel()
	site := MustStart(t, slow)
	ctx := page(t, 1280, 1000)
	id := site.Table(t, "Rosario", "argentina", limits("decks", "4", "back_bets_per_box", "2", "insurance", "true"))
	site.Table(t, "Buenos Aires", "argentina", limits())
	open(t, ctx, site, "/", ".lobby .table-card")
	waitJS(t, ctx, "the lobby's departure tag", `[...document.querySelectorAll('.table-card')].some(c => c.innerText.includes('Rosario') && c.querySelector('.tag.departs')?.innerText.toLowerCase() === 'departs from ar-01, ar-05, ar-20')`)
	if n := eval[int](t, ctx, `document.querySelectorAll('.tag.departs').length`); n != 1 {
		t.Errorf("%d tables tagged as departing, want Rosario's alone", n)
	}
	open(t, ctx, site, "/tables/"+itoa(id), ".felt")
	waitJS(t, ctx, "the rules page's departures", `(() => { const d = document.querySelector('#rules .departures'); return !!d && d.innerText.includes('AR-01: decks=4, the regulation asks at least 8') && d.innerText.includes('AR-05: back_bets_per_box=2') && d.innerText.includes('AR-20: insurance=true') })()`)
	waitJS(t, ctx, "AR-01's words marked", `[...document.querySelectorAll('#rules .refs li')].some(li => li.textContent.includes('como mínimo 8 (ocho) mazos') && li.querySelector('.departs')?.textContent.includes('decks=4'))`)
}
