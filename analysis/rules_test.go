package analysis

import (
	"context"
	"math"
	"testing"

	"sabot/card"
	"sabot/rules"
)

func handEV(t *testing.T, r *Result, up, c1, c2, code string) float64 {
	t.Helper()
	for _, h := range r.Hands {
		if h.Up == up && (h.Cards == [2]string{c1, c2} || h.Cards == [2]string{c2, c1}) {
			v, ok := h.EV[code]
			if !ok {
				t.Fatalf("%s vs %s,%s: no decision %s in %v", up, c1, c2, code, h.EV)
			}
			return v
		}
	}
	t.Fatalf("no hand %s,%s vs %s", c1, c2, up)
	return 0
}

// AR-10: the challenge is half the stake on the second card being
// ten-value, paid 2:1. Given the player's Ace and the dealer's up card the
// shoe holds 128 tens (127 under a ten) among 414 cards in 8 decks: it
// returns 3*128/414 - 1 = -7.25 % of its stake (-7.97 % under a ten), so a
// player should never take it, and a profile with it is worth exactly the
// same as one without.
func TestChallenge(t *testing.T) {
	r := analyze(t, "argentina")
	if len(r.Challenge) != kinds {
		t.Fatalf("%d challenge rows", len(r.Challenge))
	}
	for _, c := range r.Challenge {
		tens := 128.0
		if c.Up == "T" {
			tens = 127
		}
		if math.Abs(c.PTen-tens/414) > 1e-15 || math.Abs(c.EV-(3*tens/414-1)) > 1e-15 || c.Advised {
			t.Errorf("up %s: P(ten) %.15f EV %.15f advised %v", c.Up, c.PTen, c.EV, c.Advised)
		}
	}
	if r.TD.Challenge != 0 || r.CD.Challenge != 0 {
		t.Error("the challenge is taken")
	}
	off := analyze(t, "argentina", "challenge_split_aces=false", "challenge=false")
	if off.CD.EV != r.CD.EV {
		t.Errorf("argentina with the challenge %.9f, without %.9f", r.CD.EV, off.CD.EV)
	}
	// One deck: 16 tens among 50 cards: still 3*16/50 - 1 = -4 %.
	one := analyze(t, "argentina", "decks=1", "min_cut=0", "cut_card_reserve=0", "max_hands=2")
	if c := one.Challenge[5]; math.Abs(c.EV-(3*16.0/50-1)) > 1e-15 || c.Advised {
		t.Errorf("one deck, up 6: %+v", c)
	}
}

// AR-11: a hand with an Ace among its first two cards declares it 1 or 11
// for good, and the analysis picks the better declaration. Standing on the
// declared 11 is worth what standing on the soft total is worth without the
// rule (the same 18 against the same dealer); hitting after declaring 1
// loses the Ace's flexibility, so it is worth less than hitting the soft
// hand, and the whole rule costs the player.
func TestDeclareInitialAce(t *testing.T) {
	with := analyze(t, "argentina")
	without := analyze(t, "argentina", "declare_initial_ace=false")
	for _, up := range []string{"2", "6", "9", "T"} {
		s11 := handEV(t, with, up, "A", "7", "S@11")
		s := handEV(t, without, up, "A", "7", "S")
		if math.Abs(s11-s) > 1e-12 {
			t.Errorf("A,7 vs %s: stand on a declared 11 %.9f, on soft 18 %.9f", up, s11, s)
		}
		h1 := handEV(t, with, up, "A", "5", "H@1")
		h := handEV(t, without, up, "A", "5", "H")
		if h1 >= h {
			t.Errorf("A,5 vs %s: hitting a declared 1 (%.6f) is not worse than hitting soft 16 (%.6f)", up, h1, h)
		}
	}
	for _, h := range with.Hands {
		if (h.Cards[0] == "A") != (h.Cards[1] == "A") && h.Cards[0] != "T" && h.Cards[1] != "T" {
			if best := h.CD; best[len(best)-2:] != "@1" && best[len(best)-3:] != "@11" {
				t.Errorf("%v vs %s: decision %s declares nothing", h.Cards, h.Up, best)
			}
		}
	}
	if with.CD.EV >= without.CD.EV {
		t.Errorf("the declaration gains: %.6f with, %.6f without", with.CD.EV, without.CD.EV)
	}
}

