package report

import (
	"context"
	"encoding/json"
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

// A paced report reads pages of pacedPage records across tables, not
// pageSize, and answers as the unpaced one does, to the last figure.
func TestPacedPages(t *testing.T) {
	m, p := synthLog(t, 3, 12, 1500)
	ctx := context.Background()
	th := NewTheories()
	run := func(src Source) (answers [3]string, pages int) {
		m.sample = func() { pages++ }
		defer func() { m.sample = nil }()
		tables, err := TablesReport(ctx, src, th, p)
		if err != nil {
			t.Fatal(err)
		}
		players, err := PlayersReport(ctx, src, th, p, PlayersOptions{NoErrors: true})
		if err != nil {
			t.Fatal(err)
		}
		advantage, err := AdvantageReport(ctx, src, p, AdvantageOptions{})
		if err != nil {
			t.Fatal(err)
		}
		for i, r := range []any{tables, players, advantage} {
			b, err := json.Marshal(r)
			if err != nil {
				t.Fatal(err)
			}
			answers[i] = string(b)
		}
		return answers, pages
	}
	whole, wholePages := run(m)
	src := Paced(m, 1).(*paced)
	src.sleep = func(context.Context, time.Duration) error { return nil }
	paced, pacedPages := run(src)
	for i := range whole {
		if whole[i] != paced[i] {
			t.Errorf("report %d paced differs:\n%s\n%s", i, whole[i], paced[i])
		}
	}
	// The tables' report reads the settlements (1,500), the voids and the
	// pit's records (none), the players' the settlements and the deals,
	// the advantage report the deals: 6 pages of 2,000 unpaced; paced,
	// 1,500 records are 6 pages of 250 and an empty one, so 30.
	if wholePages != 6 || pacedPages != 30 {
		t.Errorf("%d pages unpaced, %d paced; want 6 pages of %d records, then 30 of %d", wholePages, pacedPages, pageSize, pacedPage)
	}
}
