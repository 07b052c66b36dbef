package play

import (
	"bytes"
	"flag"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"sabot/engine"
	"sabot/rules"
	"sabot/shoe"
)

var update = flag.Bool("update", false, "rewrite the golden transcripts in testdata")

// roundLog is what a test keeps of each round, from the engine itself.
type roundLog struct {
	net    int64 // the engine's net for the player
	betSum int64 // the sum of the round's bets' nets
	void   bool
	last   bool
	record engine.Record
}

// table builds a session's config: a profile with options, a seed, and
// Echo on as for piped input.
func table(t *testing.T, name string, seed uint64, options ...string) Config {
	t.Helper()
	p, err := rules.Lookup(name)
	if err != nil {
		t.Fatal(err)
	}
	if err := p.SetAll(options); err != nil {
		t.Fatal(err)
	}
	return Config{Profile: p, Seed: shoe.SeedFromUint64(seed), SeedText: fmt.Sprint(seed), Echo: true}
}

// play runs a session on input (nil: a bot answering with answer) and
// returns the transcript, the summary and the engine's account of each round.
func play(t *testing.T, cfg Config, input io.Reader, answer func(string) (string, bool)) (string, Summary, []roundLog) {
	t.Helper()
	var logs []roundLog
	cfg.OnRound = func(r *engine.Round) {
		if r.Phase() != engine.Done {
			t.Errorf("round %d handed over in phase %s", len(logs)+1, r.Phase())
		}
		players, house := r.Net()
		l := roundLog{net: players[Player], last: r.LastRound(), record: r.Record()}
		l.void, _ = r.Void()
		for _, b := range r.Bets() {
			l.betSum += b.Net
		}
		if house != -l.betSum {
			t.Errorf("round %d: house %d, want %d", len(logs)+1, house, -l.betSum)
		}
		logs = append(logs, l)
	}
	s, err := New(cfg)
	if err != nil {
		t.Fatal(err)
	}
	var out bytes.Buffer
	if input == nil {
		input = &bot{out: &out, answer: answer}
	}
	sum, err := s.Run(input, &out)
	if err != nil {
		t.Fatalf("Run: %v\n%s", err, out.String())
	}
	return out.String(), sum, logs
}

// checkGolden compares a transcript with testdata/name.golden, or rewrites
// it with -update.
func checkGolden(t *testing.T, name, got string) {
	t.Helper()
	path := filepath.Join("testdata", name+".golden")
	if *update {
		if err := os.WriteFile(path, []byte(got), 0o644); err != nil {
			t.Fatal(err)
		}
		return
	}
	want, err := os.ReadFile(path)
	if err != nil {
		t.Fatalf("%v (run go test ./play -update to write it)", err)
	}
	if got != string(want) {
		t.Errorf("transcript differs from %s (go test ./play -update rewrites it):\n%s", path, lineDiff(string(want), got))
	}
}

// lineDiff shows the first lines where two texts part.
func lineDiff(want, got string) string {
	w, g := strings.Split(want, "\n"), strings.Split(got, "\n")
	for i := 0; i < max(len(w), len(g)); i++ {
		var wl, gl string
		if i < len(w) {
			wl = w[i]
		}
		if i < len(g) {
			gl = g[i]
		}
		if wl != gl {
			return fmt.Sprintf("line %d:\n  want %q\n  got  %q", i+1, wl, gl)
		}
	}
	return "(same lines)"
}

// checkBalance checks that the bankroll moved by exactly the engine's nets:
// final = start + the sum of the rounds' nets, each round's net the sum of
// its bets', and each round's record replays to the same net.
func checkBalance(t *testing.T, p *rules.Profile, sum Summary, logs []roundLog) {
	t.Helper()
	var total, best int64
	for i, l := range logs {
		if l.net != l.betSum {
			t.Errorf("round %d: player net %d, bets net %d", i+1, l.net, l.betSum)
		}
		if l.void && l.net != 0 {
			t.Errorf("round %d is void but nets %d (AR-08)", i+1, l.net)
		}
		r, err := engine.Replay(p, l.record)
		if err != nil {
			t.Errorf("round %d does not replay: %v", i+1, err)
		} else if players, _ := r.Net(); players[Player] != l.net {
			t.Errorf("round %d replays to net %d, played %d", i+1, players[Player], l.net)
		}
		total += l.net
		best = max(best, l.net)
	}
	if len(logs) != sum.Rounds {
		t.Errorf("summary counts %d rounds, the engine played %d", sum.Rounds, len(logs))
	}
	if sum.Bankroll != sum.Start+total || sum.Net != total {
		t.Errorf("bankroll %d (net %d), want start %d + engine nets %d", sum.Bankroll, sum.Net, sum.Start, total)
	}
	if sum.BiggestWin != best {
		t.Errorf("biggest win %d, want %d", sum.BiggestWin, best)
	}
}

// Sessions typed line by line: each testdata/NAME.in is piped in with a
// fixed seed and the transcript is compared with testdata/NAME.golden.
func TestGoldenSessions(t *testing.T) {
	cases := []struct {
		name    string
		profile string
		seed    uint64
		options []string
		boxes   []int
	}{
		// VE-06 refused stand, VE-20 on `box 1`, bet changes, quit.
		{name: "venice-basic", profile: "venice", seed: 42},
		// AR-11 declaration, AR-17 double on 11 only, AR-20 no insurance,
		// AR-10 challenge, the hole card face down (AR-09).
		{name: "argentina-refusals", profile: "argentina", seed: 3, boxes: []int{1, 2, 3}},
		// ES-11 insurance and ES-10 even money offers, the input ending in
		// the middle of a round.
		{name: "spain-eof-midround", profile: "spain", seed: 11, boxes: []int{2}},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			in, err := os.ReadFile(filepath.Join("testdata", c.name+".in"))
			if err != nil {
				t.Fatal(err)
			}
			cfg := table(t, c.profile, c.seed, c.options...)
			cfg.Boxes = c.boxes
			out, sum, logs := play(t, cfg, bytes.NewReader(in), nil)
			checkGolden(t, c.name, out)
			checkBalance(t, cfg.Profile, sum, logs)
		})
	}
}

// A session on every built-in profile, played by a bot that takes every
// offer (challenge, insurance, even money, splits, doubles), against a
// golden transcript; the bankroll must balance with the engine's nets.
func TestEveryProfile(t *testing.T) {
	for _, name := range rules.Names() {
		t.Run(name, func(t *testing.T) {
			cfg := table(t, name, 7)
			cfg.Rounds = 20
			if cfg.Profile.LoneCustomerBoxes < 2 {
				cfg.Boxes = []int{1, 2}
			}
			out, sum, logs := play(t, cfg, nil, bold)
			checkGolden(t, "bot-"+name, out)
			checkBalance(t, cfg.Profile, sum, logs)
			if sum.Ended != EndRounds || sum.Rounds != 20 {
				t.Errorf("ended %d after %d rounds, want the 20 rounds played", sum.Ended, sum.Rounds)
			}
		})
	}
}
