package report

import (
	"cmp"
	"context"
	"maps"
	"math"
	"slices"
	"time"

	"sabot"
	"sabot/engine"
	"sabot/internal/tablelog"
	"sabot/money"
	"sabot/rules"
)

// The advantage report's rollups (docs/pit.md, "Rollups"): a row holds a
// table's hour or day of what AdvantageReport counts of the rounds dealt
// in it, by the deal's time: each player's cells of (bet, true count on
// the grid) for the two counts, his 2×2 tables at the index plays' hands
// and his chart's rounds and bets by Hi-Lo count; and for each shoe dealt
// from, its rounds by Hi-Lo count on the grid and each back bettor's
// backed rounds the same way, so that the rows of a period give each back
// bettor every round of his shoes in it (the others: all less his). Every
// figure is an integer (a count of rounds, a sum of minor units, a count
// on the grid), so that rows added in any order give what the log gives,
// to the bit; the report's scores are computed from them alone
// (Scorer.Score, BackScorer.Score, IndexScorer.Score).
//
// A round is summed in two parts, each when it is known, both in the row
// of its deal's hour: its bets against the count at its deal record, and
// the decisions at the index plays' hands at its settle record (its deal
// read again if it is before the page). So a row never waits for a round
// in play, and the rows and the log past the mark hold the decisions of
// the rounds settled by then, as the log alone does.

// RollupAdvantage is the kind of the advantage report's rollups: its name
// and the version of advSums' format (a change of the grid, of
// IndexPlays or of the sums bumps it). advantage/2 is advantage/1's sums
// in the rows' binary codec (rowcodec.go), in place of JSON around a text
// of their own.
const RollupAdvantage = "advantage/2"

// The advantage report's kind.
var advantageKind = register(&rollKind{
	name:  RollupAdvantage,
	tag:   tagAdvantage,
	kinds: []string{sabot.LogDeal, sabot.LogSettle},
	fresh: func() rollSums { return &advSums{} },
	run:   func(src Source, _ sabot.Rollups) roller { return &advRoller{c: newAdvCounter(src)} },
})

// advPlayer is a player's sums: his scores' cells and his chart.
type advPlayer struct {
	hilo, h2 Scorer
	index    IndexScorer
	sums     [13]money.Amount // Hi-Lo true counts −6 to +6: his bets
	rounds   [13]int
	// read are the scorers' cells as a row gave them, not yet in
	// the scorers (a row is read to be added to other sums: its cells go
	// straight to theirs, and not through maps of its own).
	read *[2][]scoreCellK
}

type scoreCellK struct {
	c scoreCell
	k int
}

// unread puts the cells read in the scorers.
func (p *advPlayer) unread() {
	if p.read == nil {
		return
	}
	for i, sc := range []*Scorer{&p.hilo, &p.h2} {
		for _, c := range p.read[i] {
			sc.addN(c.c, c.k)
		}
	}
	p.read = nil
}

// add counts one round: his bet and the true counts he placed it at.
func (p *advPlayer) add(bet money.Amount, hilo, h2 float64) {
	p.hilo.Add(float64(bet), hilo)
	p.h2.Add(float64(bet), h2)
	c := chartOf(hilo)
	p.sums[c] += bet
	p.rounds[c]++
}

// chartOf is a Hi-Lo true count's bucket of the chart: −6 (and below) to
// +6 (and above), rounded down, from 0.
func chartOf(hilo float64) int { return min(max(int(math.Floor(hilo)), -6), 6) + 6 }

func (p *advPlayer) plus(u *advPlayer) {
	p.unread()
	p.hilo.plus(&u.hilo)
	p.h2.plus(&u.h2)
	if u.read != nil {
		for i, sc := range []*Scorer{&p.hilo, &p.h2} {
			for _, c := range u.read[i] {
				sc.addN(c.c, c.k)
			}
		}
	}
	p.index.plus(&u.index)
	for i := range p.sums {
		p.sums[i] += u.sums[i]
		p.rounds[i] += u.rounds[i]
	}
}

// plus adds u's decisions.
func (s *IndexScorer) plus(u *IndexScorer) {
	if u.cells == nil {
		return
	}
	if s.cells == nil {
		s.cells = make([][2][2]int, len(IndexPlays))
	}
	for row, c := range u.cells {
		for i := range 2 {
			for j := range 2 {
				s.cells[row][i][j] += c[i][j]
			}
		}
	}
}

