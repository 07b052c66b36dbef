package server_test

import (
	"bufio"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net"
	"net/http"
	"net/http/httptest"
	"path/filepath"
	"reflect"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/coder/websocket"

	"sabot"
	"sabot/internal/client"
	"sabot/internal/httpjson"
	"sabot/internal/server"
	"sabot/internal/store"
	"sabot/internal/store/storetest"
	"sabot/internal/testwait"
	"sabot/internal/wire"
	"sabot/money"
)

// The hostile client and the careless operator: a client's idle
// connections, a WebSocket without end, a token in a URL, a read-only
// database (readiness), each refused with its code and nothing changed.

// newLimited is a harness whose server has some limits set.
func newLimited(t *testing.T, st sabot.Store, set func(*server.Server)) *harness {
	t.Helper()
	if st == nil {
		st = openStore(t, filepath.Join(t.TempDir(), "sabot.db"))
	}
	h := &harness{t: t, st: st, set: set}
	h.start(slow)
	return h
}

// from is an HTTP client whose connections leave from a loopback address
// of its own (127.0.0.2: another client for the limits per address).
func from(ip string) *http.Client {
	d := &net.Dialer{Timeout: 5 * time.Second, LocalAddr: &net.TCPAddr{IP: net.ParseIP(ip)}}
	return &http.Client{Timeout: 20 * time.Second, Transport: &http.Transport{DialContext: d.DialContext}}
}

// answer is an HTTP answer: its status, headers and error body.
type answer struct {
	status int
	header http.Header
	body   httpjson.ErrorBody
}

// send sends a request with a body of a content type ("" none) and a token.
func send(t *testing.T, hc *http.Client, method, url, contentType, body, token string) answer {
	t.Helper()
	req, err := http.NewRequest(method, url, strings.NewReader(body))
	if err != nil {
		t.Fatal(err)
	}
	if contentType != "" {
		req.Header.Set("Content-Type", contentType)
	}
	if token != "" {
		req.Header.Set("Authorization", token)
	}
	resp, err := hc.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	b, _ := io.ReadAll(resp.Body)
	var e httpjson.ErrorBody
	json.Unmarshal(b, &e)
	return answer{resp.StatusCode, resp.Header, e}
}

func postJSON(t *testing.T, hc *http.Client, url string, body any) answer {
	t.Helper()
	b, _ := json.Marshal(body)
	return send(t, hc, "POST", url, "application/json", string(b), "")
}

func wantAnswer(t *testing.T, what string, a answer, status int, code, text string) {
	t.Helper()
	if a.status != status || a.body.Code != code || !strings.Contains(a.body.Error, text) {
		t.Fatalf("%s: %d %+v, want %d %s with %q", what, a.status, a.body, status, code, text)
	}
}

// wantRetryAfter checks a 429's or 503's Retry-After: whole seconds, at
// least one.
func wantRetryAfter(t *testing.T, what string, a answer) {
	t.Helper()
	n, err := strconv.Atoi(a.header.Get("Retry-After"))
	if err != nil || n < 1 {
		t.Fatalf("%s: Retry-After %q", what, a.header.Get("Retry-After"))
	}
}

// ---- finding 5: connections ----

// rawGet sends GET /healthz on a connection and reads the answer's status
// line ("" if the connection was closed instead).
func rawGet(c net.Conn, rd *bufio.Reader) string {
	c.SetDeadline(time.Now().Add(10 * time.Second))
	if _, err := io.WriteString(c, "GET /healthz HTTP/1.1\r\nHost: sabot\r\n\r\n"); err != nil {
		return ""
	}
	resp, err := http.ReadResponse(rd, nil)
	if err != nil {
		return ""
	}
	io.Copy(io.Discard, resp.Body)
	resp.Body.Close()
	return resp.Status
}

