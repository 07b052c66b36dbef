package report

import (
	"context"
	"maps"
	"math/rand/v2"
	"slices"
	"testing"
	"time"

	"sabot"
	"sabot/internal/tablelog"
)

// A player who left while his round was in play (the settlement's left)
// ends his session then: the 598 s he played, not the 657 s until the
// table's defaults settled his hands. A player who stayed ends at the
// settle; a departure read outside the round (an old or odd record) is
// not believed.
func TestSessionEndsWhenHeLeft(t *testing.T) {
	start := time.Date(2026, 3, 1, 20, 0, 0, 0, time.UTC)
	end := start.Add(657 * time.Second)
	s := &tablelog.SettleRead{Round: 7, Bets: []tablelog.BetLine{
		{Player: "ana", Box: 1, Hand: 1, Kind: "main", Stake: 100},
		{Player: "ben", Box: 2, Hand: 1, Kind: "main", Stake: 100},
		{Player: "eve", Box: 3, Hand: 1, Kind: "main", Stake: 100},
	}, Left: map[string]time.Time{"ana": start.Add(598 * time.Second), "eve": start.Add(-time.Second)}}
	var r playersRow
	r.round(s, start, end, "h", nil, "")
	for name, want := range map[string]int64{"ana": 598, "ben": 657, "eve": 657} {
		if got := r.Players[name].Sessions.Seconds(); got != want {
			t.Errorf("%s: %d s, want %d", name, got, want)
		}
	}
}

// A player's sessions at a table are the same whichever way his rounds
// are cut into runs and joined (tableSessions.then), and are those counted
// round by round: a new session where a round starts more than SessionGap
// after the one before ended, each session's seconds from its first deal
// to its last settlement, truncated.
func TestTableSessionsJoin(t *testing.T) {
	rng := rand.New(rand.NewPCG(29, 6))
	at := time.Date(2026, 3, 1, 0, 0, 0, 0, time.UTC)
	for trial := range 500 {
		n := 1 + rng.IntN(40)
		type round struct{ start, end time.Time }
		var rounds []round
		for range n {
			// Gaps about SessionGap, some exactly it (still one session).
			var gap time.Duration
			switch rng.IntN(4) {
			case 0:
				gap = SessionGap
			case 1:
				gap = SessionGap + time.Duration(1+rng.IntN(int(time.Hour)))
			default:
				gap = time.Duration(rng.IntN(int(SessionGap)))
			}
			start := at.Add(gap)
			at = start.Add(time.Duration(rng.IntN(int(3 * time.Minute))))
			rounds = append(rounds, round{start, at})
		}
		// Counted round by round.
		var want []round
		for _, r := range rounds {
			if k := len(want); k > 0 && r.start.Sub(want[k-1].end) <= SessionGap {
				want[k-1].end = r.end
			} else {
				want = append(want, r)
			}
		}
		var secs int64
		for _, s := range want {
			secs += int64(s.end.Sub(s.start).Seconds())
		}
		// Cut into runs anywhere, each run's sessions made round by
		// round, the runs joined in order, and also the other way round
		// (the log's reading: each round put before the rest).
		cuts := []int{0}
		for i := 1; i < n; i++ {
			if rng.IntN(3) == 0 {
				cuts = append(cuts, i)
			}
		}
		cuts = append(cuts, n)
		var joined tableSessions
		for c := 1; c < len(cuts); c++ {
			var run tableSessions
			for _, r := range rounds[cuts[c-1]:cuts[c]] {
				run = run.then(oneRound(r.start, r.end))
			}
			joined = joined.then(run)
		}
		var back tableSessions
		for _, r := range slices.Backward(rounds) {
			back = oneRound(r.start, r.end).then(back)
		}
		for _, got := range []tableSessions{joined, back} {
			if got.N != int64(len(want)) || got.Seconds() != secs {
				t.Fatalf("trial %d, %d rounds cut at %v: %d sessions of %d s, want %d of %d s", trial, n, cuts, got.N, got.Seconds(), len(want), secs)
			}
		}
	}
}

