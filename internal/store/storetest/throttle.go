package storetest

import (
	"context"
	"sync"
	"testing"
	"time"

	"sabot"
)

// throttles is the store's shared throttle buckets (sqlstore/throttle.go),
// which the nodes of one database count failed logins in.
type throttles interface {
	ThrottleWait(ctx context.Context, bucket string, burst int, every time.Duration) (time.Duration, error)
	ThrottleCharge(ctx context.Context, bucket string, burst int, every time.Duration) error
}

// A bucket takes its burst, then waits an interval; attempts charged at
// once from many connections count each once, and none past the burst.
func testThrottles(t *testing.T, s sabot.Store) {
	th, ok := s.(throttles)
	if !ok {
		t.Fatalf("%T has no shared throttles", s)
	}
	ctx := context.Background()
	for i := range 3 {
		if d, err := th.ThrottleWait(ctx, "login ana", 3, time.Hour); err != nil || d != 0 {
			t.Fatalf("before attempt %d: wait %v, %v", i+1, d, err)
		}
		if err := th.ThrottleCharge(ctx, "login ana", 3, time.Hour); err != nil {
			t.Fatal(err)
		}
	}
	d, err := th.ThrottleWait(ctx, "login ana", 3, time.Hour)
	if err != nil || d <= 59*time.Minute || d > time.Hour {
		t.Fatalf("after the burst: wait %v, %v (an hour)", d, err)
	}
	if d, _ := th.ThrottleWait(ctx, "login bob", 3, time.Hour); d != 0 {
		t.Fatalf("another bucket waits %v", d)
	}
	// Ten at once, a burst of five: five count, the bucket waits an
	// interval (not six: none counted past the burst).
	var wg sync.WaitGroup
	for range 10 {
		wg.Go(func() {
			if err := th.ThrottleCharge(ctx, "login cy", 5, time.Hour); err != nil {
				t.Error(err)
			}
		})
	}
	wg.Wait()
	if d, err := th.ThrottleWait(ctx, "login cy", 5, time.Hour); err != nil || d <= 59*time.Minute || d > time.Hour {
		t.Fatalf("after ten at once: wait %v, %v (an hour)", d, err)
	}
	// A bucket refills: an interval of a millisecond, long past.
	th.ThrottleCharge(ctx, "login dee", 1, time.Millisecond)
	time.Sleep(5 * time.Millisecond)
	if d, err := th.ThrottleWait(ctx, "login dee", 1, time.Millisecond); err != nil || d != 0 {
		t.Fatalf("a refilled bucket waits %v, %v", d, err)
	}
}