// One client address holds at most --max-conns-per-addr connections; one
// more is closed at once, while another address still connects, and a
// connection closed gives its place back.
func TestHostileConnectionsCappedPerAddress(t *testing.T) {
	t.Parallel()
	srv := &server.Server{Store: newMemStore(), MaxConnsPerAddr: 3}
	if err := srv.Open(); err != nil {
		t.Fatal(err)
	}
	defer srv.Close()
	addr := strings.TrimPrefix(srv.URL(), "http://")
	dial := func(ip string) (net.Conn, *bufio.Reader) {
		d := net.Dialer{LocalAddr: &net.TCPAddr{IP: net.ParseIP(ip)}}
		c, err := d.Dial("tcp", addr)
		if err != nil {
			t.Fatal(err)
		}
		return c, bufio.NewReader(c)
	}
	var held []net.Conn
	for i := 0; i < 3; i++ {
		c, rd := dial("127.0.0.1")
		defer c.Close()
		if st := rawGet(c, rd); st != "200 OK" {
			t.Fatalf("connection %d: %q", i+1, st)
		}
		held = append(held, c)
	}
	over, rd := dial("127.0.0.1")
	defer over.Close()
	if st := rawGet(over, rd); st != "" {
		t.Fatalf("a 4th connection from 127.0.0.1 was served (%s)", st)
	}
	other, rd := dial("127.0.0.2")
	defer other.Close()
	if st := rawGet(other, rd); st != "200 OK" {
		t.Fatalf("127.0.0.2 refused while 127.0.0.1 holds its cap: %q", st)
	}
	// A connection closed is a place again (the server notices the close
	// when it reads).
	held[0].Close()
	testwait.Until(t, 10*time.Second, "a place freed by a closed connection given back", func() bool {
		c, rd := dial("127.0.0.1")
		st := rawGet(c, rd)
		c.Close()
		return st == "200 OK"
	})
}

// A request body sent a byte at a time is cut off by --read-timeout: the
// server answers (or closes) instead of reading it for ever.
func TestHostileSlowBodyCutByReadTimeout(t *testing.T) {
	t.Parallel()
	srv := &server.Server{Store: newMemStore(), ReadTimeout: 300 * time.Millisecond}
	if err := srv.Open(); err != nil {
		t.Fatal(err)
	}
	defer srv.Close()
	c, err := net.Dial("tcp", strings.TrimPrefix(srv.URL(), "http://"))
	if err != nil {
		t.Fatal(err)
	}
	defer c.Close()
	io.WriteString(c, "POST /api/login HTTP/1.1\r\nHost: sabot\r\nContent-Type: application/json\r\nContent-Length: 100\r\n\r\n{")
	// The client keeps the connection open and sends nothing more; a server
	// without a read timeout would wait for the other 99 bytes for ever.
	c.SetReadDeadline(time.Now().Add(15 * time.Second))
	b, err := io.ReadAll(c)
	if ne, ok := err.(net.Error); ok && ne.Timeout() {
		t.Fatalf("the server still reads a slow body after 15 s (read %q)", b)
	}
	if len(b) > 0 && !strings.HasPrefix(string(b), "HTTP/1.1 400") {
		t.Fatalf("answer to a body cut off: %q", b)
	}
}

// A WebSocket outlives the server's read and write timeouts: they bound a
// request and its answer, not a player's session.
func TestWebSocketOutlivesTimeouts(t *testing.T) {
	t.Parallel()
	h := newLimited(t, nil, func(s *server.Server) {
		s.ReadTimeout, s.WriteTimeout = 200*time.Millisecond, 200*time.Millisecond
	})
	ctx, cancel := context.WithTimeout(context.Background(), 20*time.Second)
	defer cancel()
	tb := h.table("venice", false, nil)
	ana := h.player("ana", 1000)
	f := must(ana.Subscribe(ctx, tb, "", 0))
	defer f.Close()
	if m := must(f.Next(ctx)); m.Type != "snapshot" {
		t.Fatalf("first message %+v", m)
	}
	testwait.Pause(600 * time.Millisecond) // three times both timeouts: time passes, nothing is asserted on it
	id := must(f.Send(ctx, wire.CommandRequest{Op: "sit", Box: 1}))
	for {
		m, err := f.Next(ctx)
		if err != nil {
			t.Fatalf("the socket ended after the timeouts: %v", err)
		}
		if m.CommandID == id {
			if m.Type != "result" {
				t.Fatalf("sit: %+v", m)
			}
			return
		}
	}
}

// ---- finding 6: logins and registrations ----

// Twenty wrong passwords for one name: the first ten are 401, the rest 429
// with Retry-After, the right password too until the name's bucket fills
// again; another name is not held up.
func TestHostileLoginThrottledPerName(t *testing.T) {
	t.Parallel()
	h := newHarness(t, nil, slow)
	h.player("victim", 0)
	h.player("other", 0)
	url := h.srv.URL() + "/api/login"
	hc := &http.Client{}
	var ok401, throttled int
	var last answer
	for i := 0; i < 20; i++ {
		a := postJSON(t, hc, url, wire.Credentials{Name: "victim", Password: fmt.Sprintf("guess-%04d", i)})
		switch a.status {
		case http.StatusUnauthorized:
			ok401++
		case http.StatusTooManyRequests:
			throttled++
			last = a
		default:
			t.Fatalf("guess %d: %d %+v", i, a.status, a.body)
		}
	}
	if ok401 != server.DefaultLoginNameBurst || throttled != 20-server.DefaultLoginNameBurst {
		t.Fatalf("20 bad logins: %d answered 401, %d throttled; want %d and %d", ok401, throttled, server.DefaultLoginNameBurst, 20-server.DefaultLoginNameBurst)
	}
	wantAnswer(t, "the 20th guess", last, http.StatusTooManyRequests, sabot.ETHROTTLED, "too many failed logins")
	wantRetryAfter(t, "the 20th guess", last)
	// The name in another case is the same name.
	a := postJSON(t, hc, url, wire.Credentials{Name: "VICTIM", Password: password})
	wantAnswer(t, "VICTIM's right password while throttled", a, http.StatusTooManyRequests, sabot.ETHROTTLED, "try again")
	a = postJSON(t, hc, url, wire.Credentials{Name: "other", Password: password})
	if a.status != http.StatusOK {
		t.Fatalf("another name's login: %d %+v", a.status, a.body)
	}
}

