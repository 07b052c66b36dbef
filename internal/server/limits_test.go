package server

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"sabot/internal/testwait"
	"sabot/internal/wire"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"sabot"
)

// Password hashing takes at most its workers' CPUs
// however many logins come at once; a full queue is answered at once with
// 503 and Retry-After; a request whose client went away leaves the queue.
func TestHashingBounded(t *testing.T) {
	t.Parallel()
	h := newHasher(2, 3, 0)
	var running, most atomic.Int32
	release := make(chan struct{})
	var wg sync.WaitGroup
	results := make(chan error, 10)
	for i := 0; i < 10; i++ {
		wg.Go(func() {
			results <- h.do(context.Background(), func() {
				n := running.Add(1)
				for m := most.Load(); n > m && !most.CompareAndSwap(m, n); m = most.Load() {
				}
				<-release
				running.Add(-1)
			})
		})
	}
	// 2 hashing and 3 waiting hold every place: the other 5 are refused
	// without waiting for the hashes to end.
	refused := 0
	for refused < 5 {
		err := <-results
		if sabot.ErrorCode(err) != sabot.EUNAVAILABLE || sabot.RetryAfter(err) <= 0 {
			t.Fatalf("a request beyond the queue: %v", err)
		}
		refused++
	}
	for poll := testwait.NewPoll(10 * time.Second); running.Load() < 2; poll.Next() {
		if poll.Expired() {
			t.Fatalf("%d hashes run, want 2", running.Load())
		}
	}
	close(release)
	wg.Wait()
	close(results)
	for err := range results {
		if err != nil {
			t.Fatalf("a queued request: %v", err)
		}
	}
	if m := most.Load(); m != 2 {
		t.Fatalf("%d hashes ran at once, want at most (and here exactly) 2", m)
	}

	// A waiting request ends with its context.
	h = newHasher(1, 1, 0)
	hold := make(chan struct{})
	started := make(chan struct{})
	go h.do(context.Background(), func() { close(started); <-hold })
	<-started
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan error)
	go func() { done <- h.do(ctx, func() { t.Error("a cancelled request hashed") }) }()
	cancel()
	if err := <-done; !errors.Is(err, context.Canceled) {
		t.Fatalf("a cancelled wait: %v", err)
	}
	close(hold)
}

// One address holds at most its share of the hashing, waiting or hashed
// (40 parallel logins of one account had 12 of 12 other
// logins answered 503): beyond it, its requests are refused at once, and
// another address's still wait their turn.
func TestHashQueueFairPerAddress(t *testing.T) {
	t.Parallel()
	h := newHasher(1, 32, 8)
	release := make(chan struct{})
	a := withHashAddr(context.Background(), "198.51.100.7")
	results := make(chan error, 40)
	var wg sync.WaitGroup
	for range 40 {
		wg.Go(func() { results <- h.do(a, func() { <-release }) })
	}
	for range 32 {
		if err := <-results; sabot.ErrorCode(err) != sabot.EUNAVAILABLE || !strings.Contains(sabot.ErrorMessage(err), "your address") {
			t.Fatalf("beyond the address's share: %v", err)
		}
	}
	other := make(chan error, 1)
	go func() {
		other <- h.do(withHashAddr(context.Background(), "203.0.113.9"), func() {})
	}()
	close(release)
	wg.Wait()
	if err := <-other; err != nil {
		t.Fatalf("another address's login: %v", err)
	}
	for range 8 {
		if err := <-results; err != nil {
			t.Fatalf("within the share: %v", err)
		}
	}
}

// A throttle's buckets: a burst, then one per interval; the wait is told;
// buckets full again are forgotten.
func TestThrottle(t *testing.T) {
	t.Parallel()
	now := time.Unix(1_000_000, 0)
	th := newThrottle(3, time.Minute)
	for i := 0; i < 3; i++ {
		if d := th.take("a", now); d != 0 {
			t.Fatalf("attempt %d waits %v", i+1, d)
		}
	}
	if d := th.take("a", now); d != time.Minute {
		t.Fatalf("the 4th attempt waits %v, want 1m", d)
	}
	if d := th.take("b", now); d != 0 {
		t.Fatalf("another key waits %v", d)
	}
	if d := th.take("a", now.Add(time.Minute)); d != 0 {
		t.Fatalf("a minute later: %v", d)
	}
	th.charge("c", now)
	if d := th.wait("c", now); d != 0 {
		t.Fatalf("after one charge: %v", d)
	}
	th.sweepAt = 0 // the next new key sweeps
	th.bucket("d", now.Add(time.Hour))
	if len(th.buckets) != 1 {
		t.Fatalf("buckets after a sweep an hour later: %d, want only the new one", len(th.buckets))
	}
	if newThrottle(0, time.Minute) != nil || newThrottle(3, 0) != nil {
		t.Fatal("a throttle turned off is not nil")
	}
	var off *throttle
	if off.take("x", now) != 0 || off.wait("x", now) != 0 {
		t.Fatal("a throttle turned off throttles")
	}
}

// Clients are counted by IP; IPv6 by its /64.
func TestClientKey(t *testing.T) {
	t.Parallel()
	for in, want := range map[string]string{
		"127.0.0.1:5000":                  "127.0.0.1",
		"[::ffff:10.0.0.1]:80":            "10.0.0.1",
		"[2001:db8:1:2:3:4:5:6]:443":      "2001:db8:1:2::/64",
		"[2001:db8:1:2:ffff::1%eth0]:443": "2001:db8:1:2::/64",
		"not an address":                  "not an address",
	} {
		if got := clientKey(in); got != want {
			t.Errorf("clientKey(%q) = %q, want %q", in, got, want)
		}
	}
}

// The bodies the HTTP API decodes with decodeJSON.
var bodyTypes = []func() any{
	func() any { return new(wire.CommandRequest) },
	func() any { return new(wire.Credentials) },
	func() any { return new(wire.CreditRequest) },
	func() any { return new(wire.TableRequest) },
	func() any { return new(ReplayRequest) },
}

// FuzzDecodeBody: the request decoder never panics, and what it accepts
// re-encodes consistently: the encoding decodes again (strictly) to a
// value with the same encoding. Seeds in testdata/fuzz/FuzzDecodeBody.
func FuzzDecodeBody(f *testing.F) {
	for _, s := range []string{
		`{"command_id":"c-1","box":3}`,
		`{"name":"ana","password":"correct horse"}`,
		`{"command_id":"c","user":"ana","amount":100,"memo":"m"}`,
		`{"name":"t","profile":"venice","options":{"max_bet":"500"},"test_mode":true}`,
	} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		for _, mk := range bodyTypes {
			v := mk()
			if err := decodeJSON(data, v); err != nil {
				if sabot.ErrorCode(err) != sabot.EINVALID {
					t.Fatalf("%T: a refusal that is not invalid: %v", v, err)
				}
				continue
			}
			if len(bytes.TrimSpace(data)) == 0 || bytes.TrimSpace(data)[0] != '{' {
				t.Fatalf("%T: took %q, which is not a JSON object", v, data)
			}
			b1, err := json.Marshal(v)
			if err != nil {
				t.Fatalf("%T: %q decoded to %+v, which does not encode: %v", v, data, v, err)
			}
			w := mk()
			if err := decodeJSON(b1, w); err != nil {
				t.Fatalf("%T: %q decoded, its encoding %s does not: %v", v, data, b1, err)
			}
			b2, _ := json.Marshal(w)
			if !bytes.Equal(b1, b2) {
				t.Fatalf("%T: %q encodes as %s, then as %s", v, data, b1, b2)
			}
		}
	})
}
