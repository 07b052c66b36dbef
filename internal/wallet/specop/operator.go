package specop

import (
	"crypto/hmac"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"io"
	"math/rand/v2"
	"net/http"
	"strconv"
	"strings"
	"sync"
	"time"

	"sabot/money"
)

// Operator is an operator's wallet as docs/wallet.yaml describes it: its
// players' accounts, game session tokens used once within TokenTTL, every
// transaction ID acted on once, a rollback that comes before its debit
// refusing the debit, and the faults an operator's wallet shows (answers
// lost, slow, late, 500s), drawn from Seed. It is safe for concurrent use.
type Operator struct {
	Secret   []byte
	Currency string
	TokenTTL time.Duration // 0: 5 minutes
	// Faults, each a share of calls (0 to 1).
	FailRate float64 // 500 before acting
	LostRate float64 // acted, then 500
	SlowRate float64 // acted, answered after Slow
	HoldRate float64 // held for Slow before acting: later calls act first
	Slow     time.Duration
	Delay    time.Duration // every answer waits this long
	Seed     uint64
	// Spec, if set, checks every request and every answer against the
	// schemas; what does not conform is in Violations (and still acted on
	// as the spec says).
	Spec *Spec

	mu         sync.Mutex
	rng        *rand.Rand
	accounts   map[string]*account
	tokens     map[string]*token
	seen       map[string]*seen  // transaction ID → the first answer
	debits     map[string]*debit // debit transaction ID → the debit
	cancelled  map[string]bool   // debits rolled back, seen or not
	statement  []Entry
	violations []string
	calls      int
}

type account struct {
	name    string
	balance money.Amount
	closed  bool // every money call refused (player_blocked)
}

type token struct {
	player string
	issued time.Time
	used   bool
}

type seen struct {
	op     string
	answer map[string]any
}

type debit struct {
	player string
	amount money.Amount
}

