package report

import (
	"encoding/binary"
	"encoding/json"
	"errors"
	"fmt"
	"maps"
	"math"
	"slices"
	"strconv"
	"strings"

	"sabot"
	"sabot/money"
)

// The rollup rows' codec (docs/store.md, "Rollups: the rows' format"): a
// row is the bytes of one kind's sums, versioned, in encoding/binary's
// varints. It opens with two bytes, the format (rowFormat) and the kind
// (rollKind.tag), then the kind's sums (rollSums.appendRow): counts and
// sums as varints (signed: zig-zag), a bet as its float64's 8 bytes, a
// string as its length and bytes, a map as its number of entries then the
// entries by key, ascending (the same sums write the same bytes). Reading
// one (rowReader) bounds every length by the bytes the row has left, and
// every figure by what it may be, so that a corrupt or hostile row is an
// error, never a panic nor an allocation beyond some bytes for each of
// its own.

// rowFormat is the codec's version: a change of its primitives bumps it
// (a change of a kind's sums bumps the kind's version, its name's).
const rowFormat = 1

// The kinds' tags in a row.
const (
	tagTables    = 1
	tagPlayers   = 2
	tagErrors    = 3
	tagAdvantage = 4
)

// maxRowString bounds a string in a row: a player's name, a rules hash,
// an option's name or value.
const maxRowString = 1 << 10

// rowWriter appends a row's values.
type rowWriter struct{ b []byte }

func (w *rowWriter) uint(v uint64) { w.b = binary.AppendUvarint(w.b, v) }
func (w *rowWriter) int(v int64)   { w.b = binary.AppendVarint(w.b, v) }
func (w *rowWriter) f64(f float64) { w.b = binary.LittleEndian.AppendUint64(w.b, math.Float64bits(f)) }
func (w *rowWriter) len(n int)     { w.uint(uint64(n)) }

func (w *rowWriter) str(s string) {
	w.len(len(s))
	w.b = append(w.b, s...)
}

// strs writes a map of strings, by key.
func (w *rowWriter) strs(m map[string]string) {
	w.len(len(m))
	for _, k := range slices.Sorted(maps.Keys(m)) {
		w.str(k)
		w.str(m[k])
	}
}

// rowReader reads a row's values; the first error it meets stays (and
// every value read after it is zero).
type rowReader struct {
	b   []byte
	err error
}

var errRowShort = errors.New("the row ends early")

func (r *rowReader) fail(format string, args ...any) {
	if r.err == nil {
		r.err = fmt.Errorf(format, args...)
	}
}

// varint reads a varint's bytes: a number of 64 bits at most, in its
// fewest bytes (so a row read writes the same bytes again).
func (r *rowReader) varint() uint64 {
	if r.err != nil {
		return 0
	}
	v, n := binary.Uvarint(r.b)
	switch {
	case n == 0:
		r.fail("a number: %w", errRowShort)
		return 0
	case n < 0:
		r.fail("a number beyond 64 bits")
		return 0
	case n > 1 && r.b[n-1] == 0:
		r.fail("a number in %d bytes, more than it takes", n)
		return 0
	}
	r.b = r.b[n:]
	return v
}

func (r *rowReader) uint() uint64 { return r.varint() }

// int is a signed varint (zig-zag, as binary.AppendVarint).
func (r *rowReader) int() int64 {
	u := r.varint()
	x := int64(u >> 1)
	if u&1 != 0 {
		x = ^x
	}
	return x
}

// count is a count of something (rounds, hands): 0 to 2⁶³−1.
func (r *rowReader) count() int64 {
	v := r.uint()
	if v > math.MaxInt64 {
		r.fail("a count of %d: beyond 2^63", v)
		return 0
	}
	return int64(v)
}

// in is a number from lo to hi.
func (r *rowReader) in(lo, hi int64, what string) int64 {
	v := r.int()
	if r.err == nil && (v < lo || v > hi) {
		r.fail("%s %d: it is %d to %d", what, v, lo, hi)
		return 0
	}
	return v
}

func (r *rowReader) f64() float64 {
	if r.err != nil {
		return 0
	}
	if len(r.b) < 8 {
		r.fail("a bet: %w", errRowShort)
		return 0
	}
	f := math.Float64frombits(binary.LittleEndian.Uint64(r.b))
	r.b = r.b[8:]
	return f
}

