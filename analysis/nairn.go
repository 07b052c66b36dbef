package analysis

import "sabot/rules"

// SplitBasic is John Nairn's "exact splitting" (github.com/nairnj/Blackjack,
// paper/Splitting.pdf, §2.2 and Appendix A): every split hand plays the
// zero-memory basic strategy — a fixed table of hits, stands and doubles by
// the hand's own cards and the up card — and a pair made again is resplit
// whenever the rules allow. "Exact" is the expectation of that strategy
// with exact card removal across every hand and the dealer; the strategy
// depends on the hand's own cards only, so splitValue computes it exactly
// (docs/analysis.md, "Splits").
const SplitBasic SplitPlay = 1

// nairnPlay is the play of split hand h (not bust, two cards or more) by the
// basic strategy of Nairn's paper, Appendix A, as his program applies it to
// split hands (Hand::basicSplitHit): a split Ace takes one card; with two
// cards, double where the strategy doubles and the rules allow; then the
// two-card exceptions; then the hitting rules by soft or hard total. The
// exceptions and doubles for 2 and more decks are his program's.
func (s *solver) nairnPlay(h hand) play {
	c := h.c
	if h.c.Total() == 21 || s.oneCard(h) && c.N >= 2 {
		return playStand
	}
	up := s.up + 1 // 1 the Ace … 10 a ten-value, as in the paper
	decks := s.p.Decks
	h17 := s.p.DealerHitsSoft17
	hard := int(c.Hard)             // Aces counted 1
	soft := c.Aces > 0 && hard < 12 // an Ace counting 11
	is := func(a, b int) bool { return c.N == 2 && hand2(h.comp, a, b) }
	if c.N == 2 {
		if s.canDouble(h) && nairnDoubles(hard, soft, up, decks, h17, is) {
			return playDouble
		}
		if !soft {
			if hit, ok := nairnException(up, decks, h17, is); ok {
				if hit {
					return playHit
				}
				return playStand
			}
		}
	}
	if nairnHits(hard, soft, int(c.N), up, decks, h17) {
		return playHit
	}
	return playStand
}

// hand2 reports whether the two-card hand comp is a, b (values 1-10).
func hand2(comp pack, a, b int) bool {
	want := pack(0).add(a - 1).add(b - 1)
	return comp == want
}

// nairnHits: the hitting rules of Appendix A (1, 2), by total.
func nairnHits(hard int, soft bool, n, up, decks int, h17 bool) bool {
	if soft {
		switch up {
		case 1:
			if decks == 1 && !h17 && hard == 8 {
				return false // stand soft 18 against an Ace, one deck S17
			}
			return hard < 9
		case 9, 10:
			return hard < 9
		}
		return hard < 8
	}
	switch up {
	case 2, 3:
		return hard < 13
	case 4, 5, 6:
		return hard < 12
	case 10:
		if hard == 16 && decks == 1 && n >= 3 {
			return false // stand a 16 of three cards or more against a ten
		}
	}
	return hard < 17
}

// nairnException: the two-card hard exceptions (Appendix A, 1): hit (true)
// or stand, and whether the hand is one.
func nairnException(up, decks int, h17 bool, is func(a, b int) bool) (hit, ok bool) {
	switch decks {
	case 1:
		switch {
		case up == 2 && is(10, 3) && !h17:
			return true, true
		case up == 3 && (is(8, 4) || is(7, 5) || is(6, 6)):
			return false, true
		case up == 4 && is(10, 2):
			return true, true
		case up == 6 && is(10, 2) && !h17:
			return true, true
		case up == 10 && is(7, 7):
			return false, true
		}
	case 2:
		switch {
		case up == 3 && h17 && (is(8, 4) || is(7, 5) || is(6, 6)):
			return false, true
		case up == 4 && is(10, 2):
			return true, true
		}
	default:
		if up == 4 && !h17 && is(10, 2) {
			return true, true
		}
	}
	return false, false
}

// nairnDoubles: the doubling rules of Appendix A (3, 4) and his program's
// exceptions for more decks, where the rules let the hand double.
func nairnDoubles(hard int, soft bool, up, decks int, h17 bool, is func(a, b int) bool) bool {
	if soft {
		switch {
		case decks >= 2 && up == 2 && hard == 7:
			return false
		case decks >= 2 && up == 2 && hard == 8 && h17:
			return true
		case decks >= 2 && up == 4 && hard == 3:
			return false
		case decks == 2 && up == 4 && hard == 4 && !h17, decks > 2 && up == 4 && hard == 4:
			return false
		case decks >= 2 && up == 6 && hard == 9 && !h17:
			return false
		}
		switch up {
		case 2:
			return hard == 7
		case 3:
			return hard == 7 || hard == 8
		case 4:
			return hard >= 3 && hard <= 8
		case 5:
			return hard <= 8
		case 6:
			return hard <= 9
		}
		return false
	}
	if hard > 11 {
		return false
	}
	switch decks {
	case 1:
		// (6,2) hits against a 5 and a 6. Appendix A and his program today
		// double it against a 5 when the dealer hits soft 17 ("new here",
		// its comment says); his published H17 tables do not.
		if is(6, 2) && (up == 6 || up == 5) {
			return false
		}
	case 2:
		if hard == 8 && (up == 5 || up == 6) || up == 1 && !h17 && (is(9, 2) || is(8, 3)) {
			return false
		}
	default:
		if hard == 9 && up == 2 || hard == 8 && (up == 5 || up == 6) || up == 1 && hard == 11 && !h17 {
			return false
		}
	}
	switch up {
	case 2, 3, 4:
		return hard >= 9
	case 5, 6:
		return hard >= 8
	case 7, 8, 9:
		return hard >= 10
	}
	return hard >= 11
}

// splitRules is the profile's doubling after a split as Nairn's tables name
// it: none, any two cards, or 10 and 11 only.
func splitRules(p *rules.Profile) string {
	switch {
	case !p.DoubleAfterSplit:
		return "none"
	case p.DoubleOn == rules.Double10to11:
		return "10&11"
	}
	return "any"
}
