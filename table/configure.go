package table

import (
	"sabot/engine"
	"sabot/rules"
)

// Reconfigure puts a new profile in force between rounds: the pit changes a
// live table's limits or rules, or the players of a family table agree new
// stakes and a new way of passing the bank (FAM-01). A change to the shoe
// (decks, cut, cut card, burns, where collected cards go) prepares a new
// shoe, as AR-24 lets the inspector do between rounds; Reconfigure reports
// it. Seats beyond a smaller layout must be free and hold no bet; bets that
// the new limits refuse must have been withdrawn by the caller first (the
// caller returns their stakes). The round last played is forgotten: the
// next is dealt under the new rules.
func (t *Table) Reconfigure(p *rules.Profile) (newShoe bool, err error) {
	if t.inRound() {
		return false, t.refuse("", "the configuration changes between rounds")
	}
	if err := p.Validate(); err != nil {
		return false, err
	}
	for box := p.Boxes + 1; box < len(t.seats); box++ {
		if t.seats[box] != "" {
			return false, t.refuse("", "box %d is held by %s: the layout keeps it", box, t.seats[box])
		}
	}
	for _, b := range t.bets {
		if b.Box > p.Boxes {
			return false, t.refuse("", "box %d has a bet: the layout keeps it", b.Box)
		}
	}
	newShoe = p.Decks != t.p.Decks || p.ShoeProcedure() != t.p.ShoeProcedure()
	seats := make([]string, p.Boxes+1)
	copy(seats, t.seats)
	old := t.p
	t.p, t.seats, t.round = p, seats, engine.New(p)
	t.round.SetAmountStyle(t.style)
	if !p.BankRotates {
		t.bank, t.bankRounds = "", 0
	}
	if newShoe && t.phys != nil {
		t.newPhysicalShoe()
	} else if newShoe {
		if err := t.drawShoe(); err != nil {
			t.p = old
			return false, err
		}
	}
	return newShoe, nil
}

// GiveBank gives the bank of a family table to a seated player, or back to
// the house (""), as the players agree (FAM-01: who starts, and any change
// they agree besides FAM-02's rotation). Face-down collected cards are
// reshuffled when the bank changes hands (FAM-03); GiveBank reports it.
func (t *Table) GiveBank(player string) (newShoe bool, err error) {
	switch {
	case !t.p.BankRotates:
		return false, t.refuse("FAM-02", "the bank is the house's at this table (bank_rotates=false)")
	case t.inRound():
		return false, t.refuse("FAM-02", "the bank changes hands between rounds")
	case player != "" && t.firstSeat(player) > t.p.Boxes:
		return false, t.refuse("FAM-01", "%s does not sit at the table: the bank goes to a seated player", player)
	case player == t.bank:
		return false, nil
	}
	t.bank, t.bankRounds = player, 0
	if t.p.Collected == rules.UnderFaceDown {
		return true, t.NewShoe()
	}
	return false, nil
}
