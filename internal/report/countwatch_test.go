package report

import (
	"os"
	"strconv"
	"testing"

	"sabot/card"
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
