package client

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"net/http"
	"net/url"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	"github.com/coder/websocket"

	"sabot"
	"sabot/internal/httpjson"
	"sabot/internal/wire"
	"sabot/money"
)

// Client speaks the table service's protocol: the HTTP API and a table's
// WebSocket. The bots and the tests use it.
type Client struct {
	// URL is the server's base URL, http://host:port, or several nodes'
	// separated by commas (any node serves every table): the client uses
	// the first and moves to the next when one does not answer (a
	// connection refused or cut, a 502 or 503).
	URL   string
	Token string // set by Login
	HTTP  *http.Client
	ID    string // the client ID sent with commands (default: random)
	// Header is sent with every request, after the bearer token: a card
	// reader's "Authorization: Device TOKEN".
	Header map[string]string
	// Keepalive is how often a table's WebSocket pings the server and how
	// long it waits for the answer (0: DefaultKeepalive; negative: no
	// pings); DialTimeout bounds opening one (0: DefaultDialTimeout).
	Keepalive, DialTimeout time.Duration
	// CallTimeout bounds each plain request (Do), where its context has no
	// earlier deadline: a node stopped takes the connection and answers
	// nothing (0: DefaultCallTimeout; negative: no bound). A call that
	// times out moves the client to its next node's URL.
	CallTimeout time.Duration
	// Resends is how many times Command sends a command again under its
	// command ID when it was answered unavailable or internal or its
	// answer was lost (0: DefaultResends; negative: never, the first
	// answer is the caller's).
	Resends int

	n      atomic.Int64
	once   sync.Once
	cur    atomic.Int64 // the node in use, an index into URL's list
	mu     sync.Mutex
	failed map[int]time.Time // when each node last failed, by index
}

// base is the base URL in use.
func (c *Client) base() string {
	urls := strings.Split(c.URL, ",")
	return strings.TrimRight(strings.TrimSpace(urls[int(c.cur.Load())%len(urls)]), "/")
}

// failover moves to the next of several nodes' URLs that has not failed
// in the last failedFor (a node stopped takes connections and answers
// nothing: each try costs DialTimeout), or to the next one if all have.
func (c *Client) failover() {
	if !strings.Contains(c.URL, ",") {
		return
	}
	n := len(strings.Split(c.URL, ","))
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.failed == nil {
		c.failed = map[int]time.Time{}
	}
	now := time.Now()
	cur := int(c.cur.Load()) % n
	c.failed[cur] = now
	next := (cur + 1) % n
	for i := 1; i <= n; i++ {
		if k := (cur + i) % n; now.Sub(c.failed[k]) > failedFor {
			next = k
			break
		}
	}
	c.cur.Store(int64(next))
}

// failedFor is how long a node that failed is passed over.
const failedFor = 10 * time.Second

// Rotate returns a list of nodes' URLs starting at its i-th (modulo its
// length): clients spread over the nodes.
func Rotate(urls string, i int) string {
	list := strings.Split(urls, ",")
	k := i % len(list)
	return strings.Join(append(list[k:len(list):len(list)], list[:k]...), ",")
}

// NextCommandID returns a fresh command ID.
func (c *Client) NextCommandID() string {
	c.once.Do(func() {
		if c.ID == "" {
			c.ID = randomID(6)
		}
	})
	return fmt.Sprintf("%s-%d", c.ID, c.n.Add(1))
}

func (c *Client) httpClient() *http.Client {
	if c.HTTP != nil {
		return c.HTTP
	}
	return http.DefaultClient
}

