package actor

import (
	"context"
	"fmt"
	"os"
	"sabot/internal/recall"
	"testing"
	"time"
)

// BenchmarkLogReads measures the reads that used to scan a table's whole
// log on a log of about 8,300 records and on one ten
// times as long: a round's recall (GET /api/rounds/{id}), a shoe's page
// with its rounds' cards (GET /api/shoes/{id}), a player's newest rounds
// and a page further back (GET /api/me/rounds). Their cost stays flat; op=log
// reads the whole log, as they did, for comparison.
//
//	go test -run XXX -bench LogReads -count 6 ./internal/server | benchstat -col /log -
func BenchmarkLogReads(b *testing.B) {
	parent := b
	for _, size := range []struct {
		name string
		n    int
	}{{"8k", 8300}, {"80k", 83000}} {
		p := func() *playedTable { return benchLog(parent, size.n) }
		run := func(op string, f func(b *testing.B, p *playedTable, i int)) {
			b.Run("op="+op+"/log="+size.name, func(b *testing.B) {
				t := p()
				b.ReportAllocs()
				b.ResetTimer()
				i := 0
				for b.Loop() {
					f(b, t, i)
					i++
				}
			})
		}
		ctx := context.Background()
		run("recall", func(b *testing.B, p *playedTable, i int) {
			rounds := p.a.t.RoundNo() - 1
			if _, err := recall.Recall(ctx, p.st, recall.RoundID(p.a.cfg.ID, 1+(i*7919)%rounds)); err != nil {
				b.Fatal(err)
			}
		})
		run("shoe", func(b *testing.B, p *playedTable, i int) {
			shoes := p.a.t.ShoeNo() - 1
			rep, err := recall.ShoeInfo(ctx, p.st, recall.ShoeID(p.a.cfg.ID, 1+(i*7919)%shoes), 0, recall.DefaultShoePage)
			if err != nil || !rep.Revealed || len(rep.Dealt) == 0 {
				b.Fatalf("%+v %v", rep, err)
			}
		})
		run("myrounds", func(b *testing.B, p *playedTable, i int) {
			if rs, err := recall.PlayerRounds(ctx, p.st, p.users[0], "", recall.DefaultRoundsPage); err != nil || len(rs) != recall.DefaultRoundsPage {
				b.Fatalf("%d rounds, %v", len(rs), err)
			}
		})
		run("myrounds-before", func(b *testing.B, p *playedTable, i int) {
			rounds := p.a.t.RoundNo() - 1
			before := recall.RoundID(p.a.cfg.ID, 100+(i*7919)%(rounds-100))
			if rs, err := recall.PlayerRounds(ctx, p.st, p.users[0], before, recall.DefaultRoundsPage); err != nil || len(rs) != recall.DefaultRoundsPage {
				b.Fatalf("%d rounds, %v", len(rs), err)
			}
		})
		run("log", func(b *testing.B, p *playedTable, i int) {
			if _, err := p.st.Log(ctx, p.a.cfg.ID, 1); err != nil {
				b.Fatal(err)
			}
		})
	}
}

// benchLogs are the logs of BenchmarkLogReads, built once for all its runs.
var benchLogs = map[int]*playedTable{}

// benchLog returns a table whose log has about n records, played by three
// players who bet on every round and let the server decide for them.
func benchLog(b *testing.B, n int) *playedTable {
	b.Helper()
	if p := benchLogs[n]; p != nil {
		return p
	}
	start := time.Now()
	// Kept for the process's other runs of the benchmark (-count), then
	// left to the system's temporary files.
	dir, err := os.MkdirTemp("", "sabot-logreads-")
	if err != nil {
		b.Fatal(err)
	}
	p := newPlayedTableIn(b, dir, testSeedKey, "vegas-s17", nil, 0)
	for _, name := range []string{"ana", "ben", "cy"} {
		p.player(b, name)
	}
	for p.a.lastSeq < int64(n) {
		p.rounds(b, 100)
	}
	fmt.Printf("# a log of %d records (%d rounds, %d shoes), played in %v\n", p.a.lastSeq, p.a.t.RoundNo(), p.a.t.ShoeNo(), time.Since(start).Round(time.Millisecond))
	benchLogs[n] = p
	return p
}
