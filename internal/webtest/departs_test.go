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

// A reading of another regulation's rule at a table whose option gives it
// a behaviour of that rule (spain with dealer_plays=as-needed, AR-14's) is
// shown under this table's rules with the option and its value, never under
// AR-14 as the Spanish table's own rule; venice with dealer_plays=as-needed
// departs from VE-08.
func TestReadingUnderTheTablesRules_AR14_VE08(t *testing.T) {
	t.Parallel()
	site := MustStart(t, slow)
	ctx := page(t, 1280, 1000)
	id := site.Table(t, "Madrid", "spain", limits("dealer_plays", "as-needed"))
	open(t, ctx, site, "/tables/"+itoa(id), ".felt")
	waitJS(t, ctx, "the reading under this table's rules", `[...document.querySelectorAll('#rules .readings li strong')].some(s => s.textContent === "this table's rules: dealer_plays=as-needed: ")`)
	if n := eval[int](t, ctx, `[...document.querySelectorAll('#rules .readings li strong')].filter(s => s.textContent.startsWith('AR-')).length`); n != 0 {
		t.Errorf("%d readings of the Spanish table shown under an Argentine rule", n)
	}
	ve := site.Table(t, "Venezia", "venice", limits("dealer_plays", "as-needed"))
	open(t, ctx, site, "/tables/"+itoa(ve), ".felt")
	waitJS(t, ctx, "the departure from VE-08", `(() => { const d = document.querySelector('#rules .departures'); return !!d && d.textContent.includes('VE-08: dealer_plays=as-needed, the regulation asks always') })()`)
}