// Do sends a request with a JSON body and decodes the JSON answer into out.
// An error answer comes back as a *sabot.Error with its code.
func (c *Client) Do(ctx context.Context, method, path string, body, out any) error {
	var rd *bytes.Reader
	if body != nil {
		b, err := json.Marshal(body)
		if err != nil {
			return err
		}
		rd = bytes.NewReader(b)
	} else {
		rd = bytes.NewReader(nil)
	}
	if limit := durationOr(c.CallTimeout, DefaultCallTimeout); limit > 0 {
		if d, ok := ctx.Deadline(); !ok || time.Until(d) > limit {
			var cancel context.CancelFunc
			ctx, cancel = context.WithTimeout(ctx, limit)
			defer cancel()
		}
	}
	req, err := http.NewRequestWithContext(ctx, method, c.base()+path, rd)
	if err != nil {
		return err
	}
	req.Header.Set("Content-Type", "application/json")
	if c.Token != "" {
		req.Header.Set("Authorization", "Bearer "+c.Token)
	}
	for k, v := range c.Header {
		req.Header.Set(k, v)
	}
	resp, err := c.httpClient().Do(req)
	if err != nil {
		c.failover()
		return err
	}
	defer resp.Body.Close()
	if resp.StatusCode == http.StatusBadGateway || resp.StatusCode == http.StatusServiceUnavailable {
		c.failover()
	}
	if resp.StatusCode >= 300 {
		var e httpjson.ErrorBody
		var retry time.Duration
		if n, err := strconv.Atoi(resp.Header.Get("Retry-After")); err == nil && n > 0 {
			retry = time.Duration(n) * time.Second
		}
		if json.NewDecoder(resp.Body).Decode(&e) != nil || e.Code == "" {
			return &sabot.Error{Code: sabot.EINTERNAL, Message: fmt.Sprintf("HTTP %d", resp.StatusCode), RetryAfter: retry}
		}
		return &sabot.Error{Code: e.Code, Message: e.Error, Reason: e.Reason, Params: e.Params, RetryAfter: retry}
	}
	if out == nil {
		return nil
	}
	return json.NewDecoder(resp.Body).Decode(out)
}

// Register registers a player.
func (c *Client) Register(ctx context.Context, name, password string) error {
	return c.Do(ctx, "POST", "/api/register", wire.Credentials{Name: name, Password: password}, nil)
}

// Login logs in and keeps the session's token.
func (c *Client) Login(ctx context.Context, name, password string) (*wire.LoginResult, error) {
	var r wire.LoginResult
	if err := c.Do(ctx, "POST", "/api/login", wire.Credentials{Name: name, Password: password}, &r); err != nil {
		return nil, err
	}
	c.Token = r.Token
	return &r, nil
}

// Launch opens a session with an operator's token and keeps
// it, as Login does.
func (c *Client) Launch(ctx context.Context, token string) (*wire.LoginResult, error) {
	var r wire.LoginResult
	if err := c.Do(ctx, "POST", "/api/launch", wire.LaunchRequest{Token: token}, &r); err != nil {
		return nil, err
	}
	c.Token = r.Token
	return &r, nil
}

// Me returns the logged-in user and the wallet's balance.
func (c *Client) Me(ctx context.Context) (*wire.UserView, error) {
	var u wire.UserView
	return &u, c.Do(ctx, "GET", "/api/me", nil, &u)
}

// Credit credits a user's wallet (administrators).
func (c *Client) Credit(ctx context.Context, user string, amount money.Amount) error {
	return c.Do(ctx, "POST", "/api/admin/credit", wire.CreditRequest{CommandID: c.NextCommandID(), User: user, Amount: amount}, nil)
}

// CreateTable creates a table (administrators).
func (c *Client) CreateTable(ctx context.Context, req wire.TableRequest) (*wire.TableView, error) {
	var v wire.TableView
	return &v, c.Do(ctx, "POST", "/api/tables", req, &v)
}

// Table returns a table's snapshot.
func (c *Client) Table(ctx context.Context, id int64) (*wire.TableView, error) {
	var v wire.TableView
	return &v, c.Do(ctx, "GET", fmt.Sprintf("/api/tables/%d", id), nil, &v)
}

// Raced reports whether err refuses a command because the table had gone
// on before it arrived: a decision for a turn that moved on (out_of_turn),
// at a moment that passed (wrong_phase), in an optional window closed by
// its timer (no_window, nothing_to_answer), or a "deal" for a round dealt
// meanwhile (deal_dealt). It is a normal race of a live table, not an
// error: the client takes the table's state as it stands now (the events
// that moved it come on the socket, or a snapshot). A command sent again
// under its ID is answered "duplicate" with the first answer, as a
// success (wire.CommandResult.Duplicate), never as an error.
func Raced(err error) bool {
	var e *sabot.Error
	return errors.As(err, &e) && RaceReason(e.Code, e.Reason)
}

// RaceReason reports whether an error of code and reason is a race
// (Raced), as a socket's error message carries them.
func RaceReason(code, reason string) bool {
	if code != sabot.ECONFLICT {
		return false
	}
	switch reason {
	case "out_of_turn", "wrong_phase", "no_window", "nothing_to_answer", "deal_dealt":
		return true
	}
	return false
}

