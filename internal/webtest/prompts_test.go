package webtest

import (
	"slices"
	"strings"
	"testing"

	"github.com/chromedp/chromedp"
	"github.com/chromedp/chromedp/kb"
)

// The venice tables of these tests let a lone customer play one box
// (lone_customer_boxes=1: VE-20 off), so that each scenario is one hand.

// VE-19: at venice a double may stake less than the original (paid at its
// amount) or more. The decision asks the double's stake: the original by
// default, its range shown, an amount out of range refused on the page
// with a reason and nothing sent; the arrow keys change it and Enter
// doubles. A double for 2.00 on a 5.00 stake wins 7.00.
func TestDoubleForLess_VE19(t *testing.T) {
	t.Parallel()
	g := newGame(t, slow, "Venezia", "venice", "lone_customer_boxes", "1")
	ana := g.join(t, "ana")
	sit(t, ana, 1)
	// ana 5S 6C = 11 against the dealer's 9D; the double draws TH: 21; the
	// dealer draws 8C: 17.
	g.force(t, "5S 9D 6C TH 8C")
	bet(t, ana, 1, 500)
	waitKey(t, ana, "the decision on 11", "d")
	if got := keys(t, ana); got != "h d" {
		t.Errorf("11 offers %q, want h d (VE-06: 11 must draw)", got)
	}
	waitJS(t, ana, "the double's stake", `!!document.querySelector('.double-stake')`)
	field := eval[string](t, ana, `(() => { const i = document.querySelector('.double-stake'); return i.labels[0].textContent.trim() + ' | ' + i.value + ' | ' + document.getElementById(i.getAttribute('aria-describedby').split(' ')[0]).textContent })()`)
	for _, want := range []string{"Double stake | 5.00 | ", "From 0.01 to 1,000.00 (VE-19): less than 5.00 is paid at its amount"} {
		if !strings.Contains(field, want) {
			t.Errorf("the double's stake field says %q, without %q", field, want)
		}
	}

	// Out of range: refused on the page, the stake field marked, nothing sent.
	eval[chromedp.Void](t, ana, `document.querySelector('.double-stake').value = ''`)
	do(t, ana, "a double for too much", chromedp.SendKeys(chromedp.CSS(".double-stake"), "1500"+kb.Enter))
	waitJS(t, ana, "the error", `document.querySelector('.stake-error')?.textContent !== ''`)
	if got := text(t, ana, ".stake-error"); got != "The double stake must be from 0.01 to 1,000.00: 1,500.00 is out of range." {
		t.Errorf("the error: %q", got)
	}
	if got := eval[string](t, ana, `document.activeElement.className + ' ' + document.activeElement.getAttribute('aria-invalid') + ' ' + document.querySelector('.stake-error').getAttribute('role')`); got != "stake-input double-stake true alert" {
		t.Errorf("after the error the focus and the field are %q", got)
	}
	if n := eval[int](t, ana, `document.querySelectorAll('.box[data-box="1"] .card').length`); n != 2 || keys(t, ana) != "h d" {
		t.Errorf("a refused stake was sent: %d cards, decisions %q", n, keys(t, ana))
	}

	// The keyboard: 5.00, three times down by the table minimum, is 2.00;
	// Enter doubles for it.
	eval[chromedp.Void](t, ana, `document.querySelector('.double-stake').value = '5.00'`)
	do(t, ana, "down to 2.00", chromedp.SendKeys(chromedp.CSS(".double-stake"), kb.ArrowDown+kb.ArrowDown+kb.ArrowDown))
	if got := eval[string](t, ana, `document.querySelector('.double-stake').value + '|' + document.querySelector('.stake-error').textContent`); got != "2.00|" {
		t.Errorf("after three steps down the field is %q, want 2.00 and no error", got)
	}
	do(t, ana, "double for 2.00", chromedp.SendKeys(chromedp.CSS(".double-stake"), kb.Enter))
	waitJS(t, ana, "the settlement", `!!document.querySelector('.box[data-box="1"] .badge.win') && document.querySelector('.dealer .total').textContent === '17'`)
	waitBalance(t, ana, "the balance", "1,007.00")
	if got := text(t, ana, `.box[data-box="1"] .hand .total`) + " " + text(t, ana, `.box[data-box="1"] .hand .doubled`); got != "21 +2.00" {
		t.Errorf("the hand shows %q, want 21 +2.00 (doubled for 2.00)", got)
	}
	if got := eval[string](t, ana, `document.querySelector('.box[data-box="1"] .hand').getAttribute('aria-label')`); got != "Box 1: 21, doubled for 2.00, Win" {
		t.Errorf("the hand reads %q", got)
	}
	// The stake shown: 5.00 and the double's 2.00; both win.
	if got := text(t, ana, `.box[data-box="1"] .spot.holder .amount`) + " " + text(t, ana, `.box[data-box="1"] .spot.holder .net`); got != "7.00 +7.00" {
		t.Errorf("the spot shows %q, want 7.00 +7.00", got)
	}
	waitCalls(t, ana, "Box 1 doubles for 2.00.", "You win 7.00.")

	record, rows := g.record(t, ana, 1)
	for _, want := range []string{"ana 1 1 main 5.00 win +5.00", "ana 1 1 double 2.00 win +2.00"} {
		if !slices.Contains(rows, want) {
			t.Errorf("the record's settlement lacks %q: %q", want, rows)
		}
	}
	if !strings.Contains(record, "1,007.00") || !strings.Contains(record, "+7.00") {
		t.Errorf("the record:\n%s", record)
	}
	if steps := eval[string](t, ana, `document.querySelector('.steps').innerText`); !strings.Contains(steps, "Box 1 doubles for 2.00. (by ana") {
		t.Errorf("the replay's steps:\n%s", steps)
	}
}