// len is the number of entries of a list or map, each of at least size
// bytes: at most what the row has left.
func (r *rowReader) len(size int) int {
	v := r.uint()
	if r.err == nil && v > uint64(len(r.b)/size) {
		r.fail("%d entries of %d bytes or more in the %d bytes left", v, size, len(r.b))
		return 0
	}
	return int(v)
}

func (r *rowReader) str() string {
	n := r.uint()
	if r.err != nil {
		return ""
	}
	if n > maxRowString || n > uint64(len(r.b)) {
		r.fail("a string of %d bytes in the %d left (at most %d)", n, len(r.b), maxRowString)
		return ""
	}
	s := string(r.b[:n])
	r.b = r.b[n:]
	return s
}

// key reads a map's next key, which must follow the last (prev, set by
// the call) in order: so a map is read in the order written, each key
// once.
func (r *rowReader) key(prev *string, first bool) string {
	k := r.str()
	if r.err == nil && !first && k <= *prev {
		r.fail("the key %q after %q: the keys are in order, each once", k, *prev)
	}
	*prev = k
	return k
}

func (r *rowReader) strs() map[string]string {
	n := r.len(2)
	if n == 0 {
		return nil
	}
	m := make(map[string]string, n)
	var prev string
	for i := range n {
		k := r.key(&prev, i == 0)
		m[k] = r.str()
	}
	return m
}

// ordered checks that a map's next int key follows the last.
func (r *rowReader) ordered(k, prev int64, first bool) {
	if r.err == nil && !first && k <= prev {
		r.fail("the key %d after %d: the keys are in order, each once", k, prev)
	}
}

// encodeRow is a kind's sums as a row holds them.
func encodeRow(k *rollKind, s rollSums) []byte {
	w := &rowWriter{b: []byte{rowFormat, k.tag}}
	s.appendRow(w)
	return w.b
}

// decodeRow reads a row of kind k into fresh sums.
func decodeRow(k *rollKind, data []byte) (rollSums, error) {
	if len(data) < 2 || data[0] != rowFormat || data[1] != k.tag {
		head := data[:min(len(data), 2)]
		return nil, fmt.Errorf("a row of %s opens with %d and %d, not %x: not this codec's (format %d), or another kind's", k.name, rowFormat, k.tag, head, rowFormat)
	}
	r := &rowReader{b: data[2:]}
	s := k.fresh()
	s.readRow(r)
	if r.err == nil && len(r.b) > 0 {
		r.fail("%d bytes past the sums", len(r.b))
	}
	if r.err != nil {
		return nil, fmt.Errorf("a row of %s, at byte %d of %d: %w", k.name, len(data)-len(r.b), len(data), r.err)
	}
	return s, nil
}

// The kinds' sums, each as docs/store.md lays it out.

// tables/2: voids, drop, cashout, ledger, then each rule set's sums.
func (t *tableSums) appendRow(w *rowWriter) {
	w.uint(uint64(t.Voids))
	w.int(int64(t.Drop))
	w.int(int64(t.Cashout))
	w.int(int64(t.Ledger))
	w.len(len(t.Rules))
	for _, h := range slices.Sorted(maps.Keys(t.Rules)) {
		g := t.Rules[h]
		w.str(h)
		w.strs(g.Options)
		w.uint(uint64(g.Rounds))
		w.uint(uint64(g.Hands))
		w.int(int64(g.Stakes))
		w.int(int64(g.Initial))
		w.int(int64(g.Win))
		for _, q := range g.Squares {
			w.uint(q)
		}
	}
}

func (t *tableSums) readRow(r *rowReader) {
	t.Voids = r.count()
	t.Drop = money.Amount(r.int())
	t.Cashout = money.Amount(r.int())
	t.Ledger = money.Amount(r.int())
	n := r.len(11)
	if n > 0 {
		t.Rules = make(map[string]*ruleSums, n)
	}
	var prev string
	for i := range n {
		h := r.key(&prev, i == 0)
		g := &ruleSums{Options: r.strs(), Rounds: r.count(), Hands: r.count()}
		g.Stakes = money.Amount(r.int())
		g.Initial = money.Amount(r.int())
		g.Win = money.Amount(r.int())
		for j := range g.Squares {
			g.Squares[j] = r.uint()
		}
		t.Rules[h] = g
	}
}