// advShoe is a shoe's rounds (of a period, or of a row) by their Hi-Lo
// true count at the deal on the grid, and each of its back bettors'
// rounds behind a box the same way.
type advShoe struct {
	all    map[int32]int
	backed map[string]map[int32]int
	read   *frozenShoe // as a row gave them, not yet in the maps (advPlayer.read)
}

// unread puts the grids read in the maps.
func (g *advShoe) unread() {
	if f := g.read; f != nil {
		g.read = nil
		g.plus(f.thaw())
	}
}

// dealt counts a round of the shoe: its Hi-Lo true count at the deal, and
// who bet behind a box in it.
func (g *advShoe) dealt(count float64, backers map[string]bool) {
	q := gridOf(count)
	if g.all == nil {
		g.all = map[int32]int{}
	}
	g.all[q]++
	for name := range backers {
		g.backer(name)[q]++
	}
}

func (g *advShoe) backer(name string) map[int32]int {
	if g.backed == nil {
		g.backed = map[string]map[int32]int{}
	}
	m := g.backed[name]
	if m == nil {
		m = map[int32]int{}
		g.backed[name] = m
	}
	return m
}

func (g *advShoe) plus(u *advShoe) {
	g.unread()
	if f := u.read; f != nil {
		if g.all == nil {
			g.all = map[int32]int{}
		}
		for _, c := range f.all {
			g.all[c.q] += int(c.k)
		}
		for name, cells := range f.backed {
			b := g.backer(name)
			for _, c := range cells {
				b[c.q] += int(c.k)
			}
		}
	}
	if g.all == nil && len(u.all) > 0 {
		g.all = map[int32]int{}
	}
	for q, k := range u.all {
		g.all[q] += k
	}
	for name, m := range u.backed {
		b := g.backer(name)
		for q, k := range m {
			b[q] += k
		}
	}
}

// flush scores each back bettor of the shoe on every round of it: those
// he bet behind in, and the others.
func (g *advShoe) flush(score func(name string) *BackScorer) {
	g.unread()
	for name, b := range g.backed {
		sc := score(name)
		for q, k := range g.all {
			sc.addN(true, q, b[q])
			sc.addN(false, q, k-b[q])
		}
	}
}

// frozenShoe is an advShoe put away (some 8 bytes a count on the grid
// rather than a map's 40 or so): a shoe of a table whose deals have
// turned to another, which the report holds until the end in case a
// deal of it is read again (a record written out of order, by a node
// whose clock was behind), so that its back bettors are scored on all of
// its rounds, as the rows score them.
type frozenShoe struct {
	all    []gridCell
	backed map[string][]gridCell
}

type gridCell struct{ q, k int32 }

func freezeGrid(m map[int32]int) []gridCell {
	out := make([]gridCell, 0, len(m))
	for q, k := range m {
		out = append(out, gridCell{q, int32(k)})
	}
	return out
}

func thawGrid(cells []gridCell) map[int32]int {
	m := make(map[int32]int, len(cells))
	for _, c := range cells {
		m[c.q] += int(c.k)
	}
	return m
}

func (g *advShoe) freeze() *frozenShoe {
	f := &frozenShoe{all: freezeGrid(g.all)}
	if len(g.backed) > 0 {
		f.backed = map[string][]gridCell{}
		for name, m := range g.backed {
			f.backed[name] = freezeGrid(m)
		}
	}
	return f
}

func (f *frozenShoe) thaw() *advShoe {
	g := &advShoe{all: thawGrid(f.all)}
	if len(f.backed) > 0 {
		g.backed = map[string]map[int32]int{}
		for name, cells := range f.backed {
			g.backed[name] = thawGrid(cells)
		}
	}
	return g
}

// advSums are a table's sums of some of its rounds (a row's): its
// players' and its shoes'.
type advSums struct {
	players map[string]*advPlayer
	shoes   map[int]*advShoe
}

func (s *advSums) player(name string) *advPlayer {
	if s.players == nil {
		s.players = map[string]*advPlayer{}
	}
	p := s.players[name]
	if p == nil {
		p = &advPlayer{}
		s.players[name] = p
	}
	return p
}

