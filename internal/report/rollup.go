package report

import (
	"cmp"
	"context"
	"encoding/json"
	"fmt"
	"maps"
	"math"
	"math/big"
	"math/bits"
	"slices"
	"strings"
	"time"

	"sabot"
	"sabot/internal/tablelog"
	"sabot/money"
)

// Rollups (docs/pit.md, "Rollups"): the tables' report
// sums each table's settle, void and admin records into a tableSums, and
// the same sums of a table's hour and of its day are kept in the store
// (sabot.Rollups), so that a report over a year reads some 365 rows a
// table rather than every round. RollUp brings them up to the logs;
// TablesReport reads the days and hours the rows cover and the log for
// the rest.

// RollupTables is the kind of the tables' report's rollups: its name and
// the version of tableSums' format, which a change of the sums bumps (the
// rows of an older version are then left alone, and rolled up anew):
// tables/2 is tables/1's sums in the rows' binary codec (rowcodec.go), in
// place of their JSON.
const RollupTables = "tables/2"

// tableSums are a table's sums over some of its records: a period's in a
// report, an hour's in a rollup row (tableSums.appendRow; its JSON is
// RollupJSON's).
type tableSums struct {
	Voids   int64        `json:"voids,omitempty"`
	Drop    money.Amount `json:"drop,omitempty"`    // buy-ins (physical tables)
	Cashout money.Amount `json:"cashout,omitempty"` // cash-outs
	// Ledger is the house's net through the settle and void records
	// (sabot.LedgerReader, sabot.Rollups.HouseNets).
	Ledger money.Amount `json:"ledger,omitempty"`
	// Rules are the settled rounds' sums by the rules they were dealt
	// under (rules.Profile.GameHash).
	Rules map[string]*ruleSums `json:"rules,omitempty"`
}

// ruleSums are the sums of a table's rounds dealt under one rule set.
type ruleSums struct {
	// Options are the table's options that made the rules (its profile
	// is the table's): its Theory is Theories.Of them.
	Options map[string]string `json:"options,omitempty"`
	Rounds  int64             `json:"rounds"`
	Hands   int64             `json:"hands"`
	Stakes  money.Amount      `json:"stakes"`
	Initial money.Amount      `json:"initial"`
	Win     money.Amount      `json:"win"`
	// Squares is Σ s² over the boxes of the rounds, s a box's initial
	// stakes: the win's variance is it times the SD per unit squared.
	Squares squares `json:"squares"`
}

// record adds a settle, void or admin record of the table to the sums,
// o its options along its log (nil: a table the store does not have). It
// reports whether the record counts (a settlement, a void, a buy-in or a
// cash-out): a table is in a report with one such record in the period.
func (t *tableSums) record(rec *sabot.LogRecord, o *optionsAt) (bool, error) {
	switch rec.Kind {
	case sabot.LogSettle, sabot.LogVoid:
		var s tablelog.SettleTotals
		if err := tablelog.Decode(rec, &s); err != nil {
			return false, err
		}
		if s.Void {
			t.Voids++
			return true, nil
		}
		if o == nil {
			return false, sabot.Errorf(sabot.EINTERNAL, "table %d's round %d: no such table", rec.TableID, s.Round)
		}
		h, err := o.hash(rec.Seq)
		if err != nil {
			return false, err
		}
		if t.Rules == nil {
			t.Rules = map[string]*ruleSums{}
		}
		g := t.Rules[h]
		if g == nil {
			g = &ruleSums{Options: o.opts[o.index(rec.Seq)]}
			t.Rules[h] = g
		}
		g.settled(&s)
		return true, nil
	case sabot.LogAdmin:
		var a tablelog.AdminMoney
		if err := tablelog.Decode(rec, &a); err != nil {
			return false, err
		}
		switch a.Event {
		case tablelog.EventBuyIn:
			t.Drop += a.Amount
		case tablelog.EventCashOut:
			t.Cashout += a.Amount
		default:
			return false, nil
		}
		return true, nil
	}
	return false, nil
}

