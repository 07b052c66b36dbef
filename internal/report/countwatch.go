package report

import (
	"maps"
	"slices"

	"sabot/card"
	"sabot/engine"
	"sabot/money"
	"sabot/rules"
)

// The count watched (docs/pit.md): a table's server scores
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
	// The shoe's rounds (Settled): each one's Hi-Lo true count at the
	// deal, and who has bet behind in the shoe.
	shoeCounts []float64
	backedShoe map[string]bool
	// Who has held a box in the shoe (his presence, FlagWong).
	seatedShoe map[string]bool
	replays    replayer
}

type countWatched struct {
	hilo, h2 Scorer
	flagged  bool
	// Settled's scores: his decisions at the index plays' hands, his back
	// bets, each flagged once.
	index                     IndexScorer
	back                      BackScorer
	indexFlagged, backFlagged bool
	// His presence at a box: the rounds of the shoes he held a box in,
	// played or sat out, by the true count at the deal (as back bets).
	present     BackScorer
	wongFlagged bool
}

// What a Flag says crossed the threshold: the bets against the count (a
// CountWatch's Round), the play at the index hands or the back bets
// (Settled).
const (
	FlagBets  = "bets"
	FlagIndex = "index"
	FlagBack  = "back"
	// A box player's presence against the count: the rounds of his shoes
	// he played, against those he sat out (wonging; Back is the score,
	// Backed the rounds he played).
	FlagWong = "wong"
)

// Flag is a player whose score crossed the threshold on a round: his bets'
// (HiLo, HiOptII), his index plays' (Index) or his back bets' (Back), as
// Kind says.
type Flag struct {
	Player  string
	Kind    string
	HiLo    Score
	HiOptII Score
	Index   IndexScore
	Back    BackScore
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
	z, minRounds, every := w.thresholds()
	p := w.player(name)
	p.hilo.Add(stake, hilo)
	p.h2.Add(stake, h2)
	if p.flagged || p.hilo.n < minRounds || p.hilo.n%every != 0 {
		return Flag{}, false
	}
	a, b := p.hilo.Score(), p.h2.Score()
	if a.Z < z && b.Z < z {
		return Flag{}, false
	}
	p.flagged = true
	return Flag{Player: name, Kind: FlagBets, HiLo: a, HiOptII: b}, true
}

func (w *CountWatch) player(name string) *countWatched {
	if w.players == nil {
		w.players = map[string]*countWatched{}
	}
	p := w.players[name]
	if p == nil {
		p = &countWatched{}
		w.players[name] = p
	}
	return p
}

// thresholds are the watch's Z, MinRounds and Every, or their defaults.
func (w *CountWatch) thresholds() (z float64, minRounds, every int) {
	z, minRounds, every = w.Z, w.MinRounds, w.Every
	if z <= 0 {
		z = LiveFlagZ
	}
	if minRounds <= 0 {
		minRounds = LiveFlagMinRounds
	}
	if every <= 0 {
		every = LiveFlagEvery
	}
	return z, minRounds, every
}

// Settled counts a settled round of the watch's table, in the order of the
// rounds, as Round does (its bets against the count), and besides each
// holder's decisions at the index plays' hands and each back bettor's back
// bets (docs/pit.md; as AdvantageReport scores them): p is the rules the
// round was dealt under, pos the cards out of the shoe at its deal (burns
// included), stakes each player's initial stakes and rec the round's
// record (its bets as the table placed them, each box's holder first; its
// cards; its decisions). It returns the players flagged on it, each once a
// watch for each of the three scores. A player's index score is asked with
// his bets' (every Every of his rounds from his MinRounds-th); a back
// bettor's every Every rounds of the shoes he bet behind in, from the
// MinRounds-th.
func (w *CountWatch) Settled(p *rules.Profile, pos int, stakes map[string]money.Amount, rec engine.Record) []Flag {
	z, minRounds, every := w.thresholds()
	newShoe := !w.started || pos <= w.pos
	rc := w.hilo
	if newShoe {
		rc = 0
		w.shoeCounts, w.backedShoe, w.seatedShoe = w.shoeCounts[:0], map[string]bool{}, map[string]bool{}
	}
	if w.replays == nil {
		w.replays = replayer{}
	}
	indexDecisions(w.replays, p, rec, rc, pos, func(name string, row int, deviated bool, tc float64) {
		w.player(name).index.Add(row, deviated, IndexPlays[row].Says(tc))
	})
	// Back bets: a bettor's first back bet in the shoe counts the shoe's
	// rounds before it, not backed; from then on each round of the shoe
	// counts, backed or not.
	tc := float64(rc) / max(float64(p.Decks*52-pos)/52, 0.5)
	backers := backBettors(rec.Bets)
	for _, name := range slices.Sorted(maps.Keys(backers)) {
		if !w.backedShoe[name] {
			w.backedShoe[name] = true
			for _, c := range w.shoeCounts {
				w.player(name).back.Add(false, c)
			}
		}
	}
	// Box players, the same way: a holder's first box in the shoe counts
	// the shoe's rounds before it, sat out; from then on each round of
	// the shoe counts, played or sat out.
	holders := boxHolders(rec.Bets)
	for _, name := range slices.Sorted(maps.Keys(holders)) {
		if !w.seatedShoe[name] {
			w.seatedShoe[name] = true
			for _, c := range w.shoeCounts {
				w.player(name).present.Add(false, c)
			}
		}
	}
	w.shoeCounts = append(w.shoeCounts, tc)
	var out []Flag
	for _, name := range slices.Sorted(maps.Keys(w.seatedShoe)) {
		pl := w.player(name)
		pl.present.Add(holders[name], tc)
		n := pl.present.Score()
		if !pl.wongFlagged && n.Rounds >= minRounds && n.Rounds%every == 0 && n.Z >= z {
			pl.wongFlagged = true
			out = append(out, Flag{Player: name, Kind: FlagWong, Back: n})
		}
	}
	for _, name := range slices.Sorted(maps.Keys(w.backedShoe)) {
		pl := w.player(name)
		pl.back.Add(backers[name], tc)
		n := pl.back.Score()
		if !pl.backFlagged && n.Rounds >= minRounds && n.Rounds%every == 0 && n.Z >= z {
			pl.backFlagged = true
			out = append(out, Flag{Player: name, Kind: FlagBack, Back: n})
		}
	}
	out = append(out, w.Round(pos, p.Decks, stakes, rec.Cards)...)
	for _, name := range slices.Sorted(maps.Keys(stakes)) {
		pl := w.players[name]
		if pl == nil || pl.indexFlagged || stakes[name] <= 0 || pl.hilo.n < minRounds || pl.hilo.n%every != 0 {
			continue
		}
		if s := pl.index.Score(); s.Z >= z {
			pl.indexFlagged = true
			out = append(out, Flag{Player: name, Kind: FlagIndex, Index: s})
		}
	}
	return out
}
