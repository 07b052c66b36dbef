package client

import (
	"testing"
	"time"
)

// A bot's pauses are spread within ±Jitter of Think, over the whole of
// that range, and are exactly Think without jitter.
func TestBotPause(t *testing.T) {
	b := &Bot{Think: 500 * time.Millisecond}
	for range 100 {
		if d := b.pause(); d != b.Think {
			t.Fatalf("no jitter: pause %v, want %v", d, b.Think)
		}
	}
	b.Jitter = 0.5
	lo, hi := time.Hour, time.Duration(0)
	for range 10_000 {
		d := b.pause()
		if d < 250*time.Millisecond || d > 750*time.Millisecond {
			t.Fatalf("jitter 0.5: pause %v outside 250ms..750ms", d)
		}
		lo, hi = min(lo, d), max(hi, d)
	}
	if lo > 260*time.Millisecond || hi < 740*time.Millisecond {
		t.Errorf("jitter 0.5: pauses from %v to %v, want the whole range 250ms..750ms", lo, hi)
	}
	b.Jitter = 3 // more than 1 is 1: never a negative pause
	for range 1000 {
		if d := b.pause(); d < 0 || d > time.Second {
			t.Fatalf("jitter 3: pause %v outside 0..1s", d)
		}
	}
}
