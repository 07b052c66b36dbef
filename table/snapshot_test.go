package table

import (
	"encoding/json"
	"errors"
	"fmt"
	"reflect"
	"sort"
	"strings"
	"testing"

	"sabot/engine"
	"sabot/money"
	"sabot/rules"
	"sabot/shoe"
)

// session drives a table through rounds deterministically: who sits, bets,
// skips a round (AR-21) and claims a box back, and a simple strategy for
// every decision. Two tables in the same state driven by it do the same.
type session struct {
	t  *testing.T
	p  *rules.Profile
	tb *Table
}

func newSession(t *testing.T, name string, opts ...string) *session {
	t.Helper()
	p := rules.MustLookup(name)
	if err := p.SetAll(opts); err != nil {
		t.Fatal(err)
	}
	tb, err := New(p, shoe.SeedFromUint64(21))
	if err != nil {
		t.Fatal(err)
	}
	s := &session{t: t, p: p}
	s.use(tb)
	for box, pl := range []string{"ana", "ben", "cy"} {
		if err := tb.Sit(pl, box+1); err != nil {
			t.Fatal(err)
		}
	}
	if p.BankRotates {
		tb.SetBank("ana") // FAM-01: the players agree who starts
	}
	return s
}

// use makes tb the session's table, with seeds that depend only on the
// table's state, as a server gives the recorded ones back.
func (s *session) use(tb *Table) {
	s.tb = tb
	tb.Seeds = func() shoe.Seed { return shoe.SeedFromUint64(1000 + uint64(tb.ShoeNo())) }
}

// bets is the first half of round i: seats, claims and bets. It returns what
// happened.
func (s *session) bets(i int) string {
	tb := s.tb
	var b strings.Builder
	if i%11 == 6 {
		tb.Leave("ben")
		fmt.Fprintf(&b, "ben leaves; ")
	}
	if i%11 == 8 {
		fmt.Fprintf(&b, "claims %v %v; ", tb.Claim("ben", 2, int64(i)), tb.Claim("dan", 2, int64(i)))
	}
	for _, pl := range tb.Seated() {
		if pl == "cy" && i%9 == 4 {
			continue // AR-21: cy gives up the seat by not betting
		}
		for box := 1; box <= s.p.Boxes; box++ {
			if tb.Holder(box) == pl {
				fmt.Fprintf(&b, "%s bets on %d: %v; ", pl, box, tb.Bet(pl, box, money.Amount(10+(7*i+box)%40)))
			}
		}
	}
	if tb.Holder(3) == "" && i%9 != 4 {
		fmt.Fprintf(&b, "cy sits at 3: %v; ", tb.Sit("cy", 3))
		fmt.Fprintf(&b, "cy bets: %v; ", tb.Bet("cy", 3, 25))
	}
	if i%3 == 0 { // AR-04, VE-17: a free box
		fmt.Fprintf(&b, "ana bets on 5: %v; ", tb.Bet("ana", 5, 15))
	}
	if i%4 == 1 { // ES-03, VE-03: a back bet (AR-05 refuses it)
		fmt.Fprintf(&b, "eve back bets: %v; ", tb.Bet("eve", 1, 20))
	}
	if i%7 == 2 {
		st, err := tb.Withdraw("ana", 5)
		fmt.Fprintf(&b, "ana withdraws %d: %v; ", st, err)
	}
	fmt.Fprintf(&b, "bets %v", tb.Bets())
	return b.String()
}

// play is the second half of round i: claims resolved, the deal, the
// decisions, Finish. It returns what happened and whether a round was dealt.
func (s *session) play(i int) (string, bool) {
	tb := s.tb
	var b strings.Builder
	got := tb.ResolveClaims()
	boxes := make([]int, 0, len(got))
	for box := range got {
		boxes = append(boxes, box)
	}
	sort.Ints(boxes)
	for _, box := range boxes {
		fmt.Fprintf(&b, "box %d to %s; ", box, got[box])
	}
	r, err := tb.Deal()
	if err != nil {
		fmt.Fprintf(&b, "deal: %v", err)
		return b.String(), false
	}
	var buf [32]engine.Action
	for n := 0; r.Phase() != engine.Done; n++ {
		if n > 200 {
			s.t.Fatalf("round %d does not end", i)
		}
		legal := r.LegalActions(buf[:0])
		a := choose(r, legal, i+n)
		if err := r.Act(a); err != nil {
			s.t.Fatalf("round %d: %v: %v", i, a, err)
		}
	}
	newBank, err := tb.Finish()
	if err != nil {
		s.t.Fatal(err)
	}
	players, house := r.Net()
	void, why := r.Void()
	fmt.Fprintf(&b, "round %d of shoe %d: net %v, house %d, void %v %s, last %v; new bank %q, bank %q; seed %x, left %d",
		tb.RoundNo(), tb.ShoeNo(), players, house, void, why, tb.LastRound(), newBank, tb.Bank(), tb.Seed(), tb.Shoe().Remaining())
	return b.String(), true
}

