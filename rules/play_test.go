package rules

import (
	"fmt"
	"testing"

	"sabot/card"
)

// pos is a two-card hand of cards (a pair when both are of one value) in a
// box of hands hands, made by splitting when hands > 1.
func pos(cards string, hands int, splitAces bool) HandPos {
	c := count(cards)
	return HandPos{Count: c, Pair: c.N == 2 && pairOf(cards), Split: hands > 1, SplitAces: splitAces, Hands: hands}
}

func pairOf(cards string) bool {
	cs := card.MustParseList(cards)
	return len(cs) == 2 && cs[0].Value() == cs[1].Value()
}

// AR-18: one split per box (2 hands), K-10 is a pair; ES-09: up to 7
// hands, Aces not split again unless resplit_aces; VE-12: up to 3 hands;
// AR-19: Aces split once.
// at places a hand in its box (HandPos.Index).
func at(h HandPos, i int) HandPos { h.Index = i; return h }

func TestMaySplit_AR18_AR19_ES09_VE12(t *testing.T) {
	resplit := MustLookup("spain")
	must(t, resplit.Set("resplit_aces", "true"))
	first := MustLookup("venice")
	must(t, first.Set("resplit_hands", "first"))
	cases := []struct {
		p    *Profile
		h    HandPos
		want Bar
	}{
		{MustLookup("argentina"), pos("8S 8H", 1, false), NoBar},
		{MustLookup("argentina"), pos("KS TH", 1, false), NoBar}, // AR-18: all ten-values are equal
		{MustLookup("argentina"), pos("8S 9H", 1, false), BarPair},
		{MustLookup("argentina"), pos("8S 8H 2C", 1, false), BarCards},
		{MustLookup("argentina"), pos("8S", 2, false), BarCards},
		{MustLookup("argentina"), pos("8S 8H", 2, false), BarHands}, // AR-18: one split
		{MustLookup("argentina"), pos("AS AH", 1, false), NoBar},    // AR-19: Aces split once
		{MustLookup("argentina"), pos("AS AH", 2, true), BarHands},
		{MustLookup("spain"), pos("8S 8H", 6, false), NoBar}, // ES-09: six splits
		{MustLookup("spain"), pos("8S 8H", 7, false), BarHands},
		{MustLookup("spain"), pos("AS AH", 1, false), NoBar},
		{MustLookup("spain"), pos("AS AH", 2, true), BarResplitAces}, // ES-09: Aces not split again
		{resplit, pos("AS AH", 2, true), NoBar},
		{resplit, pos("AS AH", 7, true), BarHands},
		{MustLookup("venice"), pos("QS JH", 2, false), NoBar}, // VE-12: a new pair, one more split
		{MustLookup("venice"), pos("QS JH", 3, false), BarHands},
		{MustLookup("vegas-s17"), pos("AS AH", 2, true), BarResplitAces},
		// VE-12 under resplit_hands=first: the first hand alone.
		{MustLookup("venice"), at(pos("QS JH", 2, false), 1), NoBar},
		{first, at(pos("QS JH", 2, false), 0), NoBar},
		{first, at(pos("QS JH", 2, false), 1), BarResplitHand},
		{first, at(pos("QS JH", 3, false), 0), BarHands},
		{first, pos("QS JH", 1, false), NoBar},
	}
	for _, c := range cases {
		t.Run(fmt.Sprintf("%s/%s/%d-hands/at-%d", c.p.Name, fmtCount(c.h), c.h.Hands, c.h.Index), func(t *testing.T) {
			if got := c.p.SplitBar(c.h); got != c.want {
				t.Errorf("SplitBar = %d, want %d", got, c.want)
			}
			if got := c.p.MaySplit(c.h); got != (c.want == NoBar) {
				t.Errorf("MaySplit = %v", got)
			}
		})
	}
}

// AR-17: double on 11 only, not after a split; ES-08: 9 to 11, after a
// split too; VE-11: any two cards, VE-13: after a split too; AR-19,
// ES-09, VE-14: split Aces take one card (hit_split_aces lets them draw
// and double).
func TestMayDouble_AR17_AR19_ES08_ES09_VE11_VE13(t *testing.T) {
	hitAces := MustLookup("spain")
	must(t, hitAces.Set("hit_split_aces", "true"))
	cases := []struct {
		p    *Profile
		h    HandPos
		want Bar
	}{
		{MustLookup("argentina"), pos("5S 6H", 1, false), NoBar},
		{MustLookup("argentina"), pos("5S 5H", 1, false), BarTotal},
		{MustLookup("argentina"), pos("5S 6H", 2, false), BarAfterSplit}, // AR-17
		{MustLookup("argentina"), pos("5S 3H 3C", 1, false), BarCards},
		{MustLookup("argentina"), pos("AS KH", 2, true), BarAfterSplit},
		{MustLookup("spain"), pos("4S 5H", 1, false), NoBar},
		{MustLookup("spain"), pos("4S 5H", 3, false), NoBar}, // ES-08 (reading): after a split
		{MustLookup("spain"), pos("4S 4H", 1, false), BarTotal},
		{MustLookup("spain"), pos("AS TH", 2, true), BarSplitAces}, // ES-09: one card each
		{MustLookup("spain"), pos("AS 9H", 2, true), BarSplitAces},
		{hitAces, pos("AS 9H", 2, true), NoBar}, // soft 20 counts 10 with the Ace as 1
		{MustLookup("venice"), pos("9S 9H", 1, false), NoBar},
		{MustLookup("venice"), pos("KS 9H", 2, false), NoBar}, // VE-13: after a split
		{MustLookup("venice"), pos("KS 9H 2C", 2, false), BarCards},
	}
	for _, c := range cases {
		t.Run(fmt.Sprintf("%s/%s/%d-hands", c.p.Name, fmtCount(c.h), c.h.Hands), func(t *testing.T) {
			if got := c.p.DoubleBar(c.h); got != c.want {
				t.Errorf("DoubleBar = %d, want %d", got, c.want)
			}
			if got := c.p.MayDouble(c.h); got != (c.want == NoBar) {
				t.Errorf("MayDouble = %v", got)
			}
		})
	}
}

