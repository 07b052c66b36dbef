package report

import (
	"context"
	"testing"
	"time"

	"sabot"
)

// BenchmarkPlayersReport is the players' report (its errors' cost aside:
// milliseconds a round from the log) of a week at 4 tables (a round a
// minute at each: 40,000 rounds), from the log alone and from the rollups
// (kept in memory: the report's side of the work, reading the rows).
func BenchmarkPlayersReport(b *testing.B) {
	ctx := context.Background()
	m, p := synthLog(b, 4, 12, 40000)
	ro := newMemRollups(m, pageSize)
	if _, err := RollUp(ctx, ro, nil, RollupPlayers); err != nil {
		b.Fatal(err)
	}
	th := NewTheories()
	if _, err := th.Of(ctx, "vegas-s17", nil); err != nil {
		b.Fatal(err)
	}
	for _, c := range []struct {
		name string
		src  Source
	}{{"log", memLedger{m}}, {"rollups", ro}} {
		b.Run(c.name, func(b *testing.B) {
			for b.Loop() {
				r, err := PlayersReport(ctx, c.src, th, p, PlayersOptions{NoErrors: true})
				if err != nil || len(r.Players) < 12 {
					b.Fatalf("%v, %+v", err, r)
				}
			}
		})
	}
}

// BenchmarkRollupRowBytes reports the bytes of a day's row of each kind
// (day-B: their mean over the days of 4 tables, a round a minute at each
// for a week; the errors' kind of 1 table for a day, its rollup being
// milliseconds a round), and of an hour's (hour-B); the loop does nothing.
func BenchmarkRollupRowBytes(b *testing.B) {
	ctx := context.Background()
	m, _ := synthLog(b, 4, 12, 40000)
	ro := newMemRollups(m, pageSize)
	if _, err := RollUp(ctx, ro, nil, RollupTables, RollupPlayers); err != nil {
		b.Fatal(err)
	}
	e, _ := synthLog(b, 1, 12, 1440)
	ero := newMemRollups(e, pageSize)
	if _, err := RollUp(ctx, ero, nil, RollupErrors); err != nil {
		b.Fatal(err)
	}
	all, tables, _ := advLog(b, 4, 40000)
	am := newMemLog(tables)
	for _, r := range all {
		am.add(r)
	}
	aro := newMemRollups(am, pageSize)
	if _, err := RollUp(ctx, aro, nil, RollupAdvantage); err != nil {
		b.Fatal(err)
	}
	for _, c := range []struct {
		ro   *memRollups
		kind string
	}{{ro, RollupTables}, {ro, RollupPlayers}, {ero, RollupErrors}, {aro, RollupAdvantage}} {
		b.Run(c.kind[:len(c.kind)-2], func(b *testing.B) {
			var n [2]int
			var bytes [2]int
			for _, rows := range c.ro.rows[c.kind] {
				for at, d := range rows {
					i := 0
					if at.span == sabot.RollupDay {
						i = 1
					}
					n[i]++
					bytes[i] += len(d)
				}
			}
			for b.Loop() {
				_ = time.Now
			}
			b.ReportMetric(float64(bytes[1])/float64(n[1]), "day-B")
			b.ReportMetric(float64(bytes[0])/float64(n[0]), "hour-B")
		})
	}
}
