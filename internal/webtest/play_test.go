package webtest

import (
	"sabot/internal/actor"
	"strings"
	"testing"
	"time"

	"github.com/chromedp/chromedp"
)

// The server restarts in the middle of a player's decision: the page
// reconnects, gets the rebuilt table (a new epoch: a snapshot) and the
// player goes on.
func TestReconnectAfterRestart(t *testing.T) {
	t.Parallel()
	g := newGame(t, slow, "Reference", "vegas-s17")
	ana := g.join(t, "ana")
	sit(t, ana, 1)
	// ana TS 8H = 18; the dealer 9D up, 7C in the hole (no peek under a 9), draws 2S: 18.
	g.force(t, "TS 9D 8H 7C 2S")
	bet(t, ana, 1, 0)
	waitKey(t, ana, "ana's decision", "s")
	epoch := eval[string](t, ana, `document.querySelector('.conn').dataset.epoch`)

	g.site.Restart(t)
	waitJS(t, ana, "back live after the restart", `document.querySelector('.conn').dataset.epoch !== '`+epoch+`' && document.querySelector('.conn').classList.contains('open') && !!document.querySelector('.prompt:not([hidden]) button.act-stand')`)
	if got := eval[string](t, ana, `document.querySelector('.box[data-box="1"] .total').textContent + ' vs ' + document.querySelector('.dealer .total').textContent`); got != "18 vs 9" {
		t.Errorf("after the restart the page shows %q", got)
	}
	click(t, ana, `.prompt button.act-stand`)
	waitJS(t, ana, "the push", `!!document.querySelector('.box[data-box="1"] .badge.push') && document.querySelector('.dealer .total').textContent === '18'`)
	waitBalance(t, ana, "the balance", "1,000.00")
}

// Insurance (ES-11, VE-15) is offered under a dealer Ace with its stake;
// the peek finds the dealer's blackjack; insurance pays 2 to 1.
func TestInsurance(t *testing.T) {
	t.Parallel()
	g := newGame(t, slow, "Reference", "vegas-s17")
	ana := g.join(t, "ana")
	sit(t, ana, 1)
	// ana TS 9H = 19; the dealer AD up, KC in the hole: blackjack.
	g.force(t, "TS AD 9H KC")
	bet(t, ana, 1, 500)
	waitKey(t, ana, "the insurance window", "i")
	if got := keys(t, ana); got != "i n" {
		t.Errorf("the insurance window offers %q, want i n", got)
	}
	prompt := eval[string](t, ana, `document.querySelector('.prompt').innerText`)
	if !strings.Contains(prompt, "Insurance pays 2 to 1, up to 2.50") || eval[string](t, ana, `document.querySelector('.stake-input').value`) != "2.50" {
		t.Errorf("the insurance prompt: %q", prompt)
	}
	if lbl := eval[string](t, ana, `document.querySelector('label[for="' + document.querySelector('.stake-input').id + '"]')?.textContent || ''`); !strings.Contains(lbl, "Insurance stake") {
		t.Errorf("the stake input's label: %q", lbl)
	}
	eval[chromedp.Void](t, ana, `document.querySelector('.stake-input').value = ''`)
	do(t, ana, "a smaller insurance", chromedp.SendKeys(chromedp.CSS(".stake-input"), "1.5"))
	click(t, ana, `.prompt button.act-insure`)
	waitJS(t, ana, "the dealer's blackjack", `document.querySelector('.dealer .total')?.textContent === 'Blackjack' && !!document.querySelector('.box[data-box="1"] .badge.lose')`)
	spot := eval[string](t, ana, `document.querySelector('.box[data-box="1"] .spot.holder').getAttribute('aria-label')`)
	if !strings.Contains(spot, "insurance 1.50") || !strings.Contains(spot, "net −2.00") {
		t.Errorf("box 1's spot: %q", spot)
	}
	// −5.00 on the hand, +3.00 on the insurance.
	waitBalance(t, ana, "the balance", "998.00")
}

// A player who does not decide in time: the timer runs down on the page,
// and the default the table publishes applies, said as such.
func TestTimeout(t *testing.T) {
	t.Parallel()
	g := newGame(t, actor.Timing{BetWindow: time.Minute, Decision: 3 * time.Second, Window: time.Second}, "Reference", "vegas-s17")
	ana := g.join(t, "ana")
	sit(t, ana, 1)
	// ana TS 8H = 18; the dealer 9D, 7C, draws 5S: 21.
	g.force(t, "TS 9D 8H 7C 5S")
	bet(t, ana, 1, 0)
	waitJS(t, ana, "ana's decision and its timer", `!!document.querySelector('.prompt:not([hidden])') && !document.querySelector('.timer').hidden && !document.querySelector('.box[data-box="1"] .box-timer').hidden`)
	status := text(t, ana, ".status-text")
	if !strings.Contains(status, "If time runs out: stand.") {
		t.Errorf("the status: %q", status)
	}
	waitJS(t, ana, "the timeout", `document.querySelector('.calls').innerText.includes('Time is up: Box 1 stands on 18.')`)
	waitJS(t, ana, "the settlement", `!!document.querySelector('.box[data-box="1"] .badge.lose') && document.querySelector('.dealer .total').textContent === '21'`)
}

