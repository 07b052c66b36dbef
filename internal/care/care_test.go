package care_test

import (
	"bytes"
	"context"
	"encoding/json"
	"io"
	"net/http"
	"net/http/httptest"
	"path/filepath"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"sabot"
	"sabot/internal/care"
	"sabot/internal/httpjson"
	"sabot/internal/store"
	"sabot/internal/store/storetest"
	"sabot/internal/tablelog"
	"sabot/internal/wire"
	"sabot/money"
)

// fixture is player care on a store (SQLite in a temporary file, or a
// PostgreSQL schema of its own), its
// endpoints mounted as the server mounts them, a clock the test moves, and
// fakes of the tables and of the server's HTTP plumbing.
type fixture struct {
	t      *testing.T
	st     sabot.Store
	care   *care.Care
	clock  atomic.Int64
	tables *fakeTables
	http   *fakeHTTP
	srv    *httptest.Server

	mu     sync.Mutex
	events []wire.AdminEvent
	by     []string // the pit's user of each event ("": the player)
}

// fakeTables seats whom the test says and records whom care bars.
type fakeTables struct {
	mu     sync.Mutex
	seats  map[string][]care.PlayerSeat
	lobby  []*wire.TableView
	barred []int64
}

func (f *fakeTables) Seats(*http.Request) map[string][]care.PlayerSeat {
	f.mu.Lock()
	defer f.mu.Unlock()
	return f.seats
}

func (f *fakeTables) Lobby(*http.Request) []*wire.TableView {
	f.mu.Lock()
	defer f.mu.Unlock()
	return f.lobby
}

func (f *fakeTables) Bar(_ context.Context, userID int64) {
	f.mu.Lock()
	defer f.mu.Unlock()
	f.barred = append(f.barred, userID)
}

func (f *fakeTables) barredOnes() []int64 {
	f.mu.Lock()
	defer f.mu.Unlock()
	return append([]int64(nil), f.barred...)
}

// fakeHTTP is the server's plumbing: strict JSON bodies, errors as the
// server writes them, ?limit=, and the session of the X-Session header.
type fakeHTTP struct{ st sabot.Store }

func (h fakeHTTP) Decode(r *http.Request, v any) error {
	dec := json.NewDecoder(r.Body)
	dec.DisallowUnknownFields()
	if err := dec.Decode(v); err != nil {
		return sabot.Errorf(sabot.EINVALID, "bad JSON body: %v", err)
	}
	return nil
}

func (h fakeHTTP) Error(w http.ResponseWriter, _ *http.Request, err error) {
	httpjson.WriteError(w, err)
}

func (h fakeHTTP) PageLimit(r *http.Request, def, most int) (int, error) {
	l := r.URL.Query().Get("limit")
	if l == "" {
		return def, nil
	}
	n, err := strconv.Atoi(l)
	if err != nil || n < 1 || n > most {
		return 0, sabot.Errorf(sabot.EINVALID, "limit=%q: give 1 to %d", l, most)
	}
	return n, nil
}

func (h fakeHTTP) Session(r *http.Request) *sabot.Session {
	token := r.Header.Get("X-Session")
	if token == "" {
		return nil
	}
	s, _ := h.st.SessionByToken(r.Context(), token)
	return s
}

// eachStore runs a test on SQLite and on PostgreSQL ($SABOT_TEST_POSTGRES;
// skipped without it, failed in CI).
func eachStore(t *testing.T, test func(t *testing.T, f *fixture)) {
	t.Run("sqlite", func(t *testing.T) { test(t, newFixture(t, filepath.Join(t.TempDir(), "care.db"))) })
	t.Run("postgres", func(t *testing.T) { test(t, newFixture(t, storetest.PostgresDSN(t))) })
}

func newFixture(t *testing.T, dsn string) *fixture {
	t.Helper()
	st, err := store.Open(context.Background(), dsn)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { st.Close() })
	f := &fixture{t: t, st: st, tables: &fakeTables{seats: map[string][]care.PlayerSeat{}}, http: &fakeHTTP{st: st}}
	f.clock.Store(time.Now().UnixNano())
	f.care = care.New(care.Config{
		Store:  st.(sabot.Care),
		Users:  st,
		Tables: f.tables,
		Now:    f.now,
		Event: func(_ context.Context, by *sabot.User, e tablelog.Event) {
			f.mu.Lock()
			defer f.mu.Unlock()
			f.events = append(f.events, e.Admin())
			name := ""
			if by != nil {
				name = by.Name
			}
			f.by = append(f.by, name)
		},
		Wallet: func(_ context.Context, userID int64) money.Amount { return money.Amount(1000 * userID) },
		Rounds: func(_ context.Context, u *sabot.User, n int) ([]wire.RoundSummary, error) {
			var rs []wire.RoundSummary
			for i := range n {
				rs = append(rs, wire.RoundSummary{ID: u.Name + "-" + strconv.Itoa(i+1), Net: money.Amount(-100 * i)})
			}
			return rs, nil
		},
		HTTP: f.http,
	})
	f.srv = httptest.NewServer(f.mux())
	t.Cleanup(f.srv.Close)
	return f
}

func (f *fixture) now() time.Time { return time.Unix(0, f.clock.Load()) }

