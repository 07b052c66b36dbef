package report

import (
	"context"
	"encoding/json"
	"fmt"
	"math/rand/v2"
	"slices"
	"testing"
	"time"

	"sabot"
	"sabot/engine"
	"sabot/internal/tablelog"
	"sabot/rules"
)

// advLog is synthLog's rounds with back bettors and voids: behind box 1,
// bk1 bets at Hi-Lo true counts of +2 and up (a back counter) and bk2 a
// third of the rounds at random; every 37th round is void (its deal
// counted, its cards seen, no decisions read). It returns every record,
// in the order of their creation.
func advLog(tb testing.TB, tables, rounds int) ([]*sabot.LogRecord, []*sabot.Table, Period) {
	tb.Helper()
	m, p := synthLog(tb, tables, 12, rounds)
	prof, err := sabot.ProfileOf("vegas-s17", nil)
	if err != nil {
		tb.Fatal(err)
	}
	rng := rand.New(rand.NewPCG(3, 29))
	for _, t := range m.tables {
		rc := map[int64]int{}       // shoe → the running count of its rounds settled
		shoeOf := map[int64]int64{} // round → shoe
		for _, r := range m.byTable[t.ID] {
			switch r.Kind {
			case sabot.LogDeal:
				var d tablelog.DealBets
				if err := json.Unmarshal(r.Payload, &d); err != nil {
					tb.Fatal(err)
				}
				shoeOf[r.RoundNo] = r.ShoeNo
				tc := float64(rc[r.ShoeNo]) / max(float64(prof.Decks*52-d.ShoePos)/52, 0.5)
				if len(d.Bets) > 0 && tc >= BackCount {
					d.Bets = append(d.Bets, engine.PlacedBet{Player: "bk1", Box: 1, Stake: 2500})
				}
				if len(d.Bets) > 0 && rng.IntN(3) == 0 {
					d.Bets = append(d.Bets, engine.PlacedBet{Player: "bk2", Box: d.Bets[0].Box, Stake: 1500})
				}
				if r.Payload, err = json.Marshal(d); err != nil {
					tb.Fatal(err)
				}
			case sabot.LogSettle:
				var s tablelog.SettleRead
				if err := json.Unmarshal(r.Payload, &s); err != nil {
					tb.Fatal(err)
				}
				for _, c := range s.Record.Cards {
					rc[shoeOf[r.RoundNo]] += CountHiLo.Tags[c.Value()]
				}
				if s.Round%37 == 0 {
					r.Kind, s.Void, s.Bets, s.House = sabot.LogVoid, true, nil, 0
					if r.Payload, err = json.Marshal(s); err != nil {
						tb.Fatal(err)
					}
				}
			}
		}
	}
	var all []*sabot.LogRecord
	for _, t := range m.tables {
		all = append(all, m.byTable[t.ID]...)
	}
	slices.SortFunc(all, order)
	return all, m.tables, p
}

// advJSON is the advantage report of a period, as JSON.
func advJSON(t testing.TB, src Source, p Period, ao AdvantageOptions) string {
	t.Helper()
	r, err := AdvantageReport(context.Background(), src, p, ao)
	return indented(t, r, err)
}

// countingRollups counts the records a report reads.
type countingRollups struct {
	*memRollups
	read int
}

func (c *countingRollups) Find(ctx context.Context, q sabot.LogQuery) ([]*sabot.LogRecord, error) {
	recs, err := c.memRollups.Find(ctx, q)
	c.read += len(recs)
	return recs, err
}

