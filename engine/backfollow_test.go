package engine

import (
	"strings"
	"testing"

	"sabot/card"
	"sabot/money"
	"sabot/rules"
)

// ES-03, VE-11, VE-12: what a back bet does when the box holder doubles or
// splits is the table's reading, back_follow. 004: «I giocatori che hanno
// puntato sulla postazione non sono obbligati a raddoppiare la posta, ma
// devono accettare l'attribuzione di una sola carta» and «Nella divisione
// la decisione del titolare di postazione è vincolante per gli altri
// giocatori»; 001: «debiendo aceptar sus iniciativas». Under choose (every
// profile's) each back bettor answers in the follow window; under follow
// his matching stake goes on at once, with no window and no answer; under
// stay none does, and his bet stays on the first hand, or on the doubled
// hand at its own stake, taking the one card. On forced cards (box, dealer,
// box): ana holds box 1 for 100, ben backs it for 50; the dealer busts.
func TestBackFollow_ES03_VE11_VE12(t *testing.T) {
	cases := []struct {
		profile, reading string
		kind             Kind
		cards            string
		answer           bool // ben answers the window (choose) with a matching stake
		window           bool // the follow window opens
		ben              money.Amount
		benBets          int // ben's bets at the end: his stake, and one more if it followed
	}{
		// 5+4 doubles to 18 on the 9; the dealer's 6 T 8 busts.
		{"venice", "choose", Double, "5S 6D 4H 9C TC 8D", true, true, 100, 2},
		{"venice", "choose", Double, "5S 6D 4H 9C TC 8D", false, true, 50, 1},
		{"venice", "follow", Double, "5S 6D 4H 9C TC 8D", false, false, 100, 2},
		{"venice", "stay", Double, "5S 6D 4H 9C TC 8D", false, false, 50, 1},
		{"spain", "choose", Double, "5S 6D 4H 9C TC 8D", true, true, 100, 2},
		{"spain", "follow", Double, "5S 6D 4H 9C TC 8D", false, false, 100, 2},
		{"spain", "stay", Double, "5S 6D 4H 9C TC 8D", false, false, 50, 1},
		// 8-8 splits: 8 T and 8 T stand; the dealer's 6 9 7 busts.
		{"venice", "choose", Split, "8S 6D 8H TD TS 9H 7C", true, true, 100, 2},
		{"venice", "choose", Split, "8S 6D 8H TD TS 9H 7C", false, true, 50, 1},
		{"venice", "follow", Split, "8S 6D 8H TD TS 9H 7C", false, false, 100, 2},
		{"venice", "stay", Split, "8S 6D 8H TD TS 9H 7C", false, false, 50, 1},
		{"spain", "choose", Split, "8S 6D 8H TD TS 9H 7C", false, true, 50, 1},
		{"spain", "follow", Split, "8S 6D 8H TD TS 9H 7C", false, false, 100, 2},
		{"spain", "stay", Split, "8S 6D 8H TD TS 9H 7C", false, false, 50, 1},
	}
	for _, c := range cases {
		name := c.profile + "/" + c.reading + "/" + c.kind.String()
		if c.answer {
			name += "/answered"
		}
		t.Run(name, func(t *testing.T) {
			p := rules.MustLookup(c.profile)
			if err := p.Set("back_follow", c.reading); err != nil {
				t.Fatal(err)
			}
			if err := p.Validate(); err != nil {
				t.Fatal(err)
			}
			r := New(p)
			r.Reset(NewForced(card.MustParseList(c.cards)))
			if err := r.PlaceBet("ana", 1, 100); err != nil {
				t.Fatal(err)
			}
			if err := r.PlaceBet("ben", 1, 50); err != nil {
				t.Fatal(err)
			}
			if err := r.Start(); err != nil {
				t.Fatal(err)
			}
			act(t, r, Action{Kind: c.kind, Player: "ana", Box: 1, Hand: 1})
			answer := Action{Kind: c.kind, Player: "ben", Box: 1, Hand: 1}
			if got := r.Phase() == FollowWindow; got != c.window {
				t.Fatalf("after the holder's %s the follow window is open: %v, want %v", c.kind, got, c.window)
			}
			if r.Legal(answer) != c.window {
				t.Errorf("ben's %s legal %v, want %v", c.kind, r.Legal(answer), c.window)
			}
			if !c.window && c.kind == Split {
				// The holder's first hand plays on: a back bettor's answer
				// is refused, naming the table's own rule.
				want := map[string]string{"spain": "(ES-03)", "venice": "(VE-12)"}[c.profile]
				if err := r.Act(answer); err == nil || !strings.Contains(err.Error(), want) || !strings.Contains(err.Error(), "at this table") {
					t.Errorf("ben's split under back_follow=%s: %v, want a refusal naming %s", c.reading, err, want)
				}
			}
			switch {
			case c.answer:
				act(t, r, answer)
			case c.window:
				act(t, r, Action{Kind: Close})
			}
			for r.Phase() == Playing {
				box, hand := r.Current()
				act(t, r, Action{Kind: Stand, Player: r.Holder(box), Box: box, Hand: hand})
			}
			if r.Phase() != Done {
				t.Fatalf("phase %s", r.Phase())
			}
			n := 0
			for _, b := range r.Bets() {
				if b.Player == "ben" {
					n++
					if b.Stake != 50 {
						t.Errorf("ben's %s bet of %d, want 50", b.Kind, b.Stake)
					}
				}
			}
			if n != c.benBets {
				t.Errorf("ben has %d bets, want %d: %+v", n, c.benBets, r.Bets())
			}
			nets, _ := r.Net()
			if nets["ana"] != 200 || nets["ben"] != c.ben {
				t.Errorf("nets %v, want ana 200, ben %d", nets, c.ben)
			}
			checkBalance(t, r)
		})
	}
}
