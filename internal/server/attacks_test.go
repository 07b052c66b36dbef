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
	user    int64
	reached chan struct{}
	release chan struct{}
	held    atomic.Bool
}

func (s *heldLogin) CreateSession(ctx context.Context, x *sabot.Session) error {
	if x.UserID == s.user && s.held.CompareAndSwap(false, true) {
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
	st.user = me.ID

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

// Successful logins are budgeted per account (issue 40, S3: one account's
// 40 parallel correct logins shut everyone else out): past the burst, 429
// with Retry-After, the right password too; a stranger's wrong passwords
// do not spend the owner's budget.
func TestSuccessfulLoginsBudgeted(t *testing.T) {
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

// A player's commands over HTTP have a rate, as on the socket (issue 40,
// S5: sit and leave at 127–211 a second, 4.8 ms of CPU each): past the
// burst, 429 with Retry-After, nothing written.
func TestHTTPCommandsBudgeted(t *testing.T) {
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
