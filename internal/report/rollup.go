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
	"sabot/money"
)

// Rollups (docs/pit.md, "Rollups"; issue 29 item 6): the tables' report
// sums each table's settle, void and admin records into a tableSums, and
// the same sums of a table's hour and of its day are kept in the store
// (sabot.Rollups), so that a report over a year reads some 365 rows a
// table rather than every round. RollUp brings them up to the logs;
// TablesReport reads the days and hours the rows cover and the log for
// the rest.

// RollupTables is the kind of the tables' report's rollups: its name and
// the version of tableSums' format, which a change of the sums bumps (the
// rows of an older version are then left alone, and rolled up anew).
const RollupTables = "tables/1"

// tableSums are a table's sums over some of its records: a period's in a
// report, an hour's in a rollup row (its JSON).
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
		var s tableSettlement
		if err := decode(rec, &s); err != nil {
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
		if !strings.Contains(string(rec.Payload), `"buy-in"`) && !strings.Contains(string(rec.Payload), `"cash-out"`) {
			return false, nil
		}
		var a adminPayload
		if err := decode(rec, &a); err != nil {
			return false, err
		}
		switch a.Event {
		case "buy-in":
			t.Drop += a.Amount
		case "cash-out":
			t.Cashout += a.Amount
		default:
			return false, nil
		}
		return true, nil
	}
	return false, nil
}

