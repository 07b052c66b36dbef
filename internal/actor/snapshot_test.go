package actor

import (
	"context"
	"encoding/json"
	"fmt"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"sabot"
	"sabot/internal/seal"
	"sabot/internal/store/sqlite"
	"sabot/internal/wire"
	"sabot/money"
	"sabot/table"
)

// playedTable is a table with a log of rounds played by timeouts: a
// server on a SQLite file, the table's actor driven directly (no socket,
// no timer), players who bet and let the server decide for them.
type playedTable struct {
	st    *sqlite.DB
	s     *Host
	a     *Table
	users []*sabot.User
}

func newPlayedTable(tb testing.TB, profile string, opts map[string]string, every int) *playedTable {
	tb.Helper()
	p := newPlayedTableIn(tb, tb.TempDir(), testSeedKey, profile, opts, every)
	tb.Cleanup(func() { p.st.Close() })
	return p
}

// newPlayedTableIn is newPlayedTable in a directory, its seeds sealed with
// key (nil: in the clear); the caller closes its store.
func newPlayedTableIn(tb testing.TB, dir string, key *seal.Key, profile string, opts map[string]string, every int) *playedTable {
	tb.Helper()
	ctx := context.Background()
	st := sqlite.NewDB(filepath.Join(dir, "sabot.db") + "?_pragma=synchronous(OFF)")
	if err := st.Open(ctx); err != nil {
		tb.Fatal(err)
	}
	p := &playedTable{st: st, s: &Host{Store: st, SnapshotEvery: every, Metrics: NewMetrics(), SeedKey: key,
		Timing: Timing{BetWindow: time.Hour, Decision: time.Hour, Window: time.Hour}}}
	p.open(tb, &sabot.Table{Name: "snap", Profile: profile, Options: opts})
	return p
}

// open creates the table cfg in the played table's store and loads its
// actor, then takes a new shoe's steps.
func (p *playedTable) open(tb testing.TB, cfg *sabot.Table) {
	tb.Helper()
	ctx := context.Background()
	st := p.st
	if err := st.CreateTable(ctx, cfg); err != nil {
		tb.Fatal(err)
	}
	p.a = newActor(p.s, cfg)
	if err := p.a.load(ctx); err != nil {
		tb.Fatal(err)
	}
	p.steps(tb)
}

// steps takes a new shoe's steps where it waits for them (AR-07, EG-02):
// the pit authorises the shuffle, and the player chosen cuts (the pit,
// nobody being seated) at the first cut allowed.
func (p *playedTable) steps(tb testing.TB) {
	tb.Helper()
	if p.a.t.Awaiting() == table.StepAuthorise {
		p.do(tb, stepsPit, wire.OpAuthoriseShuffle, wire.CommandRequest{})
	}
	if p.a.t.Awaiting() == table.StepCut {
		u := stepsPit
		if name, _ := p.a.cutter(); name != "" {
			for _, v := range p.users {
				if v.Name == name {
					u = v
				}
			}
		}
		lo, _ := p.a.t.CutRange()
		p.do(tb, u, wire.OpCutShoe, wire.CommandRequest{Value: lo})
	}
}

var stepsPit = &sabot.User{ID: 999, Name: "pit", Admin: true}

func (p *playedTable) player(tb testing.TB, name string) *sabot.User {
	tb.Helper()
	ctx := context.Background()
	u := &sabot.User{Name: name, PasswordHash: []byte("x")}
	if err := p.st.CreateUser(ctx, u); err != nil {
		tb.Fatal(err)
	}
	house, _ := p.s.account(ctx, sabot.AccountHouse, 0)
	w, _ := p.s.account(ctx, sabot.AccountWallet, u.ID)
	if err := p.st.Transfer(ctx, "credit", []sabot.Posting{{AccountID: w, Amount: 1 << 40}, {AccountID: house, Amount: -1 << 40}}); err != nil {
		tb.Fatal(err)
	}
	p.users = append(p.users, u)
	return u
}

var cmdNo int

