package report

import (
	"testing"
	"time"

	"sabot"
)

// BenchmarkSynth: the rounds `sabot report synth` makes a second, before
// the store writes them.
func BenchmarkSynth(b *testing.B) {
	var ts []*sabot.Table
	for i := range 20 {
		ts = append(ts, &sabot.Table{ID: int64(i + 1), Profile: []string{"vegas-s17", "vegas-h17"}[i%2]})
	}
	s := &Synth{Tables: ts, Players: []string{"a", "b", "c", "d", "e"}, Counters: 5,
		From: time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC), Every: time.Minute, Unit: 1000, Seed: 1}
	b.ReportAllocs()
	for b.Loop() {
		if _, err := s.Next(); err != nil {
			b.Fatal(err)
		}
	}
}
