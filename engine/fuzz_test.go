package engine

import (
	"math/rand/v2"
	"reflect"
	"testing"

	"sabot/card"
	"sabot/money"
	"sabot/rules"
)

var fuzzPlayers = []string{"ana", "ben", "cy", "dan"}

// playRandom plays one round on a shuffled shoe with random bets and random
// legal and illegal actions, checking the engine's invariants as it goes:
// no panic; an illegal action is refused and changes nothing; the cards are
// dealt once each, in the shoe's order; the players' net is minus the
// house's; the record replays to the same events.
func playRandom(t *testing.T, p *rules.Profile, seed uint64, short bool) {
	rng := rand.New(rand.NewPCG(seed, seed^0x9e3779b97f4a7c15))
	cards := shuffled(p, seed)
	if short { // a short shoe exercises the void of AR-08
		cards = cards[:4+rng.IntN(8)]
	}
	r := New(p)
	r.Reset(NewForced(cards))
	for i, n := 0, 1+rng.IntN(6); i < n; i++ {
		r.PlaceBet(fuzzPlayers[rng.IntN(len(fuzzPlayers))], 1+rng.IntN(p.Boxes), money.Amount(1+rng.Int64N(400)))
	}
	if len(r.Bets()) == 0 {
		r.PlaceBet("ana", 1, 100)
	}
	if err := r.Start(); err != nil {
		t.Fatalf("start: %v", err)
	}
	var buf [64]Action
	for steps := 0; r.Phase() != Done; steps++ {
		if steps > 1000 {
			t.Fatalf("round does not end")
		}
		if rng.IntN(3) == 0 {
			a := Action{
				Kind:   Kind(1 + rng.IntN(int(ExposeHole))),
				Player: fuzzPlayers[rng.IntN(len(fuzzPlayers))],
				Box:    rng.IntN(p.Boxes + 2),
				Hand:   rng.IntN(4),
				Stake:  money.Amount(rng.Int64N(300) - 20),
				Value:  []int{1, 11, 5}[rng.IntN(3)],
			}
			if a.Kind >= Close { // the house's actions are legal; test them elsewhere
				continue
			}
			before := snapshot(r)
			if err := r.Act(a); err != nil {
				if after := snapshot(r); !reflect.DeepEqual(before, after) {
					t.Fatalf("refused %v (%v) changed the round", a, err)
				}
				continue
			}
		} else {
			legal := r.LegalActions(buf[:0])
			if len(legal) == 0 {
				t.Fatalf("phase %v: no legal action", r.Phase())
			}
			a := legal[rng.IntN(len(legal))]
			if err := r.Act(a); err != nil {
				t.Fatalf("legal action %v refused: %v", a, err)
			}
		}
	}
	rec := r.Record()
	if !reflect.DeepEqual(rec.Cards, cards[:len(rec.Cards)]) {
		t.Fatalf("cards dealt %v, shoe order %v", card.Format(rec.Cards), card.Format(cards[:len(rec.Cards)]))
	}
	var dealt int
	for _, e := range r.Events() {
		if e.Kind == EvCard || e.Kind == EvBurn {
			dealt++
		}
	}
	if dealt != len(rec.Cards) {
		t.Fatalf("%d cards in the events, %d drawn", dealt, len(rec.Cards))
	}
	players, house := sumNet(r)
	if players != -house {
		t.Fatalf("players net %d, house %d", players, house)
	}
	// The last result event of each bet is its settlement (a void round
	// settles again at 0 what it had settled before).
	type betKey struct {
		player    string
		box, hand int
		kind      BetKind
	}
	last := map[betKey]money.Amount{}
	for _, e := range r.Events() {
		if e.Kind == EvResult {
			last[betKey{e.Player, e.Box, e.Hand, e.BetKind}] = e.Amount
		}
	}
	var results money.Amount
	for _, v := range last {
		results += v
	}
	if results != players {
		t.Fatalf("result events sum %d, bets net %d", results, players)
	}
	if v, _ := r.Void(); v && players != 0 {
		t.Fatalf("void round nets %d", players)
	}
	again, err := Replay(p, rec)
	if err != nil {
		t.Fatalf("replay: %v", err)
	}
	if !reflect.DeepEqual(again.Events(), r.Events()) {
		t.Fatal("replay differs")
	}
	if !short { // a short shoe runs out (AR-08): a physical one would wait
		checkPhysical(t, p, r)
	}
}

type snap struct {
	Phase  Phase
	Events int
	Bets   []Bet
	Dealer Hand
	Boxes  [rules.MaxBoxes + 1]box
	Cur    [2]int
}

func snapshot(r *Round) snap {
	b, h := r.Current()
	return snap{r.phase, len(r.events), append([]Bet(nil), r.bets...), r.dealer, r.boxes, [2]int{b, h}}
}

// The fuzz targets, one per built-in profile, with pontoon options on
// family. `go test -fuzz FuzzRound/venice` explores further; the seed corpus
// runs in every `go test`.
func FuzzRoundArgentina(f *testing.F) { fuzzProfile(f, "argentina") }
func FuzzRoundSpain(f *testing.F)     { fuzzProfile(f, "spain") }
func FuzzRoundVenice(f *testing.F)    { fuzzProfile(f, "venice") }
func FuzzRoundFamily(f *testing.F) {
	fuzzProfile(f, "family", "five_card_21=true", "three_sevens=true")
}
func FuzzRoundVegasS17(f *testing.F) { fuzzProfile(f, "vegas-s17", "surrender=late") }
func FuzzRoundVegasH17(f *testing.F) { fuzzProfile(f, "vegas-h17") }

func fuzzProfile(f *testing.F, name string, opts ...string) {
	p := rules.MustLookup(name)
	if err := p.SetAll(opts); err != nil {
		f.Fatal(err)
	}
	for s := uint64(0); s < 200; s++ {
		f.Add(s, s%7 == 0)
	}
	f.Fuzz(func(t *testing.T, seed uint64, short bool) { playRandom(t, p, seed, short) })
}

// Random rounds with every option of interest switched on, beyond the
// built-in profiles.
func TestRandomRoundsOptions(t *testing.T) {
	sets := [][]string{
		{"hole_card=peek", "dealer_blackjack_takes=original", "surrender=late", "resplit_aces=true", "max_hands=4"},
		{"hole_card=no-peek", "challenge=true", "declare_initial_ace=true", "back_bets_per_box=2", "double_on=any", "double_after_split=true"},
		{"hole_card=none", "surrender=early", "split_ten_ace_choice=true", "must_draw_at_most=11", "hit_split_aces=true", "split_blackjack=blackjack-even"},
		{"stand_on_21=false", "insurance=true", "even_money=ace-or-ten", "insure_blackjack=false", "double_for_less=true", "back_bets_per_box=3"},
	}
	for i, set := range sets {
		for _, base := range []string{"venice", "argentina"} {
			p := rules.MustLookup(base)
			if err := p.SetAll(set); err != nil {
				t.Fatalf("set %d: %v", i, err)
			}
			for s := uint64(0); s < 150; s++ {
				playRandom(t, p, s+uint64(i)*1000, s%9 == 0)
			}
		}
	}
}
