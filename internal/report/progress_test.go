package report

import (
	"context"
	"testing"
)

// A long players' report says how far it is: Progress
// is told the rounds read every ProgressRounds rounds, in order, and once
// at the end with every round of the period the tables report counts.
func TestPlayersReportProgress(t *testing.T) {
	m, p := synthLog(t, 2, 10, 1500)
	var calls []int64
	if _, err := PlayersReport(context.Background(), memLedger{m}, NewTheories(), p, PlayersOptions{NoErrors: true, Progress: func(n int64) { calls = append(calls, n) }}); err != nil {
		t.Fatal(err)
	}
	tr, err := TablesReport(context.Background(), memLedger{m}, NewTheories(), p)
	if err != nil {
		t.Fatal(err)
	}
	if len(calls) < 2 || calls[len(calls)-1] != tr.Total.Rounds {
		t.Fatalf("progress %v; want steps of %d ending at the %d rounds", calls, ProgressRounds, tr.Total.Rounds)
	}
	for i, n := range calls[:len(calls)-1] {
		if n != int64(i+1)*ProgressRounds {
			t.Errorf("progress call %d: %d rounds, want %d", i, n, (i+1)*ProgressRounds)
		}
	}
	t.Logf("progress: %v", calls)
}

// A long tables' report says how far it is too, from
// the log alone and through the rollups: Progress is told the rounds
// summed as they pass each multiple of ProgressRounds, and once at the end
// with the report's rounds.
func TestTablesReportProgress(t *testing.T) {
	m, p := synthLog(t, 2, 10, 1500)
	ro := newMemRollups(m, 97)
	if _, err := RollUp(context.Background(), ro, nil, RollupTables); err != nil {
		t.Fatal(err)
	}
	for _, c := range []struct {
		what string
		src  Source
	}{{"the log", memLedger{m}}, {"the rollups", ro}} {
		var calls []int64
		tr, err := TablesReportWith(context.Background(), c.src, NewTheories(), p, TablesOptions{Progress: func(n int64) { calls = append(calls, n) }})
		if err != nil {
			t.Fatal(err)
		}
		if len(calls) < 2 || calls[len(calls)-1] != tr.Total.Rounds {
			t.Fatalf("%s: progress %v; want steps of %d ending at the %d rounds", c.what, calls, ProgressRounds, tr.Total.Rounds)
		}
		// A rollup's row may carry the sum past a multiple by more than one
		// round: each call is the first sum past a new multiple.
		for i, n := range calls[:len(calls)-1] {
			if n/ProgressRounds <= int64(i) || i > 0 && n/ProgressRounds <= calls[i-1]/ProgressRounds {
				t.Errorf("%s: progress call %d: %d rounds, not past a multiple of %d not told before", c.what, i, n, ProgressRounds)
			}
		}
		t.Logf("%s: progress %v of %d rounds", c.what, calls, tr.Total.Rounds)
	}
}
