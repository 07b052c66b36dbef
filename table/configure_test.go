package table

import (
	"strings"
	"testing"

	"sabot/money"
	"sabot/rules"
)

func profile(t *testing.T, name string, opts ...string) *rules.Profile {
	t.Helper()
	p := rules.MustLookup(name)
	if err := p.SetAll(opts); err != nil {
		t.Fatal(err)
	}
	return p
}

// A live table's rules change between rounds: limits at once, the shoe
// (decks, cut card) with a new shoe (AR-24); seats beyond a smaller layout
// must be free; never during a round.
func TestReconfigure_AR24(t *testing.T) {
	tb := newTable(t, "vegas-s17")
	tb.Sit("ana", 1)
	tb.Sit("ben", 5)
	if err := tb.Bet("ana", 1, 500); err != nil {
		t.Fatal(err)
	}
	if _, err := tb.Reconfigure(profile(t, "vegas-s17", "boxes=3")); err == nil {
		t.Fatal("a layout of 3 boxes dropped ben's box 5")
	}
	shoeNo := tb.ShoeNo()
	newShoe, err := tb.Reconfigure(profile(t, "vegas-s17", "max_bet=1000"))
	if err != nil || newShoe || tb.ShoeNo() != shoeNo {
		t.Fatalf("a new limit: new shoe %v, shoe %d→%d, %v", newShoe, shoeNo, tb.ShoeNo(), err)
	}
	if err := tb.Bet("ben", 5, 2000); err == nil {
		t.Fatal("a bet over the new maximum was taken")
	}
	tb.Bet("ben", 5, 100)
	r, err := tb.Deal()
	if err != nil {
		t.Fatal(err)
	}
	if _, err := tb.Reconfigure(profile(t, "vegas-s17", "decks=2")); err == nil {
		t.Fatal("the rules changed during a round")
	}
	play(t, tb, r)
	newShoe, err = tb.Reconfigure(profile(t, "vegas-s17", "decks=2", "cut_card_reserve=26"))
	if err != nil || !newShoe || tb.ShoeNo() != shoeNo+1 || tb.Shoe().Decks() != 2 {
		t.Fatalf("two decks: new shoe %v, shoe %d, %d decks, %v", newShoe, tb.ShoeNo(), tb.Shoe().Decks(), err)
	}
	tb.Bet("ana", 1, 100)
	tb.Bet("ben", 5, 100)
	if r, err = tb.Deal(); err != nil {
		t.Fatal(err)
	}
	play(t, tb, r)
}

// FAM-01: the players agree who holds the bank first (and may agree to
// give it on); it goes only to a seated player, and face-down collected
// cards are reshuffled when it changes hands (FAM-03). FAM-02: the bank
// plays the dealer's hand, so its holder bets on no box and keeps his seat.
func TestBankAgreed_FAM01_FAM03(t *testing.T) {
	tb := newTable(t, "family", "collected_cards=under-face-down")
	tb.Sit("ana", 1)
	tb.Sit("ben", 2)
	if _, err := tb.GiveBank("zed"); err == nil {
		t.Fatal("the bank went to a player who does not sit")
	}
	shoeNo := tb.ShoeNo()
	newShoe, err := tb.GiveBank("ben")
	if err != nil || !newShoe || tb.Bank() != "ben" || tb.ShoeNo() != shoeNo+1 {
		t.Fatalf("bank to ben: %q, new shoe %v (%d→%d), %v", tb.Bank(), newShoe, shoeNo, tb.ShoeNo(), err)
	}
	wantRefused(t, tb.Bet("ben", 2, 10), "FAM-02")
	if err := tb.Bet("ana", 1, 10); err != nil {
		t.Fatal(err)
	}
	r, err := tb.Deal()
	if err != nil {
		t.Fatal(err)
	}
	play(t, tb, r)
	if tb.Holder(2) != "ben" {
		t.Fatal("the bank's holder lost his seat for not betting (AR-21 does not apply to the bank)")
	}
	if _, err := tb.GiveBank(""); err != nil || tb.Bank() != "" {
		t.Fatalf("bank back to the house: %q %v", tb.Bank(), err)
	}
	house := newTable(t, "vegas-s17")
	house.Sit("ana", 1)
	if _, err := house.GiveBank("ana"); err == nil {
		t.Fatal("a house-banked table gave its bank to a player")
	}
}

// AR-21 frees the seats of players who did not bet only when the round
// starts: a deal the engine refuses changes no seat. A round is finished
// once.
func TestRefusedDealKeepsSeats_AR21(t *testing.T) {
	tb := newTable(t, "vegas-s17", "back_bets_per_box=2", "max_bet_scope=box", "max_bet=100")
	tb.Sit("ana", 1)
	tb.Sit("cy", 2)
	if err := tb.Bet("ana", 1, 80); err != nil {
		t.Fatal(err)
	}
	if err := tb.Bet("ben", 1, 50); err != nil { // a back bet: the box's 130 exceed the maximum
		t.Fatal(err)
	}
	if _, err := tb.Deal(); err == nil {
		t.Fatal("the engine took a box over its maximum")
	}
	if tb.Holder(2) != "cy" {
		t.Fatal("a refused deal freed cy's seat")
	}
	tb.Withdraw("ben", 1)
	r, err := tb.Deal()
	if err != nil {
		t.Fatal(err)
	}
	if tb.Holder(2) != "" {
		t.Fatal("cy kept his seat without betting (AR-21)")
	}
	play(t, tb, r)
	if _, err := tb.Finish(); err == nil {
		t.Fatal("a round was finished twice")
	}
}

// The table's refusals and its round's show amounts in the style the
// table was given, after a configuration change too (AR-04, VE-21).
func TestAmountFormat_AR04(t *testing.T) {
	tb := newTable(t, "argentina", "min_bet=500", "max_bet=100000")
	tb.SetAmountStyle(money.Grouped)
	tb.Sit("ana", 1)
	if err := tb.Bet("ana", 1, 200000); err == nil || !strings.Contains(err.Error(), "a stake must be between 5.00 and 1,000.00 (AR-04)") {
		t.Fatalf("table: %v", err)
	}
	// VE-18: a stake below the minimum stands once the cards are dealt, not
	// one placed short.
	ve := newTable(t, "venice", "min_bet=500", "max_bet=100000")
	ve.Sit("ana", 1)
	if err := ve.Bet("ana", 1, 100); err == nil || !strings.Contains(err.Error(), "a stake must be between 500 and 100000") {
		t.Fatalf("venice, a stake placed short (VE-18): %v", err)
	}
	if _, err := tb.Reconfigure(profile(t, "argentina", "min_bet=1000", "max_bet=100000")); err != nil {
		t.Fatal(err)
	}
	if err := tb.Round().PlaceBet("ana", 1, 500); err == nil || !strings.Contains(err.Error(), "the table minimum is 10.00 (AR-04)") {
		t.Fatalf("the round after a configuration change: %v", err)
	}
}