// AR-19: split Aces that may draw, and a two-card 21 after a split that
// ranks as a blackjack paid 1:1. Either rule is worth something to the
// player; a split-hand 21 of Ace and ten pays 1:1, beats a dealer's
// three-card 21 and pushes a dealer blackjack (from Settle).
func TestSplitAcesAR19(t *testing.T) {
	base := analyze(t, "argentina")
	noHit := analyze(t, "argentina", "hit_split_aces=false")
	plain := analyze(t, "argentina", "split_blackjack=21")
	if !(base.CD.EV > noHit.CD.EV && base.CD.EV > plain.CD.EV) {
		t.Errorf("AR-19 rules: %.6f, without drawing %.6f, without split blackjacks %.6f", base.CD.EV, noHit.CD.EV, plain.CD.EV)
	}
	pt := newPayTable(rules.MustLookup("argentina"))
	pay := pt.of(rules.CountOf(kindCard[aceIdx], kindCard[tenIdx]), true, true)
	if pay[d21].units != 1 || pay[d20].units != 1 || pay[dBJ].units != 0 {
		t.Errorf("split Ace-ten: pays %v vs 21, %v vs 20, %v vs blackjack", pay[d21].units, pay[d20].units, pay[dBJ].units)
	}
}

// AR-19 by the letter (split_blackjack=aces-even): AR-02 makes any Ace
// and ten-value a blackjack «el 150%», and the 1:1 sentence stands only
// under «APERTURA DE "ASES"»: a split ten that draws an Ace is paid 3:2, a
// split Ace that draws a ten 1:1, both ranked as blackjacks. Splitting
// tens is worth more than under blackjack-even (which pays every split
// blackjack 1:1), by the tens' split hands' Aces at half a unit more; the
// best play never splits tens, so the house edge is the same.
func TestSplitTenBlackjackPaysInFull_AR19_AR02(t *testing.T) {
	p := rules.MustLookup("argentina")
	if err := p.Set("split_blackjack", "aces-even"); err != nil {
		t.Fatal(err)
	}
	pt := newPayTable(p)
	ten := pt.of(rules.CountOf(kindCard[tenIdx], kindCard[aceIdx]), true, false)
	aces := pt.of(rules.CountOf(kindCard[aceIdx], kindCard[tenIdx]), true, true)
	if ten[d21].units != 1.5 || ten[d20].units != 1.5 || ten[dBJ].units != 0 {
		t.Errorf("split ten-Ace: pays %v vs 21, %v vs 20, %v vs blackjack", ten[d21].units, ten[d20].units, ten[dBJ].units)
	}
	if aces[d21].units != 1 || aces[d20].units != 1 || aces[dBJ].units != 0 {
		t.Errorf("split Ace-ten: pays %v vs 21, %v vs 20, %v vs blackjack", aces[d21].units, aces[d20].units, aces[dBJ].units)
	}
	split := func(v string) float64 {
		p := rules.MustLookup("argentina")
		if err := p.Set("split_blackjack", v); err != nil {
			t.Fatal(err)
		}
		vs, err := HandValues(p, card.MustParse("6S"), card.MustParseList("TS KH"), EVOptions{})
		if err != nil || vs.Split == nil {
			t.Fatalf("%s: %v, split %v", v, err, vs)
		}
		return *vs.Split
	}
	even, letter := split("blackjack-even"), split("aces-even")
	// Each of the two hands draws an Ace about 1 time in 13: +0.5 each.
	if d := letter - even; d < 0.06 || d > 0.09 {
		t.Errorf("T-K vs 6: split %.6f under aces-even, %.6f under blackjack-even: %.6f more, want about 2×0.5/13", letter, even, d)
	}
	a, b := analyze(t, "argentina", "split_blackjack=blackjack-even"), analyze(t, "argentina", "split_blackjack=aces-even")
	if a.CD.EV != b.CD.EV {
		t.Logf("house edge: blackjack-even %.6f %%, aces-even %.6f %%", -100*a.CD.EV, -100*b.CD.EV)
	}
}

// AR-09, AR-15: a hole card that is not peeked at is worth exactly what no
// hole card is (the player learns nothing either way), and with a dealer
// blackjack taking everything both cost the player against a peek.
func TestNoPeek(t *testing.T) {
	nopeek := analyze(t, "argentina")
	none := analyze(t, "argentina", "hole_card=none")
	peek := analyze(t, "argentina", "hole_card=peek")
	if math.Abs(nopeek.CD.EV-none.CD.EV) > 1e-15 || math.Abs(nopeek.TD.EV-none.TD.EV) > 1e-15 {
		t.Errorf("no-peek %.12f, no hole card %.12f", nopeek.CD.EV, none.CD.EV)
	}
	if peek.CD.EV <= nopeek.CD.EV {
		t.Errorf("peek %.6f is no better than no-peek %.6f", peek.CD.EV, nopeek.CD.EV)
	}
	// Against a ten without a peek: never split 8,8, never double 11 (the
	// classic European basic strategy).
	card := nopeek.Basic
	if c := card.Lookup(KindPair, "8").Cells[tenIdx]; c.Act == Split {
		t.Errorf("8,8 vs T without a peek: %s", c)
	}
	if c := card.Lookup(KindHard, "11").Cells[tenIdx]; c.Act == Double {
		t.Errorf("11 vs T without a peek: %s", c)
	}
}

