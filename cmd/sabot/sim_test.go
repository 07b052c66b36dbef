package main

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"math"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"
)

func runSim(t *testing.T, args ...string) (int, string, string) {
	t.Helper()
	var out, errb bytes.Buffer
	code := Run(context.Background(), append([]string{"sim"}, args...), strings.NewReader(""), &out, &errb)
	return code, out.String(), errb.String()
}

// TestSimJSON: `sabot sim --json` prints at least ev (per initial unit bet,
// a fraction), se and rounds, and the same seed gives the same numbers
// whatever --workers is.
func TestSimJSON(t *testing.T) {
	t.Parallel()
	var evs []float64
	for _, w := range []string{"1", "2"} {
		code, out, errs := runSim(t, "spain", "--rounds", "200000", "--seed", "9", "--workers", w, "--json")
		if code != 0 {
			t.Fatalf("exit %d: %s", code, errs)
		}
		var r struct {
			EV     *float64 `json:"ev"`
			SE     *float64 `json:"se"`
			Rounds *int64   `json:"rounds"`
		}
		if err := json.Unmarshal([]byte(out), &r); err != nil {
			t.Fatalf("%v\n%s", err, out)
		}
		if r.EV == nil || r.SE == nil || r.Rounds == nil {
			t.Fatalf("want ev, se and rounds in %s", out)
		}
		if *r.EV < -0.05 || *r.EV > 0.05 || *r.SE <= 0 || *r.Rounds < 200000 {
			t.Errorf("ev %v se %v rounds %v: not a simulation of basic strategy", *r.EV, *r.SE, *r.Rounds)
		}
		evs = append(evs, *r.EV)
	}
	if evs[0] != evs[1] {
		t.Errorf("seed 9: EV %v with 1 worker, %v with 2", evs[0], evs[1])
	}
}

// TestSimCounting runs the counter's report: Hi-Lo, the Illustrious 18,
// a ramp, wonging and the risk of ruin; text and JSON.
func TestSimCounting(t *testing.T) {
	t.Parallel()
	code, out, errs := runSim(t, "vegas-s17", "--rounds", "100000", "--count", "hi-lo", "--indices", "i18",
		"--ramp", "2:2,3:4,4:8,5:12", "--others", "1", "--wong-out", "-1", "--bankroll", "1000", "--textbook")
	if code != 0 {
		t.Fatalf("exit %d: %s", code, errs)
	}
	for _, want := range []string{"EV per initial bet", "SCORE", "risk of ruin", "by count at the bet", "textbook"} {
		if !strings.Contains(out, want) {
			t.Errorf("the report lacks %q:\n%s", want, out)
		}
	}
}

// TestSimRefused: bad input is refused with exit status 2 and one line
// saying why.
func TestSimRefused(t *testing.T) {
	t.Parallel()
	for _, args := range [][]string{
		{"nowhere"},
		{"argentina", "--back-bets", "1"}, // AR-05: no back betting
		{"venice", "--boxes", "8"},        // VE-03: seven boxes
		{"vegas-s17", "--count", "nope"},
		{"vegas-s17", "--ramp", "2:2"},                   // a ramp needs a count
		{"vegas-s17", "--count", "hi-lo", "--ramp", "x"}, // malformed
		{"vegas-s17", "--strategy", "/nonexistent.csv"},
		{"vegas-s17", "-o", "decks=0"},
		{"vegas-s17", "--rounds", "0"},
		{"vegas-s17", "--count", "hi-lo", "--tc-decks", "2"},  // a resolution of 1, 0.5 or 0.25
		{"vegas-s17", "--tc-round", "floor"},                  // a true count needs a count
		{"vegas-s17", "--count", "hi-lo", "--tc-step", "0.5"}, // half counts need a rounding
		{"vegas-s17", "--count", "hi-lo", "--tc-round", "up"}, // no such rounding
		{"vegas-s17", "--penetration", "234", "-o", "cut_card_reserve=78"},
		{"vegas-s17", "--penetration", "0.75", "-o", " Cut_Card_Reserve = 78"},
		{"vegas-s17", "--penetration", "0.75", "--continuous"},
		{"vegas-s17", "--penetration", "0"},
		{"vegas-s17", "--penetration", "1.5"},
		{"vegas-s17", "--penetration", "313"},
		{"vegas-s17", "--penetration", "233.5"},
		{"vegas-s17", "--penetration", "3/0"},
		{"vegas-s17", "--penetration", "x%"},
		{"vegas-s17", "--penetration", "10"}, // fewer than 20 cards to deal (AR-08, EG-02)
		{"family", "--penetration", "0.75"},  // FAM-03: dealt through the deck
	} {
		code, out, errs := runSim(t, args...)
		if code != 2 || out != "" || strings.Count(strings.TrimSpace(errs), "\n") != 0 || errs == "" {
			t.Errorf("sabot sim %v: exit %d, stdout %q, stderr %q; want exit 2 and one line", args, code, out, errs)
		}
	}
}

