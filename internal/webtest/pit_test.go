package webtest

import (
	"testing"

	"github.com/chromedp/chromedp"
)

// The pit page, as an administrator uses it: a wallet credited, a table's
// options changed with a reason, a refused change told with the server's
// reason, a new table opened, each in the significant-event log; a player
// is not shown the page.
func TestPit(t *testing.T) {
	g := newGame(t, slow, "Madrid", "spain")
	ana := g.player(t, "ana")
	open(t, ana, g.site, "/pit", "h1")
	waitJS(t, ana, "the page refused to a player", `document.querySelector('main').innerText.includes('The pit is for administrators')`)
	if eval[bool](t, ana, `!!document.querySelector('.nav a[href="/pit"]') || !!document.querySelector('#credit')`) {
		t.Fatal("a player is shown the pit")
	}

	pit := Player(t, g.browser)
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
	waitJS(t, pit, "the credit in the events", `[...document.querySelectorAll('.pit-events tbody tr')].some(r => r.innerText.includes('credit ana 12.34: a birthday'))`)
	open(t, ana, g.site, "/", ".lobby")
	waitBalance(t, ana, "ana's wallet credited", "1,012.34")

	// A change of options with its reason, then a refused one.
	row := `.pit-tables tr[data-table="` + itoa(g.table) + `"]`
	do(t, pit, "new limits for Madrid",
		chromedp.SendKeys(chromedp.CSS(row+" .pit-options"), "max_bet=40000"),
		chromedp.SendKeys(chromedp.CSS(row+" .pit-reason"), "the evening"))
	click(t, pit, row+` button[data-op="configure"]`)
	waitJS(t, pit, "the change done", `document.querySelector('.pit-status').innerText === 'Madrid: max_bet=40000.'`)
	waitJS(t, pit, "the change in the events", `[...document.querySelectorAll('.pit-events tbody tr[data-kind="configure"]')].some(r => r.innerText.includes('max_bet: 40000 (by pit: the evening)'))`)
	waitJS(t, pit, "the new stakes in the list", `document.querySelector('`+row+`').innerText.includes('1.00 – 400.00')`)
	do(t, pit, "an option that does not exist", chromedp.SendKeys(chromedp.CSS(row+" .pit-options"), "no_such_option=1"))
	click(t, pit, row+` button[data-op="configure"]`)
	waitJS(t, pit, "the server's reason", `!document.getElementById('toast').hidden && document.getElementById('toast').innerText.includes('no_such_option')`)

	// A new table.
	do(t, pit, "open Venezia",
		chromedp.SendKeys(chromedp.ID("open-name"), "Venezia"),
		chromedp.SendKeys(chromedp.ID("open-profile"), "venice"),
		chromedp.SendKeys(chromedp.ID("open-options"), "min_bet=500 max_bet=100000"))
	click(t, pit, `#open button[type=submit]`)
	waitJS(t, pit, "the table opened", `document.querySelector('.pit-status').innerText.includes(', Venezia, is open.')`)
	waitJS(t, pit, "the new table in the list", `[...document.querySelectorAll('.pit-tables tbody tr')].some(r => r.innerText.includes('Venezia') && r.innerText.includes('5.00 – 1,000.00'))`)
	// The log is read again once the table is open: wait for it.
	waitJS(t, pit, "the table opened in the events", `document.querySelector('.pit-events').innerText.includes('table "Venezia" opened: venice')`)

	// A live table's cash float (issue 25): its limits in force, the
	// table's option and the server's default.
	do(t, pit, "open Sala 1 (the profile stays venice)",
		chromedp.SendKeys(chromedp.ID("open-name"), "Sala 1"),
		chromedp.SendKeys(chromedp.ID("open-options"), "shoe=physical cash_approval=500000"))
	click(t, pit, `#open button[type=submit]`)
	waitJS(t, pit, "the float's limits in the list", `[...document.querySelectorAll('.pit-tables tbody tr')].some(r => r.innerText.includes('Sala 1') && r.innerText.includes('float: up to 1,000,000.00 out; the inspector approves a buy-in or cash-out over 5,000.00'))`)
}
