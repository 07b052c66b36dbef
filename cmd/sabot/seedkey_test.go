package main

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"sabot"
	"sabot/internal/actor"
	"sabot/internal/client"
	"sabot/internal/recall"
	"sabot/internal/seal"
	"sabot/internal/server"
	"sabot/internal/store"
	"sabot/internal/testwait"
	"sabot/internal/wire"
)

// TestVerifyURL: a player verifies a finished shoe
// from the server, without its database: `sabot verify --url` reads GET
// /api/shoes/{id} (no login) and checks the revealed seed against the
// commitment and every round's cards; a shoe still in play is refused.
func TestVerifyURL(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	st, err := store.Open(ctx, filepath.Join(t.TempDir(), "sabot.db"))
	if err != nil {
		t.Fatal(err)
	}
	defer st.Close()
	key, err := seal.ParseKey(strings.Repeat("ab", 32))
	if err != nil {
		t.Fatal(err)
	}
	srv := &server.Server{Store: st, SeedKey: key, BcryptCost: 4,
		Timing: actor.Timing{BetWindow: 20 * time.Millisecond, Decision: 20 * time.Millisecond, Window: 20 * time.Millisecond}}
	if err := srv.EnsureAdmin(ctx, "pit", "pit-password"); err != nil {
		t.Fatal(err)
	}
	if err := srv.Open(); err != nil {
		t.Fatal(err)
	}
	defer srv.Close()
	admin := &client.Client{URL: srv.URL()}
	if _, err := admin.Login(ctx, "pit", "pit-password"); err != nil {
		t.Fatal(err)
	}
	v, err := admin.CreateTable(ctx, wire.TableRequest{Name: "t", Profile: "vegas-s17"})
	if err != nil {
		t.Fatal(err)
	}
	ana := &client.Client{URL: srv.URL()}
	if err := ana.Register(ctx, "ana", "a long password"); err != nil {
		t.Fatal(err)
	}
	if _, err := ana.Login(ctx, "ana", "a long password"); err != nil {
		t.Fatal(err)
	}
	if err := admin.Credit(ctx, "ana", 100_000); err != nil {
		t.Fatal(err)
	}
	if _, err := ana.Command(ctx, v.ID, "sit", wire.CommandRequest{Box: 1}); err != nil {
		t.Fatal(err)
	}
	// Three rounds, each decision left to the timer.
	for round := 1; round <= 3; round++ {
		if _, err := ana.Command(ctx, v.ID, "bet", wire.CommandRequest{Box: 1, Stake: 1000}); err != nil {
			t.Fatal(err)
		}
		var tv *wire.TableView
		if !testwait.Within(10*time.Second, func() bool {
			var err error
			if tv, err = ana.Table(ctx, v.ID); err != nil {
				t.Fatal(err)
			}
			return tv.Round != nil && tv.Round.No == round && tv.Round.Phase == "done" && tv.Turn == nil
		}) {
			t.Fatalf("round %d not over: %+v", round, tv.Round)
		}
	}
	shoe := v.Shoe.ID
	out, errb, code := run(t, "", "verify", shoe, "--url", srv.URL())
	if code != 2 || !strings.Contains(errb, "still in play") || strings.Count(errb, "\n") != 1 {
		t.Fatalf("verify --url of the live shoe: %d %q %q", code, out, errb)
	}
	// The pit asks for a new shoe: the first is over, its seed revealed.
	if _, err := admin.Command(ctx, v.ID, "new-shoe", wire.CommandRequest{}); err != nil {
		t.Fatal(err)
	}
	var rep wire.ShoeReport
	if err := (&client.Client{URL: srv.URL()}).Do(ctx, "GET", "/api/shoes/"+shoe, nil, &rep); err != nil {
		t.Fatal(err)
	}
	if !rep.Revealed || len(rep.Seed) != 64 || rep.Commitment == "" || len(rep.Dealt) != 3 {
		t.Fatalf("the finished shoe over the API: %+v", rep)
	}
	out, errb, code = run(t, "", "verify", shoe, "--url", srv.URL())
	if code != 0 || !strings.Contains(out, "ok: the revealed seed gives the committed order; 3 rounds") {
		t.Fatalf("verify --url: %d %q %q", code, out, errb)
	}
	if _, errb, code := run(t, "", "verify", shoe, "--url", srv.URL(), "--db", "x.db"); code != 2 || !strings.Contains(errb, "not both") {
		t.Errorf("verify with --url and --db: %d %q", code, errb)
	}
	if _, errb, code := run(t, "", "verify", recall.ShoeID(v.ID, 9), "--url", srv.URL()); code != 2 || !strings.Contains(errb, "no shoe") {
		t.Errorf("verify --url of no shoe: %d %q", code, errb)
	}
	// A round's cards changed in the answer do not verify.
	// (Two cards that differ: a six-deck shoe may deal the same card twice.)
	cards := rep.Dealt[1].Cards
	j := 1
	for j < len(cards) && cards[j] == cards[0] {
		j++
	}
	if j == len(cards) {
		t.Fatalf("round 2 dealt one card only: %v", cards)
	}
	cards[0], cards[j] = cards[j], cards[0]
	if bad, err := recall.CheckShoe(&rep); err != nil || bad.OK() {
		t.Errorf("a shoe with two cards swapped verifies: %+v %v", bad, err)
	}
}

