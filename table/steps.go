package table

import (
	"errors"

	"sabot/shoe"
)

// A new shoe's steps before its first deal, where the profile asks them
// (rules.Profile.PlayerCut; AR-07, EG-02): the inspector authorises the
// shuffle (000 item 5: «con autorización del Inspector o Jefe de Mesa»),
// then a player cuts it (AR-07: «solicitando a los apostadores realizar el
// corte»; 003 §10: «se presentarán a uno de los jugadores para un nuevo y
// final corte»). The shoe is shuffled and not cut until then: its order
// before the cut is what a server commits to, and the cut, public, is
// applied to it.

// Step is what a new shoe waits for before its first deal.
type Step string

const (
	StepNone      Step = ""          // nothing: the shoe is cut and ready
	StepAuthorise Step = "authorise" // the inspector's authorisation of the shuffle
	StepCut       Step = "cut"       // the player's cut
)

// Awaiting is the step the current shoe waits for.
func (t *Table) Awaiting() Step { return t.await }

// ShuffleAuthorisedBy is who authorised the current shoe's shuffle ("" if
// it waits for it, or had no such step), and CutBy who cut it.
func (t *Table) ShuffleAuthorisedBy() string { return t.authorisedBy }
func (t *Table) CutBy() string               { return t.cutBy }

// CutRange is the cuts the current shoe allows (AR-07: min_cut).
func (t *Table) CutRange() (lo, hi int) {
	if t.shoe == nil {
		return 0, 0
	}
	return t.p.ShoeProcedure().CutRange(t.shoe.Remaining())
}

// WaitForSteps makes the current shoe, not yet dealt from, wait for its
// steps: it is prepared again from its seed, shuffled and not cut.
func (t *Table) WaitForSteps() error {
	switch {
	case t.shoeStarted || t.inRound():
		return t.refuse("AR-07, EG-02", "the shoe is being dealt: it was cut")
	case t.phys != nil: // the real cards are shuffled and cut: the steps are who did it
		t.await, t.authorisedBy, t.cutBy = StepAuthorise, "", ""
		return nil
	}
	s := shoe.New(t.p.Decks, t.seed)
	s.PrepareUncut(t.p.ShoeProcedure())
	t.shoe = s
	t.await, t.authorisedBy, t.cutBy = StepAuthorise, "", ""
	return nil
}

// AuthoriseShuffle records who authorised the shuffle of the shoe that
// waits for it (000 item 5).
func (t *Table) AuthoriseShuffle(by string) error {
	if t.await != StepAuthorise {
		return t.refuse("AR-07, EG-02", "the shoe waits for no authorisation of its shuffle")
	}
	if by == "" {
		return t.refuse("AR-07, EG-02", "an authorisation needs the name of who gives it")
	}
	t.authorisedBy, t.await = by, StepCut
	return nil
}

// CutShoe applies the cut of by at the position at (cards moved to the
// back, AR-07) to the shoe that waits for it, then places the cut card and
// burns (AR-08, EG-02, EG-03). A cut outside CutRange changes nothing. A
// physical shoe's cut is the real cards': it records who cut (at is not
// known, and not used).
func (t *Table) CutShoe(by string, at int) error {
	switch {
	case t.await == StepAuthorise:
		return t.refuse("AR-07, EG-02", "the shoe is cut once its shuffle is authorised")
	case t.await != StepCut:
		return t.refuse("AR-07, EG-02", "the shoe waits for no cut")
	case by == "":
		return t.refuse("AR-07, EG-02", "a cut needs the name of who makes it")
	case t.phys != nil:
		t.cutBy, t.await = by, StepNone
		return nil
	}
	if lo, hi := t.CutRange(); at < lo || at > hi {
		return t.refuse("AR-07, EG-02", "a cut moves %d to %d cards to the back (min_cut %d); %d asked", lo, hi, t.p.MinCut, at)
	}
	if _, err := t.shoe.FinishCut(t.p.ShoeProcedure(), at); err != nil {
		if errors.Is(err, shoe.ErrCut) {
			return t.refuse("AR-07, EG-02", "%v", err)
		}
		return err
	}
	t.cutBy, t.await = by, StepNone
	return nil
}

// drawShoe is a new shoe from the next seed, waiting for its steps where
// ShoeSteps says so.
func (t *Table) drawShoe() error {
	steps := t.ShoeSteps != nil && t.ShoeSteps()
	if err := t.newShoe(t.Seeds()); err != nil {
		return err
	}
	if steps {
		return t.WaitForSteps()
	}
	return nil
}

// ShoeReady refuses a deal from the shuffled shoe while it waits for a
// step: a *NotReady says which (AR-07, EG-02).
func (t *Table) ShoeReady() error {
	switch t.await {
	case StepAuthorise:
		return &NotReady{Rule: t.p.Cite("AR-07, EG-02", "player_cut"), Reason: "shoe_authorise"}
	case StepCut:
		return &NotReady{Rule: t.p.Cite("AR-07, EG-02", "player_cut"), Reason: "shoe_cut"}
	}
	return nil
}
