package report

import (
	"math"

	"sabot/engine"
)

// Back bets at high counts (docs/pit.md): where a table
// takes back bets (ES-03, VE-03; none under AR-05), a back counter stands
// behind the boxes, counts, and bets on a box only when the count favours
// him (wonging). For each back bettor, the rounds dealt from the shoes he
// back-bet in are split in two, those he bet behind in and the others, and
// the Hi-Lo true counts at their deals compared by the Mann–Whitney rank
// test: z is close to a standard normal variable if he bets behind
// whatever the count; flagged at z ≥ FlagZ (one-sided, about 1 in 1,000).

// BackCount is the Hi-Lo true count at and above which the back-counting
// bots bet behind (`sabot bots --strategy hilo-back`).
const BackCount = 2.0

// BackScore is the verdict on a player's back bets.
type BackScore struct {
	Rounds int `json:"rounds"` // the rounds of the shoes he bet behind in
	Backed int `json:"backed"` // of them, the rounds he bet behind in
	// The mean Hi-Lo true count at the rounds he bet behind in, and at the
	// others.
	CountBacked float64 `json:"count_backed"`
	CountOther  float64 `json:"count_other"`
	Z           float64 `json:"z"`
	Flagged     bool    `json:"flagged"`
}

// BackScorer counts a player's rounds, backed or not, by their true count
// on the grid of CountStep: its memory is fixed whatever the rounds, and
// its figures are of the grid's integers alone (the mean counts too), so
// that sums of rounds read in any order, from the log or from rollup rows
// (advroll.go), give the same figures to the bit. The zero value scores
// none.
type BackScorer struct {
	n [2]map[int32]int // [backed] → count on the grid → rounds
}

// Add counts a round of a shoe he bet behind in: whether he bet behind in
// it, and its true count at the deal.
func (s *BackScorer) Add(backed bool, count float64) { s.addN(backed, gridOf(count), 1) }

// addN counts k rounds at a count on the grid.
func (s *BackScorer) addN(backed bool, q int32, k int) {
	if k == 0 {
		return
	}
	i := b2i(backed)
	if s.n[i] == nil {
		s.n[i] = map[int32]int{}
	}
	s.n[i][q] += k
}

// Score is the Mann–Whitney test of the backed rounds' counts against the
// others', ties given their average rank.
func (s *BackScorer) Score() BackScore {
	all := map[int32]int{}
	var n [2]int
	for i := range s.n {
		for q, k := range s.n[i] {
			all[q] += k
			n[i] += k
		}
	}
	out := BackScore{Rounds: n[0] + n[1], Backed: n[1]}
	// The mean counts, on the grid: integer sums, exact in any order.
	mean := func(m map[int32]int, n int) float64 {
		var sum int64
		for q, k := range m {
			sum += int64(q) * int64(k)
		}
		return round4(float64(sum) * CountStep / float64(n))
	}
	if n[1] > 0 {
		out.CountBacked = mean(s.n[1], n[1])
	}
	if n[0] > 0 {
		out.CountOther = mean(s.n[0], n[0])
	}
	if n[0] == 0 || n[1] == 0 {
		return out
	}
	ranks := avgRanks(all)
	var r1, ties float64
	for q, k := range s.n[1] {
		r1 += float64(k) * ranks[q]
	}
	for _, t := range all {
		ties += float64(t*t*t - t)
	}
	n1, n0, nn := float64(n[1]), float64(n[0]), float64(n[0]+n[1])
	u := r1 - n1*(n1+1)/2
	v := n1 * n0 / 12 * ((nn + 1) - ties/(nn*(nn-1)))
	if v <= 0 {
		return out
	}
	out.Z = round4((u - n1*n0/2) / math.Sqrt(v))
	out.Flagged = out.Z >= FlagZ
	return out
}

// backBettors returns the players who bet behind another's box in a
// round's bets (each box's first bettor is its holder: the table places
// the holders' bets first).
func backBettors(bets []engine.PlacedBet) map[string]bool {
	holder := map[int]string{}
	var out map[string]bool
	for _, b := range bets {
		h, ok := holder[b.Box]
		if !ok {
			holder[b.Box] = b.Player
			continue
		}
		if b.Player != h {
			if out == nil {
				out = map[string]bool{}
			}
			out[b.Player] = true
		}
	}
	return out
}

// backShoe is a table's shoe as the deals come: its rounds' true counts
// at the deal and its back bettors' rounds on the grid (advShoe), until the
// shoe is done and its back bettors scored.
type backShoe struct {
	shoe int
	advShoe
}

// backShoes keeps a shoe a table, scoring each as the deals turn to the
// next: the tests score a session's back bets so (the report keeps its
// shoes in an advAcc, scored at the end, as rows may bring more rounds of
// any).
type backShoes map[int64]*backShoe

// add counts a round of a table's shoe; a round of another shoe scores the
// shoe before it.
func (b backShoes) add(table int64, shoe int, count float64, backers map[string]bool, score func(name string) *BackScorer) {
	s := b[table]
	if s != nil && s.shoe != shoe {
		s.flush(score)
		s = nil
	}
	if s == nil {
		s = &backShoe{shoe: shoe}
		b[table] = s
	}
	s.dealt(count, backers)
}

func (b backShoes) flushAll(score func(name string) *BackScorer) {
	for _, s := range b {
		s.flush(score)
	}
}

// boxHolders returns the players who hold a box in a round's bets (each
// box's first bettor).
func boxHolders(bets []engine.PlacedBet) map[string]bool {
	out := map[string]bool{}
	seen := map[int]bool{}
	for _, b := range bets {
		if !seen[b.Box] {
			seen[b.Box] = true
			out[b.Player] = true
		}
	}
	return out
}