// ES-09, VE-14: split Aces take one card; AR-19 (reading) and
// hit_split_aces: they draw.
func TestOneCard_AR19_ES09_VE14(t *testing.T) {
	for _, c := range []struct {
		p    string
		h    HandPos
		want bool
	}{
		{"spain", pos("AS 7H", 2, true), true},
		{"spain", pos("AS", 2, true), false}, // waiting for its second card
		{"spain", pos("8S 7H", 2, false), false},
		{"venice", pos("AS KH", 3, true), true},
		{"argentina", pos("AS 7H", 2, true), false},
	} {
		if got := MustLookup(c.p).OneCard(c.h); got != c.want {
			t.Errorf("%s %s: OneCard = %v, want %v", c.p, fmtCount(c.h), got, c.want)
		}
	}
}

// AR-14: the dealer draws nothing when every hand is bust; he completes
// two cards for blackjacks, insurance and a late surrender; a live hand
// makes him play to his rule. PON-02: three sevens are paid whatever he
// holds.
func TestDealerNeed_AR14(t *testing.T) {
	late := MustLookup("vegas-s17")
	must(t, late.Set("surrender", "late"))
	early := MustLookup("spain")
	must(t, early.Set("surrender", "early"))
	must(t, early.Set("dealer_plays", "as-needed"))
	pontoon := MustLookup("family")
	must(t, pontoon.Set("three_sevens", "true"))
	must(t, pontoon.Set("dealer_plays", "as-needed"))
	even := MustLookup("venice")
	must(t, even.Set("split_blackjack", "blackjack-even"))
	must(t, even.Set("dealer_plays", "as-needed"))
	cases := []struct {
		p    *Profile
		h    PlayerHand
		want DealerPlay
	}{
		{MustLookup("argentina"), PlayerHand{Count: count("KS 6H 9D")}, DealerStands},
		{MustLookup("argentina"), PlayerHand{Count: count("AS KH")}, DealerTwoCards},
		{MustLookup("argentina"), PlayerHand{Count: count("AS KH"), Split: true}, DealerTwoCards}, // AR-19: ranks as a blackjack
		{MustLookup("spain"), PlayerHand{Count: count("AS KH"), Split: true}, DealerFull},         // ES-09: a plain 21
		{even, PlayerHand{Count: count("AS KH"), Split: true}, DealerTwoCards},
		{MustLookup("spain"), PlayerHand{Count: count("KS 7H")}, DealerFull},
		{MustLookup("spain"), PlayerHand{Count: count("7S 7H 7D")}, DealerFull},
		{pontoon, PlayerHand{Count: count("7S 7H 7D")}, DealerStands},
		{late, PlayerHand{Count: count("KS 6H"), Surrendered: true}, DealerTwoCards},
		{early, PlayerHand{Count: count("KS 6H"), Surrendered: true}, DealerStands},
	}
	for _, c := range cases {
		if got := c.p.DealerNeed(c.h); got != c.want {
			t.Errorf("%s %v (split %v, surrendered %v): DealerNeed = %d, want %d", c.p.Name, c.h.Count.Total(), c.h.Split, c.h.Surrendered, got, c.want)
		}
	}
	if !(DealerStands < DealerTwoCards && DealerTwoCards < DealerFull) {
		t.Error("a round's need is the largest of its hands': the order must say how far")
	}
}

