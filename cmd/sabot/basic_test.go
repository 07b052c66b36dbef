package main

import (
	"bytes"
	"context"
	"flag"
	"os"
	"path/filepath"
	"testing"

	"sabot/analysis"
	"sabot/rules"
)

var updateBasic = flag.Bool("update", false, "rewrite the basic strategy cards in basic/")

// TestBasicCards: each built-in profile's card in basic/ is the exact
// basic strategy package analysis computes for it, byte for byte, and
// `sabot sim` finds it by the game; a game none was computed for is not
// found.
func TestBasicCards(t *testing.T) {
	t.Parallel()
	for _, name := range rules.Names() {
		p := rules.MustLookup(name)
		res, err := analysis.Analyze(context.Background(), p, analysis.Options{})
		if err != nil {
			t.Fatal(err)
		}
		var want bytes.Buffer
		if err := writeBasicCard(&want, p, res.Basic); err != nil {
			t.Fatal(err)
		}
		file := filepath.Join("basic", name+".csv")
		if *updateBasic {
			if err := os.WriteFile(file, want.Bytes(), 0o644); err != nil {
				t.Fatal(err)
			}
			continue
		}
		got, ok := basicCard(p)
		if !ok || !bytes.Equal(got, want.Bytes()) {
			t.Errorf("%s: the card in %s is not the analysis's (found %v): go test ./cmd/sabot -run TestBasicCards -update", name, file, ok)
		}
		q := p.Clone()
		q.CutCardReserve, q.MinBet = 0, 2*q.MinBet // the table, not the game
		if got, ok := basicCard(q); !ok || !bytes.Equal(got, want.Bytes()) {
			t.Errorf("%s: the same game at another table has no card", name)
		}
	}
	p := rules.MustLookup("vegas-s17")
	if err := p.SetAll([]string{"surrender=late"}); err != nil {
		t.Fatal(err)
	}
	if _, ok := basicCard(p); ok {
		t.Error("vegas-s17 with late surrender has a card computed ahead")
	}
}
