package operator

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"sync"
	"testing"
	"testing/synctest"
	"time"

	"sabot/internal/wallet"
	"sabot/internal/wallet/walletsim"
)

// flaky is an operator's wallet in memory, for a bubble: its first fail
// calls have no answer (a connection refused), the rest are the reference
// operator's answers; it notes when each call came, on the bubble's clock.
type flaky struct {
	mu   sync.Mutex
	fail int
	ref  *walletsim.Operator
	at   []time.Time
	body [][]byte // each call's body, as sent
}

func (f *flaky) RoundTrip(r *http.Request) (*http.Response, error) {
	b, err := io.ReadAll(r.Body)
	if err != nil {
		return nil, err
	}
	r.Body = io.NopCloser(bytes.NewReader(b))
	f.mu.Lock()
	f.at, f.body = append(f.at, time.Now()), append(f.body, b)
	n := len(f.at)
	f.mu.Unlock()
	if n <= f.fail {
		return nil, errors.New("connection refused")
	}
	w := httptest.NewRecorder()
	f.ref.ServeHTTP(w, r)
	return w.Result(), nil
}

// A call with no answer is sent again with the same transaction ID, 50 ms
// after the first try, then after twice as long each time up to a second,
// until it is answered or the operator's time limit is over; on a fake
// clock (testing/synctest) each try's moment is exact.
func TestCallRetriesOnItsClock(t *testing.T) {
	for _, c := range []struct {
		name  string
		fail  int
		tries []time.Duration // from the first, when each try is sent
		err   bool
	}{
		{"answered at the fourth try", 3, []time.Duration{0, 50e6, 150e6, 350e6}, false},
		{"never answered within 3 s", 1 << 30, []time.Duration{0, 50e6, 150e6, 350e6, 750e6, 1550e6, 2550e6}, true},
	} {
		t.Run(c.name, func(t *testing.T) {
			synctest.Test(t, func(t *testing.T) {
				f := &flaky{fail: c.fail, ref: walletsim.New(secret, "EUR")}
				f.ref.AddPlayer("p-1", "Ana", 100000)
				o := New(Config{Wallet: &wallet.Client{URL: "http://operator.test/wallet", Secret: secret, HTTP: &http.Client{Transport: f}},
					Timeout: 3 * time.Second, Currency: "EUR"})
				start := time.Now()
				res, err := o.callWithin(context.Background(), wallet.OpBalance, wallet.Request{TransactionID: "t-1", Player: "p-1"})
				if c.err != (err != nil) || (err == nil) != (res != nil) {
					t.Fatalf("the call: %+v, %v", res, err)
				}
				if c.err && !errors.Is(err, wallet.ErrNoAnswer) {
					t.Fatalf("a call never answered: %v, want no answer", err)
				}
				if c.err && time.Since(start) != 3*time.Second {
					t.Fatalf("a call never answered gave up after %v, want the time limit, 3s", time.Since(start))
				}
				if len(f.at) != len(c.tries) {
					t.Fatalf("%d tries, want %d", len(f.at), len(c.tries))
				}
				for i, at := range f.at {
					if got := at.Sub(start); got != c.tries[i] {
						t.Errorf("try %d sent at %v, want %v", i+1, got, c.tries[i])
					}
					if b := f.body[i]; !bytes.Contains(b, []byte(`"transaction_id":"t-1"`)) || !bytes.Contains(b, fmt.Appendf(nil, `"attempt":%d`, i+1)) {
						t.Errorf("try %d sent %s, want transaction t-1, attempt %d", i+1, b, i+1)
					}
				}
			})
		})
	}
}
