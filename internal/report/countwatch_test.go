package report

import (
	"math/rand/v2"
	"os"
	"strconv"
	"strings"
	"testing"

	"sabot/card"
	"sabot/engine"
	"sabot/money"
	"sabot/rules"
)

// firstFlag is the round (from 1) a session's bettor is flagged on by a
// watch, 0 if never.
func firstFlag(bets, hilo, h2 []float64) int {
	var w CountWatch
	for i := range bets {
		if _, ok := w.bet("ana", bets[i], hilo[i], h2[i]); ok {
			return i + 1
		}
	}
	return 0
}

// The watch's rates, measured (docs/pit.md): asked every LiveFlagEvery
// rounds at LiveFlagZ, a Hi-Lo ramp is flagged within a few hundred
// rounds, a flat bettor never, and a bettor who changes his bet at random
// whatever the count seldom, over sessions of 600 rounds. SABOT_WATCH_SESSIONS
// measures on more sessions (the note's figures).
func TestCountWatchRates(t *testing.T) {
	p, err := rules.Lookup("vegas-s17")
	if err != nil {
		t.Fatal(err)
	}
	sessions := 60
	if n, err := strconv.Atoi(os.Getenv("SABOT_WATCH_SESSIONS")); err == nil && n > 0 {
		sessions = n
	}
	const rounds = 600
	within := func(bet bettor) (at []int) {
		for i := range sessions {
			b, h, h2 := session(t, p, uint64(7_000_000+i), rounds, bet)
			at = append(at, firstFlag(b, h, h2))
		}
		return at
	}
	count := func(at []int, by int) (n int) {
		for _, x := range at {
			if x != 0 && x <= by {
				n++
			}
		}
		return n
	}
	ramp, random, flat := within(rampBettor), within(randomBettor), within(flatBettor)
	t.Logf("of %d sessions: ramp flagged within 100, 200, 300, 500, 600 rounds: %d %d %d %d %d; random bets within 600: %d; flat: %d",
		sessions, count(ramp, 100), count(ramp, 200), count(ramp, 300), count(ramp, 500), count(ramp, 600), count(random, rounds), count(flat, rounds))
	if count(ramp, 500)*100 < 90*sessions {
		t.Errorf("a Hi-Lo ramp is flagged within 500 rounds in %d of %d sessions: want 90 %%", count(ramp, 500), sessions)
	}
	if count(random, rounds)*100 > 2*sessions || count(flat, rounds) != 0 {
		t.Errorf("false alarms: random bets %d of %d sessions, flat %d: want at most 2 %% and none", count(random, rounds), sessions, count(flat, rounds))
	}
}

// Round counts the cards of the shoe's settled rounds, a new shoe from 0,
// as TrueCount does, and flags a player once.
func TestCountWatchRound(t *testing.T) {
	w := CountWatch{MinRounds: 3, Z: 0.5, Every: 1}
	tens := cardsOf(t, "T,T,T,T,T,T,T,T")
	smalls := cardsOf(t, "2,3,4,5,6,2,3,4")
	var flags []Flag
	// One deck: eight tens out, then small cards: the count falls, then
	// rises, and ana's bet rises with it; bea bets flat.
	for i, c := range [][]card.Card{tens, smalls, smalls, smalls} {
		flags = append(flags, w.Round(8*i, 1, map[string]money.Amount{"ana": money.Amount(100 * (i + 1)), "bea": 100}, c)...)
	}
	if len(flags) != 1 || flags[0].Player != "ana" {
		t.Fatalf("flags %+v, want ana's once", flags)
	}
	if w.hilo != -8+3*8 || w.h2 != -2*8+3*(1+1+2+2+1+1+1+2) {
		t.Errorf("running counts %d, %d; want 16 and 17", w.hilo, w.h2)
	}
	w.Round(0, 1, map[string]money.Amount{"ana": 100}, tens)
	if w.hilo != -8 {
		t.Errorf("a new shoe's count after eight tens: %d, want -8", w.hilo)
	}
}

