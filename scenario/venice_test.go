package scenario

import "testing"

// Rounds of the Casinò di Venezia rules (004).
func TestVenice(t *testing.T) { runAll(t, veniceRounds) }

var veniceRounds = []round{
	{name: "VE-03 two back bettors per box", profile: "venice", cards: "TS 7C 9H KD",
		bets: "ana 1 100; ben 1 50; cy 1 50", decisions: "ana 1 stand", net: "ana=100 ben=50 cy=50"},
	{name: "VE-03 a third back bettor is refused", profile: "venice", cards: "TS 7C 9H KD",
		bets: "ana 1 100; ben 1 50; cy 1 50; dan 1 50", err: "2 back bettors"},
	{name: "VE-03 the box holder's decisions bind the box", profile: "venice", cards: "TS 7C 9H KD",
		bets: "ana 1 100; ben 1 50", decisions: "ben 1 stand", err: "holder's"},
	{name: "VE-05 the dealer takes one card, the rest after the players", profile: "venice", cards: "TS 7C 9H KD",
		bets: "ana 1 100", decisions: "ana 1 stand", net: "ana=100",
		check: func(t *testing.T, out *Output) {
			if got := out.Dealer.Cards; len(got) != 2 || got[0].String() != "7C" || got[1].String() != "KD" {
				t.Errorf("dealer cards %v, want [7C KD]", got)
			}
		}},
	{name: "VE-06 a hand of 11 or less must draw", profile: "venice", cards: "5S 9D 6H 8C",
		bets: "ana 1 100", decisions: "ana 1 stand", err: "must draw (VE-06)"},
	{name: "VE-06 a hand of 21 stands", profile: "venice", cards: "TS 7C 5H 6D KD",
		bets: "ana 1 100", decisions: "ana 1 hit; ana 1 hit", err: "left unused"},
	{name: "VE-07 the dealer asks the boxes left to right", profile: "venice", cards: "TS 9S 7C 8H 8D KD",
		bets: "ana 1 100; ben 2 100", decisions: "ben 2 stand", err: "box 1 hand 1's turn"},
	// VE-08: «deve portare a termine il suo, applicando obbligatoriamente
	// “la regola del banco”»: after a lone even money, as when every hand is
	// bust, the dealer completes his hand.
	{name: "VE-08 VE-16 after a lone even money the dealer completes his hand", profile: "venice", cards: "AS TD KH 6C 9S",
		bets: "ana 1 100", decisions: "ana 1 even-money", net: "ana=100", dealer: 25},
	{name: "VE-08 option dealer_plays=as-needed: after a lone even money the dealer draws nothing", profile: "venice",
		options: map[string]any{"dealer_plays": "as-needed"}, cards: "AS TD KH 6C 9S",
		bets: "ana 1 100", decisions: "ana 1 even-money", net: "ana=100", dealer: 10},
	{name: "VE-08 the dealer stands on 17", profile: "venice", cards: "TS 7C 9H KD",
		bets: "ana 1 100", decisions: "ana 1 stand", dealer: 17},
	{name: "VE-10 blackjack beats a dealer 21", profile: "venice", cards: "AS TH 5D KH 8H 6C TS",
		bets: "ana 1 100; ben 2 100", decisions: "ben 2 stand", net: "ana=150 ben=-100", dealer: 21},
	{name: "VE-10 blackjack pushes a dealer blackjack", profile: "venice", cards: "AS TD KH AC",
		bets: "ana 1 100", net: "ana=0", dealer: 21},
	{name: "VE-11 a back bettor need not double but takes the one card", profile: "venice", cards: "5S 6D 4H 9C TC 8D",
		bets: "ana 1 100; ben 1 50", decisions: "ana 1 double", net: "ana=200 ben=50"},
	{name: "VE-11 a back bettor matches the double", profile: "venice", cards: "5S 6D 4H 9C TC 8D",
		bets: "ana 1 100; ben 1 50", decisions: "ana 1 double; ben 1 double", net: "ana=200 ben=100"},
	{name: "VE-11 double on any two cards", profile: "venice", cards: "TS 6D 4H 7C TC 8D",
		bets: "ana 1 100", decisions: "ana 1 double", net: "ana=200"},
	{name: "VE-12 a back bettor follows the split", profile: "venice", cards: "8S 6D 8H TC 9D TH 7S",
		bets: "ana 1 100; ben 1 50", decisions: "ana 1 split; ben 1 split; ana 1/1 stand; ana 1/2 stand",
		net: "ana=200 ben=100"},
	{name: "VE-12 a back bettor stays on the first hand", profile: "venice", cards: "8S 6D 8H TC 9D TH 7S",
		bets: "ana 1 100; ben 1 50", decisions: "ana 1 split; ana 1/1 stand; ana 1/2 stand",
		net: "ana=200 ben=50"},
	// ES-03, VE-11, VE-12: what a back bet does after the holder's split
	// or double is the table's reading (back_follow): choose (above, the
	// profile's), follow (every back bet follows unasked) or stay (none
	// does; both depart from VE-11's double).
	{name: "VE-11 option follow the back bet doubles unasked", profile: "venice", options: map[string]any{"back_follow": "follow"},
		cards: "5S 6D 4H 9C TC 8D", bets: "ana 1 100; ben 1 50", decisions: "ana 1 double", net: "ana=200 ben=100"},
	{name: "VE-11 option stay the back bet takes the one card at its own stake", profile: "venice", options: map[string]any{"back_follow": "stay"},
		cards: "5S 6D 4H 9C TC 8D", bets: "ana 1 100; ben 1 50", decisions: "ana 1 double", net: "ana=200 ben=50"},
	{name: "VE-12 option follow the back bet follows the split unasked", profile: "venice", options: map[string]any{"back_follow": "follow"},
		cards: "8S 6D 8H TC 9D TH 7S", bets: "ana 1 100; ben 1 50", decisions: "ana 1 split; ana 1/1 stand; ana 1/2 stand", net: "ana=200 ben=100"},
	{name: "VE-12 option follow a back bettor's answer is refused", profile: "venice", options: map[string]any{"back_follow": "follow"},
		cards: "8S 6D 8H TC 9D TH 7S", bets: "ana 1 100; ben 1 50", decisions: "ana 1 split; ben 1 split", err: "unasked (VE-12)"},
	{name: "VE-12 option stay the back bet stays on the first hand", profile: "venice", options: map[string]any{"back_follow": "stay"},
		cards: "8S 6D 8H TC 9D TH 7S", bets: "ana 1 100; ben 1 50", decisions: "ana 1 split; ana 1/1 stand; ana 1/2 stand", net: "ana=200 ben=50"},
	{name: "VE-12 option stay the back bettor may not follow the split", profile: "venice", options: map[string]any{"back_follow": "stay"},
		cards: "8S 6D 8H TC 9D TH 7S", bets: "ana 1 100; ben 1 50", decisions: "ana 1 split; ben 1 split", err: "stays where it was placed (VE-12)"},
	{name: "VE-12 split to three hands at most", profile: "venice", cards: "8S 6D 8H 8C 8D",
		bets: "ana 1 100", decisions: "ana 1 split; ana 1 split; ana 1 split", err: "3 hands"},
	// VE-12's two readings of which split hand splits again
	// (resplit_hands): either (any, the profile's), or the first, dealt
	// the «terza carta», alone (first).
	{name: "VE-12 the second hand's new pair splits again", profile: "venice", cards: "8S 6D 8H 5C 8D TS 9C TH 7S",
		bets: "ana 1 100", decisions: "ana 1 split; ana 1/1 stand; ana 1/2 split; ana 1/2 stand; ana 1/3 stand", net: "ana=300", dealer: 23},
	{name: "VE-12 option first the second hand's new pair does not split", profile: "venice",
		options: map[string]any{"resplit_hands": "first"},
		cards:   "8S 6D 8H 5C 8D TS 9C TH 7S", bets: "ana 1 100", decisions: "ana 1 split; ana 1/1 stand; ana 1/2 split", err: "VE-12"},
	{name: "VE-12 option first the second hand's pair is played as dealt", profile: "venice",
		options: map[string]any{"resplit_hands": "first"},
		cards:   "8S 6D 8H 5C 8D TS 9C TH 7S", bets: "ana 1 100", decisions: "ana 1 split; ana 1/1 stand; ana 1/2 stand", net: "ana=200", dealer: 25},
	{name: "VE-12 option first the first hand's new pair splits again", profile: "venice",
		options: map[string]any{"resplit_hands": "first"},
		cards:   "8S 6D 8H 8C 5C TS 9C TH 7S", bets: "ana 1 100", decisions: "ana 1 split; ana 1/1 split; ana 1/1 stand; ana 1/2 stand; ana 1/3 stand", net: "ana=300", dealer: 23},
	{name: "VE-13 an Ace on a split ten counted 1 draws", profile: "venice", cards: "TS 6D KH AC 5S 9D TH 7C",
		bets: "ana 1 100", decisions: "ana 1 split; ana 1/1 declare 1; ana 1/1 hit; ana 1/1 stand; ana 1/2 stand",
		net: "ana=200",
		check: func(t *testing.T, out *Output) {
			if out.Hands[0].Total != 16 {
				t.Errorf("T-A(1)-5 total %d, want 16", out.Hands[0].Total)
			}
		}},
	{name: "VE-13 an Ace on a split ten counted 1 may double", profile: "venice", cards: "TS 6D KH AC 9S 9D TH 7C",
		bets: "ana 1 100", decisions: "ana 1 split; ana 1/1 declare 1; ana 1/1 double; ana 1/2 stand",
		net: "ana=300"},
	{name: "VE-13 without an answer the Ace counts 11", profile: "venice", cards: "TS 6D KH AC 9D TH 7C",
		bets: "ana 1 100", decisions: "ana 1 split; ana 1/2 stand", net: "ana=200", results: "1/1=win 1/2=win"},
	{name: "VE-13 VE-06 counted 1 the hand must draw", profile: "venice", cards: "TS 6D KH AC 9D TH 7C",
		bets: "ana 1 100", decisions: "ana 1 split; ana 1/1 declare 1; ana 1/1 stand", err: "VE-06"},
	{name: "VE-14 split Aces get one card; a ten is 21, not blackjack", profile: "venice", cards: "AS 9D AH KC 7S TD",
		bets: "ana 1 100", decisions: "ana 1 split", net: "ana=0", results: "1/1=win 1/2=lose"},
	{name: "VE-15 insurance by a back bettor alone", profile: "venice", cards: "TS AH 9D KC",
		bets: "ana 1 100; ben 1 50", decisions: "ben 1 insure 25; ana 1 stand", net: "ana=-100 ben=0"},
	{name: "VE-15 a blackjack cannot be insured", profile: "venice", cards: "AS AD KH 9C",
		bets: "ana 1 100", decisions: "ana 1 insure 50", err: "cannot be insured (VE-15)"},
	{name: "VE-15 a dealer blackjack takes doubles", profile: "venice", cards: "6S AD 5H 9C KC",
		bets: "ana 1 100", decisions: "ana 1 double", net: "ana=-200"},
	{name: "VE-15 without a dealer blackjack insurance is lost", profile: "venice", cards: "TS AH 9D 7C",
		bets: "ana 1 100", decisions: "ana 1 insure 50; ana 1 stand", net: "ana=50"},
	{name: "VE-16 even money under a ten, for a back bettor", profile: "venice", cards: "AS TD KH 9C",
		bets: "ana 1 100; ben 1 50", decisions: "ben 1 even-money", net: "ana=150 ben=50"},
	{name: "VE-16 even money under an Ace", profile: "venice", cards: "AS AD KH TC",
		bets: "ana 1 100", decisions: "ana 1 even-money", net: "ana=100"},
	{name: "VE-17 a box holder plays a free box too", profile: "venice", cards: "TS 9S 7C 9H 8H KD",
		bets: "ana 1 100; ana 2 100", decisions: "ana 1 stand; ana 2 stand", net: "ana=100", results: "1/1=win 2/1=push"},
	{name: "VE-18 a stake below the minimum stands", profile: "venice", options: map[string]any{"min_bet": 100},
		cards: "TS 7C 9H KD", bets: "ana 1 50", decisions: "ana 1 stand", net: "ana=50"},
	{name: "VE-19 a double for less is paid at its amount", profile: "venice", cards: "5S 6D 4H 9C TC 8D",
		bets: "ana 1 100", decisions: "ana 1 double 50", net: "ana=150"},
	{name: "VE-19 a double for more: the excess is not paid", profile: "venice", cards: "5S 6D 4H 9C TC 8D",
		bets: "ana 1 100", decisions: "ana 1 double 150", net: "ana=200"},
	{name: "VE-19 a double for more: the excess is returned on a loss", profile: "venice", cards: "5S 6D 4H 2C TC 5H",
		bets: "ana 1 100", decisions: "ana 1 double 150", net: "ana=-200"},
	{name: "VE-21 a double above the maximum is refused", profile: "venice", options: map[string]any{"max_bet": 100},
		cards: "5S 6D 4H 9C TC 8D", bets: "ana 1 100", decisions: "ana 1 double 150", err: "maximum is 100 (VE-21)"},
	{name: "VE-21 a stake above the maximum is refused", profile: "venice", options: map[string]any{"max_bet": 100},
		cards: "TS 7C 9H KD", bets: "ana 1 150", err: "maximum"},
}