// The advantage report reads the same from the rollups as from the log
// alone, byte for byte, for periods cut anywhere in an hour, across a
// midnight and of whole days: rolled up in pages (a round's deal and its
// settlement often in two, its decisions then read at the settlement with
// its deal read again), with rounds in play when the rollup ran and when
// the report runs (their bets counted, their decisions not yet), records
// past the marks, a round written late into an hour rolled up already
// (of a shoe of its own, with a back bettor), voids, back bettors and
// counters; the rows are read, not the log; a roller whose mark moved
// meanwhile writes nothing; and the rounds' list (Pairs) is the log's.
func TestAdvantageRollupsAgreeWithTheLog(t *testing.T) {
	ctx := context.Background()
	all, tables, p := advLog(t, 2, 6000) // a round a minute at each table: 3,000 minutes, 2 days and more
	periods := []Period{p,
		{p.From.Add(17 * time.Minute), p.To.Add(-23 * time.Minute)},
		{p.From.Add(5 * time.Hour), p.From.Add(9 * time.Hour)},
		{p.From.Add(5*time.Hour + time.Minute), p.From.Add(5*time.Hour + 59*time.Minute)},
		{p.From.Add(3*time.Hour + 50*time.Minute), p.From.Add(6*time.Hour + 10*time.Minute)},
		{p.From.Add(20 * time.Hour), p.From.Add(44 * time.Hour)},               // across a midnight, no whole day
		{p.From.Add(5 * time.Hour), p.To.Add(-3 * time.Hour)},                  // a whole day and hours either side
		{p.From.Add(24 * time.Hour), p.From.Add(48 * time.Hour)},               // a day
		{p.From.Add(24*time.Hour + time.Second), p.From.Add(48*time.Hour - 1)}, // a day, cut within its ends' hours
		{p.From.Add(16*time.Hour + 40*time.Second), p.From.Add(16*time.Hour + 41*time.Minute)},
	}
	check := func(what string, m *memLog, ro *memRollups) {
		t.Helper()
		for _, q := range periods {
			want, got := advJSON(t, m, q, AdvantageOptions{}), advJSON(t, ro, q, AdvantageOptions{})
			if got != want {
				t.Fatalf("%s, %s to %s: from the rollups\n%s\nfrom the log\n%s", what, q.From.Format(time.DateTime), q.To.Format(time.DateTime), got, want)
			}
		}
	}
	// Half the play rolled up in pages of 97 records, each table's last
	// round in play (dealt, not yet settled), then the rest written: the
	// report reads it past the marks.
	cut := p.From.Add(1000*time.Minute + 40*time.Second)
	half := logUpTo(tables, all, cut)
	if n := len(half.byKind[sabot.LogDeal]) - len(half.byKind[sabot.LogSettle]) - len(half.byKind[sabot.LogVoid]); n != 2 {
		t.Fatalf("%d rounds in play at the cut, want 2", n)
	}
	ro := newMemRollups(half, 97)
	check("nothing rolled up", half, ro)
	done, err := RollUp(ctx, ro, nil, RollupAdvantage)
	if err != nil || done.Tables != 2 || done.Records == 0 || done.Left != 0 {
		t.Fatalf("RollUp: %+v, %v", done, err)
	}
	check("all rolled up, a round in play", half, ro)
	whole := logUpTo(tables, all, p.To.Add(time.Hour))
	ro.memLedger = memLedger{whole}
	check("records past the marks", whole, ro)
	// A round written late into an hour rolled up (its seqs after the
	// mark), of a shoe of its own, a back bettor behind its box: read
	// from the log, then rolled up into its hour. Its cards and decisions
	// are a round's of table 1 with decisions at the index plays' hands.
	var dl, st *sabot.LogRecord
	for _, r := range whole.byTable[1] {
		if r.Kind == sabot.LogDeal {
			dl = r
			continue
		}
		var s tablelog.SettleRead
		if r.Kind != sabot.LogSettle || json.Unmarshal(r.Payload, &s) != nil || dl == nil {
			continue
		}
		var n int
		indexDecisions(replayer{}, mustProfile(t), s.Record, 0, 20, func(string, int, bool, float64) { n++ })
		if n > 0 {
			st = r
			break
		}
	}
	if st == nil {
		t.Fatal("no round of table 1 with a decision at an index play's hand")
	}
	at := p.From.Add(5*time.Hour + 7*time.Minute)
	var d tablelog.DealBets
	var s tablelog.SettleRead
	json.Unmarshal(dl.Payload, &d)
	json.Unmarshal(st.Payload, &s)
	d.Round, d.Shoe, d.ShoePos, s.Round = 99999, 99999, 20, 99999
	d.Bets = append(d.Bets, engine.PlacedBet{Player: "bk3", Box: d.Bets[0].Box, Stake: 4000})
	dp, _ := json.Marshal(d)
	sp, _ := json.Marshal(s)
	whole.add(&sabot.LogRecord{TableID: 1, Kind: sabot.LogDeal, RoundNo: 99999, ShoeNo: 99999, Created: at, Payload: dp})
	slices.SortFunc(whole.byKind[sabot.LogDeal], order)
	check("a late deal", whole, ro)
	whole.add(&sabot.LogRecord{TableID: 1, Kind: sabot.LogSettle, RoundNo: 99999, Created: at.Add(40 * time.Second), Payload: sp})
	slices.SortFunc(whole.byKind[sabot.LogSettle], order)
	check("a late round", whole, ro)
	if done, err = RollUp(ctx, ro, nil, RollupAdvantage); err != nil || done.Tables != 2 {
		t.Fatalf("RollUp again: %+v, %v", done, err)
	}
	check("rolled up again", whole, ro)
	if done, err = RollUp(ctx, ro, nil, RollupAdvantage); err != nil || done.Tables != 0 || done.Records != 0 {
		t.Fatalf("RollUp with nothing new: %+v, %v", done, err)
	}
	// A roller that runs on while the log grows (as the server's does,
	// its shoes' histories read before the rounds in play settled): the
	// same rows.
	ro2 := newMemRollups(logUpTo(tables, all, cut), 97)
	run := advantageKind.run(ro2, ro2)
	rollAll := func() {
		t.Helper()
		marks, _, _ := ro2.RollupRows(ctx, RollupAdvantage, 0)
		for _, tb := range tables {
			if _, err := rollTable(ctx, ro2, ro2, advantageKind, run, tb, marks[tb.ID], func(int) {}); err != nil {
				t.Fatal(err)
			}
		}
	}
	rollAll()
	ro2.memLedger = memLedger{whole}
	rollAll()
	if fmt.Sprint(ro2.rows) != fmt.Sprint(ro.rows) {
		t.Error("a roller running on while the log grew made other rows")
	}
	check("a roller running on", whole, ro2)
	// What the report says is worth comparing: counters flagged, back
	// bettors scored, decisions at the index plays' hands.
	r, err := AdvantageReport(ctx, ro, p, AdvantageOptions{})
	if err != nil {
		t.Fatal(err)
	}
	var flagged, decisions int
	backs := map[string]*BackScore{}
	for _, x := range r.Players {
		if x.Flagged {
			flagged++
		}
		decisions += x.Index.Decisions
		if x.Back != nil {
			backs[x.Player] = x.Back
		}
	}
	if b := backs["bk1"]; b == nil || !b.Flagged || b.CountBacked < BackCount || b.Backed == 0 || b.Rounds <= b.Backed {
		t.Errorf("the back counter: %+v", b)
	}
	if b := backs["bk2"]; b == nil || b.Flagged || b.Backed == 0 {
		t.Errorf("the random back bettor: %+v", b)
	}
	if b := backs["bk3"]; b == nil || b.Rounds != 1 || b.Backed != 1 {
		t.Errorf("the late round's back bettor: %+v", b)
	}
	if flagged < 3 || decisions < 100 {
		t.Errorf("%d players flagged, %d decisions at the index plays' hands", flagged, decisions)
	}
	// The rows are read, not the log: a day's report reads a few hundred
	// records (its shoes' where it is cut, the records past the marks:
	// none), not its 2,880 rounds.
	day := Period{p.From.Add(24 * time.Hour), p.From.Add(48 * time.Hour)}
	c := &countingRollups{memRollups: ro}
	if got, want := advJSON(t, c, day, AdvantageOptions{}), advJSON(t, whole, day, AdvantageOptions{}); got != want || c.read > 50 {
		t.Errorf("a day from the rows read %d records", c.read)
	}
	// The rounds' list is the log's.
	c.read = 0
	if got, want := advJSON(t, c, day, AdvantageOptions{Pairs: true}), advJSON(t, whole, day, AdvantageOptions{Pairs: true}); got != want || c.read < 2880 {
		t.Errorf("with the rounds' list, %d records read; the reports differ: %v", c.read, got != want)
	}
	// A roller whose mark moved meanwhile writes nothing.
	before := fmt.Sprint(ro.rows[RollupAdvantage])
	if _, err := rollTable(ctx, ro, ro, advantageKind, advantageKind.run(ro, ro), tables[0], 1, func(int) {}); sabot.ErrorCode(err) != sabot.ECONFLICT {
		t.Fatalf("a roller from a stale mark: %v", err)
	}
	if fmt.Sprint(ro.rows[RollupAdvantage]) != before {
		t.Fatal("a roller from a stale mark wrote rows")
	}
}

func mustProfile(t testing.TB) *rules.Profile {
	p, err := sabot.ProfileOf("vegas-s17", nil)
	if err != nil {
		t.Fatal(err)
	}
	return p
}

// BenchmarkAdvantageReport is the advantage report of a week at 4 tables
// (a round a minute at each: 40,000 rounds, back bettors among them) from
// the log alone and from the rollups (kept in memory: the report's side
// of the work; docs/pit.md has a store's figures).
func BenchmarkAdvantageReport(b *testing.B) {
	ctx := context.Background()
	all, tables, p := advLog(b, 4, 40000)
	m := newMemLog(tables)
	for _, r := range all {
		m.add(r)
	}
	ro := newMemRollups(m, pageSize)
	if _, err := RollUp(ctx, ro, nil, RollupAdvantage); err != nil {
		b.Fatal(err)
	}
	for _, c := range []struct {
		name string
		src  Source
	}{{"log", m}, {"rollups", ro}} {
		b.Run(c.name, func(b *testing.B) {
			for b.Loop() {
				r, err := AdvantageReport(ctx, c.src, p, AdvantageOptions{})
				if err != nil || len(r.Players) < 12 {
					b.Fatalf("%v, %+v", err, r)
				}
			}
		})
	}
}
