package server_test

import (
	"context"
	"net/http"
	"path/filepath"
	"sync/atomic"
	"testing"
	"time"

	"sabot"
	"sabot/internal/client"
	"sabot/internal/server"
	"sabot/internal/store/sqlite"
	"sabot/internal/wire"
)

// The third round of attacks (docs/server.md, "Abuse and limits"): each
// attack as it was made, and what the server now does about it.

// heldLogin is a SQLite store whose CreateSession for one user waits, once,
// until the test lets it go: a login that read the password's hash before
// a change and creates its session after it.
type heldLogin struct {
	*sqlite.DB
	user    atomic.Int64
	reached chan struct{}
	release chan struct{}
	held    atomic.Bool
}

func (s *heldLogin) CreateSession(ctx context.Context, x *sabot.Session) error {
	if x.UserID == s.user.Load() && s.held.CompareAndSwap(false, true) {
		close(s.reached)
		<-s.release
	}
	return s.DB.CreateSession(ctx, x)
}

// A login whose hash was read before a password change and whose session
// is made after the change ended the sessions gets none: the session is
// made only if the credentials it matched are still the account's, in the
// session's own insert. Before, the thief kept a session that bet.
func TestPasswordChangeLeavesNoThiefSession(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	db := sqlite.NewDB(filepath.Join(t.TempDir(), "sabot.db"))
	if err := db.Open(ctx); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { db.Close() })
	st := &heldLogin{DB: db, reached: make(chan struct{}), release: make(chan struct{})}
	h := newHarness(t, st, slow)
	owner := h.player("ana", 10000)
	me := must(owner.Me(ctx))
	st.user.Store(me.ID)

	thief := &client.Client{URL: h.srv.URL()}
	done := make(chan error, 1)
	go func() {
		_, err := thief.Login(ctx, "ana", password) // the stolen password
		done <- err
	}()
	<-st.reached // the thief's hash matched; his session is not made yet
	var res wire.LoginResult
	must(0, owner.Do(ctx, "POST", "/api/me/password", server.PasswordRequest{Password: password, NewPassword: "a new secret 1"}, &res))
	close(st.release)
	err := <-done
	wantCode(t, err, sabot.EUNAUTHORIZED, "")
	if thief.Token != "" {
		if _, err := thief.Me(ctx); err == nil {
			t.Fatal("the thief's session outlived the password change")
		}
	}
	fresh := &client.Client{URL: h.srv.URL(), Token: res.Token}
	must(fresh.Me(ctx))
}

// Successful logins are budgeted per account (one account's
// 40 parallel correct logins shut everyone else out): past the burst, 429
// with Retry-After, the right password too; a stranger's wrong passwords
// do not spend the owner's budget.
func TestSuccessfulLoginsBudgeted(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	h := newLimited(t, nil, func(s *server.Server) { s.LoginOKNameBurst, s.LoginOKNameEvery = 3, time.Hour })
	h.player("ana", 0) // one login
	for range 5 {
		_, err := (&client.Client{URL: h.srv.URL()}).Login(ctx, "ana", "not her password")
		wantCode(t, err, sabot.EUNAUTHORIZED, "")
	}
	for range 2 {
		must((&client.Client{URL: h.srv.URL()}).Login(ctx, "ana", password))
	}
	a := postJSON(t, from("127.0.0.2"), h.srv.URL()+"/api/login", wire.Credentials{Name: "ana", Password: password})
	wantAnswer(t, "a 4th login of ana", a, 429, sabot.ETHROTTLED, "too many logins of this account")
	wantRetryAfter(t, "a 4th login of ana", a)
	must((&client.Client{URL: h.srv.URL()}).Login(ctx, "pit", password)) // another account's
}

// A player's commands over HTTP have a rate, as on the socket (sit and leave
// at 127–211 a second, 4.8 ms of CPU each): past the
// burst, 429 with Retry-After, nothing written.
func TestHTTPCommandsBudgeted(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	h := newLimited(t, nil, func(s *server.Server) {
		s.CommandRate, s.CommandBurst, s.SitsPerMinute = 0.001, 5, -1
	})
	tb := h.table("vegas-s17", true, nil)
	eve := h.player("eve", 10000)
	var err error
	n := 0
	for ; n < 50; n++ {
		op := "sit"
		if n%2 == 1 {
			op = "leave"
		}
		if _, err = eve.Command(ctx, tb, op, wire.CommandRequest{Box: 2}); err != nil {
			break
		}
	}
	if n != 5 {
		t.Fatalf("%d commands before the budget ran out (%v), want 5", n, err)
	}
	wantCode(t, err, sabot.ETHROTTLED, "too many commands")
	a := send(t, http.DefaultClient, "POST", h.srv.URL()+"/api/tables/"+itoa(tb)+"/sit", "application/json", `{"command_id":"late","box":5}`, "Bearer "+eve.Token)
	wantAnswer(t, "past the budget", a, 429, sabot.ETHROTTLED, "too many commands")
	wantRetryAfter(t, "past the budget", a)
}