// TestServeSeedKey: `sabot serve` on SQLite makes
// its seed key beside the database (0600) and uses it again; with another
// key it refuses to start, in one line, and the store is left as it was;
// on PostgreSQL it refuses to start without a key.
func TestServeSeedKey(t *testing.T) {
	serve := func(db string, extra ...string) (string, int) {
		ctx, cancel := context.WithCancel(context.Background())
		defer cancel()
		var errb strings.Builder
		out := &lineWriter{lines: make(chan string, 16)}
		done := make(chan int, 1)
		go func() {
			done <- Run(ctx, append([]string{"serve", "--addr", "127.0.0.1:0", "--db", db, "--bcrypt-cost", "4", "--log-format", "json"}, extra...),
				strings.NewReader(""), out, &errb)
		}()
		select {
		case <-out.lines: // serving
			cancel()
			code := <-done
			return errb.String(), code
		case code := <-done:
			return errb.String(), code
		case <-time.After(30 * time.Second):
			t.Fatal("serve neither served nor stopped")
		}
		return "", 0
	}
	db := filepath.Join(t.TempDir(), "sabot.db")
	if errb, code := serve(db); code != 0 {
		t.Fatalf("first start: %d %s", code, errb)
	}
	fi, err := os.Stat(db + ".seed-key")
	if err != nil || fi.Mode().Perm() != 0o600 {
		t.Fatalf("the key file beside the database: %v %v", fi, err)
	}
	keyText, _ := os.ReadFile(db + ".seed-key")
	key, err := seal.ParseKey(string(keyText))
	if err != nil {
		t.Fatal(err)
	}
	if errb, code := serve(db); code != 0 {
		t.Fatalf("second start: %d %s", code, errb)
	}
	countVoids := func() int {
		st, err := store.Open(context.Background(), db)
		if err != nil {
			t.Fatal(err)
		}
		defer st.Close()
		voids, err := st.Find(context.Background(), sabot.LogQuery{Kinds: []string{sabot.LogVoid, sabot.LogShoe}})
		if err != nil {
			t.Fatal(err)
		}
		return len(voids)
	}
	before := countVoids()

	wrong := strings.Repeat("0f", 32)
	other, _ := seal.ParseKey(wrong)
	t.Setenv(seal.KeyEnv, wrong)
	errb, code := serve(db)
	last := lastLine(errb)
	if code != 1 || !strings.Contains(last, "sabot serve: table ") || !strings.Contains(last, "sealed with seed key "+key.ID()+", not with this server's key "+other.ID()) {
		t.Fatalf("a start with another key: exit %d, last line %q", code, last)
	}
	t.Setenv(seal.KeyEnv, "not a key")
	if errb, code := serve(db); code != 2 || !strings.Contains(lastLine(errb), "$SABOT_SEED_KEY: a seed key is 64 hex digits") {
		t.Fatalf("a bad $SABOT_SEED_KEY: %d %q", code, errb)
	}
	t.Setenv(seal.KeyEnv, "")
	if errb, code := serve(db, "--seed-key-file", db+".nokey"); code != 2 || !strings.Contains(lastLine(errb), "--seed-key-file") {
		t.Fatalf("a missing --seed-key-file: %d %q", code, errb)
	}
	if after := countVoids(); after != before {
		t.Fatalf("the refused starts wrote records: %d voids and shoes, %d before", after, before)
	}
	// The right key, given as a file, starts it again.
	if errb, code := serve(db, "--seed-key-file", db+".seed-key"); code != 0 {
		t.Fatalf("a start with the key file: %d %s", code, errb)
	}

	errb, code = serve("postgres://nobody@127.0.0.1:1/none")
	if code != 2 || strings.Count(errb, "\n") != 1 || !strings.Contains(errb, "a PostgreSQL store needs a seed key") || !strings.Contains(errb, "--seed-key-file") {
		t.Fatalf("PostgreSQL without a key: %d %q", code, errb)
	}
}

// lineWriter sends each write (serve prints its address in one) to lines.
type lineWriter struct{ lines chan string }

func (w *lineWriter) Write(p []byte) (int, error) {
	select {
	case w.lines <- string(p):
	default:
	}
	return len(p), nil
}

func lastLine(s string) string {
	lines := strings.Split(strings.TrimSpace(s), "\n")
	return lines[len(lines)-1]
}
