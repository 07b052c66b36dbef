package actor

import (
	"context"
	"database/sql"
	"encoding/json"
	"strings"
	"testing"

	"sabot"
	"sabot/internal/recall"
	"sabot/internal/seal"
	"sabot/internal/store/sqlite"
	"sabot/internal/tablelog"
	"sabot/internal/wire"
)

// rawRows returns every row of the log of a SQLite store as the text of
// all its columns, read past the store.
func rawRows(t *testing.T, st *sqlite.DB) []string {
	t.Helper()
	path, _, _ := strings.Cut(st.DSN, "?")
	db, err := sql.Open("sqlite", path)
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	rows, err := db.Query(`SELECT table_id || ' ' || seq || ' ' || kind || ' ' || client_id || ' ' || command_id || ' ' || COALESCE(payload, '') FROM log`)
	if err != nil {
		t.Fatal(err)
	}
	defer rows.Close()
	var out []string
	for rows.Next() {
		var s string
		if err := rows.Scan(&s); err != nil {
			t.Fatal(err)
		}
		out = append(out, s)
	}
	return out
}

// TestLiveShoeSeedNotInLog: the log of a table holds
// the seed of its live shoe nowhere, neither in the shoe's record nor in a
// snapshot (nor the shoe's cards to come); the seed of a finished shoe is
// in its reveal record, and only there.
func TestLiveShoeSeedNotInLog(t *testing.T) {
	ctx := context.Background()
	p := newPlayedTable(t, "vegas-s17", nil, 5) // a snapshot every 5 rounds
	for _, n := range []string{"ana", "ben", "cy"} {
		p.player(t, n)
	}
	p.rounds(t, 60)
	live := p.a.shoes[p.a.t.ShoeNo()]
	if live == nil || live.revealed || p.a.t.ShoeNo() < 3 {
		t.Fatalf("shoe %d after 60 rounds: %+v", p.a.t.ShoeNo(), live)
	}
	rows := rawRows(t, p.st)
	liveHex := seedHex(live.seed)
	for _, r := range rows {
		if strings.Contains(r, liveHex) {
			t.Errorf("the live shoe's seed %s is in the log: %.200s", liveHex, r)
		}
	}
	// A finished shoe's seed is in its reveal record, and only there: the
	// search above would have found a seed written in the clear.
	reveals, err := p.st.Find(ctx, sabot.LogQuery{Kinds: []string{sabot.LogShoeReveal}, TableID: p.a.cfg.ID, Shoe: 1})
	if err != nil || len(reveals) != 1 {
		t.Fatalf("shoe 1's reveal: %v %v", reveals, err)
	}
	var rev tablelog.Reveal
	json.Unmarshal(reveals[0].Payload, &rev)
	found := 0
	for _, r := range rows {
		if strings.Contains(r, rev.Seed) {
			found++
			if !strings.Contains(r, " shoe-reveal ") {
				t.Errorf("shoe 1's seed is in another record than its reveal: %.200s", r)
			}
		}
	}
	if found != 1 {
		t.Errorf("shoe 1's seed is in %d records, want its reveal", found)
	}
	// The snapshots seal the shoe in play: its seed, its cards to come,
	// its random source.
	snaps, err := p.st.Find(ctx, sabot.LogQuery{Kinds: []string{sabot.LogSnapshot}, TableID: p.a.cfg.ID})
	if err != nil || len(snaps) < 10 {
		t.Fatalf("%d snapshots (%v)", len(snaps), err)
	}
	for _, s := range snaps {
		var pay tablelog.Snapshot
		if err := json.Unmarshal(s.Payload, &pay); err != nil {
			t.Fatal(err)
		}
		if pay.Sealed == "" || pay.Table.Seed != "" || len(pay.Table.Shoe.Cards) != 0 || len(pay.Table.Shoe.RNG) != 0 || len(pay.Shoes) != 0 {
			t.Errorf("snapshot %d keeps its shoes in the clear: %.300s", s.Seq, s.Payload)
		}
	}
}

