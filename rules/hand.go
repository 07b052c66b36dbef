package rules

import "sabot/card"

// Count is the arithmetic of a hand: everything the rules need to know of its
// cards to total it (AR-02, ES-02, VE-02), to apply the dealer's rule
// (AR-13, ES-05, VE-08) and to settle it. The zero Count is an empty hand.
type Count struct {
	Hard     uint8 // the sum with every Ace counted 1
	N        uint8 // cards in the hand
	Aces     uint8 // Aces among them
	Sevens   uint8 // sevens among them (PON-02)
	Declared uint8 // 0, or the declared value (1 or 11) of the hand's first Aces (AR-11, VE-13)
	LateAces uint8 // Aces received after the declaration (AR-11: they count at their best value)
}

// Add returns the count with one more card.
func (c Count) Add(x card.Card) Count {
	c.Hard += uint8(x.Value())
	c.N++
	switch x.Rank() {
	case card.Ace:
		c.Aces++
		if c.Declared != 0 {
			c.LateAces++
		}
	case card.Seven:
		c.Sevens++
	}
	return c
}

// CountOf returns the count of cards.
func CountOf(cs ...card.Card) Count {
	var c Count
	for _, x := range cs {
		c = c.Add(x)
	}
	return c
}

// Declare fixes the value of the Aces the hand holds now: 11 counts one of
// them 11 and every other Ace 1, for the rest of the round; 1 counts them all
// 1, while Aces received later count at their most favourable value (AR-11,
// VE-13).
func (c Count) Declare(v int) Count {
	c.Declared = uint8(v)
	c.LateAces = 0
	return c
}

// Total is the hand's value: the best total not over 21 where the Aces allow
// a choice, the declared one where the hand has declared.
func (c Count) Total() int {
	h := int(c.Hard)
	switch c.Declared {
	case 11:
		return h + 10
	case 1:
		if c.LateAces > 0 && h <= 11 {
			return h + 10
		}
		return h
	}
	if c.Aces > 0 && h <= 11 {
		return h + 10
	}
	return h
}

// Soft reports whether an Ace counts 11 in Total and could still count 1.
func (c Count) Soft() bool {
	switch c.Declared {
	case 11:
		return false
	case 1:
		return c.LateAces > 0 && c.Hard <= 11
	}
	return c.Aces > 0 && c.Hard <= 11
}

// Bust reports whether the hand is over 21.
func (c Count) Bust() bool { return c.Total() > 21 }

// TwoCard21 reports whether the hand is 21 with two cards (a blackjack when it
// is an unsplit hand or the dealer's).
func (c Count) TwoCard21() bool { return c.N == 2 && c.Aces > 0 && c.Hard == 11 }

// AnnouncedTotal is the total the dealer announces for his own hand under
// AR-13: an Ace counts 11 only when that makes 17 to 21 (A-5 is "6"). The
// dealer's decisions are the same as with Total.
func (c Count) AnnouncedTotal() int {
	t := c.Total()
	if c.Soft() && t < 17 {
		return int(c.Hard)
	}
	return t
}

// DealerAdd returns the dealer's count with one more card, by the profile's
// reading of AR-13 (dealer_ace): under stays-one, an Ace that counts 11 in
// a hand he draws to (two cards or more, soft) is fixed at 1 before the
// card is added, as a declared 1 (Declare): A-5 then a 2 is 8, and an Ace
// drawn later counts 11 only where that makes 17 to 21. Under recount it
// is Add. The dealer's first two cards are added as they come (13 a, b).
func (p *Profile) DealerAdd(c Count, x card.Card) Count {
	if p.DealerAce == AceStaysOne && c.N >= 2 && c.Soft() {
		c = c.Declare(1)
	}
	return c.Add(x)
}

// DealerCount returns the count of the dealer's cards in the order he
// took them (DealerAdd).
func (p *Profile) DealerCount(cs ...card.Card) Count {
	var c Count
	for _, x := range cs {
		c = p.DealerAdd(c, x)
	}
	return c
}

// DealerDraws reports whether the dealer draws to this hand: below 17, and on
// a soft 17 where the profile hits it (AR-13, ES-05, VE-08).
func (p *Profile) DealerDraws(c Count) bool {
	t := c.Total()
	if t < 17 {
		return true
	}
	return t == 17 && p.DealerHitsSoft17 && c.Soft()
}

// CanDoubleOn reports whether a two-card hand with this count may double
// under double_on (AR-17, ES-08, VE-11). A soft hand qualifies if either of
// its counts is in range: the Ace counts as suits the player (ES-02).
func (p *Profile) CanDoubleOn(c Count) bool {
	in := func(t int) bool {
		switch p.DoubleOn {
		case Double9to11:
			return t >= 9 && t <= 11
		case Double10to11:
			return t == 10 || t == 11
		case Double11:
			return t == 11
		}
		return true
	}
	t := c.Total()
	if in(t) {
		return true
	}
	// A declared hand's count is fixed (AR-11); an undeclared soft hand
	// may be counted with the Ace as 1.
	return c.Declared == 0 && c.Soft() && in(int(c.Hard))
}

// MustDraw reports whether the hand is under the obligation to draw (VE-06).
func (p *Profile) MustDraw(c Count) bool {
	return p.MustDrawAtMost > 0 && c.Total() <= p.MustDrawAtMost
}