// A stranger guessing a name's password, from however many addresses,
// does not lock its owner out of the addresses it has logged in from;
// the guessing addresses, and a new address once the name's guesses from
// new addresses are spent, are throttled.
func TestLoginThrottleDoesNotLockOutOwner(t *testing.T) {
	t.Parallel()
	h := newLimited(t, nil, func(s *server.Server) { s.LoginNameAllBurst, s.LoginNameAllEvery = 12, time.Hour })
	h.player("victim", 0)
	url := h.srv.URL() + "/api/login"
	owner := from("127.0.0.1")
	if a := postJSON(t, owner, url, wire.Credentials{Name: "victim", Password: password}); a.status != http.StatusOK {
		t.Fatalf("the owner's first login: %d %+v", a.status, a.body)
	}
	// Two strangers: 10 guesses each are answered, then their own
	// addresses are throttled; the second meets the name's bound for new
	// addresses (12) on its third guess.
	for _, ip := range []string{"127.0.0.2", "127.0.0.3"} {
		hc := from(ip)
		for i := 0; i < 15; i++ {
			a := postJSON(t, hc, url, wire.Credentials{Name: "victim", Password: fmt.Sprintf("guess-%s-%d", ip, i)})
			if a.status != http.StatusUnauthorized && a.status != http.StatusTooManyRequests {
				t.Fatalf("guess from %s: %d %+v", ip, a.status, a.body)
			}
		}
	}
	a := postJSON(t, from("127.0.0.2"), url, wire.Credentials{Name: "victim", Password: password})
	wantAnswer(t, "the right password from a guessing address", a, http.StatusTooManyRequests, sabot.ETHROTTLED, "too many failed logins")
	a = postJSON(t, from("127.0.0.4"), url, wire.Credentials{Name: "victim", Password: password})
	wantAnswer(t, "the right password from a new address, the name's guesses spent", a, http.StatusTooManyRequests, sabot.ETHROTTLED, "too many failed logins")
	if a := postJSON(t, owner, url, wire.Credentials{Name: "victim", Password: password}); a.status != http.StatusOK {
		t.Fatalf("the owner is locked out by strangers' guesses: %d %+v", a.status, a.body)
	}
}

// Failed logins from one address across names are throttled too; another
// address is not held up, and successes cost nothing.
func TestHostileLoginThrottledPerAddress(t *testing.T) {
	t.Parallel()
	h := newLimited(t, nil, func(s *server.Server) { s.LoginAddrBurst, s.LoginAddrEvery = 5, time.Hour })
	h.player("ana", 0)
	url := h.srv.URL() + "/api/login"
	local := &http.Client{}
	for i := 0; i < 8; i++ { // successes from the same address: not counted
		if a := postJSON(t, local, url, wire.Credentials{Name: "ana", Password: password}); a.status != http.StatusOK {
			t.Fatalf("login %d: %d %+v", i, a.status, a.body)
		}
	}
	for i := 0; i < 5; i++ {
		a := postJSON(t, local, url, wire.Credentials{Name: fmt.Sprintf("nobody-%d", i), Password: "wrong password"})
		wantAnswer(t, "an unknown name", a, http.StatusUnauthorized, sabot.EUNAUTHORIZED, "unknown name or wrong password")
	}
	a := postJSON(t, local, url, wire.Credentials{Name: "nobody-6", Password: "wrong password"})
	wantAnswer(t, "the 6th failure from 127.0.0.1", a, http.StatusTooManyRequests, sabot.ETHROTTLED, "too many failed logins")
	wantRetryAfter(t, "the 6th failure", a)
	a = postJSON(t, from("127.0.0.2"), url, wire.Credentials{Name: "ana", Password: password})
	if a.status != http.StatusOK {
		t.Fatalf("a login from 127.0.0.2: %d %+v", a.status, a.body)
	}
}

