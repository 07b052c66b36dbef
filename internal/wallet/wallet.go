// Package wallet speaks to an operator's wallet (docs/wallet.md):
// the "seamless wallet" through which a game provider debits each stake
// from the operator's player and credits each win, the operator keeping
// every balance. sabot calls; the operator answers.
//
// Every call is a POST of a JSON Request to the operator's URL + "/" + the
// operation (authenticate, balance, debit, credit, rollback). Both sides
// sign what they send: the header X-Sabot-Timestamp is the Unix time in
// seconds, and X-Sabot-Signature is "sha256=" and the hex HMAC-SHA256, under
// the shared secret, of the timestamp, the method, the operation's path
// ("/debit") and the body byte for byte, each followed by a newline but the
// body (Signed); an answer is signed over the method and path of the call
// it answers. A signed credit posted to /debit does not verify. A
// signature that does not verify, or a timestamp more than MaxSkew away,
// is refused (401) and never acted on. Every call carries a transaction ID
// unique to it: a call sent again is answered as the first time and acts
// once. An answer is Status "ok", or "refused" with the operator's Reason;
// anything else (a 5xx, no answer within the time limit, an answer whose
// signature or transaction ID does not match) is not an answer: the caller
// does not know whether the call acted, and sends it again.
package wallet

import (
	"bytes"
	"context"
	"crypto/hmac"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net/http"
	"strconv"
	"strings"
	"time"

	"sabot/money"
)

// The operations.
const (
	OpAuthenticate = "authenticate" // a game session's token: who the player is
	OpBalance      = "balance"      // the player's balance
	OpDebit        = "debit"        // a stake taken from the player
	OpCredit       = "credit"       // a win paid (0 closes a round the player lost)
	OpRollback     = "rollback"     // a debit that does not count: its amount back, or refused if it comes later
)

// Ops lists the operations in the order docs/wallet.md gives them.
var Ops = []string{OpAuthenticate, OpBalance, OpDebit, OpCredit, OpRollback}

// The statuses of an answer.
const (
	StatusOK      = "ok"
	StatusRefused = "refused"
)

// The reasons an operator refuses with (Response.Reason); an operator may
// give others, which sabot shows as they are.
const (
	ReasonInsufficientFunds = "insufficient_funds"
	ReasonLimit             = "limit_reached"     // the operator's responsible-gaming limit
	ReasonBlocked           = "player_blocked"    // the player may not play (self-excluded, frozen)
	ReasonUnknownPlayer     = "unknown_player"    // no such player
	ReasonInvalidToken      = "invalid_token"     // authenticate: unknown or expired token
	ReasonRolledBack        = "rolled_back"       // debit: its rollback came first
	ReasonCurrency          = "currency_mismatch" // the player's account is in another currency
)

// Request is a call sabot makes. Amounts are in minor units of Currency:
// a money.Amount, on the wire a JSON number as an int64 is, within
// ±money.Max. On the wire (Encode) a debit, a credit and a rollback always
// carry amount, and a credit and a rollback round_closed; the other fields
// are left out when empty.
type Request struct {
	TransactionID string       `json:"transaction_id"`
	Timestamp     string       `json:"timestamp,omitempty"` // when sabot made the call (RFC 3339, UTC): the same on every try
	Attempt       int          `json:"attempt,omitempty"`   // which try this is: 1, then 2… (the same transaction sent again)
	Player        string       `json:"player,omitempty"`    // the operator's ID of the player
	Token         string       `json:"token,omitempty"`     // authenticate: the game session's token
	Session       string       `json:"session,omitempty"`   // the game session: the transaction ID of the launch's authenticate
	Game          string       `json:"game,omitempty"`      // the game: "blackjack-" and the table's profile
	Amount        money.Amount `json:"amount,omitempty"`
	Currency      string       `json:"currency,omitempty"`
	Round         string       `json:"round,omitempty"` // the round ("4-17") the money is for; a rollback's is its debit's
	Table         int64        `json:"table,omitempty"`
	Kind          string       `json:"kind,omitempty"`         // debit: bet, double, split, insurance, challenge; credit: settle, return; rollback: lapsed, withdrawn, returned, void
	Reference     string       `json:"reference,omitempty"`    // rollback: the transaction ID of the debit it undoes
	RoundClosed   bool         `json:"round_closed,omitempty"` // credit, rollback: the round is over for the player (settled, or void)
	RetryOf       string       `json:"retry_of,omitempty"`     // credit, rollback: the refused call this one sends again, under a new transaction ID
	Expires       string       `json:"expires,omitempty"`      // debit: sabot waits for the answer until then (RFC 3339); after, the debit does not count and is rolled back
}

