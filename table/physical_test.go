package table

import (
	"encoding/json"
	"errors"
	"math/rand/v2"
	"reflect"
	"strings"
	"testing"

	"sabot/card"
	"sabot/engine"
	"sabot/rules"
)

func newPhysical(t *testing.T, name string, opts ...string) *Table {
	t.Helper()
	p := rules.MustLookup(name)
	if err := p.SetAll(opts); err != nil {
		t.Fatal(err)
	}
	tb, err := NewPhysical(p)
	if err != nil {
		t.Fatal(err)
	}
	return tb
}

// feed reads cards into the round, each where the round asks for it; want
// is whom each is for.
func feed(t *testing.T, tb *Table, cards string, want ...engine.Need) {
	t.Helper()
	for i, c := range card.MustParseList(cards) {
		need, ok := tb.Need()
		if !ok {
			t.Fatalf("card %d (%v): the round waits for no card (phase %v)", i+1, c, tb.Round().Phase())
		}
		if i < len(want) && need != want[i] {
			t.Fatalf("card %d (%v) is for %+v, want %+v", i+1, c, need, want[i])
		}
		if err := tb.Feed(c); err != nil {
			t.Fatalf("card %d (%v): %v", i+1, c, err)
		}
	}
}

func act(t *testing.T, tb *Table, a engine.Action) {
	t.Helper()
	if err := tb.Round().Act(a); err != nil {
		t.Fatal(err)
	}
}

// A round at a table dealt from a physical shoe: no card is
// drawn by the server; the round asks for each card where it deals it (ES-12:
// a card to each box, one to the dealer, a second to each box, the dealer's
// after the players) and settles as the same cards dealt from a shoe would.
func TestPhysicalRound_ES12(t *testing.T) {
	tb := newPhysical(t, "spain")
	if !tb.Physical() || tb.Shoe() != nil {
		t.Fatal("a physical table has a shuffled shoe")
	}
	tb.Sit("ana", 1)
	tb.Sit("ben", 2)
	tb.Bet("ana", 1, 1000)
	tb.Bet("ben", 2, 1000)
	r, err := tb.Deal()
	if err != nil {
		t.Fatal(err)
	}
	if len(r.Record().Cards) != 0 {
		t.Fatal("a card was drawn before one was read")
	}
	box := func(b int) engine.Need { return engine.Need{Box: b, Hand: 1} }
	dealer := engine.Need{}
	feed(t, tb, "TS 9H 6D 7C 8S", box(1), box(2), dealer, box(1), box(2))
	if _, ok := tb.Need(); ok {
		t.Fatal("the round asks for a card before ana's decision")
	}
	act(t, tb, engine.Action{Kind: engine.Stand, Player: "ana", Box: 1, Hand: 1}) // 17
	act(t, tb, engine.Action{Kind: engine.Hit, Player: "ben", Box: 2, Hand: 1})   // 17, hits
	feed(t, tb, "4H", box(2))                                                     // 21
	feed(t, tb, "TD", dealer)                                                     // 16: draws again
	feed(t, tb, "5S", dealer)                                                     // 21
	if tb.Round().Phase() != engine.Done {
		t.Fatalf("phase %v, want done", tb.Round().Phase())
	}
	got := map[string]rules.Result{}
	for _, b := range tb.Round().Bets() {
		got[b.Player] = b.Result
	}
	if got["ana"] != rules.Lose || got["ben"] != rules.Push {
		t.Fatalf("results %v: want ana lose (17 to 21), ben push (21 to 21)", got)
	}
	// The same cards dealt as a forced order make the same round.
	same, err := engine.Replay(tb.p, tb.Round().Record())
	if err != nil || !reflect.DeepEqual(same.Events(), tb.Round().Events()) {
		t.Fatalf("the round does not replay to the same events: %v", err)
	}
	if _, err := tb.Finish(); err != nil {
		t.Fatal(err)
	}
}

