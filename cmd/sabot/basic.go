package main

import (
	"bytes"
	"embed"
	"fmt"
	"io"

	"sabot/analysis"
	"sabot/rules"
)

// The exact basic strategy of every built-in profile, computed ahead by
// package analysis. The analysis of a game takes about 6.4 G instructions
// (0.6 s on one core of the development machine), as long as `sabot sim`
// takes to deal 9 M rounds, and the simulator needs only its strategy card.
// TestBasicCards holds each file to the analysis (rewrite them with
// go test ./cmd/sabot -run TestBasicCards -update); a game no file has (an
// -o option that changes the return of a round) is analysed as before.
//
//go:embed basic/*.csv
var basicFiles embed.FS

// basicGame is the header line that names the game a card is for.
const basicGame = "# game: "

// basicCard returns the exact basic strategy of p's game (Profile.GameHash:
// the cut card and the table's limits do not change it) as CSV, if it was
// computed ahead.
func basicCard(p *rules.Profile) ([]byte, bool) {
	want := []byte(basicGame + p.GameHash())
	entries, _ := basicFiles.ReadDir("basic")
	for _, e := range entries {
		b, err := basicFiles.ReadFile("basic/" + e.Name())
		if err != nil {
			continue
		}
		for line := range bytes.Lines(b) {
			line = bytes.TrimSpace(line)
			if !bytes.HasPrefix(line, []byte("#")) {
				break
			}
			if bytes.Equal(line, want) {
				return b, true
			}
		}
	}
	return nil, false
}

// writeBasicCard writes the file of a built-in profile's card.
func writeBasicCard(w io.Writer, p *rules.Profile, card *analysis.StrategyCard) error {
	fmt.Fprintf(w, "# The exact basic strategy of package analysis for the built-in profile %s,\n", p.Name)
	fmt.Fprintf(w, "# computed ahead for sabot sim (cmd/sabot/basic.go; rewrite: go test ./cmd/sabot -run TestBasicCards -update).\n")
	fmt.Fprintf(w, "%s%s\n", basicGame, p.GameHash())
	return card.WriteCSV(w)
}