// settled counts one settled round.
func (g *ruleSums) settled(s *tablelog.SettleTotals) {
	g.Rounds++
	g.Hands += int64(len(s.Hands))
	g.Win += s.HouseWin()
	var boxes [16]money.Amount // boxes 1 to 9 (rules: at most 9); more go to a map
	var more map[int]money.Amount
	for _, b := range s.Bets {
		g.Stakes += b.Stake
		if b.Kind != "main" {
			continue
		}
		g.Initial += b.Stake
		if b.Box >= 0 && b.Box < len(boxes) {
			boxes[b.Box] += b.Stake
		} else {
			if more == nil {
				more = map[int]money.Amount{}
			}
			more[b.Box] += b.Stake
		}
	}
	for _, st := range boxes {
		g.Squares.add(st)
	}
	for _, st := range more {
		g.Squares.add(st)
	}
}

// plus adds u's sums to t's.
func (t *tableSums) plus(u *tableSums) {
	t.Voids += u.Voids
	t.Drop += u.Drop
	t.Cashout += u.Cashout
	t.Ledger += u.Ledger
	for h, g := range u.Rules {
		if t.Rules == nil {
			t.Rules = map[string]*ruleSums{}
		}
		x := t.Rules[h]
		if x == nil {
			x = &ruleSums{Options: g.Options}
			t.Rules[h] = x
		}
		x.Rounds += g.Rounds
		x.Hands += g.Hands
		x.Stakes += g.Stakes
		x.Initial += g.Initial
		x.Win += g.Win
		x.Squares.plus(g.Squares)
	}
}

// squares is a sum of squared amounts, exact: 192 bits, least significant
// word first (an amount is below 2⁶⁰, its square below 2¹²⁰). Its JSON is
// the decimal number as a string.
type squares [3]uint64

func (q *squares) add(a money.Amount) {
	if a == 0 {
		return
	}
	x := uint64(a)
	if a < 0 {
		x = uint64(-a)
	}
	hi, lo := bits.Mul64(x, x)
	q.plus(squares{lo, hi, 0})
}

func (q *squares) plus(u squares) {
	var c uint64
	q[0], c = bits.Add64(q[0], u[0], 0)
	q[1], c = bits.Add64(q[1], u[1], c)
	q[2], _ = bits.Add64(q[2], u[2], c)
}

func (q squares) float() float64 {
	return float64(q[2])*math.Pow(2, 128) + float64(q[1])*math.Pow(2, 64) + float64(q[0])
}

func (q squares) big() *big.Int {
	b := new(big.Int).SetUint64(q[2])
	b.Lsh(b, 64).Or(b, new(big.Int).SetUint64(q[1]))
	return b.Lsh(b, 64).Or(b, new(big.Int).SetUint64(q[0]))
}

func (q squares) MarshalJSON() ([]byte, error) { return json.Marshal(q.big().String()) }

func (q *squares) UnmarshalJSON(b []byte) error {
	var s string
	if err := json.Unmarshal(b, &s); err != nil {
		return err
	}
	n, ok := new(big.Int).SetString(s, 10)
	if !ok || n.Sign() < 0 || n.BitLen() > 192 {
		return fmt.Errorf("a sum of squares is a decimal number of 0 to 2^192, not %q", s)
	}
	mask := new(big.Int).SetUint64(math.MaxUint64)
	for i := range q {
		q[i] = new(big.Int).And(n, mask).Uint64()
		n.Rsh(n, 64)
	}
	return nil
}

// rollupsOf is src's store of rollups (through a paced source), if it
// keeps them.
func rollupsOf(src Source) sabot.Rollups {
	if p, ok := src.(pacedLedger); ok {
		src = p.paced.Source
	}
	if p, ok := src.(*paced); ok {
		src = p.Source
	}
	ro, _ := src.(sabot.Rollups)
	return ro
}

// A rollKind is one report's rollups: what it reads of a table's log, and
// how it sums it.
type rollKind struct {
	name  string   // RollupTables, RollupPlayers, …
	tag   byte     // its rows' second byte (rowcodec.go)
	kinds []string // the kinds of record it reads
	// costly kinds take milliseconds a record (the cost of errors):
	// rolled up after the others, and by the server on their own.
	costly bool
	// fresh is an empty sums of the kind, to read a row into.
	fresh func() rollSums
	// run begins a run over the tables (what it keeps between pages, such
	// as shoes read, is its own).
	run func(src Source, ro sabot.Rollups) roller
}