// Refusals change nothing: a card when none is due (between rounds, while
// the round waits for a decision), at a shuffled table, and a card the
// shoe cannot hold (one more of it than the decks give since the shuffle).
func TestPhysicalRefusals(t *testing.T) {
	tb := newPhysical(t, "spain", "decks=1", "cut_card_reserve=10", "burn_cards=1", "max_hands=4")
	if err := tb.Feed(card.MustParse("AS")); err == nil || !strings.Contains(err.Error(), "no round is in play") {
		t.Fatalf("a card between rounds: %v", err)
	}
	tb.Sit("ana", 1)
	tb.Bet("ana", 1, 1000)
	if _, err := tb.Deal(); err != nil {
		t.Fatal(err)
	}
	feed(t, tb, "KS")
	before := tb.Round().Record()
	err := tb.Feed(card.MustParse("KS"))
	if !errors.Is(err, ErrRefused) || !strings.Contains(err.Error(), "a shoe of 1 deck holds 1 KS; 1 came out since the shuffle: KS cannot be the next card") {
		t.Fatalf("a second KS from one deck: %v", err)
	}
	if !reflect.DeepEqual(tb.Round().Record(), before) {
		t.Fatal("a refused card changed the round")
	}
	if err := tb.Feed(card.Card(0)); err == nil {
		t.Fatal("a card that is not one was read")
	}
	feed(t, tb, "6D 7C") // ana 17 against a 6
	if err := tb.Feed(card.MustParse("2C")); err == nil || !strings.Contains(err.Error(), "waits for a decision") {
		t.Fatalf("a card while a decision is awaited: %v", err)
	}
	shuffled := newTable(t, "spain")
	if err := shuffled.Feed(card.MustParse("2C")); err == nil {
		t.Fatal("a shuffled table took a card read from a shoe")
	}
	if _, err := tb.DealForced(card.MustParseList("TS 9H")); err == nil {
		t.Fatal("a physical table dealt a forced order")
	}
}

// Undo takes the last card back while nobody acted on it: the round asks
// for the same card again. After a decision it stays.
func TestPhysicalUndo(t *testing.T) {
	tb := newPhysical(t, "spain")
	tb.Sit("ana", 1)
	tb.Bet("ana", 1, 1000)
	if _, err := tb.Deal(); err != nil {
		t.Fatal(err)
	}
	feed(t, tb, "TS 6D")
	if c, err := tb.Undo(); err != nil || c != card.MustParse("6D") {
		t.Fatalf("undo: %v %v", c, err)
	}
	if need, ok := tb.Need(); !ok || need != (engine.Need{}) {
		t.Fatalf("after the undo the round asks for %+v %v, want the dealer's card", need, ok)
	}
	feed(t, tb, "5D 7C") // the dealer shows 5; ana 17
	act(t, tb, engine.Action{Kind: engine.Hit, Player: "ana", Box: 1, Hand: 1})
	if _, err := tb.Undo(); err == nil || !strings.Contains(err.Error(), "a decision followed") {
		t.Fatalf("undo after a decision: %v", err)
	}
	feed(t, tb, "2S") // 19
	if c, err := tb.Undo(); err != nil || c != card.MustParse("2S") {
		t.Fatalf("undo of the hit's card: %v %v", c, err)
	}
	feed(t, tb, "3S") // 20: the hit stands; the round waits for ana
	if tb.Round().Hands(1)[0].Count.Total() != 20 {
		t.Fatalf("ana has %d", tb.Round().Hands(1)[0].Count.Total())
	}
	// The card taken back no longer counts in the shoe: a one-deck shoe
	// takes the 2S again.
	if tb.phys.seen[card.MustParse("2S")] != 0 || tb.phys.seen[card.MustParse("3S")] != 1 {
		t.Fatalf("seen %v", tb.phys.seen)
	}
}

// AR-09: a no-peek hole card is read face down, and a double's card
// (AR-17) too; Need says so, so that the console tells the dealer.
func TestPhysicalFaceDown_AR09(t *testing.T) {
	tb := newPhysical(t, "argentina", "min_bets_to_start=1")
	tb.Sit("ana", 1)
	tb.Bet("ana", 1, 1000)
	if _, err := tb.Deal(); err != nil {
		t.Fatal(err)
	}
	var faceDown []engine.Need
	for _, c := range card.MustParseList("5S 9D 6C 8H") {
		need, _ := tb.Need()
		if need.FaceDown {
			faceDown = append(faceDown, need)
		}
		if err := tb.Feed(c); err != nil {
			t.Fatal(err)
		}
	}
	if len(faceDown) != 1 || faceDown[0].Box != 0 {
		t.Fatalf("face-down cards %+v: want the dealer's hole card", faceDown)
	}
}

