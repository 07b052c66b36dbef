package sim

import (
	"context"
	"errors"
	"fmt"
	"math"
	"runtime"
	"sync"

	"sabot/money"
	"sabot/rules"
)

// Config is a simulation: the rules, the players at the table, how the
// player plays and bets, and how long to run.
type Config struct {
	Profile *rules.Profile

	// Strategy plays the player's boxes; nil plays Textbook for the
	// profile's soft-17 rule. OthersStrategy plays the other players'
	// boxes (nil: Strategy without index plays, when it is a *StrategyCard).
	Strategy       Strategy
	OthersStrategy Strategy

	Boxes      int  // boxes the player plays each round, from box 1 (default 1)
	BackBets   int  // back bets of the player's own on each of his boxes (ES-03, VE-03)
	BackFollow bool // at a back_follow=choose table, the back bets match the holder's doubles and splits (VE-11, VE-12); elsewhere the table's reading decides
	Others     int  // other players' boxes after the player's, flat one unit

	// Counting: the system, the bet ramp by count (empty: flat one
	// unit) and wonging. Nil Count: no counting.
	Count *System
	Ramp  Ramp
	Wong  Wong
	// TrueCount is how a balanced count's true count is computed: the
	// decks left estimated to a resolution, the quotient rounded (the
	// zero value: exact, not rounded). The bets, wonging, insurance, the
	// index plays and the EV by count all use it.
	TrueCount TrueCount

	// Unit is the stake of one unit in minor units (0: the smallest stake
	// at or above the table minimum that pays blackjacks and half stakes
	// exactly).
	Unit int64

	// Continuous shuffles the whole shoe back before every round (a
	// continuous shuffler): no cut card, no burns. Rounds are then
	// independent draws from a full shoe.
	Continuous bool

	// Rounds to deal; with TargetSE, the most to deal (0: no limit).
	Rounds int64
	// TargetSE stops at the first chunk after which the standard error
	// of the EV per initial bet is at or below it.
	TargetSE float64

	Seed    uint64
	Workers int // 0: every core
	// Shard and Shards run the Shard-th (1 to Shards) of Shards parts of
	// the run: the chunks ⌊(Shard−1)·C/Shards⌋ to ⌊Shard·C/Shards⌋−1 of
	// the C chunks of Rounds (0: the whole run). Each chunk has its own
	// seed, so the parts are disjoint streams, and Merge of every part's
	// Stats is the whole run's result.
	Shard, Shards int
	ChunkRounds   int // rounds per chunk (0: 65536); each chunk has its own seed

	// Paths records the bankroll path of the first Paths chunks (for
	// charts), PathPoints points each.
	Paths, PathPoints int

	// Progress, if set, is called after each chunk with the rounds done.
	Progress func(rounds int64)

	// exactShoe shuffles as shoe.Shoe does (the agreement tests).
	exactShoe bool
	// noFast plays every round on the general path (the tests).
	noFast bool
}

// Defaults used by Run.
const (
	DefaultChunkRounds = 1 << 16
	minChunksForSE     = 8
)

// ErrConfig is returned, wrapped, for a configuration the rules refuse.
var ErrConfig = errors.New("simulation refused")

func cfgErr(format string, a ...any) error {
	return fmt.Errorf("%w: %s", ErrConfig, fmt.Sprintf(format, a...))
}

// DefaultUnit is the smallest stake at or above the table minimum whose
// half and blackjack payout are whole multiples of the payout unit.
func DefaultUnit(p *rules.Profile) int64 {
	base, minBet := 2*p.BlackjackPays.Den, int64(p.MinBet)
	if p.PayoutUnit > 1 {
		base = lcm(base, 2*int64(p.PayoutUnit))
	}
	u := base
	if u < minBet {
		u = (minBet + base - 1) / base * base
	}
	return u
}

func lcm(a, b int64) int64 {
	x, y := a, b
	for y != 0 {
		x, y = y, x%y
	}
	return a / x * b
}