// An unknown name's login computes a password hash as a known name's does
// (against a dummy hash), so that its answer takes the same time: the
// server's count of hashes says so, not a clock.
func TestUnknownNameLoginHashesPassword(t *testing.T) {
	t.Parallel()
	h := newHarness(t, nil, slow)
	h.player("ana", 0)
	hashes := func() float64 {
		return metricValue(get(t, h.admin, "/metrics"), `sabot_password_hashes_total{op="compare"}`)
	}
	url := h.srv.URL() + "/api/login"
	before := hashes()
	a := postJSON(t, &http.Client{}, url, wire.Credentials{Name: "nobody", Password: "wrong password"})
	wantAnswer(t, "an unknown name", a, http.StatusUnauthorized, sabot.EUNAUTHORIZED, "unknown name or wrong password")
	if n := hashes() - before; n != 1 {
		t.Fatalf("an unknown name's login computed %v hashes, want 1 (as a known name's)", n)
	}
	b := postJSON(t, &http.Client{}, url, wire.Credentials{Name: "ana", Password: "wrong password"})
	if !reflect.DeepEqual(b.body, a.body) {
		t.Fatalf("a known name's wrong password answers %+v, an unknown name %+v", b.body, a.body)
	}
	if n := hashes() - before; n != 2 {
		t.Fatalf("two failed logins computed %v hashes, want 2", n)
	}
}

// Registrations from one address are throttled (each is a welcome credit
// and a password hash); another address still registers.
func TestHostileRegistrationFlood(t *testing.T) {
	t.Parallel()
	h := newLimited(t, nil, func(s *server.Server) { s.RegisterBurst, s.RegisterEvery = 5, time.Hour })
	url := h.srv.URL() + "/api/register"
	local := &http.Client{}
	for i := 0; i < 5; i++ {
		if a := postJSON(t, local, url, wire.Credentials{Name: fmt.Sprintf("flood-%d", i), Password: password}); a.status != http.StatusCreated {
			t.Fatalf("registration %d: %d %+v", i, a.status, a.body)
		}
	}
	a := postJSON(t, local, url, wire.Credentials{Name: "flood-5", Password: password})
	wantAnswer(t, "the 6th registration", a, http.StatusTooManyRequests, sabot.ETHROTTLED, "too many registrations")
	wantRetryAfter(t, "the 6th registration", a)
	if _, err := h.st.UserByName(context.Background(), "flood-5"); sabot.ErrorCode(err) != sabot.ENOTFOUND {
		t.Fatalf("a refused registration made a user: %v", err)
	}
	if a := postJSON(t, from("127.0.0.2"), url, wire.Credentials{Name: "elsewhere", Password: password}); a.status != http.StatusCreated {
		t.Fatalf("a registration from 127.0.0.2: %d %+v", a.status, a.body)
	}
	// An administrator registering players (sabot bots, a batch) from the
	// throttled address is not counted; a player's session is.
	pitReg := &client.Client{URL: h.srv.URL(), Token: h.admin.Token}
	for i := 0; i < 20; i++ {
		if err := pitReg.Register(context.Background(), fmt.Sprintf("batch-%d", i), password); err != nil {
			t.Fatalf("the pit's registration %d: %v", i, err)
		}
	}
	ana := &client.Client{URL: h.srv.URL()}
	if _, err := ana.Login(context.Background(), "batch-0", password); err != nil {
		t.Fatal(err)
	}
	a = postJSON(t, local, url, wire.Credentials{Name: "by-ana", Password: password})
	wantAnswer(t, "a registration with no session, after the pit's", a, http.StatusTooManyRequests, sabot.ETHROTTLED, "too many registrations")
	if err := (&client.Client{URL: h.srv.URL(), Token: ana.Token}).Register(context.Background(), "by-ana", password); sabot.ErrorCode(err) != sabot.ETHROTTLED {
		t.Fatalf("a player's session lifted the registrations' throttle: %v", err)
	}
}

// ---- finding 8: command IDs ----

// Command and client IDs too long or not printable are refused as invalid
// before the store, over HTTP and on the WebSocket, on both stores; the
// table is unchanged. A 64-byte printable ID is taken.
func TestHostileCommandIDsChecked(t *testing.T) {
	t.Parallel()
	t.Run("sqlite", func(t *testing.T) { testCommandIDsChecked(t, nil) })
	t.Run("postgres", func(t *testing.T) {
		st, err := store.Open(context.Background(), storetest.PostgresDSN(t))
		if err != nil {
			t.Fatal(err)
		}
		t.Cleanup(func() { st.Close() })
		testCommandIDsChecked(t, st)
	})
}