func (s *advSums) shoe(n int) *advShoe {
	if s.shoes == nil {
		s.shoes = map[int]*advShoe{}
	}
	g := s.shoes[n]
	if g == nil {
		g = &advShoe{}
		s.shoes[n] = g
	}
	return g
}

func (s *advSums) then(u rollSums) {
	v := u.(*advSums)
	for name, p := range v.players {
		s.player(name).plus(p)
	}
	for n, g := range v.shoes {
		s.shoe(n).plus(g)
	}
}

// advCounter reads the count at a table's deals: the rules the round was
// dealt under, and its shoe's history (the cards seen before it).
type advCounter struct {
	src  Source
	sh   *shoes
	opts map[int64]*optionsAt
	rp   replayer
}

func newAdvCounter(src Source) *advCounter {
	return &advCounter{src: src, sh: newShoes(src), opts: map[int64]*optionsAt{}, rp: replayer{}}
}

// advAt is the count at a round's deal.
type advAt struct {
	prof     *rules.Profile
	h        *seenShoe // its shoe's history
	rc       int       // the Hi-Lo running count of the cards seen before it
	hilo, h2 float64   // the true counts
}

// at reads the count at a deal of the table (seq its record's).
func (c *advCounter) at(ctx context.Context, t *sabot.Table, seq int64, d *tablelog.DealBets) (advAt, error) {
	o := c.opts[t.ID]
	if o == nil {
		var err error
		if o, err = loadOptions(ctx, c.src, t); err != nil {
			return advAt{}, err
		}
		c.opts[t.ID] = o
	}
	prof, err := o.rules(seq)
	if err != nil {
		return advAt{}, err
	}
	h, err := c.sh.in(ctx, t.ID, d.Shoe)
	if err != nil {
		return advAt{}, err
	}
	if _, ok := h.pos[d.Round]; !ok {
		// The shoe was read before the round was dealt: read it again.
		if h, err = c.sh.load(ctx, t.ID, d.Shoe); err != nil {
			return advAt{}, err
		}
		c.sh.cur[t.ID] = h
	}
	seen := h.seen(d.Round)
	a := advAt{prof: prof, h: h, hilo: TrueCount(CountHiLo, seen, prof.Decks, d.ShoePos), h2: TrueCount(CountHiOptII, seen, prof.Decks, d.ShoePos)}
	for _, cd := range seen {
		a.rc += CountHiLo.Tags[cd.Value()]
	}
	return a, nil
}

// dealt counts a deal's bets into s: each player's initial stakes
// against the counts, the round in its shoe with its back bettors. It
// returns the stakes.
func (c *advCounter) dealt(s *advSums, a advAt, d *tablelog.DealBets) map[string]money.Amount {
	stakes := map[string]money.Amount{}
	for _, b := range d.Bets {
		stakes[b.Player] += b.Stake
	}
	s.shoe(d.Shoe).dealt(a.hilo, backBettors(d.Bets))
	for name, st := range stakes {
		s.player(name).add(st, a.hilo, a.h2)
	}
	return stakes
}

// indexed counts a settled round's decisions at the index plays' hands
// into s (fn, if not nil, is told each).
func (c *advCounter) indexed(s *advSums, a advAt, d *tablelog.DealBets, r engine.Record, fn func(name string, row int, deviated bool, tc float64)) {
	indexDecisions(c.rp, a.prof, r, a.rc, d.ShoePos, func(name string, row int, deviated bool, tc float64) {
		s.player(name).index.Add(row, deviated, IndexPlays[row].Says(tc))
		if fn != nil {
			fn(name, row, deviated, tc)
		}
	})
}

// advRoller sums a table's deal and settle records: a deal's bets against
// the count at the deal, a settlement's decisions at the index plays'
// hands, both at the deal's time.
type advRoller struct {
	c *advCounter
}

// advDeal is a deal record read.
type advDeal struct {
	rec *sabot.LogRecord
	d   tablelog.DealBets
}

// advSettled is what the roller reads of a settle record.
type advSettled struct {
	Round  int           `json:"round"`
	Void   bool          `json:"void"`
	Record engine.Record `json:"record"`
}

