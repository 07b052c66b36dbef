package webtest

import (
	"context"
	"encoding/json"
	"regexp"
	"strings"
	"testing"

	"github.com/chromedp/chromedp"
	"github.com/chromedp/chromedp/kb"
)

// A player registers, sits, bets with chips, plays a forced-card round to
// the end with the keyboard and the buttons, and sees her balance; then she
// recalls the round and replays it step by step.
func TestPlayRound(t *testing.T) {
	t.Parallel()
	g := newGame(t, slow, "Venezia 1", "venice")
	site, tb := g.site, g.table
	ana := g.player(t, "ana")

	// The lobby: the table, its limits, free boxes and house edge.
	open(t, ana, site, "/", ".table-card")
	waitJS(t, ana, "the house edge", `/\d\.\d\d%/.test(document.querySelector('.table-card .edge').textContent)`)
	card := eval[string](t, ana, `document.querySelector('.table-card').innerText`)
	for _, want := range []string{"Venezia 1", "venice", "1.00 – 1,000.00", "7 of 7 free", "back bets 2 per box", "RTP 99.4"} {
		if !strings.Contains(card, want) {
			t.Errorf("the lobby's table says %q, without %q", card, want)
		}
	}
	if got := eval[string](t, ana, `document.getElementById('balance').textContent`); got != "1,000.00" {
		t.Errorf("balance %q after a credit of 1,000.00", got)
	}
	click(t, ana, `.table-card a.button`)
	waitJS(t, ana, "the table", `location.pathname === '/tables/`+itoa(tb)+`' && !!document.querySelector('.box[data-box="3"] .sit')`)

	// VE-20: a lone customer plays two boxes: his own and a free one (VE-17).
	sit(t, ana, 3)
	// box 3: TS 9C = 19; box 4: 5H 4C = 9, draws TD = 19; the dealer 6D, draws TC 9S: 25.
	g.force(t, "TS 5H 6D 9C 4C TD TC 9S")
	bet(t, ana, 3, 500)
	waitJS(t, ana, "the bet on box 3", `/Box 3: 5\.00/.test(document.querySelector('.mybets')?.textContent)`)
	// The bet's event and the window's deadline are two events: the
	// status says the window once the second has come.
	waitJS(t, ana, "the betting window's countdown", `/no more bets in/.test(document.querySelector('.status-text')?.textContent)`)
	bet(t, ana, 4, 0)

	// Exactly the legal decisions: 19 may hit, stand or double (VE-11).
	waitKey(t, ana, "the decision on box 3", "s")
	if got := keys(t, ana); got != "h s d" {
		t.Errorf("box 3 (19) offers %q, want h s d", got)
	}
	if got := eval[string](t, ana, `document.querySelector('.box[data-box="3"] .hand .total').textContent + ' vs ' + document.querySelector('.dealer .total').textContent`); got != "19 vs 6" {
		t.Errorf("box 3 and the dealer show %q", got)
	}
	press(t, ana, "stand with the keyboard", "s")

	// VE-06: 9 must draw: no stand.
	waitJS(t, ana, "the decision on box 4", `document.querySelector('.prompt-text')?.textContent.startsWith('Box 4')`)
	if got := keys(t, ana); got != "h d" {
		t.Errorf("box 4 (9) offers %q, want h d (VE-06: 11 or less must draw)", got)
	}
	click(t, ana, `.prompt button.act-hit`)
	waitJS(t, ana, "19 on box 4", `document.querySelector('.box[data-box="4"] .hand .total')?.textContent === '19' && !!document.querySelector('.prompt:not([hidden]) button.act-stand')`)
	click(t, ana, `.prompt button.act-stand`)

	// The dealer draws to 25 and busts: both boxes win 5.00, settled right
	// to left (VE-09).
	waitJS(t, ana, "the settlement", `document.querySelectorAll('.badge.win').length === 2`)
	if got := text(t, ana, ".dealer .total"); got != "25 bust" {
		t.Errorf("the dealer shows %q, want 25 bust", got)
	}
	waitBalance(t, ana, "the balance after the round", "1,010.00")
	calls := eval[string](t, ana, `document.querySelector('.calls').innerText`)
	for _, want := range []string{"The dealer busts with 25.", "You win 10.00.", "Box 3 stands on 19.", "Box 4: 10♦, 19."} {
		if !strings.Contains(calls, want) {
			t.Errorf("the dealer's calls lack %q:\n%s", want, calls)
		}
	}
	if got := eval[string](t, ana, `[...document.querySelectorAll('.box[data-box="3"] .spot .net, .box[data-box="4"] .spot .net')].map(n => n.textContent).join(' ')`); got != "+5.00 +5.00" {
		t.Errorf("the spots' net: %q", got)
	}

	// Recall: the round is in "My rounds"; its replay is marked as such and
	// goes step by step to the same end.
	click(t, ana, `.nav a[href="/recall"]`)
	waitJS(t, ana, "my rounds", `!!document.querySelector('table.rounds a[href="/rounds/`+itoa(tb)+`-1"]')`)
	if got := eval[string](t, ana, `document.querySelector('table.rounds tbody tr').innerText`); !strings.Contains(got, "+10.00") {
		t.Errorf("my rounds: %q", got)
	}
	click(t, ana, `table.rounds a[href="/rounds/`+itoa(tb)+`-1"]`)
	waitJS(t, ana, "the replay", `!!document.querySelector('.replay-banner') && !!document.querySelector('.felt.replay')`)
	if got := text(t, ana, ".replay-banner"); !strings.Contains(got, "REPLAY") || !strings.Contains(got, "not a live game") {
		t.Errorf("the replay banner: %q", got)
	}
	if n := eval[int](t, ana, `document.querySelectorAll('.felt.replay .card').length`); n != 0 {
		t.Errorf("the replay starts with %d cards on the felt", n)
	}
	do(t, ana, "next step", chromedp.KeyEvent(kb.ArrowRight), chromedp.KeyEvent(kb.ArrowRight))
	waitJS(t, ana, "the first card", `document.querySelectorAll('.felt.replay .card').length === 1`)
	if got := text(t, ana, ".step-line"); !strings.Contains(got, "step 2 of") || !strings.Contains(got, "Box 3: 10♠") {
		t.Errorf("step 2 says %q", got)
	}
	steps := eval[string](t, ana, `document.querySelector('.steps').innerText`)
	for _, want := range []string{"Bets: ana 5.00 on box 3, ana 5.00 on box 4.", "Box 3 stands on 19. (by ana", "Dealer draws 9♠: 25 bust.", "Settlement: ana box 4 main: win +5.00; ana box 3 main: win +5.00."} {
		if !strings.Contains(steps, want) {
			t.Errorf("the replay's steps lack %q:\n%s", want, steps)
		}
	}
	do(t, ana, "the last step", chromedp.KeyEvent(kb.End))
	waitJS(t, ana, "the end of the replay", `document.querySelector('.felt.replay .dealer .total').textContent === '25 bust' && document.querySelectorAll('.felt.replay .badge.win').length === 2`)
	record := eval[string](t, ana, `document.querySelector('.replay-summary').innerText`)
	for _, want := range []string{"forced cards, test mode", "990.00", "1,010.00", "+10.00", "10♠ 5♥ 6♦ 9♣ 4♣ 10♦ 10♣ 9♠"} {
		if !strings.Contains(record, want) {
			t.Errorf("the record lacks %q:\n%s", want, record)
		}
	}
}

