// Package testwait is how a test waits: for a state, until it holds or a
// deadline scaled for the machine passes (Until), never for a fixed time
// that a busy machine may not keep. A pause that waits for no state (the
// moment of a fault in a test of crashes, the length of a load) says so by
// its name (Pause). The tests of the timing-sensitive packages call no
// time.Sleep of their own (TestNoSleepWaitsForAState, at the module's root).
package testwait

import (
	"os"
	"runtime"
	"strconv"
	"strings"
	"testing"
	"time"
)

// Scale is the factor a test's deadlines are multiplied by:
// $SABOT_TEST_TIME_SCALE where it is a positive number; else the machine's
// load per core (the last minute's load average over runtime.NumCPU) where
// it is above 1, at most maxLoadScale; else 1. A deadline is how long a test
// waits before it calls a state never reached, not how long it takes: a
// larger one costs a passing test nothing, and on two cores at a load of
// 40 a process gets a twentieth of the time a quiet machine gives it.
func Scale() float64 {
	if f, err := strconv.ParseFloat(os.Getenv("SABOT_TEST_TIME_SCALE"), 64); err == nil && f > 0 {
		return f
	}
	if l, ok := loadAverage(); ok {
		if f := l / float64(runtime.NumCPU()); f > 1 {
			return min(f, maxLoadScale)
		}
	}
	return 1
}

// maxLoadScale bounds the scale the load gives: a state never reached is
// still called so within a bounded time.
const maxLoadScale = 20

// loadAverage is the last minute's load average (Linux: /proc/loadavg);
// false where it cannot be read. A variable: TestScale gives its own.
var loadAverage = func() (float64, bool) {
	b, err := os.ReadFile("/proc/loadavg")
	if err != nil {
		return 0, false
	}
	first, _, _ := strings.Cut(string(b), " ")
	l, err := strconv.ParseFloat(first, 64)
	return l, err == nil
}

// Deadline is d scaled for the machine (Scale).
func Deadline(d time.Duration) time.Duration { return time.Duration(float64(d) * Scale()) }

// Until asks cond every few milliseconds until it holds, and fails the
// test, saying what was awaited, once the scaled deadline d has passed.
func Until(tb testing.TB, d time.Duration, what string, cond func() bool) {
	tb.Helper()
	if !Within(d, cond) {
		tb.Fatalf("not within %v: %s", Deadline(d), what)
	}
}

// Within asks cond every few milliseconds until it holds (true) or the
// scaled deadline d has passed (false).
func Within(d time.Duration, cond func() bool) bool {
	deadline := time.Now().Add(Deadline(d))
	tick := time.NewTicker(10 * time.Millisecond)
	defer tick.Stop()
	for !cond() {
		if time.Now().After(deadline) {
			return false
		}
		<-tick.C
	}
	return true
}

// Pause lets d pass for a reason that is no state to wait for: the random
// moment a test of crashes kills a process at, or the length of the load it
// runs. Its callers say which.
func Pause(d time.Duration) {
	t := time.NewTimer(d)
	defer t.Stop()
	<-t.C
}

// A Poll paces a loop that asks for a state until it holds, with a
// deadline scaled for the machine:
//
//	for poll := testwait.NewPoll(10 * time.Second); !ready(); poll.Next() {
//		if poll.Expired() {
//			t.Fatal("not ready")
//		}
//	}
type Poll struct {
	deadline time.Time
	tick     *time.Ticker
}

// NewPoll starts a poll whose deadline is d from now, scaled (Deadline).
func NewPoll(d time.Duration) *Poll {
	return &Poll{deadline: time.Now().Add(Deadline(d)), tick: time.NewTicker(10 * time.Millisecond)}
}

// Next waits for the poll's next tick.
func (p *Poll) Next() { <-p.tick.C }

// Expired reports whether the deadline has passed.
func (p *Poll) Expired() bool { return time.Now().After(p.deadline) }