// The cost of errors reads the same from its rollups (valued once, when
// rolled up) as from the log, for periods cut anywhere, with records
// past the marks.
func TestErrorRollupsAgree(t *testing.T) {
	ctx := context.Background()
	full, p := synthLog(t, 2, 6, 500)
	ro := newMemRollups(full, 61)
	// half is rolled up over the log of the first two hours (and a
	// half), then reads the whole log: the records after its marks from
	// the log.
	var recs []*sabot.LogRecord
	for _, id := range slices.Sorted(maps.Keys(full.byTable)) {
		recs = append(recs, full.byTable[id]...)
	}
	slices.SortFunc(recs, order)
	prefix := logUpTo(full.tables, recs, p.From.Add(150*time.Minute))
	half := newMemRollups(prefix, 61)
	for _, r := range []*memRollups{ro, half} {
		if _, err := RollUp(ctx, r, nil, RollupPlayers, RollupErrors); err != nil {
			t.Fatal(err)
		}
	}
	half.memLedger = memLedger{full}
	for _, q := range []Period{p, {p.From.Add(17 * time.Minute), p.To.Add(-23 * time.Minute)}, {p.From.Add(time.Hour), p.From.Add(3 * time.Hour)}} {
		want := playersJSON(t, memLedger{full}, q, false)
		for _, src := range []*memRollups{ro, half} {
			if got := playersJSON(t, src, q, false); got != want {
				t.Fatalf("%s to %s: from the rollups\n%s\nfrom the log\n%s", q.From.Format(time.TimeOnly), q.To.Format(time.TimeOnly), got, want)
			}
		}
	}
	r, err := PlayersReport(ctx, ro, NewTheories(), p, PlayersOptions{})
	if err != nil {
		t.Fatal(err)
	}
	var decisions, errors int64
	for _, x := range r.Players {
		decisions += x.Decisions
		errors += x.Errors
	}
	if decisions < 400 || errors == 0 {
		t.Errorf("%d decisions valued, %d errors: the test values too few", decisions, errors)
	}
}

// A store rolled up before errors/2 keeps rows of errors/1, which have no
// cost against basic strategy nor stakes by the count: they are left
// alone, the report reads the log until the errors' kind of now (errors/3)
// is rolled up, and then the new rows, the same answer either way.
func TestOldErrorRollupsAreRolledUpAnew(t *testing.T) {
	ctx := context.Background()
	full, p := synthLog(t, 1, 6, 200)
	ro := newMemRollups(full, 61)
	if _, err := RollUp(ctx, ro, nil, RollupPlayers, RollupErrors); err != nil {
		t.Fatal(err)
	}
	// The rows as errors/1 wrote them (here: with nothing in them), and
	// no errors/2 yet.
	old := map[int64]map[spanAt][]byte{}
	for id, rows := range ro.rows[RollupErrors] {
		old[id] = map[spanAt][]byte{}
		for at := range rows {
			old[id][at] = []byte(`{"players":{}}`)
		}
	}
	ro.rows["errors/1"], ro.marks["errors/1"] = old, ro.marks[RollupErrors]
	delete(ro.rows, RollupErrors)
	delete(ro.marks, RollupErrors)
	want := playersJSON(t, memLedger{full}, p, false)
	if got := playersJSON(t, ro, p, false); got != want {
		t.Fatalf("with rows of errors/1 only:\n%s\nfrom the log\n%s", got, want)
	}
	if _, err := RollUp(ctx, ro, nil, RollupErrors); err != nil {
		t.Fatal(err)
	}
	if len(ro.rows[RollupErrors]) == 0 {
		t.Fatal(RollupErrors + " not rolled up anew")
	}
	if got := playersJSON(t, ro, p, false); got != want {
		t.Fatalf("rolled up anew:\n%s\nfrom the log\n%s", got, want)
	}
}
