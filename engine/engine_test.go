package engine

import (
	"errors"
	"reflect"
	"slices"
	"testing"

	"sabot/card"
	"sabot/rules"
)

func forcedRound(t testing.TB, profile string, cards string, bets ...PlacedBet) *Round {
	t.Helper()
	r := New(rules.MustLookup(profile))
	r.Reset(NewForced(card.MustParseList(cards)))
	for _, b := range bets {
		if err := r.PlaceBet(b.Player, b.Box, b.Stake); err != nil {
			t.Fatal(err)
		}
	}
	if err := r.Start(); err != nil {
		t.Fatal(err)
	}
	return r
}

// AR-22, ES-01, VE-04: once the first card leaves the shoe no bet is placed.
func TestNoBetAfterTheDeal_AR22_ES01_VE04(t *testing.T) {
	for _, name := range []string{"argentina", "spain", "venice"} {
		r := forcedRound(t, name, "TS 7C 9H KD 5S 5H", PlacedBet{"ana", 1, 100})
		before := len(r.Events())
		err := r.PlaceBet("ben", 2, 100)
		var ref *Refusal
		if !errors.As(err, &ref) || !errors.Is(err, ErrPhase) {
			t.Fatalf("%s: bet after the deal: %v", name, err)
		}
		if len(r.Events()) != before || len(r.Bets()) != 1 {
			t.Fatalf("%s: a refused bet changed the round", name)
		}
	}
}

// VE-09: the dealer settles right to left.
func TestSettlementRightToLeft_VE09(t *testing.T) {
	r := forcedRound(t, "venice", "TS 9S 8S 7C 9H 8H 9D KD",
		PlacedBet{"ana", 1, 100}, PlacedBet{"ben", 2, 100}, PlacedBet{"cy", 3, 100})
	for _, a := range []Action{{Kind: Stand, Player: "ana", Box: 1, Hand: 1}, {Kind: Stand, Player: "ben", Box: 2, Hand: 1}, {Kind: Stand, Player: "cy", Box: 3, Hand: 1}} {
		if err := r.Act(a); err != nil {
			t.Fatal(err)
		}
	}
	var boxes []int
	for _, e := range r.Events() {
		if e.Kind == EvResult {
			boxes = append(boxes, e.Box)
		}
	}
	if !reflect.DeepEqual(boxes, []int{3, 2, 1}) {
		t.Fatalf("settlement order %v, want [3 2 1]", boxes)
	}
}

// AR-09: the dealer's second card is dealt face down and turned when he
// plays; AR-17: the double's card is face down until the dealer has played.
func TestFaceDownCards_AR09_AR17(t *testing.T) {
	r := forcedRound(t, "argentina", "6S 9D 5H 7C 9C TD", PlacedBet{"ana", 1, 100})
	if d := r.Dealer(); d.FaceDown() != 1 {
		t.Fatalf("hole card face-down index %d, want 1", d.FaceDown())
	}
	if err := r.Act(Action{Kind: Double, Player: "ana", Box: 1, Hand: 1}); err != nil {
		t.Fatal(err)
	}
	var seq []string
	for _, e := range r.Events() {
		switch e.Kind {
		case EvCard:
			s := e.Card.String()
			if e.FaceDown {
				s = "down:" + s
			}
			seq = append(seq, s)
		case EvReveal:
			seq = append(seq, "up:"+e.Card.String())
		}
	}
	want := []string{"6S", "9D", "5H", "down:7C", "down:9C", "up:7C", "TD", "up:9C"}
	if !reflect.DeepEqual(seq, want) {
		t.Fatalf("cards %v, want %v", seq, want)
	}
}