// choose is a simple deterministic strategy: split and double now and then,
// hit below 13, stand otherwise; in a window, now and then take what it
// offers, else close it.
func choose(r *engine.Round, legal []engine.Action, h int) engine.Action {
	find := func(k engine.Kind) (engine.Action, bool) {
		for _, a := range legal {
			if a.Kind == k {
				return a, true
			}
		}
		return engine.Action{}, false
	}
	if r.Phase() != engine.Playing {
		if h%4 == 0 && len(legal) > 1 {
			return legal[h%(len(legal)-1)]
		}
		if a, ok := find(engine.Close); ok {
			return a
		}
		return legal[0]
	}
	box, hand := r.Current()
	total := r.Hands(box)[hand-1].Total()
	if a, ok := find(engine.Split); ok && h%2 == 0 {
		return a
	}
	if a, ok := find(engine.Double); ok && total >= 9 && total <= 11 {
		return a
	}
	if a, ok := find(engine.Declare); ok {
		return a
	}
	if a, ok := find(engine.Hit); ok && total < 13 {
		return a
	}
	if a, ok := find(engine.Stand); ok {
		return a
	}
	return legal[0]
}

// restored takes a snapshot through JSON and restores it.
func restored(t *testing.T, p *rules.Profile, tb *Table) *Table {
	t.Helper()
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
	r, err := Restore(p, back)
	if err != nil {
		t.Fatal(err)
	}
	if r.Round().Phase() != engine.Betting {
		t.Fatalf("restored round in phase %v", r.Round().Phase())
	}
	return r
}

// same compares what a client can see of two tables.
func same(t *testing.T, at string, a, b *Table) {
	t.Helper()
	for box := 1; box <= a.p.Boxes; box++ {
		if a.Holder(box) != b.Holder(box) {
			t.Fatalf("%s: box %d held by %q and %q", at, box, a.Holder(box), b.Holder(box))
		}
	}
	switch {
	case a.Bank() != b.Bank():
		t.Fatalf("%s: bank %q and %q", at, a.Bank(), b.Bank())
	case a.ShoeNo() != b.ShoeNo() || a.RoundNo() != b.RoundNo():
		t.Fatalf("%s: shoe %d round %d and shoe %d round %d", at, a.ShoeNo(), a.RoundNo(), b.ShoeNo(), b.RoundNo())
	case a.Seed() != b.Seed() || a.LastRound() != b.LastRound():
		t.Fatalf("%s: seed or last round differ", at)
	case !reflect.DeepEqual(a.Bets(), b.Bets()):
		t.Fatalf("%s: bets %v and %v", at, a.Bets(), b.Bets())
	case !reflect.DeepEqual(a.Shoe().State(), b.Shoe().State()):
		t.Fatalf("%s: the shoes differ", at)
	}
}

