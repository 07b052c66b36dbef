package rules

import (
	"fmt"
	"testing"

	"sabot/card"
	"sabot/money"
)

// AR-15: the settlement table of the reglamento, row by row: each dealer
// total against each player total. AR-16: blackjack pays 150 %, any other
// win 100 %.
func TestSettlementTable_AR15_AR16(t *testing.T) {
	p := MustLookup("argentina")
	players := []struct {
		name  string
		cards string
	}{
		{"blackjack", "AS KH"}, {"21", "7S 7H 7D"}, {"20", "KS QH"}, {"19", "KS 9H"}, {"18", "KS 8H"},
		{"17", "KS 7H"}, {"16", "KS 6H"}, {"bust", "KS 6H 9D"},
	}
	// The reglamento's table: for each dealer total, the player hands it
	// beats (G), pushes (E) and loses to (P); a bust player always loses.
	rows := []struct {
		dealer string
		cards  string
		want   string // per player hand above: W win, B blackjack, P push, L lose, X bust
	}{
		{"blackjack", "AH TD", "PLLLLLLX"},
		{"21 of three cards", "7C 7D 7C", "BPLLLLLX"},
		{"20", "TC QD", "BWPLLLLX"},
		{"19", "TC 9D", "BWWPLLLX"},
		{"18", "TC 8D", "BWWWPLLX"},
		{"17", "TC 7D", "BWWWWPLX"},
		{"bust", "TC 6D 8C", "BWWWWWWX"},
	}
	code := map[Result]byte{Win: 'W', Blackjack: 'B', Push: 'P', Lose: 'L', Bust: 'X'}
	for _, row := range rows {
		d := DealerHand{Count: count(row.cards)}
		got := make([]byte, len(players))
		for i, pl := range players {
			o := p.Settle(PlayerHand{Count: count(pl.cards)}, d)
			got[i] = code[o.Result]
			net := p.Net(100, o)
			want := map[Result]money.Amount{Win: 100, Blackjack: 150, Push: 0, Lose: -100, Bust: -100}[o.Result]
			if net != want {
				t.Errorf("dealer %s, player %s: net %d, want %d", row.dealer, pl.name, net, want)
			}
		}
		if string(got) != row.want {
			t.Errorf("dealer %s: %s, want %s (players %v)", row.dealer, got, row.want, players)
		}
	}
}

// AR-16, ES-07, VE-10: 3:2 on odd stakes rounds down to the table's unit.
func TestBlackjackRounding_AR16(t *testing.T) {
	p := MustLookup("venice")
	o := p.Settle(PlayerHand{Count: count("AS KH")}, DealerHand{Count: count("9C 8D")})
	for stake, want := range map[money.Amount]money.Amount{100: 150, 15: 22, 1: 1, 3: 4, 25: 37} {
		if got := p.Net(stake, o); got != want {
			t.Errorf("3:2 on %d = %d, want %d", stake, got, want)
		}
	}
	p.PayoutUnit = 5
	if got := p.Net(25, o); got != 35 {
		t.Errorf("3:2 on 25 with unit 5 = %d, want 35", got)
	}
	p.BlackjackPays = Ratio{6, 5}
	if got := p.Net(25, p.Settle(PlayerHand{Count: count("AS KH")}, DealerHand{Count: count("9C 8D")})); got != 30 {
		t.Errorf("6:5 on 25 = %d, want 30", got)
	}
}

