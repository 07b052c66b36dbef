package report

import (
	"cmp"
	"context"
	"encoding/json"
	"fmt"
	"maps"
	"math/big"
	"slices"
	"testing"
	"time"

	"sabot"
	"sabot/internal/tablelog"
	"sabot/money"
)

// memLedger is a memLog whose ledger is the settlements' house wins
// (sabot.LedgerReader): the report's ledger column is read.
type memLedger struct{ *memLog }

func (m memLedger) RoundNets(_ context.Context, from, to time.Time) ([]sabot.LedgerNet, error) {
	nets := map[int64]money.Amount{}
	for _, kind := range []string{sabot.LogSettle, sabot.LogVoid} {
		for _, r := range m.byKind[kind] {
			if !r.Created.Before(from) && r.Created.Before(to) {
				nets[r.TableID] += houseOf(r)
			}
		}
	}
	var out []sabot.LedgerNet
	for _, id := range slices.Sorted(maps.Keys(nets)) {
		out = append(out, sabot.LedgerNet{TableID: id, Kind: sabot.AccountHouse, Net: nets[id]})
	}
	return out, nil
}

func houseOf(r *sabot.LogRecord) money.Amount {
	var s tablelog.SettleTotals
	if err := json.Unmarshal(r.Payload, &s); err != nil {
		panic(err)
	}
	return s.HouseWin()
}

// memRollups is a memLedger that keeps rollups (sabot.Rollups) and reads
// pages of page records.
type memRollups struct {
	memLedger
	page  int
	marks map[string]map[int64]int64
	rows  map[string]map[int64]map[spanAt][]byte
}

func newMemRollups(m *memLog, page int) *memRollups {
	return &memRollups{memLedger: memLedger{m}, page: page, marks: map[string]map[int64]int64{}, rows: map[string]map[int64]map[spanAt][]byte{}}
}

func (m *memRollups) pageSize() int { return m.page }

func (m *memRollups) RollupRows(_ context.Context, kind string, table int64, ranges ...sabot.RollupRange) (map[int64]int64, []sabot.Rollup, error) {
	var out []sabot.Rollup
	for id, rows := range m.rows[kind] {
		if table != 0 && id != table {
			continue
		}
		for k, d := range rows {
			for _, r := range ranges {
				if k.span == r.Span && !k.start.Before(r.From) && k.start.Before(r.To) {
					out = append(out, sabot.Rollup{TableID: id, Span: k.span, Start: k.start, Data: d})
				}
			}
		}
	}
	slices.SortFunc(out, func(a, b sabot.Rollup) int {
		return cmp.Or(cmp.Compare(a.TableID, b.TableID), cmp.Compare(a.Span, b.Span), a.Start.Compare(b.Start))
	})
	return maps.Clone(m.marks[kind]), out, nil
}

func (m *memRollups) PutRollup(_ context.Context, kind string, table int64, from, to int64, rows []sabot.Rollup) error {
	if m.marks[kind] == nil {
		m.marks[kind], m.rows[kind] = map[int64]int64{}, map[int64]map[spanAt][]byte{}
	}
	if m.marks[kind][table] != from {
		return sabot.Errorf(sabot.ECONFLICT, "moved")
	}
	m.marks[kind][table] = to
	if m.rows[kind][table] == nil {
		m.rows[kind][table] = map[spanAt][]byte{}
	}
	for _, r := range rows {
		if !r.Start.Equal(r.Start.Truncate(r.Span)) {
			return fmt.Errorf("a row of %v from %s", r.Span, r.Start)
		}
		m.rows[kind][table][spanAt{r.Span, r.Start}] = r.Data
	}
	return nil
}

func (m *memRollups) HouseNets(_ context.Context, table int64, after, upTo int64) (map[int64]money.Amount, error) {
	out := map[int64]money.Amount{}
	for _, r := range m.byTable[table] {
		if r.Seq > after && r.Seq <= upTo && (r.Kind == sabot.LogSettle || r.Kind == sabot.LogVoid) {
			out[r.Seq] = houseOf(r)
		}
	}
	return out, nil
}

