package engine

import (
	"errors"
	"reflect"
	"testing"

	"sabot/card"
	"sabot/rules"
)

// checkPhysical plays a finished round again as a table dealt from a
// physical shoe would: the cards come one at a time, each
// decision when the round takes one. Before each card the round waits and
// says whom the card is for, which must be where the round dealt it; while
// it waits it takes no decision; with every card and decision in, its
// events are the round's.
func checkPhysical(t *testing.T, p *rules.Profile, r *Round) {
	t.Helper()
	rec := r.Record()
	var targets []Need
	for _, e := range r.Events() {
		if e.Kind == EvCard {
			targets = append(targets, Need{Box: e.Box, Hand: e.Hand, FaceDown: e.FaceDown})
		}
	}
	if len(targets) != len(rec.Cards) {
		t.Fatalf("%d cards dealt, %d drawn", len(targets), len(rec.Cards))
	}
	if rec.Cards == nil {
		rec.Cards = []card.Card{}
	}
	cards, actions := 0, 0
	for steps := 0; ; steps++ {
		if steps > 2000 {
			t.Fatal("the physical round does not end")
		}
		part := Record{Bets: rec.Bets, Cards: rec.Cards[:cards], Actions: rec.Actions[:actions], CutAfter: rec.CutAfter, CutAtStart: rec.CutAtStart}
		pr, err := ReplayPhysical(p, part)
		if err != nil {
			t.Fatalf("physical replay with %d cards and %d decisions: %v", cards, actions, err)
		}
		if !reflect.DeepEqual(pr.Events(), r.Events()[:len(pr.Events())]) {
			t.Fatalf("with %d cards and %d decisions the events are not the round's", cards, actions)
		}
		need, waiting := pr.Waiting()
		switch {
		case waiting:
			if cards == len(rec.Cards) {
				t.Fatalf("waits for a card %+v after the round's %d", need, cards)
			}
			if hand := targets[cards].Hand; targets[cards].Box == 0 {
				targets[cards].Hand = 0
			} else if hand == 0 {
				targets[cards].Hand = 1
			}
			if need != targets[cards] {
				t.Fatalf("card %d: the round asks for %+v, the round dealt it to %+v", cards+1, need, targets[cards])
			}
			if legal := pr.LegalActions(nil); len(legal) != 0 {
				t.Fatalf("waiting for a card, the round offers %v", legal)
			}
			if actions < len(rec.Actions) {
				if err := pr.Act(rec.Actions[actions]); !errors.Is(err, ErrPhase) {
					t.Fatalf("a decision while the round waits for a card: %v", err)
				}
			}
			cards++
		case pr.Phase() == Done:
			if cards != len(rec.Cards) || actions != len(rec.Actions) {
				t.Fatalf("done with %d of %d cards and %d of %d decisions", cards, len(rec.Cards), actions, len(rec.Actions))
			}
			if !reflect.DeepEqual(pr.Events(), r.Events()) {
				t.Fatal("the physical round's events differ")
			}
			return
		default:
			if actions == len(rec.Actions) {
				t.Fatalf("the round waits for a decision in phase %v after the last", pr.Phase())
			}
			actions++
		}
	}
}

// A physical shoe that has no card yet stops the round (it does not void
// it, AR-08): the first card is box 1's.
func TestPhysicalShoeWaits(t *testing.T) {
	p := rules.MustLookup("venice")
	r := New(p)
	r.Reset(&Forced{Wait: true, CutAfter: -1})
	if err := r.PlaceBet("ana", 3, 500); err != nil {
		t.Fatal(err)
	}
	if err := r.Start(); err != nil {
		t.Fatal(err)
	}
	need, ok := r.Waiting()
	if !ok || need != (Need{Box: 3, Hand: 1}) {
		t.Fatalf("waiting %v for %+v, want box 3's first card", ok, need)
	}
	if v, why := r.Void(); v {
		t.Fatalf("the round is void: %s", why)
	}
	// Without Wait the same shoe has run out: AR-08.
	r.Reset(&Forced{CutAfter: -1})
	r.PlaceBet("ana", 3, 500)
	r.Start()
	if v, _ := r.Void(); !v {
		t.Fatal("an empty shoe did not void the round (AR-08)")
	}
}

// AR-23 (c): the hole card burned, the round asks for its replacement,
// face down.
func TestPhysicalShoeHoleReplaced_AR23(t *testing.T) {
	p := rules.MustLookup("argentina")
	cards, err := card.ParseList("9S 7D TC 8H")
	if err != nil {
		t.Fatal(err)
	}
	rec := Record{Bets: []PlacedBet{{"ana", 1, 500}}, Cards: cards, CutAfter: -1}
	r, err := ReplayPhysical(p, rec)
	if err != nil {
		t.Fatal(err)
	}
	if err := r.Act(Action{Kind: BurnHole}); err != nil {
		t.Fatal(err)
	}
	if need, ok := r.Waiting(); !ok || need != (Need{FaceDown: true, Replace: true}) {
		t.Fatalf("after the hole card's burn the round waits %v for %+v", ok, need)
	}
}
