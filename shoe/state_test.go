package shoe

import (
	"encoding/json"
	"errors"
	"fmt"
	"reflect"
	"strings"
	"testing"

	"sabot/card"
)

// roundTrip takes a shoe's State through JSON and restores it.
func roundTrip(t *testing.T, s *Shoe) *Shoe {
	t.Helper()
	b, err := json.Marshal(s.State())
	if err != nil {
		t.Fatal(err)
	}
	var st State
	if err := json.Unmarshal(b, &st); err != nil {
		t.Fatal(err)
	}
	if !reflect.DeepEqual(normal(st), normal(s.State())) {
		t.Fatalf("the state changed through JSON:\n%+v\n%+v", st, s.State())
	}
	r, err := Restore(st)
	if err != nil {
		t.Fatal(err)
	}
	return r
}

// normal makes empty slices nil, for comparing states.
func normal(st State) State {
	for _, p := range []*[]card.Card{&st.Cards, &st.Burned, &st.Removed} {
		if len(*p) == 0 {
			*p = nil
		}
	}
	return st
}

// step is one deterministic move of a test session: a "round" of a few
// cards drawn (and collected under the deck), now and then a face-up card
// removed; first, a fresh shuffle when the cut card came out in the last
// round or the shoe is empty (and, face down, every so often: the bank
// changing hands). It returns
// what happened, for comparing two shoes.
func step(s *Shoe, i int, proc Procedure, dealOn bool) string {
	var b strings.Builder
	if s.CutCardOut() && !dealOn || s.Remaining() == 0 || proc.Collected == UnderFaceDown && i%23 == 22 {
		// EG-04, EG-05: the last round was played: a new shoe.
		burned, err := s.Prepare(proc, 0)
		fmt.Fprintf(&b, "new shoe: cut at %d, burned %s, %v; ", s.CutAt(), card.Format(burned), err)
	}
	if i%17 == 5 {
		c, ok := s.RemoveFaceUp()
		fmt.Fprintf(&b, "removed %v %v; ", c, ok)
	}
	var played []card.Card
	for k := 0; k < 3+i%6; k++ {
		c, ok := s.Draw()
		if !ok {
			b.WriteString("empty; ")
			break
		}
		played = append(played, c)
	}
	s.Collect(played...)
	fmt.Fprintf(&b, "drew %s; cut out %v; pos %d; left %d; reshuffles %d; burned %s; removed %s",
		card.Format(played), s.CutCardOut(), s.Pos(), s.Remaining(), s.Reshuffles(), card.Format(s.Burned()), card.Format(s.Removed()))
	return b.String()
}

// A restored shoe does exactly what the original does: every collection
// mode, with a cut card and burns, restored at many points of a session
// (before and after the cut card, after the cards were moved forward, with
// face-up collected cards waiting to be reshuffled).
func TestStateRoundTrip(t *testing.T) {
	for _, c := range []struct {
		name   string
		proc   Procedure
		dealOn bool // deal on past the cut card
	}{
		{"discard tray", Procedure{MinCut: 10, CutCardReserve: 30, BurnCards: 2}, false},
		// FAM-03: collected cards go on being dealt, without a cut card
		{"under face up", Procedure{MinCut: 10, BurnCards: 2, Collected: UnderFaceUp}, false},
		{"under face down", Procedure{MinCut: 10, BurnCards: 2, Collected: UnderFaceDown}, false},
		// and with one, also dealt on past it: the cards move forward past it
		{"under face up with a cut card", Procedure{MinCut: 10, CutCardReserve: 30, BurnCards: 2, Collected: UnderFaceUp}, false},
		{"under face down with a cut card", Procedure{MinCut: 10, CutCardReserve: 30, BurnCards: 2, Collected: UnderFaceDown}, false},
		{"under face up past the cut card", Procedure{MinCut: 10, CutCardReserve: 30, BurnCards: 2, Collected: UnderFaceUp}, true},
	} {
		t.Run(c.name, func(t *testing.T) {
			proc := c.proc
			const steps, after = 120, 80
			for at := 0; at < steps; at += 7 {
				orig := New(2, SeedFromUint64(uint64(7+proc.Collected)))
				if _, err := orig.Prepare(proc, 0); err != nil {
					t.Fatal(err)
				}
				for i := 0; i < at; i++ {
					step(orig, i, proc, c.dealOn)
				}
				rest := roundTrip(t, orig)
				reshuffles := orig.Reshuffles()
				for i := at; i < at+after; i++ {
					a, b := step(orig, i, proc, c.dealOn), step(rest, i, proc, c.dealOn)
					if a != b {
						t.Fatalf("restored after %d steps, step %d differs:\noriginal %s\nrestored %s", at, i, a, b)
					}
				}
				if !reflect.DeepEqual(orig.State(), rest.State()) {
					t.Fatalf("restored after %d steps: states differ at the end", at)
				}
				if orig.Reshuffles() == reshuffles {
					t.Fatalf("restored after %d steps: no reshuffle after the restore: the source is not tested", at)
				}
			}
		})
	}
}

