package webtest

import (
	"context"
	"fmt"
	"strings"
	"testing"

	"github.com/chromedp/cdproto/emulation"
	"github.com/chromedp/chromedp"

	"sabot/internal/server"
)

// The page in Spanish, Italian and English (docs/web.md, "Languages"): a
// browser that asks for Italian gets it; the switch in the header changes
// the language at once and is remembered; a round played in each language
// shows the labels, the dealer's calls, the results and the money in that
// language, and the rules cite the regulation's own words.
func TestLanguages(t *testing.T) {
	t.Parallel()
	g := newGame(t, slow, "Madrid", "spain")

	// A browser whose first language is Italian: the page is in Italian
	// without a choice made.
	it := g.tab(t)
	if _, err := chromedp.Call(it, emulation.SetUserAgentOverride, emulation.SetUserAgentOverrideParams{UserAgent: "Mozilla/5.0 sabot-test", AcceptLanguage: "it-IT,it"}); err != nil {
		t.Fatal(err)
	}
	open(t, it, g.site, "/", ".table-card")
	if got := eval[string](t, it, `document.documentElement.lang + ' ' + document.querySelector('.nav a[href="/"]').textContent + ' ' + document.getElementById('lang').value`); got != "it Sala it" {
		t.Errorf("a browser asking for Italian: %q, want it Sala it", got)
	}

	ana := g.join(t, "ana")
	if got := eval[string](t, ana, `document.getElementById('lang').value`); got != "en" {
		t.Fatalf("an English browser's page is in %q", got)
	}
	sit(t, ana, 1)
	for round, c := range []struct {
		lang, lobby, balance, stand, dealer, push, box, rules, buttons, heading string
	}{
		{"es", "Salón", "1.000,00", "Casillero 1 se planta con 17.", "El croupier tiene 17.", "Empate", "Casillero 1, ana (usted)", "Reglas de la mesa", "Pedir|Plantarse", "Su decisión"},
		{"it", "Sala", "1.000,00", "Postazione 1: no carta, con 17.", "Il banco ha 17.", "Pari", "Postazione 1, ana (lei)", "Regole del tavolo", "Carta|No carta", "La sua decisione"},
		{"en", "Lobby", "1,000.00", "Box 1 stands on 17.", "The dealer has 17.", "Push", "Box 1, ana (you)", "Rules of the table", "Hit|Stand", "Your decision"},
	} {
		// The switch: the page is drawn again in the language chosen.
		choose(t, ana, c.lang)
		waitJS(t, ana, "the page in "+c.lang, fmt.Sprintf(`document.documentElement.lang === %q && document.querySelector('.nav a[href="/"]').textContent === %q && !!document.querySelector('.box[data-box="1"] .plate .me')`, c.lang, c.lobby))
		waitBalance(t, ana, "the balance in "+c.lang, c.balance)
		waitJS(t, ana, "the rules in "+c.lang, fmt.Sprintf(`document.getElementById('rules-h')?.textContent === %q`, c.rules))
		if got := eval[string](t, ana, `document.querySelector('.box[data-box="1"]').getAttribute('aria-label')`); got != c.box {
			t.Errorf("%s: box 1 is labelled %q, want %q", c.lang, got, c.box)
		}

		// A round: ana 10 and 7 stands on 17; the dealer 6 and 9 draws a 2: 17, a push.
		g.force(t, "TS 6D 7C 9S 2H")
		bet(t, ana, 1, 100)
		waitKey(t, ana, fmt.Sprintf("the decision of round %d", round+1), "s")
		// The decision in the language chosen: its heading and buttons.
		if got := eval[string](t, ana, `document.querySelector('.prompt-h').textContent + ' ' + [...document.querySelectorAll('.prompt button.act')].map(b => b.firstChild.textContent).join('|')`); got != c.heading+" "+c.buttons {
			t.Errorf("%s: the decision reads %q, want %q", c.lang, got, c.heading+" "+c.buttons)
		}
		press(t, ana, "stand", "s")
		waitJS(t, ana, "the push in "+c.lang, `!!document.querySelector('.box[data-box="1"] .badge.push')`)
		if got := text(t, ana, `.box[data-box="1"] .badge.push`); got != c.push {
			t.Errorf("%s: the result says %q, want %q", c.lang, got, c.push)
		}
		waitCalls(t, ana, c.stand, c.dealer)
	}

	// The choice is remembered: the page loads again in English, the last
	// chosen, and in Spanish once chosen again.
	choose(t, ana, "es")
	open(t, ana, g.site, g.path(), ".box .plate")
	waitJS(t, ana, "Spanish after a reload", `document.documentElement.lang === 'es' && document.querySelector('.nav a[href="/recall"]').textContent === 'Mis rondas'`)

	// The rules quote the regulation: ES-07 in the Spanish leaflet's words,
	// beside the English.
	waitJS(t, ana, "the seed's words", `[...document.querySelectorAll('.refs blockquote.seed-text[lang="es"]')].some(b => b.textContent.includes('“Black Jack” consiste en alcanzar 21 puntos'))`)
	if got := eval[string](t, ana, `document.querySelector('.refs blockquote.seed-text').nextElementSibling?.getAttribute('lang') || ''`); got != "en" {
		t.Errorf("the seed's words are not beside the English wording (%q)", got)
	}
	if msgs := strings.Join(g.logs[ana].allFrames(), ""); !strings.Contains(msgs, `"kind":"settle"`) {
		t.Errorf("no round was settled on the socket")
	}
}

// choose picks a language in the header's switch, as a player does.
func choose(t testing.TB, ctx context.Context, lang string) {
	t.Helper()
	eval[bool](t, ctx, fmt.Sprintf(`(() => { const s = document.getElementById('lang'); s.focus(); s.value = %q; s.dispatchEvent(new Event('change', { bubbles: true })); return true })()`, lang))
}

// Money in the house's currency (`sabot serve
// --currency EUR`) in the locale's format: "1.000,00 €" in Spanish and
// Italian, "€1,000.00" in English, on the login page and in the header.
func TestCurrency(t *testing.T) {
	t.Parallel()
	site := MustStart(t, slow, func(s *server.Server) { s.WelcomeCredit = 100000; s.Currency = "EUR" })
	ctx := page(t, 1280, 900)
	open(t, ctx, site, "/login", "#name")
	waitJS(t, ctx, "the welcome credit in euros", `/€1,000\.00/.test(document.getElementById('welcome').textContent)`)
	register(t, ctx, site, "José")
	for _, c := range []struct{ lang, want string }{{"es", `^1\.000,00\s€$`}, {"it", `^1\.000,00\s€$`}, {"en", `^€1,000\.00$`}} {
		choose(t, ctx, c.lang)
		waitJS(t, ctx, "the balance in "+c.lang, fmt.Sprintf(`document.documentElement.lang === %q && new RegExp(%q).test(document.getElementById('balance').textContent)`, c.lang, c.want))
	}
}