// ES-10: in spain a blackjack under a dealer Ace may be insured or paid
// even money at once. Taken (with the keyboard), it is paid 1:1 at once,
// and, no hand being left to play or settle, the dealer draws nothing
// (AR-14's reading).
func TestEvenMoney_ES10(t *testing.T) {
	t.Parallel()
	g := newGame(t, slow, "Madrid", "spain")
	ana := g.join(t, "ana")
	sit(t, ana, 1)
	// ana AS KH: blackjack; the dealer AD, and after the even money he
	// completes his hand (ES-05, dealer_plays=always): 9C, soft 20.
	g.force(t, "AS AD KH 9C")
	bet(t, ana, 1, 500)
	waitKey(t, ana, "the insurance window", "e")
	if got := keys(t, ana); got != "i e n" {
		t.Errorf("a blackjack under an Ace is offered %q, want i e n (ES-10: insure or even money)", got)
	}
	if got := text(t, ana, ".prompt-text"); !strings.Contains(got, "the dealer shows an Ace") || !strings.Contains(got, "Your blackjack may take even money now.") {
		t.Errorf("the prompt: %q", got)
	}
	if got := text(t, ana, `.box[data-box="1"] .hand .total`); got != "Blackjack" {
		t.Errorf("ana's hand shows %q", got)
	}
	press(t, ana, "even money", "e")
	waitJS(t, ana, "even money paid", `!!document.querySelector('.box[data-box="1"] .badge.even-money')`)
	if got := text(t, ana, `.box[data-box="1"] .badge`); got != "Even money" {
		t.Errorf("the hand's result: %q", got)
	}
	waitJS(t, ana, "the settlement", `document.querySelector('.box[data-box="1"] .spot.holder .net')?.textContent === '+5.00'`)
	waitBalance(t, ana, "the balance", "1,005.00")
	waitCalls(t, ana, "ana takes even money on box 1.", "You win 5.00.")
	if got := eval[string](t, ana, `document.querySelectorAll('.dealer .card').length + ' ' + document.querySelector('.dealer .total').textContent`); got != "2 20" {
		t.Errorf("the dealer shows %q, want A 9 (20): he completes his hand after a lone even money (ES-05)", got)
	}

	_, rows := g.record(t, ana, 1)
	if !slices.Contains(rows, "ana 1 1 main 5.00 even-money +5.00") {
		t.Errorf("the record's settlement: %q", rows)
	}
}