// Family blackjack and the pontoon variants (003 §12).
func TestFamily(t *testing.T) { runAll(t, familyRounds) }

var pontoon = map[string]any{"five_card_21": true, "three_sevens": true}

var familyRounds = []round{
	{name: "ES-10 ES-09 no even money on split Aces that draw a King", profile: "family", cards: "AS 9H AD AH 8H KS TD KC",
		bets: "ana 1 100; cy 2 100", decisions: "ana 1 split; ana 1 even-money; cy 2 stand", err: "21, not a blackjack (ES-10, ES-09)"},
	{name: "option back bets ES-10 ES-09 no even money for a back bettor on a split 21", profile: "family",
		options: map[string]any{"back_bets_per_box": 1}, cards: "KS 9H AD QH 8H AC TD 7C",
		bets: "ana 1 100; ben 1 100; cy 2 100", decisions: "ana 1 split; ben 1 split; ben 1 even-money; ana 1/2 stand; cy 2 stand",
		err: "21, not a blackjack (ES-10, ES-09)"},
	{name: "ES-10 ES-09 a split 21 loses to a dealer blackjack", profile: "family", cards: "KS 9H AD QH 8H AC TD KC",
		bets: "ana 1 100; cy 2 100", decisions: "ana 1 split; ana 1/2 stand; cy 2 stand",
		net: "ana=-200 cy=-100", dealer: 21, results: "1/1=lose 1/2=lose 2/1=lose"},
	{name: "FAM-01 one deck", profile: "family", cards: "AS AH AD AC AS", bets: "ana 1 100", err: "1 deck"},
	// FAM-01, ES-09: the casino's rules, 6 splits included; ten-values
	// split as equals, and one deck holds 16 of them.
	{name: "FAM-01 ES-09 ten-values split to 5 hands from one deck", profile: "family",
		cards: "KS 6D QH KH QD KD QC JS JH JD JC TS TH TD", bets: "ana 1 100",
		decisions: "ana 1 split; ana 1 split; ana 1 split; ana 1 split; ana 1/1 stand; ana 1/2 stand; ana 1/3 stand; ana 1/4 stand; ana 1/5 stand",
		net:       "ana=500", dealer: 26},
	{name: "FAM-01 ES-09 up to 6 splits, 7 hands", profile: "family", cards: "KS 6D QH KH QD KD QC KC JS JH",
		bets: "ana 1 100", decisions: "ana 1 split; ana 1 split; ana 1 split; ana 1 split; ana 1 split; ana 1 split; ana 1 split",
		err: "7 hands"},
	{name: "PON-01 a five-card 21 pays 2:1 and beats a dealer 21", profile: "family", options: pontoon,
		cards: "2S TD 3H 4S 5D 7C 5H 6H", bets: "ana 1 100", decisions: "ana 1 hit; ana 1 hit; ana 1 hit",
		net: "ana=200", dealer: 21},
	{name: "PON-01 off: a five-card 21 pushes a dealer 21", profile: "family",
		cards: "2S TD 3H 4S 5D 7C 5H 6H", bets: "ana 1 100", decisions: "ana 1 hit; ana 1 hit; ana 1 hit",
		net: "ana=0", dealer: 21},
	{name: "PON-01 a five-card 21 loses to a dealer blackjack", profile: "family", options: pontoon,
		cards: "2S TD 3H 4S 5D 7C AH", bets: "ana 1 100", decisions: "ana 1 hit; ana 1 hit; ana 1 hit",
		net: "ana=-100", dealer: 21},
	{name: "PON-02 three sevens pay 3:1 and beat a dealer blackjack", profile: "family", options: pontoon,
		cards: "7S TS AD 7H 8S 7C KD", bets: "ana 1 100; ben 2 100", decisions: "ana 1 hit; ben 2 stand",
		net: "ana=300 ben=-100", dealer: 21},
	{name: "PON-02 off: three sevens lose to a dealer blackjack", profile: "family",
		cards: "7S TS AD 7H 8S 7C KD", bets: "ana 1 100; ben 2 100", decisions: "ana 1 hit; ben 2 stand",
		net: "ana=-100 ben=-100", dealer: 21},
}

