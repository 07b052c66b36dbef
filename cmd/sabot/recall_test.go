package main

import (
	"sabot/internal/wire"
	"strings"
	"testing"
	"time"
)

// The recall of a round dealt from a physical
// shoe says so plainly (no seed, no commitment) and lists who read each
// card in, from which device, and when.
func TestPrintRecallPhysical(t *testing.T) {
	t.Parallel()
	at := time.Date(2026, 11, 25, 21, 4, 5, 0, time.UTC)
	var b strings.Builder
	printRecall(&b, &wire.RoundRecord{ID: "4-7", Table: 4, TableName: "Sala 1", Profile: "spain", Physical: true,
		Readings: []wire.Reading{
			{At: at, Kind: "card", Card: "TS", By: "reader 1", Device: 3},
			{At: at, Kind: "card", Card: "9H", By: "dora"},
			{At: at, Kind: "undo", Card: "9H", By: "dora"},
			{At: at, Kind: "cut-card", By: "dora"},
		}})
	out := b.String()
	for _, want := range []string{
		"PHYSICAL SHOE: its cards were read as dealt; no seed, no commitment to verify",
		"21:04:05.000  card     TS  by reader 1     by card reader 3",
		"21:04:05.000  card     9H  by dora         at the console",
		"21:04:05.000  undo     9H  by dora         at the console",
		"21:04:05.000  cut-card     by dora         at the console",
	} {
		if !strings.Contains(out, want) {
			t.Errorf("the recall lacks %q:\n%s", want, out)
		}
	}
}