// testSeedKey seals the seeds of the played tables' shoes.
var testSeedKey = func() *seal.Key {
	k, err := seal.ParseKey(strings.Repeat("5eed", 16))
	if err != nil {
		panic(err)
	}
	return k
}()

// do runs a command through the actor, as its loop would.
func (p *playedTable) do(tb testing.TB, u *sabot.User, op string, body wire.CommandRequest) {
	tb.Helper()
	cmdNo++
	c := testCommand(tb, op, u, u.Name, fmt.Sprint(cmdNo), body)
	if r := p.a.handle(context.Background(), c); r.err != nil {
		tb.Fatalf("%s %s: %v", u.Name, op, r.err)
	}
}

// testCommand is the command op of tableCommands with its request read
// from body, from a client and with a command ID as given.
func testCommand(tb testing.TB, op string, u *sabot.User, clientID, commandID string, body wire.CommandRequest) *Command {
	tb.Helper()
	cmd := tableCommandNamed(op)
	if cmd == nil {
		tb.Fatalf("no command %q", op)
	}
	req, err := readBody(cmd, body)
	if err != nil {
		tb.Fatalf("%s: %v", op, err)
	}
	return &Command{cmd: cmd, req: req, user: u, clientID: clientID, commandID: commandID}
}

// rounds plays n rounds: each seated player bets on his box, and every
// decision is left to the server (the defaults published for timeouts).
func (p *playedTable) rounds(tb testing.TB, n int) {
	tb.Helper()
	ctx := context.Background()
	for range n {
		before := p.a.t.RoundNo()
		for i, u := range p.users {
			if p.a.t.Holder(i+1) != u.Name && p.a.t.Bank() != u.Name {
				p.do(tb, u, wire.OpSit, wire.CommandRequest{Box: i + 1})
			}
		}
		p.steps(tb)
		for i, u := range p.users {
			if p.a.t.RoundNo() != before {
				break // dealt, and maybe over at once (a blackjack)
			}
			if p.a.t.Bank() != u.Name {
				p.do(tb, u, wire.OpBet, wire.CommandRequest{Box: i + 1, Stake: money.Amount(100 * (i + 1))})
			}
		}
		if p.a.t.RoundNo() != before+1 {
			tb.Fatalf("round %d not dealt", before+1)
		}
		for p.a.dealt {
			p.a.expire(ctx)
		}
	}
}

// state is what a start rebuilds of a table, for comparison.
func (a *Table) stateJSON(tb testing.TB) string {
	tb.Helper()
	ts, err := a.t.Snapshot()
	if err != nil {
		tb.Fatal(err)
	}
	shoes := map[int]string{}
	for no, sh := range a.shoes {
		shoes[no] = fmt.Sprint(seedHex(sh.seed), sh.commitment, sh.revealed)
	}
	escrow := map[string]money.Amount{}
	for k, v := range a.escrow {
		if v != 0 {
			escrow[k] = v
		}
	}
	b, _ := json.Marshal(map[string]any{"table": ts, "options": a.cfg.Options, "configured": a.configured, "players": a.players,
		"escrow": escrow, "shoes": shoes, "shoe_no": a.shoeNo, "shoe_pos": a.shoePos, "last_seq": a.lastSeq,
		"snap_round": a.snapRound, "closed": a.closed, "dealt": a.dealt, "forced": a.forced, "profile": a.p.Hash()})
	return string(b)
}