func testCommandIDsChecked(t *testing.T, st sabot.Store) {
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	h := newHarness(t, st, slow)
	tb := h.table("venice", false, nil)
	ana := h.player("ana", 1000)
	bad := []struct{ commandID, clientID, text string }{
		{"nul\x00byte", "", "command_id must be printable text"},
		{strings.Repeat("x", 65), "", "command_id is at most 64 bytes"},
		{strings.Repeat("x", 3000), "", "command_id is at most 64 bytes"},
		{"fine", "bell\x07", "client_id must be printable text"},
		{"fine", "line\nbreak", "client_id must be printable text"},
		{"fine", strings.Repeat("é", 33), "client_id is at most 64 bytes"},
	}
	for _, b := range bad {
		_, err := ana.Command(ctx, tb, "sit", wire.CommandRequest{CommandID: b.commandID, ClientID: b.clientID, Box: 1})
		wantCode(t, err, sabot.EINVALID, b.text)
	}
	f := must(ana.Subscribe(ctx, tb, "", 0))
	defer f.Close()
	for _, b := range bad {
		must(f.Send(ctx, wire.CommandRequest{Op: "sit", CommandID: b.commandID, ClientID: b.clientID, Box: 1}))
		for {
			m := must(f.Next(ctx))
			if m.Type == "error" || m.Type == "result" {
				if m.Type != "error" || m.Code != sabot.EINVALID || !strings.Contains(m.Error, b.text) {
					t.Fatalf("on the socket, IDs %q/%q: %+v", b.commandID, b.clientID, m)
				}
				break
			}
		}
	}
	if v := must(ana.Table(ctx, tb)); len(v.Seats) != 0 {
		t.Fatalf("refused commands seated someone: %+v", v.Seats)
	}
	wantCode(t, h.admin.Do(ctx, "POST", "/api/admin/credit", wire.CreditRequest{CommandID: "credit\x00", User: "ana", Amount: 1}, nil),
		sabot.EINVALID, "command_id must be printable text")
	if w := wallet(t, ana); w != 1000 {
		t.Fatalf("a refused credit moved money: wallet %d", w)
	}
	id := strings.Repeat("é", 32) // 64 bytes of printable UTF-8
	res := must(ana.Command(ctx, tb, "sit", wire.CommandRequest{CommandID: id, ClientID: id, Box: 1}))
	again := must(ana.Command(ctx, tb, "sit", wire.CommandRequest{CommandID: id, ClientID: id, Box: 1}))
	if !again.Duplicate || again.Seq != res.Seq {
		t.Fatalf("a 64-byte ID sent twice: %+v then %+v", res, again)
	}
	checkLedger(t, h.st)
}

// ---- finding 11: readiness ----

// On a database opened read-only the server refuses to start, saying why,
// and its readiness check answers 503 while liveness says it runs; on a
// writable one the readiness check is ok.
func TestReadOnlyStoreNotReady(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	path := filepath.Join(t.TempDir(), "sabot.db")
	st, err := store.Open(ctx, path)
	if err != nil {
		t.Fatal(err)
	}
	srv0 := &server.Server{Store: st}
	ok := httptest.NewServer(srv0.Handler())
	// Not ready while it opens its tables (sabot serve's default tables: a
	// script that waited on /healthz found them missing).
	srv0.Starting(true)
	a := send(t, &http.Client{}, "GET", ok.URL+"/readyz", "", "", "")
	wantAnswer(t, "/readyz while starting", a, http.StatusServiceUnavailable, sabot.EUNAVAILABLE, "still starting")
	srv0.Starting(false)
	a = send(t, &http.Client{}, "GET", ok.URL+"/readyz", "", "", "")
	ok.Close()
	if a.status != http.StatusOK {
		t.Fatalf("/readyz on a writable store: %d %+v", a.status, a.body)
	}
	st.Close()

	// SQLite opens a file it may not write read-only, and says nothing;
	// mode=ro does the same for a test that runs as root.
	ro, err := store.Open(ctx, "file:"+path+"?mode=ro")
	if err != nil {
		t.Fatal(err)
	}
	defer ro.Close()
	srv := &server.Server{Store: ro}
	if err := srv.Open(); err == nil || !strings.Contains(err.Error(), "does not accept writes") {
		srv.Close()
		t.Fatalf("the server started on a read-only store: %v", err)
	}
	hs := httptest.NewServer((&server.Server{Store: ro}).Handler())
	defer hs.Close()
	a = send(t, &http.Client{}, "GET", hs.URL+"/readyz", "", "", "")
	wantAnswer(t, "/readyz on a read-only store", a, http.StatusServiceUnavailable, sabot.EUNAVAILABLE, "the store does not accept writes")
	wantRetryAfter(t, "/readyz", a)
	if a := send(t, &http.Client{}, "GET", hs.URL+"/healthz", "", "", ""); a.status != http.StatusOK {
		t.Fatalf("/healthz (liveness): %d", a.status)
	}
}

