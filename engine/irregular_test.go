package engine

import (
	"strings"
	"testing"

	"sabot/card"
	"sabot/rules"
)

func dealt(t *testing.T, profile, cards string, bets ...string) *Round {
	t.Helper()
	r := New(rules.MustLookup(profile))
	r.Reset(NewForced(card.MustParseList(cards)))
	for i, who := range bets {
		if err := r.PlaceBet(who, i+1, 100); err != nil {
			t.Fatal(err)
		}
	}
	if err := r.Start(); err != nil {
		t.Fatal(err)
	}
	return r
}

// AR-23 (d)'s exception: «a excepción de las cartas extraídas para el "AS"
// o "ONCE", cuando el pagador omite preguntar si "ASEGURA" o "DOBLA"»: the
// card the dealer drew to a first-card Ace without offering the challenge
// stands as its second card, the challenge closed; the card drawn to an 11
// without asking about the double stands as a hit.
func TestCardStands_AR23(t *testing.T) {
	r := dealt(t, "argentina", "AS 9D KH 7C 2S", "ana")
	if r.Phase() != ChallengeWindow {
		t.Fatalf("phase %v, want the challenge window", r.Phase())
	}
	act(t, r, Action{Kind: CardStands})
	if h := r.Hands(1)[0]; len(h.Cards()) != 2 || h.Cards()[1] != card.MustParse("KH") {
		t.Errorf("the Ace's hand %v, want AS KH", h.Cards())
	}
	for _, b := range r.Bets() {
		if b.Kind == ChallengeBet {
			t.Errorf("a challenge was placed: %+v", b)
		}
	}

	r = dealt(t, "argentina", "6S 9D 5H 7C TC 2S", "ana")
	if err := r.Check(Action{Kind: CardStands, Player: "ana"}); err == nil || !strings.Contains(err.Error(), "only the house") {
		t.Errorf("a player's card-stands: %v", err)
	}
	act(t, r, Action{Kind: CardStands})
	if h := r.Hands(1)[0]; len(h.Cards()) != 3 || h.Doubled() || h.Total() != 21 {
		t.Errorf("the 11's hand %v doubled %v, want 6 5 T, not doubled", h.Cards(), h.Doubled())
	}
	if r.Phase() != Done {
		t.Fatalf("phase %v", r.Phase())
	}
	if nets, _ := r.Net(); nets["ana"] != 100 {
		t.Errorf("ana nets %d, want 100 (the stake, not doubled)", nets["ana"])
	}

	r = dealt(t, "argentina", "TS 9D 5H 7C 2S", "ana")
	if err := r.Check(Action{Kind: CardStands}); err == nil || !strings.HasSuffix(err.Error(), "a card drawn out of turn stands only for a first-card Ace while the challenge is open, or for a two-card 11 in turn that may double (AR-23)") {
		t.Errorf("card-stands on 15: %v", err)
	}
}

// AR-23, item 9: «Cuando el pagador omitiera dar carta a un jugador que
// tiene "ONCE" puntos en las dos primeras cartas y debía doblar, se le dará
// la opción de retirar la apuesta o a recibir la próxima carta».
func TestSkippedEleven_AR23(t *testing.T) {
	r := dealt(t, "argentina", "6S 9S 9D 5H 8H 7C 2S", "ana", "ben")
	if err := r.Check(Action{Kind: Withdraw, Player: "ana", Box: 1, Hand: 1}); err == nil {
		t.Error("ana withdraws with no irregularity")
	}
	act(t, r, Action{Kind: SkippedEleven})
	var listed bool
	for _, a := range r.LegalActions(nil) {
		listed = listed || a.Kind == Withdraw && a.Player == "ana"
	}
	if !listed {
		t.Errorf("ana's withdrawal is not listed: %v", r.LegalActions(nil))
	}
	if err := r.Check(Action{Kind: SkippedEleven}); err == nil {
		t.Error("the option given twice")
	}
	act(t, r, Action{Kind: Withdraw, Player: "ana", Box: 1, Hand: 1}, Action{Kind: Stand, Player: "ben", Box: 2, Hand: 1})
	if r.Phase() != Done {
		t.Fatalf("phase %v", r.Phase())
	}
	if nets, _ := r.Net(); nets["ana"] != 0 || nets["ben"] != -100 {
		t.Errorf("nets %v, want ana 0 (withdrawn), ben -100 (17 against 18)", nets)
	}

	// Or he takes the next card: the double he was to make.
	r = dealt(t, "argentina", "6S 9D 5H 7C TC 2S", "ana")
	act(t, r, Action{Kind: SkippedEleven}, Action{Kind: Double, Player: "ana", Box: 1, Hand: 1})
	if nets, _ := r.Net(); nets["ana"] != 200 {
		t.Errorf("ana nets %d, want 200 (21 doubled against 18)", nets["ana"])
	}
	if err := dealt(t, "argentina", "TS 9D 5H 7C 2S", "ana").Check(Action{Kind: SkippedEleven}); err == nil || !strings.Contains(err.Error(), "(AR-23)") {
		t.Errorf("the option on 15: %v", err)
	}
}
