package operator

import (
	"context"
	"encoding/json"
	"fmt"
	"log/slog"
	"net/http/httptest"
	"slices"
	"sync"
	"testing"
	"time"

	"sabot"
	"sabot/internal/tablelog"
	"sabot/internal/wallet"
	"sabot/internal/wallet/walletsim"
	"sabot/internal/wire"
)

// outbox is a sabot.Outbox in memory: the calls as the store keeps them,
// enough of its contract for the operator's own tests.
type outbox struct {
	mu     sync.Mutex
	calls  []*sabot.WalletCall
	tokens map[string]int64
	users  map[string]*sabot.User
}

func newOutbox() *outbox { return &outbox{tokens: map[string]int64{}, users: map[string]*sabot.User{}} }

func (o *outbox) add(cs ...sabot.WalletCall) {
	o.mu.Lock()
	defer o.mu.Unlock()
	for _, c := range cs {
		if c.State == "" {
			c.State = sabot.CallPending
		}
		o.calls = append(o.calls, &c)
	}
}

func (o *outbox) find(id string) *sabot.WalletCall {
	for _, c := range o.calls {
		if c.ID == id {
			return c
		}
	}
	return nil
}

// call is a copy of a call, nil if there is none.
func (o *outbox) call(id string) *sabot.WalletCall {
	o.mu.Lock()
	defer o.mu.Unlock()
	if c := o.find(id); c != nil {
		cc := *c
		return &cc
	}
	return nil
}

func (o *outbox) ClaimCalls(ctx context.Context, now time.Time, n int, lease time.Duration) ([]*sabot.WalletCall, error) {
	o.mu.Lock()
	defer o.mu.Unlock()
	var out []*sabot.WalletCall
	for _, c := range o.calls {
		if len(out) < n && c.Op != wallet.OpDebit && c.State == sabot.CallPending && !c.NextTry.After(now) {
			c.NextTry, c.Attempts = now.Add(lease), c.Attempts+1
			cc := *c
			out = append(out, &cc)
		}
	}
	return out, nil
}

func (o *outbox) AnswerCall(ctx context.Context, id, state string, answer json.RawMessage, at, retry time.Time) error {
	o.mu.Lock()
	defer o.mu.Unlock()
	c := o.find(id)
	if c == nil {
		return sabot.Errorf(sabot.ENOTFOUND, "no call %s", id)
	}
	if c.State != sabot.CallPending {
		return nil
	}
	c.State, c.Answer, c.Answered = state, answer, at
	if state == sabot.CallPending {
		c.NextTry = retry
	}
	return nil
}

func (o *outbox) Calls(ctx context.Context, q sabot.CallQuery) ([]*sabot.WalletCall, error) {
	o.mu.Lock()
	defer o.mu.Unlock()
	var out []*sabot.WalletCall
	for _, c := range o.calls {
		if q.ID != "" && c.ID != q.ID || q.Round != "" && c.Round != q.Round || q.TableID != 0 && c.TableID != q.TableID ||
			q.Op != "" && c.Op != q.Op || len(q.States) > 0 && !slices.Contains(q.States, c.State) ||
			q.Uncounted && (c.Op != wallet.OpDebit || c.Counted) {
			continue
		}
		cc := *c
		out = append(out, &cc)
	}
	return out, nil
}

func (o *outbox) OperatorUser(ctx context.Context, operatorID, name string) (*sabot.User, error) {
	o.mu.Lock()
	defer o.mu.Unlock()
	if u := o.users[operatorID]; u != nil {
		return u, nil
	}
	u := &sabot.User{ID: int64(len(o.users) + 1), Name: name, OperatorID: operatorID}
	o.users[operatorID] = u
	return u, nil
}

func (o *outbox) UseLaunchToken(ctx context.Context, hash string, userID int64, session string, at time.Time) error {
	o.mu.Lock()
	defer o.mu.Unlock()
	if _, ok := o.tokens[hash]; ok {
		return sabot.Errorf(sabot.ECONFLICT, "refused: this launch token was used before")
	}
	o.tokens[hash] = userID
	return nil
}

func (o *outbox) LaunchSession(ctx context.Context, userID int64) (string, error) { return "", nil }