// TestSimPenetration: --penetration as cards, a decimal, a percentage or a
// quotient places the cut card where -o cut_card_reserve does (vegas-s17's
// own is 78 of 312: after card 234), and the report gives the cards dealt
// per shoe; a card less deals fewer.
func TestSimPenetration(t *testing.T) {
	t.Parallel()
	type result struct {
		EV           float64 `json:"ev"`
		CardsPerShoe float64 `json:"cards_per_shoe"`
		Penetration  float64 `json:"penetration"`
		CutCard      int     `json:"cut_card_after"`
	}
	run := func(args ...string) result {
		t.Helper()
		code, out, errs := runSim(t, append([]string{"vegas-s17", "--rounds", "100000", "--seed", "4", "--textbook", "--json"}, args...)...)
		if code != 0 {
			t.Fatalf("%v: exit %d: %s", args, code, errs)
		}
		var r result
		if err := json.Unmarshal([]byte(out), &r); err != nil {
			t.Fatalf("%v\n%s", err, out)
		}
		return r
	}
	want := run("-o", "cut_card_reserve=78")
	if want.CutCard != 234 || want.CardsPerShoe <= 234 || want.CardsPerShoe > 240 || want.Penetration != want.CardsPerShoe/312 {
		t.Fatalf("cut_card_reserve=78: %+v", want)
	}
	for _, pen := range []string{"234", "0.75", "75%", "4.5/6", "234/312", "0.7502"} {
		if got := run("--penetration", pen); got != want {
			t.Errorf("--penetration %s: %+v, want %+v", pen, got, want)
		}
	}
	if got := run("--penetration", "233"); got.CutCard != 233 || got.CardsPerShoe >= want.CardsPerShoe || got.EV == want.EV {
		t.Errorf("--penetration 233: %+v; want fewer cards than %+v", got, want)
	}
	if got := run("--penetration", "1.0"); got.CutCard != 0 || got.CardsPerShoe != 312 {
		t.Errorf("--penetration 1.0 (to the end): %+v", got)
	}
	code, out, _ := runSim(t, "vegas-s17", "--rounds", "20000", "--textbook", "--penetration", "4.5/6")
	if code != 0 || !strings.Contains(out, "cards dealt per shoe") || !strings.Contains(out, "cut card after card 234 (cut_card_reserve 78)") {
		t.Errorf("the text report lacks the penetration:\n%s", out)
	}
}

// TestSimAverageBetInMoney: the report says what the average bet and a unit
// are in money, not only "units of 4", and the JSON adds
// the average bet in minor units beside avg_bet and unit.
func TestSimAverageBetInMoney(t *testing.T) {
	t.Parallel()
	for _, c := range []struct {
		args []string
		want string
	}{
		{[]string{"--unit", "400"}, "1.000 units = 4.00 a round played (1 unit = 4.00: --unit 400 minor units)"},
		// The default unit (4 minor units: 3:2 and halves exact) is no money anyone
		// bets: no "1 unit = 0.04".
		{nil, "1.000 units a round played (a unit is the base bet; --unit N says it in money)"},
		{[]string{"--unit", "250", "--count", "hi-lo", "--ramp", "2:2"}, " a round played (1 unit = 2.50: --unit 250 minor units)"},
	} {
		args := append([]string{"vegas-s17", "--rounds", "20000", "--seed", "3", "--textbook"}, c.args...)
		code, out, errs := runSim(t, args...)
		if code != 0 {
			t.Fatalf("%v: exit %d: %s", args, code, errs)
		}
		if !strings.Contains(out, "average bet") || !strings.Contains(out, c.want) {
			t.Errorf("%v: the report lacks %q:\n%s", args, c.want, out)
		}
	}
	code, out, errs := runSim(t, "vegas-s17", "--rounds", "20000", "--seed", "3", "--textbook", "--unit", "250",
		"--count", "hi-lo", "--ramp", "2:2,3:4", "--json")
	if code != 0 {
		t.Fatalf("exit %d: %s", code, errs)
	}
	var r struct {
		Unit        *int64   `json:"unit"`
		AvgBet      *float64 `json:"avg_bet"`
		AvgBetMinor *float64 `json:"avg_bet_minor"`
	}
	if err := json.Unmarshal([]byte(out), &r); err != nil {
		t.Fatalf("%v\n%s", err, out)
	}
	if r.Unit == nil || r.AvgBet == nil || r.AvgBetMinor == nil {
		t.Fatalf("want unit, avg_bet and avg_bet_minor in %s", out)
	}
	if *r.AvgBet <= 1 || math.Abs(*r.AvgBetMinor-*r.AvgBet*float64(*r.Unit)) > 1e-9**r.AvgBetMinor {
		t.Errorf("avg_bet %v units of %v, avg_bet_minor %v", *r.AvgBet, *r.Unit, *r.AvgBetMinor)
	}
}

