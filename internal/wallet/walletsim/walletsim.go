// Package walletsim is a reference operator: the operator's side of the
// wallet protocol (package wallet, docs/wallet.md) on its own accounts, for
// tests and for an operator to compare its implementation with. It keeps
// each player's balance, acts on each transaction ID once (a repeat is
// answered as the first time), takes a rollback that comes before its
// debit (the debit is then refused), refuses what a real operator refuses
// (insufficient funds, a blocked player, a limit), and injects faults: slow
// answers, time-outs, 500s before or after acting.
package walletsim

import (
	"encoding/json"
	"io"
	"math/rand/v2"
	"net/http"
	"path"
	"sync"
	"time"

	"sabot/internal/wallet"
	"sabot/money"
)

// Faults are the misbehaviours an Operator injects, each a share of calls
// (0 to 1), drawn from a generator seeded with Seed.
type Faults struct {
	FailRate float64 // answered 500 before acting: the call did nothing
	LostRate float64 // acted, then answered 500: the caller does not know it acted
	SlowRate float64 // acted, then answered after Slow (past the caller's time limit: a time-out)
	// HoldRate: held for Slow before acting, as a delivery that arrives
	// late: the calls sent after it act first (reordered; a rollback before
	// its debit).
	HoldRate float64
	Slow     time.Duration // how long a slow answer waits
	Delay    time.Duration // every answer waits this long first
	Seed     uint64
}

type account struct {
	name     string
	balance  money.Amount
	blocked  bool
	limit    money.Amount // the most the player may stake in all (0: none)
	staked   money.Amount
	currency string
}

type done struct {
	op   string
	resp wallet.Response
}

// DefaultTokenTTL is how long a game session token may be used to launch.
const DefaultTokenTTL = 5 * time.Minute

// token is a game session token: whose, and when issued; used once.
type token struct {
	player string
	issued time.Time
	used   bool
}

// Operator is the reference operator. Set Faults before it serves; it is
// safe for concurrent use.
type Operator struct {
	Secret   []byte
	Currency string
	Faults   Faults
	Now      func() time.Time
	// TokenTTL is how long after it is issued a token launches (0:
	// DefaultTokenTTL). A token launches once.
	TokenTTL time.Duration

	mu        sync.Mutex
	rng       *rand.Rand
	players   map[string]*account
	tokens    map[string]*token
	txs       map[string]*done // transaction ID → its answer
	debits    map[string]wallet.Request
	rolled    map[string]bool // debits rolled back (or refused before they came)
	statement []wallet.StatementEntry
	calls     int // requests received, answered or not
}

// New returns an operator with no players.
func New(secret []byte, currency string) *Operator {
	return &Operator{Secret: secret, Currency: currency, players: map[string]*account{}, tokens: map[string]*token{},
		txs: map[string]*done{}, debits: map[string]wallet.Request{}, rolled: map[string]bool{}}
}

func (o *Operator) now() time.Time {
	if o.Now != nil {
		return o.Now()
	}
	return time.Now()
}

// AddPlayer opens a player's account with a balance.
func (o *Operator) AddPlayer(id, name string, balance money.Amount) {
	o.mu.Lock()
	defer o.mu.Unlock()
	o.players[id] = &account{name: name, balance: balance, currency: o.Currency}
}

// IssueToken gives a player a game session token (what the operator's
// site puts in the link that launches the table): it authenticates once,
// within TokenTTL.
func (o *Operator) IssueToken(player, tok string) {
	o.mu.Lock()
	defer o.mu.Unlock()
	o.tokens[tok] = &token{player: player, issued: o.now()}
}

// Block stops a player from playing; SetLimit caps what he may stake in
// all.
func (o *Operator) Block(player string) {
	o.mu.Lock()
	defer o.mu.Unlock()
	o.players[player].blocked = true
}

func (o *Operator) SetLimit(player string, limit money.Amount) {
	o.mu.Lock()
	defer o.mu.Unlock()
	o.players[player].limit = limit
}

// Balance is a player's balance.
func (o *Operator) Balance(player string) money.Amount {
	o.mu.Lock()
	defer o.mu.Unlock()
	if a := o.players[player]; a != nil {
		return a.balance
	}
	return 0
}

// Statement is every transaction the operator acted on, in order.
func (o *Operator) Statement() []wallet.StatementEntry {
	o.mu.Lock()
	defer o.mu.Unlock()
	return append([]wallet.StatementEntry(nil), o.statement...)
}

// Calls is how many requests the operator received (repeats included).
func (o *Operator) Calls() int {
	o.mu.Lock()
	defer o.mu.Unlock()
	return o.calls
}

func (o *Operator) draw() float64 {
	if o.rng == nil {
		o.rng = rand.New(rand.NewPCG(o.Faults.Seed, 0x5ab07))
	}
	return o.rng.Float64()
}