// VE-16: at venice even money is offered under a dealer ten too (and a
// blackjack cannot be insured, VE-15), and called even money, not
// insurance. Declined (with a click), the blackjack is paid 3
// to 2 against the dealer's 19.
func TestEvenMoneyUnderATen_VE16(t *testing.T) {
	t.Parallel()
	g := newGame(t, slow, "Venezia", "venice", "lone_customer_boxes", "1")
	ana := g.join(t, "ana")
	sit(t, ana, 1)
	// ana AS KH: blackjack; the dealer TD, draws 9C: 19.
	g.force(t, "AS TD KH 9C")
	bet(t, ana, 1, 500)
	waitKey(t, ana, "the even money window", "e")
	if got := keys(t, ana); got != "e n" {
		t.Errorf("a blackjack under a ten is offered %q, want e n (VE-16; no insurance, VE-15)", got)
	}
	if got := text(t, ana, ".prompt-text"); !strings.Contains(got, "the dealer shows a ten") || !strings.Contains(got, "Your blackjack may take even money now.") {
		t.Errorf("the prompt: %q", got)
	}
	if got := text(t, ana, ".prompt-h"); got != "Even money?" {
		t.Errorf("the prompt's heading: %q", got)
	}
	waitCalls(t, ana, "Even money is open.")
	click(t, ana, `.prompt button.act-decline`)
	waitJS(t, ana, "the settlement", `!!document.querySelector('.box[data-box="1"] .badge.blackjack') && document.querySelector('.dealer .total').textContent === '19'`)
	waitBalance(t, ana, "the balance", "1,007.50")
	if got := text(t, ana, `.box[data-box="1"] .spot.holder .net`); got != "+7.50" {
		t.Errorf("the spot's net: %q, want +7.50 (3 to 2)", got)
	}
	waitCalls(t, ana, "You pass on box 1.", "You win 7.50.")

	_, rows := g.record(t, ana, 1)
	if !slices.Contains(rows, "ana 1 1 main 5.00 blackjack +7.50") {
		t.Errorf("the record's settlement: %q", rows)
	}
}

// VE-13: at venice, after splitting tens, an Ace drawn to a split hand may
// be counted 1: the hand is then 11, must draw (VE-06) and may double. The
// choice is one button each, 1 and 11, the second marked as what time
// running out does, as the status says.
func TestSplitTenAceCountsOne_VE13(t *testing.T) {
	t.Parallel()
	g := newGame(t, slow, "Venezia", "venice", "lone_customer_boxes", "1")
	ana := g.join(t, "ana")
	sit(t, ana, 1)
	// ana TS KH splits; hand 1 draws AC (counted 1: 11), then 9C: 20; hand
	// 2 draws 7D: 17. The dealer 6D draws TC and 8S: 24.
	g.force(t, "TS 6D KH AC 9C 7D TC 8S")
	bet(t, ana, 1, 500)
	waitKey(t, ana, "the split", "p")
	press(t, ana, "split", "p")
	waitKey(t, ana, "the Ace choice", "1")
	if got := keys(t, ana); got != "1 e" {
		t.Errorf("the Ace choice offers %q, want 1 e", got)
	}
	if got := eval[string](t, ana, `[...document.querySelectorAll('.prompt button.act')].map(b => b.firstChild.textContent + (b.querySelector('.act-default') ? ' (' + b.querySelector('.act-default').textContent + ')' : '')).join(' | ')`); got != "Ace counts 1 | Ace counts 11 (if time runs out)" {
		t.Errorf("the Ace choice's buttons: %q", got)
	}
	if got := text(t, ana, ".status-text"); !strings.HasSuffix(got, "If time runs out: ace counts 11.") {
		t.Errorf("the status: %q", got)
	}
	if got := text(t, ana, ".prompt-text"); !strings.Contains(got, "Box 1 hand 1: an Ace on your split ten") || !strings.Contains(got, "(VE-13)") {
		t.Errorf("the prompt: %q", got)
	}
	if got := text(t, ana, `.box[data-box="1"] .hand .total`); got != "21" {
		t.Errorf("hand 1 (10-A) shows %q before the choice, want 21 (not a blackjack, split)", got)
	}
	press(t, ana, "the Ace counts 1", "1")
	waitJS(t, ana, "11, then hit or double", `document.querySelector('.box[data-box="1"] .hand .total').textContent === '11' && !!document.querySelector('.prompt:not([hidden]) button.act-hit')`)
	if got := keys(t, ana); got != "h d" {
		t.Errorf("hand 1 counted 11 offers %q, want h d (VE-06, VE-13)", got)
	}
	click(t, ana, `.prompt button.act-hit`)
	waitJS(t, ana, "20 on hand 1", `document.querySelector('.box[data-box="1"] .hand .total').textContent === '20' && !!document.querySelector('.prompt:not([hidden]) button.act-stand')`)
	press(t, ana, "stand on 20", "s")
	waitJS(t, ana, "hand 2", `document.querySelector('.prompt-text')?.textContent.startsWith('Box 1 hand 2: 17')`)
	press(t, ana, "stand on 17", "s")
	waitJS(t, ana, "the settlement", `document.querySelectorAll('.box[data-box="1"] .badge.win').length === 2 && document.querySelector('.dealer .total').textContent === '24 bust'`)
	waitBalance(t, ana, "the balance", "1,010.00")
	if got := eval[string](t, ana, `[...document.querySelectorAll('.box[data-box="1"] .hand .total')].map(e => e.textContent).join(' ')`); got != "20 17" {
		t.Errorf("the hands show %q, want 20 17", got)
	}
	waitCalls(t, ana, "Box 1 hand 1 counts the Ace 1: 11.")

	_, rows := g.record(t, ana, 1)
	for _, want := range []string{"ana 1 1 main 5.00 win +5.00", "ana 1 2 split 5.00 win +5.00"} {
		if !slices.Contains(rows, want) {
			t.Errorf("the record's settlement lacks %q: %q", want, rows)
		}
	}
	if steps := eval[string](t, ana, `document.querySelector('.steps').innerText`); !strings.Contains(steps, "Box 1 hand 1 counts the Ace 1: 11. (by ana") {
		t.Errorf("the replay's steps:\n%s", steps)
	}
}

