package shoe

import (
	"errors"
	"reflect"
	"testing"

	"sabot/card"
)

// EG-01: the shoe's composition is checked when it is loaded.
func TestComposition_EG01(t *testing.T) {
	s := New(6, SeedFromUint64(1))
	s.Shuffle()
	if err := Check(s.Composition(), 6); err != nil {
		t.Fatal(err)
	}
	cs := s.Composition()
	cs[0] = cs[1] // one card twice, another missing
	if err := Check(cs, 6); !errors.Is(err, ErrComposition) {
		t.Fatalf("doubled card: %v", err)
	}
	if err := Check(cs[:311], 6); !errors.Is(err, ErrComposition) {
		t.Fatalf("short shoe: %v", err)
	}
}

func TestSeedIsReproducible(t *testing.T) {
	a, b := New(8, SeedFromUint64(42)), New(8, SeedFromUint64(42))
	a.Shuffle()
	b.Shuffle()
	if !reflect.DeepEqual(a.Peek(416), b.Peek(416)) {
		t.Fatal("same seed, different order")
	}
	c := New(8, SeedFromUint64(43))
	c.Shuffle()
	if reflect.DeepEqual(a.Peek(416), c.Peek(416)) {
		t.Fatal("different seeds, same order")
	}
	if RandomSeed() == RandomSeed() {
		t.Fatal("crypto seeds repeat")
	}
}

// AR-07: the cut must take more than about 50 cards.
func TestCut_AR07(t *testing.T) {
	s := New(8, SeedFromUint64(1))
	s.Shuffle()
	before := s.Peek(416)
	if err := s.Cut(40, 50); !errors.Is(err, ErrCut) {
		t.Fatalf("cut at 40: %v", err)
	}
	if err := s.Cut(400, 50); !errors.Is(err, ErrCut) {
		t.Fatalf("cut leaving 16: %v", err)
	}
	if !reflect.DeepEqual(before, s.Peek(416)) {
		t.Fatal("a refused cut moved cards")
	}
	if err := s.Cut(100, 50); err != nil {
		t.Fatal(err)
	}
	after := s.Peek(416)
	if !reflect.DeepEqual(after[:316], before[100:]) || !reflect.DeepEqual(after[316:], before[:100]) {
		t.Fatal("cut is not a rotation")
	}
	for i := 0; i < 200; i++ {
		at := s.RandomCut(50)
		if at <= 50 || 416-at <= 50 {
			t.Fatalf("random cut %d", at)
		}
	}
}

// AR-08, EG-02: the cut card with its reserve; EG-04: it comes out and marks
// the last round; EG-03: burn cards.
func TestCutCardAndBurns_AR08_EG02_EG03_EG04(t *testing.T) {
	s := New(6, SeedFromUint64(3))
	burned, err := s.Prepare(Procedure{MinCut: 0, CutCardReserve: 52, BurnCards: 5}, 120)
	if err != nil {
		t.Fatal(err)
	}
	if len(burned) != 5 || s.Remaining() != 307 {
		t.Fatalf("burned %d, remaining %d", len(burned), s.Remaining())
	}
	n := 0
	for !s.CutCardOut() {
		if _, ok := s.Draw(); !ok {
			t.Fatal("ran out before the cut card")
		}
		n++
	}
	if n != 312-52-5+1 || s.Remaining() != 51 {
		t.Fatalf("cut card out after %d cards with %d left", n, s.Remaining())
	}
	for s.Remaining() > 0 {
		s.Draw()
	}
	if _, ok := s.Draw(); ok {
		t.Fatal("drew from an empty shoe (AR-08: the round is void)")
	}
}

// EG-05: after the last round every card is reshuffled; AR-24: a new shoe
// whenever the inspector asks.
func TestReshuffleTakesEveryCard_EG05_AR24(t *testing.T) {
	s := New(2, SeedFromUint64(9))
	s.Prepare(Procedure{CutCardReserve: 20, BurnCards: 3}, 0)
	for i := 0; i < 30; i++ {
		s.Draw()
	}
	s.RemoveFaceUp()
	s.Prepare(Procedure{CutCardReserve: 20, BurnCards: 3}, 0)
	if s.Remaining() != 104-3 || len(s.Burned()) != 3 || len(s.Removed()) != 0 {
		t.Fatalf("after reshuffle: %d cards, %d burned", s.Remaining(), len(s.Burned()))
	}
	if err := Check(s.Composition(), 2); err != nil {
		t.Fatal(err)
	}
	if s.Reshuffles() != 2 {
		t.Fatalf("reshuffles %d", s.Reshuffles())
	}
}

// EG-06: a card found face up in the shoe is removed to the discards.
func TestFaceUpCardRemoved_EG06(t *testing.T) {
	s := NewForced(card.MustParseList("AS KD 7C"))
	c, ok := s.RemoveFaceUp()
	if !ok || c != card.MustParse("AS") {
		t.Fatalf("removed %v", c)
	}
	if next, _ := s.Draw(); next != card.MustParse("KD") {
		t.Fatalf("next card %v", next)
	}
	if got := s.Removed(); len(got) != 1 || got[0] != card.MustParse("AS") {
		t.Fatalf("removed %v", got)
	}
}

// FAM-03: collected cards go under the deck: face up, reshuffled when the
// first face-up card is reached; face down, dealt on as they are.
func TestCollectedUnderTheDeck_FAM03(t *testing.T) {
	for _, mode := range []Collected{UnderFaceUp, UnderFaceDown} {
		s := New(1, SeedFromUint64(5))
		s.Prepare(Procedure{Collected: mode}, 0)
		var played []card.Card
		for i := 0; i < 52; i++ {
			c, ok := s.Draw()
			if !ok {
				t.Fatal("ran out")
			}
			played = append(played, c)
			if len(played) == 10 {
				s.Collect(played...)
				played = played[:0]
			}
		}
		// 52 drawn, 50 of them collected (5 rounds of 10): 50 more to deal.
		before := s.Reshuffles()
		next := s.Peek(50)
		got := make([]card.Card, 0, 50)
		for i := 0; i < 50; i++ {
			c, ok := s.Draw()
			if !ok {
				t.Fatalf("mode %d: collected cards were not dealt again", mode)
			}
			got = append(got, c)
		}
		if _, ok := s.Draw(); ok {
			t.Fatalf("mode %d: more cards than were collected", mode)
		}
		switch mode {
		case UnderFaceUp:
			if s.Reshuffles() != before+1 || reflect.DeepEqual(got, next) {
				t.Fatal("face up: the collected cards were not reshuffled")
			}
		case UnderFaceDown:
			if s.Reshuffles() != before || !reflect.DeepEqual(got, next) {
				t.Fatal("face down: the collected cards were not dealt in order")
			}
		}
	}
}

func BenchmarkShuffle(b *testing.B) {
	s := New(6, SeedFromUint64(1))
	b.ReportAllocs()
	for i := 0; i < b.N; i++ {
		s.Shuffle()
	}
}