// players/2: the rule sets' options, then each player's sums.
func (p *playersRow) appendRow(w *rowWriter) {
	w.len(len(p.Rules))
	for _, h := range slices.Sorted(maps.Keys(p.Rules)) {
		w.str(h)
		w.strs(p.Rules[h])
	}
	w.len(len(p.Players))
	for _, name := range slices.Sorted(maps.Keys(p.Players)) {
		s := p.Players[name]
		w.str(name)
		w.uint(uint64(s.Rounds))
		w.int(int64(s.Stakes))
		w.int(int64(s.Win))
		w.len(len(s.Initial))
		for _, h := range slices.Sorted(maps.Keys(s.Initial)) {
			w.str(h)
			w.int(int64(s.Initial[h]))
		}
		ss := &s.Sessions
		w.uint(uint64(ss.N))
		for _, v := range []int64{ss.First[0], ss.First[1], ss.Last[0], ss.Last[1], ss.Between} {
			w.int(v)
		}
	}
}

func (p *playersRow) readRow(r *rowReader) {
	n := r.len(2)
	if n > 0 {
		p.Rules = make(map[string]map[string]string, n)
	}
	var prev string
	for i := range n {
		h := r.key(&prev, i == 0)
		p.Rules[h] = r.strs()
	}
	n = r.len(11)
	if n > 0 {
		p.Players = make(map[string]*playerSums, n)
	}
	for i := range n {
		name := r.key(&prev, i == 0)
		s := &playerSums{Rounds: r.count()}
		s.Stakes = money.Amount(r.int())
		s.Win = money.Amount(r.int())
		m := r.len(2)
		if m > 0 {
			s.Initial = make(map[string]money.Amount, m)
		}
		var prevH string
		for j := range m {
			h := r.key(&prevH, j == 0)
			s.Initial[h] = money.Amount(r.int())
		}
		ss := &s.Sessions
		ss.N = r.count()
		ss.First[0], ss.First[1], ss.Last[0], ss.Last[1], ss.Between = r.int(), r.int(), r.int(), r.int(), r.int()
		p.Players[name] = s
	}
}

// errors/3: each player's value of his decisions, then his rounds and
// stakes by count for each rule set.
func (e *errorsRow) appendRow(w *rowWriter) {
	w.len(len(e.Players))
	for _, name := range slices.Sorted(maps.Keys(e.Players)) {
		s := e.Players[name]
		w.str(name)
		w.uint(uint64(s.Decisions))
		w.uint(uint64(s.Errors))
		w.uint(uint64(s.Unvalued))
		w.int(s.Cost)
		w.int(s.VsBasic)
		w.len(len(s.ByCount))
		for _, h := range slices.Sorted(maps.Keys(s.ByCount)) {
			c := s.ByCount[h]
			w.str(h)
			for i := range c.Rounds {
				w.uint(uint64(c.Rounds[i]))
				w.int(c.Stakes[i])
			}
		}
	}
}

func (e *errorsRow) readRow(r *rowReader) {
	n := r.len(6)
	if n > 0 {
		e.Players = make(map[string]*errorSums, n)
	}
	var prev string
	for i := range n {
		name := r.key(&prev, i == 0)
		s := &errorSums{Decisions: r.count(), Errors: r.count(), Unvalued: r.count(), Cost: r.int(), VsBasic: r.int()}
		m := r.len(1 + 2*(2*CountBuckets+1))
		if m > 0 {
			s.ByCount = make(map[string]*countSums, m)
		}
		var prevH string
		for j := range m {
			h := r.key(&prevH, j == 0)
			c := &countSums{}
			for k := range c.Rounds {
				c.Rounds[k] = r.count()
				c.Stakes[k] = r.int()
			}
			s.ByCount[h] = c
		}
		e.Players[name] = s
	}
}

// advantage/2: each player's sums (his two scorers' cells, his decisions
// at the index plays' hands, his chart), then each shoe's grids.
func (s *advSums) appendRow(w *rowWriter) {
	w.len(len(s.players))
	for _, name := range slices.Sorted(maps.Keys(s.players)) {
		w.str(name)
		s.players[name].appendRow(w)
	}
	w.len(len(s.shoes))
	for _, n := range slices.Sorted(maps.Keys(s.shoes)) {
		g := s.shoes[n]
		g.unread()
		w.int(int64(n))
		appendGridRow(w, g.all)
		w.len(len(g.backed))
		for _, name := range slices.Sorted(maps.Keys(g.backed)) {
			w.str(name)
			appendGridRow(w, g.backed[name])
		}
	}
}

