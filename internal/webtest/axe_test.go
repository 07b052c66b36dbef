package webtest

import (
	"context"
	_ "embed"
	"encoding/json"
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/chromedp/chromedp"
)

// axeSource is axe-core (Deque, MPL-2.0; testdata/axe, beside its
// licence), the accessibility checker the tests run in each page; the
// page never loads it (README, "Design").
//
//go:embed testdata/axe/axe.min.js
var axeSource string

// axeViolation is a rule axe-core finds broken, and where.
type axeViolation struct {
	ID     string   `json:"id"`
	Impact string   `json:"impact"`
	Help   string   `json:"help"`
	Nodes  []string `json:"nodes"`
}

// axeCheck runs axe-core on the page as it stands (every rule but the
// experimental ones, the default) and fails the test on any violation.
func axeCheck(t *testing.T, ctx context.Context, where string) {
	t.Helper()
	tctx, cancel := context.WithTimeout(ctx, 90*time.Second)
	defer cancel()
	if _, err := chromedp.Run(tctx, chromedp.Evaluate[bool](`typeof axe === 'object' || (() => { `+axeSource+`; return true })()`)); err != nil {
		t.Fatalf("%s: load axe-core: %v", where, err)
	}
	js := `axe.run(document).then(r => JSON.stringify(r.violations.map(v => ({id: v.id, impact: v.impact, help: v.help,
		nodes: v.nodes.slice(0, 4).map(n => n.target.join(' ') + ': ' + (n.failureSummary || '').split('\n').slice(1, 2).join(''))}))))`
	out, err := chromedp.Run(tctx, chromedp.Evaluate[string](js, chromedp.EvalAwaitPromise))
	if err != nil {
		t.Fatalf("%s: axe.run: %v", where, err)
	}
	var vs []axeViolation
	if err := json.Unmarshal([]byte(out), &vs); err != nil {
		t.Fatalf("%s: axe's answer %q: %v", where, out, err)
	}
	for _, v := range vs {
		t.Errorf("%s: axe-core %s (%s): %s\n\t%s", where, v.ID, v.Impact, v.Help, strings.Join(v.Nodes, "\n\t"))
	}
}

// axeLanguages checks the page in English, Spanish and Italian (each the
// page's words in full: the language's attribute is the page's).
func axeLanguages(t *testing.T, ctx context.Context, where, ready string) {
	t.Helper()
	for _, lang := range []string{"en", "es", "it"} {
		choose(t, ctx, lang)
		waitJS(t, ctx, where+" in "+lang, fmt.Sprintf(`document.documentElement.lang === %q && (%s)`, lang, ready))
		axeCheck(t, ctx, where+" ("+lang+")")
	}
	choose(t, ctx, "en")
}

// Every page at 0 axe-core violations in English, Spanish and Italian:
// the login, the lobby, the player's table (seated, betting) with its
// rules, strategy card and calculator open, a round's replay, the
// account, the dealer's console of a physical table, the pit's floor and
// forms, its reports and the recall.
func TestAxeEveryPage(t *testing.T) {
	t.Parallel()
	g := newGame(t, slow, "Live", "spain", "shoe", "physical", "player_cut", "false")
	virtual := g.site.Table(t, "Madrid", "spain", limits())

	out := page(t, 1280, 900)
	open(t, out, g.site, "/login", "#name")
	axeLanguages(t, out, "the login", `!!document.getElementById('name')`)

	ana := g.join(t, "ana")
	sit(t, ana, 1)
	dora := staffLogin(t, g, "dora", "dealer")
	open(t, dora, g.site, g.path()+"/console", "#card-input")
	bet(t, ana, 1, 100)
	waitJS(t, dora, "the bet on the console", `document.querySelector('.console-table tr[data-box="1"]')?.textContent.includes('ana 1.00')`)
	axeLanguages(t, dora, "the dealer's console", `!!document.getElementById('card-input')`)

	open(t, ana, g.site, "/", ".table-card")
	axeLanguages(t, ana, "the lobby", `!!document.querySelector('.table-card')`)
	open(t, ana, g.site, "/tables/"+itoa(virtual), ".felt .box .plate")
	sit(t, ana, 2)
	// The rules' folds open, each time the language draws the page again.
	axeLanguages(t, ana, "the player's table", `!!document.querySelector('.felt .box .plate') &&
		(document.querySelectorAll('.rules-panel details:not([open])').forEach(d => { d.open = true }), !!document.querySelector('.strategy-grids'))`)
	// A round played to its end (ana's 18 against the dealer's 18), and
	// its replay.
	g.site.Force(t, virtual, "TS 9D 8H 7C 2S 3D 4H")
	if eval[bool](t, ana, `!!document.querySelector('.box[data-box="2"] .sit:not([disabled])')`) {
		sit(t, ana, 2) // the seat gone while axe ran (an idle seat is released, AR-21)
	}
	bet(t, ana, 2, 100)
	eval[bool](t, ana, `(document.querySelector('[data-fk="bet-deal"]:not([disabled])')?.click(), true)`)
	waitKey(t, ana, "ana's decision", "s")
	press(t, ana, "stand", "s")
	waitJS(t, ana, "the settlement", `!!document.querySelector('.box[data-box="2"] .badge')`)
	open(t, ana, g.site, "/rounds/"+itoa(virtual)+"-1", ".felt.replay")
	axeLanguages(t, ana, "the replay", `!!document.querySelector('.felt.replay')`)
	open(t, ana, g.site, "/account", ".care-form")
	axeLanguages(t, ana, "the account", `!!document.querySelector('.care-form')`)

	pit := page(t, 1366, 768)
	login(t, pit, g.site, "pit")
	open(t, pit, g.site, "/pit", "#credit")
	axeLanguages(t, pit, "the pit", `!!document.getElementById('floor') && !!document.getElementById('credit')`)
	open(t, pit, g.site, "/pit/reports", "main h1, main h2")
	axeLanguages(t, pit, "the reports", `!!document.querySelector('main h1, main h2')`)
	open(t, pit, g.site, "/recall", "main h1, main h2")
	axeLanguages(t, pit, "the recall", `!!document.querySelector('main h1, main h2')`)
}