// The reference profiles: US hole card with the peek.
func TestVegas(t *testing.T) { runAll(t, vegasRounds) }

var vegasRounds = []round{
	{name: "peek: a dealer blackjack ends the round before the players act", profile: "vegas-s17", cards: "TS AH 9D KC",
		bets: "ana 1 100", decisions: "ana 1 stand", err: "left unused"},
	{name: "peek under a ten", profile: "vegas-s17", cards: "6S TH 5D AC",
		bets: "ana 1 100", net: "ana=-100", dealer: 21},
	{name: "no dealer blackjack: play goes on; split and double after split", profile: "vegas-s17",
		cards: "8S 6D 8H TC 3C TH 2S 9H TD", bets: "ana 1 100",
		decisions: "ana 1 split; ana 1/1 double; ana 1/2 hit; ana 1/2 stand", net: "ana=300", dealer: 26},
	{name: "H17: the dealer hits soft 17", profile: "vegas-h17", cards: "TS 6D 8H AC 4S",
		bets: "ana 1 100", decisions: "ana 1 stand", net: "ana=-100", dealer: 21},
	{name: "resplit to four hands", profile: "vegas-s17", cards: "8S 6D 8H TC 8C 8D 8S",
		bets: "ana 1 100", decisions: "ana 1 split; ana 1/1 split; ana 1/1 split; ana 1/1 split", err: "4 hands"},
	{name: "insurance against the peeked blackjack", profile: "vegas-s17", cards: "TS AH 9D KC",
		bets: "ana 1 100", decisions: "ana 1 insure 50", net: "ana=0"},
	{name: "late surrender loses half", profile: "vegas-s17", options: map[string]any{"surrender": "late"},
		cards: "TS 9H 6D 7C", bets: "ana 1 100", decisions: "ana 1 surrender", net: "ana=-50", results: "1/1=surrender"},
}
