package server

import (
	"bytes"
	"context"
	"fmt"
	"net/http"
	"net/http/httptest"
	"path/filepath"
	"strings"
	"sync/atomic"
	"syscall"
	"testing"
	"time"

	"github.com/coder/websocket"

	"sabot"
	"sabot/internal/actor"
	"sabot/internal/client"
	"sabot/internal/store"
	"sabot/internal/wire"
)

// BenchmarkDecisionSockets measures one decision's whole server path with
// the table's 7 players watching on their own WebSockets, over loopback:
// the decision read from the player's socket, decoded, checked, appended
// (group commit), applied, its events encoded and written to the 7 sockets
// (framed, gathered, sent), its answer written back, and the clients
// reading them (the clients only look for their answers: they parse
// nothing). The table is BenchmarkTableDecision's: seven players stand on
// 19 against a dealer's 6, the decision that ends a round plays the dealer
// and settles, and the next round's forced cards (the pit's command, not on
// a socket) and the 7 bets (on the players' sockets) come in the same op.
// Its figure is the server's and the clients' processor time together, as
// they share the machine; the sockets are what BenchmarkTableDecision
// leaves out.
//
//	go test -run XXX -bench DecisionSockets -benchmem ./internal/server
func BenchmarkDecisionSockets(b *testing.B) {
	b.Run("sqlite", func(b *testing.B) { benchSockets(b, filepath.Join(b.TempDir(), "bench.db")) })
	b.Run("sqlite-nosync", func(b *testing.B) {
		benchSockets(b, filepath.Join(b.TempDir(), "bench.db")+"?_pragma=synchronous(OFF)")
	})
}

func benchSockets(b *testing.B, dsn string) {
	ctx := context.Background()
	st, err := store.Open(ctx, dsn)
	if err != nil {
		b.Fatal(err)
	}
	defer st.Close()
	s := &Server{Store: st, TestMode: true, BcryptCost: 4, SocketRate: -1, CommandRate: -1,
		Timing: actor.Timing{BetWindow: time.Hour, Decision: time.Hour, Window: time.Hour}}
	if err := s.Open(); err != nil {
		b.Fatal(err)
	}
	defer s.Close()
	hs := httptest.NewServer(s.Handler())
	defer hs.Close()
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
	type player struct {
		conn    *websocket.Conn
		answers chan []byte
	}
	var ps []*player
	var events atomic.Int64
	for i := range players {
		name := fmt.Sprint("p", i+1)
		u, err := s.CreateUser(ctx, name, "player-password", false)
		if err != nil {
			b.Fatal(err)
		}
		if _, _, err := s.Credit(ctx, admin, wire.CreditRequest{CommandID: fmt.Sprint("credit-", i), User: u.Name, Amount: 1 << 40}); err != nil {
			b.Fatal(err)
		}
		c := &client.Client{URL: hs.URL}
		if _, err := c.Login(ctx, name, "player-password"); err != nil {
			b.Fatal(err)
		}
		conn, _, err := websocket.Dial(ctx, strings.Replace(hs.URL, "http", "ws", 1)+fmt.Sprintf("/api/tables/%d/ws", v.ID),
			&websocket.DialOptions{HTTPHeader: http.Header{"Authorization": {"Bearer " + c.Token}}})
		if err != nil {
			b.Fatal(err)
		}
		conn.SetReadLimit(1 << 22)
		defer conn.CloseNow()
		p := &player{conn: conn, answers: make(chan []byte, 1)}
		ps = append(ps, p)
		go func() {
			for {
				_, data, err := conn.Read(ctx)
				if err != nil {
					close(p.answers)
					return
				}
				switch {
				case bytes.Contains(data, []byte(`"type":"event"`)):
					events.Add(1)
				case bytes.Contains(data, []byte(`"type":"snapshot"`)):
				default:
					p.answers <- data
				}
			}
		}()
	}
	n := 0
	send := func(i int, req string) {
		n++
		msg := []byte(strings.Replace(req, "{", fmt.Sprintf(`{"command_id":"c%d",`, n), 1))
		if err := ps[i].conn.Write(ctx, websocket.MessageText, msg); err != nil {
			b.Fatal(err)
		}
		if ans := <-ps[i].answers; !bytes.Contains(ans, []byte(`"type":"result"`)) {
			b.Fatalf("%s: %s", req, ans)
		}
	}
	for i := range ps {
		send(i, fmt.Sprintf(`{"op":"sit","box":%d}`, i+1))
	}
	cards := strings.Repeat("TS ", players) + "6D " + strings.Repeat("9H ", players) + "TD 9C"
	round := func() {
		n++
		if msg := s.wsCommand(ctx, a, admin, []byte(fmt.Sprintf(`{"command_id":"c%d","op":"force-cards","cards":%q}`, n, cards))); !bytes.Contains(msg, []byte(`"type":"result"`)) {
			b.Fatalf("force-cards: %s", msg)
		}
		for i := range ps {
			send(i, fmt.Sprintf(`{"op":"bet","box":%d,"stake":100}`, i+1))
		}
	}
	round()
	box, decisions := 1, 0
	events.Store(0)
	writes0 := s.socketWrites.Load()
	b.ReportAllocs()
	b.ResetTimer()
	cpu0 := processCPU()
	for b.Loop() {
		send(box-1, fmt.Sprintf(`{"op":"act","action":"stand","box":%d}`, box))
		decisions++
		if box++; box > players {
			box = 1
			round()
		}
	}
	b.StopTimer()
	b.ReportMetric(float64(processCPU()-cpu0)/float64(decisions), "cpu-ns/op")
	b.ReportMetric(float64(events.Load())/float64(decisions)/players, "events/decision")
	b.ReportMetric(float64(s.socketWrites.Load()-writes0)/float64(decisions)/players, "writes/decision")
	if r, err := st.CheckLedger(ctx); err != nil || !r.OK() {
		b.Fatalf("ledger: %+v %v", r, err)
	}
}

// processCPU is the processor time the process has used, user and system:
// the benchmarks report it per op (cpu-ns/op) beside the wall time, which
// on a shared machine also counts the waits for a core.
func processCPU() time.Duration {
	var ru syscall.Rusage
	syscall.Getrusage(syscall.RUSAGE_SELF, &ru)
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
}
