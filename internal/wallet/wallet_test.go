package wallet_test

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
	"net/http/httptest"
	"os"
	"strconv"
	"strings"
	"testing"
	"time"

	"sabot/internal/wallet"
	"sabot/internal/wallet/walletsim"
	"sabot/money"
)

var secret = []byte("a shared secret of the operator's")

func setup(t *testing.T) (*walletsim.Operator, *wallet.Client) {
	t.Helper()
	op := walletsim.New(secret, "EUR")
	op.AddPlayer("p-1", "Ana María", 10000)
	op.IssueToken("p-1", "tok-1")
	srv := httptest.NewServer(op)
	t.Cleanup(srv.Close)
	return op, &wallet.Client{URL: srv.URL, Secret: secret, Timeout: time.Second}
}

func call(t *testing.T, c *wallet.Client, op string, req wallet.Request) *wallet.Response {
	t.Helper()
	r, err := c.Call(context.Background(), op, req)
	if err != nil {
		t.Fatalf("%s %s: %v", op, req.TransactionID, err)
	}
	return r
}

// On the wire an amount and a balance are JSON numbers of minor units, as
// the int64s they were: a debit's, a credit's of 0, none in a balance call;
// an answer's balance read back, below zero too.
func TestAmountsOnTheWire(t *testing.T) {
	for _, tc := range []struct {
		op   string
		req  wallet.Request
		want string
	}{
		{wallet.OpDebit, wallet.Request{TransactionID: "d-1", Amount: 1234567}, `{"transaction_id":"d-1","amount":1234567}`},
		{wallet.OpCredit, wallet.Request{TransactionID: "c-1"}, `{"transaction_id":"c-1","amount":0,"round_closed":false}`},
		{wallet.OpBalance, wallet.Request{TransactionID: "b-1", Amount: 5}, `{"transaction_id":"b-1"}`}, // a balance call has no amount
	} {
		b, err := wallet.Encode(tc.op, tc.req)
		if err != nil || string(b) != tc.want {
			t.Errorf("%s: %s %v, want %s", tc.op, b, err, tc.want)
		}
	}
	var r wallet.Response
	if err := json.Unmarshal([]byte(`{"transaction_id":"x","status":"ok","balance":-250}`), &r); err != nil || r.Balance != -250 {
		t.Fatalf("balance %d: %v", r.Balance, err)
	}
	if b, _ := json.Marshal(r); !strings.Contains(string(b), `"balance":-250`) {
		t.Fatalf("an answer written: %s", b)
	}
}

// The calls of a round: the player authenticated by the operator's token,
// a stake debited, a win credited; each transaction ID acts once however
// often it is sent.
func TestRound(t *testing.T) {
	op, c := setup(t)
	a := call(t, c, wallet.OpAuthenticate, wallet.Request{TransactionID: "auth-1", Token: "tok-1"})
	if a.Status != wallet.StatusOK || a.Player != "p-1" || a.Name != "Ana María" || a.Balance != 10000 || a.Currency != "EUR" {
		t.Fatalf("authenticate: %+v", a)
	}
	if r := call(t, c, wallet.OpAuthenticate, wallet.Request{TransactionID: "auth-2", Token: "nope"}); r.Reason != wallet.ReasonInvalidToken {
		t.Fatalf("an unknown token: %+v", r)
	}
	d := wallet.Request{TransactionID: "d-4-1-1", Player: "p-1", Amount: 500, Currency: "EUR", Round: "4-1", Kind: "main"}
	for range 3 {
		if r := call(t, c, wallet.OpDebit, d); r.Status != wallet.StatusOK || r.Balance != 9500 {
			t.Fatalf("debit: %+v", r)
		}
	}
	if r := call(t, c, wallet.OpCredit, wallet.Request{TransactionID: "c-4-1", Player: "p-1", Amount: 1000, Round: "4-1", Kind: "settle"}); r.Balance != 10500 {
		t.Fatalf("credit: %+v", r)
	}
	if op.Balance("p-1") != 10500 || len(op.Statement()) != 4 {
		t.Fatalf("balance %d, statement %+v", op.Balance("p-1"), op.Statement())
	}
	if r := call(t, c, wallet.OpCredit, wallet.Request{TransactionID: "d-4-1-1", Player: "p-1", Amount: 500}); r.Reason != "transaction_reused" {
		t.Fatalf("a transaction ID reused by another call: %+v", r)
	}
}