// normalize fills defaults and checks the configuration against the
// profile's table rules.
func (c *Config) normalize() error {
	p := c.Profile
	if p == nil {
		return cfgErr("no profile")
	}
	if err := p.Validate(); err != nil {
		return cfgErr("%v", err)
	}
	if c.Boxes == 0 {
		c.Boxes = 1
	}
	if c.Strategy == nil {
		c.Strategy = Textbook(p.DealerHitsSoft17)
	}
	if c.OthersStrategy == nil {
		if t, ok := c.Strategy.(*StrategyCard); ok {
			c.OthersStrategy = t.Basic()
		} else {
			c.OthersStrategy = c.Strategy
		}
	}
	if c.Unit == 0 {
		c.Unit = DefaultUnit(p)
	}
	if c.Workers <= 0 {
		c.Workers = runtime.GOMAXPROCS(0)
	}
	if c.ChunkRounds <= 0 {
		c.ChunkRounds = DefaultChunkRounds
	}
	maxUnits := int64(1)
	if c.Count != nil && len(c.Ramp.Steps) > 0 {
		maxUnits = c.Ramp.Max()
	}
	// The player's stakes on a box at the most: his bet and his back bets
	// (ES-03, VE-03), each of maxUnits units.
	most := money.Amount(c.Unit * maxUnits)
	box := p.BoxBar(c.BackBets, money.Amount(c.BackBets)*most, most)
	switch {
	case c.Boxes < 1 || c.Boxes+c.Others > p.Boxes:
		return cfgErr("%d boxes for the player and %d for others: the table has %d (%s)", c.Boxes, c.Others, p.Boxes, p.Cite("ES-03, VE-03", "boxes"))
	case c.Others < 0:
		return cfgErr("others must be 0 or more")
	case c.BackBets < 0:
		return cfgErr("%d back bets per box: the table allows %d (%s)", c.BackBets, p.BackBetsPerBox, p.Cite("ES-03, VE-03", "back_bets_per_box"))
	case box == rules.BarNoBackBets:
		return cfgErr("no back betting at this table (%s)", p.Cite("AR-05, FAM-01", "back_bets_per_box"))
	case box == rules.BarBackBettors:
		return cfgErr("%d back bets per box: the table allows %d (%s)", c.BackBets, p.BackBetsPerBox, p.Cite("ES-03, VE-03", "back_bets_per_box"))
	case p.StakeBar(money.Amount(c.Unit), rules.Dealt) == rules.BarMinimum, c.Unit < 0:
		return cfgErr("a unit of %d is below the table minimum %d (%s)", c.Unit, p.MinBet, p.Cite("AR-04, FAM-01, VE-21", "min_bet"))
	case p.StakeBar(most, rules.Dealt) == rules.BarMaximum:
		return cfgErr("a bet of %d units of %d exceeds the table maximum %d (%s)", maxUnits, c.Unit, p.MaxBet, p.Cite("AR-04, ES-03, FAM-01, VE-21", "max_bet"))
	case box == rules.BarBoxMaximum:
		return cfgErr("%d stakes of %d on a box exceed the table maximum %d (%s)", 1+c.BackBets, c.Unit*maxUnits, p.MaxBet, p.Cite("ES-03, VE-21", "max_bet_scope"))
	case c.Rounds < 0 || c.TargetSE < 0:
		return cfgErr("rounds and target SE must be positive")
	case c.Rounds == 0 && c.TargetSE == 0:
		return cfgErr("give a number of rounds or a target standard error")
	case c.Shards < 0 || c.Shards > 0 && (c.Shard < 1 || c.Shard > c.Shards):
		return cfgErr("shard %d of %d: want 1 to %d", c.Shard, c.Shards, max(c.Shards, 1))
	case c.Shards > 0 && c.TargetSE > 0:
		return cfgErr("a shard deals a fixed number of rounds: not with a target SE")
	case (c.Wong.HasIn || c.Wong.HasOut) && c.Count == nil:
		return cfgErr("wonging needs a count")
	case c.TrueCount.Validate() != nil:
		return cfgErr("%v", c.TrueCount.Validate())
	case c.Wong.HasIn && c.Wong.HasOut && c.Wong.Out > c.Wong.In:
		return cfgErr("wong out at %g is above wong in at %g", c.Wong.Out, c.Wong.In)
	}
	return nil
}

// Bucket is the play at one count: rounds, nets and initial stakes.
type Bucket struct {
	Rounds int64
	X, W   int64
	XX     float64
}