// The table can be played without a mouse and read without eyes: every
// control has a name, every card is announced, the dealer's calls go to a
// live region, the decision takes the focus, and text has contrast.
func TestAccessible(t *testing.T) {
	t.Parallel()
	g := newGame(t, slow, "Venezia", "venice")
	ana := g.join(t, "ana")
	sit(t, ana, 1)
	g.force(t, "TS 5H 6D 9C 4C TD TC 9S")
	bet(t, ana, 1, 0)
	bet(t, ana, 2, 0)
	waitKey(t, ana, "the decision", "s")

	unnamed := eval[[]string](t, ana, `[...document.querySelectorAll('button, a, input, [role="img"], img, [role="radio"]')].filter(e => {
		if (e.tagName === 'IMG') return !e.alt;
		if (e.tagName === 'INPUT') return !(e.labels?.length || e.getAttribute('aria-label'));
		return !(e.getAttribute('aria-label') || e.textContent.trim());
	}).map(e => e.outerHTML.slice(0, 120))`)
	if len(unnamed) > 0 {
		t.Errorf("controls without a name: %v", unnamed)
	}
	cards := eval[string](t, ana, `[...document.querySelectorAll('.box[data-box="1"] .card')].map(c => c.getAttribute('aria-label')).join(', ')`)
	if cards != "ten of spades, nine of clubs" {
		t.Errorf("box 1's cards read as %q", cards)
	}
	if got := eval[string](t, ana, `document.activeElement.textContent`); !strings.HasPrefix(got, "Hit") {
		t.Errorf("the focus is on %q, not the first decision", got)
	}
	live := eval[string](t, ana, `document.getElementById('announce').getAttribute('aria-live') + ' ' + document.getElementById('announce-urgent').getAttribute('aria-live')`)
	if live != "polite assertive" {
		t.Errorf("live regions: %q", live)
	}
	waitJS(t, ana, "the turn announced", `document.getElementById('announce-urgent').textContent === 'Your turn: Box 1.'`)
	press(t, ana, "stand", "s")
	waitJS(t, ana, "a dealer's call read out", `document.getElementById('announce').textContent.startsWith('Box 1 stands on 19')`)

	// Contrast (WCAG AA): text on the panels and the felt's badges.
	low := eval[[]string](t, ana, contrastJS)
	if len(low) > 0 {
		t.Errorf("text with too little contrast: %v", low)
	}
}

// contrastJS lists text whose contrast with its background is below WCAG
// AA (4.5:1, 3:1 for large text), for text on a plain background colour.
const contrastJS = `(() => {
	const rgb = s => { const m = s.match(/[\d.]+/g).map(Number); return { r: m[0], g: m[1], b: m[2], a: m.length > 3 ? m[3] : 1 } };
	const lum = c => { const f = v => { v /= 255; return v <= 0.03928 ? v / 12.92 : ((v + 0.055) / 1.055) ** 2.4 }; return 0.2126 * f(c.r) + 0.7152 * f(c.g) + 0.0722 * f(c.b) };
	const bg = e => { for (; e; e = e.parentElement) { const s = getComputedStyle(e); if (s.backgroundImage !== 'none' && !e.matches('.total, .badge, .net')) return null; const c = rgb(s.backgroundColor); if (c.a > 0.5) return c } return rgb(getComputedStyle(document.body).backgroundColor) };
	const out = [];
	for (const e of document.querySelectorAll('.top *, .console *, .rules-panel *, .felt .total, .felt .badge, .felt .net')) {
		if (!e.childNodes.length || ![...e.childNodes].some(n => n.nodeType === 3 && n.textContent.trim())) continue;
		const s = getComputedStyle(e);
		if (s.visibility === 'hidden' || s.display === 'none' || e.closest('[hidden]') || e.closest('.visually-hidden') || e.disabled) continue;
		const b = bg(e);
		if (!b) continue;
		const f = rgb(s.color);
		const [l1, l2] = [lum(f), lum(b)].sort((x, y) => y - x);
		const ratio = (l1 + 0.05) / (l2 + 0.05);
		const large = parseFloat(s.fontSize) >= 24 || parseFloat(s.fontSize) >= 18.66 && Number(s.fontWeight) >= 700;
		if (ratio < (large ? 3 : 4.5)) out.push(e.textContent.trim().slice(0, 40) + ' ' + ratio.toFixed(2));
	}
	return out;
})()`

