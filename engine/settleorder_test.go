package engine

import (
	"slices"
	"testing"

	"sabot/rules"
)

// AR-15 (000, the game's course, item 9: «el Pagador procederá a retirar
// las apuestas que pierden … Posteriormente pagará las apuestas
// premiadas»): at argentina every losing bet is taken before any winner is
// paid; at venice the dealer settles box by box, right to left (VE-09),
// whatever each bet comes to.
func TestSettlementOrder_AR15_VE09(t *testing.T) {
	results := func(r *Round) []int {
		var out []int
		for _, e := range r.Events() {
			if e.Kind == EvResult {
				out = append(out, e.Box)
			}
		}
		return out
	}
	// argentina deals box 1, box 2, the dealer's up card, box 1, box 2, the
	// hole card: ana 10+7 (17 loses), ben 10+9 (19 wins), the dealer 9+9.
	r := forcedRound(t, "argentina", "TS TH 9S 7C 9D 9H", PlacedBet{"ana", 1, 100}, PlacedBet{"ben", 2, 100})
	mustPlay(t, r, func(r *Round) Action {
		b, h := r.Current()
		return Action{Kind: Stand, Player: map[int]string{1: "ana", 2: "ben"}[b], Box: b, Hand: h}
	})
	if got := results(r); !slices.Equal(got, []int{1, 2}) {
		t.Errorf("argentina settles boxes %v, want ana's loss (box 1) taken before ben's win (box 2)", got)
	}
	nets, _ := r.Net()
	if nets["ana"] != -100 || nets["ben"] != 100 {
		t.Errorf("nets %v", nets)
	}
	// venice deals box 1, box 2, the dealer, box 1, box 2: the same hands.
	v := forcedRound(t, "venice", "TS TH 9S 7C 9D 9H", PlacedBet{"ana", 1, 100}, PlacedBet{"ben", 2, 100})
	mustPlay(t, v, func(r *Round) Action {
		b, h := r.Current()
		return Action{Kind: Stand, Player: map[int]string{1: "ana", 2: "ben"}[b], Box: b, Hand: h}
	})
	if got := results(v); !slices.Equal(got, []int{2, 1}) {
		t.Errorf("venice settles boxes %v, want right to left", got)
	}
	if !rules.MustLookup("argentina").LosersFirst() || rules.MustLookup("venice").LosersFirst() {
		t.Error("LosersFirst is argentina's order alone")
	}
}