// appendGridRow writes a grid's cells with rounds, by count on the grid.
func appendGridRow(w *rowWriter, m map[int32]int) {
	n := 0
	for _, k := range m {
		if k != 0 {
			n++
		}
	}
	w.len(n)
	for _, q := range slices.Sorted(maps.Keys(m)) {
		if m[q] != 0 {
			w.int(int64(q))
			w.uint(uint64(m[q]))
		}
	}
}

// readGridRow reads a grid's cells, calling fn with each.
func readGridRow(r *rowReader, fn func(q int32, k int32)) {
	n := r.len(2)
	var prev int64
	for i := range n {
		q := r.in(-MaxCount/CountStep, MaxCount/CountStep, "a count on the grid of")
		r.ordered(q, prev, i == 0)
		prev = q
		k := r.count()
		if r.err == nil && (k == 0 || k > math.MaxInt32) {
			r.fail("%d rounds at %d on the grid: 1 to 2^31-1", k, q)
		}
		if r.err != nil {
			return
		}
		fn(int32(q), int32(k))
	}
}

func (p *advPlayer) appendRow(w *rowWriter) {
	p.unread()
	for _, sc := range []*Scorer{&p.hilo, &p.h2} {
		grids := map[float64]map[int32]int{}
		for c, k := range sc.cells {
			if k == 0 {
				continue
			}
			if grids[c.bet] == nil {
				grids[c.bet] = map[int32]int{}
			}
			grids[c.bet][c.count] += k
		}
		w.len(len(grids))
		for _, bet := range slices.Sorted(maps.Keys(grids)) {
			w.f64(bet)
			appendGridRow(w, grids[bet])
		}
	}
	n := 0
	for _, c := range p.index.cells {
		if c != ([2][2]int{}) {
			n++
		}
	}
	w.len(n)
	for row, c := range p.index.cells {
		if c != ([2][2]int{}) {
			w.uint(uint64(row))
			for _, k := range []int{c[0][0], c[0][1], c[1][0], c[1][1]} {
				w.uint(uint64(k))
			}
		}
	}
	n = 0
	for i := range p.rounds {
		if p.rounds[i] != 0 || p.sums[i] != 0 {
			n++
		}
	}
	w.len(n)
	for i := range p.rounds {
		if p.rounds[i] != 0 || p.sums[i] != 0 {
			w.uint(uint64(i))
			w.uint(uint64(p.rounds[i]))
			w.int(int64(p.sums[i]))
		}
	}
}

// readRow reads a player's sums, his scorers' cells kept in p.read until
// added to other sums.
func (p *advPlayer) readRow(r *rowReader) {
	p.read = &[2][]scoreCellK{}
	for i := range p.read {
		n := r.len(9)
		var prev float64
		for j := range n {
			bet := r.f64()
			if r.err == nil && (math.IsNaN(bet) || math.IsInf(bet, 0) || j > 0 && !(bet > prev)) {
				r.fail("a bet of %v after %v: finite bets, in order, each once", bet, prev)
			}
			prev = bet
			before := len(p.read[i])
			readGridRow(r, func(q, k int32) { p.read[i] = append(p.read[i], scoreCellK{scoreCell{bet, q}, int(k)}) })
			if r.err == nil && len(p.read[i]) == before {
				r.fail("a bet of %v with no rounds", bet)
			}
		}
	}
	n := r.len(5)
	var prev int64
	for i := range n {
		row := int64(r.uint())
		if r.err == nil && row >= int64(len(IndexPlays)) {
			r.fail("index decisions at row %d: there are %d rows", row, len(IndexPlays))
		}
		r.ordered(row, prev, i == 0)
		prev = row
		var c [2][2]int
		c[0][0], c[0][1], c[1][0], c[1][1] = int(r.count()), int(r.count()), int(r.count()), int(r.count())
		if r.err != nil {
			return
		}
		if c == ([2][2]int{}) {
			r.fail("index decisions at row %d: none", row)
			return
		}
		if p.index.cells == nil {
			p.index.cells = make([][2][2]int, len(IndexPlays))
		}
		p.index.cells[row] = c
	}
	n = r.len(3)
	for i := range n {
		c := int64(r.uint())
		if r.err == nil && c >= int64(len(p.rounds)) {
			r.fail("the chart at %d: it has %d counts", c, len(p.rounds))
		}
		r.ordered(c, prev, i == 0)
		prev = c
		k, sum := r.count(), money.Amount(r.int())
		if r.err != nil {
			return
		}
		if k == 0 && sum == 0 {
			r.fail("the chart at %d: nothing", c)
			return
		}
		p.rounds[c], p.sums[c] = int(k), sum
	}
}