// reportJSON is the tables' report of a period, as JSON.
func reportJSON(t *testing.T, src Source, p Period) string {
	t.Helper()
	r, err := TablesReport(context.Background(), src, NewTheories(), p)
	return indented(t, r, err)
}

// playersJSON is the players' report of a period, as JSON.
func playersJSON(t *testing.T, src Source, p Period, noErrors bool) string {
	t.Helper()
	r, err := PlayersReport(context.Background(), src, NewTheories(), p, PlayersOptions{NoErrors: noErrors})
	return indented(t, r, err)
}

// logUpTo is the log as it grows: the records of all (in the order they
// were written) written before at.
func logUpTo(tables []*sabot.Table, all []*sabot.LogRecord, at time.Time) *memLog {
	m := newMemLog(tables)
	for _, r := range all {
		if r.Created.Before(at) {
			c := *r
			m.add(&c)
		}
	}
	return m
}

// indented is a report (made with err) as indented JSON.
func indented(t testing.TB, r any, err error) string {
	t.Helper()
	if err != nil {
		t.Fatal(err)
	}
	b, err := json.MarshalIndent(r, "", " ")
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}

// The tables' report reads the same from the rollups as from the log
// alone, byte for byte, for periods cut anywhere in an hour or on the
// hour: rolled up in pages (several a table's hour, which add up), with
// records past the marks (read from the log), with a record written late
// into an hour rolled up already (a node's clock behind), with voids and
// a physical table's buy-ins and cash-outs; a roller whose mark moved
// meanwhile writes nothing; and the sums of squares keep every bit.
func TestRollupsAgreeWithTheLog(t *testing.T) {
	ctx := context.Background()
	full, p := synthLog(t, 2, 12, 9000) // a round a minute at each table: 4,500 minutes, 3 days and more
	all := slices.SortedFunc(slices.Values(append(append([]*sabot.LogRecord(nil), full.byKind[sabot.LogDeal]...), full.byKind[sabot.LogSettle]...)),
		func(a, b *sabot.LogRecord) int {
			return cmp.Or(a.Created.Compare(b.Created), cmp.Compare(a.TableID, b.TableID), cmp.Compare(a.Seq, b.Seq))
		})
	// Voids and a float's buy-ins and cash-outs at table 2.
	var extra []*sabot.LogRecord
	for i := range 90 {
		at := p.From.Add(time.Duration(i*47)*time.Minute + 30*time.Second)
		extra = append(extra,
			&sabot.LogRecord{TableID: 2, Kind: sabot.LogVoid, Created: at, Payload: json.RawMessage(fmt.Sprintf(`{"round":%d,"void":true}`, 9000+i))},
			&sabot.LogRecord{TableID: 2, Kind: sabot.LogAdmin, Created: at.Add(time.Second), Payload: json.RawMessage(fmt.Sprintf(`{"event":"buy-in","user":"#w","amount":%d}`, 1000*(i+1)))},
			&sabot.LogRecord{TableID: 2, Kind: sabot.LogAdmin, Created: at.Add(2 * time.Second), Payload: json.RawMessage(fmt.Sprintf(`{"event":"cash-out","user":"#w","amount":%d}`, 700*(i+1)))},
			&sabot.LogRecord{TableID: 2, Kind: sabot.LogAdmin, Created: at.Add(3 * time.Second), Payload: json.RawMessage(`{"event":"limits","user":"pit"}`)})
	}
	all = slices.SortedFunc(slices.Values(append(all, extra...)), func(a, b *sabot.LogRecord) int {
		return cmp.Or(a.Created.Compare(b.Created), cmp.Compare(a.TableID, b.TableID))
	})
	periods := []Period{p,
		{p.From.Add(17 * time.Minute), p.To.Add(-23 * time.Minute)},
		{p.From.Add(5 * time.Hour), p.From.Add(9 * time.Hour)},
		{p.From.Add(5*time.Hour + time.Minute), p.From.Add(5*time.Hour + 59*time.Minute)},
		{p.From.Add(3*time.Hour + 50*time.Minute), p.From.Add(6*time.Hour + 10*time.Minute)},
		{p.From.Add(20 * time.Hour), p.From.Add(44 * time.Hour)},               // across a midnight, no whole day
		{p.From.Add(5 * time.Hour), p.To.Add(-3 * time.Hour)},                  // whole days and hours either side
		{p.From.Add(24 * time.Hour), p.From.Add(48 * time.Hour)},               // a day
		{p.From.Add(24*time.Hour + time.Second), p.From.Add(72*time.Hour - 1)}, // a day, cut within its ends' hours
	}
	check := func(what string, m *memLog, ro *memRollups) {
		t.Helper()
		for _, q := range periods {
			want, got := reportJSON(t, memLedger{m}, q), reportJSON(t, ro, q)
			if got != want {
				t.Fatalf("%s, %s to %s: from the rollups\n%s\nfrom the log\n%s", what, q.From.Format(time.TimeOnly), q.To.Format(time.TimeOnly), got, want)
			}
			want, got = playersJSON(t, memLedger{m}, q, true), playersJSON(t, ro, q, true)
			if got != want {
				t.Fatalf("%s, %s to %s: the players from the rollups\n%s\nfrom the log\n%s", what, q.From.Format(time.TimeOnly), q.To.Format(time.TimeOnly), got, want)
			}
		}
	}
	// Half the play rolled up in pages of 97 records, then the rest
	// written: the report reads it past the marks.
	half := logUpTo(full.tables, all, p.From.Add(1000*time.Minute))
	ro := newMemRollups(half, 97)
	check("nothing rolled up", half, ro)
	kinds := []string{RollupTables, RollupPlayers} // errors: TestErrorRollupsAgree
	done, err := RollUp(ctx, ro, nil, kinds...)
	if err != nil || done.Tables != 4 || done.Records == 0 || done.Left != 0 {
		t.Fatalf("RollUp: %+v, %v", done, err)
	}
	check("all rolled up", half, ro)
	whole := logUpTo(full.tables, all, p.To.Add(time.Hour))
	ro.memLedger = memLedger{whole}
	check("records past the marks", whole, ro)
	// A record written late into an hour rolled up (its seq after the
	// mark), read from the log, then rolled up into its hour.
	late := &sabot.LogRecord{TableID: 1, Kind: sabot.LogSettle, Created: p.From.Add(5*time.Hour + 7*time.Minute),
		Payload: json.RawMessage(`{"round":99999,"bets":[{"box":1,"kind":"main","stake":700000000000000},{"box":1,"kind":"main","stake":300000000000000},{"box":2,"kind":"main","stake":999999999999999}],"hands":[{},{}],"house":-5}`)}
	whole.add(late)
	slices.SortFunc(whole.byKind[sabot.LogSettle], order)
	check("a late record", whole, ro)
	if done, err = RollUp(ctx, ro, nil, kinds...); err != nil || done.Tables != 4 {
		t.Fatalf("RollUp again: %+v, %v", done, err)
	}
	check("rolled up again", whole, ro)
	if done, err = RollUp(ctx, ro, nil, kinds...); err != nil || done.Tables != 0 || done.Records != 0 {
		t.Fatalf("RollUp with nothing new: %+v, %v", done, err)
	}
	// The late round's squares, (10¹⁵)² + (10¹⁵ − 1)² and more, kept
	// exactly in its hour's row.
	_, rows, _ := ro.RollupRows(ctx, RollupTables, 1, sabot.RollupRange{Span: sabot.RollupHour, From: p.From.Add(5 * time.Hour), To: p.From.Add(6 * time.Hour)})
	if len(rows) != 1 {
		t.Fatalf("table 1's rows of 05:00: %v", rows)
	}
	read, err := decodeRow(tablesKind, rows[0].Data)
	if err != nil || len(read.(*tableSums).Rules) != 1 {
		t.Fatalf("table 1's row of 05:00: %v, %v", read, err)
	}
	h := read.(*tableSums)
	var want squares
	for _, r := range whole.byTable[1] {
		if r.Kind == sabot.LogSettle && !r.Created.Before(p.From.Add(5*time.Hour)) && r.Created.Before(p.From.Add(6*time.Hour)) {
			var s tablelog.SettleTotals
			json.Unmarshal(r.Payload, &s)
			boxes := map[int]money.Amount{}
			for _, b := range s.Bets {
				if b.Kind == "main" {
					boxes[b.Box] += b.Stake
				}
			}
			for _, st := range boxes {
				want.add(st)
			}
		}
	}
	for _, g := range h.Rules {
		if g.Squares != want || g.Squares.big().Cmp(want.big()) != 0 || want[1] == 0 {
			t.Fatalf("the hour's squares %v, want %v", g.Squares.big(), want.big())
		}
	}
	// A roller whose mark moved meanwhile writes nothing.
	before := fmt.Sprint(ro.rows)
	tbl := whole.tables[0]
	if _, err := rollTable(ctx, ro, ro, tablesKind, tablesKind.run(ro, ro), tbl, 1, func(int) {}); sabot.ErrorCode(err) != sabot.ECONFLICT {
		t.Fatalf("a roller from a stale mark: %v", err)
	}
	if fmt.Sprint(ro.rows) != before {
		t.Fatal("a roller from a stale mark wrote rows")
	}
}

