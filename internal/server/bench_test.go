package server

import (
	"context"
	"crypto/sha256"
	"fmt"
	"path/filepath"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"sabot"
	"sabot/internal/actor"
	"sabot/internal/store"
	"sabot/internal/store/storetest"
	"sabot/internal/wire"
)

// BenchmarkTableDecision measures a table's path for one player decision,
// as a WebSocket command arrives: the command decoded, checked by the
// actor, its record appended to the store (SQLite: the group commit), the
// decision applied, its events encoded once and handed to the 7 players'
// subscribers (which drain them: the socket writes are not included), the
// answer encoded. Seven players at a venice table in test mode each stand
// on 19 against a dealer's 6; the decision that ends a round also plays the
// dealer and settles, and the next round's forced cards and 7 bets are
// placed in the same op, so an op is a decision with its share of the
// round.
//
//	go test -run XXX -bench TableDecision -benchmem ./internal/server
//
// sqlite is the store of `sabot serve` (synchronous=FULL: each decision
// waits for the disk's sync); sqlite-nosync the same without the sync
// (synchronous=OFF), which leaves the processor's share; postgres a fresh
// schema of $SABOT_TEST_POSTGRES (skipped without it). reference is no
// table at all but a fixed loop (SHA-256 of 64 KiB), so that figures taken
// on machines of other speeds can be scaled to each other.
func BenchmarkTableDecision(b *testing.B) {
	b.Run("sqlite", func(b *testing.B) { benchDecision(b, filepath.Join(b.TempDir(), "bench.db")) })
	b.Run("sqlite-nosync", func(b *testing.B) {
		benchDecision(b, filepath.Join(b.TempDir(), "bench.db")+"?_pragma=synchronous(OFF)")
	})
	b.Run("postgres", func(b *testing.B) { benchDecision(b, storetest.PostgresDSN(b)) })
	b.Run("reference", func(b *testing.B) {
		buf := make([]byte, 64<<10)
		for b.Loop() {
			sha256.Sum256(buf)
		}
	})
}

func benchDecision(b *testing.B, dsn string) {
	ctx := context.Background()
	st, err := store.Open(ctx, dsn)
	if err != nil {
		b.Fatal(err)
	}
	defer st.Close()
	s := &Server{Store: st, TestMode: true, BcryptCost: 4,
		Timing: actor.Timing{BetWindow: time.Hour, Decision: time.Hour, Window: time.Hour}}
	if err := s.Open(); err != nil {
		b.Fatal(err)
	}
	defer s.Close()
	admin, err := s.CreateUser(ctx, "pit", "pit-password", true)
	if err != nil {
		b.Fatal(err)
	}
	v, err := s.CreateTable(ctx, &sabot.Table{Name: "bench", Profile: "venice", TestMode: true})
	if err != nil {
		b.Fatal(err)
	}
	a, err := s.table(v.ID)
	if err != nil {
		b.Fatal(err)
	}
	const players = 7
	var users []*sabot.User
	for i := range players {
		u, err := s.CreateUser(ctx, fmt.Sprint("p", i+1), "player-password", false)
		if err != nil {
			b.Fatal(err)
		}
		if _, _, err := s.Credit(ctx, admin, wire.CreditRequest{CommandID: fmt.Sprint("credit-", i), User: u.Name, Amount: 1 << 40}); err != nil {
			b.Fatal(err)
		}
		users = append(users, u)
	}
	var events atomic.Int64
	for range players {
		sub := actor.NewSubscriber(1024)
		if err := a.Subscribe(ctx, sub, 0, ""); err != nil {
			b.Fatal(err)
		}
		go func() {
			for batch := range sub.C() {
				sub.Taken(batch)
				events.Add(int64(len(batch)))
			}
		}()
	}
	n := 0
	send := func(u *sabot.User, req string) {
		n++
		msg := s.wsCommand(ctx, a, u, []byte(strings.Replace(req, "{", fmt.Sprintf(`{"command_id":"c%d",`, n), 1)))
		if !strings.Contains(string(msg), `"type":"result"`) {
			b.Fatalf("%s: %s", req, msg)
		}
	}
	for i, u := range users {
		send(u, fmt.Sprintf(`{"op":"sit","box":%d}`, i+1))
	}
	// Each player 10 and 9, the dealer 6, then 10 and 9: bust.
	cards := strings.Repeat("TS ", players) + "6D " + strings.Repeat("9H ", players) + "TD 9C"
	round := func() {
		send(admin, fmt.Sprintf(`{"op":"force-cards","cards":%q}`, cards))
		for i, u := range users {
			send(u, fmt.Sprintf(`{"op":"bet","box":%d,"stake":100}`, i+1))
		}
	}
	round()
	box, decisions := 1, 0
	events.Store(0)
	b.ReportAllocs()
	b.ResetTimer()
	cpu0 := processCPU()
	for b.Loop() {
		send(users[box-1], fmt.Sprintf(`{"op":"act","action":"stand","box":%d}`, box))
		decisions++
		if box++; box > players {
			box = 1
			round()
		}
	}
	b.StopTimer()
	b.ReportMetric(float64(processCPU()-cpu0)/float64(decisions), "cpu-ns/op")
	b.ReportMetric(float64(events.Load())/float64(decisions)/players, "events/decision")
	if r, err := st.CheckLedger(ctx); err != nil || !r.OK() {
		b.Fatalf("ledger: %+v %v", r, err)
	}
}
