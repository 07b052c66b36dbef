package server_test

import (
	"context"
	"path/filepath"
	"sync/atomic"
	"testing"

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