// squares' JSON is its decimal number, exact (3·Max² − 2·Max + 10 here),
// which reads back; what is not a number of 0 to 2¹⁹² is refused.
func TestSquaresJSON(t *testing.T) {
	var q squares
	for _, a := range []money.Amount{money.Max, money.Max - 1, 3, -money.Max, 0} {
		q.add(a)
	}
	b, err := json.Marshal(q)
	if err != nil {
		t.Fatal(err)
	}
	m := big.NewInt(int64(money.Max))
	want := new(big.Int).Mul(m, m)
	want.Mul(want, big.NewInt(3)).Sub(want, new(big.Int).Mul(m, big.NewInt(2))).Add(want, big.NewInt(10))
	if string(b) != fmt.Sprintf("%q", want.String()) {
		t.Fatalf("%s, want %q", b, want)
	}
	var back squares
	if err := json.Unmarshal(b, &back); err != nil || back != q {
		t.Fatalf("read back %v (%v), want %v", back, err, q)
	}
	if back.float() != float64(3e30-2e15+10) {
		t.Errorf("as a float %g", back.float())
	}
	huge := new(big.Int).Lsh(big.NewInt(1), 192)
	for _, bad := range []string{`"-1"`, `"x"`, `12`, fmt.Sprintf("%q", huge.String())} {
		if err := json.Unmarshal([]byte(bad), &back); err == nil {
			t.Errorf("%s read as %v", bad, back.big())
		}
	}
	huge.Sub(huge, big.NewInt(1))
	if err := json.Unmarshal([]byte(fmt.Sprintf("%q", huge.String())), &back); err != nil || back != (squares{^uint64(0), ^uint64(0), ^uint64(0)}) {
		t.Errorf("2^192 - 1 read as %v, %v", back, err)
	}
}

// BenchmarkTablesReport is the tables' report of a week at 4 tables (a
// round a minute at each: 40,000 rounds), from the log alone and from the
// rollups (kept in memory: the report's side of the work, not the
// store's; docs/pit.md has the stores' figures).
func BenchmarkTablesReport(b *testing.B) {
	ctx := context.Background()
	m, p := synthLog(b, 4, 12, 40000)
	ro := newMemRollups(m, pageSize)
	if _, err := RollUp(ctx, ro, nil); err != nil {
		b.Fatal(err)
	}
	th := NewTheories()
	for _, c := range []struct {
		name string
		src  Source
	}{{"log", memLedger{m}}, {"rollups", ro}} {
		b.Run(c.name, func(b *testing.B) {
			for b.Loop() {
				r, err := TablesReport(ctx, c.src, th, p)
				if err != nil || r.Total.Rounds != 40000 {
					b.Fatalf("%v, %+v", err, r)
				}
			}
		})
	}
}
