package main

import (
	"encoding/json"
	"math"
	"strings"
	"testing"
)

// sabot ev --json: 8,8 against a 6 on one deck, S17, DAS, resplits to four
// (vegas-s17 with one deck), equal to Eric Farmer's analyzer 7.6 built here
// (analysis/testdata/farmer-ev/1d-s17-das.txt: Stand −17.817051012 %, Hit
// −39.669184544 %, Double −79.338369088 %, Split 38.529444897 %).
func TestEVJSON(t *testing.T) {
	t.Parallel()
	out, errb, code := run(t, "", "ev", "vegas-s17", "-o", "decks=1", "--up", "6", "--hand", "8,8", "--json")
	if code != 0 {
		t.Fatalf("exit %d: %s", code, errb)
	}
	var got map[string]any
	if err := json.Unmarshal([]byte(out), &got); err != nil {
		t.Fatal(err)
	}
	for k, want := range map[string]float64{"stand": -0.17817051012, "hit": -0.39669184544, "double": -0.79338369088, "split": 0.38529444897} {
		x, ok := got[k].(float64)
		if !ok || math.Abs(x-want) > 1e-11 {
			t.Errorf("%s = %v, Farmer %.11f", k, got[k], want)
		}
	}
	if got["best"] != "split" {
		t.Errorf("best %v, want split", got["best"])
	}
	for _, k := range []string{"surrender", "insurance"} {
		if _, ok := got[k]; ok {
			t.Errorf("%s given: vegas-s17 has no surrender, and no insurance under a 6", k)
		}
	}
}

// The text form names the best action; insurance under an Ace.
func TestEVText(t *testing.T) {
	t.Parallel()
	out, errb, code := run(t, "", "ev", "vegas-s17", "--up", "A", "--hand", "T 6", "--removed", "T,T,5")
	if code != 0 {
		t.Fatalf("exit %d: %s", code, errb)
	}
	for _, want := range []string{"hand T,6 against A, T,T,5 removed; 306 cards left", "given no dealer blackjack", "best: ", "insurance (half a unit at 2:1)"} {
		if !strings.Contains(out, want) {
			t.Errorf("output lacks %q:\n%s", want, out)
		}
	}
}

// --split-play cdz and cdp: Farmer's CDZ- and CDP, equal to his analyzer's
// (analysis/testdata/farmer-split/1d-s17-das-*.txt: 9,9 against a 3 on one
// deck, S17, DAS, to four hands: CDZ- 21.717344949 %, CDP1 21.857433574 %,
// CDP 21.880713647 %).
func TestEVSplitPlays(t *testing.T) {
	t.Parallel()
	for play, want := range map[string]float64{"cdz": 0.21717344949, "cdp1": 0.21857433574, "cdp": 0.21880713647} {
		out, errb, code := run(t, "", "ev", "vegas-s17", "-o", "decks=1", "--up", "3", "--hand", "9,9", "--split-play", play, "--json")
		if code != 0 {
			t.Fatalf("%s: exit %d: %s", play, code, errb)
		}
		var got struct{ Split float64 }
		if err := json.Unmarshal([]byte(out), &got); err != nil {
			t.Fatal(err)
		}
		if math.Abs(got.Split-want) > 1e-11 {
			t.Errorf("%s: split %.11f, Farmer %.11f", play, got.Split, want)
		}
	}
	out, _, _ := run(t, "", "ev", "vegas-s17", "--up", "3", "--hand", "9,9", "--split-play", "cdz")
	if !strings.Contains(out, "split hands CDZ-") {
		t.Errorf("text does not name CDZ-:\n%s", out)
	}
}

// Bad input: one line, exit status 2.
func TestEVRefused(t *testing.T) {
	t.Parallel()
	for _, c := range []struct {
		args []string
		want string
	}{
		{[]string{"ev", "vegas-s17", "--up", "6"}, "needs --up CARD and --hand CARDS"},
		{[]string{"ev", "vegas-s17", "--up", "6", "--hand", "8,X"}, `unknown card "X"`},
		{[]string{"ev", "vegas-s17", "--up", "6,7", "--hand", "8,8"}, "--up takes one card"},
		{[]string{"ev", "vegas-s17", "--up", "6", "--hand", "8"}, "two cards or more"},
		{[]string{"ev", "vegas-s17", "--up", "6", "--hand", "T,8,5"}, "is bust"},
		{[]string{"ev", "vegas-s17", "-o", "decks=1", "-o", "cut_card_reserve=0", "--up", "6", "--hand", "8,8", "--removed", "8,8,8"}, "has no 8 left"},
		{[]string{"ev", "vegas-s17", "--up", "6", "--hand", "8,8", "--split-play", "cdq"}, `unknown split play "cdq": want cdz, cdp1, cdp or exact`},
		{[]string{"ev", "vegas-s17", "--up", "6", "--hand", "8,8", "--split-hands", "9"}, "split hands 9"},
	} {
		_, errb, code := run(t, "", c.args...)
		if code != 2 || !strings.Contains(errb, c.want) || strings.Count(strings.TrimSpace(errb), "\n") > 0 {
			t.Errorf("%v: exit %d, stderr %q; want 2 and one line with %q", c.args, code, errb, c.want)
		}
	}
}

// sabot ev --pairs --split-play exact: Nairn's one-deck exact splitting
// table, S17, resplits to four hands (Aces too), doubling after splits on
// any two cards (github.com/nairnj/Blackjack, webtables/OneDeck.html;
// paper/Splitting.pdf, Tables 1 and 2): 8,8 against a ten −0.447501, 10,10
// against a 6 0.363571, A,A against a 6 0.831965.
func TestEVPairs(t *testing.T) {
	t.Parallel()
	out, errb, code := run(t, "", "ev", "vegas-s17", "-o", "decks=1", "-o", "cut_card_reserve=0", "-o", "resplit_aces=true",
		"--pairs", "--split-play", "exact", "--split-hands", "4", "--json")
	if code != 0 {
		t.Fatalf("exit %d: %s", code, errb)
	}
	var got struct {
		Ups  []string
		Rows []struct {
			Pair  string
			Split []float64
		}
	}
	if err := json.Unmarshal([]byte(out), &got); err != nil {
		t.Fatal(err)
	}
	if strings.Join(got.Ups, "") != "23456789TA" || len(got.Rows) != 10 {
		t.Fatalf("%+v", got)
	}
	for _, c := range []struct {
		row, col int
		want     float64
	}{{7, 8, -0.447501}, {9, 4, 0.363571}, {0, 4, 0.831965}} {
		if x := got.Rows[c.row].Split[c.col]; math.Abs(x-c.want) > 4e-6 {
			t.Errorf("%s against %s: %.6f, Nairn %.6f", got.Rows[c.row].Pair, got.Ups[c.col], x, c.want)
		}
	}
	_, errb, code = run(t, "", "ev", "vegas-s17", "--pairs", "--up", "6")
	if code != 2 || !strings.Contains(errb, "takes no --up") {
		t.Errorf("--pairs with --up: exit %d, %q", code, errb)
	}
}