// Command sends a table command over HTTP; a missing command ID is made.
// A command answered unavailable or internal, or whose answer was lost
// with its connection, is sent again under the same command ID (a command
// is applied once: a duplicate is answered as the first), up to
// Resends times more, after the server's Retry-After or a short
// pause: a database that ended its transaction, a primary being replaced,
// a table moving between nodes (Resends).
func (c *Client) Command(ctx context.Context, table int64, op string, req wire.CommandRequest) (*wire.CommandResult, error) {
	if req.CommandID == "" {
		req.CommandID = c.NextCommandID()
	}
	req = req.Only(op) // the op's own fields: another op's are refused
	path := fmt.Sprintf("/api/tables/%d/%s", table, op)
	for try := 1; ; try++ {
		var r wire.CommandResult
		err := c.Do(ctx, "POST", path, req, &r)
		if err == nil || try > c.resends() || !Resend(err) {
			return &r, err
		}
		wait := min(max(sabot.RetryAfter(err), resendPause), 5*time.Second)
		select {
		case <-ctx.Done():
			return &r, err
		case <-time.After(wait):
		}
	}
}

// DefaultResends bounds the sends of one command again (Command): with
// the waits, enough to ride out a primary's replacement (seconds) without
// waiting for ever.
const DefaultResends = 7

func (c *Client) resends() int {
	switch {
	case c.Resends < 0:
		return 0
	case c.Resends == 0:
		return DefaultResends
	}
	return c.Resends
}

// resendPause is the least wait before a command is sent again.
const resendPause = 200 * time.Millisecond

// Resend reports whether a command that failed so may be sent again under
// its command ID: it was answered unavailable or internal (the server or
// its database failed, the command perhaps applied), or no answer came (a
// connection refused, cut, timed out). A refusal (invalid, conflict, not
// found, …) is final.
func Resend(err error) bool {
	var e *sabot.Error
	if errors.As(err, &e) {
		return e.Code == sabot.EUNAVAILABLE || e.Code == sabot.EINTERNAL
	}
	return err != nil && !errors.Is(err, context.Canceled)
}

// Round recalls a round.
func (c *Client) Round(ctx context.Context, id string) (*wire.RoundRecord, error) {
	var r wire.RoundRecord
	return &r, c.Do(ctx, "GET", "/api/rounds/"+id, nil, &r)
}

// Shoe reads a page of a shoe: up to limit of its rounds after round after
// (0: from the first); no login needed.
func (c *Client) Shoe(ctx context.Context, id string, after, limit int) (*wire.ShoeReport, error) {
	tid, _, err := wire.ParseRoundID(id)
	if err != nil {
		return nil, err
	}
	path := "/api/shoes/" + url.PathEscape(id) + "?limit=" + strconv.Itoa(limit)
	if after > 0 {
		path += "&after=" + wire.RoundID(tid, after)
	}
	var r wire.ShoeReport
	return &r, c.Do(ctx, "GET", path, nil, &r)
}

// DefaultKeepalive is how often a Feed pings the server, and how long it
// waits for the answer; DefaultDialTimeout bounds opening a socket.
const (
	DefaultKeepalive   = 2 * time.Second
	DefaultDialTimeout = 3 * time.Second
	// DefaultCallTimeout bounds a plain request (Client.CallTimeout).
	DefaultCallTimeout = 30 * time.Second
)

// Feed is a table's WebSocket. It reads the socket all the time (Next
// takes what it read) and pings the server every Keepalive: a node that
// does not answer within Keepalive — stopped, cut off — ends the feed with
// an error, and the client moves to its next node's URL, instead of waiting
// on it for as long as it is stopped.
type Feed struct {
	conn   *websocket.Conn
	c      *Client
	msgs   chan []byte
	done   chan struct{} // closed when the reader stops; err says why
	mu     sync.Mutex
	err    error
	cancel context.CancelFunc
	heard  atomic.Int64 // when the server was last heard from (Unix ns): a message or a pong
}

