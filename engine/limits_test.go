package engine

import (
	"errors"
	"strings"
	"testing"

	"sabot/card"
	"sabot/money"
	"sabot/rules"
)

// venice150 is venice at a 150 maximum.
func venice150(t *testing.T, set ...string) *rules.Profile {
	t.Helper()
	p := rules.MustLookup("venice")
	if err := p.SetAll(append([]string{"max_bet=150"}, set...)); err != nil {
		t.Fatal(err)
	}
	return p
}

// act applies decisions, failing the test on a refusal.
func act(t *testing.T, r *Round, as ...Action) {
	t.Helper()
	for _, a := range as {
		if err := r.Act(a); err != nil {
			t.Fatalf("%v: %v", a, err)
		}
	}
}

// checkBalance checks that the players' nets and the house's balance.
func checkBalance(t *testing.T, r *Round) {
	t.Helper()
	players, house := sumNet(r)
	if players+house != 0 {
		t.Errorf("players net %d, house %d: they do not balance", players, house)
	}
}

// VE-21: «gli importi sono strettamente vincolanti per il giocatore, che non
// può mai superarli, neppure con l'intervento di terzi»: at a 150 maximum a
// holder's 100 and a back bettor's 100 on one box are not both taken.
func TestMaximumBindsTheBox_VE21(t *testing.T) {
	r := New(venice150(t))
	r.Reset(NewForced(card.MustParseList("TS 9H 7C")))
	if err := r.PlaceBet("ana", 1, 100); err != nil {
		t.Fatal(err)
	}
	err := r.PlaceBet("ben", 1, 100)
	if !errors.Is(err, ErrStake) || !strings.Contains(err.Error(), "VE-21") || !strings.Contains(err.Error(), "not even with others' stakes") {
		t.Fatalf("a back bet taking the box over the maximum: %v", err)
	}
	if err := r.PlaceBet("ben", 1, 50); err != nil {
		t.Fatalf("a back bet within the maximum: %v", err)
	}
	// max_bet_scope=bet is the other reading, an option.
	r = New(venice150(t, "max_bet_scope=bet"))
	r.Reset(NewForced(card.MustParseList("TS 9H 7C")))
	if err := r.PlaceBet("ana", 1, 100); err != nil {
		t.Fatal(err)
	}
	if err := r.PlaceBet("ben", 1, 100); err != nil {
		t.Fatalf("max_bet_scope=bet: %v", err)
	}
}

// VE-21: «la vincita eccedente realizzata superando il massimo consentito
// non sarà pagata e la differenza della puntata restituita al cliente»: a
// 100 stake doubled to 200 at a 150 maximum plays 150; the other 50 is
// returned, win or lose.
func TestMaximumBindsTheDouble_VE21(t *testing.T) {
	cases := []struct {
		name  string
		set   []string
		cards string
		plays money.Amount
		net   money.Amount
	}{
		{"win", nil, "6S 9H 5C TD 7S 2S", 50, 150}, // 21 against 9 7 2 = 18
		{"lose", nil, "6S 9H 5C 2D TS", 50, -150},  // 13 against 9 T = 19
		{"no cap", []string{"max_bet_caps_double=false"}, "6S 9H 5C TD 7S 2S", 100, 200},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			r := New(venice150(t, c.set...))
			r.Reset(NewForced(card.MustParseList(c.cards)))
			if err := r.PlaceBet("ana", 1, 100); err != nil {
				t.Fatal(err)
			}
			if err := r.Start(); err != nil {
				t.Fatal(err)
			}
			act(t, r, Action{Kind: Double, Player: "ana", Box: 1, Hand: 1})
			if r.Phase() != Done {
				t.Fatalf("phase %v", r.Phase())
			}
			var d *Bet
			for i := range r.Bets() {
				if b := &r.Bets()[i]; b.Kind == DoubleBet {
					d = b
				}
			}
			if d == nil || d.Stake != 100 || d.Plays() != c.plays {
				t.Fatalf("double %+v plays %d, want %d of 100", d, d.Plays(), c.plays)
			}
			nets, _ := r.Net()
			if nets["ana"] != c.net {
				t.Errorf("ana nets %d, want %d (dealer %v)", nets["ana"], c.net, r.Dealer().Cards())
			}
			checkBalance(t, r)
		})
	}
}

