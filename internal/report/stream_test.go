package report

import (
	"cmp"
	"context"
	"fmt"
	"runtime"
	"slices"
	"testing"
	"time"

	"sabot"
	"sabot/internal/tablelog"
	"sabot/money"
)

// memLog is a store's log in memory, as a Source: Find answers the queries
// the reports ask, in the store's order (internal/store/sqlstore's Find).
type memLog struct {
	tables  []*sabot.Table
	byKind  map[string][]*sabot.LogRecord // (created, table, seq)
	byTable map[int64][]*sabot.LogRecord  // seq
	byShoe  map[[2]int64][]*sabot.LogRecord
	byRound map[[2]int64][]*sabot.LogRecord
	// sample, when set, is called on each page read across tables.
	sample func()
}

func newMemLog(tables []*sabot.Table) *memLog {
	return &memLog{tables: tables, byKind: map[string][]*sabot.LogRecord{}, byTable: map[int64][]*sabot.LogRecord{},
		byShoe: map[[2]int64][]*sabot.LogRecord{}, byRound: map[[2]int64][]*sabot.LogRecord{}}
}

// add appends records in the order of their creation.
func (m *memLog) add(recs ...*sabot.LogRecord) {
	for _, r := range recs {
		r.Seq = int64(len(m.byTable[r.TableID]) + 1)
		m.byKind[r.Kind] = append(m.byKind[r.Kind], r)
		m.byTable[r.TableID] = append(m.byTable[r.TableID], r)
		if r.ShoeNo != 0 {
			k := [2]int64{r.TableID, r.ShoeNo}
			m.byShoe[k] = append(m.byShoe[k], r)
		}
		if r.RoundNo != 0 {
			k := [2]int64{r.TableID, r.RoundNo}
			m.byRound[k] = append(m.byRound[k], r)
		}
	}
}

func order(a, b *sabot.LogRecord) int {
	return cmp.Or(a.Created.Compare(b.Created), cmp.Compare(a.TableID, b.TableID), cmp.Compare(a.Seq, b.Seq))
}

func (m *memLog) Tables(context.Context) ([]*sabot.Table, error) { return m.tables, nil }

func (m *memLog) Find(_ context.Context, q sabot.LogQuery) ([]*sabot.LogRecord, error) {
	var out []*sabot.LogRecord
	keep := func(r *sabot.LogRecord) bool {
		return slices.Contains(q.Kinds, r.Kind) && (q.Since.IsZero() || !r.Created.Before(q.Since)) &&
			(q.Shoe == 0 || r.ShoeNo == q.Shoe)
	}
	if q.TableID != 0 {
		var recs []*sabot.LogRecord
		switch {
		case q.Shoe != 0:
			recs = m.byShoe[[2]int64{q.TableID, q.Shoe}]
		case q.FromRound != 0:
			for n := q.FromRound; n <= q.ToRound; n++ {
				recs = append(recs, m.byRound[[2]int64{q.TableID, n}]...)
			}
			slices.SortFunc(recs, func(a, b *sabot.LogRecord) int { return cmp.Compare(a.Seq, b.Seq) })
		default:
			recs = m.byTable[q.TableID]
		}
		for _, r := range recs {
			if keep(r) && (q.Before == nil || r.Seq < q.Before.Seq) && r.Seq > q.After {
				out = append(out, r)
			}
		}
		if q.Newest {
			slices.Reverse(out)
		}
		if q.Limit > 0 && len(out) > q.Limit {
			out = out[:q.Limit]
		}
		return out, nil
	}
	if m.sample != nil {
		m.sample()
	}
	if len(q.Kinds) != 1 || !q.Newest || q.Before == nil {
		return nil, fmt.Errorf("memLog: a query across tables is of one kind, the newest first, from a cursor")
	}
	recs := m.byKind[q.Kinds[0]]
	i, _ := slices.BinarySearchFunc(recs, q.Before, order) // the first not before the cursor
	for i--; i >= 0 && (q.Limit == 0 || len(out) < q.Limit); i-- {
		if !keep(recs[i]) {
			break
		}
		out = append(out, recs[i])
	}
	return out, nil
}

// synthLog makes a log of rounds at tables of vegas-s17, a round a minute
// at each, from the start of 2026; a fifth of the players count.
func synthLog(tb testing.TB, tables, players, rounds int) (*memLog, Period) {
	tb.Helper()
	from := time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC)
	var ts []*sabot.Table
	for i := range tables {
		ts = append(ts, &sabot.Table{ID: int64(i + 1), Name: fmt.Sprint("t", i+1), Profile: "vegas-s17"})
	}
	var names []string
	for i := range players {
		names = append(names, fmt.Sprintf("p%03d", i))
	}
	m := newMemLog(ts)
	s := &Synth{Tables: ts, Players: names, Counters: 5, From: from, Every: time.Minute, Unit: 1000, Seed: 1}
	// The records of all tables in the order of their creation: a
	// round's deal, then its settlement, which every other table's deal
	// in between precedes.
	var pending []*sabot.LogRecord
	for range rounds {
		r, err := s.Next()
		if err != nil {
			tb.Fatal(err)
		}
		pending = append(pending, r.Deal, r.Settle)
	}
	slices.SortStableFunc(pending, func(a, b *sabot.LogRecord) int {
		return cmp.Or(a.Created.Compare(b.Created), cmp.Compare(a.TableID, b.TableID))
	})
	m.add(pending...)
	return m, Period{From: from, To: from.Add(time.Duration(rounds/tables+1) * time.Minute)}
}