// A start from the latest snapshot and the records after it rebuilds
// exactly what the replay of the whole log rebuilds, for every kind of
// table, a configuration change and a new shoe on request included; a
// snapshot that does not restore sends the start back to the whole log.
func TestStartFromSnapshot(t *testing.T) {
	ctx := context.Background()
	for _, tc := range []struct {
		profile string
		opts    map[string]string
	}{
		{"argentina", nil},
		{"spain", nil},
		{"venice", nil},
		{"family", map[string]string{"bank_rotates": "true", "bank_rounds": "4"}},
		{"family", map[string]string{"collected_cards": "under-face-down", "bank_rounds": "3"}},
		{"vegas-h17", map[string]string{"cut_card_reserve": "150"}},
	} {
		t.Run(fmt.Sprint(tc.profile, tc.opts), func(t *testing.T) {
			p := newPlayedTable(t, tc.profile, tc.opts, 7)
			for _, n := range []string{"ana", "ben", "cy"} {
				p.player(t, n)
			}
			p.rounds(t, 20)
			pit := &sabot.User{ID: 999, Name: "pit", Admin: true}
			p.do(t, pit, wire.OpConfigure, wire.CommandRequest{Options: map[string]string{"max_bet": "100000"}})
			p.rounds(t, 9)
			p.do(t, pit, wire.OpNewShoe, wire.CommandRequest{})
			p.rounds(t, 12)
			// A bet down for the next round, not dealt: the others have
			// not bet yet.
			for i, u := range p.users {
				if u.Name != p.a.t.Bank() {
					p.do(t, u, wire.OpBet, wire.CommandRequest{Box: i + 1, Stake: 300})
					break
				}
			}

			snaps, err := p.st.Find(ctx, sabot.LogQuery{Kinds: []string{sabot.LogSnapshot}, TableID: p.a.cfg.ID})
			if err != nil || len(snaps) < 4 {
				t.Fatalf("%d snapshots after 41 rounds, every 7 (%v)", len(snaps), err)
			}
			want := p.a.stateJSON(t)

			fromSnap := newActor(p.s, p.a.created)
			fromSnap.reset()
			recs, err := fromSnap.restoreSnapshot(ctx)
			if err != nil {
				t.Fatal(err)
			}
			all, _ := p.st.Log(ctx, p.a.cfg.ID, 1)
			if len(recs) >= len(all)/3 {
				t.Fatalf("the start from a snapshot replays %d records of %d", len(recs), len(all))
			}
			if err := fromSnap.load(ctx); err != nil {
				t.Fatal(err)
			}
			if got := fromSnap.stateJSON(t); got != want {
				t.Fatalf("from the snapshot:\n%s\nwant (the table):\n%s", got, want)
			}
			full := newActor(&Host{Store: p.st, SnapshotEvery: -1, Metrics: NewMetrics(), SeedKey: p.s.SeedKey}, p.a.created)
			if err := full.load(ctx); err != nil {
				t.Fatal(err)
			}
			if got := full.stateJSON(t); got != want {
				t.Fatalf("from the whole log:\n%s\nwant:\n%s", got, want)
			}
		})
	}
}

// A snapshot that does not restore is not the truth: the start replays
// the whole log.
func TestBrokenSnapshotFallsBack(t *testing.T) {
	ctx := context.Background()
	p := newPlayedTable(t, "spain", nil, 3)
	p.player(t, "ana")
	p.rounds(t, 10)
	want := p.a.stateJSON(t)
	bad := &sabot.LogRecord{TableID: p.a.cfg.ID, Kind: sabot.LogSnapshot, RoundNo: 10, Payload: json.RawMessage(`{"table":{"seats":["x"]}}`)}
	if _, err := p.st.Append(ctx, sabot.Appending(bad), nil); err != nil {
		t.Fatal(err)
	}
	a := newActor(p.s, p.a.created)
	if err := a.load(ctx); err != nil {
		t.Fatal(err)
	}
	if a.closed != "" || a.lastSeq != bad.Seq {
		t.Fatalf("closed %q, last seq %d (want %d)", a.closed, a.lastSeq, bad.Seq)
	}
	a.lastSeq, a.snapRound = p.a.lastSeq, p.a.snapRound // the bad record is the one difference
	if got := a.stateJSON(t); got != want {
		t.Fatalf("after a broken snapshot:\n%s\nwant:\n%s", got, want)
	}
}