// settled counts one settled round.
func (g *ruleSums) settled(s *tableSettlement) {
	g.Rounds++
	g.Hands += int64(len(s.Hands))
	g.Win += s.houseWin()
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

// rollupPlan is how a report reads a period where rollups are kept: the
// rows of its whole hours [full.From, full.To), each table's records past
// its mark in those hours from the log, and the rest of the period (its
// first and last part hours) from the log by time.
type rollupPlan struct {
	ro    sabot.Rollups
	kind  string
	full  Period
	edges []Period
}

// planRollups plans a report's read of the period from the rollups of
// kind: nil where there are none (the store keeps none, nothing was ever
// rolled up, or the period holds no whole hour), and the report reads the
// log alone.
func planRollups(ctx context.Context, src Source, kind string, p Period) (*rollupPlan, error) {
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
	marks, _, err := ro.RollupRows(ctx, kind, 0)
	if err != nil || len(marks) == 0 {
		return nil, err
	}
	plan := &rollupPlan{ro: ro, kind: kind, full: Period{h0, h1}}
	if p.From.Before(h0) {
		plan.edges = append(plan.edges, Period{p.From, h0})
	}
	if h1.Before(p.To) {
		plan.edges = append(plan.edges, Period{h1, p.To})
	}
	return plan, nil
}

// rolledKinds are the kinds of record the tables' sums read.
var rolledKinds = []string{sabot.LogSettle, sabot.LogVoid, sabot.LogAdmin}

// readPlan sums the period as the plan says, a table at a time: its rows
// of the whole hours and its mark read in one snapshot, then its records
// past the mark.
func (a *tablesAcc) readPlan(ctx context.Context, plan *rollupPlan) error {
	for _, e := range plan.edges {
		if err := a.readPeriod(ctx, e); err != nil {
			return err
		}
	}
	ranges := plan.full.ranges()
	for _, id := range slices.Sorted(maps.Keys(a.byID)) {
		marks, rows, err := plan.ro.RollupRows(ctx, plan.kind, id, ranges...)
		if err != nil {
			return err
		}
		for _, r := range rows {
			var h tableSums
			if err := json.Unmarshal(r.Data, &h); err != nil {
				return fmt.Errorf("table %d's rollup of %v from %s (%s): %w", r.TableID, r.Span, r.Start.Format(time.RFC3339), plan.kind, err)
			}
			a.table(id).plus(&h)
		}
		err = tail(ctx, a.src, plan.ro, id, marks[id], func(rec *sabot.LogRecord, net money.Amount) error {
			if rec.Created.Before(plan.full.From) || !rec.Created.Before(plan.full.To) {
				return nil
			}
			o, err := a.options(ctx, id)
			if err != nil {
				return err
			}
			var h tableSums
			counts, err := h.record(rec, o)
			if err != nil || !counts {
				return err
			}
			h.Ledger = net
			a.table(id).plus(&h)
			return nil
		})
		if err != nil {
			return err
		}
	}
	return nil
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

// tail calls fn with each of a table's records of rolledKinds past seq
// mark, oldest first, and the house's net through it (settle and void
// records), a page at a time.
func tail(ctx context.Context, src Source, ro sabot.Rollups, table, mark int64, fn func(*sabot.LogRecord, money.Amount) error) error {
	limit := pageOf(src)
	for {
		recs, err := src.Find(ctx, sabot.LogQuery{Kinds: rolledKinds, TableID: table, After: mark, Limit: limit})
		if err != nil || len(recs) == 0 {
			return err
		}
		last := recs[len(recs)-1].Seq
		nets, err := ro.HouseNets(ctx, table, mark, last)
		if err != nil {
			return err
		}
		for _, r := range recs {
			if err := fn(r, nets[r.Seq]); err != nil {
				return err
			}
		}
		if len(recs) < limit {
			return nil
		}
		mark = last
	}
}

// Rolled says what a RollUp did.
type Rolled struct {
	Tables  int   // tables whose rollups moved on
	Records int64 // records read past the marks
	Left    int   // tables another roller had moved on meanwhile
}

// RollUp brings the rollups of the tables' report (RollupTables) up to
// each table's log: it reads a table's records past its mark, oldest
// first, a page at a time, and writes each page's hours, added to the
// rows of those hours, with the mark moved to the page's last record, in
// one transaction (sabot.Rollups.PutRollup). A table another roller moves
// on meanwhile (another node, another report) is left to it. progress,
// if not nil, is told the records read so far after each page. src must
// keep rollups (sabot.Rollups; through Paced, which paces the reads).
func RollUp(ctx context.Context, src Source, progress func(records int64)) (Rolled, error) {
	var out Rolled
	ro := rollupsOf(src)
	if ro == nil {
		return out, sabot.Errorf(sabot.EINVALID, "the store keeps no rollups")
	}
	tables, err := src.Tables(ctx)
	if err != nil {
		return out, err
	}
	marks, _, err := ro.RollupRows(ctx, RollupTables, 0)
	if err != nil {
		return out, err
	}
	slices.SortFunc(tables, func(a, b *sabot.Table) int { return int(a.ID - b.ID) })
	for _, t := range tables {
		moved, err := rollTable(ctx, src, ro, t, marks[t.ID], func(n int) {
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
	return out, nil
}

// rollTable rolls one table up from its mark; it reports whether the mark
// moved.
func rollTable(ctx context.Context, src Source, ro sabot.Rollups, t *sabot.Table, mark int64, read func(n int)) (bool, error) {
	limit := pageOf(src)
	moved := false
	for {
		recs, err := src.Find(ctx, sabot.LogQuery{Kinds: rolledKinds, TableID: t.ID, After: mark, Limit: limit})
		if err != nil || len(recs) == 0 {
			return moved, err
		}
		last := recs[len(recs)-1].Seq
		// The options after the page: a change of them it holds is known.
		o, err := loadOptions(ctx, src, t)
		if err != nil {
			return moved, err
		}
		nets, err := ro.HouseNets(ctx, t.ID, mark, last)
		if err != nil {
			return moved, err
		}
		spans := map[spanAt]*tableSums{}
		for _, r := range recs {
			var h tableSums
			counts, err := h.record(r, o)
			if err != nil {
				return moved, err
			}
			if !counts {
				continue
			}
			h.Ledger = nets[r.Seq]
			for _, span := range []time.Duration{sabot.RollupHour, sabot.RollupDay} {
				at := spanAt{span, r.Created.UTC().Truncate(span)}
				if spans[at] == nil {
					spans[at] = &tableSums{}
				}
				spans[at].plus(&h)
			}
		}
		rows, err := mergeRows(ctx, ro, t.ID, spans)
		if err != nil {
			return moved, err
		}
		if err := ro.PutRollup(ctx, RollupTables, t.ID, mark, last, rows); err != nil {
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
func mergeRows(ctx context.Context, ro sabot.Rollups, table int64, sums map[spanAt]*tableSums) ([]sabot.Rollup, error) {
	if len(sums) == 0 {
		return nil, nil
	}
	at := slices.SortedFunc(maps.Keys(sums), func(a, b spanAt) int { return cmp.Or(cmp.Compare(a.span, b.span), a.start.Compare(b.start)) })
	var ranges []sabot.RollupRange
	for _, k := range at {
		if n := len(ranges); n > 0 && ranges[n-1].Span == k.span {
			ranges[n-1].To = k.start.Add(k.span)
		} else {
			ranges = append(ranges, sabot.RollupRange{Span: k.span, From: k.start, To: k.start.Add(k.span)})
		}
	}
	_, kept, err := ro.RollupRows(ctx, RollupTables, table, ranges...)
	if err != nil {
		return nil, err
	}
	for _, r := range kept {
		k := spanAt{r.Span, r.Start}
		h := sums[k]
		if h == nil {
			continue
		}
		var old tableSums
		if err := json.Unmarshal(r.Data, &old); err != nil {
			return nil, fmt.Errorf("table %d's rollup of %v from %s: %w", table, r.Span, r.Start.Format(time.RFC3339), err)
		}
		old.plus(h)
		sums[k] = &old
	}
	rows := make([]sabot.Rollup, 0, len(at))
	for _, k := range at {
		data, err := json.Marshal(sums[k])
		if err != nil {
			return nil, err
		}
		rows = append(rows, sabot.Rollup{TableID: table, Span: k.span, Start: k.start, Data: data})
	}
	return rows, nil
}