func (r *advRoller) page(ctx context.Context, t *sabot.Table, _ int64, recs []*sabot.LogRecord, add func(time.Time, rollSums)) error {
	// The options after the page: a change of them it holds is known.
	r.c.opts, r.c.rp = map[int64]*optionsAt{}, replayer{}
	deals := map[int]*advDeal{}
	settled := map[int]bool{}
	for _, rec := range recs {
		switch rec.Kind {
		case sabot.LogDeal:
			dl := &advDeal{rec: rec}
			if err := tablelog.Decode(rec, &dl.d); err != nil {
				return err
			}
			a, err := r.c.at(ctx, t, rec.Seq, &dl.d)
			if err != nil {
				return err
			}
			s := &advSums{}
			r.c.dealt(s, a, &dl.d)
			add(rec.Created, s)
			deals[dl.d.Round] = dl
		case sabot.LogSettle:
			// The round's record: its shoe's history holds it when it was
			// read after the settlement (decoded there), else this one's.
			round := int(rec.RoundNo)
			var st *advSettled
			if round == 0 {
				st = &advSettled{}
				if err := tablelog.Decode(rec, st); err != nil {
					return err
				}
				round = st.Round
			}
			if settled[round] {
				continue
			}
			settled[round] = true
			dl := deals[round]
			if dl == nil {
				var err error
				if dl, err = r.dealOf(ctx, t, rec, round); err != nil {
					return err
				}
				if dl == nil {
					continue
				}
			}
			a, err := r.c.at(ctx, t, dl.rec.Seq, &dl.d)
			if err != nil {
				return err
			}
			record, ok := a.h.records[round]
			if !ok {
				if st == nil {
					st = &advSettled{}
					if err := tablelog.Decode(rec, st); err != nil {
						return err
					}
				}
				if st.Void {
					continue
				}
				record = st.Record
			}
			if len(record.Actions) == 0 {
				continue
			}
			s := &advSums{}
			r.c.indexed(s, a, &dl.d, record, nil)
			if len(s.players) > 0 {
				add(dl.rec.Created, s)
			}
		}
	}
	return nil
}

// dealOf reads the deal of a round settled by rec, dealt before the page
// (log_round); nil if it has none, or if the round was settled before rec
// (counted then).
func (r *advRoller) dealOf(ctx context.Context, t *sabot.Table, rec *sabot.LogRecord, round int) (*advDeal, error) {
	recs, err := r.c.src.Find(ctx, sabot.LogQuery{Kinds: []string{sabot.LogDeal, sabot.LogSettle}, TableID: t.ID, FromRound: int64(round), ToRound: int64(round)})
	if err != nil {
		return nil, err
	}
	var last *sabot.LogRecord
	for _, x := range recs {
		switch {
		case x.Kind == sabot.LogSettle && x.Seq < rec.Seq:
			return nil, nil
		case x.Kind == sabot.LogDeal && (last == nil || x.Seq > last.Seq):
			last = x
		}
	}
	if last == nil {
		return nil, nil
	}
	dl := &advDeal{rec: last}
	return dl, tablelog.Decode(last, &dl.d)
}

// advAcc is a report's sums: its players', each table's shoes' (until
// scored), the back bettors' scores.
type advAcc struct {
	players map[string]*advPlayer
	shoes   map[int64]map[int]*advShoe
	back    map[string]*BackScorer
	// Reading the log alone: each table's shoe read last, and the shoes
	// put away.
	last   map[int64]int
	frozen map[[2]int64]*frozenShoe
}

func newAdvAcc() *advAcc {
	return &advAcc{players: map[string]*advPlayer{}, shoes: map[int64]map[int]*advShoe{}, back: map[string]*BackScorer{},
		last: map[int64]int{}, frozen: map[[2]int64]*frozenShoe{}}
}

// sink is a table's sums in the report's.
func (acc *advAcc) sink(table int64) *advSums {
	if acc.shoes[table] == nil {
		acc.shoes[table] = map[int]*advShoe{}
	}
	return &advSums{players: acc.players, shoes: acc.shoes[table]}
}

// score is a back bettor's score.
func (acc *advAcc) score(name string) *BackScorer {
	if acc.players[name] == nil {
		acc.players[name] = &advPlayer{}
	}
	b := acc.back[name]
	if b == nil {
		b = &BackScorer{}
		acc.back[name] = b
	}
	return b
}