// The operator's refusals reach the caller with their reasons, and
// change nothing.
func TestRefusals(t *testing.T) {
	op, c := setup(t)
	for _, tc := range []struct {
		req    wallet.Request
		reason string
		before func()
	}{
		{wallet.Request{TransactionID: "r-1", Player: "p-1", Amount: 20000}, wallet.ReasonInsufficientFunds, nil},
		{wallet.Request{TransactionID: "r-2", Player: "p-9", Amount: 100}, wallet.ReasonUnknownPlayer, nil},
		{wallet.Request{TransactionID: "r-3", Player: "p-1", Amount: 100, Currency: "ARS"}, wallet.ReasonCurrency, nil},
		// An amount is from 0 to money.Max: the bound itself is an amount.
		{wallet.Request{TransactionID: "r-6", Player: "p-1", Amount: -100}, "invalid_amount", nil},
		{wallet.Request{TransactionID: "r-7", Player: "p-1", Amount: money.Max + 1}, "invalid_amount", nil},
		{wallet.Request{TransactionID: "r-8", Player: "p-1", Amount: money.Max}, wallet.ReasonInsufficientFunds, nil},
		{wallet.Request{TransactionID: "r-4", Player: "p-1", Amount: 3000}, wallet.ReasonLimit, func() { op.SetLimit("p-1", 2000) }},
		{wallet.Request{TransactionID: "r-5", Player: "p-1", Amount: 100}, wallet.ReasonBlocked, func() { op.Block("p-1") }},
	} {
		if tc.before != nil {
			tc.before()
		}
		r := call(t, c, wallet.OpDebit, tc.req)
		if !r.Refused() || r.Reason != tc.reason || r.Message == "" {
			t.Errorf("%s: %+v, want refused %s", tc.req.TransactionID, r, tc.reason)
		}
	}
	if op.Balance("p-1") != 10000 {
		t.Fatalf("refusals changed the balance: %d", op.Balance("p-1"))
	}
}

// A rollback gives a debit back once; a rollback that comes before its
// debit (the debit's answer was lost, the caller gave up) makes the debit
// refused when it arrives late.
func TestRollback(t *testing.T) {
	op, c := setup(t)
	call(t, c, wallet.OpDebit, wallet.Request{TransactionID: "d-1", Player: "p-1", Amount: 700})
	for range 2 {
		call(t, c, wallet.OpRollback, wallet.Request{TransactionID: "rb-1", Player: "p-1", Reference: "d-1"})
	}
	call(t, c, wallet.OpRollback, wallet.Request{TransactionID: "rb-1b", Player: "p-1", Reference: "d-1"}) // another rollback of it: nothing more
	if op.Balance("p-1") != 10000 {
		t.Fatalf("after a debit of 700 rolled back: %d", op.Balance("p-1"))
	}
	call(t, c, wallet.OpRollback, wallet.Request{TransactionID: "rb-2", Player: "p-1", Reference: "d-2"})
	if r := call(t, c, wallet.OpDebit, wallet.Request{TransactionID: "d-2", Player: "p-1", Amount: 300}); r.Reason != wallet.ReasonRolledBack {
		t.Fatalf("a debit after its rollback: %+v", r)
	}
	if op.Balance("p-1") != 10000 {
		t.Fatalf("balance %d", op.Balance("p-1"))
	}
}