// Two players at one table see the same table, each deciding only for
// himself.
func TestTwoBrowsers(t *testing.T) {
	t.Parallel()
	g := newGame(t, slow, "Venezia 2", "venice")
	ana, ben := g.join(t, "ana"), g.join(t, "ben")
	sit(t, ana, 1)
	sit(t, ben, 2)
	for _, ctx := range []context.Context{ana, ben} {
		waitJS(t, ctx, "both seated", `/ana/.test(document.querySelector('.box[data-box="1"] .plate').textContent) && /ben/.test(document.querySelector('.box[data-box="2"] .plate').textContent)`)
	}
	// ana 9S 8C = 17, ben TH 9H = 19, the dealer 7D, draws TD: 17.
	g.force(t, "9S TH 7D 8C 9H TD")
	bet(t, ana, 1, 0)
	waitJS(t, ben, "ana's bet, seen by ben", `document.querySelector('.box[data-box="1"] .spot.holder .amount')?.textContent === '5.00'`)
	bet(t, ben, 2, 0)

	same := func(what string) string {
		t.Helper()
		var a, b string
		for range 100 {
			a = eval[string](t, ana, feltSig)
			b = eval[string](t, ben, feltSig)
			if a == b {
				return a
			}
			do(t, ana, "wait", chromedp.Sleep(50e6))
		}
		t.Fatalf("%s: ana and ben see different tables:\nana %s\nben %s", what, a, b)
		return ""
	}
	waitKey(t, ana, "ana's turn", "s")
	waitJS(t, ben, "ben waits for ana", `/waiting for ana/.test(document.querySelector('.status-text').textContent)`)
	sig := same("ana's turn")
	if !strings.Contains(sig, "9S 8C = 17") || !strings.Contains(sig, "TH 9H = 19") || !strings.Contains(sig, `"dealer":"7D 7"`) {
		t.Errorf("the table: %s", sig)
	}
	if got := keys(t, ben); got != "" {
		t.Errorf("ben is offered %q on ana's turn", got)
	}
	click(t, ana, `.prompt button.act-stand`)
	waitKey(t, ben, "ben's turn", "s")
	waitJS(t, ana, "ana waits for ben", `/waiting for ben/.test(document.querySelector('.status-text').textContent)`)
	if got := keys(t, ana); got != "" {
		t.Errorf("ana is offered %q on ben's turn", got)
	}
	same("ben's turn")
	press(t, ben, "stand with the keyboard", "s")
	for _, ctx := range []context.Context{ana, ben} {
		waitJS(t, ctx, "the settlement", `!!document.querySelector('.box[data-box="1"] .badge.push') && !!document.querySelector('.box[data-box="2"] .badge.win')`)
	}
	sig = same("the settlement")
	if !strings.Contains(sig, `"dealer":"7D TD 17"`) {
		t.Errorf("after the round: %s", sig)
	}
	waitBalance(t, ana, "ana's balance (a push)", "1,000.00")
	waitBalance(t, ben, "ben's balance (a win)", "1,005.00")
}