// rollSums are a kind's sums of a table's records: a row's.
type rollSums interface {
	// then adds to them u, the sums of the table's records that follow
	// (the order matters to a player's sessions, not to a table's sums).
	then(u rollSums)
	// appendRow writes the sums in a row (rowcodec.go, encodeRow), and
	// readRow reads them from one (decodeRow): the fresh sums of a kind
	// read what its appendRow wrote, or an error.
	appendRow(w *rowWriter)
	readRow(r *rowReader)
}

// A roller sums a table's records, a page at a time.
type roller interface {
	// page sums a page of a table's records past mark, oldest first,
	// calling add with each counted record's time and sums.
	page(ctx context.Context, t *sabot.Table, mark int64, recs []*sabot.LogRecord, add func(time.Time, rollSums)) error
}

// rollKinds are the reports' rollups, by name: RollUp's default.
var rollKinds = map[string]*rollKind{}

func register(k *rollKind) *rollKind {
	rollKinds[k.name] = k
	return k
}

// RollupKinds are the names of the reports' rollups (the tables', the
// players', the advantage report's, the cost of the players' errors), the
// costly last; costly says whether to list those that take milliseconds a
// record (true), or the others (false); none: all.
func RollupKinds(costly ...bool) []string {
	var out []string
	for _, name := range slices.Sorted(maps.Keys(rollKinds)) {
		if len(costly) == 0 || rollKinds[name].costly == costly[0] {
			out = append(out, name)
		}
	}
	slices.SortStableFunc(out, func(a, b string) int {
		return cmp.Compare(b2i(rollKinds[a].costly), b2i(rollKinds[b].costly))
	})
	return out
}

// The tables' report's kind.
var tablesKind = register(&rollKind{
	name:  RollupTables,
	tag:   tagTables,
	kinds: []string{sabot.LogSettle, sabot.LogVoid, sabot.LogAdmin},
	fresh: func() rollSums { return &tableSums{} },
	run:   func(src Source, ro sabot.Rollups) roller { return &tablesRoller{src: src, ro: ro} },
})

func (t *tableSums) then(u rollSums) { t.plus(u.(*tableSums)) }

// tablesRoller sums a table's settle, void and admin records, each with
// the house's net through it.
type tablesRoller struct {
	src Source
	ro  sabot.Rollups
}

func (r *tablesRoller) page(ctx context.Context, t *sabot.Table, mark int64, recs []*sabot.LogRecord, add func(time.Time, rollSums)) error {
	// The options after the page: a change of them it holds is known.
	o, err := loadOptions(ctx, r.src, t)
	if err != nil {
		return err
	}
	nets, err := r.ro.HouseNets(ctx, t.ID, mark, recs[len(recs)-1].Seq)
	if err != nil {
		return err
	}
	for _, rec := range recs {
		h := &tableSums{}
		counts, err := h.record(rec, o)
		if err != nil {
			return err
		}
		if counts {
			h.Ledger = nets[rec.Seq]
			add(rec.Created, h)
		}
	}
	return nil
}

// rollupPlan is how a report reads a period where rollups are kept: the
// rows of its whole hours [full.From, full.To), each table's records past
// its mark in those hours from the log, and the rest of the period (its
// first and last part hours, before and after) from the log by time.
type rollupPlan struct {
	ro            sabot.Rollups
	kind          *rollKind
	full          Period
	before, after *Period
}

// planRollups plans a report's read of the period from the rollups of
// kind: nil where there are none (the store keeps none, nothing was ever
// rolled up, or the period holds no whole hour), and the report reads the
// log alone.
func planRollups(ctx context.Context, src Source, kind *rollKind, p Period) (*rollupPlan, error) {
	ro := rollupsOf(src)
	if ro == nil {
		return nil, nil
	}
	h0, h1 := p.From.Truncate(time.Hour), p.To.Truncate(time.Hour)
	if h0.Before(p.From) {
		h0 = h0.Add(time.Hour)
	}
	if !h0.Before(h1) {
		return nil, nil
	}
	marks, _, err := ro.RollupRows(ctx, kind.name, 0)
	if err != nil || len(marks) == 0 {
		return nil, err
	}
	plan := &rollupPlan{ro: ro, kind: kind, full: Period{h0, h1}}
	if p.From.Before(h0) {
		plan.before = &Period{p.From, h0}
	}
	if h1.Before(p.To) {
		plan.after = &Period{h1, p.To}
	}
	return plan, nil
}