// ServeHTTP answers a call: POST …/OP with a signed Request.
func (o *Operator) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	body, err := io.ReadAll(io.LimitReader(r.Body, wallet.MaxBody+1))
	if err != nil || len(body) > wallet.MaxBody || r.Method != http.MethodPost {
		http.Error(w, "a call is a POST of at most 64 KiB", http.StatusBadRequest)
		return
	}
	op := path.Base(r.URL.Path)
	if err := wallet.Verify(o.Secret, r.Header, r.Method, wallet.OpPath(op), body, o.now()); err != nil {
		http.Error(w, err.Error(), http.StatusUnauthorized)
		return
	}
	var req wallet.Request
	if err := json.Unmarshal(body, &req); err != nil || req.TransactionID == "" {
		http.Error(w, "a call is a JSON request with a transaction_id", http.StatusBadRequest)
		return
	}
	o.mu.Lock()
	o.calls++
	f := o.Faults
	if o.draw() < f.HoldRate {
		o.mu.Unlock()
		time.Sleep(f.Slow)
		o.mu.Lock()
	}
	fail, lost, slow := o.draw() < f.FailRate, o.draw() < f.LostRate, o.draw() < f.SlowRate
	var resp wallet.Response
	if !fail {
		resp = o.act(op, req)
	}
	o.mu.Unlock()
	time.Sleep(f.Delay)
	if fail || lost {
		http.Error(w, "the operator failed", http.StatusInternalServerError)
		return
	}
	if slow {
		time.Sleep(f.Slow)
	}
	ans, _ := json.Marshal(resp)
	ts := o.now().Unix()
	w.Header().Set("Content-Type", "application/json")
	w.Header().Set(wallet.HeaderTimestamp, itoa(ts))
	w.Header().Set(wallet.HeaderSignature, wallet.Sign(o.Secret, ts, r.Method, wallet.OpPath(op), ans))
	w.Write(ans)
}

// act applies a call once: a transaction ID seen before is answered as
// the first time.
func (o *Operator) act(op string, req wallet.Request) wallet.Response {
	if d, ok := o.txs[req.TransactionID]; ok {
		if d.op != op {
			return refuse(req, 0, "transaction_reused", "the transaction ID was used by another call")
		}
		return d.resp
	}
	resp := o.apply(op, req)
	o.txs[req.TransactionID] = &done{op, resp}
	o.statement = append(o.statement, wallet.StatementEntry{TransactionID: req.TransactionID, Op: op, Player: req.Player, Amount: req.Amount, Round: req.Round,
		Kind: req.Kind, Reference: req.Reference, Status: resp.Status, Reason: resp.Reason, Balance: resp.Balance, At: o.now()})
	return resp
}

func (o *Operator) apply(op string, req wallet.Request) wallet.Response {
	if op == wallet.OpAuthenticate {
		tok, ok := o.tokens[req.Token]
		ttl := o.TokenTTL
		if ttl <= 0 {
			ttl = DefaultTokenTTL
		}
		switch {
		case !ok:
			return refuse(req, 0, wallet.ReasonInvalidToken, "the game session is unknown or over")
		case tok.used:
			return refuse(req, 0, wallet.ReasonInvalidToken, "this game session was opened already: launch the game again from the site")
		case o.now().Sub(tok.issued) > ttl:
			return refuse(req, 0, wallet.ReasonInvalidToken, "this game session's link has expired: launch the game again from the site")
		}
		tok.used = true // a repeat of this transaction is answered as the first time (act)
		a := o.players[tok.player]
		return wallet.Response{TransactionID: req.TransactionID, Status: wallet.StatusOK, Balance: a.balance, Currency: a.currency, Player: tok.player, Name: a.name}
	}
	a := o.players[req.Player]
	switch {
	case a == nil:
		return refuse(req, 0, wallet.ReasonUnknownPlayer, "no such player")
	case req.Amount < 0 || req.Amount > money.Max:
		return refuse(req, a.balance, "invalid_amount", "an amount is from 0 to 10^15 minor units (money.Max)")
	case req.Currency != "" && req.Currency != a.currency:
		return refuse(req, a.balance, wallet.ReasonCurrency, "the account is in "+a.currency)
	}
	ok := wallet.Response{TransactionID: req.TransactionID, Status: wallet.StatusOK, Currency: a.currency}
	switch op {
	case wallet.OpBalance:
	case wallet.OpDebit:
		switch {
		case o.rolled[req.TransactionID]:
			return refuse(req, a.balance, wallet.ReasonRolledBack, "this debit was rolled back before it came")
		case a.blocked:
			return refuse(req, a.balance, wallet.ReasonBlocked, "your account may not play now")
		case a.limit > 0 && a.staked+req.Amount > a.limit:
			return refuse(req, a.balance, wallet.ReasonLimit, "your stake limit is reached")
		case a.balance < req.Amount:
			return refuse(req, a.balance, wallet.ReasonInsufficientFunds, "your balance does not cover the stake")
		}
		a.balance -= req.Amount
		a.staked += req.Amount
		o.debits[req.TransactionID] = req
	case wallet.OpCredit:
		a.balance += req.Amount
	case wallet.OpRollback:
		if !o.rolled[req.Reference] {
			o.rolled[req.Reference] = true
			if d, ok := o.debits[req.Reference]; ok && o.players[d.Player] != nil {
				p := o.players[d.Player]
				p.balance += d.Amount
				p.staked -= d.Amount
			}
		}
	default:
		return refuse(req, a.balance, "unknown_operation", "no operation "+op)
	}
	ok.Balance = a.balance
	return ok
}

func refuse(req wallet.Request, balance money.Amount, reason, message string) wallet.Response {
	return wallet.Response{TransactionID: req.TransactionID, Status: wallet.StatusRefused, Balance: balance, Reason: reason, Message: message}
}

func itoa(n int64) string {
	b, _ := json.Marshal(n)
	return string(b)
}