// ---- finding 12: loose edges ----

// ?token= authenticates the WebSocket only; the bearer scheme's case does
// not matter; another scheme is refused.
func TestTokenQueryOnlyOnWebSocket(t *testing.T) {
	t.Parallel()
	h := newHarness(t, nil, slow)
	tb := h.table("venice", false, nil)
	ana := h.player("ana", 0)
	hc := &http.Client{}
	me := h.srv.URL() + "/api/me"
	wantAnswer(t, "?token= on /api/me", send(t, hc, "GET", me+"?token="+ana.Token, "", "", ""), http.StatusUnauthorized, sabot.EUNAUTHORIZED, "log in")
	for _, scheme := range []string{"Bearer", "bearer", "BEARER", "bEaReR"} {
		if a := send(t, hc, "GET", me, "", "", scheme+" "+ana.Token); a.status != http.StatusOK {
			t.Fatalf("%q scheme: %d %+v", scheme, a.status, a.body)
		}
	}
	wantAnswer(t, "the Basic scheme", send(t, hc, "GET", me, "", "", "Basic "+ana.Token), http.StatusUnauthorized, sabot.EUNAUTHORIZED, "Bearer TOKEN")
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	ws := strings.Replace(h.srv.URL(), "http", "ws", 1) + fmt.Sprintf("/api/tables/%d/ws?token=%s", tb, ana.Token)
	conn, _, err := websocket.Dial(ctx, ws, nil)
	if err != nil {
		t.Fatalf("?token= on the WebSocket: %v", err)
	}
	conn.Close(websocket.StatusNormalClosure, "")
}

// Names are one whatever their case or Unicode form, and have a length
// limit; a login finds the name in any case.
func TestNamesCaseInsensitive(t *testing.T) {
	t.Parallel()
	h := newHarness(t, nil, slow)
	ctx := context.Background()
	c := &client.Client{URL: h.srv.URL()}
	must(0, c.Register(ctx, "Alice", password))
	for _, name := range []string{"alice", "ALICE", "ＡＬＩＣＥ"} {
		wantCode(t, c.Register(ctx, name, password), sabot.ECONFLICT, "taken")
	}
	wantCode(t, c.Register(ctx, "Pit", password), sabot.ECONFLICT, "taken") // the harness's administrator is "pit"
	wantCode(t, c.Register(ctx, strings.Repeat("a", 33), password), sabot.EINVALID, "at most 32 characters")
	r := must(c.Login(ctx, "aLiCe", password))
	if r.User.Name != "Alice" {
		t.Fatalf("login as aLiCe: %+v", r.User)
	}
	if r := must(c.Login(ctx, "ａｌｉｃｅ", password)); r.User.Name != "Alice" {
		t.Fatalf("login in fullwidth letters: %+v", r.User)
	}
	// José and Ana María, one whatever their case.
	must(0, c.Register(ctx, "José", password))
	wantCode(t, c.Register(ctx, "JOSÉ", password), sabot.ECONFLICT, "taken")
	wantCode(t, c.Register(ctx, "Jose\u0301", password), sabot.ECONFLICT, "taken")
	must(0, c.Register(ctx, "Ana María", password))
	if r := must(c.Login(ctx, "ana maría", password)); r.User.Name != "Ana María" {
		t.Fatalf("login as ana maría: %+v", r.User)
	}
}

// A password of spaces, and one over bcrypt's 72 bytes, are refused with a
// clear reason (not bcrypt's).
func TestPasswordRules(t *testing.T) {
	t.Parallel()
	h := newHarness(t, nil, slow)
	ctx := context.Background()
	c := &client.Client{URL: h.srv.URL()}
	wantCode(t, c.Register(ctx, "spaces", "        "), sabot.EINVALID, "a password needs more than spaces")
	wantCode(t, c.Register(ctx, "spaces", " \t  \u00a0   "), sabot.EINVALID, "a password needs more than spaces")
	wantCode(t, c.Register(ctx, "long", strings.Repeat("p", 73)), sabot.EINVALID, "a password has at most 72 bytes (bcrypt reads no more)")
	wantCode(t, c.Register(ctx, "long", strings.Repeat("é", 37)), sabot.EINVALID, "at most 72 bytes")
	must(0, c.Register(ctx, "long", strings.Repeat("p", 72)))
	_, err := c.Login(ctx, "long", strings.Repeat("p", 73))
	wantCode(t, err, sabot.EINVALID, "at most 72 bytes")
	must(c.Login(ctx, "long", strings.Repeat("p", 72)))
}

