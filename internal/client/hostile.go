package client

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"maps"
	"net"
	"net/http"
	"slices"
	"strconv"
	"strings"
	"sync"
	"time"

	"github.com/coder/websocket"

	"sabot/internal/wire"
)

// Hostile is a hostile client, for measuring what one player bent on
// harm can do to the others (docs/server.md, "Abuse and limits"). Until
// its context ends it runs, each with Workers goroutines at full speed:
//
//   - guess: logins with wrong passwords for a real name and for unknown
//     names (password guessing, name enumeration, bcrypt's CPU);
//   - register: registrations of new accounts (each a welcome credit);
//   - sockets: one account opens up to Sockets WebSockets on one table and
//     asks each for a snapshot without pause;
//   - bad-ids: table commands with malformed command IDs (a NUL byte,
//     3 KB) that once failed the store's whole group commit.
//
// It counts the answers of each attack by outcome: an HTTP status, or what
// happened to a socket. It is not a test: run it beside `sabot bots` and
// compare the bots' latency with a quiet run (`sabot hostile`).
type Hostile struct {
	URL      string
	Name     string // its own account, registered if it does not log in
	Password string
	Victim   string // a name whose password it guesses
	Table    int64  // the table its sockets and commands go to
	Workers  int    // goroutines per attack (default 8)
	Sockets  int    // WebSockets it tries to hold (default 256)
	// LocalAddr is the address it sends from (e.g. 127.0.0.2), so that
	// limits per client address meet it and not the bots beside it.
	LocalAddr string

	mu  sync.Mutex
	out map[string]map[string]int
}

// HostileReport is what each attack met: attack → outcome → count.
type HostileReport map[string]map[string]int

// String prints the report one attack a line, outcomes by count.
func (r HostileReport) String() string {
	var b strings.Builder
	for _, attack := range slices.Sorted(maps.Keys(r)) {
		outs := r[attack]
		keys := slices.Sorted(maps.Keys(outs))
		slices.SortStableFunc(keys, func(x, y string) int { return outs[y] - outs[x] })
		fmt.Fprintf(&b, "%-9s", attack)
		for _, k := range keys {
			fmt.Fprintf(&b, "  %s ×%d", k, outs[k])
		}
		b.WriteByte('\n')
	}
	return b.String()
}

// Seen is how many times an attack has met an outcome so far.
func (h *Hostile) Seen(attack, outcome string) int {
	h.mu.Lock()
	defer h.mu.Unlock()
	return h.out[attack][outcome]
}

func (h *Hostile) count(attack, outcome string) {
	h.mu.Lock()
	defer h.mu.Unlock()
	if h.out[attack] == nil {
		h.out[attack] = map[string]int{}
	}
	h.out[attack][outcome]++
}

func (h *Hostile) httpClient() *http.Client {
	d := &net.Dialer{Timeout: 5 * time.Second}
	if h.LocalAddr != "" {
		d.LocalAddr = &net.TCPAddr{IP: net.ParseIP(h.LocalAddr)}
	}
	return &http.Client{Timeout: 10 * time.Second, Transport: &http.Transport{DialContext: d.DialContext,
		MaxIdleConnsPerHost: 64, MaxIdleConns: 256}}
}

// Run attacks until ctx ends and returns what each attack met.
func (h *Hostile) Run(ctx context.Context) (HostileReport, error) {
	if h.Workers <= 0 {
		h.Workers = 8
	}
	if h.Sockets <= 0 {
		h.Sockets = 256
	}
	h.mu.Lock()
	h.out = map[string]map[string]int{}
	h.mu.Unlock()
	hc := h.httpClient()
	me := &Client{URL: h.URL, HTTP: hc}
	if _, err := me.Login(ctx, h.Name, h.Password); err != nil {
		if err := me.Register(ctx, h.Name, h.Password); err != nil {
			return nil, fmt.Errorf("hostile: register %s: %w", h.Name, err)
		}
		if _, err := me.Login(ctx, h.Name, h.Password); err != nil {
			return nil, fmt.Errorf("hostile: log in %s: %w", h.Name, err)
		}
	}
	var wg sync.WaitGroup
	for w := 0; w < h.Workers; w++ {
		wg.Go(func() { h.guess(ctx, hc, w) })
		wg.Go(func() { h.register(ctx, hc, w) })
		wg.Go(func() { h.badIDs(ctx, hc, me.Token, w) })
	}
	wg.Go(func() { h.sockets(ctx, me) })
	wg.Wait()
	h.mu.Lock()
	defer h.mu.Unlock()
	return HostileReport(h.out), nil
}