// Subscribe opens a table's WebSocket. With the epoch and sequence number
// of the last message seen, the server sends what was missed if it still
// can, else a snapshot. A node that does not answer within DialTimeout
// (stopped: its kernel takes the connection, nobody answers) is left for
// the next.
func (c *Client) Subscribe(ctx context.Context, table int64, epoch string, since int64) (*Feed, error) {
	u := strings.Replace(c.base(), "http", "ws", 1) + fmt.Sprintf("/api/tables/%d/ws", table)
	q := url.Values{}
	if epoch != "" {
		q.Set("epoch", epoch)
		q.Set("since", fmt.Sprint(since))
	}
	if len(q) > 0 {
		u += "?" + q.Encode()
	}
	dctx, dcancel := context.WithTimeout(ctx, durationOr(c.DialTimeout, DefaultDialTimeout))
	conn, _, err := websocket.Dial(dctx, u, &websocket.DialOptions{HTTPClient: c.HTTP,
		HTTPHeader: http.Header{"Authorization": {"Bearer " + c.Token}}})
	dcancel()
	if err != nil {
		c.failover()
		return nil, err
	}
	conn.SetReadLimit(1 << 22)
	fctx, cancel := context.WithCancel(context.Background())
	f := &Feed{conn: conn, c: c, msgs: make(chan []byte, 1024), done: make(chan struct{}), cancel: cancel}
	f.heard.Store(time.Now().UnixNano())
	go f.read(fctx)
	if every := durationOr(c.Keepalive, DefaultKeepalive); every > 0 {
		go f.keepalive(fctx, every)
	}
	return f, nil
}

// read reads the socket until it fails (the socket closed, or the feed).
func (f *Feed) read(ctx context.Context) {
	defer close(f.done)
	for {
		_, data, err := f.conn.Read(ctx)
		if err != nil {
			f.fail(err)
			return
		}
		f.heard.Store(time.Now().UnixNano())
		select {
		case f.msgs <- data:
		case <-ctx.Done():
			f.fail(ctx.Err())
			return
		}
	}
}

// keepalive pings the server when it has been silent for an interval; a
// ping not answered within it ends the feed. A table in play talks more
// often than that: its sockets carry no pings (with hundreds of players,
// pings would outnumber the decisions), and a node that stops is still
// noticed within three intervals.
func (f *Feed) keepalive(ctx context.Context, every time.Duration) {
	tick := time.NewTicker(every)
	defer tick.Stop()
	for {
		select {
		case <-ctx.Done():
			return
		case <-f.done:
			return
		case <-tick.C:
		}
		if time.Since(time.Unix(0, f.heard.Load())) < every {
			continue // heard from within the interval
		}
		pctx, cancel := context.WithTimeout(ctx, every)
		err := f.conn.Ping(pctx)
		cancel()
		if err == nil {
			f.heard.Store(time.Now().UnixNano())
		}
		if err != nil && ctx.Err() == nil {
			f.fail(fmt.Errorf("the server did not answer a ping within %v: %w", every, err))
			f.c.failover()
			f.conn.CloseNow()
			return
		}
	}
}

func (f *Feed) fail(err error) {
	f.mu.Lock()
	defer f.mu.Unlock()
	if f.err == nil {
		f.err = err
	}
}

// NextRaw reads the next message as sent.
func (f *Feed) NextRaw(ctx context.Context) ([]byte, error) {
	select {
	case data := <-f.msgs:
		return data, nil
	default:
	}
	select {
	case data := <-f.msgs:
		return data, nil
	case <-f.done:
		select {
		case data := <-f.msgs:
			return data, nil
		default:
		}
		f.mu.Lock()
		defer f.mu.Unlock()
		return nil, f.err
	case <-ctx.Done():
		return nil, ctx.Err()
	}
}

// Next reads the next message.
func (f *Feed) Next(ctx context.Context) (*wire.Message, error) {
	data, err := f.NextRaw(ctx)
	if err != nil {
		return nil, err
	}
	var m wire.Message
	if err := json.Unmarshal(data, &m); err != nil {
		return nil, err
	}
	return &m, nil
}

// Send sends a command on the socket; a missing command ID is made. The
// answer comes as a "result" or "error" message after the events.
func (f *Feed) Send(ctx context.Context, req wire.CommandRequest) (string, error) {
	if req.CommandID == "" {
		req.CommandID = f.c.NextCommandID()
	}
	b, err := json.Marshal(req.Only(req.Op)) // the op's own fields: another op's are refused
	if err != nil {
		return "", err
	}
	return req.CommandID, f.conn.Write(ctx, websocket.MessageText, b)
}

// Close closes the socket.
func (f *Feed) Close() error {
	err := f.conn.Close(websocket.StatusNormalClosure, "")
	f.cancel()
	return err
}