// The cut card (EG-04, AR-08): when it comes out, the dealer says this is
// the shoe's last round and the shoe shows it; after that round the shoe
// is over and its seed published. The rounds are dealt from a real shoe
// (one deck, the cut card 20 cards in), so their cards are unknown: the
// player bets again after each round and stands whenever he may.
func TestCutCard(t *testing.T) {
	t.Parallel()
	g := newGame(t, slow, "Short shoe", "vegas-s17", "decks", "1", "burn_cards", "0", "cut_card_reserve", "32")
	ana := g.join(t, "ana")
	sit(t, ana, 1)
	sawCut := false
	for deadline := time.Now().Add(40 * time.Second); time.Now().Before(deadline); {
		state := eval[string](t, ana, `(() => {
			const calls = document.querySelector('.calls').innerText;
			if (calls.includes('is over: its seed is published')) return 'over';
			const cut = calls.includes('The cut card is out: this is the last round of the shoe (EG-04).') && document.querySelector('.shoe .cut')?.textContent === 'Cut card: last round';
			const p = document.querySelector('.prompt:not([hidden])');
			if (p) p.querySelector('button.act-stand, button.act-decline, button').click();
			else if (!document.querySelector('.mybets')) document.querySelector('.box[data-box="1"] .spot.holder.open')?.click();
			return cut ? 'cut' : 'playing';
		})()`)
		if state == "cut" {
			sawCut = true
		}
		if state == "over" {
			break
		}
		do(t, ana, "wait", chromedp.Sleep(150*time.Millisecond))
	}
	if !sawCut {
		t.Errorf("the cut card was never announced on the page")
	}
	waitJS(t, ana, "the shoe over", `document.querySelector('.calls').innerText.includes('Shoe `+itoa(g.table)+`-1 is over: its seed is published for verification.')`)
}

// The Desafío (AR-10) is offered on a first-card Ace before the second
// card; the Ace is then declared 1 or 11 (AR-11) before any other decision.
func TestChallengeAndDeclaration_AR10_AR11(t *testing.T) {
	t.Parallel()
	g := newGame(t, slow, "Buenos Aires", "argentina", "min_bets_to_start", "1")
	ana := g.join(t, "ana")
	sit(t, ana, 1)
	// ana AS, then 6H: no ten, the challenge is lost; the dealer 9D and 8C: 17.
	g.force(t, "AS 9D 6H 8C")
	bet(t, ana, 1, 100)
	waitKey(t, ana, "the challenge", "c")
	if got := keys(t, ana); got != "c n" {
		t.Errorf("the challenge window offers %q, want c n", got)
	}
	if got := text(t, ana, ".prompt-text"); !strings.Contains(got, "your first card is an Ace") || !strings.Contains(got, "(0.50)") {
		t.Errorf("the challenge prompt: %q", got)
	}
	press(t, ana, "challenge", "c")
	waitKey(t, ana, "the declaration", "e")
	if got := keys(t, ana); got != "1 e" {
		t.Errorf("with A-6, ana is offered %q, want 1 e: declare first (AR-11)", got)
	}
	if got := text(t, ana, ".prompt-text"); !strings.Contains(got, "Declare your Ace 1 or 11 first (AR-11)") {
		t.Errorf("the declaration prompt: %q", got)
	}
	press(t, ana, "the Ace counts 11", "e")
	waitJS(t, ana, "17, then hit or stand", `document.querySelector('.box[data-box="1"] .total').textContent === '17' && !!document.querySelector('.prompt:not([hidden]) button.act-stand')`)
	if got := keys(t, ana); got != "h s" {
		t.Errorf("after the declaration ana is offered %q, want h s", got)
	}
	if got := eval[string](t, ana, `document.querySelector('.box[data-box="1"] .spot.holder').getAttribute('aria-label')`); !strings.Contains(got, "challenge 0.50") {
		t.Errorf("box 1's spot: %q", got)
	}
	press(t, ana, "stand", "s")
	waitJS(t, ana, "the push", `!!document.querySelector('.box[data-box="1"] .badge.push') && document.querySelector('.dealer .total').textContent === '17'`)
	// The hand pushes; the challenge loses its 0.50.
	waitBalance(t, ana, "the balance", "999.50")
}