// AR-14 is the Argentine text's: the Venetian dealer completes his hand
// «obbligatoriamente» (VE-08), the Spanish one by the rule of 17 (ES-05),
// whatever is left on the layout; argentina and the reference profiles
// stop as AR-14 says. Each is the profile's default, and an option.
func TestDealerPlaysOption_AR14_ES05_VE08(t *testing.T) {
	want := map[string]DealerPlays{"argentina": PlaysAsNeeded, "vegas-s17": PlaysAsNeeded, "vegas-h17": PlaysAsNeeded,
		"spain": PlaysAlways, "family": PlaysAlways, "venice": PlaysAlways}
	for _, n := range Names() {
		if got := MustLookup(n).DealerPlays; got != want[n] {
			t.Errorf("%s: dealer_plays=%s, want %s", n, dealerPlays[got], dealerPlays[want[n]])
		}
	}
	sevens := MustLookup("family")
	must(t, sevens.Set("three_sevens", "true"))
	ar := MustLookup("argentina")
	must(t, ar.Set("dealer_plays", "always"))
	for _, c := range []struct {
		p *Profile
		h PlayerHand
	}{
		{MustLookup("venice"), PlayerHand{Count: count("KS 6H 9D")}},
		{MustLookup("venice"), PlayerHand{Count: count("AS KH")}},
		{MustLookup("spain"), PlayerHand{Count: count("KS 6H 9D")}},
		{sevens, PlayerHand{Count: count("7S 7H 7D")}},
		{ar, PlayerHand{Count: count("KS 6H 9D")}},
	} {
		if got := c.p.DealerNeed(c.h); got != DealerFull {
			t.Errorf("%s dealer_plays=always, hand %d: DealerNeed = %d, want his full hand", c.p.Name, c.h.Count.Total(), got)
		}
	}
	if got := MustLookup("argentina").DealerNeed(PlayerHand{Count: count("KS 6H 9D")}); got != DealerStands {
		t.Errorf("argentina, every hand bust: DealerNeed = %d, want none (AR-14)", got)
	}
}

// AR-14 with AR-13, ES-05, VE-08: how far the dealer plays, by need and
// his cards; without a hole card (ES-12, VE-05) the second card only where
// it can make a blackjack when only blackjacks and the like are to settle.
func TestDealerTakes_AR14(t *testing.T) {
	s17, h17 := MustLookup("spain"), MustLookup("vegas-h17")
	cases := []struct {
		p     *Profile
		need  DealerPlay
		cards string
		want  bool
	}{
		{s17, DealerStands, "AS", false},
		{s17, DealerStands, "5S", false},
		{s17, DealerTwoCards, "AS", true},
		{s17, DealerTwoCards, "KS", true},
		{s17, DealerTwoCards, "9S", false}, // no blackjack possible
		{s17, DealerTwoCards, "5S 6H", false},
		{s17, DealerFull, "5S", true},
		{s17, DealerFull, "5S 6H", true},
		{s17, DealerFull, "KS 7H", false},
		{s17, DealerFull, "AS 6H", false},
		{h17, DealerFull, "AS 6H", true},
		{s17, DealerFull, "AS KH", false},
		{s17, DealerFull, "KS 6H", true},
	}
	for _, c := range cases {
		if got := c.p.DealerTakes(c.need, count(c.cards)); got != c.want {
			t.Errorf("%s need %d holding %s: DealerTakes = %v, want %v", c.p.Name, c.need, c.cards, got, c.want)
		}
	}
}

func fmtCount(h HandPos) string { return fmt.Sprintf("%d-cards-hard-%d", h.Count.N, h.Count.Hard) }

func must(t *testing.T, err error) {
	t.Helper()
	if err != nil {
		t.Fatal(err)
	}
}

// AR-11: «Esta decisión será irrevocable hasta la completa definición del
// pase»: a pair of Aces declared 1 or 11 is not split (the split would
// unmake the declared total); undeclared, it splits (AR-19).
func TestDeclaredAcesDoNotSplit_AR11(t *testing.T) {
	p := MustLookup("argentina")
	for _, v := range []int{1, 11} {
		h := pos("AS AH", 1, false)
		h.Count = h.Count.Declare(v)
		if got := p.SplitBar(h); got != BarDeclared {
			t.Errorf("A-A declared %d: SplitBar = %d, want BarDeclared", v, got)
		}
	}
	if got := p.SplitBar(pos("AS AH", 1, false)); got != NoBar {
		t.Errorf("A-A undeclared: SplitBar = %d, want NoBar", got)
	}
}

// AR-14 by the letter (dealer_plays=unless-all-bust): «Cuando todos los
// Jugadores se pasaren de puntaje … el Pagador no tirará cartas para sí»:
// only a bust hand spares the dealer's cards; a blackjack left alone needs
// his full hand (as-needed: two cards).
func TestDealerPlaysUnlessAllBust_AR14(t *testing.T) {
	p := MustLookup("argentina")
	must(t, p.Set("dealer_plays", "unless-all-bust"))
	bj := PlayerHand{Count: count("AS KH")}
	if got := p.DealerNeed(bj); got != DealerFull {
		t.Errorf("a blackjack left: DealerNeed = %d, want DealerFull", got)
	}
	if got := p.DealerNeed(PlayerHand{Count: count("TS 6H 9C")}); got != DealerStands {
		t.Errorf("a bust hand: DealerNeed = %d, want DealerStands", got)
	}
	if got := MustLookup("argentina").DealerNeed(bj); got != DealerTwoCards {
		t.Errorf("as-needed, a blackjack left: DealerNeed = %d, want DealerTwoCards", got)
	}
}