func (s *advSums) readRow(r *rowReader) {
	n := r.len(4)
	if n > 0 {
		s.players = make(map[string]*advPlayer, n)
	}
	var prev string
	for i := range n {
		name := r.key(&prev, i == 0)
		p := &advPlayer{}
		p.readRow(r)
		if r.err != nil {
			return
		}
		s.players[name] = p
	}
	n = r.len(3)
	if n > 0 {
		s.shoes = make(map[int]*advShoe, n)
	}
	var prevN int64
	for i := range n {
		no := r.int()
		r.ordered(no, prevN, i == 0)
		prevN = no
		f := &frozenShoe{}
		readGridRow(r, func(q, k int32) { f.all = append(f.all, gridCell{q, k}) })
		m := r.len(2)
		if m > 0 {
			f.backed = make(map[string][]gridCell, m)
		}
		var prevB string
		for j := range m {
			name := r.key(&prevB, j == 0)
			cells := []gridCell{}
			readGridRow(r, func(q, k int32) { cells = append(cells, gridCell{q, k}) })
			f.backed[name] = cells
		}
		if r.err != nil {
			return
		}
		s.shoes[int(no)] = &advShoe{read: f}
	}
}

// RollupJSON is a row of kind as JSON, to be read by people and by tests
// (the rows are binary): the sums of tables/2, players/2 and errors/3 as
// their fields' JSON (as tables/1, players/1 and errors/2 stored them),
// advantage/2's as advSums.MarshalJSON's.
func RollupJSON(kind string, data []byte) (json.RawMessage, error) {
	k := rollKinds[kind]
	if k == nil {
		return nil, sabot.Errorf(sabot.EINVALID, "no rollup is called %q (there are %s)", kind, strings.Join(RollupKinds(), ", "))
	}
	s, err := decodeRow(k, data)
	if err != nil {
		return nil, err
	}
	return json.Marshal(s)
}

// MarshalJSON is the sums for RollupJSON: by player his scorers' rounds
// by bet and count on the grid ("hilo", "hioptii"), his decisions by row
// of IndexPlays ("index": kept the basic play when the count did not call
// for the index play and when it did, took it when it did not and when it
// did), his rounds and bets by Hi-Lo true count from −6 ("chart"); by shoe
// its rounds by count on the grid ("all") and each back bettor's ("back").
func (s *advSums) MarshalJSON() ([]byte, error) {
	type player struct {
		HiLo    map[string]map[int32]int `json:"hilo,omitempty"`
		HiOptII map[string]map[int32]int `json:"hioptii,omitempty"`
		Index   map[int][4]int           `json:"index,omitempty"`
		Chart   map[int][2]int64         `json:"chart,omitempty"`
	}
	type shoe struct {
		All  map[int32]int            `json:"all,omitempty"`
		Back map[string]map[int32]int `json:"back,omitempty"`
	}
	var x struct {
		Players map[string]player `json:"players,omitempty"`
		Shoes   map[int]shoe      `json:"shoes,omitempty"`
	}
	grids := func(sc *Scorer) map[string]map[int32]int {
		var out map[string]map[int32]int
		for c, k := range sc.cells {
			if out == nil {
				out = map[string]map[int32]int{}
			}
			b := strconv.FormatFloat(c.bet, 'f', -1, 64)
			if out[b] == nil {
				out[b] = map[int32]int{}
			}
			out[b][c.count] += k
		}
		return out
	}
	for name, p := range s.players {
		p.unread()
		j := player{HiLo: grids(&p.hilo), HiOptII: grids(&p.h2)}
		for row, c := range p.index.cells {
			if c != ([2][2]int{}) {
				if j.Index == nil {
					j.Index = map[int][4]int{}
				}
				j.Index[row] = [4]int{c[0][0], c[0][1], c[1][0], c[1][1]}
			}
		}
		for i := range p.rounds {
			if p.rounds[i] != 0 || p.sums[i] != 0 {
				if j.Chart == nil {
					j.Chart = map[int][2]int64{}
				}
				j.Chart[i-6] = [2]int64{int64(p.rounds[i]), int64(p.sums[i])}
			}
		}
		if x.Players == nil {
			x.Players = map[string]player{}
		}
		x.Players[name] = j
	}
	for n, g := range s.shoes {
		g.unread()
		if x.Shoes == nil {
			x.Shoes = map[int]shoe{}
		}
		x.Shoes[n] = shoe{All: g.all, Back: g.backed}
	}
	return json.Marshal(x)
}