// A POST body must be declared application/json (415 otherwise: a
// cross-site form cannot register accounts); a POST without a body needs
// no Content-Type.
func TestJSONContentTypeRequired(t *testing.T) {
	t.Parallel()
	h := newHarness(t, nil, slow)
	ana := h.player("ana", 0)
	hc := &http.Client{}
	url := h.srv.URL() + "/api/register"
	body := `{"name":"formed","password":"correct horse"}`
	for _, ct := range []string{"", "text/plain", "application/x-www-form-urlencoded", "multipart/form-data; boundary=x", "application/jsonx"} {
		a := send(t, hc, "POST", url, ct, body, "")
		wantAnswer(t, "Content-Type "+ct, a, http.StatusUnsupportedMediaType, sabot.EMEDIATYPE, "application/json")
	}
	if _, err := h.st.UserByName(context.Background(), "formed"); sabot.ErrorCode(err) != sabot.ENOTFOUND {
		t.Fatalf("a refused registration made a user: %v", err)
	}
	if a := send(t, hc, "POST", url, "application/json; charset=utf-8", body, ""); a.status != http.StatusCreated {
		t.Fatalf("application/json; charset=utf-8: %d %+v", a.status, a.body)
	}
	if a := send(t, hc, "POST", h.srv.URL()+"/api/logout", "", "", "Bearer "+ana.Token); a.status != http.StatusOK {
		t.Fatalf("a logout without a body: %d %+v", a.status, a.body)
	}
}

// A body with anything after its JSON object, a field name in another
// case, or a field given twice is refused, over HTTP and on the WebSocket;
// white space after the object is fine.
func TestStrictJSONBodies(t *testing.T) {
	t.Parallel()
	h := newHarness(t, nil, slow)
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	tb := h.table("venice", false, nil)
	ana := h.player("ana", 1000)
	must(ana.Command(ctx, tb, "sit", wire.CommandRequest{Box: 1}))
	hc := &http.Client{}
	reg := h.srv.URL() + "/api/register"
	bet := fmt.Sprintf("%s/api/tables/%d/bet", h.srv.URL(), tb)
	for _, c := range []struct{ url, body, text string }{
		{reg, `{"name":"x1","password":"correct horse"} {"name":"x2"}`, "something follows the JSON object"},
		{reg, `{"name":"x1","password":"correct horse"}garbage`, "something follows the JSON object"},
		{reg, `{"Name":"x1","password":"correct horse"}`, `unknown field "Name" (field names are exact: "name")`},
		{reg, `{"name":"x1","name":"x2","password":"correct horse"}`, `the field "name" is given twice`},
		{reg, `["x1","correct horse"]`, "a JSON object is expected"},
		{bet, `{"command_id":"b1","box":1,"Stake":100}`, `unknown field "Stake"`},
		{bet, `{"command_id":"b1","box":1,"stake":100}{}`, "something follows"},
	} {
		a := send(t, hc, "POST", c.url, "application/json", c.body, "Bearer "+ana.Token)
		wantAnswer(t, c.body, a, http.StatusBadRequest, sabot.EINVALID, c.text)
	}
	if v := must(ana.Table(ctx, tb)); len(v.Bets) != 0 {
		t.Fatalf("a refused body placed a bet: %+v", v.Bets)
	}
	if a := send(t, hc, "POST", reg, "application/json", "{\"name\":\"x1\",\"password\":\"correct horse\"}\n \n", ""); a.status != http.StatusCreated {
		t.Fatalf("white space after the object: %d %+v", a.status, a.body)
	}
	// The same rules on the socket.
	conn, _, err := websocket.Dial(ctx, strings.Replace(h.srv.URL(), "http", "ws", 1)+fmt.Sprintf("/api/tables/%d/ws", tb),
		&websocket.DialOptions{HTTPHeader: http.Header{"Authorization": {"Bearer " + ana.Token}}})
	if err != nil {
		t.Fatal(err)
	}
	defer conn.CloseNow()
	for _, c := range []struct{ msg, text string }{
		{`{"op":"bet","command_id":"w1","box":1,"Stake":100}`, `unknown field "Stake"`},
		{`{"op":"bet","command_id":"w2","box":1,"stake":100} {}`, "something follows"},
	} {
		conn.Write(ctx, websocket.MessageText, []byte(c.msg))
		for {
			_, data, err := conn.Read(ctx)
			if err != nil {
				t.Fatal(err)
			}
			var m wire.Message
			json.Unmarshal(data, &m)
			if m.Type == "error" || m.Type == "result" {
				if m.Type != "error" || m.Code != sabot.EINVALID || !strings.Contains(m.Error, c.text) {
					t.Fatalf("%s on the socket: %s", c.msg, data)
				}
				break
			}
		}
	}
	if v := must(ana.Table(ctx, tb)); len(v.Bets) != 0 {
		t.Fatalf("a refused message placed a bet: %+v", v.Bets)
	}
}

