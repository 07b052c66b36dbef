package play

import (
	"fmt"
	"strings"

	"sabot/card"
	"sabot/engine"
	"sabot/rules"
)

// handView is a hand as the table sees it, rebuilt from the round's events
// so that each line shows the hand as it was when the card came, not as it
// ends: the cards, which one is face down, and the count of the cards shown.
type handView struct {
	cards    []card.Card
	faceDown int         // index of the face-down card, -1 none
	count    rules.Count // every card, as the engine counts it
	shown    rules.Count // the cards face up
	split    bool
	doubled  bool
	// dealer is the profile of the dealer's hand (nil for a box's): his
	// cards count by its reading of AR-13 (Profile.DealerAdd).
	dealer *rules.Profile
}

func newHandView() *handView { return &handView{faceDown: -1} }

func (h *handView) add(c card.Card, faceDown bool) {
	if faceDown {
		h.faceDown = len(h.cards)
	} else {
		h.shown = h.addTo(h.shown, c)
	}
	h.cards = append(h.cards, c)
	h.count = h.addTo(h.count, c)
}

func (h *handView) addTo(n rules.Count, c card.Card) rules.Count {
	if h.dealer != nil {
		return h.dealer.DealerAdd(n, c)
	}
	return n.Add(c)
}

func (h *handView) reveal() {
	h.faceDown = -1
	h.shown = h.count
}

func (h *handView) declare(v int) {
	h.count = h.count.Declare(v)
	h.shown = h.shown.Declare(v)
}

// suitSymbols are the suits as symbols, in card.Suit's order (S H D C).
var suitSymbols = [...]string{"♠", "♥", "♦", "♣"}

// cardsText shows the cards, a face-down card as ??; with symbols the suit
// as its symbol (A♠), else as its letter (AS).
func (h *handView) cardsText(symbols bool) string {
	parts := make([]string, len(h.cards))
	for i, c := range h.cards {
		parts[i] = cardText(c, symbols)
		if i == h.faceDown {
			parts[i] = "??"
		}
	}
	return strings.Join(parts, " ")
}

// cardText is one card, its suit as its symbol (A♠) or its letter (AS).
func cardText(c card.Card, symbols bool) string {
	if symbols {
		return c.String()[:1] + suitSymbols[c.Suit()]
	}
	return c.String()
}

// tableView is the table as the player sees it during a round.
type tableView struct {
	tr      printer // the session's language
	symbols bool    // suits as symbols (Config.SuitSymbols)
	p       *rules.Profile
	dealer  *handView
	boxes   map[int][]*handView
}

func (t *tableView) reset(p *rules.Profile) {
	t.p = p
	t.dealer = newHandView()
	t.dealer.dealer = p
	t.boxes = map[int][]*handView{}
}

// hand returns a box's hand (from 1), making it on its first card.
func (t *tableView) hand(box, hand int) *handView {
	hs := t.boxes[box]
	for len(hs) < hand {
		hs = append(hs, newHandView())
	}
	t.boxes[box] = hs
	return hs[hand-1]
}

// split mirrors the engine's split: the hand keeps its first card and a new
// hand, numbered after the box's last, takes the second.
func (t *tableView) split(box, hand int) {
	h := t.hand(box, hand)
	if len(h.cards) != 2 {
		return
	}
	c1, c2 := h.cards[0], h.cards[1]
	*h = handView{faceDown: -1, split: true}
	h.add(c1, false)
	nh := newHandView()
	nh.split = true
	nh.add(c2, false)
	t.boxes[box] = append(t.boxes[box], nh)
}

// label names a box's hand: "Box 1", or "Box 1 hand 2" once it has split.
func (t *tableView) label(box, hand int) string {
	if len(t.boxes[box]) > 1 {
		return t.tr.Sprintf("Box %d hand %d", box, hand)
	}
	return t.tr.Sprintf("Box %d", box)
}

// playerLine is a hand as the dealer announces it (AR-12): its cards and its
// total; a face-down double card (AR-17) leaves the total open.
func (t *tableView) playerLine(box, hand int) string {
	h := t.hand(box, hand)
	return fmt.Sprintf("%s: %s (%s)", t.label(box, hand), h.cardsText(t.symbols), t.playerTotal(h))
}

func (t *tableView) playerTotal(h *handView) string {
	c := h.shown
	switch {
	case h.faceDown >= 0:
		return t.tr.Sprintf("%d and a card face down until the dealer has played, AR-17", c.Total())
	case c.Bust():
		return t.tr.Sprintf("%d, bust", c.Total())
	case t.p.IsBlackjack(rules.PlayerHand{Count: c, Split: h.split}):
		return t.tr.word("blackjack")
	case c.Soft() && c.Total() < 21:
		return t.tr.Sprintf("soft %d", c.Total())
	}
	return fmt.Sprint(c.Total())
}

// dealerLine is the dealer's hand with the total he announces (AR-13: an
// Ace counts 11 only when that makes 17 to 21).
func (t *tableView) dealerLine() string {
	h := t.dealer
	return t.tr.Sprintf("Dealer: %s (%s)", h.cardsText(t.symbols), t.dealerTotal())
}

func (t *tableView) dealerTotal() string {
	h := t.dealer
	c := h.shown
	switch {
	case c.Bust():
		return t.tr.Sprintf("%d, bust", c.Total())
	case h.faceDown < 0 && c.TwoCard21():
		return t.tr.word("blackjack")
	case c.N == 1 && c.Aces == 1:
		return t.tr.word("Ace") // a lone Ace is announced as such, not as 1
	}
	return fmt.Sprint(c.AnnouncedTotal())
}

// upCard is the dealer's first card, written as his hand's cards are.
func (t *tableView) upCard() string {
	if len(t.dealer.cards) == 0 {
		return ""
	}
	return cardText(t.dealer.cards[0], t.symbols)
}

// apply mirrors one event on the view.
func (t *tableView) apply(e engine.Event) {
	switch e.Kind {
	case engine.EvCard:
		if e.Box == 0 {
			t.dealer.add(e.Card, e.FaceDown)
		} else {
			t.hand(e.Box, e.Hand).add(e.Card, e.FaceDown)
		}
	case engine.EvReveal:
		if e.Box == 0 {
			t.dealer.reveal()
		} else {
			t.hand(e.Box, e.Hand).reveal()
		}
	case engine.EvAction:
		switch e.Action.Kind {
		case engine.Split:
			t.split(e.Action.Box, e.Action.Hand)
		case engine.Double:
			t.hand(e.Action.Box, e.Action.Hand).doubled = true
		case engine.Declare:
			t.hand(e.Action.Box, e.Action.Hand).declare(e.Action.Value)
		}
	}
}