// Settled scores the bets as Round does, and besides a holder's decisions
// at the index hands and a back bettor's back bets, each flagged once a
// watch: ana stands on 16 against a 10 exactly when the count is at or
// above 0, bo bets behind her box exactly when it is +2 or more, bea bets
// flat on box 2 and always hits her 16.
func TestCountWatchSettled(t *testing.T) {
	p, err := rules.Lookup("vegas-s17")
	if err != nil {
		t.Fatal(err)
	}
	p.Decks, p.BackBetsPerBox = 1, 2
	w := CountWatch{MinRounds: 10, Every: 1, Z: 2}
	flags := map[string]int{}
	// Each round: ana T,6 and bea T,6 against a T up, a 7 in the hole;
	// the cards before it (the earlier rounds' and a few others') set the
	// count. A shoe is a run of rounds whose cards out grow.
	rng := rand.New(rand.NewPCG(3, 4))
	for n := 0; n < 200; n++ {
		pos := 10 + n%4*8 // a new shoe every 4 rounds: the cards out fall back
		// The running count before the round, as the watch keeps it, and
		// the count at ana's decision: with T,6 (0), T up (−1), bea's T,6
		// (0) seen.
		rc := w.hilo
		if pos <= w.pos {
			rc = 0
		}
		tc := float64(rc-1) / (float64(52-pos-6) / 52)
		tcDeal := float64(rc) / (float64(52-pos) / 52)
		bets := []engine.PlacedBet{{Player: "ana", Box: 1, Stake: 100}, {Player: "bea", Box: 2, Stake: 100}}
		stakes := map[string]money.Amount{"ana": 100, "bea": 100}
		if tcDeal >= BackCount {
			bets = append(bets, engine.PlacedBet{Player: "bo", Box: 1, Stake: 100})
			stakes["bo"] = 100
		}
		anaPlay := engine.Hit
		if tc >= 0 {
			anaPlay = engine.Stand
		}
		// The cards: ana T, bea T, up T, ana 6, bea 6, hole 7; a hit's card,
		// small or big at random (it moves the count of the next rounds);
		// bea hits too.
		extra := []string{"2", "3", "4", "5", "6"}
		if rng.IntN(2) == 0 {
			extra = []string{"T", "K", "Q", "J", "A"}
		}
		cards := cardsOf(t, "T,T,T,6,6,7,"+strings.Join(extra, ","))
		r := engine.New(p)
		r.Reset(&engine.Forced{Cards: cards})
		for _, b := range bets {
			if err := r.PlaceBet(b.Player, b.Box, b.Stake); err != nil {
				t.Fatal(err)
			}
		}
		if err := r.Start(); err != nil {
			t.Fatal(err)
		}
		for _, a := range []engine.Action{{Kind: anaPlay, Player: "ana", Box: 1, Hand: 1}, {Kind: engine.Hit, Player: "bea", Box: 2, Hand: 1}} {
			if r.Phase() != engine.Playing {
				break
			}
			box, _ := r.Current()
			if box != a.Box {
				continue
			}
			if err := r.Act(a); err != nil {
				t.Fatalf("round %d: %v", n, err)
			}
			for r.Phase() == engine.Playing {
				if b, _ := r.Current(); b != a.Box {
					break
				}
				if err := r.Act(engine.Action{Kind: engine.Stand, Player: a.Player, Box: a.Box, Hand: 1}); err != nil {
					t.Fatal(err)
				}
			}
		}
		for i := 0; r.Phase() != engine.Done && i < 10; i++ {
			if err := r.Act(engine.Action{Kind: engine.Close}); err != nil {
				break
			}
		}
		for _, f := range w.Settled(p, pos, stakes, r.Record()) {
			flags[f.Player+" "+f.Kind]++
		}
	}
	if flags["ana index"] != 1 || flags["bo back"] != 1 || flags["bea index"] != 0 || len(flags) > 3 {
		t.Errorf("flags %v, want ana's index plays and bo's back bets once each", flags)
	}
}
