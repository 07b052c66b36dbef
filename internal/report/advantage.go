package report

import (
	"context"
	"maps"
	"math"
	"slices"
	"sort"
	"time"

	"sabot"
	"sabot/card"
	"sabot/money"
	"sabot/sim"
)

// Advantage play seen (issue 29 item 4): a counter raises his bet when the
// count of the cards seen favours him. Each round a player bet in gives a
// pair: his initial stake on it, and the true count of the shoe as he saw
// it when he bet (the cards turned face up in the shoe's earlier rounds,
// per deck left; the decks left from the cards out at the deal, burns
// included, as the discard tray shows). The score is Spearman's rank
// correlation ρ of the pairs, its significance z = ρ·√(n−1): under the
// null hypothesis that his bets do not depend on the count, z is close to
// a standard normal variable, so z ≥ FlagZ happens by chance with a
// probability of about 0.1 %. A flat bettor's bets have no ranks to
// correlate: his ρ is 0.

// The counts the detector reads: Hi-Lo (level one) and Hi-Opt II (level
// two), as the simulator defines them.
var (
	CountHiLo    = sim.HiLo
	CountHiOptII = sim.HiOptII
)

// FlagZ is the score above which a player is flagged: one-sided p ≈ 0.001.
const FlagZ = 3.09

// TrueCount is a balanced count's running count of the cards seen,
// divided by the decks left: (cards in the shoe − out) / 52, at least a
// half deck.
func TrueCount(sys sim.System, seen []card.Card, decks, out int) float64 {
	rc := 0
	for _, c := range seen {
		rc += sys.Tags[c.Value()]
	}
	left := math.Max(float64(decks*52-out)/52, 0.5)
	return float64(rc) / left
}

// HiLoRampUnits is the bet ramp of the counting bots (`sabot bots
// --strategy hilo-ramp`), in units at a Hi-Lo true count: 1 below +2, then
// 2, 4, 6 and 8 at +2, +3, +4, and +5 and up (a 1-8 spread).
func HiLoRampUnits(tc float64) int64 {
	switch t := math.Floor(tc); {
	case t >= 5:
		return 8
	case t >= 4:
		return 6
	case t >= 3:
		return 4
	case t >= 2:
		return 2
	}
	return 1
}

// Score is the detector's verdict on a player's pairs of (bet, true count).
type Score struct {
	N       int     `json:"rounds"`
	Rho     float64 `json:"rho"`
	Z       float64 `json:"z"`
	Flagged bool    `json:"flagged"`
}

// Detect scores bets against the true counts they were placed at.
func Detect(bets, counts []float64) Score {
	n := len(bets)
	s := Score{N: n}
	if n < 3 || len(counts) != n {
		return s
	}
	rb, rc := ranks(bets), ranks(counts)
	s.Rho = pearson(rb, rc)
	s.Z = s.Rho * math.Sqrt(float64(n-1))
	s.Flagged = s.Z >= FlagZ
	s.Rho, s.Z = round4(s.Rho), round4(s.Z)
	return s
}

// ranks are the values' ranks from 1, ties given their average rank.
func ranks(x []float64) []float64 {
	idx := make([]int, len(x))
	for i := range idx {
		idx[i] = i
	}
	sort.SliceStable(idx, func(a, b int) bool { return x[idx[a]] < x[idx[b]] })
	r := make([]float64, len(x))
	for i := 0; i < len(idx); {
		j := i
		for j+1 < len(idx) && x[idx[j+1]] == x[idx[i]] {
			j++
		}
		avg := float64(i+j)/2 + 1
		for k := i; k <= j; k++ {
			r[idx[k]] = avg
		}
		i = j + 1
	}
	return r
}

func pearson(x, y []float64) float64 {
	n := float64(len(x))
	var mx, my float64
	for i := range x {
		mx += x[i]
		my += y[i]
	}
	mx, my = mx/n, my/n
	var sxy, sxx, syy float64
	for i := range x {
		dx, dy := x[i]-mx, y[i]-my
		sxy += dx * dy
		sxx += dx * dx
		syy += dy * dy
	}
	if sxx == 0 || syy == 0 {
		return 0
	}
	return sxy / math.Sqrt(sxx*syy)
}

// CountBucket is a player's average bet at one true count (Hi-Lo, rounded
// down; the ends gather everything beyond ±6): the chart of his bets
// against the count.
type CountBucket struct {
	Count  int          `json:"count"`
	Rounds int          `json:"rounds"`
	AvgBet money.Amount `json:"avg_bet"`
}