// Signatures: a request under another secret is refused and does nothing;
// an answer under another secret, or for another transaction, is no answer
// for the caller; a stale timestamp is refused.
func TestSignatures(t *testing.T) {
	op, c := setup(t)
	bad := *c
	bad.Secret = []byte("someone else")
	_, err := bad.Call(context.Background(), wallet.OpDebit, wallet.Request{TransactionID: "x-1", Player: "p-1", Amount: 100})
	if !errors.Is(err, wallet.ErrNoAnswer) || !strings.Contains(err.Error(), "HTTP 401") {
		t.Fatalf("a request under another secret: %v", err)
	}
	stale := *c
	stale.Now = func() time.Time { return time.Now().Add(-10 * time.Minute) }
	if _, err := stale.Call(context.Background(), wallet.OpDebit, wallet.Request{TransactionID: "x-2", Player: "p-1", Amount: 100}); !errors.Is(err, wallet.ErrNoAnswer) {
		t.Fatalf("a stale request: %v", err)
	}
	if op.Balance("p-1") != 10000 || op.Calls() != 0 {
		t.Fatalf("refused requests acted: balance %d, calls %d", op.Balance("p-1"), op.Calls())
	}
	// A forged operator: it answers under another secret.
	forged := walletsim.New([]byte("someone else"), "EUR")
	forged.AddPlayer("p-1", "x", 10000)
	srv := httptest.NewServer(forged)
	defer srv.Close()
	fc := &wallet.Client{URL: srv.URL, Secret: []byte("someone else"), Timeout: time.Second}
	other := &wallet.Client{URL: srv.URL, Secret: secret, Timeout: time.Second}
	if _, err := fc.Call(context.Background(), wallet.OpBalance, wallet.Request{TransactionID: "b-1", Player: "p-1"}); err != nil {
		t.Fatal(err)
	}
	if _, err := other.Call(context.Background(), wallet.OpBalance, wallet.Request{TransactionID: "b-2", Player: "p-1"}); !errors.Is(err, wallet.ErrNoAnswer) {
		t.Fatalf("an answer that does not verify was taken: %v", err)
	}
	// An answer for another transaction.
	mixed := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		ans := []byte(`{"transaction_id":"someone-else","status":"ok","balance":1}`)
		ts := time.Now().Unix()
		w.Header().Set(wallet.HeaderTimestamp, strconv.FormatInt(ts, 10))
		w.Header().Set(wallet.HeaderSignature, wallet.Sign(secret, ts, r.Method, r.URL.Path, ans))
		w.Write(ans)
	}))
	defer mixed.Close()
	mc := &wallet.Client{URL: mixed.URL, Secret: secret, Timeout: time.Second}
	if _, err := mc.Call(context.Background(), wallet.OpBalance, wallet.Request{TransactionID: "b-3", Player: "p-1"}); !errors.Is(err, wallet.ErrNoAnswer) || !strings.Contains(err.Error(), "the answer is for") {
		t.Fatalf("an answer for another transaction: %v", err)
	}
}

// Faults: a 500 before acting did nothing; a 500 after acting, or an answer
// past the time limit, leaves the caller without an answer although the
// call acted: sent again with its transaction ID it is answered as done,
// and acted once.
func TestFaults(t *testing.T) {
	op, c := setup(t)
	op.Faults = walletsim.Faults{FailRate: 1}
	d := wallet.Request{TransactionID: "d-1", Player: "p-1", Amount: 100}
	if _, err := c.Call(context.Background(), wallet.OpDebit, d); !errors.Is(err, wallet.ErrNoAnswer) {
		t.Fatalf("a 500: %v", err)
	}
	if op.Balance("p-1") != 10000 {
		t.Fatal("a call answered 500 before acting acted")
	}
	op.Faults = walletsim.Faults{LostRate: 1}
	if _, err := c.Call(context.Background(), wallet.OpDebit, d); !errors.Is(err, wallet.ErrNoAnswer) {
		t.Fatalf("a lost answer: %v", err)
	}
	op.Faults = walletsim.Faults{SlowRate: 1, Slow: 300 * time.Millisecond}
	c.Timeout = 50 * time.Millisecond
	if _, err := c.Call(context.Background(), wallet.OpDebit, d); !errors.Is(err, wallet.ErrNoAnswer) {
		t.Fatalf("a slow answer: %v", err)
	}
	op.Faults = walletsim.Faults{}
	c.Timeout = time.Second
	if r := call(t, c, wallet.OpDebit, d); r.Status != wallet.StatusOK || r.Balance != 9900 {
		t.Fatalf("the debit sent again: %+v", r)
	}
	if op.Balance("p-1") != 9900 || len(op.Statement()) != 1 {
		t.Fatalf("balance %d, statement %d entries: the debit acted more than once", op.Balance("p-1"), len(op.Statement()))
	}
}

