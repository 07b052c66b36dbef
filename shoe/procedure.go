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
	s.SetCollected(p.Collected)
	s.Shuffle()
	if cutAt == 0 {
		cutAt = s.RandomCut(p.MinCut)
	}
	if err := s.Cut(cutAt, p.MinCut); err != nil {
		return nil, err
	}
	s.PlaceCutCard(p.CutCardReserve)
	return s.Burn(p.BurnCards), nil
}