// Stats are the sums a simulation accumulates, in minor units. They merge
// by addition, in chunk order.
type Stats struct {
	Rounds int64 // rounds dealt
	Played int64 // rounds in which the player bet
	Void   int64 // rounds void (AR-08, EG-04)
	Shoes  int64 // shuffles

	// ShoesDealt are the shoes dealt to their end (reshuffled after the
	// cut card, out of cards, or when the bank passed; not a continuous
	// shuffler's), ShoeCards the cards taken from them, burns included:
	// their quotient is the penetration reached.
	ShoesDealt, ShoeCards int64

	X, W       int64   // the player's net and initial stakes
	XX, WW, XW float64 // their sums of squares and products, per round

	BackX, BackW int64 // the back bets'
	BackXX       float64

	Boxes, Wins, Pushes, Losses, Blackjacks int64 // the player's box-rounds

	ByCount [2*countRange + 1]Bucket // by count at the bet, floor, clamped to ±10
	Dist    [2*distRange + 1]int64   // net per round in half units, clamped
}

const distRange = 48

func (s *Stats) merge(o *Stats) {
	s.Rounds += o.Rounds
	s.Played += o.Played
	s.Void += o.Void
	s.Shoes += o.Shoes
	s.ShoesDealt += o.ShoesDealt
	s.ShoeCards += o.ShoeCards
	s.X += o.X
	s.W += o.W
	s.XX += o.XX
	s.WW += o.WW
	s.XW += o.XW
	s.BackX += o.BackX
	s.BackW += o.BackW
	s.BackXX += o.BackXX
	s.Boxes += o.Boxes
	s.Wins += o.Wins
	s.Pushes += o.Pushes
	s.Losses += o.Losses
	s.Blackjacks += o.Blackjacks
	for i := range s.ByCount {
		b, ob := &s.ByCount[i], &o.ByCount[i]
		b.Rounds += ob.Rounds
		b.X += ob.X
		b.W += ob.W
		b.XX += ob.XX
	}
	for i := range s.Dist {
		s.Dist[i] += o.Dist[i]
	}
}

type chunkResult struct {
	k     int
	stats Stats
	path  []float64
}

// runChunk deals chunk k: a fresh shoe from the chunk's seed, rounds rounds,
// then on to the end of the shoe where it has a cut card.
func (t *table) runChunk(seed uint64, k int, rounds int64, pathPoints int) chunkResult {
	cfg := t.cfg
	res := chunkResult{k: k}
	st := &res.stats
	t.d.reseed(seedChunk(seed, k))
	t.shuffle()
	t.playerBoxes, t.blackjacks, t.boxWins = 0, 0, [3]int64{}
	t.shoesDealt, t.shoeCards = 0, 0
	step := int64(0)
	if pathPoints > 0 {
		step = max(1, rounds/int64(pathPoints))
		res.path = make([]float64, 0, pathPoints+1)
		res.path = append(res.path, 0)
	}
	unit := float64(cfg.Unit)
	finish := !cfg.Continuous && t.d.proc.CutCardReserve > 0
	var cum int64
	shoes0 := t.shoes
	fresh := true
	// Without a count the seats never change: the player bets one unit
	// on his boxes every round (seat once), at the count 0 (ByCount
	// once, at the end).
	fixed := t.fp != nil && !t.counting
	playing := t.seat()
	bk := bucket(t.roundCount)
	// 2·x/unit as a product where 2/unit is exact (a power of two unit,
	// as the default unit of a 3:2 game): the same quotient, no division.
	perHalf, exact := 2/unit, cfg.Unit&(cfg.Unit-1) == 0
	if fixed && step == 0 {
		fresh = t.runFlat(st, rounds, finish)
		rounds = 0 // (dealt)
	}
	for r := int64(0); r < rounds || finish && !fresh; r++ {
		if !fixed {
			playing = t.seat()
			bk = bucket(t.roundCount)
		}
		s0 := t.shoes
		if t.fp != nil {
			t.playFast()
		} else {
			t.play()
		}
		fresh = t.shoes != s0
		st.Rounds++
		if t.void {
			st.Void++
		}
		if !playing {
			continue
		}
		st.Played++
		x, w := t.x, t.w
		st.X += x
		st.W += w
		fx, fw := float64(x), float64(w)
		st.XX += fx * fx
		st.WW += fw * fw
		st.XW += fx * fw
		if cfg.BackBets > 0 {
			st.BackX += t.bx
			st.BackW += t.bw
			st.BackXX += float64(t.bx) * float64(t.bx)
		}
		if !fixed {
			b := &st.ByCount[bk]
			b.Rounds++
			b.X += x
			b.W += w
			b.XX += fx * fx
		}
		if w > 0 {
			q := 2 * fx / unit
			if exact {
				q = fx * perHalf
			}
			st.Dist[distIndex(q)]++
		}
		if step > 0 {
			cum += x
			if st.Played%step == 0 && len(res.path) < cap(res.path) {
				res.path = append(res.path, float64(cum)/unit)
			}
		}
	}
	if fixed { // every round at the count 0, the same sums
		st.ByCount[bk] = Bucket{Rounds: st.Played, X: st.X, W: st.W, XX: st.XX}
	}
	st.Shoes = 1 + t.shoes - shoes0 // shoes begun: the first, and every reshuffle but a last unused one
	if fresh {
		st.Shoes--
	}
	st.Boxes, st.Blackjacks = t.playerBoxes, t.blackjacks
	st.ShoesDealt, st.ShoeCards = t.shoesDealt, t.shoeCards
	st.Wins, st.Pushes, st.Losses = t.boxWins[0], t.boxWins[1], t.boxWins[2]
	return res
}