// VE-21 with VE-11: under the box's maximum a back bettor's double counts
// after the holder's, up to what is left below the maximum.
func TestMaximumBindsTheBackBettorsDouble_VE21_VE11(t *testing.T) {
	r := New(venice150(t))
	r.Reset(NewForced(card.MustParseList("6S 9H 5C TD 7S 2S")))
	if err := r.PlaceBet("ana", 1, 100); err != nil {
		t.Fatal(err)
	}
	if err := r.PlaceBet("ben", 1, 20); err != nil {
		t.Fatal(err)
	}
	if err := r.Start(); err != nil {
		t.Fatal(err)
	}
	act(t, r, Action{Kind: Double, Player: "ana", Box: 1, Hand: 1}, Action{Kind: Double, Player: "ben", Box: 1, Hand: 1})
	want := map[string]money.Amount{"ana": 30, "ben": 0}
	for _, b := range r.Bets() {
		if b.Kind == DoubleBet && b.Plays() != want[b.Player] {
			t.Errorf("%s's double of %d plays %d, want %d", b.Player, b.Stake, b.Plays(), want[b.Player])
		}
	}
	nets, _ := r.Net()
	if nets["ana"] != 130 || nets["ben"] != 20 {
		t.Errorf("nets %v, want ana 130, ben 20", nets)
	}
	checkBalance(t, r)
}