// A table restored from a snapshot between rounds plays on exactly as the
// original: snapshots after Finish and with bets and claims pending, with
// the bank held by a player, restored in a chain, for several profiles.
func TestSnapshotRestore(t *testing.T) {
	for _, c := range []struct {
		name string
		opts []string
	}{
		{"argentina", nil},
		{"spain", nil},
		{"venice", nil},
		{"vegas-s17", nil},
		{"family", []string{"bank_rounds=3"}}, // FAM-03 under face up: mid-shoe reshuffles
		{"family", []string{"bank_rounds=2", "collected_cards=under-face-down"}}, // FAM-03: a new shoe when the bank passes
	} {
		t.Run(strings.Join(append([]string{c.name}, c.opts...), ","), func(t *testing.T) {
			const rounds, after, every = 60, 40, 4
			var newShoes, reshuffles, banks, pendingBets, pendingClaims, deals int
			for at := 0; at < rounds; at += every {
				for _, mid := range []bool{false, true} { // after Finish, or with the bets placed
					orig := newSession(t, c.name, c.opts...)
					for i := 0; i < at; i++ {
						orig.bets(i)
						orig.play(i)
					}
					if mid {
						orig.bets(at)
					}
					rest := &session{t: t, p: orig.p}
					rest.use(restored(t, orig.p, orig.tb))
					same(t, "restored", orig.tb, rest.tb)
					if len(orig.tb.Bets()) > 0 {
						pendingBets++
					}
					if len(orig.tb.claims) > 0 {
						pendingClaims++
					}
					shoeNo, reshuffled, bank := orig.tb.ShoeNo(), orig.tb.Shoe().Reshuffles(), orig.tb.Bank()
					for i := at; i < at+after; i++ {
						where := fmt.Sprintf("restored before round %d (bets placed %v), round %d", at, mid, i)
						if !mid || i > at {
							// Every few rounds the restored table is
							// snapshotted and restored again.
							if i%5 == 0 {
								rest.use(restored(t, rest.p, rest.tb))
							}
							if a, b := orig.bets(i), rest.bets(i); a != b {
								t.Fatalf("%s: bets differ:\noriginal %s\nrestored %s", where, a, b)
							}
						}
						a, dealt := orig.play(i)
						if b, _ := rest.play(i); a != b {
							t.Fatalf("%s: round differs:\noriginal %s\nrestored %s", where, a, b)
						}
						if orig.tb.Bank() != bank {
							banks++
							bank = orig.tb.Bank()
						}
						if dealt {
							deals++
							if a, b := orig.tb.Round().Record(), rest.tb.Round().Record(); !reflect.DeepEqual(a, b) {
								t.Fatalf("%s: records differ:\noriginal %+v\nrestored %+v", where, a, b)
							}
						}
						same(t, where, orig.tb, rest.tb)
					}
					a, _ := orig.tb.Snapshot()
					b, _ := rest.tb.Snapshot()
					if !reflect.DeepEqual(a, b) {
						t.Fatalf("restored before round %d: the snapshots differ at the end", at)
					}
					if orig.tb.ShoeNo() != shoeNo {
						newShoes++
					}
					if orig.tb.Shoe().Reshuffles() > 1 || orig.tb.ShoeNo() == shoeNo && orig.tb.Shoe().Reshuffles() > reshuffled {
						reshuffles++ // the source restored did the shuffling
					}
				}
			}
			runs := 2 * rounds / every
			orig0 := rules.MustLookup(c.name)
			t.Logf("%d runs: %d deals; after the restore %d new shoes, %d mid-shoe reshuffles, %d banks passed; %d with bets, %d with claims pending",
				runs, deals, newShoes, reshuffles, banks, pendingBets, pendingClaims)
			switch {
			case deals < runs*after/2:
				t.Fatalf("only %d of %d rounds were dealt", deals, runs*after)
			case newShoes+reshuffles < runs/2:
				t.Fatal("too few shuffles after a restore: the shoe's source is not tested")
			case orig0.BankRotates && banks < runs*after/10:
				t.Fatal("too few bank changes after a restore")
			case pendingBets < runs/3 || pendingClaims == 0:
				t.Fatal("too few snapshots with bets or claims pending")
			}
		})
	}
}

