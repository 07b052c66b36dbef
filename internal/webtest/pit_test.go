package webtest

import (
	"context"
	"testing"

	"github.com/chromedp/chromedp"

	"sabot/internal/wire"
)

// The pit page, as an administrator uses it: a wallet credited, a table's
// options changed with a reason, a refused change told with the server's
// reason, a new table opened, each in the significant-event log; a player
// is not shown the page.
func TestPit(t *testing.T) {
	t.Parallel()
	g := newGame(t, slow, "Madrid", "spain")
	ana := g.player(t, "ana")
	open(t, ana, g.site, "/pit", "h1")
	waitJS(t, ana, "the page refused to a player", `document.querySelector('main').innerText.includes('The pit is for administrators')`)
	if eval[bool](t, ana, `!!document.querySelector('.nav a[href="/pit"]') || !!document.querySelector('#credit')`) {
		t.Fatal("a player is shown the pit")
	}

	pit := g.tab(t)
	g.logs[pit] = watch(t, pit)
	login(t, pit, g.site, "pit")
	click(t, pit, `.nav a[href="/pit"]`)
	waitJS(t, pit, "the table in the pit's list", `!!document.querySelector('.pit-tables tr[data-table="`+itoa(g.table)+`"]')`)

	// A credit: ana's wallet, and the event.
	do(t, pit, "credit ana 12.34",
		chromedp.SendKeys(chromedp.ID("credit-user"), "ana"),
		chromedp.SendKeys(chromedp.ID("credit-amount"), "12.34"),
		chromedp.SendKeys(chromedp.ID("credit-memo"), "a birthday"))
	click(t, pit, `#credit button[type=submit]`)
	waitJS(t, pit, "the credit done", `document.querySelector('.pit-status').innerText === 'ana credited 12.34.'`)
	waitJS(t, pit, "the credit in the events", `[...document.querySelectorAll('.pit-events tbody tr[data-kind="admin"]')].some(r => r.innerText.includes('ana credited 12.34: a birthday') && r.children[2].innerText === 'credit')`)
	// The log filtered by class: money keeps the
	// credits and no table opened; every class shows them all again.
	pickClass := func(c string) {
		eval[bool](t, pit, `(() => { const s = document.querySelector('#events-class'); s.value = '`+c+`'; s.dispatchEvent(new Event('change')); return true })()`)
	}
	pickClass("money")
	waitJS(t, pit, "the money events only", `(() => { const rs = [...document.querySelectorAll('.pit-events tbody tr[data-kind]')]; return rs.length > 0 && rs.every(r => r.dataset.kind === 'admin') && rs.some(r => r.innerText.includes('ana credited 12.34')) })()`)
	pickClass("")
	waitJS(t, pit, "every class again", `!!document.querySelector('.pit-events tbody tr[data-kind="table-opened"]')`)
	open(t, ana, g.site, "/", ".lobby")
	waitBalance(t, ana, "ana's wallet credited", "1,012.34")

	// A change of options with its reason, then a refused one.
	row := `.pit-tables tr[data-table="` + itoa(g.table) + `"]`
	do(t, pit, "new limits for Madrid",
		chromedp.SendKeys(chromedp.CSS(row+" .pit-options"), "max_bet=400.00"), // money as money
		chromedp.SendKeys(chromedp.CSS(row+" .pit-reason"), "the evening"))
	click(t, pit, row+` button[data-op="configure"]`)
	waitJS(t, pit, "the change done", `document.querySelector('.pit-status').innerText === 'Madrid: max_bet=400.00.'`)
	waitJS(t, pit, "the change in the events", `[...document.querySelectorAll('.pit-events tbody tr[data-kind="configure"]')].some(r => r.innerText.includes('max_bet: 400.00 (by pit: the evening)'))`)
	waitJS(t, pit, "the new stakes in the list", `document.querySelector('`+row+`').innerText.includes('1.00 – 400.00')`)
	do(t, pit, "an option that does not exist", chromedp.SendKeys(chromedp.CSS(row+" .pit-options"), "no_such_option=1"))
	click(t, pit, row+` button[data-op="configure"]`)
	waitJS(t, pit, "the server's reason", `!document.getElementById('toast').hidden && document.getElementById('toast').innerText.includes('no_such_option')`)

	// A new table: not without its limits (the profile's
	// placeholder was 0.01 to 1,000,000.00), and a maximum above 10,000.00
	// is confirmed first.
	do(t, pit, "open Venezia without limits",
		chromedp.SendKeys(chromedp.ID("open-name"), "Venezia"),
		chromedp.SendKeys(chromedp.ID("open-profile"), "venice"))
	click(t, pit, `#open button[type=submit]`)
	if !eval[bool](t, pit, `document.getElementById('open-min').matches(':invalid')`) {
		t.Error("the table minimum is not required")
	}
	do(t, pit, "limits of 5.00 to 20,000.00",
		chromedp.SendKeys(chromedp.ID("open-min"), "5"),
		chromedp.SendKeys(chromedp.ID("open-max"), "20000"))
	eval[bool](t, pit, `(() => { window.asked = ''; window.confirm = q => { window.asked = q; return false }; return true })()`)
	click(t, pit, `#open button[type=submit]`)
	waitJS(t, pit, "the limits confirmed first", `window.asked === 'Open Venezia at 5.00 to 20,000.00? The maximum is above 10,000.00.'`)
	var tables []wire.TableView
	if err := g.site.Admin.Do(context.Background(), "GET", "/api/tables", nil, &tables); err != nil || len(tables) != 1 {
		t.Fatalf("tables after a refused confirmation: %d %v", len(tables), err)
	}
	eval[bool](t, pit, `(document.getElementById('open-max').value = '1000') === '1000'`)
	click(t, pit, `#open button[type=submit]`)
	waitJS(t, pit, "the table opened", `document.querySelector('.pit-status').innerText.includes(', Venezia, is open.')`)
	waitJS(t, pit, "the new table in the list", `[...document.querySelectorAll('.pit-tables tbody tr')].some(r => r.innerText.includes('Venezia') && r.innerText.includes('5.00 – 1,000.00'))`)
	// The log is read again once the table is open: wait for it.
	waitJS(t, pit, "the table opened in the events", `document.querySelector('.pit-events').innerText.includes('table “Venezia” opened: venice')`)

	// A live table's cash float: its limits in force, the
	// table's option and the server's default.
	do(t, pit, "open Sala 1 (the profile stays venice)",
		chromedp.SendKeys(chromedp.ID("open-name"), "Sala 1"),
		chromedp.SendKeys(chromedp.ID("open-min"), "1"),
		chromedp.SendKeys(chromedp.ID("open-max"), "500"),
		chromedp.SendKeys(chromedp.ID("open-options"), "shoe=physical cash_approval=500000"))
	click(t, pit, `#open button[type=submit]`)
	waitJS(t, pit, "the float's limits in the list", `[...document.querySelectorAll('.pit-tables tbody tr')].some(r => r.innerText.includes('Sala 1') && r.innerText.includes('float: up to 1,000,000.00 out; the inspector approves a buy-in or cash-out over 5,000.00'))`)

	// The staff and the card readers from the page, not
	// curl: a dealer made, a reader issued to Sala 1 (its token shown
	// once), then revoked; each in the events, by its kind.
	do(t, pit, "make dora a dealer",
		chromedp.SendKeys(chromedp.ID("staff-name"), "dora"),
		chromedp.SendKeys(chromedp.ID("staff-password"), Password))
	click(t, pit, `#staff button[type=submit]`)
	waitJS(t, pit, "dora made", `document.querySelector('.pit-status').innerText === 'dora is a dealer: he logs in on the login page.'`)
	waitJS(t, pit, "the new dealer in the events", `[...document.querySelectorAll('.pit-events tbody tr')].some(r => r.innerText.includes('new dealer: dora') && r.children[2].innerText === 'staff')`)
	waitJS(t, pit, "Sala 1 among the live tables", `[...document.querySelectorAll('#device-table option')].some(o => o.textContent.endsWith('Sala 1'))`)
	do(t, pit, "a reader for Sala 1", chromedp.SendKeys(chromedp.ID("device-name"), "shoe reader 1"))
	click(t, pit, `#devices button[type=submit]`)
	waitJS(t, pit, "the token shown once", `!document.getElementById('device-token').hidden && /dev_[A-Za-z0-9_-]{20,}/.test(document.getElementById('device-token').innerText)`)
	waitJS(t, pit, "the reader listed", `document.getElementById('device-list').innerText.includes('shoe reader 1')`)
	eval[bool](t, pit, `(() => { window.confirm = () => true; return true })()`)
	click(t, pit, `#device-list button[data-op="revoke"]`)
	waitJS(t, pit, "the reader revoked", `document.getElementById('device-list').innerText.includes('revoked') && !document.querySelector('#device-list button[data-op="revoke"]')`)
	waitJS(t, pit, "the reader in the events", `[...document.querySelectorAll('.pit-events tbody tr')].some(r => r.innerText.includes('card reader 1 revoked') && r.children[2].innerText === 'card reader')`)
	eval[bool](t, pit, `(document.getElementById('toast').hidden = true) && true`)
	picture(t, pit, "pit-staff", false)

	// The players: found, seen, blocked with a reason
	// and the block lifted, from the page.
	do(t, pit, "find ana", chromedp.SendKeys(chromedp.ID("players-q"), "an"))
	click(t, pit, `#players button[type=submit]`)
	prow := `.pit-players tr[data-player="ana"]`
	waitJS(t, pit, "ana found with her wallet", `(r => r && r.children[1].innerText === '1,012.34' && r.children[4].innerText === '—')(document.querySelector('`+prow+`'))`)
	eval[bool](t, pit, `(() => { window.prompt = () => 'chip dumping'; return true })()`)
	click(t, pit, prow+` button[data-op="block"]`)
	waitJS(t, pit, "ana blocked", `document.querySelector('.pit-status').innerText.startsWith('ana is blocked') && document.querySelector('`+prow+`').children[4].innerText.includes('blocked by the pit') && document.querySelector('`+prow+`').children[4].innerText.includes('chip dumping')`)
	waitJS(t, pit, "the block in the events", `[...document.querySelectorAll('.pit-events tbody tr')].some(r => r.innerText.includes('ana blocked by pit: chip dumping') && r.children[2].innerText === 'block')`)
	eval[bool](t, pit, `(() => { window.prompt = () => 'cleared'; return true })()`)
	click(t, pit, prow+` button[data-op="unblock"]`)
	waitJS(t, pit, "ana's block lifted", `document.querySelector('`+prow+` button[data-op="block"]') && document.querySelector('`+prow+`').children[4].innerText === '—'`)
}