// Pair is one round's bet of a player and the true counts he placed it at.
type Pair struct {
	Table   int64        `json:"table"`
	Round   int          `json:"round"`
	Bet     money.Amount `json:"bet"`
	HiLo    float64      `json:"hi_lo"`
	HiOptII float64      `json:"hi_opt_ii"`
}

// PlayerAdvantage is one player's bets against the count over a period.
type PlayerAdvantage struct {
	Player  string        `json:"player"`
	HiLo    Score         `json:"hi_lo"`
	HiOptII Score         `json:"hi_opt_ii"`
	Flagged bool          `json:"flagged"` // either score at or above FlagZ
	ByCount []CountBucket `json:"by_count"`
	// Pairs are his rounds' (AdvantageOptions.Pairs), in the order of
	// their deals, the newest first.
	Pairs    []Pair `json:"pairs,omitempty"`
	bets     []float64
	hilo, h2 []float64
}

// AdvantageOptions tune AdvantageReport.
type AdvantageOptions struct {
	Pairs bool // list each round's bet and counts
}

// Advantage is the report of the players' bets against the count.
type Advantage struct {
	From    time.Time          `json:"from"`
	To      time.Time          `json:"to"`
	FlagZ   float64            `json:"flag_z"`
	Players []*PlayerAdvantage `json:"players"`
}

// AdvantageReport reads each player's bets against the count over a
// period: the rounds dealt in it from a shuffled shoe (a physical table's
// too: its cards are read as dealt).
func AdvantageReport(ctx context.Context, src Source, p Period, ao AdvantageOptions) (*Advantage, error) {
	if err := p.Check(); err != nil {
		return nil, err
	}
	p.From, p.To = p.From.UTC(), p.To.UTC()
	tables, err := src.Tables(ctx)
	if err != nil {
		return nil, err
	}
	byID := map[int64]*sabot.Table{}
	for _, t := range tables {
		byID[t.ID] = t
	}
	out := &Advantage{From: p.From, To: p.To, FlagZ: FlagZ, Players: []*PlayerAdvantage{}}
	players := map[string]*PlayerAdvantage{}
	sh := newShoes(src)
	opts := map[int64]*optionsAt{}
	err = each(ctx, src, sabot.LogDeal, p, func(rec *sabot.LogRecord) error {
		t := byID[rec.TableID]
		if t == nil {
			return nil
		}
		var d dealPayload
		if err := decode(rec, &d); err != nil {
			return err
		}
		o := opts[t.ID]
		if o == nil {
			if o, err = loadOptions(ctx, src, t); err != nil {
				return err
			}
			opts[t.ID] = o
		}
		prof, err := o.rules(rec.Seq)
		if err != nil {
			return err
		}
		h, err := sh.of(ctx, rec.TableID, d.Round)
		if err != nil || h == nil {
			return err
		}
		seen := h.seen(d.Round)
		hilo := TrueCount(CountHiLo, seen, prof.Decks, d.ShoePos)
		h2 := TrueCount(CountHiOptII, seen, prof.Decks, d.ShoePos)
		stakes := map[string]money.Amount{}
		for _, b := range d.Bets {
			stakes[b.Player] += b.Stake
		}
		for name, st := range stakes {
			pa := players[name]
			if pa == nil {
				pa = &PlayerAdvantage{Player: name}
				players[name] = pa
			}
			pa.bets = append(pa.bets, float64(st))
			pa.hilo = append(pa.hilo, hilo)
			pa.h2 = append(pa.h2, h2)
			if ao.Pairs {
				pa.Pairs = append(pa.Pairs, Pair{Table: rec.TableID, Round: d.Round, Bet: st, HiLo: hilo, HiOptII: h2})
			}
		}
		return nil
	})
	if err != nil {
		return nil, err
	}
	for _, name := range slices.Sorted(maps.Keys(players)) {
		pa := players[name]
		pa.finish()
		out.Players = append(out.Players, pa)
	}
	return out, nil
}

func (pa *PlayerAdvantage) finish() {
	pa.HiLo = Detect(pa.bets, pa.hilo)
	pa.HiOptII = Detect(pa.bets, pa.h2)
	pa.Flagged = pa.HiLo.Flagged || pa.HiOptII.Flagged
	pa.ByCount = []CountBucket{}
	sum, n := map[int]float64{}, map[int]int{}
	for i, b := range pa.bets {
		c := min(max(int(math.Floor(pa.hilo[i])), -6), 6)
		sum[c] += b
		n[c]++
	}
	for _, c := range slices.Sorted(maps.Keys(n)) {
		pa.ByCount = append(pa.ByCount, CountBucket{Count: c, Rounds: n[c], AvgBet: money.Amount(math.Round(sum[c] / float64(n[c])))})
	}
}
