package play

import (
	"bytes"
	"strings"
	"testing"

	"sabot/card"
	"sabot/engine"
	"sabot/rules"
)

// dealerAfter returns the dealer's line after cards are dealt face up.
func dealerAfter(p *rules.Profile, codes string) string {
	var v tableView
	v.reset(p)
	for _, c := range card.MustParseList(codes) {
		v.apply(engine.Event{Kind: engine.EvCard, Card: c})
	}
	return v.dealerLine()
}

// AR-13: the dealer announces his total with an Ace counted 11 only when that
// makes 17 to 21: A-5 is 6, A-A is 2, 4-2-A is 17.
func TestDealerAnnouncedTotal(t *testing.T) {
	p := rules.MustLookup("argentina")
	for codes, want := range map[string]string{
		"AS":       "Dealer: AS (Ace)",
		"AS 5H":    "Dealer: AS 5H (6)",
		"AS AH":    "Dealer: AS AH (2)",
		"4C 2D AS": "Dealer: 4C 2D AS (17)",
		"AS 6D":    "Dealer: AS 6D (17)",
		"AS KD":    "Dealer: AS KD (blackjack)",
		"TS 6D 9C": "Dealer: TS 6D 9C (25, bust)",
	} {
		if got := dealerAfter(p, codes); got != want {
			t.Errorf("%s: %q, want %q", codes, got, want)
		}
	}
}

// AR-09: the hole card shows face down, and its total is the up card's,
// until it is turned. AR-17: a double's card is face down until the dealer
// has played.
func TestFaceDownCards(t *testing.T) {
	p := rules.MustLookup("argentina")
	var v tableView
	v.reset(p)
	for _, e := range []engine.Event{
		{Kind: engine.EvCard, Box: 1, Hand: 1, Card: card.MustParse("6H")},
		{Kind: engine.EvCard, Card: card.MustParse("TS")},
		{Kind: engine.EvCard, Box: 1, Hand: 1, Card: card.MustParse("5D")},
		{Kind: engine.EvCard, Card: card.MustParse("AH"), FaceDown: true},
		{Kind: engine.EvAction, Box: 1, Hand: 1, Action: engine.Action{Kind: engine.Double, Box: 1, Hand: 1}},
		{Kind: engine.EvCard, Box: 1, Hand: 1, Card: card.MustParse("KC"), FaceDown: true},
	} {
		v.apply(e)
	}
	if got, want := v.dealerLine(), "Dealer: TS ?? (10)"; got != want {
		t.Errorf("hole card: %q, want %q", got, want)
	}
	if got, want := v.playerLine(1, 1), "Box 1: 6H 5D ?? (11 and a card face down until the dealer has played, AR-17)"; got != want {
		t.Errorf("double card: %q, want %q", got, want)
	}
	v.apply(engine.Event{Kind: engine.EvReveal, Card: card.MustParse("AH")})
	v.apply(engine.Event{Kind: engine.EvReveal, Box: 1, Hand: 1, Card: card.MustParse("KC")})
	if got, want := v.dealerLine(), "Dealer: TS AH (blackjack)"; got != want {
		t.Errorf("turned: %q, want %q", got, want)
	}
	if got, want := v.playerLine(1, 1), "Box 1: 6H 5D KC (21)"; got != want {
		t.Errorf("turned: %q, want %q", got, want)
	}
}

// AR-09 in play: in every round of a no-peek session the dealer's lines show
// the hole card as ?? until the dealer turns it.
func TestHoleCardHiddenUntilTurned(t *testing.T) {
	cfg := table(t, "argentina", 7)
	cfg.Rounds = 40
	out, _, _ := play(t, cfg, nil, bold)
	rounds := strings.Split(out, "\nRound ")[1:]
	turned := 0
	for _, r := range rounds {
		before, _, ok := strings.Cut(r, "Dealer turns the hole card")
		if ok {
			turned++
		}
		for _, line := range strings.Split(before, "\n") {
			if strings.HasPrefix(line, "Dealer: ") && strings.Count(line, " ") > 2 && !strings.Contains(line, "??") {
				t.Errorf("the hole card shows before it is turned: %q", line)
			}
		}
	}
	if turned < 30 {
		t.Errorf("the hole card was turned in %d of 40 rounds", turned)
	}
}

// Split hands are labelled and shown as the engine numbers them: in the
// order they are played, a new hand after the box's last.
func TestSplitHandsMirrorTheEngine(t *testing.T) {
	resplits := 0
	for _, name := range []string{"spain", "vegas-s17", "venice"} {
		cfg := table(t, name, 21)
		cfg.Rounds = 60
		cfg.Boxes = []int{1, 2, 3}
		var s *Session
		cfg.OnRound = nil
		splits := 0
		// At the end of each round the view must hold the engine's hands.
		check := func(r *engine.Round) {
			for _, box := range r.Boxes() {
				hs := r.Hands(box)
				if len(hs) > 1 {
					splits++
				}
				if len(hs) > 2 {
					resplits++
				}
				for i := range hs {
					got := s.view.hand(box, i+1)
					if card.Format(got.cards) != card.Format(hs[i].Cards()) || got.count.Total() != hs[i].Total() {
						t.Errorf("%s box %d hand %d: shown %s (%d), engine %s (%d)", name, box, i+1,
							card.Format(got.cards), got.count.Total(), card.Format(hs[i].Cards()), hs[i].Total())
					}
				}
			}
		}
		cfg.OnRound = check
		var err error
		if s, err = New(cfg); err != nil {
			t.Fatal(err)
		}
		var out bytes.Buffer
		if _, err := s.Run(&bot{out: &out, answer: bold}, &out); err != nil {
			t.Fatal(err)
		}
		if splits == 0 {
			t.Errorf("%s: no split in 60 rounds", name)
		}
	}
	if resplits == 0 {
		t.Error("no box split twice: the numbering of a third hand is not checked")
	}
}
