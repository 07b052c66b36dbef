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