// runFlat is runChunk's loop for a player who does not count, on the fast
// path, without bankroll paths: rounds rounds, then on to the end of the
// shoe if finish. It reports whether the last round began a shoe. He bets
// the same stakes w0 every round (the seats never change) but in a void
// round, which stakes nothing and nets 0, so the round's sums reduce to
// ΣX and ΣX², and the rest follow: W = (rounds − voids)·w0, WW and XW
// from them (the same floats as summed round by round: the sums of whole
// numbers below 2⁵³ are exact), the distribution's void rounds at 0.
func (t *table) runFlat(st *Stats, rounds int64, finish bool) (fresh bool) {
	if t.plain != nil {
		return t.runPlain(st, rounds, finish)
	}
	cfg := t.cfg
	unit := float64(cfg.Unit)
	perHalf, exact := 2/unit, cfg.Unit&(cfg.Unit-1) == 0
	dist := &st.Dist
	var n, x, voids int64
	xx := 0.0
	fresh = true
	for ; n < rounds || finish && !fresh; n++ {
		s0 := t.shoes
		t.playFast()
		fresh = t.shoes != s0
		v := t.x
		fv := float64(v)
		x += v
		xx += fv * fv
		q := fv * perHalf
		if !exact {
			q = 2 * fv / unit
		}
		dist[distIndex(q)]++
		voids += int64(b2i(t.void))
	}
	st.addFlat(n, voids, x, xx, int64(cfg.Boxes)*t.fp.levels[0].stake)
	dist[distRange] -= voids
	return fresh
}

// addFlat adds a flat bettor's rounds to the sums: n rounds, voids of them
// void, the nets' sum x and sum of squares xx, w0 staked on each round
// played.
func (st *Stats) addFlat(n, voids, x int64, xx float64, w0 int64) {
	fw := float64(w0)
	st.Rounds += n
	st.Played += n
	st.Void += voids
	st.X += x
	st.XX += xx
	st.W += (n - voids) * w0
	st.WW += float64(n-voids) * fw * fw
	st.XW += float64(x) * fw
}

// distIndex is the distribution's bucket of a net of q half units:
// math.Round(q), clamped. It rounds without a branch: q+½ (or q−½) truncated
// toward zero is Round(q) for every q = 2x/unit of integers x and unit,
// which is either exactly halfway between two integers or farther than an
// ulp from it (math.Round branches on q's exponent, which a round's net
// makes unpredictable).
func distIndex(q float64) int {
	v := int(q + math.Copysign(0.5, q))
	return min(max(v, -distRange), distRange) + distRange
}