// post sends a JSON body and counts the answer's status.
func (h *Hostile) post(ctx context.Context, hc *http.Client, attack, path, token string, body any) {
	b, _ := json.Marshal(body)
	req, err := http.NewRequestWithContext(ctx, "POST", strings.TrimRight(h.URL, "/")+path, bytes.NewReader(b))
	if err != nil {
		return
	}
	req.Header.Set("Content-Type", "application/json")
	if token != "" {
		req.Header.Set("Authorization", "Bearer "+token)
	}
	resp, err := hc.Do(req)
	if err != nil {
		if ctx.Err() == nil {
			h.count(attack, "transport error")
			time.Sleep(10 * time.Millisecond)
		}
		return
	}
	io.Copy(io.Discard, resp.Body)
	resp.Body.Close()
	h.count(attack, strconv.Itoa(resp.StatusCode))
}

func (h *Hostile) guess(ctx context.Context, hc *http.Client, w int) {
	for i := 0; ctx.Err() == nil; i++ {
		name := h.Victim
		if i%2 == 1 || name == "" {
			name = fmt.Sprintf("nobody-%d-%d", w, i)
		}
		h.post(ctx, hc, "guess", "/api/login", "", wire.Credentials{Name: name, Password: fmt.Sprintf("guess-%d-%d", w, i)})
	}
}

func (h *Hostile) register(ctx context.Context, hc *http.Client, w int) {
	tag := randomID(3)
	for i := 0; ctx.Err() == nil; i++ {
		h.post(ctx, hc, "register", "/api/register", "", wire.Credentials{Name: fmt.Sprintf("h%s-%d-%d", tag, w, i), Password: "hostile-password"})
	}
}

func (h *Hostile) badIDs(ctx context.Context, hc *http.Client, token string, w int) {
	long := strings.Repeat("x", 3000)
	path := fmt.Sprintf("/api/tables/%d/%s", h.Table, wire.OpSit)
	for i := 0; ctx.Err() == nil; i++ {
		id := fmt.Sprintf("nul\x00%d-%d", w, i)
		if i%2 == 1 {
			id = fmt.Sprintf("%s-%d-%d", long, w, i)
		}
		h.post(ctx, hc, "bad-ids", path, token, wire.CommandRequest{CommandID: id, ClientID: id, Box: 1 + i%7})
	}
}

// sockets opens sockets one after another, each asking for snapshots
// without pause, until Sockets are open or the server refuses.
func (h *Hostile) sockets(ctx context.Context, me *Client) {
	var wg sync.WaitGroup
	defer wg.Wait()
	refusals := 0
	for i := 0; i < h.Sockets && ctx.Err() == nil; i++ {
		f, err := me.Subscribe(ctx, h.Table, "", 0)
		if err != nil {
			if ctx.Err() != nil {
				return
			}
			outcome := "refused"
			var ce websocket.CloseError
			if s := strings.TrimPrefix(err.Error(), "failed to WebSocket dial: expected handshake response status code 101 but got "); s != err.Error() {
				outcome = "refused " + strings.Fields(s)[0]
			} else if errors.As(err, &ce) {
				outcome = "refused " + ce.Code.String()
			}
			h.count("sockets", outcome)
			refusals++
			if refusals > 20 {
				// Refused again and again: keep what is open.
				select {
				case <-ctx.Done():
					return
				case <-time.After(time.Second):
				}
			}
			continue
		}
		h.count("sockets", "opened")
		wg.Go(func() {
			defer f.Close()
			h.spam(ctx, f)
		})
	}
}

// spam asks for snapshots as fast as the socket takes them, reading the
// answers on the side.
func (h *Hostile) spam(ctx context.Context, f *Feed) {
	sctx, cancel := context.WithCancel(ctx)
	defer cancel()
	go func() {
		defer cancel()
		for {
			m, err := f.Next(sctx)
			if err != nil {
				if ctx.Err() == nil {
					outcome := "socket closed"
					var ce websocket.CloseError
					if errors.As(err, &ce) {
						outcome = "socket closed " + ce.Code.String()
					}
					h.count("sockets", outcome)
				}
				return
			}
			switch m.Type {
			case wire.MsgSnapshot:
				h.count("snapshot", "answered")
			case wire.MsgError:
				h.count("snapshot", "error "+m.Code)
			}
		}
	}()
	for sctx.Err() == nil {
		if _, err := f.Send(sctx, wire.CommandRequest{Op: wire.OpSnapshot}); err != nil {
			return
		}
	}
}