// flushTable scores the back bets of a table's shoes read.
func (acc *advAcc) flushTable(table int64) {
	for _, n := range slices.Sorted(maps.Keys(acc.shoes[table])) {
		acc.shoes[table][n].flush(acc.score)
	}
	delete(acc.shoes, table)
}

func (acc *advAcc) flushAll() {
	for _, k := range slices.SortedFunc(maps.Keys(acc.frozen), func(a, b [2]int64) int { return cmp.Or(cmp.Compare(a[0], b[0]), cmp.Compare(a[1], b[1])) }) {
		acc.frozen[k].thaw().flush(acc.score)
		delete(acc.frozen, k)
	}
	for _, id := range slices.Sorted(maps.Keys(acc.shoes)) {
		acc.flushTable(id)
	}
}

// readPeriod counts the rounds dealt in the period from the log, the
// newest first. With freeze (the log read alone), it puts each table's
// shoe away as soon as the deals turn to another (a shoe a table in
// memory, the others frozen), and back if one of its deals comes again.
// lists, if not nil, gets each player's rounds and decisions
// (AdvantageOptions.Pairs).
func (acc *advAcc) readPeriod(ctx context.Context, src Source, byID map[int64]*sabot.Table, p Period, freeze bool, lists map[string]*PlayerAdvantage) error {
	c := newAdvCounter(src)
	list := func(name string) *PlayerAdvantage {
		l := lists[name]
		if l == nil {
			l = &PlayerAdvantage{Player: name}
			lists[name] = l
		}
		return l
	}
	return each(ctx, src, sabot.LogDeal, p, func(rec *sabot.LogRecord) error {
		t := byID[rec.TableID]
		if t == nil {
			return nil
		}
		var d tablelog.DealBets
		if err := tablelog.Decode(rec, &d); err != nil {
			return err
		}
		a, err := c.at(ctx, t, rec.Seq, &d)
		if err != nil {
			return err
		}
		s := acc.sink(t.ID)
		if n, ok := acc.last[t.ID]; freeze && ok && n != d.Shoe {
			if g := s.shoes[n]; g != nil {
				acc.frozen[[2]int64{t.ID, int64(n)}] = g.freeze()
				delete(s.shoes, n)
			}
			k := [2]int64{t.ID, int64(d.Shoe)}
			if f := acc.frozen[k]; f != nil {
				s.shoes[d.Shoe] = f.thaw()
				delete(acc.frozen, k)
			}
		}
		acc.last[t.ID] = d.Shoe
		// The decisions at the index plays' hands: the round's record, as
		// the shoe's history read it, replayed.
		if r, ok := a.h.records[d.Round]; ok && len(r.Actions) > 0 {
			var fn func(string, int, bool, float64)
			if lists != nil {
				fn = func(name string, row int, deviated bool, tc float64) {
					x := IndexPlays[row]
					l := list(name)
					l.IndexPairs = append(l.IndexPairs, IndexPair{Table: rec.TableID, Round: d.Round, Hand: x.Hand, Up: x.Up, Index: x.Index, HiLo: tc, Deviated: deviated})
				}
			}
			c.indexed(s, a, &d, r, fn)
		}
		stakes := c.dealt(s, a, &d)
		if lists != nil {
			for _, name := range slices.Sorted(maps.Keys(stakes)) {
				l := list(name)
				l.Pairs = append(l.Pairs, Pair{Table: rec.TableID, Round: d.Round, Bet: stakes[name], HiLo: a.hilo, HiOptII: a.h2})
			}
		}
		return nil
	})
}

// readPlan counts the period as the plan says: its part hours from the
// log by time, its whole hours a table at a time from the rows and the
// log past the table's mark; a table's shoes are scored once all of it is
// read.
func (acc *advAcc) readPlan(ctx context.Context, src Source, byID map[int64]*sabot.Table, plan *rollupPlan) error {
	for _, e := range []*Period{plan.before, plan.after} {
		if e == nil {
			continue
		}
		if err := acc.readPeriod(ctx, src, byID, *e, false, nil); err != nil {
			return err
		}
	}
	for _, id := range slices.Sorted(maps.Keys(byID)) {
		s := acc.sink(id)
		if err := plan.read(ctx, src, byID[id], func(h rollSums) { s.then(h) }); err != nil {
			return err
		}
		acc.flushTable(id)
	}
	return nil
}
