package main

import (
	"bytes"
	"context"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// run runs the CLI in-process with buffers.
func run(t testing.TB, stdin string, args ...string) (stdout, stderr string, code int) {
	t.Helper()
	var out, errb bytes.Buffer
	code = Run(context.Background(), args, strings.NewReader(stdin), &out, &errb)
	return out.String(), errb.String(), code
}

func TestScenarioCommand(t *testing.T) {
	t.Parallel()
	files, _ := filepath.Glob("../../../shared/scenarios/*.json")
	own, _ := filepath.Glob("../../scenario/testdata/contract/*.json")
	files = append(files, own...)
	if len(files) < 20 {
		t.Fatalf("found %d scenario files", len(files))
	}
	for _, f := range files {
		data, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		var doc struct {
			Expect struct {
				Net   map[string]int64 `json:"net"`
				Error bool             `json:"error"`
			} `json:"expect"`
		}
		json.Unmarshal(data, &doc)
		stdout, stderr, code := run(t, string(data), "scenario", "-")
		name := filepath.Base(f)
		if doc.Expect.Error {
			if code != 2 || stdout != "" || strings.Count(strings.TrimSpace(stderr), "\n") != 0 || stderr == "" {
				t.Errorf("%s: want exit 2, nothing on stdout, one line on stderr; got %d %q %q", name, code, stdout, stderr)
			}
			continue
		}
		if code != 0 {
			t.Errorf("%s: exit %d: %s", name, code, stderr)
			continue
		}
		var out struct {
			Net   map[string]int64 `json:"net"`
			House int64            `json:"house"`
		}
		if err := json.Unmarshal([]byte(stdout), &out); err != nil {
			t.Fatalf("%s: %v", name, err)
		}
		var sum int64
		for p, want := range doc.Expect.Net {
			if out.Net[p] != want {
				t.Errorf("%s: net[%s] = %d, want %d", name, p, out.Net[p], want)
			}
		}
		for _, v := range out.Net {
			sum += v
		}
		if out.House != -sum {
			t.Errorf("%s: house %d", name, out.House)
		}
	}
}

func TestScenarioCommandErrors(t *testing.T) {
	t.Parallel()
	tests := []struct{ name, in, want string }{
		{"malformed", `{"profile":`, "malformed JSON"},
		{"unknown profile", `{"profile":"monaco","cards":"AS","bets":[{"player":"a","box":1,"stake":1}]}`, "unknown profile"},
		{"unknown option", `{"profile":"venice","options":{"colour":"red"},"cards":"AS","bets":[{"player":"a","box":1,"stake":1}]}`, "unknown option"},
		{"bad option", `{"profile":"venice","options":{"max_hands":0},"cards":"AS","bets":[{"player":"a","box":1,"stake":1}]}`, "max_hands=0"},
		{"unknown card", `{"profile":"venice","cards":"AS 1X","bets":[{"player":"a","box":1,"stake":1}]}`, "1X"},
		{"unknown action", `{"profile":"venice","cards":"TS 7C 9H KD","bets":[{"player":"a","box":1,"stake":1}],"decisions":[{"player":"a","box":1,"action":"fold"}]}`, "unknown action"},
		{"missing decision", `{"profile":"venice","cards":"TS 7C 9H KD","bets":[{"player":"a","box":1,"stake":1}]}`, "must decide"},
		{"card array", `{"profile":"venice","cards":["TS","7C","9H","XX"],"bets":[{"player":"a","box":1,"stake":1}]}`, "XX"},
	}
	for _, tt := range tests {
		stdout, stderr, code := run(t, tt.in, "scenario", "-")
		if code != 2 || stdout != "" || !strings.Contains(stderr, tt.want) || strings.Count(stderr, "\n") != 1 {
			t.Errorf("%s: exit %d stdout %q stderr %q, want exit 2 and one line with %q", tt.name, code, stdout, stderr, tt.want)
		}
	}
	if _, stderr, code := run(t, "", "scenario", "/nonexistent.json"); code != 2 || stderr == "" {
		t.Errorf("missing file: exit %d %q", code, stderr)
	}
}

// A scenario without what it needs says what a scenario is, with an
// example, in one line (exit 2).
func TestScenarioSaysWhatItNeeds(t *testing.T) {
	t.Parallel()
	for _, in := range []string{"", "  \n", "{}", `{"profile":"venice"}`, `{"profile":"venice","cards":"TS 7C"}`} {
		stdout, stderr, code := run(t, in, "scenario", "-")
		if code != 2 || stdout != "" || strings.Count(stderr, "\n") != 1 ||
			!strings.Contains(stderr, `a scenario is one JSON object with "profile", "cards", "bets" and "decisions"`) ||
			!strings.Contains(stderr, `e.g. {"profile": "venice"`) {
			t.Errorf("scenario %q: exit %d stdout %q stderr %q", in, code, stdout, stderr)
		}
	}
}

// Every command that takes a PROFILE names it and lists the built-in
// profiles when none is given, or too many; exit status 2.
func TestProfileArgumentNamed(t *testing.T) {
	t.Parallel()
	for _, args := range [][]string{{"sim"}, {"edge"}, {"strategy"}, {"profiles", "show"}} {
		stdout, stderr, code := run(t, "", args...)
		want := "sabot " + strings.Join(args, " ") + " needs a PROFILE: a built-in profile (argentina, spain, venice, family, vegas-s17, vegas-h17;"
		if code != 2 || stdout != "" || !strings.HasPrefix(stderr, want) || strings.Count(stderr, "\n") != 1 {
			t.Errorf("%v: exit %d stdout %q stderr %q", args, code, stdout, stderr)
		}
	}
	for _, args := range [][]string{{"sim", "spain", "venice"}, {"play", "spain", "venice"}} {
		_, stderr, code := run(t, "", args...)
		if code != 2 || !strings.Contains(stderr, "takes one PROFILE, not 2 arguments (spain venice)") {
			t.Errorf("%v: exit %d stderr %q", args, code, stderr)
		}
	}
}

// AR-08, EG-02: a 1- or 2-deck variation of a 6-deck profile keeps a cut
// card its shoe can hold, scaled with the decks, and says so; a reserve of
// one deck stays one deck where the shoe holds it.
func TestCutCardFollowsTheDecks_AR08_EG02(t *testing.T) {
	t.Parallel()
	stdout, stderr, code := run(t, "", "profiles", "show", "vegas-s17", "-o", "decks=1")
	if code != 0 || !strings.Contains(stdout, "cut_card_reserve        13 ") ||
		stderr != "note: decks=1: cut_card_reserve scaled with the decks from 78 to 13 cards, the same share of the shoe (AR-08, EG-02); set cut_card_reserve to choose another\n" {
		t.Errorf("vegas-s17 decks=1: exit %d, stderr %q", code, stderr)
	}
	stdout, stderr, code = run(t, "", "profiles", "show", "vegas-s17", "-o", "decks=2")
	if code != 0 || !strings.Contains(stdout, "cut_card_reserve        26 ") || !strings.Contains(stderr, "from 78 to 26 cards") {
		t.Errorf("vegas-s17 decks=2: exit %d, stderr %q", code, stderr)
	}
	stdout, stderr, code = run(t, "", "profiles", "show", "spain", "-o", "decks=4")
	if code != 0 || !strings.Contains(stdout, "cut_card_reserve        52 ") || stderr != "" {
		t.Errorf("spain decks=4 keeps one deck: exit %d, stderr %q", code, stderr)
	}
	_, stderr, code = run(t, "", "profiles", "show", "vegas-s17", "-o", "decks=1", "-o", "cut_card_reserve=78")
	if code != 2 || !strings.Contains(stderr, "cut_card_reserve=78") {
		t.Errorf("a reserve the user sets is not scaled: exit %d, stderr %q", code, stderr)
	}
}

func TestScenarioCardsAsArray(t *testing.T) {
	t.Parallel()
	in := `{"profile":"venice","cards":["TS","7C","9H","KD"],"bets":[{"player":"ana","box":1,"stake":100}],"decisions":[{"player":"ana","box":1,"action":"stand"}],"expect":{"net":{"ana":100}}}`
	stdout, stderr, code := run(t, in, "scenario", "-")
	if code != 0 || !strings.Contains(stdout, `"ana": 100`) {
		t.Fatalf("exit %d %s %s", code, stdout, stderr)
	}
}

func TestScenarioProfileFile(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	os.WriteFile(filepath.Join(dir, "high.toml"), []byte("base = \"venice\"\nname = \"venice-high\"\nmin_bet = 500\n"), 0o644)
	scen := `{"profile":"high.toml","cards":"TS 7C 9H KD","bets":[{"player":"ana","box":1,"stake":100}],"decisions":[{"player":"ana","box":1,"action":"stand"}]}`
	path := filepath.Join(dir, "s.json")
	os.WriteFile(path, []byte(scen), 0o644)
	stdout, stderr, code := run(t, "", "scenario", path)
	// VE-18: below the minimum, the stake stands.
	if code != 0 || !strings.Contains(stdout, `"profile": "venice-high"`) {
		t.Fatalf("exit %d %s %s", code, stdout, stderr)
	}
}

func TestProfilesCommand(t *testing.T) {
	t.Parallel()
	stdout, _, code := run(t, "", "profiles")
	for _, n := range []string{"argentina", "spain", "venice", "family", "vegas-s17", "vegas-h17"} {
		if code != 0 || !strings.Contains(stdout, n) {
			t.Fatalf("profiles: exit %d, %q lacks %s", code, stdout, n)
		}
	}
	stdout, _, code = run(t, "", "profiles", "show", "argentina")
	for _, want := range []string{"declare_initial_ace", "AR-11", "challenge_split_aces", "readings taken", "hash "} {
		if code != 0 || !strings.Contains(stdout, want) {
			t.Errorf("profiles show argentina lacks %q", want)
		}
	}
	stdout, _, code = run(t, "", "profiles", "show", "venice", "-o", "decks=8")
	if code != 0 || !strings.Contains(stdout, "decks                   8") {
		t.Errorf("option not applied:\n%s", stdout)
	}
	_, stderr, code := run(t, "", "profiles", "show", "venice", "-o", "max_hands=0")
	if code != 2 || !strings.Contains(stderr, "max_hands=0") {
		t.Errorf("bad option: exit %d %q", code, stderr)
	}
	_, stderr, code = run(t, "", "profiles", "show", "nowhere")
	if code != 2 || !strings.Contains(stderr, "unknown profile") {
		t.Errorf("unknown profile: exit %d %q", code, stderr)
	}
	_, stderr, code = run(t, "", "frobnicate")
	if code != 2 || stderr == "" {
		t.Errorf("unknown command: exit %d %q", code, stderr)
	}
}

// sabot bots refuses a pause it cannot take, before it connects.
func TestBotsRefused(t *testing.T) {
	t.Parallel()
	for _, args := range [][]string{
		{"--think-jitter", "1.5"},
		{"--think-jitter", "-0.1"},
		{"--think", "-1s"},
	} {
		stdout, stderr, code := run(t, "", append([]string{"bots", "--url", "http://127.0.0.1:1"}, args...)...)
		if code != 2 || stdout != "" || !strings.Contains(stderr, "--think") || strings.Count(stderr, "\n") != 1 {
			t.Errorf("bots %v: exit %d, stdout %q, stderr %q; want 2 and one line naming --think", args, code, stdout, stderr)
		}
	}
}

// AR-01, AR-05, AR-20: `sabot profiles show` says which rule of its own
// regulation a variation departs from, and how; a built-in profile departs
// from nothing.
func TestProfilesShowDepartures_AR01_AR05_AR20(t *testing.T) {
	t.Parallel()
	stdout, stderr, code := run(t, "", "profiles", "show", "argentina", "-o", "decks=4", "-o", "back_bets_per_box=2", "-o", "insurance=true")
	want := "this table departs from its regulation (argentina):\n" +
		"  AR-01: decks=4, the regulation asks at least 8 («como mínimo 8 (ocho) mazos»)\n" +
		"  AR-05: back_bets_per_box=2, the regulation asks 0 («No se permitirán apuestas de Jugadores de pie»)\n" +
		"  AR-20: insurance=true, the regulation asks false: the regulation's only seguro is the Desafío\n"
	if code != 0 || !strings.Contains(stdout, want) {
		t.Errorf("exit %d stderr %q stdout:\n%s", code, stderr, stdout)
	}
	stdout, _, _ = run(t, "", "profiles", "show", "argentina")
	if strings.Contains(stdout, "departs from its regulation") {
		t.Errorf("argentina departs:\n%s", stdout)
	}
}