// Entry is a line of the statement (StatementEntry in the spec).
type Entry struct {
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

// New returns an operator with no accounts.
func New(secret []byte, currency string) *Operator {
	return &Operator{Secret: secret, Currency: currency, accounts: map[string]*account{}, tokens: map[string]*token{},
		seen: map[string]*seen{}, debits: map[string]*debit{}, cancelled: map[string]bool{}}
}

// AddPlayer opens an account.
func (o *Operator) AddPlayer(id, name string, balance money.Amount) {
	o.mu.Lock()
	defer o.mu.Unlock()
	o.accounts[id] = &account{name: name, balance: balance}
}

// IssueToken gives a player a game session token.
func (o *Operator) IssueToken(player, tok string) {
	o.mu.Lock()
	defer o.mu.Unlock()
	o.tokens[tok] = &token{player: player, issued: time.Now()}
}

// Close refuses every debit, credit and rollback of a player's
// (player_blocked) until Reopen.
func (o *Operator) Close(player string) { o.setClosed(player, true) }

// Reopen takes a closed player's calls again.
func (o *Operator) Reopen(player string) { o.setClosed(player, false) }

func (o *Operator) setClosed(player string, closed bool) {
	o.mu.Lock()
	defer o.mu.Unlock()
	o.accounts[player].closed = closed
}

// Balance is a player's balance.
func (o *Operator) Balance(player string) money.Amount {
	o.mu.Lock()
	defer o.mu.Unlock()
	if a := o.accounts[player]; a != nil {
		return a.balance
	}
	return 0
}

// Statement is every transaction acted on, in order.
func (o *Operator) Statement() []Entry {
	o.mu.Lock()
	defer o.mu.Unlock()
	return append([]Entry(nil), o.statement...)
}

// StatementJSON is the statement as the spec's Statement.
func (o *Operator) StatementJSON() []byte {
	b, _ := json.Marshal(o.Statement())
	return b
}

// Violations are the messages that did not conform to the spec.
func (o *Operator) Violations() []string {
	o.mu.Lock()
	defer o.mu.Unlock()
	return append([]string(nil), o.violations...)
}

// Calls is how many signed requests came.
func (o *Operator) Calls() int {
	o.mu.Lock()
	defer o.mu.Unlock()
	return o.calls
}

// signature is the spec's: "sha256=" and the hex HMAC-SHA256 of the
// timestamp, the method, the path, each followed by a newline, and the body.
func signature(secret []byte, ts, method, path string, body []byte) string {
	m := hmac.New(sha256.New, secret)
	fmt.Fprintf(m, "%s\n%s\n%s\n", ts, method, path)
	m.Write(body)
	return "sha256=" + hex.EncodeToString(m.Sum(nil))
}

const maxSkew = 5 * time.Minute

func (o *Operator) draw() float64 {
	if o.rng == nil {
		o.rng = rand.New(rand.NewPCG(o.Seed, 0x09e7a70))
	}
	return o.rng.Float64()
}

// ServeHTTP answers POST /{operation}.
func (o *Operator) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	op := r.URL.Path[strings.LastIndexByte(r.URL.Path, '/')+1:]
	path := "/" + op
	body, err := io.ReadAll(io.LimitReader(r.Body, 1<<16))
	if err != nil || r.Method != http.MethodPost {
		http.Error(w, "POST a JSON body", http.StatusBadRequest)
		return
	}
	ts := r.Header.Get("X-Sabot-Timestamp")
	sec, err := strconv.ParseInt(ts, 10, 64)
	if err != nil {
		http.Error(w, "no timestamp", http.StatusUnauthorized)
		return
	}
	if d := time.Since(time.Unix(sec, 0)); d > maxSkew || d < -maxSkew {
		http.Error(w, "the timestamp is too far", http.StatusUnauthorized)
		return
	}
	if !hmac.Equal([]byte(r.Header.Get("X-Sabot-Signature")), []byte(signature(o.Secret, ts, r.Method, path, body))) {
		http.Error(w, "the signature does not verify", http.StatusUnauthorized)
		return
	}
	var req map[string]any
	d := json.NewDecoder(strings.NewReader(string(body)))
	d.UseNumber()
	if err := d.Decode(&req); err != nil {
		http.Error(w, "not JSON", http.StatusBadRequest)
		return
	}
	txID, _ := req["transaction_id"].(string)
	if txID == "" {
		http.Error(w, "no transaction_id", http.StatusBadRequest)
		return
	}
	if o.Spec != nil {
		if err := o.Spec.Request(op, body); err != nil {
			o.mu.Lock()
			o.violations = append(o.violations, fmt.Sprintf("%s %s: %v", op, body, err))
			o.mu.Unlock()
		}
	}
	o.mu.Lock()
	o.calls++
	if o.draw() < o.HoldRate {
		o.mu.Unlock()
		time.Sleep(o.Slow)
		o.mu.Lock()
	}
	fail, lost, slow := o.draw() < o.FailRate, o.draw() < o.LostRate, o.draw() < o.SlowRate
	var ans map[string]any
	if !fail {
		ans = o.once(op, txID, req)
	}
	o.mu.Unlock()
	time.Sleep(o.Delay)
	if fail || lost {
		http.Error(w, "the wallet failed", http.StatusInternalServerError)
		return
	}
	if slow {
		time.Sleep(o.Slow)
	}
	out, _ := json.Marshal(ans)
	if o.Spec != nil {
		if err := o.Spec.Answer(out); err != nil {
			o.mu.Lock()
			o.violations = append(o.violations, fmt.Sprintf("the answer to %s: %s: %v", op, out, err))
			o.mu.Unlock()
		}
	}
	now := strconv.FormatInt(time.Now().Unix(), 10)
	w.Header().Set("Content-Type", "application/json")
	w.Header().Set("X-Sabot-Timestamp", now)
	w.Header().Set("X-Sabot-Signature", signature(o.Secret, now, r.Method, path, out))
	w.Write(out)
}

