package table

import (
	"errors"
	"strings"
	"testing"

	"sabot/engine"
	"sabot/rules"
	"sabot/shoe"
)

func newTable(t *testing.T, name string, opts ...string) *Table {
	t.Helper()
	p := rules.MustLookup(name)
	if err := p.SetAll(opts); err != nil {
		t.Fatal(err)
	}
	tb, err := New(p, shoe.SeedFromUint64(11))
	if err != nil {
		t.Fatal(err)
	}
	return tb
}

// play finishes a round standing on everything and closing every window.
func play(t *testing.T, tb *Table, r *engine.Round) {
	t.Helper()
	var buf [32]engine.Action
	for r.Phase() != engine.Done {
		legal := r.LegalActions(buf[:0])
		a := legal[len(legal)-1] // Close in a window; otherwise the last listed
		for _, x := range legal {
			if x.Kind == engine.Stand || x.Kind == engine.Close || x.Kind == engine.Declare && x.Value == 11 {
				a = x
				break
			}
		}
		if err := r.Act(a); err != nil {
			t.Fatal(err)
		}
	}
	if _, err := tb.Finish(); err != nil {
		t.Fatal(err)
	}
}

func wantRefused(t *testing.T, err error, rule string) {
	t.Helper()
	if !errors.Is(err, ErrRefused) || !strings.Contains(err.Error(), rule) {
		t.Fatalf("got %v, want a refusal naming %s", err, rule)
	}
}

// AR-03: a shoe starts only with three seated players making three bets;
// once started it goes on while three bets are made; a new shoe needs the
// condition again.
func TestShoeStart_AR03(t *testing.T) {
	tb := newTable(t, "argentina")
	tb.Sit("ana", 1)
	tb.Sit("ben", 2)
	tb.Bet("ana", 1, 100)
	tb.Bet("ana", 3, 100) // a free box (AR-04)
	tb.Bet("ben", 2, 100)
	_, err := tb.Deal()
	wantRefused(t, err, "AR-03") // three bets, two players
	// The refusal counts right (it said "1 bet" with
	// three placed): what is missing, and what the table has.
	var nr *NotReady
	if !errors.As(err, &nr) || *nr != (NotReady{Rule: "AR-03", Reason: "table_minimum_players", Need: 3, Have: 2, Bets: 3}) {
		t.Fatalf("not ready: %+v", nr)
	}
	if want := "refused: a shoe starts with 3 seated players betting; 3 bets placed by 2 players (AR-03)"; err.Error() != want {
		t.Errorf("the refusal says %q, want %q", err, want)
	}
	tb.Sit("cy", 4)
	tb.Bet("cy", 4, 100)
	r, err := tb.Deal()
	if err != nil {
		t.Fatal(err)
	}
	play(t, tb, r)
	// cy leaves; three bets by two players go on within the shoe.
	tb.Leave("cy")
	tb.Bet("ana", 1, 100)
	tb.Bet("ana", 3, 100)
	tb.Bet("ben", 2, 100)
	if r, err = tb.Deal(); err != nil {
		t.Fatalf("within the started shoe: %v", err)
	}
	play(t, tb, r)
	tb.Bet("ana", 1, 100)
	tb.Bet("ben", 2, 100)
	_, err = tb.Deal()
	wantRefused(t, err, "AR-03")
	if want := "refused: the shoe goes on while 3 bets are made; 2 placed (AR-03)"; err.Error() != want {
		t.Errorf("the refusal says %q, want %q", err, want)
	}
	// AR-24: a new shoe on request: the start condition applies again.
	if err := tb.NewShoe(); err != nil {
		t.Fatal(err)
	}
	tb.Bet("ana", 3, 100)
	_, err = tb.Deal()
	wantRefused(t, err, "seated players")
}

// AR-21: a seated player must bet every round or give up the seat; a free
// box goes to the first who asks, on a tie to the one seated nearest box 1.
func TestSeats_AR21(t *testing.T) {
	tb := newTable(t, "spain")
	tb.Sit("ana", 1)
	tb.Sit("ben", 2)
	tb.Sit("cy", 5)
	tb.Bet("ana", 1, 100)
	tb.Bet("cy", 5, 100)
	r, err := tb.Deal()
	if err != nil {
		t.Fatal(err)
	}
	if tb.Holder(2) != "" {
		t.Fatal("ben kept his seat without betting")
	}
	play(t, tb, r)
	tb.Claim("zoe", 2, 10) // standing
	tb.Claim("cy", 2, 10)  // seated at 5
	tb.Claim("ana", 2, 10) // seated at 1: nearest box 1
	tb.Claim("dan", 3, 9)
	tb.Claim("ana", 3, 10)
	got := tb.ResolveClaims()
	if got[2] != "ana" || got[3] != "dan" {
		t.Fatalf("claims resolved as %v, want box 2 to ana, box 3 to dan", got)
	}
}

// VE-20: a lone customer must play at least two boxes; VE-17: he plays free
// boxes until they are taken.
func TestLoneCustomer_VE20_VE17(t *testing.T) {
	tb := newTable(t, "venice")
	tb.Sit("ana", 1)
	tb.Bet("ana", 1, 100)
	_, err := tb.Deal()
	wantRefused(t, err, "VE-20")
	if want := "refused: a lone customer plays at least 2 boxes; 1 box played (VE-20)"; err.Error() != want {
		t.Errorf("the refusal says %q, want %q", err, want)
	}
	if err := tb.Bet("ana", 2, 100); err != nil {
		t.Fatal(err)
	}
	r, err := tb.Deal()
	if err != nil {
		t.Fatal(err)
	}
	if r.Holder(2) != "ana" {
		t.Fatalf("box 2 played by %q", r.Holder(2))
	}
	play(t, tb, r)
	// The free box is taken: ana bets on it as a back bettor now.
	tb.Sit("ben", 2)
	tb.Bet("ben", 2, 100)
	tb.Bet("ana", 1, 100)
	tb.Bet("ana", 2, 50)
	if r, err = tb.Deal(); err != nil {
		t.Fatal(err)
	}
	if r.Holder(2) != "ben" {
		t.Fatalf("box 2 held by %q, want ben", r.Holder(2))
	}
	play(t, tb, r)
	// VE-20: only players sit: a standing player may not take a free box.
	wantRefused(t, tb.Bet("zoe", 5, 100), "VE-20")
}