// EG-04: when the cut card comes out the round is the last of the shoe; with
// the house option it is void at once.
func TestCutCard_EG04(t *testing.T) {
	for _, void := range []bool{false, true} {
		p := rules.MustLookup("spain")
		p.LastRoundVoid = void
		r := New(p)
		r.Reset(&Forced{Cards: card.MustParseList("TS 7C 9H KD"), CutAfter: 2})
		r.PlaceBet("ana", 1, 100)
		r.Start()
		if !void {
			r.Act(Action{Kind: Stand, Player: "ana", Box: 1, Hand: 1})
		}
		if r.Phase() != Done || !r.LastRound() {
			t.Fatalf("void=%v: phase %v last round %v", void, r.Phase(), r.LastRound())
		}
		gotVoid, _ := r.Void()
		if gotVoid != void {
			t.Fatalf("last_round_void=%v: round void %v", void, gotVoid)
		}
		if nets, _ := r.Net(); void && nets["ana"] != 0 || !void && nets["ana"] != 100 {
			t.Fatalf("void=%v: net %v", void, nets)
		}
	}
}

// AR-08: the cards run out: every stake, side bets included, is returned.
func TestVoidReturnsEveryStake_AR08(t *testing.T) {
	r := forcedRound(t, "spain", "TS AD 9H", PlacedBet{"ana", 1, 100}, PlacedBet{"ben", 1, 50})
	if err := r.Act(Action{Kind: Insure, Player: "ana", Box: 1, Hand: 1, Stake: 50}); err != nil {
		t.Fatal(err)
	}
	if err := r.Act(Action{Kind: Close}); err != nil {
		t.Fatal(err)
	}
	if err := r.Act(Action{Kind: Stand, Player: "ana", Box: 1, Hand: 1}); err != nil {
		t.Fatal(err)
	}
	if v, why := r.Void(); !v || why == "" {
		t.Fatalf("void %v %q", v, why)
	}
	for _, b := range r.Bets() {
		if b.Net != 0 || b.Result != rules.Void {
			t.Fatalf("bet %+v not returned", b)
		}
	}
}