// read sums a table's whole hours of the plan: its rows of them and its
// mark read in one snapshot, then its records past the mark in them;
// take gets each sums in the order of their records.
func (plan *rollupPlan) read(ctx context.Context, src Source, t *sabot.Table, take func(rollSums)) error {
	marks, rows, err := plan.ro.RollupRows(ctx, plan.kind.name, t.ID, plan.full.ranges()...)
	if err != nil {
		return err
	}
	slices.SortStableFunc(rows, func(a, b sabot.Rollup) int { return a.Start.Compare(b.Start) })
	for _, r := range rows {
		h, err := decodeRow(plan.kind, r.Data)
		if err != nil {
			return fmt.Errorf("table %d's rollup of %v from %s: %w", r.TableID, r.Span, r.Start.Format(time.RFC3339), err)
		}
		take(h)
	}
	run := plan.kind.run(src, plan.ro)
	mark := marks[t.ID]
	limit := pageOf(src)
	for {
		recs, err := src.Find(ctx, sabot.LogQuery{Kinds: plan.kind.kinds, TableID: t.ID, After: mark, Limit: limit})
		if err != nil || len(recs) == 0 {
			return err
		}
		err = run.page(ctx, t, mark, recs, func(at time.Time, h rollSums) {
			if !at.Before(plan.full.From) && at.Before(plan.full.To) {
				take(h)
			}
		})
		if err != nil || len(recs) < limit {
			return err
		}
		mark = recs[len(recs)-1].Seq
	}
}

// ranges are the rows that sum a period of whole hours: its whole days'
// (from midnight to midnight, UTC) and its other hours'.
func (p Period) ranges() []sabot.RollupRange {
	d0, d1 := p.From.Truncate(sabot.RollupDay), p.To.Truncate(sabot.RollupDay)
	if d0.Before(p.From) {
		d0 = d0.Add(sabot.RollupDay)
	}
	if !d0.Before(d1) {
		return []sabot.RollupRange{{Span: sabot.RollupHour, From: p.From, To: p.To}}
	}
	var out []sabot.RollupRange
	if p.From.Before(d0) {
		out = append(out, sabot.RollupRange{Span: sabot.RollupHour, From: p.From, To: d0})
	}
	out = append(out, sabot.RollupRange{Span: sabot.RollupDay, From: d0, To: d1})
	if d1.Before(p.To) {
		out = append(out, sabot.RollupRange{Span: sabot.RollupHour, From: d1, To: p.To})
	}
	return out
}

// Rolled says what a RollUp did.
type Rolled struct {
	Tables  int   // tables whose rollups moved on (a table counted once a kind)
	Records int64 // records read past the marks
	Left    int   // tables another roller had moved on meanwhile
}

// RollUp brings the rollups of kinds (none: every kind, RollupKinds) up
// to each table's log: for each kind and table, it reads the table's
// records past the kind's mark, oldest first, a page at a time, and
// writes each page's hours and days, added to the rows of them, with the
// mark moved to the page's last record, in one transaction
// (sabot.Rollups.PutRollup). A table another roller moves on meanwhile
// (another node, another report) is left to it. progress, if not nil, is
// told the records read so far after each page. src must keep rollups
// (sabot.Rollups; through Paced, which paces the reads).
func RollUp(ctx context.Context, src Source, progress func(records int64), kinds ...string) (Rolled, error) {
	var out Rolled
	ro := rollupsOf(src)
	if ro == nil {
		return out, sabot.Errorf(sabot.EINVALID, "the store keeps no rollups")
	}
	if len(kinds) == 0 {
		kinds = RollupKinds()
	}
	var todo []*rollKind
	for _, name := range kinds {
		k := rollKinds[name]
		if k == nil {
			return out, sabot.Errorf(sabot.EINVALID, "no rollup is called %q (there are %s)", name, strings.Join(RollupKinds(), ", "))
		}
		todo = append(todo, k)
	}
	tables, err := src.Tables(ctx)
	if err != nil {
		return out, err
	}
	slices.SortFunc(tables, func(a, b *sabot.Table) int { return cmp.Compare(a.ID, b.ID) })
	for _, k := range todo {
		marks, _, err := ro.RollupRows(ctx, k.name, 0)
		if err != nil {
			return out, err
		}
		run := k.run(src, ro)
		for _, t := range tables {
			moved, err := rollTable(ctx, src, ro, k, run, t, marks[t.ID], func(n int) {
				out.Records += int64(n)
				if progress != nil {
					progress(out.Records)
				}
			})
			switch {
			case sabot.ErrorCode(err) == sabot.ECONFLICT:
				out.Left++
			case err != nil:
				return out, err
			case moved:
				out.Tables++
			}
		}
	}
	return out, nil
}