// BenchmarkTableStart measures a table's start from its log of 2,000
// rounds (3 players, spain): the replay of the whole log, and the start
// from the latest snapshot (one every 100 rounds).
//
//	go test -run XXX -bench TableStart -benchmem ./internal/server
func BenchmarkTableStart(b *testing.B) {
	p := newPlayedTable(b, "spain", nil, DefaultSnapshotEvery)
	for _, n := range []string{"ana", "ben", "cy"} {
		p.player(b, n)
	}
	p.rounds(b, 2000)
	all, _ := p.st.Log(context.Background(), p.a.cfg.ID, 1)
	b.Logf("%d records", len(all))
	for _, bc := range []struct {
		name  string
		every int
	}{{"whole-log", -1}, {"snapshot", DefaultSnapshotEvery}} {
		b.Run(bc.name, func(b *testing.B) {
			s := &Host{Store: p.st, SnapshotEvery: bc.every, Metrics: NewMetrics(), SeedKey: p.s.SeedKey}
			for b.Loop() {
				a := newActor(s, p.a.created)
				if err := a.load(context.Background()); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}

// A table that plays no round still gets snapshots (sit and
// leave over HTTP wrote 41,606 records to a table that played no round,
// each replayed at its next start, since snapshots counted rounds): every
// SnapshotRecords records, between rounds, the table writes one, and a
// start replays only what came after it, to the same state.
func TestSnapshotWithoutRounds(t *testing.T) {
	ctx := context.Background()
	p := newPlayedTable(t, "vegas-s17", nil, 0)
	p.s.SnapshotRecords, p.s.SitsPerMinute = 50, -1
	eve := p.player(t, "eve")
	for range 100 {
		p.do(t, eve, wire.OpSit, wire.CommandRequest{Box: 3})
		p.do(t, eve, wire.OpLeave, wire.CommandRequest{})
	}
	p.do(t, eve, wire.OpSit, wire.CommandRequest{Box: 4})
	snaps, err := p.st.Find(ctx, sabot.LogQuery{Kinds: []string{sabot.LogSnapshot}, TableID: p.a.cfg.ID})
	if err != nil || len(snaps) < 3 {
		t.Fatalf("%d snapshots after 201 records and no round (%v)", len(snaps), err)
	}
	want := p.a.stateJSON(t)
	fromSnap := newActor(p.s, p.a.created)
	fromSnap.reset()
	recs, err := fromSnap.restoreSnapshot(ctx)
	if err != nil {
		t.Fatal(err)
	}
	if len(recs) > 50 {
		t.Fatalf("the start replays %d records", len(recs))
	}
	if err := fromSnap.load(ctx); err != nil {
		t.Fatal(err)
	}
	if got := fromSnap.stateJSON(t); got != want {
		t.Fatalf("from the snapshot:\n%s\nwant:\n%s", got, want)
	}
}

// The lobby's view of a table is read through its actor only when the
// table did something since the last read (GET /api/tables
// asked every table's actor for its view at every request, 4.2 ms at 80
// tables): the same view while nothing happens, a fresh one after a
// command.
func TestLobbyViewCachedWhileIdle(t *testing.T) {
	ctx, cancel := context.WithCancel(context.Background())
	p := newPlayedTable(t, "vegas-s17", nil, -1)
	done := make(chan struct{})
	go func() { p.a.run(ctx); close(done) }()
	t.Cleanup(func() { cancel(); <-done })
	eve := p.player(t, "eve")
	v1, err := p.a.LobbyView(ctx)
	if err != nil {
		t.Fatal(err)
	}
	v2, _ := p.a.LobbyView(ctx)
	if v1 != v2 {
		t.Fatal("the table did nothing and its view was read again through its actor")
	}
	cmdNo++
	if r := p.a.Do(ctx, testCommand(t, wire.OpSit, eve, "eve", fmt.Sprint(cmdNo), wire.CommandRequest{Box: 2})); r.Err != nil {
		t.Fatal(r.Err)
	}
	v3, _ := p.a.LobbyView(ctx)
	if v3 == v1 || len(v3.Seats) != 1 || v3.Seats[0].Player != "eve" {
		t.Fatalf("after a sit the lobby's view: %+v", v3.Seats)
	}
}