// Late surrender (surrender=late, a reference table's option): offered on
// the first two cards after the peek, with R; half the stake is returned.
func TestLateSurrender(t *testing.T) {
	t.Parallel()
	g := newGame(t, slow, "Reference", "vegas-s17", "surrender", "late")
	ana := g.join(t, "ana")
	sit(t, ana, 1)
	// ana TS 6H = 16 against the dealer's TD; the hole card 7C: no
	// blackjack, the dealer has 17.
	g.force(t, "TS TD 6H 7C")
	bet(t, ana, 1, 500)
	waitKey(t, ana, "the decision on 16", "r")
	if got := keys(t, ana); got != "h s d r" {
		t.Errorf("16 offers %q, want h s d r", got)
	}
	if got := eval[string](t, ana, `document.querySelector('.prompt button.act-surrender').textContent + ' ' + document.querySelector('.prompt button.act-surrender').getAttribute('aria-keyshortcuts')`); got != "SurrenderR R" {
		t.Errorf("the surrender button: %q", got)
	}
	press(t, ana, "surrender", "r")
	waitJS(t, ana, "the settlement", `!!document.querySelector('.box[data-box="1"] .badge.surrender') && !!document.querySelector('.box[data-box="1"] .spot.holder .net')`)
	waitBalance(t, ana, "the balance", "997.50")
	if got := text(t, ana, `.box[data-box="1"] .hand .total`) + " / " + text(t, ana, `.box[data-box="1"] .badge`) + " / " + text(t, ana, `.box[data-box="1"] .spot.holder .net`); got != "16 / Surrender / −2.50" {
		t.Errorf("box 1 shows %q", got)
	}
	waitCalls(t, ana, "Box 1 surrenders.", "You lose 2.50.")

	record, rows := g.record(t, ana, 1)
	if !slices.Contains(rows, "ana 1 1 main 5.00 surrender −2.50") {
		t.Errorf("the record's settlement: %q", rows)
	}
	if !strings.Contains(record, "surrender=late") {
		t.Errorf("the record's rules:\n%s", record)
	}
}