// once acts on a transaction ID the first time; a repeat gets the first
// answer, the same ID on another operation transaction_reused.
func (o *Operator) once(op, txID string, req map[string]any) map[string]any {
	if s, ok := o.seen[txID]; ok {
		if s.op != op {
			return refusal(txID, 0, "transaction_reused", "this transaction ID was another operation's")
		}
		return s.answer
	}
	ans := o.act(op, txID, req)
	o.seen[txID] = &seen{op: op, answer: ans}
	player, _ := ans["player"].(string)
	if player == "" {
		player = str(req, "player")
	}
	bal, _ := ans["balance"].(money.Amount)
	amount, _ := amountOf(req)
	o.statement = append(o.statement, Entry{TransactionID: txID, Op: op, Player: player, Amount: amount,
		Round: str(req, "round"), Kind: str(req, "kind"), Reference: str(req, "reference"), Status: ans["status"].(string),
		Reason: str(ans, "reason"), Balance: bal, At: time.Now()})
	return ans
}

func str(m map[string]any, k string) string { s, _ := m[k].(string); return s }

// amountOf is a request's amount (0 where it has none), and false where
// it is not an integer within ±money.Max.
func amountOf(req map[string]any) (money.Amount, bool) {
	n, ok := req["amount"].(json.Number)
	if !ok {
		return 0, req["amount"] == nil
	}
	i, err := n.Int64()
	return money.Amount(i), err == nil && money.Amount(i).Valid()
}

func refusal(txID string, balance money.Amount, reason, message string) map[string]any {
	return map[string]any{"transaction_id": txID, "status": "refused", "balance": balance, "reason": reason, "message": message}
}

func (o *Operator) act(op, txID string, req map[string]any) map[string]any {
	if op == "authenticate" {
		t := o.tokens[str(req, "token")]
		ttl := o.TokenTTL
		if ttl <= 0 {
			ttl = 5 * time.Minute
		}
		if t == nil || t.used || time.Since(t.issued) > ttl {
			return refusal(txID, 0, "invalid_token", "the game link is unknown, used or expired")
		}
		t.used = true
		a := o.accounts[t.player]
		return map[string]any{"transaction_id": txID, "status": "ok", "balance": a.balance, "currency": o.Currency, "player": t.player, "name": a.name}
	}
	a := o.accounts[str(req, "player")]
	if a == nil {
		return refusal(txID, 0, "unknown_player", "no such player")
	}
	if c := str(req, "currency"); c != "" && c != o.Currency {
		return refusal(txID, a.balance, "currency_mismatch", "the account is in "+o.Currency)
	}
	amount, ok := amountOf(req)
	if !ok || amount < 0 {
		return refusal(txID, a.balance, "invalid_amount", "an amount is a whole number from 0 to 10^15 minor units")
	}
	if a.closed && op != "balance" {
		return refusal(txID, a.balance, "player_blocked", "the account is closed")
	}
	switch op {
	case "balance":
	case "debit":
		switch {
		case o.cancelled[txID]:
			return refusal(txID, a.balance, "rolled_back", "this debit was rolled back before it came")
		case a.balance < amount:
			return refusal(txID, a.balance, "insufficient_funds", "the balance does not cover the stake")
		}
		a.balance -= amount
		o.debits[txID] = &debit{player: str(req, "player"), amount: amount}
	case "credit":
		a.balance += amount
	case "rollback":
		ref := str(req, "reference")
		if !o.cancelled[ref] {
			o.cancelled[ref] = true
			if d := o.debits[ref]; d != nil {
				o.accounts[d.player].balance += d.amount
			}
		}
	default:
		return refusal(txID, a.balance, "unknown_operation", "no operation "+op)
	}
	return map[string]any{"transaction_id": txID, "status": "ok", "balance": a.balance, "currency": o.Currency}
}