// A back bettor (VE-03) sees his stake on the box holder's box, is asked
// only where the rules give him a choice (VE-12: follow the split), and is
// paid with the box.
func TestBackBettor(t *testing.T) {
	t.Parallel()
	g := newGame(t, slow, "Venezia 3", "venice")
	ana, ben := g.join(t, "ana"), g.join(t, "ben")
	sit(t, ana, 1)
	waitJS(t, ben, "ana at box 1", `/ana/.test(document.querySelector('.box[data-box="1"] .plate').textContent)`)
	if n := eval[int](t, ben, `document.querySelectorAll('.box[data-box="1"] .spot.holder.open').length`); n != 0 {
		t.Errorf("ben may bet on ana's own spot")
	}
	// ana 8S 8C splits: TS and TH, 18 and 18; the dealer 9D, draws 8D: 17.
	g.force(t, "8S 9D 8C TS TH 8D")
	click(t, ben, `.box[data-box="1"] .spot.back.open`)
	waitJS(t, ben, "ben's back bet", `document.querySelector('.box[data-box="1"] .spot.back.mine .amount')?.textContent === '5.00'`)
	if got := text(t, ben, ".mybets"); !strings.Contains(got, "Box 1 (behind ana): 5.00") {
		t.Errorf("ben's bets: %q", got)
	}
	bet(t, ana, 1, 0)

	waitKey(t, ana, "ana's turn", "p")
	if got := keys(t, ana); got != "h s d p" {
		t.Errorf("ana (8-8) is offered %q", got)
	}
	waitJS(t, ben, "the deal, seen by ben", `document.querySelectorAll('.box[data-box="1"] .card').length === 2`)
	if got := keys(t, ben); got != "" {
		t.Errorf("the back bettor is offered %q on the box holder's decision (VE-03)", got)
	}
	spots := eval[string](t, ben, `[...document.querySelectorAll('.box[data-box="1"] .spot')].map(s => s.className.replace(/\s+/g, '.') + ':' + (s.querySelector('.who')?.textContent || '')).join(' ')`)
	if !regexp.MustCompile(`spot\.back\.mine\.taken:you spot\.holder\.taken:ana spot\.back:`).MatchString(spots) {
		t.Errorf("box 1's spots, seen by ben: %s", spots)
	}

	press(t, ana, "split with the keyboard", "p")
	waitKey(t, ben, "ben asked to follow the split", "p")
	if got := keys(t, ben); got != "p n" {
		t.Errorf("ben is offered %q in the follow window, want p n", got)
	}
	if got := text(t, ben, ".prompt-text"); !strings.Contains(got, "the box holder splits") {
		t.Errorf("ben's prompt: %q", got)
	}
	press(t, ben, "follow the split", "p")
	waitJS(t, ana, "ana's first hand", `document.querySelectorAll('.box[data-box="1"] .hand').length === 2 && !!document.querySelector('.prompt:not([hidden]) button.act-stand')`)
	click(t, ana, `.prompt button.act-stand`)
	waitJS(t, ana, "ana's second hand", `document.querySelector('.box[data-box="1"] .hand.current .total')?.textContent === '18'  && document.querySelectorAll('.box[data-box="1"] .hand')[1].classList.contains('current')`)
	click(t, ana, `.prompt button.act-stand`)

	waitJS(t, ben, "the settlement, seen by ben", `document.querySelectorAll('.box[data-box="1"] .badge.win').length === 2`)
	if got := eval[string](t, ben, `document.querySelector('.box[data-box="1"] .spot.back.mine').innerText.replace(/\s+/g, ' ')`); !strings.Contains(got, "+10.00") || !strings.Contains(got, "10.00") {
		t.Errorf("ben's spot after the round: %q", got)
	}
	waitBalance(t, ben, "ben's balance", "1,010.00")
	waitBalance(t, ana, "ana's balance", "1,010.00")
}

