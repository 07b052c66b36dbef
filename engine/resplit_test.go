package engine

import (
	"strings"
	"testing"

	"sabot/card"
	"sabot/rules"
)

// VE-12: «Se con la terza carta ricevuta forma un'altra coppia il giocatore
// può effettuare un'ultima divisione». resplit_hands says which split hand
// may split once more: any (either split hand that makes a new pair) or
// first (the letter's third card, the first dealt after the split, which
// the first hand takes: that hand alone). On forced cards at venice (the
// European deal: box, dealer, box), a pair of 8s against a 6 split: the
// second hand's new pair splits under any and is refused, naming VE-12,
// under first; the first hand's new pair splits under both.
func TestResplitHands_VE12(t *testing.T) {
	cases := []struct {
		name, reading, cards string
		resplit              int    // the hand (1-based) that makes the new pair
		legal                bool   // whether it may split again
		hands                string // the box's hands at the end
		dealer               string
		net                  int64
	}{
		{"the second hand's pair splits", "any", "8S 6D 8H 5C 8D TS 9C TH 7S", 2, true, "8S 5C|8H TS|8D 9C", "6D TH 7S", 300},
		{"the second hand's pair stays", "first", "8S 6D 8H 5C 8D TS 9C TH 7S", 2, false, "8S 5C|8H 8D", "6D TS 9C", 200},
		{"the first hand's pair splits", "first", "8S 6D 8H 8C 5C TS 9C TH 7S", 1, true, "8S 5C|8H TS|8C 9C", "6D TH 7S", 300},
		{"the first hand's pair splits anyway", "any", "8S 6D 8H 8C 5C TS 9C TH 7S", 1, true, "8S 5C|8H TS|8C 9C", "6D TH 7S", 300},
	}
	for _, c := range cases {
		t.Run(c.reading+"/"+c.name, func(t *testing.T) {
			p := rules.MustLookup("venice")
			if err := p.Set("resplit_hands", c.reading); err != nil {
				t.Fatal(err)
			}
			r := New(p)
			r.Reset(NewForced(card.MustParseList(c.cards)))
			if err := r.PlaceBet("ana", 1, 100); err != nil {
				t.Fatal(err)
			}
			if err := r.Start(); err != nil {
				t.Fatal(err)
			}
			act(t, r, Action{Kind: Split, Player: "ana", Box: 1, Hand: 1})
			if c.resplit == 2 {
				act(t, r, Action{Kind: Stand, Player: "ana", Box: 1, Hand: 1})
			}
			split := Action{Kind: Split, Player: "ana", Box: 1, Hand: c.resplit}
			if got := r.Legal(split); got != c.legal {
				t.Fatalf("hand %d's new pair %v: split legal %v, want %v", c.resplit, r.Hands(1)[c.resplit-1].Cards(), got, c.legal)
			}
			listed := false
			for _, a := range r.LegalActions(nil) {
				listed = listed || a.Kind == Split
			}
			if listed != c.legal {
				t.Errorf("split listed among the legal actions %v, want %v", listed, c.legal)
			}
			if c.legal {
				act(t, r, split)
			} else {
				err := r.Act(split)
				if err == nil || !strings.Contains(err.Error(), "VE-12") || !strings.Contains(err.Error(), "first split hand") {
					t.Errorf("the second hand's split: %v, want a refusal naming VE-12", err)
				}
			}
			for r.Phase() == Playing {
				box, hand := r.Current()
				act(t, r, Action{Kind: Stand, Player: "ana", Box: box, Hand: hand})
			}
			var hs []string
			for _, h := range r.Hands(1) {
				hs = append(hs, card.Format(h.Cards()))
			}
			if got := strings.Join(hs, "|"); got != c.hands {
				t.Errorf("hands %s, want %s", got, c.hands)
			}
			if got := card.Format(r.Dealer().Cards()); got != c.dealer {
				t.Errorf("dealer %s, want %s", got, c.dealer)
			}
			if net, _ := r.Net(); int64(net["ana"]) != c.net {
				t.Errorf("ana nets %d, want %d", net["ana"], c.net)
			}
			checkBalance(t, r)
		})
	}
}