// VE-06: a hand of 11 or less must draw. It changes nothing for a player
// who plays best: standing at 11 or less is never better than hitting (the
// analysis proves it in standWorthy, and here it also values standing at
// every total, on one deck where card removal matters most, and finds the
// same expectation). At 21 the hand stands anyway.
func TestMustDrawVE06(t *testing.T) {
	p := rules.MustLookup("venice")
	p.Decks, p.CutCardReserve, p.MustDrawAtMost, p.MaxHands = 1, 0, 0, 2
	for up := 0; up < kinds; up++ {
		a, b := newSolver(p, up), newSolver(p, up)
		b.exhaustiveStand = true
		for x := 0; x < kinds; x++ {
			for y := x; y < kinds; y++ {
				ra, rb := a.root(x, y), b.root(x, y)
				if len(ra.cands) == 0 {
					continue
				}
				va, vb := ra.cands[ra.best].v[sEV], rb.cands[rb.best].v[sEV]
				if math.Abs(va-vb) > 1e-12 {
					t.Errorf("up %s, %s,%s: %.12f pruned, %.12f valuing every stand", kindName[up], kindName[x], kindName[y], va, vb)
				}
			}
		}
	}
	if a, b := analyze(t, "venice"), analyze(t, "venice", "must_draw_at_most=0", "stand_on_21=false"); a.CD.EV != b.CD.EV {
		t.Errorf("venice %.9f, without VE-06 %.9f", a.CD.EV, b.CD.EV)
	}
}

// VE-13: an Ace on a split ten-value may count 1 (total 11, then draw or
// double); 21 is always the better count, so the option is worth nothing
// and the card's ten-ace row stands everywhere.
func TestSplitTenAceVE13(t *testing.T) {
	r := analyze(t, "venice")
	row := r.Basic.Lookup(KindTenAce, "T,A")
	if row == nil {
		t.Fatal("no ten-ace row")
	}
	for up := 0; up < kinds; up++ {
		if row.Cells[up].Act != Stand {
			t.Errorf("T,A after a split vs %s: %s", kindName[up], row.Cells[up])
		}
	}
	s := newSolver(rules.MustLookup("venice"), 5)
	h := hand{split: true, pair: tenIdx}.with(tenIdx).with(aceIdx)
	x := pack(0).add(tenIdx)
	st, d := s.stand(h, x, 1), s.node(h.declare(1), x)
	if st[sEV] <= d[sEV] {
		t.Errorf("vs 6: 21 is worth %.6f, counting 11 %.6f", st[sEV], d[sEV])
	}
	if off := analyze(t, "venice", "split_ten_ace_choice=false"); off.CD.EV != r.CD.EV {
		t.Errorf("venice %.9f, without VE-13 %.9f", r.CD.EV, off.CD.EV)
	}
}

// VE-16, ES-10: even money pays a blackjack 1:1 at once. Against a ten
// (VE-16) the blackjack is worth 1.5 times the chance that the dealer's
// second card is not an Ace — 1.5 * 286/309 in six decks less A, T, T —
// far more than 1: never take it. Against an Ace (ES-10) it is worth
// 1.5 * (1 - 95/309): never take it either with 3:2; with 6:5, take it.
func TestEvenMoney(t *testing.T) {
	r := analyze(t, "venice")
	if got, want := handEV(t, r, "T", "A", "T", "S"), 1.5*286/309; math.Abs(got-want) > 1e-14 {
		t.Errorf("blackjack vs T: %.15f, want 1.5*286/309 = %.15f", got, want)
	}
	if got, want := handEV(t, r, "A", "A", "T", "S"), 1.5*(1-95.0/309); math.Abs(got-want) > 1e-14 {
		t.Errorf("blackjack vs A: %.15f, want %.15f", got, want)
	}
	if r.TD.EvenMoney != 0 {
		t.Error("even money taken at 3:2")
	}
	six := analyze(t, "venice", "blackjack_pays=6:5")
	// 6:5: 1.2 * (1 - 95/309) = 0.835 < 1 against an Ace, 1.2*286/309 =
	// 1.11 > 1 against a ten: even money under every Ace only.
	pA := 24.0 / 312 * (2 * 23.0 * 96 / (311 * 310))
	if math.Abs(six.TD.EvenMoney-pA) > 1e-12 {
		t.Errorf("6:5: even money taken with probability %.9f, want %.9f (blackjacks under an Ace)", six.TD.EvenMoney, pA)
	}
}

