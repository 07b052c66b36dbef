package rules

import "fmt"

// oneDeck is a reserve the rules name in decks: «about one deck from the
// end» (AR-08), «equivalente a un juego, como mínimo» (EG-02).
const oneDeck = 52

// followDecks adjusts the options counted in cards when the decks were
// changed from oldDecks and those options were not (set names the keys the
// user gave), so that a variation of a profile in decks alone is not
// refused for a cut card its shoe cannot hold (AR-07, AR-08, EG-02). It
// returns a line for each option it changed, for the user.
//
// A reserve of one deck, as the seeds name it, stays one deck where the
// shoe holds it; any other reserve (a reference profile's penetration, 78
// of 6 decks) keeps its share of the shoe. A minimum cut (AR-07: «más de
// 50 cartas») is kept where the shoe is large enough, else scaled.
func (p *Profile) followDecks(oldDecks int, set map[string]bool) []string {
	if p.Decks == oldDecks || oldDecks < 1 || p.Decks < 1 || set["decks"] == false {
		return nil
	}
	var notes []string
	scale := func(n int) int { return (n*p.Decks + oldDecks/2) / oldDecks }
	if !set["cut_card_reserve"] && p.CutCardReserve > 0 {
		old, n := p.CutCardReserve, p.CutCardReserve
		if old != oneDeck || oneDeck+p.BurnCards+20 > p.Cards() {
			n = scale(old)
		}
		// Leave 20 cards to deal at the least, as Validate asks.
		n = min(n, max(p.Cards()-p.BurnCards-20, 0))
		if n != old {
			p.CutCardReserve = n
			notes = append(notes, fmt.Sprintf("decks=%d: cut_card_reserve scaled with the decks from %d to %d cards, the same share of the shoe (AR-08, EG-02); set cut_card_reserve to choose another", p.Decks, old, n))
		}
	}
	if !set["min_cut"] && p.MinCut > 0 && 2*p.MinCut >= p.Cards() {
		old := p.MinCut
		p.MinCut = min(scale(old), (p.Cards()-1)/2)
		notes = append(notes, fmt.Sprintf("decks=%d: min_cut scaled with the decks from %d to %d cards (AR-07); set min_cut to choose another", p.Decks, old, p.MinCut))
	}
	return notes
}