// No snapshot while a round is in play, nor before the round over is
// finished; after Finish, one.
func TestSnapshotRefusedInRound(t *testing.T) {
	tb := newTable(t, "vegas-s17")
	tb.Sit("ana", 1)
	for i := 0; i < 20; i++ {
		tb.Bet("ana", 1, 100)
		r, err := tb.Deal()
		if err != nil {
			t.Fatal(err)
		}
		if r.Phase() != engine.Done {
			_, err := tb.Snapshot()
			wantRefused(t, err, "in play")
		}
		var buf [32]engine.Action
		for r.Phase() != engine.Done {
			r.Act(choose(r, r.LegalActions(buf[:0]), i))
		}
		_, err = tb.Snapshot()
		wantRefused(t, err, "finished")
		if _, err := tb.Finish(); err != nil {
			t.Fatal(err)
		}
		if _, err := tb.Snapshot(); err != nil {
			t.Fatal(err)
		}
	}
	// A round over, then forgotten by a new configuration: nothing to lose.
	tb.Bet("ana", 1, 100)
	r, err := tb.Deal()
	if err != nil {
		t.Fatal(err)
	}
	var buf [32]engine.Action
	for r.Phase() != engine.Done {
		r.Act(choose(r, r.LegalActions(buf[:0]), 0))
	}
	if _, err := tb.Reconfigure(rules.MustLookup("vegas-s17")); err != nil {
		t.Fatal(err)
	}
	if _, err := tb.Snapshot(); err != nil {
		t.Fatalf("after Reconfigure: %v", err)
	}
}

// Restore refuses a snapshot that does not fit the profile or is corrupt.
func TestRestoreRefuses(t *testing.T) {
	tb := newTable(t, "spain")
	tb.Sit("ana", 1)
	tb.Bet("ana", 1, 100)
	r, _ := tb.Deal()
	play(t, tb, r)
	tb.Bet("ana", 1, 50)
	tb.Claim("ben", 2, 7)
	good, err := tb.Snapshot()
	if err != nil {
		t.Fatal(err)
	}
	if _, err := Restore(tb.Profile(), good); err != nil {
		t.Fatal(err)
	}
	for _, c := range []struct {
		name    string
		profile string
		change  func(*Snapshot)
		says    string
	}{
		{"wrong deck count", "spain", func(sn *Snapshot) { sn.Shoe.Decks = 8 }, "8 decks; the profile has 6"},
		{"another profile's decks", "argentina", func(*Snapshot) {}, "the profile has 8"},
		{"cards for other decks", "spain", func(sn *Snapshot) { sn.Shoe.Cards, sn.Shoe.Cut = sn.Shoe.Cards[:52*5], -1 }, "260 cards, want 312"},
		{"a card twice", "spain", func(sn *Snapshot) { sn.Shoe.Cards[0] = sn.Shoe.Cards[1] }, "appears"},
		{"another collection mode", "spain", func(sn *Snapshot) { sn.Shoe.Collected = shoe.UnderFaceUp }, "FAM-03"},
		{"a forced shoe", "spain", func(sn *Snapshot) { sn.Shoe.Forced = true }, "forced"},
		{"the shoe position", "spain", func(sn *Snapshot) { sn.Shoe.Pos = 1000 }, "position 1000"},
		{"too few seats", "spain", func(sn *Snapshot) { sn.Seats = sn.Seats[:7] }, "7 seats for 7 boxes"},
		{"seat 0 taken", "spain", func(sn *Snapshot) { sn.Seats[0] = "zoe" }, "seats"},
		{"a bet on no box", "spain", func(sn *Snapshot) { sn.Bets[0].Box = 9 }, "box 9"},
		{"a stake of 0", "spain", func(sn *Snapshot) { sn.Bets[0].Stake = 0 }, "stake"},
		{"a bet twice", "spain", func(sn *Snapshot) { sn.Bets = append(sn.Bets, sn.Bets[0]) }, "twice"},
		{"a claim for no box", "spain", func(sn *Snapshot) { sn.Claims[0].Box = 0 }, "claim"},
		{"a bad seed", "spain", func(sn *Snapshot) { sn.Seed = "xyz" }, "seed"},
		{"a short seed", "spain", func(sn *Snapshot) { sn.Seed = sn.Seed[:62] }, "seed"},
		{"no shoe", "spain", func(sn *Snapshot) { sn.ShoeNo = 0 }, "shoe number 0"},
	} {
		b, _ := json.Marshal(good)
		var sn Snapshot
		if err := json.Unmarshal(b, &sn); err != nil {
			t.Fatal(err)
		}
		c.change(&sn)
		_, err := Restore(rules.MustLookup(c.profile), sn)
		if !errors.Is(err, ErrSnapshot) || !strings.Contains(err.Error(), c.says) {
			t.Errorf("%s: got %v, want %v saying %q", c.name, err, ErrSnapshot, c.says)
		}
	}
}