// EG-04, EG-05: the cut card noted during a round makes it the shoe's
// last; the next deal is a new shoe, with nothing seen in it.
func TestPhysicalCutCard_EG04(t *testing.T) {
	tb := newPhysical(t, "spain", "decks=1", "cut_card_reserve=10", "burn_cards=1", "max_hands=4")
	tb.Sit("ana", 1)
	if err := tb.CutCard(); err == nil {
		t.Fatal("a cut card between rounds")
	}
	tb.Bet("ana", 1, 1000)
	if _, err := tb.Deal(); err != nil {
		t.Fatal(err)
	}
	feed(t, tb, "TS 6D")
	if err := tb.CutCard(); err != nil {
		t.Fatal(err)
	}
	if err := tb.CutCard(); err == nil {
		t.Fatal("the cut card came out twice")
	}
	events := len(tb.Round().Events())
	feed(t, tb, "7C")
	if ev := tb.Round().Events(); ev[events].Kind != engine.EvCutCard {
		t.Fatalf("the event after the cut card's signal is %v, want the cut card", ev[events].Kind)
	}
	act(t, tb, engine.Action{Kind: engine.Stand, Player: "ana", Box: 1, Hand: 1})
	feed(t, tb, "TD 2H")
	if !tb.Round().LastRound() {
		t.Fatal("the round is not the shoe's last")
	}
	if _, err := tb.Finish(); err != nil {
		t.Fatal(err)
	}
	tb.Bet("ana", 1, 1000)
	if _, err := tb.Deal(); err != nil {
		t.Fatal(err)
	}
	if tb.ShoeNo() != 2 || len(tb.phys.seen) != 0 {
		t.Fatalf("shoe %d, seen %v: want a new shoe", tb.ShoeNo(), tb.phys.seen)
	}
	// The one-deck shoe takes a TS again.
	feed(t, tb, "TS")
}

// A physical table's snapshot restores its shoe: the cards seen count on.
func TestPhysicalSnapshot(t *testing.T) {
	tb := newPhysical(t, "spain", "decks=1", "cut_card_reserve=10", "burn_cards=1", "max_hands=4")
	tb.Sit("ana", 1)
	tb.Bet("ana", 1, 1000)
	if _, err := tb.Deal(); err != nil {
		t.Fatal(err)
	}
	feed(t, tb, "TS 6D 7C")
	act(t, tb, engine.Action{Kind: engine.Stand, Player: "ana", Box: 1, Hand: 1})
	feed(t, tb, "TD 2H")
	if _, err := tb.Finish(); err != nil {
		t.Fatal(err)
	}
	sn, err := tb.Snapshot()
	if err != nil {
		t.Fatal(err)
	}
	b, err := json.Marshal(sn)
	if err != nil {
		t.Fatal(err)
	}
	var back Snapshot
	if err := json.Unmarshal(b, &back); err != nil {
		t.Fatal(err)
	}
	rt, err := Restore(tb.p, back)
	if err != nil {
		t.Fatal(err)
	}
	if !rt.Physical() || back.Seed != "" || !reflect.DeepEqual(rt.phys.seen, tb.phys.seen) || len(rt.phys.seen) != 5 {
		t.Fatalf("restored %+v from %s", rt.phys, b)
	}
	rt.Bet("ana", 1, 1000)
	if _, err := rt.Deal(); err != nil {
		t.Fatal(err)
	}
	if err := rt.Feed(card.MustParse("TS")); err == nil {
		t.Fatal("the restored shoe took a second TS from one deck")
	}
	back.Physical.Seen[card.MustParse("AS")] = 2
	if _, err := Restore(tb.p, back); err == nil {
		t.Fatal("a snapshot with two AS in one deck was restored")
	}
}

// Every round dealt from a physical shoe, card by card as the round asks,
// with random decisions, is the round the same cards dealt as a forced
// order make: the same events, bets and results.
func TestPhysicalAsForced(t *testing.T) {
	rng := rand.New(rand.NewPCG(7, 13))
	for _, name := range []string{"argentina", "spain", "venice"} {
		for i := 0; i < 60; i++ {
			p := rules.MustLookup(name)
			p.MinBetsToStart, p.LoneCustomerBoxes = 1, 1
			tb, err := NewPhysical(p)
			if err != nil {
				t.Fatal(err)
			}
			deck := card.Deck()
			var cards []card.Card
			for range p.Decks {
				cards = append(cards, deck...)
			}
			rng.Shuffle(len(cards), func(i, j int) { cards[i], cards[j] = cards[j], cards[i] })
			tb.Sit("ana", 1)
			tb.Sit("ben", 2)
			tb.Bet("ana", 1, 1000)
			tb.Bet("ben", 2, 2000)
			if _, err := tb.Deal(); err != nil {
				t.Fatal(err)
			}
			next := 0
			var buf [32]engine.Action
			for tb.Round().Phase() != engine.Done {
				if _, ok := tb.Need(); ok {
					if err := tb.Feed(cards[next]); err != nil {
						t.Fatalf("%s #%d: card %d: %v", name, i, next, err)
					}
					next++
					continue
				}
				legal := tb.Round().LegalActions(buf[:0])
				if len(legal) == 0 {
					t.Fatalf("%s #%d: no card due and no decision", name, i)
				}
				act(t, tb, legal[rng.IntN(len(legal))])
			}
			rec := tb.Round().Record()
			if card.Format(rec.Cards) != card.Format(cards[:next]) {
				t.Fatalf("%s #%d: the record's cards %s, read %s", name, i, card.Format(rec.Cards), card.Format(cards[:next]))
			}
			forced, err := engine.Replay(p, rec)
			if err != nil {
				t.Fatalf("%s #%d: %v", name, i, err)
			}
			if !reflect.DeepEqual(forced.Events(), tb.Round().Events()) || !reflect.DeepEqual(forced.Bets(), tb.Round().Bets()) {
				t.Fatalf("%s #%d: the physical round differs from the forced one", name, i)
			}
		}
	}
}

