package engine

import (
	"testing"

	"sabot/card"
)

// AR-23 item 14: «Cuando el Pagador introduce por error una o más cartas de
// la Banca dentro del Zambullo, anunciará … "Próximas cartas para la
// Banca"»: the bank's card put into the discard leaves its hand, burned,
// and the next card out of the shoe is the bank's in its place, face up or
// down as it was; the face-down card's face is not told. Refused for a card
// the bank does not hold, to a player, and where the card decided the peek
// or insurance.
func TestBankCardsDiscarded_AR23(t *testing.T) {
	t.Run("the hole card", func(t *testing.T) {
		// ana 10+8, the bank 9 and AD face down; AD discarded: 5C in its place, then KD.
		r := forcedRound(t, "argentina", "TS 9S 8C AD 5C KD", PlacedBet{"ana", 1, 100})
		if err := r.Act(Action{Kind: BankDiscarded, Player: "ana", Value: 2}); err == nil {
			t.Fatal("a player replaced the bank's card")
		}
		if err := r.Act(Action{Kind: BankDiscarded, Value: 3}); err == nil {
			t.Fatal("the bank's third card replaced before it has one")
		}
		n := len(r.Events())
		if err := r.Act(Action{Kind: BankDiscarded, Value: 2}); err != nil {
			t.Fatal(err)
		}
		ev := r.Events()[n+1:] // after the action's own event
		if len(ev) < 2 || ev[0].Kind != EvBurn || !ev[0].FaceDown || ev[1].Kind != EvCard || !ev[1].FaceDown {
			t.Fatalf("events %+v: want the hole card burned face down, its replacement face down", ev)
		}
		if r.Dealer().FaceDown() != 1 {
			t.Fatal("the replacement is not face down")
		}
		mustPlay(t, r, func(*Round) Action { return Action{Kind: Stand, Player: "ana", Box: 1, Hand: 1} })
		if got := card.Format(r.Dealer().Cards()); got != "9S 5C KD" {
			t.Fatalf("dealer %s, want 9S 5C KD (AD discarded)", got)
		}
		if nets, _ := r.Net(); nets["ana"] != 100 {
			t.Fatalf("nets %v: 18 against a bust", nets)
		}
	})
	t.Run("the up card", func(t *testing.T) {
		r := forcedRound(t, "argentina", "TS 9S 8C 7D 4H", PlacedBet{"ana", 1, 100})
		if err := r.Act(Action{Kind: BankDiscarded, Value: 1}); err != nil {
			t.Fatal(err)
		}
		mustPlay(t, r, func(*Round) Action { return Action{Kind: Stand, Player: "ana", Box: 1, Hand: 1} })
		if got := card.Format(r.Dealer().Cards()); got != "4H 7D" {
			t.Fatalf("dealer %s, want 4H 7D then draws", got)
		}
	})
	t.Run("refused where the card decided the offer", func(t *testing.T) {
		r := forcedRound(t, "vegas-s17", "TS 9S 8C 7D 4H", PlacedBet{"ana", 1, 100})
		if err := r.Act(Action{Kind: BankDiscarded, Value: 1}); err == nil {
			t.Fatal("a peeked up card replaced")
		}
		if err := r.Act(Action{Kind: BankDiscarded, Value: 2}); err == nil {
			t.Fatal("a peeked hole card replaced")
		}
	})
}