// AR-23: the house's corrections of a dealer's irregularities.
func TestIrregularities_AR23(t *testing.T) {
	t.Run("(a)(b)(e) a box's bet is void", func(t *testing.T) {
		r := forcedRound(t, "argentina", "TS 9S 7C 9H 7H KD 5C", PlacedBet{"ana", 1, 100}, PlacedBet{"ben", 2, 100})
		if err := r.Act(Action{Kind: VoidBox, Player: "ana", Box: 1}); err == nil {
			t.Fatal("a player voided a box")
		}
		if err := r.Act(Action{Kind: VoidBox, Box: 1}); err != nil {
			t.Fatal(err)
		}
		if b, h := r.Current(); b != 2 || h != 1 {
			t.Fatalf("after voiding box 1 the turn is box %d hand %d", b, h)
		}
		mustPlay(t, r, func(*Round) Action { return Action{Kind: Stand, Player: "ben", Box: 2, Hand: 1} })
		nets, _ := r.Net()
		if nets["ana"] != 0 || nets["ben"] != -100 {
			t.Fatalf("nets %v", nets)
		}
		if r.Hands(1)[0].Result() != rules.Void {
			t.Fatalf("box 1 result %v", r.Hands(1)[0].Result())
		}
	})
	t.Run("(c) a hole card dealt face up is burned and replaced", func(t *testing.T) {
		r := forcedRound(t, "argentina", "TS 9S 8C AD 5C KD", PlacedBet{"ana", 1, 100})
		if err := r.Act(Action{Kind: BurnHole}); err != nil {
			t.Fatal(err)
		}
		mustPlay(t, r, func(*Round) Action { return Action{Kind: Stand, Player: "ana", Box: 1, Hand: 1} })
		if got := card.Format(r.Dealer().Cards()); got != "9S 5C KD" {
			t.Fatalf("dealer %s, want 9S 5C KD (AD burned)", got)
		}
	})
	t.Run("(g) an exposed hole card: the player decides seeing it", func(t *testing.T) {
		r := forcedRound(t, "argentina", "TS 9S 7C 9H", PlacedBet{"ana", 1, 100})
		if err := r.Act(Action{Kind: ExposeHole}); err != nil {
			t.Fatal(err)
		}
		if r.Dealer().FaceDown() != -1 {
			t.Fatal("hole card still face down")
		}
		if err := r.Act(Action{Kind: ExposeHole}); err == nil {
			t.Fatal("exposed twice")
		}
	})
	// (f): "si el pagador omitiera de seguir dando cartas a un jugador, y se
	// define la Banca, se le podrá dar opción al jugador de definir el pase
	// con la Banca vista o retirar su apuesta, si la Banca se hubiera
	// 'Pasado', el jugador cobrará su apuesta".
	t.Run("(f) the bank completed first: the skipped players play against it or withdraw", func(t *testing.T) {
		// spain deals box 1, box 2, the dealer, box 1, box 2: ana 10+8, ben 9+7, dealer 6, then TD: 16, 2C: 18.
		r := forcedRound(t, "spain", "TS 9H 6D 8C 7S TD 2C", PlacedBet{"ana", 1, 100}, PlacedBet{"ben", 2, 100})
		if err := r.Act(Action{Kind: Withdraw, Player: "ana", Box: 1, Hand: 1}); err == nil {
			t.Fatal("a bet withdrawn before the bank was completed")
		}
		if err := r.Act(Action{Kind: BankFirst, Player: "ana"}); err == nil {
			t.Fatal("a player completed the bank")
		}
		if err := r.Act(Action{Kind: BankFirst}); err != nil {
			t.Fatal(err)
		}
		if got := card.Format(r.Dealer().Cards()); got != "6D TD 2C" || r.Phase() != Playing {
			t.Fatalf("after (f): dealer %s, phase %v", got, r.Phase())
		}
		if err := r.Act(Action{Kind: BankFirst}); err == nil {
			t.Fatal("the bank completed twice")
		}
		// ana plays her 18 against the seen 18; ben withdraws his 16.
		var buf [16]Action
		if !slices.ContainsFunc(r.LegalActions(buf[:0]), func(a Action) bool { return a.String() == "ana box 1 hand 1 withdraw" }) {
			t.Fatal("withdrawing is not offered to the skipped player")
		}
		if err := r.Act(Action{Kind: Stand, Player: "ana", Box: 1, Hand: 1}); err != nil {
			t.Fatal(err)
		}
		if err := r.Act(Action{Kind: Withdraw, Player: "ben", Box: 2, Hand: 1}); err != nil {
			t.Fatal(err)
		}
		if r.Phase() != Done || card.Format(r.Dealer().Cards()) != "6D TD 2C" {
			t.Fatalf("phase %v, dealer %s: the dealer drew again", r.Phase(), card.Format(r.Dealer().Cards()))
		}
		nets, _ := r.Net()
		if nets["ana"] != 0 || nets["ben"] != 0 || r.Hands(2)[0].Result() != rules.Void {
			t.Fatalf("nets %v, ben's result %v: want ana's push, ben's bet returned", nets, r.Hands(2)[0].Result())
		}
		if _, err := Replay(r.Profile(), r.Record()); err != nil {
			t.Fatalf("the round does not replay: %v", err)
		}
	})
	t.Run("(f) the bank busted: the skipped players are paid", func(t *testing.T) {
		r := forcedRound(t, "spain", "TS 9H 6D 5C 7S TD 8C", PlacedBet{"ana", 1, 100}, PlacedBet{"ben", 2, 100})
		if err := r.Act(Action{Kind: BankFirst}); err != nil {
			t.Fatal(err)
		}
		if r.Phase() != Done {
			t.Fatalf("phase %v: the bank busted, the round is over", r.Phase())
		}
		nets, _ := r.Net()
		if nets["ana"] != 100 || nets["ben"] != 100 {
			t.Fatalf("nets %v: both paid", nets)
		}
	})
	t.Run("(f) the bank busted: a split hand waiting for its second card is paid as it stands", func(t *testing.T) {
		r := forcedRound(t, "spain", "8S 6D 8C TD TH 9C", PlacedBet{"ana", 1, 100})
		if err := r.Act(Action{Kind: Split, Player: "ana", Box: 1, Hand: 1}); err != nil {
			t.Fatal(err)
		}
		if err := r.Act(Action{Kind: BankFirst}); err != nil {
			t.Fatal(err)
		}
		nets, _ := r.Net()
		if r.Phase() != Done || nets["ana"] != 200 || len(r.Hands(1)[1].Cards()) != 1 || len(r.Record().Cards) != 6 {
			t.Fatalf("phase %v, nets %v, second hand %s, cards drawn %d", r.Phase(), nets, card.Format(r.Hands(1)[1].Cards()), len(r.Record().Cards))
		}
	})
	t.Run("no hole card to burn in a European deal", func(t *testing.T) {
		r := forcedRound(t, "venice", "TS 9S 7C", PlacedBet{"ana", 1, 100})
		if err := r.Act(Action{Kind: BurnHole}); err == nil {
			t.Fatal("burned a hole card that does not exist")
		}
	})
}

