package report

import (
	"context"
	"testing"
	"time"

	"sabot"
)

// A paced source pauses after each read rest times the time the report
// worked since its last pause: the read and the work on the page before
// (a clock of the test's, no time waited).
func TestPaced(t *testing.T) {
	m, _ := synthLog(t, 1, 2, 10)
	clock := time.Unix(0, 0)
	var pauses []time.Duration
	src := Paced(m, 1.5).(*paced)
	src.now = func() time.Time { return clock }
	src.sleep = func(_ context.Context, d time.Duration) error {
		pauses = append(pauses, d)
		clock = clock.Add(d)
		return nil
	}
	m.sample = func() { clock = clock.Add(10 * time.Millisecond) } // a read across tables takes 10 ms
	q := sabot.LogQuery{Kinds: []string{sabot.LogDeal}, Newest: true, Before: &sabot.LogRecord{Created: time.Now()}}
	for _, work := range []time.Duration{0, 40 * time.Millisecond} {
		clock = clock.Add(work) // the report's work on the page before
		if _, err := src.Find(context.Background(), q); err != nil {
			t.Fatal(err)
		}
	}
	want := []time.Duration{15 * time.Millisecond, 75 * time.Millisecond}
	if len(pauses) != 2 || pauses[0] != want[0] || pauses[1] != want[1] {
		t.Errorf("pauses %v, want %v", pauses, want)
	}
	if _, ok := Paced(ledgerSource{m}, 1).(sabot.LedgerReader); !ok {
		t.Error("a paced store does not read its ledger")
	}
}

type ledgerSource struct{ *memLog }

func (ledgerSource) RoundNets(context.Context, time.Time, time.Time) ([]sabot.LedgerNet, error) {
	return nil, nil
}