// The hole card (AR-09) and a double's face-down card (AR-17) are in
// neither the page nor anything the browser receives, WebSocket frames and
// API responses, before they are turned.
func TestHiddenCardsNeverInThePage_AR09_AR17(t *testing.T) {
	t.Parallel()
	g := newGame(t, slow, "Buenos Aires", "argentina", "min_bets_to_start", "1")
	ana := g.join(t, "ana")
	log := g.logs[ana]
	// A player may hold several boxes (AR-04): the round is dealt once he
	// has bet on each.
	sit(t, ana, 1)
	sit(t, ana, 2)
	// box 1: 5S 6C = 11, doubles: 4D face down; box 2: TS 8H = 18; the
	// dealer 9D up, QC in the hole.
	g.force(t, "5S TS 9D 6C 8H QC 4D")
	bet(t, ana, 1, 100)
	waitJS(t, ana, "the bet on box 1", `/Box 1: 1\.00/.test(document.querySelector('.mybets')?.textContent)`)
	bet(t, ana, 2, 0)
	waitJS(t, ana, "box 1's decision", `document.querySelector('.prompt-text')?.textContent.startsWith('Box 1')`)
	if got := keys(t, ana); got != "h s d" {
		t.Errorf("box 1 (11) offers %q, want h s d (AR-17: double on 11)", got)
	}
	if n := eval[int](t, ana, `document.querySelectorAll('.double-stake').length`); n != 0 {
		t.Errorf("a stake for the double is asked at argentina, which doubles for the stake only (no VE-19)")
	}
	if got := eval[string](t, ana, `[...document.querySelectorAll('.dealer .card')].map(c => c.dataset.card || 'back').join(' ') + ' = ' + document.querySelector('.dealer .total').textContent`); got != "9D back = 9" {
		t.Errorf("the dealer shows %q, want 9D and a card face down, total 9", got)
	}
	noSecret := func(when string, secrets ...string) {
		t.Helper()
		html := eval[string](t, ana, `document.documentElement.outerHTML`)
		for _, s := range secrets {
			for _, shown := range shownAs(s) {
				if strings.Contains(html, shown) {
					t.Errorf("%s: the page shows %s as %q", when, s, shown)
				}
			}
			for _, f := range log.allFrames() {
				if strings.Contains(f, `"`+s+`"`) {
					t.Errorf("%s: a WebSocket frame has %s: %s", when, s, f)
				}
			}
			for _, r := range log.bodies(t, ana) {
				if b := body(ana, r.id); strings.Contains(b, `"`+s+`"`) {
					t.Errorf("%s: %s has %s: %s", when, r.url, s, b)
				}
			}
		}
	}
	noSecret("before the double", "QC", "4D")

	press(t, ana, "double with the keyboard", "d")
	waitJS(t, ana, "box 2's decision", `document.querySelector('.prompt-text')?.textContent.startsWith('Box 2')`)
	if got := keys(t, ana); got != "h s" {
		t.Errorf("box 2 (18) offers %q, want h s", got)
	}
	if got := eval[string](t, ana, `[...document.querySelectorAll('.box[data-box="1"] .card')].map(c => c.dataset.card || 'back').join(' ') + ' = ' + document.querySelector('.box[data-box="1"] .total').textContent`); got != "5S 6C back = 11 + ?" {
		t.Errorf("box 1 after the double shows %q", got)
	}
	// Refresh the page: the snapshot, too, keeps them secret.
	open(t, ana, g.site, g.path(), ".box .plate")
	waitJS(t, ana, "box 2's decision again", `document.querySelector('.prompt-text')?.textContent.startsWith('Box 2')`)
	noSecret("after the double", "QC", "4D")

	click(t, ana, `.prompt button.act-stand`)
	waitJS(t, ana, "the cards turned", `!!document.querySelector('.dealer .card[data-card="QC"]') && !!document.querySelector('.box[data-box="1"] .card[data-card="4D"]') && document.querySelectorAll('.badge.lose').length === 2`)
	if got := eval[string](t, ana, `document.querySelector('.dealer .total').textContent + ' / ' + document.querySelector('.box[data-box="1"] .total').textContent`); got != "19 / 15" {
		t.Errorf("after the round: %q, want 19 / 15", got)
	}
	// In the frames, each secret first comes in its reveal event.
	for _, s := range []string{"QC", "4D"} {
		for _, f := range log.allFrames() {
			if !strings.Contains(f, `"`+s+`"`) {
				continue
			}
			var m struct {
				Event struct{ Kind, Card string }
			}
			json.Unmarshal([]byte(f), &m)
			if m.Event.Kind != "reveal" || m.Event.Card != s {
				t.Errorf("%s first came in %s", s, f)
			}
			break
		}
	}
	waitBalance(t, ana, "the balance", "997.00")
}

// shownAs is how a card could appear in a page: its code, its name, its
// rank and suit.
func shownAs(code string) []string {
	names := map[string][]string{
		"QC": {`"QC"`, "queen of clubs", "Q♣"},
		"4D": {`"4D"`, "four of diamonds", "4♦"},
	}
	return names[code]
}