// A stake outside the table's limits is `invalid` (docs/protocol.md: "an
// illegal action or stake"), over HTTP and on the socket; a refusal for
// the table's state stays `conflict`.
func TestStakeRefusalIsInvalid(t *testing.T) {
	t.Parallel()
	h := newHarness(t, nil, slow)
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	tb := h.table("venice", false, map[string]string{"min_bet": "100", "max_bet": "500"})
	ana, ben := h.player("ana", 1000), h.player("ben", 1000)
	must(ana.Command(ctx, tb, "sit", wire.CommandRequest{Box: 1}))
	// 99: venice's VE-18 lets a stake found short stand once the cards are
	// dealt, not one placed short (docs/play.md), as `sabot play` refuses it.
	for _, stake := range []money.Amount{-5, 0, 99, 501, 1 << 40} {
		_, err := ana.Command(ctx, tb, "bet", wire.CommandRequest{Box: 1, Stake: stake})
		wantCode(t, err, sabot.EINVALID, "a stake must be between 1.00 and 5.00 (VE-21)")
	}
	f := must(ana.Subscribe(ctx, tb, "", 0))
	defer f.Close()
	id := must(f.Send(ctx, wire.CommandRequest{Op: "bet", Box: 1, Stake: 501}))
	for {
		m := must(f.Next(ctx))
		if m.CommandID == id {
			if m.Type != "error" || m.Code != sabot.EINVALID || !strings.Contains(m.Error, "(VE-21)") {
				t.Fatalf("a stake over the maximum on the socket: %+v", m)
			}
			break
		}
	}
	_, err := ben.Command(ctx, tb, "sit", wire.CommandRequest{Box: 1})
	wantCode(t, err, sabot.ECONFLICT, "(VE-03)") // venice: its own rule, not AR-21
	if w := wallet(t, ana); w != 1000 {
		t.Fatalf("refused stakes moved money: %d", w)
	}
}

// A client sending bad requests at full speed is answered, beyond its
// refusals' burst, only after the tarpit delay, on its own connections; a
// client at another address is answered at once (one hostile
// client's refusals took the cores from 100 tables).
func TestRefusalsTarpitted(t *testing.T) {
	t.Parallel()
	h := newLimited(t, nil, func(s *server.Server) {
		s.RefusalBurst, s.RefusalEvery, s.Tarpit = 5, time.Hour, 300*time.Millisecond
	})
	ana := h.player("ana", 1000)
	url := fmt.Sprintf("%s/api/tables/%d/sit", h.srv.URL(), h.table("venice", false, nil))
	tarpitted := func() float64 {
		resp, err := http.Get(h.srv.URL() + "/metrics")
		if err != nil {
			t.Fatal(err)
		}
		defer resp.Body.Close()
		b, _ := io.ReadAll(resp.Body)
		return metricValue(string(b), "sabot_tarpitted_total")
	}
	hostile := from("127.0.0.2")
	bad := `{"command_id":"a\u0000b","box":1}`
	for i := 0; i < 5; i++ {
		a := send(t, hostile, "POST", url, "application/json", bad, "Bearer "+ana.Token)
		wantAnswer(t, "a bad command ID", a, http.StatusBadRequest, sabot.EINVALID, "command_id")
	}
	if n := tarpitted(); n != 0 {
		t.Fatalf("%v refusals held back within the burst", n)
	}
	start := time.Now()
	a := send(t, hostile, "POST", url, "application/json", bad, "Bearer "+ana.Token)
	wantAnswer(t, "the 6th bad command ID", a, http.StatusBadRequest, sabot.EINVALID, "command_id")
	if n := tarpitted(); n != 1 {
		t.Fatalf("the 6th refusal from one address: %v held back, want 1", n)
	}
	if d := time.Since(start); d < 300*time.Millisecond {
		t.Fatalf("the held-back refusal was answered after %v, before the tarpit's 300ms", d)
	}
	a = send(t, from("127.0.0.3"), "POST", url, "application/json", bad, "Bearer "+ana.Token)
	wantAnswer(t, "a bad command ID from another address", a, http.StatusBadRequest, sabot.EINVALID, "command_id")
	if n := tarpitted(); n != 1 {
		t.Fatalf("another address's first refusal was held back (%v)", n)
	}
}