// AR-23 (d): a card drawn out of turn is burned: it counts in the shoe and
// deals nothing; between rounds there is nothing to burn.
func TestPhysicalBurn_AR23(t *testing.T) {
	tb := newPhysical(t, "spain", "decks=1", "cut_card_reserve=10", "burn_cards=1", "max_hands=4")
	if err := tb.Burn(card.MustParse("AS")); err == nil {
		t.Fatal("a card burned between rounds")
	}
	tb.Sit("ana", 1)
	tb.Bet("ana", 1, 1000)
	if _, err := tb.Deal(); err != nil {
		t.Fatal(err)
	}
	feed(t, tb, "TS")
	need, _ := tb.Need()
	if err := tb.Burn(card.MustParse("AS")); err != nil {
		t.Fatal(err)
	}
	if n, _ := tb.Need(); n != need || len(tb.Round().Record().Cards) != 1 {
		t.Fatalf("the burn dealt: need %+v, cards %v", n, tb.Round().Record().Cards)
	}
	if err := tb.Burn(card.MustParse("AS")); err == nil || !strings.Contains(err.Error(), "cannot be burned") {
		t.Fatalf("a second AS from one deck burned: %v", err)
	}
	if err := tb.Feed(card.MustParse("AS")); err == nil {
		t.Fatal("the burned AS was dealt")
	}
}

// What the last card read decided (AR-09, AR-12, AR-17, AR-23):
// the dealer's own undo is for a card that decided nothing. A deal card and
// a hit card that ended nothing decided nothing; a double's card (AR-17,
// here face up: double_card_face_down=false), a 21 (AR-12) with the hole
// card turned after it (AR-09) and the hole card read face down did.
func TestDecided_AR23(t *testing.T) {
	tb := newPhysical(t, "argentina", "min_bets_to_start=1", "double_card_face_down=false")
	tb.Sit("ana", 1)
	tb.Bet("ana", 1, 1000)
	if _, err := tb.Deal(); err != nil {
		t.Fatal(err)
	}
	decided := func(want string) Taken {
		t.Helper()
		tk, err := tb.Decided()
		if err != nil {
			t.Fatal(err)
		}
		if want == "" && tk.Why != "" || want != "" && !strings.Contains(tk.Why, want) {
			t.Fatalf("the last card decided %q, want %q", tk.Why, want)
		}
		return tk
	}
	feed(t, tb, "5S")
	decided("")
	feed(t, tb, "6C 6D")
	decided("")
	feed(t, tb, "QH")
	if tk := decided("it was read face down"); !tk.FaceDown || tk.Card != card.MustParse("QH") {
		t.Fatalf("the hole card: %+v", tk)
	}
	act(t, tb, engine.Action{Kind: engine.Hit, Player: "ana", Box: 1, Hand: 1})
	feed(t, tb, "2C") // 13: ends nothing
	decided("")
	if _, err := tb.Undo(); err != nil {
		t.Fatal(err)
	}
	feed(t, tb, "TC") // 21: the dealer turns QH
	if tk := decided("it made 21 on box 1 hand 1 (21); the dealer's hole card was turned after it"); tk.Revealed != card.MustParse("QH") {
		t.Fatalf("the reveal after the 21: %+v", tk)
	}

	tb = newPhysical(t, "argentina", "min_bets_to_start=1", "double_card_face_down=false")
	tb.Sit("ana", 1)
	tb.Bet("ana", 1, 1000)
	if _, err := tb.Deal(); err != nil {
		t.Fatal(err)
	}
	feed(t, tb, "5S 6C 6D 7H")
	act(t, tb, engine.Action{Kind: engine.Double, Player: "ana", Box: 1, Hand: 1})
	feed(t, tb, "2D") // 13, doubled: the hand is over, the dealer turns 7H
	decided("it was the double's card of box 1 hand 1 (13)")
}
