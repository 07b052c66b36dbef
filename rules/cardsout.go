package rules

// CardsOut is what a profile does when a round's cards run out (the shoe
// is empty before the round is settled), and the rule it cites.
//
// Only the Argentine text has a rule for it: «Si a pesar de ello, las
// cartas no alcanzaran para definir el pase, éste será nulo» (AR-08). 001
// and 004 say nothing, and 003 has only the cut card's announcement of the
// last round and the house option to stop there (EG-04). Where the
// regulation is silent sabot takes a reading, shown by Readings: the round
// is void as AR-08 would have it, every stake returned, but nothing the
// seed makes final before is undone: an even money paid («finalizando con
// esto su jugada», ES-10; «l'immediato pagamento», VE-16) stays paid.
type CardsOut struct {
	Rule    string // the rule cited: AR-08, or the rule a reading hangs on
	Reading bool   // the regulation has no such rule: sabot's reading
}

// CardsOut returns the profile's end-of-cards behaviour.
func (p *Profile) CardsOut() CardsOut {
	switch {
	case p.OwnRule("AR-08"):
		return CardsOut{Rule: "AR-08"}
	case p.OwnRule("FAM-03"): // one deck, no cut card: the deck itself ends
		return CardsOut{Rule: "FAM-03", Reading: true}
	case p.OwnRule("EG-02"): // the reserve behind the cut card
		return CardsOut{Rule: "EG-02", Reading: true}
	case p.OwnRule("VE-01"):
		return CardsOut{Rule: "VE-01", Reading: true}
	}
	return CardsOut{Reading: true}
}

// VoidText is the engine's reason for a round void because its cards ran
// out, citing the profile's own rule (recall.VoidReason reads it back).
func (p *Profile) VoidText() string {
	c := p.CardsOut()
	switch {
	case !c.Reading:
		return "the cards ran out (" + c.Rule + ")"
	case c.Rule == "":
		return "the cards ran out: void by this table's reading"
	}
	return "the cards ran out: the regulation has no rule for it, and this table's reading voids the round (" + c.Rule + ")"
}

// cardsOutReading is the reading of a profile whose regulation has no rule
// for a round whose cards run out.
func (p *Profile) cardsOutReading() (Reading, bool) {
	c := p.CardsOut()
	if !c.Reading || c.Rule == "" {
		return Reading{}, false
	}
	var why string
	switch c.Rule {
	case "FAM-03":
		why = "003 §12 deals one deck with no cut card and reshuffles the collected cards when the first face-up one is reached (FAM-03), and says nothing of a round that the deck itself cannot finish"
	case "EG-02":
		why = "003 leaves a reserve of «un juego, como mínimo» behind the cut card (EG-02) and lets the house stop at the cut card (EG-04, last_round_void), and 001 says nothing of a round the cards still cannot finish"
	case "VE-01":
		why = "the Venetian rules name neither a cut card nor what follows when the cards run out"
	}
	return Reading{Rule: c.Rule,
		Text: why + ": sabot's reading voids the round and returns every stake, as the Argentine text (AR-08) does, but undoes nothing already final: an even money paid stays paid («finalizando con esto su jugada», ES-10; «l'immediato pagamento», VE-16). There is one way only: the forced-card contract has no discards to reshuffle, and a live table starts a new shoe after the void (a larger cut_card_reserve makes it rarer)"}, true
}