// Encode is a request's body for an operation.
func Encode(op string, req Request) ([]byte, error) {
	type plain Request
	w := struct {
		plain
		Amount      *money.Amount `json:"amount,omitempty"`
		RoundClosed *bool         `json:"round_closed,omitempty"`
	}{plain: plain(req)}
	switch op {
	case OpDebit, OpCredit, OpRollback:
		w.Amount = &req.Amount
	}
	switch op {
	case OpCredit, OpRollback:
		w.RoundClosed = &req.RoundClosed
	}
	return json.Marshal(w)
}

// Response is the operator's answer.
type Response struct {
	TransactionID string       `json:"transaction_id"`
	Status        string       `json:"status"`
	Balance       money.Amount `json:"balance"`            // the player's balance after the call
	Currency      string       `json:"currency,omitempty"` // the player's currency
	Reason        string       `json:"reason,omitempty"`   // refused: why (the Reason constants, or the operator's own)
	Message       string       `json:"message,omitempty"`  // refused: one line for the player
	Player        string       `json:"player,omitempty"`   // authenticate: the operator's ID of the player
	Name          string       `json:"name,omitempty"`     // authenticate: the name the table shows
}

// Refused reports whether the operator refused the call.
func (r *Response) Refused() bool { return r.Status == StatusRefused }

// StatementEntry is one transaction of an operator's statement (the spec's
// StatementEntry, docs/wallet.yaml): what it did with a call, the first
// time it saw its transaction ID. `sabot wallet reconcile` reads an
// operator's statement of them; the reference operator (walletsim) keeps
// one. specop declares its own from the spec alone, as it must.
type StatementEntry struct {
	TransactionID string       `json:"transaction_id"`
	Op            string       `json:"op"`
	Player        string       `json:"player"`
	Amount        money.Amount `json:"amount"`
	Round         string       `json:"round,omitempty"`
	Kind          string       `json:"kind,omitempty"`
	Reference     string       `json:"reference,omitempty"`
	Status        string       `json:"status"`
	Reason        string       `json:"reason,omitempty"`
	Balance       money.Amount `json:"balance"`
	At            time.Time    `json:"at"`
}

// MaxSkew is how far a signed timestamp may be from the receiver's clock.
const MaxSkew = 5 * time.Minute

// MaxBody bounds a request's or an answer's body, in bytes.
const MaxBody = 64 << 10

// The headers of a signed message.
const (
	HeaderTimestamp = "X-Sabot-Timestamp"
	HeaderSignature = "X-Sabot-Signature"
)

// Signed is what a signature covers: the timestamp, the method, the
// operation's path as docs/wallet.yaml names it ("/debit", whatever the
// path of the operator's wallet URL before it), each followed by "\n",
// then the body byte for byte. A request and its answer both sign the
// request's method and path: neither verifies for another operation.
func Signed(unix int64, method, path string, body []byte) []byte {
	b := make([]byte, 0, 32+len(method)+len(path)+len(body))
	b = strconv.AppendInt(b, unix, 10)
	b = append(b, '\n')
	b = append(b, method...)
	b = append(b, '\n')
	b = append(b, path...)
	b = append(b, '\n')
	return append(b, body...)
}

// Sign is the signature of a message sent at a time: "sha256=" and the hex
// HMAC-SHA256 of Signed.
func Sign(secret []byte, unix int64, method, path string, body []byte) string {
	m := hmac.New(sha256.New, secret)
	m.Write(Signed(unix, method, path, body))
	return "sha256=" + hex.EncodeToString(m.Sum(nil))
}

// OpPath is the path an operation is posted to, relative to the wallet
// URL, as the signature covers it.
func OpPath(op string) string { return "/" + op }

// ErrSignature is the refusal of a message whose signature or timestamp
// does not verify.
var ErrSignature = errors.New("wallet: bad signature")

// Verify checks a message's headers against the method and path of its
// call and its body, at now.
func Verify(secret []byte, h http.Header, method, path string, body []byte, now time.Time) error {
	ts, err := strconv.ParseInt(h.Get(HeaderTimestamp), 10, 64)
	if err != nil {
		return fmt.Errorf("%w: no %s", ErrSignature, HeaderTimestamp)
	}
	if d := now.Sub(time.Unix(ts, 0)); d > MaxSkew || d < -MaxSkew {
		return fmt.Errorf("%w: the timestamp is %v away", ErrSignature, d.Round(time.Second))
	}
	want := Sign(secret, ts, method, path, body)
	if !hmac.Equal([]byte(want), []byte(h.Get(HeaderSignature))) {
		return fmt.Errorf("%w: %s does not match", ErrSignature, HeaderSignature)
	}
	return nil
}

