package report

import (
	"maps"
	"slices"

	"sabot/card"
	"sabot/money"
)

// The count watched (issue 29 item 4; docs/pit.md): a table's server scores
// each of its players' bets against the true count as the rounds settle,
// with the detector of the report (a Scorer for each count), and says once
// when a player's score crosses LiveFlagZ: the significant event
// advantage-play. The score is asked again and again (every LiveFlagEvery
// rounds of the player's), so its threshold is not the report's single
// test's: it is above FlagZ, and its false-alarm rate is measured
// (TestCountWatchRates).
const (
	LiveFlagZ         = 3.8
	LiveFlagMinRounds = 50 // no flag before: ranks of a few rounds say little
	LiveFlagEvery     = 10 // a player's score is asked every this many of his rounds
)

// CountWatch is one table's players' bets against the count since the
// watch started. The zero value watches no rounds.
type CountWatch struct {
	// Z, MinRounds and Every replace LiveFlagZ, LiveFlagMinRounds and
	// LiveFlagEvery (0: those).
	Z                float64
	MinRounds, Every int

	started  bool
	pos      int // the last round's cards out at its deal
	hilo, h2 int // the running counts of the cards seen in the shoe's settled rounds
	players  map[string]*countWatched
}

type countWatched struct {
	hilo, h2 Scorer
	flagged  bool
}

// Flag is a player whose score crossed the threshold on a round.
type Flag struct {
	Player  string
	HiLo    Score
	HiOptII Score
}

// Round counts a settled round of the watch's table, in the order of the
// rounds: the cards out of the shoe at its deal (burns included), the
// decks of the shoe, each player's initial stakes and the round's cards,
// every one seen by its end. A round dealt with no more cards out than the
// one before is of a new shoe (a round takes two cards at least). It
// returns the players flagged on it, each once in the watch.
func (w *CountWatch) Round(pos, decks int, stakes map[string]money.Amount, cards []card.Card) []Flag {
	if !w.started || pos <= w.pos {
		w.hilo, w.h2 = 0, 0
	}
	w.started, w.pos = true, pos
	left := max(float64(decks*52-pos)/52, 0.5)
	hilo, h2 := float64(w.hilo)/left, float64(w.h2)/left
	for _, c := range cards {
		w.hilo += CountHiLo.Tags[c.Value()]
		w.h2 += CountHiOptII.Tags[c.Value()]
	}
	var out []Flag
	for _, name := range slices.Sorted(maps.Keys(stakes)) {
		if f, ok := w.bet(name, float64(stakes[name]), hilo, h2); ok {
			out = append(out, f)
		}
	}
	return out
}

// bet counts one player's bet at the true counts, and says whether it
// flags him.
func (w *CountWatch) bet(name string, stake, hilo, h2 float64) (Flag, bool) {
	if stake <= 0 {
		return Flag{}, false
	}
	if w.players == nil {
		w.players = map[string]*countWatched{}
	}
	z, minRounds := w.Z, w.MinRounds
	if z <= 0 {
		z = LiveFlagZ
	}
	if minRounds <= 0 {
		minRounds = LiveFlagMinRounds
	}
	p := w.players[name]
	if p == nil {
		p = &countWatched{}
		w.players[name] = p
	}
	p.hilo.Add(stake, hilo)
	p.h2.Add(stake, h2)
	every := w.Every
	if every <= 0 {
		every = LiveFlagEvery
	}
	if p.flagged || p.hilo.n < minRounds || p.hilo.n%every != 0 {
		return Flag{}, false
	}
	a, b := p.hilo.Score(), p.h2.Score()
	if a.Z < z && b.Z < z {
		return Flag{}, false
	}
	p.flagged = true
	return Flag{Player: name, HiLo: a, HiOptII: b}, true
}