func (o *outbox) Owed(ctx context.Context) ([]*sabot.WalletCall, error) {
	o.mu.Lock()
	defer o.mu.Unlock()
	var out []*sabot.WalletCall
	for _, c := range o.calls {
		if c.State == sabot.CallRefused && c.Op != wallet.OpDebit && c.RetryOf == "" && c.Resolved == "" && !o.paid(c.ID) {
			cc := *c
			out = append(out, &cc)
		}
	}
	return out, nil
}

func (o *outbox) paid(id string) bool {
	for _, c := range o.calls {
		if c.RetryOf == id && c.State == sabot.CallOK {
			return true
		}
	}
	return false
}

func (o *outbox) RetryOwed(ctx context.Context, now time.Time) ([]*sabot.WalletCall, error) {
	return nil, nil // the tests call owe and read NextRetry
}

func (o *outbox) ScheduleRetry(ctx context.Context, id string, at time.Time) error {
	o.mu.Lock()
	defer o.mu.Unlock()
	if c := o.find(id); c != nil {
		c.NextRetry = at
		return nil
	}
	return sabot.Errorf(sabot.ENOTFOUND, "no call %s", id)
}

func (o *outbox) ResolveOwed(ctx context.Context, id, reason, by string, at time.Time) error {
	o.mu.Lock()
	defer o.mu.Unlock()
	c := o.find(id)
	if c == nil {
		return sabot.Errorf(sabot.ENOTFOUND, "no call %s", id)
	}
	c.Resolved, c.ResolvedBy, c.ResolvedAt = reason, by, at
	return nil
}

var _ sabot.Outbox = (*outbox)(nil)

// rig is an Operator on an outbox in memory and the reference operator,
// with the significant events it writes.
type rig struct {
	*Operator
	out    *outbox
	ref    *walletsim.Operator
	mu     sync.Mutex
	events []wire.AdminEvent
	now    time.Time
}

var secret = []byte("the operator's shared secret")

func newRig(t *testing.T, more ...func(*Config)) *rig {
	t.Helper()
	r := &rig{out: newOutbox(), ref: walletsim.New(secret, "EUR"), now: time.Date(2026, 11, 26, 20, 0, 0, 0, time.UTC)}
	ws := httptest.NewServer(r.ref)
	t.Cleanup(ws.Close)
	ctx, cancel := context.WithCancel(context.Background())
	var wg sync.WaitGroup
	t.Cleanup(func() { cancel(); wg.Wait() })
	cfg := Config{
		Wallet: &wallet.Client{URL: ws.URL, Secret: secret}, Outbox: r.out, Currency: "EUR", Timeout: time.Second,
		Context: func() context.Context { return ctx }, Go: func(f func()) { wg.Go(f) },
		Now:    func() time.Time { r.mu.Lock(); defer r.mu.Unlock(); return r.now },
		Logger: func() *slog.Logger { return slog.New(slog.DiscardHandler) },
		Account: func(ctx context.Context, kind string, owner int64) (int64, error) {
			if kind == sabot.AccountHouse || kind == sabot.AccountTableHouse {
				return 1, nil
			}
			return 100 + owner, nil // a player's wallet
		},
		Event: func(ctx context.Context, u *sabot.User, e tablelog.Event, calls []sabot.WalletCall) error {
			r.mu.Lock()
			r.events = append(r.events, e.Admin())
			r.mu.Unlock()
			r.out.add(calls...)
			return nil
		},
		RoundID: func(table int64, round int) string { return fmt.Sprintf("%d-%d", table, round) },
		ParseRoundID: func(id string) (int64, int, error) {
			var t int64
			var n int
			_, err := fmt.Sscanf(id, "%d-%d", &t, &n)
			return t, n, err
		},
	}
	for _, m := range more {
		m(&cfg)
	}
	r.Operator = New(cfg)
	return r
}

// seen are the events of a kind written so far.
func (r *rig) seen(kind string) []wire.AdminEvent {
	r.mu.Lock()
	defer r.mu.Unlock()
	var out []wire.AdminEvent
	for _, e := range r.events {
		if e.Event == kind {
			out = append(out, e)
		}
	}
	return out
}
