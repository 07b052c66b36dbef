package analysis

import (
	"math"
	"testing"
)

// Source: Eric Farmer's blackjack analyzer, version 7.6
// (github.com/possibly-wrong/blackjack, src/strategy.cpp and
// src/blackjack.cpp), built with g++ -O2 and run on the same rules: exact
// expected values off the top, dealer peeks, 3:2, double on any two cards,
// resplits to four hands, one card to split Aces, composition-dependent play
// with his "CDP1" post-split strategy (each split hand plays the first split
// hand's optimum for its own cards). It prints the game's expected return in
// percent to nine decimals. Its resplit computation is exact for that
// strategy, as ours is (splitValue): the two programs share no code and
// agree to the last printed digit. Docs: docs/analysis.md, "Splits".
//
// For the same rules his other post-split strategies give, 6 decks S17 DAS:
// CDZ- (the unsplit hand's play) −0.402870236 %, CDP (a play for each number
// of pair cards removed) −0.402861523 %; 1 deck: +0.181934306 %,
// +0.183111744 %.
func TestFarmerExactResplits(t *testing.T) {
	cases := []struct {
		rules string
		want  float64 // percent
		opts  []string
	}{
		{"1 deck, S17, DAS", 0.183073339, []string{"decks=1", "cut_card_reserve=0"}},
		{"1 deck, S17, no DAS", 0.041863638, []string{"decks=1", "cut_card_reserve=0", "double_after_split=false"}},
		{"1 deck, S17, DAS, RSA", 0.214610155, []string{"decks=1", "cut_card_reserve=0", "resplit_aces=true"}},
		{"1 deck, H17, DAS", -0.008053671, []string{"decks=1", "cut_card_reserve=0", "dealer_hits_soft_17=true"}},
		{"2 decks, S17, DAS", -0.178481700, []string{"decks=2", "cut_card_reserve=26"}},
		{"2 decks, H17, DAS", -0.380242991, []string{"decks=2", "cut_card_reserve=26", "dealer_hits_soft_17=true"}},
		{"2 decks, H17, no DAS", -0.525395302, []string{"decks=2", "cut_card_reserve=26", "dealer_hits_soft_17=true", "double_after_split=false"}},
		{"2 decks, H17, no DAS, RSA, late surrender", -0.406487624, []string{"decks=2", "cut_card_reserve=26", "dealer_hits_soft_17=true", "double_after_split=false", "resplit_aces=true", "surrender=late"}},
		{"4 decks, S17, DAS", -0.347427261, []string{"decks=4"}},
		{"5 decks, H17, DAS", -0.592084312, []string{"decks=5", "dealer_hits_soft_17=true"}},
		{"6 decks, S17, DAS (vegas-s17)", -0.402864343, nil},
		{"6 decks, S17, DAS, RSA", -0.333997657, []string{"resplit_aces=true"}},
		{"6 decks, H17, DAS (vegas-h17)", -0.615389123, []string{"dealer_hits_soft_17=true"}},
		{"6 decks, H17, DAS, late surrender", -0.527191547, []string{"dealer_hits_soft_17=true", "surrender=late"}},
		{"8 decks, S17, DAS", -0.430580629, []string{"decks=8"}},
	}
	if testing.Short() {
		cases = cases[:3]
	}
	for _, c := range cases {
		r := analyze(t, "vegas-s17", c.opts...)
		got := 100 * r.CD.EV
		if math.Abs(got-c.want) > 1.5e-9 {
			t.Errorf("%s: cd %.9f %%, Farmer (CDP1) %.9f %%", c.rules, got, c.want)
		} else {
			t.Logf("%s: cd %.9f %%, Farmer (CDP1) %.9f %%", c.rules, got, c.want)
		}
	}
}