// VE-22: a round's full record is recallable: it replays exactly.
func TestReplay_VE22(t *testing.T) {
	for _, name := range rules.Names() {
		p := rules.MustLookup(name)
		for seed := uint64(1); seed <= 30; seed++ {
			cards := shuffled(p, seed)
			r := New(p)
			r.Reset(NewForced(cards))
			r.PlaceBet("ana", 1, 100)
			r.PlaceBet("bo", 3, 250)
			r.Start()
			mustPlay(t, r, simple)
			again, err := Replay(p, r.Record())
			if err != nil {
				t.Fatalf("%s seed %d: %v", name, seed, err)
			}
			if !reflect.DeepEqual(again.Events(), r.Events()) {
				t.Fatalf("%s seed %d: replay differs", name, seed)
			}
		}
	}
}

func TestRefusalsNameTheRule(t *testing.T) {
	r := forcedRound(t, "argentina", "6S 9D 4H 7C 8D", PlacedBet{"ana", 1, 100})
	err := r.Act(Action{Kind: Double, Player: "ana", Box: 1, Hand: 1})
	if err == nil || err.Error() != "ana box 1 hand 1 may not double: doubling needs a two-card 11 (AR-17)" {
		t.Fatalf("refusal %q", err)
	}
	if !errors.Is(err, ErrIllegalAction) {
		t.Fatalf("%v does not wrap ErrIllegalAction", err)
	}
	err = r.Act(Action{Kind: Hit, Player: "bo", Box: 2, Hand: 1})
	if !errors.Is(err, ErrOutOfTurn) {
		t.Fatalf("out of turn: %v", err)
	}
}

func TestLegalActionsAgreeWithAct(t *testing.T) {
	var buf [64]Action
	for _, name := range rules.Names() {
		p := rules.MustLookup(name)
		for seed := uint64(1); seed <= 40; seed++ {
			r := New(p)
			r.Reset(NewForced(shuffled(p, seed)))
			r.PlaceBet("ana", 1, 100)
			if p.BackBetsPerBox > 0 {
				r.PlaceBet("ben", 1, 40)
			}
			r.Start()
			for r.Phase() != Done {
				legal := r.LegalActions(buf[:0])
				if len(legal) == 0 {
					t.Fatalf("%s seed %d: no legal action in phase %v", name, seed, r.Phase())
				}
				for _, a := range legal {
					if !r.Legal(a) {
						t.Fatalf("%s: listed action %v is not legal", name, a)
					}
				}
				a := legal[int(seed)%len(legal)]
				if err := r.Act(a); err != nil {
					t.Fatalf("%s: listed action %v refused: %v", name, a, err)
				}
			}
		}
	}
}