// Verify takes any headers and body without panicking, and accepts only a
// signature Sign makes, within MaxSkew.
func FuzzVerify(f *testing.F) {
	now := time.Unix(1_800_000_000, 0)
	body := []byte(`{"transaction_id":"t-1"}`)
	f.Add("1800000000", wallet.Sign(secret, 1_800_000_000, "POST", "/debit", body), body)
	f.Add("1800000000", "sha256=00", body)
	f.Add("", "", []byte{})
	f.Add("-1", "sha256=", []byte("x"))
	f.Fuzz(func(t *testing.T, ts, sig string, body []byte) {
		h := http.Header{}
		h.Set(wallet.HeaderTimestamp, ts)
		h.Set(wallet.HeaderSignature, sig)
		err := wallet.Verify(secret, h, "POST", "/debit", body, now)
		if err == nil {
			n, perr := strconv.ParseInt(ts, 10, 64)
			if perr != nil || sig != wallet.Sign(secret, n, "POST", "/debit", body) {
				t.Fatalf("accepted %q %q", ts, sig)
			}
		} else if !errors.Is(err, wallet.ErrSignature) {
			t.Fatalf("a refusal that is not ErrSignature: %v", err)
		}
	})
}

// The docs name every operation and every reason the client knows.
func TestDocumented(t *testing.T) {
	yaml, err := os.ReadFile("../../docs/wallet.yaml")
	if err != nil {
		t.Fatal(err)
	}
	md, err := os.ReadFile("../../docs/wallet.md")
	if err != nil {
		t.Fatal(err)
	}
	for _, op := range wallet.Ops {
		if !strings.Contains(string(yaml), "\n  /"+op+":") || !strings.Contains(string(md), "| `"+op+"` |") {
			t.Errorf("operation %s is not in docs/wallet.yaml and docs/wallet.md", op)
		}
	}
	for _, r := range []string{wallet.ReasonInsufficientFunds, wallet.ReasonLimit, wallet.ReasonBlocked, wallet.ReasonUnknownPlayer,
		wallet.ReasonInvalidToken, wallet.ReasonRolledBack, wallet.ReasonCurrency} {
		if !strings.Contains(string(md), "| `"+r+"` |") || !strings.Contains(string(yaml), r) {
			t.Errorf("reason %s is not documented", r)
		}
	}
}

// A man in the middle takes a signed credit of 2,000 and posts it, headers
// and body unchanged, to /debit (or /rollback, /balance) instead: the
// operator refuses it (401) and acts on nothing, since the signature covers
// the method and the path as well as the body. Under the
// old signature (timestamp and body only) the credit became a debit of
// 2,000: a swing of 4,000 against the player.
func TestSignatureCoversOperation(t *testing.T) {
	for _, to := range []string{"/debit", "/rollback", "/balance"} {
		op := walletsim.New(secret, "EUR")
		op.AddPlayer("p-1", "Ana", 10000)
		mitm := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
			r.URL.Path = strings.Replace(r.URL.Path, "/credit", to, 1)
			op.ServeHTTP(w, r)
		}))
		c := &wallet.Client{URL: mitm.URL, Secret: secret, Timeout: time.Second}
		_, err := c.Call(context.Background(), wallet.OpCredit, wallet.Request{TransactionID: "c-1", Player: "p-1", Amount: 2000, Currency: "EUR", Round: "4-1", Kind: "settle"})
		mitm.Close()
		if !errors.Is(err, wallet.ErrNoAnswer) || !strings.Contains(err.Error(), "HTTP 401") {
			t.Errorf("a signed credit posted to %s: %v", to, err)
		}
		if op.Balance("p-1") != 10000 || len(op.Statement()) != 0 {
			t.Errorf("a signed credit posted to %s acted: balance %d, statement %+v", to, op.Balance("p-1"), op.Statement())
		}
	}
}