// AR-19: a split two-card 21 ranks as blackjack; on split Aces it is paid
// even money («APERTURA DE "ASES"»), on a split ten 3:2 (AR-02, AR-16: the
// letter, split_blackjack=aces-even), or 1:1 under blackjack-even; ES-09,
// VE-14: a plain 21.
func TestSplitBlackjack_AR19_ES09_VE14(t *testing.T) {
	h := PlayerHand{Count: count("AS KH"), Split: true, SplitAces: true}
	ten := PlayerHand{Count: count("KH AS"), Split: true}
	d21 := DealerHand{Count: count("7C 7D 7H")}
	dBJ := DealerHand{Count: count("AC KD")}
	ar := MustLookup("argentina")
	if o := ar.Settle(h, d21); o.Result != Blackjack || ar.Net(100, o) != 100 {
		t.Errorf("argentina split Aces' 21 vs dealer 21: %+v", o)
	}
	if o := ar.Settle(ten, d21); o.Result != Blackjack || ar.Net(100, o) != 150 {
		t.Errorf("argentina split ten's 21 vs dealer 21: %+v", o)
	}
	for _, x := range []PlayerHand{h, ten} {
		if o := ar.Settle(x, dBJ); o.Result != Push {
			t.Errorf("argentina split 21 vs dealer blackjack: %+v", o)
		}
	}
	even := MustLookup("argentina")
	must(t, even.Set("split_blackjack", "blackjack-even"))
	if o := even.Settle(ten, d21); o.Result != Blackjack || even.Net(100, o) != 100 {
		t.Errorf("blackjack-even: split ten's 21 vs dealer 21: %+v", o)
	}
	for _, name := range []string{"spain", "venice"} {
		p := MustLookup(name)
		if o := p.Settle(h, d21); o.Result != Push {
			t.Errorf("%s split 21 vs dealer 21: %+v", name, o)
		}
		if o := p.Settle(h, dBJ); o.Result != Lose {
			t.Errorf("%s split 21 vs dealer blackjack: %+v", name, o)
		}
	}
}

// ES-12, VE-15: a dealer blackjack takes all; the original-only option
// marks doubles and splits to be returned.
func TestDealerBlackjackTakes_ES12_VE15(t *testing.T) {
	d := DealerHand{Count: count("AC KD")}
	for _, name := range []string{"spain", "venice", "argentina"} {
		if o := MustLookup(name).Settle(PlayerHand{Count: count("TS 9H")}, d); o.Result != Lose || o.OriginalOnly {
			t.Errorf("%s: %+v", name, o)
		}
	}
	p := MustLookup("spain")
	p.DealerBlackjackTakes = TakesOriginal
	if o := p.Settle(PlayerHand{Count: count("TS 9H")}, d); !o.OriginalOnly {
		t.Errorf("original only: %+v", o)
	}
}

// PON-01: a five-card 21 pays 2:1, beats a dealer 21 of another count, not a
// dealer blackjack. PON-02: three sevens pay 3:1 and beat everything.
func TestPontoon_PON01_PON02(t *testing.T) {
	p := MustLookup("family")
	p.FiveCard21, p.ThreeSevens = true, true
	five := PlayerHand{Count: count("2S 3H 4D 5C 7S")}
	sevens := PlayerHand{Count: count("7S 7H 7D")}
	tests := []struct {
		h      PlayerHand
		dealer string
		net    money.Amount
	}{
		{five, "TC 5D 6C", 200}, {five, "9C 8D", 200}, {five, "TC 6D 9C", 200},
		{five, "2C 3D 4C 5H 7H", 0}, {five, "AC KD", -100},
		{sevens, "AC KD", 300}, {sevens, "TC 5D 6C", 300}, {sevens, "9C 8D", 300},
	}
	for _, tt := range tests {
		o := p.Settle(tt.h, DealerHand{Count: count(tt.dealer)})
		if got := p.Net(100, o); got != tt.net {
			t.Errorf("%v vs %s: net %d, want %d", tt.h.Count, tt.dealer, got, tt.net)
		}
	}
	p.FiveCard21, p.ThreeSevens = false, false
	if got := p.Net(100, p.Settle(sevens, DealerHand{Count: count("AC KD")})); got != -100 {
		t.Errorf("without PON-02 three sevens vs blackjack: %d", got)
	}
}

func ExampleProfile_Settle() {
	p := MustLookup("venice")
	o := p.Settle(PlayerHand{Count: CountOf(card.MustParse("AS"), card.MustParse("KH"))}, DealerHand{Count: CountOf(card.MustParse("9C"), card.MustParse("8D"))})
	fmt.Printf("%s %d\n", o.Result, p.Net(100, o))
	// Output: blackjack 150
}