// FAM-02: the bank passes to the first player in dealing order who makes a
// blackjack, or after the agreed number of rounds.
func TestRotatingBank_FAM02(t *testing.T) {
	tb := newTable(t, "family", "bank_rounds=3")
	tb.SetBank("ana")
	tb.Sit("ana", 1)
	tb.Sit("ben", 2)
	tb.Sit("cy", 3)
	changes := 0
	for round := 0; round < 60; round++ {
		tb.Bet("ben", 2, 10)
		tb.Bet("cy", 3, 10)
		tb.Bet("ana", 1, 10)
		bankBefore := tb.Bank()
		r, err := tb.Deal()
		if err != nil {
			t.Fatal(err)
		}
		var first string
		for _, box := range r.Boxes() {
			if h := r.Hands(box)[0]; h.Count.TwoCard21() && first == "" && r.Holder(box) != bankBefore {
				first = r.Holder(box)
			}
		}
		play(t, tb, r)
		switch {
		case first != "":
			if tb.Bank() != first {
				t.Fatalf("round %d: %s made the first blackjack, bank is %s", round, first, tb.Bank())
			}
			changes++
		case tb.Bank() != bankBefore:
			changes++
		}
	}
	if changes < 10 {
		t.Fatalf("the bank changed hands %d times in 60 rounds of bank_rounds=3", changes)
	}
}

// EG-04, EG-05: after the round in which the cut card came out, the next
// deal reshuffles every card.
func TestReshuffleAfterTheCutCard_EG04_EG05(t *testing.T) {
	tb := newTable(t, "spain")
	tb.Sit("ana", 1)
	shoes := tb.ShoeNo()
	for i := 0; i < 200 && tb.ShoeNo() == shoes; i++ {
		tb.Bet("ana", 1, 100)
		r, err := tb.Deal()
		if err != nil {
			t.Fatal(err)
		}
		play(t, tb, r)
		if r.LastRound() && !tb.LastRound() {
			t.Fatal("the cut card came out but the table does not know")
		}
	}
	if tb.ShoeNo() != shoes+1 {
		t.Fatal("no reshuffle in 200 rounds")
	}
	if tb.Shoe().Remaining() < 312-5-20 {
		t.Fatalf("after the reshuffle %d cards remain", tb.Shoe().Remaining())
	}
}

// ES-03, VE-03: a back bettor follows a box holder's decisions; he never
// plays a box himself. A back bet on a box whose holder sits the round out
// (and gives up the seat, AR-21), or whose holder has left, is not dealt:
// Unbacked names it and Deal refuses while it is placed.
func TestBackBetWithoutHolder_ES03_VE03(t *testing.T) {
	for profile, rule := range map[string]string{"spain": "ES-03", "venice": "VE-03"} {
		t.Run(profile, func(t *testing.T) {
			tb := newTable(t, profile)
			tb.Sit("ana", 1)
			tb.Sit("ben", 2)
			tb.Sit("cy", 3)
			for _, b := range []struct {
				player string
				box    int
			}{{"ana", 1}, {"ben", 2}, {"cy", 3}, {"zoe", 1}, {"zoe", 2}} {
				if err := tb.Bet(b.player, b.box, 100); err != nil {
					t.Fatal(err)
				}
			}
			if u := tb.Unbacked(); len(u) != 0 {
				t.Fatalf("every holder bets, yet %v unbacked", u)
			}
			// ana takes her bet back: zoe's behind box 1 has nobody to follow.
			if _, err := tb.Withdraw("ana", 1); err != nil {
				t.Fatal(err)
			}
			// ben leaves: zoe's bet behind box 2 stands on a free box.
			tb.Leave("ben")
			u := tb.Unbacked()
			if len(u) != 2 || u[0] != (engine.PlacedBet{Player: "zoe", Box: 1, Stake: 100}) || u[1] != (engine.PlacedBet{Player: "zoe", Box: 2, Stake: 100}) {
				t.Fatalf("unbacked %v, want zoe's on boxes 1 and 2", u)
			}
			_, err := tb.Deal()
			wantRefused(t, err, rule)
			if tb.Holder(1) != "ana" || len(tb.Bets()) != 3 {
				t.Fatalf("a refused deal changed the table: box 1 held by %q, bets %v", tb.Holder(1), tb.Bets())
			}
			for _, b := range u {
				if _, err := tb.Withdraw(b.Player, b.Box); err != nil {
					t.Fatal(err)
				}
			}
			if profile == "venice" {
				tb.Bet("cy", 4, 100) // VE-20 wants a lone customer on two boxes
			}
			r, err := tb.Deal()
			if err != nil {
				t.Fatal(err)
			}
			for _, b := range r.Bets() {
				if b.Player == "zoe" {
					t.Fatalf("zoe's bet dealt: %+v", b)
				}
			}
			if tb.Holder(1) != "" {
				t.Errorf("ana kept box 1 without a bet (AR-21)")
			}
		})
	}
}