// The --option flag's help names its argument key=value, not the words of
// its usage that were in backquotes.
func TestOptionFlagHelp(t *testing.T) {
	t.Parallel()
	for _, cmd := range []string{"sim", "edge", "play", "strategy"} {
		out, _, _ := run(t, "", cmd, "--help")
		if !strings.Contains(out, "-o, --option key=value") || strings.Contains(out, "--option sabot") {
			t.Errorf("sabot %s --help:\n%s", cmd, out)
		}
	}
}

// TestSimShardMerge: `sabot sim … --shard K/N` for every K, then `sabot sim
// merge` of their files, prints the single run's report over the same seeds
// (the JSON less its timings); shards missing, twice or of another run are
// refused with status 2.
func TestSimShardMerge(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	args := []string{"argentina", "--rounds", "300000", "--seed", "3", "-o", "challenge=false", "--count", "hi-lo", "--ramp", "2:2,4:4"}
	code, single, errs := runSim(t, append(args, "--json")...)
	if code != 0 {
		t.Fatalf("exit %d: %s", code, errs)
	}
	var files []string
	for k := 1; k <= 3; k++ {
		code, out, errs := runSim(t, append(args, "--shard", fmt.Sprintf("%d/3", k), "--workers", fmt.Sprint(k))...)
		if code != 0 {
			t.Fatalf("shard %d: exit %d: %s", k, code, errs)
		}
		f := filepath.Join(dir, fmt.Sprintf("shard-%d.json", k))
		if err := os.WriteFile(f, []byte(out), 0o644); err != nil {
			t.Fatal(err)
		}
		files = append(files, f)
	}
	code, merged, errs := runSim(t, "merge", files[2], files[0], files[1], "--json")
	if code != 0 {
		t.Fatalf("merge: exit %d: %s", code, errs)
	}
	strip := func(s string) map[string]any {
		var m map[string]any
		if err := json.Unmarshal([]byte(s), &m); err != nil {
			t.Fatalf("%v\n%s", err, s)
		}
		delete(m, "seconds")
		delete(m, "rounds_per_second")
		return m
	}
	if a, b := strip(merged), strip(single); !reflect.DeepEqual(a, b) {
		t.Errorf("merged:\n%s\nsingle run:\n%s", merged, single)
	}
	other := filepath.Join(dir, "other.json")
	code, out, _ := runSim(t, "argentina", "--rounds", "300000", "--seed", "4", "--shard", "2/3")
	if code != 0 {
		t.Fatal(code)
	}
	os.WriteFile(other, []byte(out), 0o644)
	for _, bad := range [][]string{
		{"merge", files[0], files[1]},
		{"merge", files[0], files[1], files[1], files[2]},
		{"merge", files[0], other, files[2]},
		{"merge", filepath.Join(dir, "none.json")},
		{"merge"},
		{"vegas-s17", "--shard", "0/2"},
		{"vegas-s17", "--shard", "2"},
		{"vegas-s17", "--shard", "1/2", "--target-se", "0.01"},
	} {
		code, _, errs := runSim(t, bad...)
		if code != 2 || strings.Count(strings.TrimSpace(errs), "\n") != 0 || errs == "" {
			t.Errorf("%v: exit %d, stderr %q: want 2 and one line", bad, code, errs)
		}
	}
}