// The reports stream: a report of a log in memory equals, for the players'
// ratings, the rounds' sums counted here, and its sessions are the runs
// Synth sat; the counters are flagged and the flat bettors not.
func TestReportsOnSynth(t *testing.T) {
	m, p := synthLog(t, 4, 12, 6000)
	ctx := context.Background()
	pl, err := PlayersReport(ctx, m, NewTheories(), p, PlayersOptions{NoErrors: true})
	if err != nil {
		t.Fatal(err)
	}
	type sums struct {
		rounds       int64
		initial, win money.Amount
	}
	want := map[string]*sums{}
	for _, r := range m.byKind[sabot.LogSettle] {
		var s tablelog.SettleRead
		if err := tablelog.Decode(r, &s); err != nil {
			t.Fatal(err)
		}
		mine := map[string]bool{}
		for _, b := range s.Bets {
			if want[b.Player] == nil {
				want[b.Player] = &sums{}
			}
			want[b.Player].win -= b.Net
			if b.Kind == "main" {
				want[b.Player].initial += b.Stake
			}
			mine[b.Player] = true
		}
		for name := range mine {
			want[name].rounds++
		}
	}
	if len(pl.Players) != len(want) {
		t.Fatalf("%d players rated, want %d", len(pl.Players), len(want))
	}
	for _, r := range pl.Players {
		w := want[r.Player]
		if r.Rounds != w.rounds || r.Initial != w.initial || r.Win != w.win {
			t.Errorf("%s: %d rounds, %d staked, house won %d; want %d, %d, %d", r.Player, r.Rounds, r.Initial, r.Win, w.rounds, w.initial, w.win)
		}
		// A session is 30 to 300 rounds a minute apart (a player may sit
		// twice at a table, or at two tables at once).
		if r.Sessions < 1 || r.Seconds < 60*int64(r.Sessions) || r.Seconds > 60*r.Rounds+60 {
			t.Errorf("%s: %d sessions of %d s for %d rounds", r.Player, r.Sessions, r.Seconds, r.Rounds)
		}
	}
	adv, err := AdvantageReport(ctx, m, p, AdvantageOptions{})
	if err != nil {
		t.Fatal(err)
	}
	for i, a := range adv.Players {
		counter := i%5 == 0 // p000, p005, p010 count
		if a.Flagged != counter {
			t.Errorf("%s (counts: %v): flagged %v, Hi-Lo %+v", a.Player, counter, a.Flagged, a.HiLo)
		}
	}
}

// BenchmarkReportMemory runs the players' and the advantage reports over
// logs of 5,000 to 200,000 rounds (8 tables, 40 players) and reports,
// beside -benchmem's allocations (which grow with the rounds: each record
// is read and decoded), the most heap they held at once (heap-B, sampled
// after a collection at each page of the period's records, less the log's
// own memory): the players' report holds the same for 40 times the
// rounds; the advantage report's grows with each player's distinct pairs
// of a bet and a count on the grid (Scorer), towards their bound, not
// with the rounds. The collections take most of ns/op: the reports' speed
// is measured on real stores (docs/pit.md).
func BenchmarkReportMemory(b *testing.B) {
	for _, rounds := range []int{5000, 50000, 200000} {
		m, p := synthLog(b, 8, 40, rounds)
		for _, name := range []string{"players", "advantage"} {
			b.Run(fmt.Sprintf("%s/rounds=%d", name, rounds), func(b *testing.B) {
				var ms runtime.MemStats
				var base, peak uint64
				m.sample = func() {
					runtime.GC()
					runtime.ReadMemStats(&ms)
					peak = max(peak, ms.HeapAlloc)
				}
				defer func() { m.sample = nil }()
				th := NewTheories()
				if name == "players" {
					// The theory (seconds, once) outside the measure.
					if _, err := th.Of(context.Background(), "vegas-s17", nil); err != nil {
						b.Fatal(err)
					}
				}
				runtime.GC()
				runtime.ReadMemStats(&ms)
				base = ms.HeapAlloc
				b.ResetTimer()
				for b.Loop() {
					var err error
					if name == "players" {
						_, err = PlayersReport(context.Background(), m, th, p, PlayersOptions{NoErrors: true})
					} else {
						_, err = AdvantageReport(context.Background(), m, p, AdvantageOptions{})
					}
					if err != nil {
						b.Fatal(err)
					}
				}
				b.ReportMetric(float64(peak-min(base, peak)), "heap-B")
			})
		}
	}
}
