package main

import (
	"bytes"
	"context"
	"io"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"sabot/engine"
	"sabot/internal/store"
	"sabot/internal/wire"
	"sabot/money"
)

// The commands that read a store refuse one that does not exist (exit 2)
// and leave no empty file of a mistyped name behind.
func TestReadingCommandsRefuseAMissingStore(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	db := filepath.Join(dir, "mistyped.db")
	for _, args := range [][]string{
		{"recall", "1-1", "--db", db},
		{"replay", "1-1", "--db", db},
		{"verify", "1-1", "--db", db},
		{"events", "--db", db},
	} {
		_, stderr, code := run(t, "", args...)
		if code != 2 || !strings.Contains(stderr, "no database") {
			t.Errorf("%v: exit %d, %q; want 2 and \"no database\"", args, code, stderr)
		}
		if _, err := os.Stat(db); err == nil {
			t.Fatalf("%v made the store %s", args, db)
		}
	}
}

// serve checks its flags before it writes anything: a listen address that
// is not host:port is refused, and no store nor seed key is left behind.
func TestServeChecksFlagsBeforeWriting(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	db := filepath.Join(dir, "sabot.db")
	_, stderr, code := run(t, "", "serve", "--addr", "nonsense", "--db", db)
	if code != 2 || !strings.Contains(stderr, "--addr") {
		t.Fatalf("exit %d, %q; want 2, naming --addr", code, stderr)
	}
	if left, _ := os.ReadDir(dir); len(left) != 0 {
		t.Fatalf("a refused serve left %v", left)
	}
}

// A PNG is an image: strategy refuses to write one to a terminal without
// --out, and writes it to a file or a pipe.
func TestStrategyPNGNotToATerminal(t *testing.T) {
	terminalOut = func(io.Writer) bool { return true }
	defer func() { terminalOut = isTerminalWriter }()
	var out, errb bytes.Buffer
	code := Run(context.Background(), []string{"strategy", "vegas-s17", "--format", "png"}, strings.NewReader(""), &out, &errb)
	if code != 2 || out.Len() != 0 || !strings.Contains(errb.String(), "--out") {
		t.Fatalf("exit %d, %d bytes written, %q; want 2, nothing, naming --out", code, out.Len(), errb.String())
	}
	// A pipe takes the PNG.
	terminalOut = func(io.Writer) bool { return false }
	out.Reset()
	errb.Reset()
	if code := Run(context.Background(), []string{"strategy", "vegas-s17", "--format", "png"}, strings.NewReader(""), &out, &errb); code != 0 || !bytes.HasPrefix(out.Bytes(), []byte("\x89PNG")) {
		t.Fatalf("to a pipe: exit %d, %q, %d bytes; want a PNG", code, errb.String(), out.Len())
	}
}

// recall prints a round's amounts as money, units with two decimals, not
// as minor units: a 12.50 stake is "12.50", a net of 12.50 "+12.50".
func TestRecallPrintsAmountsAsMoney(t *testing.T) {
	t.Parallel()
	var out bytes.Buffer
	printRecall(&out, &wire.RoundRecord{ID: "1-1", Bets: []engine.PlacedBet{{Player: "ana", Box: 1, Stake: 1250}},
		Net: map[string]money.Amount{"ana": 1250}, House: -1250,
		WalletsAtDeal: map[string]money.Amount{"ana": 98750}, WalletsAfter: map[string]money.Amount{"ana": 101250}})
	for _, want := range []string{"box 1  12.50", "net +12.50  wallet 987.50 → 1,012.50", "net -12.50"} {
		if !strings.Contains(out.String(), want) {
			t.Errorf("recall prints no %q:\n%s", want, out.String())
		}
	}
}

// sim --chart writes each chart in SVG and in PNG; the bankroll's axes say
// their units (rounds played; net in initial bets) and no legend of
// "path N" lies over the lines.
func TestSimChartsInSVGAndPNGWithUnits(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	if code, _, errs := runSim(t, "vegas-s17", "--rounds", "20000", "--seed", "3", "--chart", dir); code != 0 {
		t.Fatalf("exit %d: %s", code, errs)
	}
	for _, name := range []string{"bankroll", "distribution"} {
		for _, ext := range []string{"svg", "png"} {
			b, err := os.ReadFile(filepath.Join(dir, name+"."+ext))
			if err != nil || len(b) == 0 {
				t.Fatalf("%s.%s: %v", name, ext, err)
			}
			if ext == "png" && !bytes.HasPrefix(b, []byte("\x89PNG")) {
				t.Errorf("%s.png is not a PNG", name)
			}
		}
	}
	svg, _ := os.ReadFile(filepath.Join(dir, "bankroll.svg"))
	for _, want := range []string{"rounds played", "net, in initial bets"} {
		if !bytes.Contains(svg, []byte(want)) {
			t.Errorf("the bankroll chart has no %q", want)
		}
	}
	if bytes.Contains(svg, []byte("1 sessions")) {
		t.Error(`the bankroll chart of one session says "1 sessions"`)
	}
	dist, _ := os.ReadFile(filepath.Join(dir, "distribution.svg"))
	for _, want := range []string{"net of a round, in initial bets", "share of rounds, %"} {
		if !bytes.Contains(dist, []byte(want)) {
			t.Errorf("the distribution chart has no %q", want)
		}
	}
	if bytes.Contains(svg, []byte("path 1")) {
		t.Error("the bankroll chart still has a legend over its lines")
	}
}

// sabot events --class keeps one class of the log and
// refuses a class that is not one, naming those to give (exit 2).
func TestEventsClassFlag(t *testing.T) {
	t.Parallel()
	db := filepath.Join(t.TempDir(), "sabot.db")
	st, err := store.Open(context.Background(), db)
	if err != nil {
		t.Fatal(err)
	}
	st.Close()
	if _, stderr, code := run(t, "", "events", "--db", db, "--class", "pit"); code != 2 || !strings.Contains(stderr, "money, staff, exclusions, advantage, table, system") {
		t.Errorf("events --class pit: exit %d, %q; want 2 and the classes", code, stderr)
	}
	if out, stderr, code := run(t, "", "events", "--db", db, "--class", "money"); code != 0 || out != "" {
		t.Errorf("events --class money of an empty store: exit %d, %q %q", code, out, stderr)
	}
}