// ES-11, VE-15: insurance (half the stake, 2:1 on a dealer blackjack)
// returns 3*96/311 - 1 = -7.40 % of its stake off the top of six decks:
// never taken.
func TestInsurance(t *testing.T) {
	r := analyze(t, "spain")
	if want := 3*96.0/311 - 1; math.Abs(r.InsuranceEV-want) > 1e-15 {
		t.Errorf("insurance %.15f, want %.15f", r.InsuranceEV, want)
	}
	if r.TD.Insurance != 0 {
		t.Error("insurance taken")
	}
}

// PON-01, PON-02: a five-card 21 pays 2:1 and pushes only a dealer's
// five-card 21; three sevens pay 3:1 and beat everything, a dealer
// blackjack included. Checked on the settled values of such hands against
// the dealer's distribution.
func TestPontoonBonuses(t *testing.T) {
	p := rules.MustLookup("family")
	p.FiveCard21, p.ThreeSevens = true, true
	s := newSolver(p, aceIdx) // no hole card: the dealer may still make a blackjack
	five := hand{pair: -1}.with(1).with(1).with(2).with(3).with(tenIdx)
	v := s.stand(five, 0, 1)
	d := s.dealer(five.comp)
	want := 2*(1-d[d21Five]-d[dBJ]) - d[dBJ]
	if math.Abs(v[sEV]-want) > 1e-14 {
		t.Errorf("five-card 21 vs A: %.12f, want %.12f", v[sEV], want)
	}
	sevens := hand{pair: -1}.with(6).with(6).with(6)
	if v := s.stand(sevens, 0, 1); math.Abs(v[sEV]-3) > 1e-14 {
		t.Errorf("three sevens vs A: %.12f, want 3", v[sEV])
	}
	base := analyze(t, "family")
	bonus := analyze(t, "family", "five_card_21=true", "three_sevens=true")
	if bonus.CD.EV <= base.CD.EV {
		t.Errorf("pontoon bonuses %.6f, without %.6f", bonus.CD.EV, base.CD.EV)
	}
}

// ES-09, VE-12, AR-18: more hands by splitting never hurt; a wider
// double_on helps (AR-17, ES-08, VE-11). On family (spain's rules, one
// deck) to keep it quick.
func TestSplitAndDoubleOptions(t *testing.T) {
	t.Parallel() // pure computation on its own profiles: the package's long checks side by side
	prev := math.Inf(-1)
	for _, n := range []string{"1", "2", "3", "4"} {
		r := analyze(t, "family", "max_hands="+n)
		if r.CD.EV < prev-1e-12 {
			t.Errorf("max_hands=%s: %.6f below fewer hands %.6f", n, r.CD.EV, prev)
		}
		prev = r.CD.EV
	}
	order := []string{"11", "10-11", "9-11", "any"}
	prev = math.Inf(-1)
	for _, d := range order {
		r := analyze(t, "family", "double_on="+d)
		if r.CD.EV <= prev {
			t.Errorf("double_on=%s: %.6f not above the narrower rule's %.6f", d, r.CD.EV, prev)
		}
		prev = r.CD.EV
	}
}

// ES-12 with dealer_blackjack_takes=original: the European deal then costs
// almost nothing against a peek — only the stakes of busted split hands,
// which Settle takes before the blackjack (ES-04).
func TestOriginalBetsOnly(t *testing.T) {
	peek := analyze(t, "vegas-s17")
	obo := analyze(t, "vegas-s17", "hole_card=none", "dealer_blackjack_takes=original")
	all := analyze(t, "vegas-s17", "hole_card=none", "dealer_blackjack_takes=all")
	if d := peek.CD.EV - obo.CD.EV; d < 0 || d > 0.0002 {
		t.Errorf("peek %.6f vs original bets only %.6f", peek.CD.EV, obo.CD.EV)
	}
	if obo.CD.EV <= all.CD.EV {
		t.Error("losing everything is not worse")
	}
	if _, err := Analyze(context.Background(), &rules.Profile{}, Options{}); err == nil {
		t.Error("an invalid profile was analysed")
	}
}