// Run runs a simulation on cfg.Workers goroutines. The result depends only
// on the configuration and the seed, not on the number of workers: chunk k
// always has seed (Seed, k), and chunks are merged in order.
func Run(ctx context.Context, cfg Config) (*Result, error) {
	if err := cfg.normalize(); err != nil {
		return nil, err
	}
	chunk := int64(cfg.ChunkRounds)
	nChunks := -1 // unlimited
	if cfg.Rounds > 0 {
		nChunks = int((cfg.Rounds + chunk - 1) / chunk)
	}
	roundsOf := func(k int) int64 {
		if cfg.Rounds > 0 {
			return min(chunk, cfg.Rounds-int64(k)*chunk)
		}
		return chunk
	}
	first := 0
	if cfg.Shards > 0 {
		first, nChunks = ShardChunks(nChunks, cfg.Shard, cfg.Shards)
	}
	workers := cfg.Workers
	if nChunks >= 0 && workers > nChunks-first {
		workers = max(nChunks-first, 1)
	}
	ctx, cancel := context.WithCancel(ctx)
	defer cancel()
	jobs := make(chan int)
	results := make(chan chunkResult, workers)
	go func() {
		defer close(jobs)
		for k := first; nChunks < 0 || k < nChunks; k++ {
			select {
			case jobs <- k:
			case <-ctx.Done():
				return
			}
		}
	}()
	var wg sync.WaitGroup
	for i := 0; i < workers; i++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			t := newTable(&cfg)
			for k := range jobs {
				pp := 0
				if k < cfg.Paths {
					pp = max(cfg.PathPoints, 2)
				}
				r := t.runChunk(cfg.Seed, k, roundsOf(k), pp)
				select {
				case results <- r:
				case <-ctx.Done():
					return
				}
			}
		}()
	}
	go func() { wg.Wait(); close(results) }()

	res := &Result{cfg: cfg}
	pending := map[int]chunkResult{}
	next := first
	done := first == nChunks // an empty shard
	if done {
		cancel()
	}
	for r := range results {
		if done {
			continue
		}
		pending[r.k] = r
		for {
			c, ok := pending[next]
			if !ok {
				break
			}
			delete(pending, next)
			res.Stats.merge(&c.stats)
			if c.path != nil {
				res.Paths = append(res.Paths, c.path)
			}
			next++
			if cfg.Progress != nil {
				cfg.Progress(res.Stats.Rounds)
			}
			if cfg.TargetSE > 0 && next-first >= minChunksForSE && res.Stats.W > 0 {
				if ev, se := ratio(&res.Stats); se <= cfg.TargetSE && !math.IsNaN(ev) {
					done = true
				}
			}
			if cfg.Rounds > 0 && next == nChunks {
				done = true
			}
			if done {
				cancel()
				break
			}
		}
	}
	if !done {
		if err := ctx.Err(); err != nil && res.Stats.Rounds == 0 {
			return nil, err
		}
	}
	res.summarize()
	return res, nil
}

// ShardChunks returns the chunks of shard k (1 to n) of a run of chunks
// chunks: from first to end, end excluded.
func ShardChunks(chunks, k, n int) (first, end int) {
	return int(int64(k-1) * int64(chunks) / int64(n)), int(int64(k) * int64(chunks) / int64(n))
}

// Merge is the result of a run from the Stats of its parts (Config.Shard
// 1 to Shards, each run with cfg's settings): their sums added. Every sum is
// of whole numbers (minor units and their squares), which floating point
// adds exactly below 2⁵³, so in any order it is the sum of the single run
// over the same seeds; Exact says whether the sums stayed there.
func Merge(cfg Config, parts []Stats) (*Result, error) {
	cfg.Shard, cfg.Shards = 0, 0
	if cfg.Rounds == 0 {
		cfg.Rounds = 1 // (normalize asks for a length; the parts have theirs)
	}
	if err := cfg.normalize(); err != nil {
		return nil, err
	}
	res := &Result{cfg: cfg}
	for i := range parts {
		res.Stats.merge(&parts[i])
	}
	res.summarize()
	return res, nil
}

// Exact reports whether every floating-point sum of s is below 2⁵³, where
// sums of whole numbers are exact whatever the order of addition.
func (s *Stats) Exact() bool {
	const lim = 1 << 53
	ok := s.XX < lim && s.WW < lim && math.Abs(s.XW) < lim && s.BackXX < lim
	for _, b := range s.ByCount {
		ok = ok && b.XX < lim
	}
	return ok
}

// ratio returns the EV per initial bet and its standard error: the ratio
// estimator ΣX/ΣW over rounds, its variance by the delta method.
func ratio(s *Stats) (ev, se float64) {
	if s.W == 0 || s.Rounds == 0 {
		return math.NaN(), math.Inf(1)
	}
	n := float64(s.Rounds)
	ev = float64(s.X) / float64(s.W)
	v := (s.XX - 2*ev*s.XW + ev*ev*s.WW) / n
	mw := float64(s.W) / n
	se = math.Sqrt(math.Max(v, 0)/n) / mw
	return ev, se
}
