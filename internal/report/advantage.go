package report

import (
	"cmp"
	"context"
	"encoding/csv"
	"io"
	"maps"
	"math"
	"slices"
	"strconv"
	"time"

	"sabot"
	"sabot/card"
	"sabot/money"
	"sabot/sim"
)

// Advantage play seen: a counter raises his bet when the
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

// Detect scores bets against the true counts they were placed at (a
// Scorer fed the pairs).
func Detect(bets, counts []float64) Score {
	var s Scorer
	if len(counts) != len(bets) {
		return Score{N: len(bets)}
	}
	for i := range bets {
		s.Add(bets[i], counts[i])
	}
	return s.Score()
}

// The detector ranks the true counts on a grid of CountStep, from
// −MaxCount to +MaxCount (the counts beyond share the end's rank): so a
// Scorer's memory is bounded by the grid times the bets a player has
// placed, whatever the period. A step of 1/8 is far finer than any
// counter's ramp, whose steps are whole counts.
const (
	CountStep = 1.0 / 8
	MaxCount  = 20
)

// Scorer computes Detect over a stream of pairs in bounded memory: it keeps
// how many rounds fell on each pair of a bet and a count on the grid, not
// the rounds, since Spearman's ρ needs only the ranks, which the counts of
// the pairs give. The zero value scores no rounds.
type Scorer struct {
	n     int
	cells map[scoreCell]int
}

type scoreCell struct {
	bet   float64
	count int32 // the true count / CountStep, rounded, within ±MaxCount/CountStep
}

// gridOf is a true count on the grid: the count / CountStep, rounded,
// within ±MaxCount/CountStep (NaN: 0).
func gridOf(count float64) int32 {
	q := math.Round(min(max(count, -MaxCount), MaxCount) / CountStep)
	if math.IsNaN(q) {
		q = 0
	}
	return int32(q)
}

// Add counts one round: a bet and the true count it was placed at.
func (s *Scorer) Add(bet, count float64) { s.addN(scoreCell{bet, gridOf(count)}, 1) }

// addN counts k rounds on a cell.
func (s *Scorer) addN(c scoreCell, k int) {
	if k == 0 {
		return
	}
	if s.cells == nil {
		s.cells = map[scoreCell]int{}
	}
	s.n += k
	s.cells[c] += k
}

// plus adds u's rounds.
func (s *Scorer) plus(u *Scorer) {
	for c, k := range u.cells {
		s.addN(c, k)
	}
}

// sorted are the scorer's cells by bet and count: the order its sums are
// taken in, so that the same cells give the same score to the bit.
func (s *Scorer) sorted() []scoreCell {
	return slices.SortedFunc(maps.Keys(s.cells), func(a, b scoreCell) int {
		return cmp.Or(cmp.Compare(a.bet, b.bet), cmp.Compare(a.count, b.count))
	})
}

// Cells is how many pairs of a bet and a count the scorer holds: its
// memory.
func (s *Scorer) Cells() int { return len(s.cells) }

// Score is the verdict on the rounds added: Spearman's ρ of the bets and
// the counts, ties given their average rank, and z = ρ·√(n−1).
func (s *Scorer) Score() Score {
	out := Score{N: s.n}
	if s.n < 3 {
		return out
	}
	// The sums in the cells' order (sorted: a map's order would change
	// the last bits from one run to the next).
	cells := s.sorted()
	bets, counts := map[float64]int{}, map[int32]int{}
	for _, c := range cells {
		bets[c.bet] += s.cells[c]
		counts[c.count] += s.cells[c]
	}
	rb, rc := avgRanks(bets), avgRanks(counts)
	mean := float64(s.n+1) / 2
	var sxy, sxx, syy float64
	for _, c := range cells {
		sxy += float64(s.cells[c]) * (rb[c.bet] - mean) * (rc[c.count] - mean)
	}
	for _, b := range slices.Sorted(maps.Keys(bets)) {
		d := rb[b] - mean
		sxx += float64(bets[b]) * d * d
	}
	for _, c := range slices.Sorted(maps.Keys(counts)) {
		d := rc[c] - mean
		syy += float64(counts[c]) * d * d
	}
	if sxx == 0 || syy == 0 {
		return out
	}
	out.Rho = sxy / math.Sqrt(sxx*syy)
	out.Z = out.Rho * math.Sqrt(float64(s.n-1))
	out.Flagged = out.Z >= FlagZ
	out.Rho, out.Z = round4(out.Rho), round4(out.Z)
	return out
}

