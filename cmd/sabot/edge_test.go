package main

import (
	"bytes"
	"encoding/json"
	"image/png"
	"math"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"sabot/analysis"
)

// sabot edge --json: at least ev, house_edge, rtp and strategy, with the
// published house edge of the reference game (about 0.40 %, see
// analysis.TestPublishedHouseEdges).
func TestEdgeJSON(t *testing.T) {
	t.Parallel()
	out, errb, code := run(t, "", "edge", "vegas-s17", "--json", "--no-effects")
	if code != 0 {
		t.Fatalf("exit %d: %s", code, errb)
	}
	var got struct {
		EV        *float64 `json:"ev"`
		HouseEdge *float64 `json:"house_edge"`
		RTP       *float64 `json:"rtp"`
		Strategy  string   `json:"strategy"`
		EdgeTD    *float64 `json:"house_edge_td"`
		EdgeCD    *float64 `json:"house_edge_cd"`
		PAR       struct {
			Blackjack float64 `json:"blackjack"`
			Stake     float64 `json:"average_stake"`
		} `json:"par"`
		Dealer []struct {
			Up  string             `json:"up"`
			All map[string]float64 `json:"all"`
		} `json:"dealer"`
	}
	if err := json.Unmarshal([]byte(out), &got); err != nil {
		t.Fatalf("%v in %s", err, out)
	}
	if got.EV == nil || got.HouseEdge == nil || got.RTP == nil || got.Strategy != "td" {
		t.Fatalf("missing fields: %s", out)
	}
	if *got.EV > -0.0039 || *got.EV < -0.0041 || *got.HouseEdge != -*got.EV || *got.RTP != 1+*got.EV {
		t.Errorf("ev %v house_edge %v rtp %v", *got.EV, *got.HouseEdge, *got.RTP)
	}
	// The headline carries both strategies whatever --strategy says; cd is
	// Farmer's exact figure for these rules (analysis.TestFarmerExactResplits).
	if got.EdgeTD == nil || got.EdgeCD == nil || *got.EdgeTD != *got.HouseEdge || math.Abs(*got.EdgeCD-0.00402864343) > 1e-11 {
		t.Errorf("house_edge_td %v house_edge_cd %v, want %v and 0.00402864343", got.EdgeTD, got.EdgeCD, *got.HouseEdge)
	}
	if len(got.Dealer) != 10 || got.Dealer[9].Up != "A" || got.Dealer[9].All["blackjack"] < 0.3 {
		t.Errorf("dealer table: %+v", got.Dealer)
	}
	if got.PAR.Blackjack < 0.047 || got.PAR.Stake < 1.1 {
		t.Errorf("par: %+v", got.PAR)
	}
}

// sabot edge with an option and the composition-dependent strategy, text,
// the challenge table of AR-10 and the effects of the options.
func TestEdgeText(t *testing.T) {
	t.Parallel()
	out, errb, code := run(t, "", "edge", "argentina", "-o", "decks=1", "-o", "min_cut=0", "-o", "cut_card_reserve=0", "--strategy", "cd", "--progress")
	if code != 0 {
		t.Fatalf("exit %d: %s", code, errb)
	}
	for _, want := range []string{"profile argentina, 1 deck(s)", "composition-dependent (cd)", "house edge",
		"% with basic strategy (td), ", "% with the best play for the exact cards (cd)\n",
		"the challenge (AR-10)", "never take it", "dealer's final total", "effect of each option", "declare_initial_ace"} {
		if !strings.Contains(out, want) {
			t.Errorf("no %q in\n%s", want, out)
		}
	}
	if !strings.Contains(errb, "dealer up cards: 10/10") {
		t.Errorf("--progress printed %q", errb)
	}
}

func TestEdgeRefused(t *testing.T) {
	t.Parallel()
	for _, args := range [][]string{
		{"edge"},
		{"edge", "nowhere"},
		{"edge", "vegas-s17", "--strategy", "best"},
		{"edge", "vegas-s17", "-o", "decks=0"},
		{"edge", "vegas-s17", "-o", "colour=red"},
		{"strategy", "vegas-s17", "--format", "gif"},
	} {
		out, errb, code := run(t, "", args...)
		if code != 2 || out != "" || errb == "" {
			t.Errorf("%v: exit %d, stdout %q, stderr %q", args, code, out, errb)
		}
	}
}

// sabot strategy: the text card, the CSV the simulator reads (it parses
// back), SVG and PNG pictures.
func TestStrategyFormats(t *testing.T) {
	t.Parallel()
	out, errb, code := run(t, "", "strategy", "venice")
	if code != 0 || !strings.Contains(out, "basic strategy (total-dependent) for venice") || !strings.Contains(out, "VE-13") {
		t.Fatalf("text: exit %d %s\n%s", code, errb, out)
	}
	out, _, code = run(t, "", "strategy", "venice", "--format", "csv")
	if code != 0 {
		t.Fatal("csv failed")
	}
	card, err := analysis.ReadCSV(strings.NewReader(out))
	if err != nil {
		t.Fatalf("the CSV does not parse: %v", err)
	}
	if r := card.Lookup(analysis.KindPair, "8"); r == nil || r.Cells[5].Act != analysis.Split {
		t.Errorf("8,8 vs 6 is not a split")
	}
	dir := t.TempDir()
	svg := filepath.Join(dir, "card.svg")
	if _, errb, code := run(t, "", "strategy", "argentina", "--format", "svg", "--out", svg); code != 0 {
		t.Fatalf("svg: %s", errb)
	}
	b, err := os.ReadFile(svg)
	if err != nil || !bytes.Contains(b, []byte("<svg")) || !bytes.Contains(b, []byte("S@11")) {
		t.Errorf("svg: %v, %d bytes", err, len(b))
	}
	out, _, code = run(t, "", "strategy", "vegas-s17", "--format", "png")
	if code != 0 {
		t.Fatal("png failed")
	}
	img, err := png.Decode(strings.NewReader(out))
	if err != nil || img.Bounds().Dx() < 800 {
		t.Errorf("png: %v", err)
	}
}