// AR-14 is the Argentine text's («Cuando todos los Jugadores se pasaren de
// puntaje … el Pagador no tirará cartas para sí»); the Venetian dealer
// completes his hand «obbligatoriamente» (VE-08) and the Spanish one by the
// rule of 17 (ES-05): with every hand bust, venice's dealer draws and
// argentina's does not.
func TestDealerPlaysWhenEveryHandIsBust_AR14_VE08_ES05(t *testing.T) {
	cases := []struct {
		profile string
		set     []string
		cards   string
		dealer  int // the dealer's cards at the end
	}{
		{"venice", nil, "TS 6H 6C KD 5S 9C", 3},                          // bust on K; dealer 6 5 9
		{"venice", []string{"dealer_plays=as-needed"}, "TS 6H 6C KD", 1}, // the up card only
		{"spain", nil, "TS 6H 6C KD 5S 9C", 3},
		{"argentina", []string{"challenge=false", "declare_initial_ace=false"}, "TS 6H 6C 2D KD", 2}, // hole card turned, no draw
		{"argentina", []string{"dealer_plays=always"}, "TS 6H 6C 2D KD 9S", 3},
	}
	for _, c := range cases {
		p := rules.MustLookup(c.profile)
		if err := p.SetAll(c.set); err != nil {
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
		act(t, r, Action{Kind: Hit, Player: "ana", Box: 1, Hand: 1})
		if r.Phase() != Done {
			t.Fatalf("%s %v: phase %v", c.profile, c.set, r.Phase())
		}
		if n := len(r.Dealer().Cards()); n != c.dealer {
			t.Errorf("%s %v: the dealer holds %v, want %d cards", c.profile, c.set, r.Dealer().Cards(), c.dealer)
		}
		if nets, _ := r.Net(); nets["ana"] != -100 {
			t.Errorf("%s %v: a bust nets %d, want -100 (ES-04)", c.profile, c.set, nets["ana"])
		}
	}
}

// ES-11: «El croupier propondrá este seguro al conjunto de los jugadores,
// antes de dar la tercera carta al primer jugador que la pida»: spain keeps
// the offer open while the boxes play, until the first third card; a
// stand leaves it open. The refusal after says what closed it.
func TestInsuranceClosesAtTheFirstThirdCard_ES11(t *testing.T) {
	p := rules.MustLookup("spain")
	r := New(p)
	r.Reset(NewForced(card.MustParseList("TS 9S 5D AD 9H 2H 6C 3C")))
	for i, who := range []string{"ana", "ben", "cy"} {
		if err := r.PlaceBet(who, i+1, 100); err != nil {
			t.Fatal(err)
		}
	}
	if err := r.Start(); err != nil {
		t.Fatal(err)
	}
	act(t, r, Action{Kind: Close}, Action{Kind: Stand, Player: "ana", Box: 1, Hand: 1})
	var legal bool
	for _, a := range r.LegalActions(nil) {
		legal = legal || a.Kind == Insure && a.Player == "ben"
	}
	if !legal {
		t.Errorf("after box 1 stood, ben's insurance is not listed: %v", r.LegalActions(nil))
	}
	act(t, r, Action{Kind: Insure, Player: "ben", Box: 2, Hand: 1, Stake: 50})
	act(t, r, Action{Kind: Hit, Player: "ben", Box: 2, Hand: 1})
	err := r.Act(Action{Kind: Insure, Player: "cy", Box: 3, Hand: 1, Stake: 50})
	if err == nil || !strings.HasSuffix(err.Error(), "insurance closed when the first third card was dealt (ES-11)") {
		t.Errorf("after box 2's third card: %v", err)
	}
}

// VE-15 (insurance_closes=first-decision, the one-shot offer of 003 §11): the
// first decision of another kind closes the offer, and the refusal says
// that no third card was dealt but the dealer turned to a box.
func TestInsuranceOneShotOffer_VE15(t *testing.T) {
	r := New(rules.MustLookup("venice"))
	r.Reset(NewForced(card.MustParseList("TS 9S 5D AD 9H 2H 6C 3C")))
	for i, who := range []string{"ana", "ben", "cy"} {
		if err := r.PlaceBet(who, i+1, 100); err != nil {
			t.Fatal(err)
		}
	}
	if err := r.Start(); err != nil {
		t.Fatal(err)
	}
	act(t, r, Action{Kind: Close}, Action{Kind: Stand, Player: "ana", Box: 1, Hand: 1})
	err := r.Act(Action{Kind: Insure, Player: "ben", Box: 2, Hand: 1, Stake: 50})
	if err == nil || !strings.HasSuffix(err.Error(), "insurance was offered to every box before play and closed when the dealer turned to box 1 (VE-15)") {
		t.Errorf("after box 1 stood: %v", err)
	}
}

// AR-10: the challenge stakes «otra apuesta igual a la mitad de la postura
// original»: an odd stake has no half, and its challenge is refused with
// the reason (it was staked at 12 of 25, silently); an even one's is half.
func TestChallengeOnAnOddStake_AR10(t *testing.T) {
	r := New(rules.MustLookup("argentina"))
	r.Reset(NewForced(card.MustParseList("AS AD 8D KH KS 9C")))
	if err := r.PlaceBet("ana", 1, 25); err != nil {
		t.Fatal(err)
	}
	if err := r.PlaceBet("ben", 2, 30); err != nil {
		t.Fatal(err)
	}
	if err := r.Start(); err != nil {
		t.Fatal(err)
	}
	for _, stake := range []money.Amount{0, 12, 13} {
		err := r.Act(Action{Kind: Challenge, Player: "ana", Box: 1, Hand: 1, Stake: stake})
		if err == nil || !strings.HasSuffix(err.Error(), "the challenge stakes exactly half the original stake, and 25 has no half to stake: a challenge needs an even stake (AR-10)") {
			t.Errorf("a challenge of %d on 25: %v", stake, err)
		}
	}
	for _, a := range r.LegalActions(nil) {
		if a.Kind == Challenge && a.Player == "ana" {
			t.Errorf("ana's challenge on 25 is listed: %v", a)
		}
	}
	act(t, r, Action{Kind: Challenge, Player: "ben", Box: 2, Hand: 1})
	for _, b := range r.Bets() {
		if b.Kind == ChallengeBet && (b.Player != "ben" || b.Stake != 15) {
			t.Errorf("challenge %+v, want ben's of 15", b)
		}
	}
}
