package shoe

import "sabot/card"

// Procedure is a profile's shoe procedure (rules.Profile.ShoeProcedure).
type Procedure struct {
	MinCut         int       // AR-07
	CutCardReserve int       // AR-08, EG-02
	BurnCards      int       // EG-03
	Collected      Collected // FAM-03
}

// Prepare runs a shoe procedure on a fresh shuffle: shuffle every card
// (EG-05), the player's cut at cutAt (0: a random cut the procedure allows;
// AR-07, EG-02), the cut card with its reserve (AR-08, EG-02), and the burn
// cards (EG-03). It returns the burned cards.
func (s *Shoe) Prepare(p Procedure, cutAt int) ([]card.Card, error) {
	s.PrepareUncut(p)
	if cutAt == 0 {
		cutAt = s.RandomCut(p.MinCut)
	}
	return s.FinishCut(p, cutAt)
}

// PrepareUncut is the first half of Prepare, for a shoe a player cuts
// later (AR-07, EG-02): every card shuffled (EG-05), not yet cut, with no
// cut card and no burns. FinishCut is the second half.
func (s *Shoe) PrepareUncut(p Procedure) {
	s.SetCollected(p.Collected)
	s.Shuffle()
}

// FinishCut is the second half of Prepare: the cut at cutAt (AR-07,
// EG-02), the cut card (AR-08, EG-02) and the burns (EG-03). A cut the
// procedure does not allow changes nothing.
func (s *Shoe) FinishCut(p Procedure, cutAt int) ([]card.Card, error) {
	if err := s.Cut(cutAt, p.MinCut); err != nil {
		return nil, err
	}
	s.PlaceCutCard(p.CutCardReserve)
	return s.Burn(p.BurnCards), nil
}

// CutRange is the cuts the procedure allows on a shoe of n cards: from lo
// to hi cards moved to the back (AR-07).
func (p Procedure) CutRange(n int) (lo, hi int) { return p.MinCut + 1, n - p.MinCut - 1 }