// An answer signed by the operator for one call is no answer to another:
// a man in the middle who returns, for a debit, an answer the operator
// signed for a balance of the same transaction ID (ok, the balance
// unchanged) or for another call, is refused by the client: the answer's
// signature covers the method and path of the call it answers.
func TestAnswerSignatureCoversOperation(t *testing.T) {
	op := walletsim.New(secret, "EUR")
	op.AddPlayer("p-1", "Ana", 10000)
	real := httptest.NewServer(op)
	defer real.Close()
	// The man in the middle: what is posted to /debit goes to /balance.
	mitm := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		body, _ := io.ReadAll(r.Body)
		to := strings.Replace(r.URL.Path, "/debit", "/balance", 1)
		req, _ := http.NewRequest(r.Method, real.URL+to, bytes.NewReader(body))
		req.Header = r.Header.Clone()
		res, err := http.DefaultClient.Do(req)
		if err != nil {
			http.Error(w, err.Error(), http.StatusBadGateway)
			return
		}
		defer res.Body.Close()
		for k, v := range res.Header {
			w.Header()[k] = v
		}
		w.WriteHeader(res.StatusCode)
		io.Copy(w, res.Body)
	}))
	defer mitm.Close()
	c := &wallet.Client{URL: mitm.URL, Secret: secret, Timeout: time.Second}
	r, err := c.Call(context.Background(), wallet.OpDebit, wallet.Request{TransactionID: "d-1", Player: "p-1", Amount: 500, Currency: "EUR", Round: "4-1", Kind: "bet"})
	if err == nil {
		t.Fatalf("a debit answered by a balance was taken as acknowledged: %+v (the operator holds %d)", r, op.Balance("p-1"))
	}
	if !errors.Is(err, wallet.ErrNoAnswer) {
		t.Fatalf("not ErrNoAnswer: %v", err)
	}
	if op.Balance("p-1") != 10000 {
		t.Fatalf("balance %d", op.Balance("p-1"))
	}
	// Forged answers, each under the shared secret: signed for another
	// operation's path; signed as the old protocol did (timestamp "." body);
	// a genuine answer to an earlier debit replayed.
	ans := []byte(`{"transaction_id":"d-2","status":"ok","balance":9500}`)
	earlier := []byte(`{"transaction_id":"d-1","status":"ok","balance":9500}`)
	for name, sign := range map[string]func(ts int64) ([]byte, string){
		"signed for /balance": func(ts int64) ([]byte, string) { return ans, wallet.Sign(secret, ts, "POST", "/balance", ans) },
		"the old signature": func(ts int64) ([]byte, string) {
			m := hmac.New(sha256.New, secret)
			fmt.Fprintf(m, "%d.%s", ts, ans)
			return ans, "sha256=" + hex.EncodeToString(m.Sum(nil))
		},
		"replayed": func(ts int64) ([]byte, string) { return earlier, wallet.Sign(secret, ts, "POST", "/debit", earlier) },
	} {
		forger := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
			ts := time.Now().Unix()
			body, sig := sign(ts)
			w.Header().Set(wallet.HeaderTimestamp, strconv.FormatInt(ts, 10))
			w.Header().Set(wallet.HeaderSignature, sig)
			w.Write(body)
		}))
		fc := &wallet.Client{URL: forger.URL, Secret: secret, Timeout: time.Second}
		r, err := fc.Call(context.Background(), wallet.OpDebit, wallet.Request{TransactionID: "d-2", Player: "p-1", Amount: 500})
		forger.Close()
		if !errors.Is(err, wallet.ErrNoAnswer) {
			t.Errorf("an answer %s was taken: %+v %v", name, r, err)
		}
	}
}

// The reference operator's game session tokens launch once, and not after
// TokenTTL: the same authenticate sent again is
// answered as the first time; another is refused.
func TestTokensOnceAndExpiring(t *testing.T) {
	op, c := setup(t)
	now := time.Now()
	op.Now = func() time.Time { return now }
	op.IssueToken("p-1", "tok-2")
	for range 2 {
		if r := call(t, c, wallet.OpAuthenticate, wallet.Request{TransactionID: "auth-1", Token: "tok-2"}); r.Status != wallet.StatusOK || r.Player != "p-1" {
			t.Fatalf("the first launch, and its repeat: %+v", r)
		}
	}
	if r := call(t, c, wallet.OpAuthenticate, wallet.Request{TransactionID: "auth-2", Token: "tok-2"}); r.Reason != wallet.ReasonInvalidToken {
		t.Fatalf("a token used again: %+v", r)
	}
	op.IssueToken("p-1", "tok-3")
	now = now.Add(walletsim.DefaultTokenTTL + time.Second)
	c.Now = op.Now
	if r := call(t, c, wallet.OpAuthenticate, wallet.Request{TransactionID: "auth-3", Token: "tok-3"}); r.Reason != wallet.ReasonInvalidToken || !strings.Contains(r.Message, "expired") {
		t.Fatalf("an expired token: %+v", r)
	}
}