// rollTable rolls one table up from its mark; it reports whether the mark
// moved.
func rollTable(ctx context.Context, src Source, ro sabot.Rollups, k *rollKind, run roller, t *sabot.Table, mark int64, read func(n int)) (bool, error) {
	limit := pageOf(src)
	moved := false
	for {
		recs, err := src.Find(ctx, sabot.LogQuery{Kinds: k.kinds, TableID: t.ID, After: mark, Limit: limit})
		if err != nil || len(recs) == 0 {
			return moved, err
		}
		last := recs[len(recs)-1].Seq
		spans := map[spanAt]rollSums{}
		err = run.page(ctx, t, mark, recs, func(at time.Time, h rollSums) {
			for _, span := range []time.Duration{sabot.RollupHour, sabot.RollupDay} {
				in := spanAt{span, at.UTC().Truncate(span)}
				s := spans[in]
				if s == nil {
					s = k.fresh()
					spans[in] = s
				}
				s.then(h)
			}
		})
		if err != nil {
			return moved, err
		}
		rows, err := mergeRows(ctx, ro, k, t.ID, spans)
		if err != nil {
			return moved, err
		}
		if err := ro.PutRollup(ctx, k.name, t.ID, mark, last, rows); err != nil {
			return moved, err
		}
		moved, mark = true, last
		read(len(recs))
		if len(recs) < limit {
			return moved, nil
		}
	}
}

// spanAt is a rollup row's span and start.
type spanAt struct {
	span  time.Duration
	start time.Time
}

// mergeRows adds a page's hours and days to the rows kept of them: the
// rows to write.
func mergeRows(ctx context.Context, ro sabot.Rollups, k *rollKind, table int64, sums map[spanAt]rollSums) ([]sabot.Rollup, error) {
	if len(sums) == 0 {
		return nil, nil
	}
	at := slices.SortedFunc(maps.Keys(sums), func(a, b spanAt) int { return cmp.Or(cmp.Compare(a.span, b.span), a.start.Compare(b.start)) })
	var ranges []sabot.RollupRange
	for _, a := range at {
		if n := len(ranges); n > 0 && ranges[n-1].Span == a.span {
			ranges[n-1].To = a.start.Add(a.span)
		} else {
			ranges = append(ranges, sabot.RollupRange{Span: a.span, From: a.start, To: a.start.Add(a.span)})
		}
	}
	_, kept, err := ro.RollupRows(ctx, k.name, table, ranges...)
	if err != nil {
		return nil, err
	}
	for _, r := range kept {
		a := spanAt{r.Span, r.Start}
		h := sums[a]
		if h == nil {
			continue
		}
		old, err := decodeRow(k, r.Data)
		if err != nil {
			return nil, fmt.Errorf("table %d's rollup of %v from %s: %w", table, r.Span, r.Start.Format(time.RFC3339), err)
		}
		old.then(h)
		sums[a] = old
	}
	rows := make([]sabot.Rollup, 0, len(at))
	for _, a := range at {
		rows = append(rows, sabot.Rollup{TableID: table, Span: a.span, Start: a.start, Data: encodeRow(k, sums[a])})
	}
	return rows, nil
}