// ErrNoAnswer is a call that got no answer the caller may trust: a network
// error, a time-out, a 5xx, an answer that does not verify. Whether it acted
// is not known: it is sent again with the same transaction ID.
var ErrNoAnswer = errors.New("wallet: no answer")

// Client calls an operator's wallet.
type Client struct {
	URL     string // the operator's wallet, e.g. https://operator.example/wallet
	Secret  []byte // the shared secret
	HTTP    *http.Client
	Timeout time.Duration // per call (0: DefaultTimeout)
	Now     func() time.Time
}

// DefaultTimeout is a call's time limit: past it, the call has no answer.
const DefaultTimeout = 3 * time.Second

func (c *Client) now() time.Time {
	if c.Now != nil {
		return c.Now()
	}
	return time.Now()
}

// Call makes one call and returns the operator's answer: ok or refused.
// An error wraps ErrNoAnswer (send it again, same transaction ID) or is the
// caller's own (a request that cannot be encoded).
func (c *Client) Call(ctx context.Context, op string, req Request) (*Response, error) {
	if req.TransactionID == "" {
		return nil, errors.New("wallet: a call needs a transaction ID")
	}
	if req.Timestamp == "" {
		req.Timestamp = c.now().UTC().Format(time.RFC3339Nano)
	}
	req.Attempt = max(req.Attempt, 1)
	body, err := Encode(op, req)
	if err != nil {
		return nil, err
	}
	d := c.Timeout
	if d <= 0 {
		d = DefaultTimeout
	}
	ctx, cancel := context.WithTimeout(ctx, d)
	defer cancel()
	hr, err := http.NewRequestWithContext(ctx, http.MethodPost, strings.TrimRight(c.URL, "/")+"/"+op, bytes.NewReader(body))
	if err != nil {
		return nil, err
	}
	ts := c.now().Unix()
	hr.Header.Set("Content-Type", "application/json")
	hr.Header.Set(HeaderTimestamp, strconv.FormatInt(ts, 10))
	hr.Header.Set(HeaderSignature, Sign(c.Secret, ts, http.MethodPost, OpPath(op), body))
	hc := c.HTTP
	if hc == nil {
		hc = http.DefaultClient
	}
	res, err := hc.Do(hr)
	if err != nil {
		return nil, fmt.Errorf("%w: %s %s: %v", ErrNoAnswer, op, req.TransactionID, err)
	}
	defer res.Body.Close()
	ans, err := io.ReadAll(io.LimitReader(res.Body, MaxBody+1))
	if err != nil {
		return nil, fmt.Errorf("%w: %s %s: %v", ErrNoAnswer, op, req.TransactionID, err)
	}
	if res.StatusCode != http.StatusOK {
		return nil, fmt.Errorf("%w: %s %s: HTTP %d %s", ErrNoAnswer, op, req.TransactionID, res.StatusCode, firstLine(ans))
	}
	if len(ans) > MaxBody {
		return nil, fmt.Errorf("%w: %s %s: an answer over %d bytes", ErrNoAnswer, op, req.TransactionID, MaxBody)
	}
	if err := Verify(c.Secret, res.Header, http.MethodPost, OpPath(op), ans, c.now()); err != nil {
		return nil, fmt.Errorf("%w: %s %s: the answer: %v", ErrNoAnswer, op, req.TransactionID, err)
	}
	var r Response
	if err := json.Unmarshal(ans, &r); err != nil {
		return nil, fmt.Errorf("%w: %s %s: the answer is not JSON: %v", ErrNoAnswer, op, req.TransactionID, err)
	}
	switch {
	case r.TransactionID != req.TransactionID:
		return nil, fmt.Errorf("%w: %s %s: the answer is for %q", ErrNoAnswer, op, req.TransactionID, r.TransactionID)
	case r.Status != StatusOK && r.Status != StatusRefused:
		return nil, fmt.Errorf("%w: %s %s: status %q", ErrNoAnswer, op, req.TransactionID, r.Status)
	}
	return &r, nil
}

func firstLine(b []byte) string {
	s, _, _ := strings.Cut(string(b), "\n")
	if len(s) > 200 {
		s = s[:200]
	}
	return strings.TrimSpace(s)
}