// The shoe's cards under the deck face up: a restored shoe reshuffles the
// collected cards when their first one is reached, with the same source.
func TestStateFaceUpReshuffle_FAM03(t *testing.T) {
	s := New(1, SeedFromUint64(5))
	s.Prepare(Procedure{Collected: UnderFaceUp}, 0)
	var played []card.Card
	for i := 0; i < 52; i++ {
		c, _ := s.Draw()
		played = append(played, c)
		if len(played) == 10 {
			s.Collect(played...)
			played = played[:0]
		}
	}
	if s.collectedAt < 0 {
		t.Fatal("no face-up collected card waiting")
	}
	r := roundTrip(t, s)
	before := s.Reshuffles()
	for i := 0; i < 51; i++ {
		a, aok := s.Draw()
		b, bok := r.Draw()
		if a != b || aok != bok {
			t.Fatalf("draw %d: original %v %v, restored %v %v", i, a, aok, b, bok)
		}
	}
	if s.Reshuffles() != before+1 || r.Reshuffles() != before+1 {
		t.Fatalf("reshuffles %d and %d, want %d", s.Reshuffles(), r.Reshuffles(), before+1)
	}
}

func TestStateForced(t *testing.T) {
	s := NewForced(card.MustParseList("AS KD 7C 2H 9S"))
	s.Draw()
	s.RemoveFaceUp()
	r := roundTrip(t, s)
	if !r.Forced() || r.Decks() != 0 || !reflect.DeepEqual(r.Removed(), card.MustParseList("KD")) {
		t.Fatalf("restored forced shoe: forced %v, decks %d, removed %v", r.Forced(), r.Decks(), r.Removed())
	}
	if got := r.Peek(10); !reflect.DeepEqual(got, card.MustParseList("7C 2H 9S")) {
		t.Fatalf("restored forced shoe deals %v", got)
	}
}

// Restore refuses a state no shoe can be in.
func TestRestoreRefuses(t *testing.T) {
	good := func() State {
		s := New(2, SeedFromUint64(3))
		s.Prepare(Procedure{CutCardReserve: 20, BurnCards: 3}, 0)
		for i := 0; i < 10; i++ {
			s.Draw()
		}
		return s.State()
	}
	under := func() State {
		s := New(1, SeedFromUint64(3))
		s.Prepare(Procedure{Collected: UnderFaceDown}, 0)
		var cs []card.Card
		for i := 0; i < 10; i++ {
			c, _ := s.Draw()
			cs = append(cs, c)
		}
		s.Collect(cs...)
		return s.State()
	}
	if _, err := Restore(good()); err != nil {
		t.Fatal(err)
	}
	if _, err := Restore(under()); err != nil {
		t.Fatal(err)
	}
	for _, c := range []struct {
		name   string
		change func(*State)
		want   error
		says   string
	}{
		{"wrong decks", func(st *State) { st.Decks = 3 }, ErrComposition, "104 cards, want 156"},
		{"no decks", func(st *State) { st.Decks = 0 }, ErrState, "0 decks"},
		{"a card twice", func(st *State) { st.Cards[5] = st.Cards[6] }, ErrComposition, "appears"},
		{"a card missing", func(st *State) { st.Cards = st.Cards[:100] }, ErrComposition, "100 cards"},
		{"position past the end", func(st *State) { st.Pos = 105 }, ErrState, "position 105"},
		{"negative position", func(st *State) { st.Pos = -1 }, ErrState, "position -1"},
		{"cut card past the end", func(st *State) { st.Cut = 104 }, ErrState, "cut card at 104"},
		{"cut card out ahead", func(st *State) { st.CutOut = true }, ErrState, "is out"},
		{"collected past the end", func(st *State) { st.CollectedAt = 200 }, ErrState, "face-up"},
		{"unknown mode", func(st *State) { st.Collected = 7 }, ErrState, "collection mode"},
		{"no source", func(st *State) { st.RNG = nil }, ErrState, "no random source"},
		{"bad source", func(st *State) { st.RNG = []byte("chacha8:short") }, ErrState, "random source"},
		{"forced with decks", func(st *State) { st.Forced = true }, ErrState, "forced"},
		{"invalid card", func(st *State) { st.Burned = append(st.Burned, 0) }, ErrState, "invalid card"},
		{"more burned than drawn", func(st *State) { st.Burned = append(st.Burned, st.Cards[:20]...) }, ErrState, "burned"},
	} {
		st := good()
		c.change(&st)
		_, err := Restore(st)
		if !errors.Is(err, c.want) || !strings.Contains(err.Error(), c.says) {
			t.Errorf("%s: got %v, want %v saying %q", c.name, err, c.want, c.says)
		}
	}
	st := under()
	st.Cards = append(st.Cards, st.Cards[len(st.Cards)-1]) // collected twice
	if _, err := Restore(st); !errors.Is(err, ErrComposition) {
		t.Errorf("a card collected twice under the deck: got %v", err)
	}
}

// A bad JSON card code does not decode into a State.
func TestStateJSONRefusesBadCard(t *testing.T) {
	b, _ := json.Marshal(New(1, SeedFromUint64(1)).State())
	bad := strings.Replace(string(b), `"AS"`, `"ZZ"`, 1)
	var st State
	if err := json.Unmarshal([]byte(bad), &st); !errors.Is(err, card.ErrSyntax) {
		t.Fatalf("got %v", err)
	}
}