func (f *fixture) advance(d time.Duration) { f.clock.Add(int64(d)) }

// mux mounts the endpoints as the server does (http.go), the user named by
// the X-User header standing for the server's authentication.
func (f *fixture) mux() http.Handler {
	mux := http.NewServeMux()
	authed := func(h func(http.ResponseWriter, *http.Request, *sabot.User)) http.HandlerFunc {
		return func(w http.ResponseWriter, r *http.Request) {
			u, err := f.st.UserByName(r.Context(), r.Header.Get("X-User"))
			if err != nil {
				httpjson.WriteError(w, err)
				return
			}
			h(w, r, u)
		}
	}
	c := f.care
	mux.HandleFunc("GET /api/admin/players", authed(c.HandlePlayers))
	mux.HandleFunc("GET /api/admin/floor", authed(c.HandleFloor))
	mux.HandleFunc("POST /api/admin/players/{name}/block", authed(c.HandleBlock))
	mux.HandleFunc("POST /api/admin/players/{name}/unblock", authed(c.HandleUnblock))
	mux.HandleFunc("GET /api/me/care", authed(c.HandleCare))
	mux.HandleFunc("POST /api/me/care/limits", authed(c.HandleLimit))
	mux.HandleFunc("POST /api/me/care/reality", authed(c.HandleReality))
	mux.HandleFunc("POST /api/me/care/exclusion", authed(c.HandleExclusion))
	return mux
}

// user makes a user; a player unless the test changes him.
func (f *fixture) user(u sabot.User) *sabot.User {
	f.t.Helper()
	if err := f.st.CreateUser(context.Background(), &u); err != nil {
		f.t.Fatal(err)
	}
	return &u
}

// session opens a session of a user and returns its token.
func (f *fixture) session(u *sabot.User) string {
	f.t.Helper()
	token := u.Name + "-token-" + strconv.FormatInt(f.clock.Load(), 36)
	if err := f.st.CreateSession(context.Background(), &sabot.Session{Token: token, UserID: u.ID, Created: f.now(), LastSeen: f.now()}); err != nil {
		f.t.Fatal(err)
	}
	return token
}

// do sends a request as a user (and his session, if given) and decodes
// the answer into out, or returns the error answered, with its code and
// reason.
func (f *fixture) do(method, path string, as *sabot.User, session string, body, out any) error {
	f.t.Helper()
	var rd io.Reader
	if body != nil {
		b, err := json.Marshal(body)
		if err != nil {
			f.t.Fatal(err)
		}
		rd = bytes.NewReader(b)
	}
	req, err := http.NewRequest(method, f.srv.URL+path, rd)
	if err != nil {
		f.t.Fatal(err)
	}
	req.Header.Set("X-User", as.Name)
	if session != "" {
		req.Header.Set("X-Session", session)
	}
	res, err := http.DefaultClient.Do(req)
	if err != nil {
		f.t.Fatal(err)
	}
	defer res.Body.Close()
	data, err := io.ReadAll(res.Body)
	if err != nil {
		f.t.Fatal(err)
	}
	if res.StatusCode != http.StatusOK {
		var eb httpjson.ErrorBody
		if err := json.Unmarshal(data, &eb); err != nil {
			f.t.Fatalf("%s %s: %d %s", method, path, res.StatusCode, data)
		}
		if st := httpjson.Status(eb.Code); st != res.StatusCode {
			f.t.Fatalf("%s %s: status %d for code %s", method, path, res.StatusCode, eb.Code)
		}
		return sabot.Errorf(eb.Code, "%s", eb.Error).WithReason(eb.Reason, eb.Params)
	}
	if out != nil {
		if err := json.Unmarshal(data, out); err != nil {
			f.t.Fatalf("%s %s: %v in %s", method, path, err, data)
		}
	}
	return nil
}

func (f *fixture) setLimit(u *sabot.User, kind, period string, amount *money.Amount) (*care.View, error) {
	f.t.Helper()
	var v care.View
	err := f.do("POST", "/api/me/care/limits", u, "", care.LimitRequest{Kind: kind, Period: period, Amount: amount}, &v)
	return &v, err
}

func (f *fixture) takeEvents() ([]wire.AdminEvent, []string) {
	f.mu.Lock()
	defer f.mu.Unlock()
	evs, by := f.events, f.by
	f.events, f.by = nil, nil
	return evs, by
}

func amt(n money.Amount) *money.Amount { return &n }

func must[T any](v T, err error) T {
	if err != nil {
		panic(err)
	}
	return v
}

// wantReason fails unless err has the code and reason; it returns the
// reason's values.
func wantReason(t *testing.T, err error, code, reason string) map[string]any {
	t.Helper()
	r, params := sabot.ReasonOf(err)
	if sabot.ErrorCode(err) != code || r != reason {
		t.Fatalf("got %v (reason %q), want %s %s", err, r, code, reason)
	}
	return params
}

// wantCode fails unless err has the code and its message says text.
func wantCode(t *testing.T, err error, code, text string) {
	t.Helper()
	if sabot.ErrorCode(err) != code || !strings.Contains(sabot.ErrorMessage(err), text) {
		t.Fatalf("got %v, want %s saying %q", err, code, text)
	}
}