// TestSealedShoesRestartWithTheirKey: a start with the
// key replays the same cards, from the whole log or from a snapshot; a
// start with another key, or none, fails with a one-line reason and
// changes nothing (no table is closed, no stake returned).
func TestSealedShoesRestartWithTheirKey(t *testing.T) {
	ctx := context.Background()
	p := newPlayedTable(t, "spain", nil, 4)
	for _, n := range []string{"ana", "ben"} {
		p.player(t, n)
	}
	p.rounds(t, 30)
	p.do(t, p.users[0], wire.OpBet, wire.CommandRequest{Box: 1, Stake: 300}) // a stake down for the next round
	want := p.a.stateJSON(t)
	next := p.a.t.Shoe().State().Cards[p.a.t.Shoe().State().Pos:]
	if len(next) == 0 {
		t.Fatal("no card left in the shoe")
	}
	before, err := p.st.Log(ctx, p.a.cfg.ID, 1)
	if err != nil {
		t.Fatal(err)
	}

	other, err := seal.ParseKey(strings.Repeat("0b", 32))
	if err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct {
		name string
		key  *seal.Key
		want string
	}{
		{"another key", other, "is sealed with seed key " + testSeedKey.ID() + ", not with this server's key " + other.ID()},
		{"no key", nil, "is sealed with seed key " + testSeedKey.ID() + " and the server has no seed key"},
	} {
		a := newActor(&Host{Store: p.st, SnapshotEvery: 4, Metrics: NewMetrics(), SeedKey: tc.key}, p.a.created)
		err := a.load(ctx)
		if err == nil || !strings.Contains(err.Error(), tc.want) || strings.Contains(err.Error(), "\n") {
			t.Errorf("a start with %s: %v; want %q", tc.name, err, tc.want)
		}
	}
	after, err := p.st.Log(ctx, p.a.cfg.ID, 1)
	if err != nil {
		t.Fatal(err)
	}
	if len(after) != len(before) {
		t.Fatalf("the failed starts wrote %d records: %v", len(after)-len(before), after[len(before):])
	}

	for _, every := range []int{-1, 4} { // the whole log; the latest snapshot
		a := newActor(&Host{Store: p.st, SnapshotEvery: every, Metrics: NewMetrics(), SeedKey: testSeedKey}, p.a.created)
		if err := a.load(ctx); err != nil {
			t.Fatal(err)
		}
		if got := a.stateJSON(t); got != want {
			t.Errorf("snapshots %d: the start rebuilds\n%s\nnot\n%s", every, got, want)
		}
		st := a.t.Shoe().State()
		if got := st.Cards[st.Pos:]; len(got) != len(next) || got[0] != next[0] || got[len(got)-1] != next[len(next)-1] {
			t.Errorf("snapshots %d: the shoe deals %v next, not %v", every, got, next)
		}
	}
}

// TestPlainSeedStoreStillStarts: a store written
// before seeds were sealed (its seeds in the clear) starts with a key and
// plays on the same cards; the shoes it starts from then on are sealed.
func TestPlainSeedStoreStillStarts(t *testing.T) {
	ctx := context.Background()
	p := newPlayedTableIn(t, t.TempDir(), nil, "vegas-h17", nil, 6) // an older sabot: seeds in the clear
	t.Cleanup(func() { p.st.Close() })
	for _, n := range []string{"ana", "ben"} {
		p.player(t, n)
	}
	p.rounds(t, 40)
	shoeBefore := p.a.t.ShoeNo()
	plain, err := p.st.Find(ctx, sabot.LogQuery{Kinds: []string{sabot.LogShoe}, TableID: p.a.cfg.ID, Shoe: int64(shoeBefore)})
	if err != nil || len(plain) != 1 || !strings.Contains(string(plain[0].Payload), seedHex(p.a.shoes[shoeBefore].seed)) {
		t.Fatalf("the older sabot's shoe %d: %v %v", shoeBefore, plain, err)
	}
	want := p.a.stateJSON(t)

	p.s.SeedKey = testSeedKey
	for _, every := range []int{-1, 6} {
		a := newActor(&Host{Store: p.st, SnapshotEvery: every, Metrics: NewMetrics(), SeedKey: testSeedKey}, p.a.created)
		if err := a.load(ctx); err != nil {
			t.Fatal(err)
		}
		if got := a.stateJSON(t); got != want {
			t.Errorf("snapshots %d: the start with a key rebuilds\n%s\nnot\n%s", every, got, want)
		}
	}
	p.rebuildWith(t)
	for p.a.t.ShoeNo() == shoeBefore {
		p.rounds(t, 5)
	}
	sealed, err := p.st.Find(ctx, sabot.LogQuery{Kinds: []string{sabot.LogShoe}, TableID: p.a.cfg.ID, Shoe: int64(p.a.t.ShoeNo())})
	if err != nil || len(sealed) != 1 {
		t.Fatal(sealed, err)
	}
	var sp tablelog.ShoeStart
	json.Unmarshal(sealed[0].Payload, &sp)
	if sp.Seed != "" || !strings.HasPrefix(sp.Sealed, "aes-gcm:"+testSeedKey.ID()+":") {
		t.Errorf("the next shoe's record: %s", sealed[0].Payload)
	}
	rep, err := recall.VerifyShoe(ctx, p.st, recall.ShoeID(p.a.cfg.ID, shoeBefore))
	if err != nil || !rep.OK() {
		t.Errorf("the older sabot's shoe does not verify: %+v %v", rep, err)
	}
}

// rebuildWith rebuilds the played table's actor from its log with its
// server as it now is.
func (p *playedTable) rebuildWith(t *testing.T) {
	t.Helper()
	p.a = newActor(p.s, p.a.created)
	if err := p.a.load(context.Background()); err != nil {
		t.Fatal(err)
	}
}

// TestSeedSealedPerShoe: a shoe record's seed is sealed with the server's
// key, and opens only for its own shoe (the key file: package seal).
func TestSeedSealedPerShoe(t *testing.T) {
	k := testSeedKey
	var sp tablelog.ShoeStart
	sp.Shoe = 2
	s := &Host{SeedKey: k}
	seed := [32]byte{1, 2, 3}
	s.sealSeed(&sp, 7, seed)
	if sp.Seed != "" || strings.Contains(sp.Sealed, seedHex(seed)) {
		t.Fatalf("sealed: %+v", sp)
	}
	if got, err := s.openSeed(sp, 7); err != nil || got != seed {
		t.Fatalf("opened: %x %v", got, err)
	}
	if _, err := s.openSeed(sp, 8); err == nil || !strings.Contains(err.Error(), "altered or moved") {
		t.Errorf("shoe 7-2's seal opened for table 8: %v", err)
	}
}