// getFrom answers a GET from a client address: its status.
func getFrom(t *testing.T, hc *http.Client, url string) int {
	t.Helper()
	resp, err := hc.Get(url)
	if err != nil {
		t.Fatal(err)
	}
	resp.Body.Close()
	return resp.StatusCode
}

// One anonymous client reading shoes at full speed takes its own bucket,
// not everybody's (one client at 100/s denied every
// player's `sabot verify --url`).
func TestShoeReadsPerAddress(t *testing.T) {
	t.Parallel()
	h := newLimited(t, nil, func(s *server.Server) { s.ShoeReads, s.ShoeReadsPerAddr = 1000, 2 })
	v := must(h.srv.CreateTable(context.Background(), &sabot.Table{Name: "t", Profile: "spain"}))
	greedy, other := from("127.0.0.2"), from("127.0.0.3")
	codes := map[int]int{}
	for range 20 {
		codes[getFrom(t, greedy, h.srv.URL()+"/api/shoes/"+v.Shoe.ID)]++
	}
	if codes[http.StatusOK] != 2 || codes[http.StatusTooManyRequests] != 18 {
		t.Fatalf("20 reads from one address, 2 a second: %v", codes)
	}
	if c := getFrom(t, other, h.srv.URL()+"/api/shoes/"+v.Shoe.ID); c != http.StatusOK {
		t.Fatalf("another address's read: %d", c)
	}
}

// The routes anybody may call that make every table (or one) work — the
// lobby, a table's view, the replay, the calculator's siblings — are
// throttled per address: past the burst, 429, and another
// address is still answered.
func TestPublicReadsPerAddress(t *testing.T) {
	t.Parallel()
	h := newLimited(t, nil, func(s *server.Server) { s.PublicReads, s.PublicReadBurst = 0.001, 5 })
	tb := h.table("vegas-s17", false, nil)
	greedy, other := from("127.0.0.2"), from("127.0.0.3")
	for _, path := range []string{"/api/tables", "/api/tables/" + itoa(tb), "/api/tables/" + itoa(tb) + "/edge", "/api/tables/" + itoa(tb) + "/rules", "/api/tables/" + itoa(tb) + "/strategy"} {
		if c := getFrom(t, other, h.srv.URL()+path); c != http.StatusOK {
			t.Fatalf("%s: %d", path, c)
		}
	}
	codes := map[int]int{}
	for range 10 {
		codes[getFrom(t, greedy, h.srv.URL()+"/api/tables")]++
	}
	if codes[http.StatusOK] != 5 || codes[http.StatusTooManyRequests] != 5 {
		t.Fatalf("10 lobbies from one address, a burst of 5: %v", codes)
	}
	a := postJSON(t, greedy, h.srv.URL()+"/api/replay", map[string]any{})
	wantAnswer(t, "a replay past the budget", a, 429, sabot.ETHROTTLED, "too many")
	wantRetryAfter(t, "a replay past the budget", a)
}

// A logged-in player's page polling its table is not anybody's: the
// public routes' bucket does not count it.
func TestPublicReadsSparePlayers(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	h := newLimited(t, nil, func(s *server.Server) { s.PublicReads, s.PublicReadBurst = 0.001, 2 })
	tb := h.table("vegas-s17", false, nil)
	ana := h.player("ana", 0)
	for range 10 {
		must(ana.Table(ctx, tb))
	}
}

// /metrics shows money owed to players: a server that keeps it private
// (`sabot serve` does) answers it only to its token or the pit's session.
func TestMetricsPrivate(t *testing.T) {
	t.Parallel()
	h := newLimited(t, nil, func(s *server.Server) { s.MetricsPrivate, s.MetricsToken = true, "metrics-secret-0123456789" })
	anon := send(t, http.DefaultClient, "GET", h.srv.URL()+"/metrics", "", "", "")
	if anon.status != http.StatusUnauthorized {
		t.Fatalf("/metrics to anybody: %d", anon.status)
	}
	if a := send(t, http.DefaultClient, "GET", h.srv.URL()+"/metrics", "", "", "Bearer wrong"); a.status != http.StatusUnauthorized {
		t.Fatalf("/metrics to a wrong token: %d", a.status)
	}
	if a := send(t, http.DefaultClient, "GET", h.srv.URL()+"/metrics", "", "", "Bearer metrics-secret-0123456789"); a.status != http.StatusOK {
		t.Fatalf("/metrics to its token: %d", a.status)
	}
	if a := send(t, http.DefaultClient, "GET", h.srv.URL()+"/metrics", "", "", "Bearer "+h.admin.Token); a.status != http.StatusOK {
		t.Fatalf("/metrics to the pit: %d", a.status)
	}
	ana := h.player("ana", 0)
	if a := send(t, http.DefaultClient, "GET", h.srv.URL()+"/metrics", "", "", "Bearer "+ana.Token); a.status != http.StatusForbidden {
		t.Fatalf("/metrics to a player: %d", a.status)
	}
}