// avgRanks gives each value, counted k times, its average rank among all
// (from 1).
func avgRanks[K float64 | int32](n map[K]int) map[K]float64 {
	r := make(map[K]float64, len(n))
	below := 0
	for _, v := range slices.Sorted(maps.Keys(n)) {
		r[v] = float64(below) + float64(n[v]+1)/2
		below += n[v]
	}
	return r
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

// IndexPair is one decision of a player at an index play's hand: the row
// (its hand, up card and index), the Hi-Lo true count at the decision, and
// whether he took the index play.
type IndexPair struct {
	Table    int64   `json:"table"`
	Round    int     `json:"round"`
	Hand     string  `json:"hand"`
	Up       int     `json:"up"`
	Index    float64 `json:"index"`
	HiLo     float64 `json:"hi_lo"`
	Deviated bool    `json:"deviated"`
}

// PlayerAdvantage is one player's bets, index plays and back bets against
// the count over a period.
type PlayerAdvantage struct {
	Player  string `json:"player"`
	HiLo    Score  `json:"hi_lo"`
	HiOptII Score  `json:"hi_opt_ii"`
	// Index is his play at the index plays' hands against the count
	// (deviations.go), Back his back bets against the count (backbets.go;
	// nil if he placed none).
	Index   IndexScore    `json:"index"`
	Back    *BackScore    `json:"back,omitempty"`
	Flagged bool          `json:"flagged"` // any score at or above FlagZ
	ByCount []CountBucket `json:"by_count"`
	// Pairs are his rounds' (AdvantageOptions.Pairs), in the order of
	// their deals, the newest first; IndexPairs his decisions at the index
	// plays' hands, the newest round first.
	Pairs      []Pair      `json:"pairs,omitempty"`
	IndexPairs []IndexPair `json:"index_pairs,omitempty"`
	// The scores and the chart, counted round by round (advroll.go):
	// their memory does not grow with the rounds.
	advPlayer
	back *BackScorer
}

// AdvantageOptions tune AdvantageReport.
type AdvantageOptions struct {
	Pairs bool // list each round's bet and counts
}

// Advantage is the report of the players' bets, index plays and back bets
// against the count.
type Advantage struct {
	From    time.Time          `json:"from"`
	To      time.Time          `json:"to"`
	FlagZ   float64            `json:"flag_z"`
	Players []*PlayerAdvantage `json:"players"`
}

// AdvantageReport reads each player's bets against the count over a
// period: the rounds dealt in it from a shuffled shoe (a physical table's
// too: its cards are read as dealt); his decisions at the index plays'
// hands in those rounds (each round's record, read with its shoe's
// history, replayed); and where he bet behind others' boxes, the counts of
// those rounds against the other rounds of his shoes. Where src keeps the
// rollups of RollupAdvantage (sabot.Rollups) and the period holds whole
// hours, it reads those hours' rows, and the log only for the rest (as
// TablesReport does; docs/pit.md, "Rollups"); the answer is the same
// either way. The rounds' list (ao.Pairs) is read from the log alone.
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
	acc := newAdvAcc()
	var plan *rollupPlan
	if !ao.Pairs {
		if plan, err = planRollups(ctx, src, advantageKind, p); err != nil {
			return nil, err
		}
	}
	var lists map[string]*PlayerAdvantage // the rounds' lists (ao.Pairs)
	if plan == nil {
		if ao.Pairs {
			lists = map[string]*PlayerAdvantage{}
		}
		err = acc.readPeriod(ctx, src, byID, p, true, lists)
	} else {
		err = acc.readPlan(ctx, src, byID, plan)
	}
	if err != nil {
		return nil, err
	}
	acc.flushAll()
	out := &Advantage{From: p.From, To: p.To, FlagZ: FlagZ, Players: []*PlayerAdvantage{}}
	for _, name := range slices.Sorted(maps.Keys(acc.players)) {
		pa := &PlayerAdvantage{Player: name, advPlayer: *acc.players[name], back: acc.back[name]}
		if l := lists[name]; l != nil {
			pa.Pairs, pa.IndexPairs = l.Pairs, l.IndexPairs
		}
		pa.finish()
		out.Players = append(out.Players, pa)
	}
	return out, nil
}

func (pa *PlayerAdvantage) finish() {
	pa.HiLo = pa.hilo.Score()
	pa.HiOptII = pa.h2.Score()
	pa.Index = pa.index.Score()
	if pa.back != nil {
		b := pa.back.Score()
		pa.Back = &b
	}
	pa.Flagged = pa.HiLo.Flagged || pa.HiOptII.Flagged || pa.Index.Flagged || pa.Back != nil && pa.Back.Flagged
	pa.ByCount = []CountBucket{}
	for i, n := range pa.rounds {
		if n > 0 {
			pa.ByCount = append(pa.ByCount, CountBucket{Count: i - 6, Rounds: n, AvgBet: money.Amount(math.Round(float64(pa.sums[i]) / float64(n)))})
		}
	}
}

// AdvantageCSVHeader are the columns of the advantage report's CSV export
// (docs/pit.md): a row a player, his scores; the back bets' columns empty
// for a player who placed none.
var AdvantageCSVHeader = []string{"from", "to", "player", "rounds", "hi_lo_rho", "hi_lo_z", "hi_opt_ii_rho", "hi_opt_ii_z",
	"index_decisions", "index_count_said", "index_deviated_when_said", "index_deviated_when_not", "index_z",
	"back_rounds", "back_backed", "back_count_backed", "back_count_other", "back_z", "flagged"}

// WriteAdvantageCSV writes the advantage report as CSV.
func WriteAdvantageCSV(w io.Writer, r *Advantage) error {
	cw := csv.NewWriter(w)
	if err := cw.Write(AdvantageCSVHeader); err != nil {
		return err
	}
	from, to := r.From.Format(time.RFC3339), r.To.Format(time.RFC3339)
	f := func(v float64) string { return strconv.FormatFloat(v, 'f', -1, 64) }
	n := strconv.Itoa
	for _, x := range r.Players {
		back := make([]string, 5)
		if b := x.Back; b != nil {
			back = []string{n(b.Rounds), n(b.Backed), f(b.CountBacked), f(b.CountOther), f(b.Z)}
		}
		row := append([]string{from, to, x.Player, n(x.HiLo.N), f(x.HiLo.Rho), f(x.HiLo.Z), f(x.HiOptII.Rho), f(x.HiOptII.Z),
			n(x.Index.Decisions), n(x.Index.Said), n(x.Index.DeviatedSaid), n(x.Index.DeviatedNotSay), f(x.Index.Z)}, back...)
		if err := cw.Write(append(row, strconv.FormatBool(x.Flagged))); err != nil {
			return err
		}
	}
	cw.Flush()
	return cw.Error()
}
