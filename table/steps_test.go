package table

import (
	"slices"
	"testing"

	"sabot/card"
	"sabot/shoe"
)

// uncut is the order of seed's shoe shuffled for p's profile, not cut.
func uncut(t *testing.T, tb *Table) []card.Card {
	t.Helper()
	s := shoe.New(tb.p.Decks, tb.Seed())
	s.PrepareUncut(tb.p.ShoeProcedure())
	return s.Composition()
}

// AR-07, EG-02 (003 §10): a new shoe that waits for its steps deals only
// once the inspector has authorised the shuffle and a player has cut it;
// the cut he gives is the one applied to the shuffled order.
func TestPlayerCut_EG02_WaitsForAuthorisationThenCut(t *testing.T) {
	tb := newTable(t, "spain")
	if err := tb.WaitForSteps(); err != nil {
		t.Fatal(err)
	}
	if tb.Awaiting() != StepAuthorise {
		t.Fatalf("awaiting %q", tb.Awaiting())
	}
	tb.Sit("ana", 1)
	tb.Bet("ana", 1, 100)
	_, err := tb.Deal()
	wantRefused(t, err, "EG-02")
	wantRefused(t, tb.CutShoe("ana", 100), "EG-02") // not before the authorisation
	if err := tb.AuthoriseShuffle("ines"); err != nil {
		t.Fatal(err)
	}
	_, err = tb.Deal()
	wantRefused(t, err, "EG-02")
	wantRefused(t, tb.CutShoe("ana", 0), "EG-02")
	wantRefused(t, tb.CutShoe("ana", 312), "EG-02")
	if tb.Awaiting() != StepCut {
		t.Fatalf("a refused cut changed the step: %q", tb.Awaiting())
	}
	order := uncut(t, tb)
	if err := tb.CutShoe("ana", 100); err != nil {
		t.Fatal(err)
	}
	want := append(slices.Clone(order[100:]), order[:100]...)
	if got := tb.Shoe().Composition(); !slices.Equal(got, want) {
		t.Fatalf("the cut at 100 is not the one applied")
	}
	if got := tb.Shoe().Burned(); !slices.Equal(got, want[:5]) { // EG-03 after the cut
		t.Fatalf("burned %v, want %v", got, want[:5])
	}
	if tb.ShuffleAuthorisedBy() != "ines" || tb.CutBy() != "ana" || tb.Awaiting() != StepNone {
		t.Fatalf("authorised by %q, cut by %q, awaiting %q", tb.ShuffleAuthorisedBy(), tb.CutBy(), tb.Awaiting())
	}
	r, err := tb.Deal()
	if err != nil {
		t.Fatal(err)
	}
	if got := r.Record().Cards[0]; got != want[5] {
		t.Errorf("first card dealt %v, want %v", got, want[5])
	}
}

// AR-07: the player's cut leaves more than min_cut cards on each side.
func TestPlayerCut_AR07_WithinMinCut(t *testing.T) {
	tb := newTable(t, "argentina")
	if err := tb.WaitForSteps(); err != nil {
		t.Fatal(err)
	}
	if err := tb.AuthoriseShuffle("ines"); err != nil {
		t.Fatal(err)
	}
	lo, hi := tb.CutRange()
	if lo != 51 || hi != tb.p.Cards()-51 {
		t.Fatalf("cut range %d to %d", lo, hi)
	}
	wantRefused(t, tb.CutShoe("ana", 50), "AR-07")
	wantRefused(t, tb.CutShoe("ana", hi+1), "AR-07")
	if err := tb.CutShoe("ana", 51); err != nil {
		t.Fatal(err)
	}
	if tb.Shoe().CutAt() != 51 {
		t.Errorf("cut at %d", tb.Shoe().CutAt())
	}
}

// AR-07, EG-02: without steps asked (ShoeSteps nil) a shoe is cut at once,
// at random, exactly as before.
func TestPlayerCut_EG02_NoStepsAsBefore(t *testing.T) {
	tb := newTable(t, "spain")
	s := shoe.New(tb.p.Decks, tb.Seed())
	if _, err := s.Prepare(tb.p.ShoeProcedure(), 0); err != nil {
		t.Fatal(err)
	}
	if tb.Awaiting() != StepNone || !slices.Equal(tb.Shoe().Composition(), s.Composition()) {
		t.Fatal("a table without steps does not prepare its shoe as before")
	}
	if err := tb.NewShoe(); err != nil || tb.Awaiting() != StepNone {
		t.Fatalf("new shoe: %v, awaiting %q", err, tb.Awaiting())
	}
}

// AR-07, EG-02: a new shoe asked for waits when ShoeSteps says so, also
// the one a finished shoe's last round brings (EG-05), and a snapshot
// taken while it waits restores the wait and the uncut order.
func TestPlayerCut_EG02_NewShoesWaitAndSnapshot(t *testing.T) {
	tb := newTable(t, "spain", "cut_card_reserve=280")
	tb.ShoeSteps = func() bool { return true }
	tb.Sit("ana", 1)
	for tb.ShoeNo() == 1 {
		tb.Bet("ana", 1, 100)
		r, err := tb.Deal()
		if err != nil {
			t.Fatal(err)
		}
		play(t, tb, r)
	}
	if tb.Awaiting() != StepAuthorise || tb.LastRound() {
		t.Fatalf("after the last round: shoe %d awaiting %q, last round %v", tb.ShoeNo(), tb.Awaiting(), tb.LastRound())
	}
	if err := tb.AuthoriseShuffle("ines"); err != nil {
		t.Fatal(err)
	}
	sn, err := tb.Snapshot()
	if err != nil {
		t.Fatal(err)
	}
	back, err := Restore(tb.p, sn)
	if err != nil {
		t.Fatal(err)
	}
	if back.Awaiting() != StepCut || back.ShuffleAuthorisedBy() != "ines" || !slices.Equal(back.Shoe().Composition(), uncut(t, tb)) {
		t.Fatalf("restored: awaiting %q, authorised by %q", back.Awaiting(), back.ShuffleAuthorisedBy())
	}
	if err := back.CutShoe("ana", 60); err != nil {
		t.Fatal(err)
	}
}
