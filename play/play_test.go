package play

import (
	"bytes"
	"flag"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"testing"

	"sabot/engine"
	"sabot/money"
	"sabot/rules"
	"sabot/shoe"

	"golang.org/x/text/language"
)

var update = flag.Bool("update", false, "rewrite the golden transcripts in testdata")

// roundLog is what a test keeps of each round, from the engine itself.
type roundLog struct {
	net    money.Amount // the engine's net for the player
	betSum money.Amount // the sum of the round's bets' nets
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
	var total, best money.Amount
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
		// VE-06 a refused stand; VE-11 double; VE-19 a double for less;
		// VE-12 split; VE-20 on `box 1`; VE-21 a stake over the maximum;
		// bet and box changes; quit in the middle of a round.
		{name: "venice-basic", profile: "venice", seed: 42},
		// AR-10 the challenge (and a hit refused while it is open), AR-20
		// no insurance, AR-17 double on 11 only, AR-18 split pairs only,
		// AR-11 the Ace declared before acting and irrevocably, AR-09 the
		// hole card face down, AR-04 the maximum; the input ends mid-round.
		{name: "argentina-refusals", profile: "argentina", seed: 4, boxes: []int{1, 2, 3}},
		// ES-11 insurance: refused moves while it is open, a stake over
		// half refused, a smaller one taken; ES-10 even money refused
		// without a blackjack; the input ends in the middle of a round.
		{name: "spain-eof-midround", profile: "spain", seed: 15, boxes: []int{2}},
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

// Each refusal names the rule that forbids the move: the engine's reason is
// shown as it gives it.
func TestRefusalsNameTheRule(t *testing.T) {
	cases := []struct {
		name, profile, input string
		seed                 uint64
		boxes                []int
		want                 []string
	}{
		{"VE-06 VE-20 VE-21", "venice", "venice-basic", 42, nil, []string{
			"Refused: Box 1 may not stand: a hand of 11 or less must draw (VE-06).",
			"Refused: venice: a lone customer must play at least 2 boxes (VE-20), not 1.",
			"the table maximum is 1000000.00 (VE-21).",
		}},
		{"AR-10 AR-11 AR-17 AR-18 AR-20", "argentina", "argentina-refusals", 4, []int{1, 2, 3}, []string{
			"Refused: Box 3 may not hit: the challenge is open: it comes before the second card (AR-10).",
			"Refused: Box 1 may not insure 5.00: there is no insurance at this table (AR-20).",
			"Refused: Box 1 may not double: doubling needs a two-card 11 (AR-17).",
			"Refused: Box 1 may not split: splitting needs two cards of equal value (AR-18).",
			"Refused: Box 2 may not hit: the Ace must first be declared 1 or 11 (AR-11).",
			"Refused: Box 2 may not count the Ace 1: the Ace has been declared, irrevocably (AR-11).",
		}},
		{"ES-10 ES-11", "spain", "spain-eof-midround", 15, []int{2}, []string{
			"Refused: Box 2 may not hit: insurance and even money are offered now: answer or decline first (the offer stays open while the boxes play, until the first third card) (ES-10, ES-11).",
			"Refused: Box 2 may not take even money: even money needs a blackjack (ES-10).",
			"Refused: Box 2 may not insure 9.00: insurance is 1 to half the original stake",
			"Box 2 insures 2.00.",
		}},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			in, err := os.ReadFile(filepath.Join("testdata", c.input+".in"))
			if err != nil {
				t.Fatal(err)
			}
			cfg := table(t, c.profile, c.seed)
			cfg.Boxes = c.boxes
			out, _, _ := play(t, cfg, bytes.NewReader(in), nil)
			for _, w := range c.want {
				if !strings.Contains(out, w) {
					t.Errorf("transcript lacks %q", w)
				}
			}
		})
	}
}

// EG-04, EG-05: over a long session the cut card comes out, the round in
// progress is announced as the last and finished, and then every card is
// reshuffled into a new shoe, cut and burned again (EG-03).
func TestLongSessionCutCardAndReshuffle(t *testing.T) {
	cfg := table(t, "spain", 5)
	cfg.Rounds = 150
	out, sum, logs := play(t, cfg, nil, cautious)
	checkBalance(t, cfg.Profile, sum, logs)
	const cut = "The cut card is out: this round is the last of the shoe (EG-04)."
	const reshuffled = "That was the last round of the shoe: the discards and the rest of the shoe are reshuffled (EG-05)."
	nCut, nShuffle := strings.Count(out, cut), strings.Count(out, reshuffled)
	if nCut < 2 || nShuffle < 2 || sum.Shoes != nShuffle+1 {
		t.Fatalf("%d cut-card announcements, %d reshuffles, %d shoes in 150 rounds", nCut, nShuffle, sum.Shoes)
	}
	last := 0
	for i, l := range logs {
		if !l.last {
			continue
		}
		last++
		if l.void {
			t.Errorf("round %d: the last round is void, but spain finishes it (EG-04)", i+1)
		}
		// The round's result, then at once the reshuffle and the new shoe.
		end := fmt.Sprintf("Round %d: net ", i+1)
		j := strings.Index(out, end)
		if j < 0 {
			t.Fatalf("no result for round %d", i+1)
		}
		rest := out[j:]
		lines := strings.SplitN(rest, "\n", 5)
		if i+1 < len(logs) && (lines[1] != reshuffled || !strings.HasPrefix(lines[3], "A new shoe: 6 decks shuffled and cut") || !strings.HasSuffix(lines[3], "; 5 cards burned (EG-03).")) {
			t.Errorf("round %d was the last of its shoe; it is followed by:\n%s", i+1, strings.Join(lines, "\n"))
		}
		if k := strings.LastIndex(out[:j], "\nRound "); k < 0 || !strings.Contains(out[k:j], cut) {
			t.Errorf("round %d is the last of its shoe but the cut card was not announced in it (EG-04)", i+1)
		}
	}
	if last != nCut {
		t.Errorf("the engine marks %d last rounds, the game announced %d", last, nCut)
	}
}

// EG-04, house option: with last_round_void the shoe stops when the cut card
// comes out, the round in progress is void with every stake returned, and the
// cards are reshuffled (EG-05).
func TestLastRoundVoidHouseOption(t *testing.T) {
	cfg := table(t, "spain", 5, "last_round_void=true")
	cfg.Rounds = 150
	out, sum, logs := play(t, cfg, nil, cautious)
	checkBalance(t, cfg.Profile, sum, logs)
	voids := 0
	for i, l := range logs {
		if l.last {
			voids++
			if !l.void || l.net != 0 {
				t.Errorf("round %d: the cut card came out but the round is not void with net 0", i+1)
			}
		}
	}
	if voids < 2 || sum.Void != voids {
		t.Errorf("%d void last rounds, summary counts %d", voids, sum.Void)
	}
	for _, w := range []string{
		"The round is void: the cut card came out and the house stops the shoe (EG-04); every stake is returned.",
		"is void: every stake is returned; bankroll",
		"reshuffled (EG-05).",
		"void, net ",
	} {
		if !strings.Contains(out, w) {
			t.Errorf("transcript lacks %q", w)
		}
	}
}

// EG-02's reading (rules.CardsOut; AR-08 is the Argentine text's): with no
// cut card the shoe is dealt to its end; a round the cards run out in is
// void, every stake returned, and the cards are reshuffled (EG-05).
func TestCardsRunOutVoid(t *testing.T) {
	cfg := table(t, "spain", 9, "cut_card_reserve=0", "min_bet=100")
	cfg.Boxes = []int{1, 2, 3, 4, 5, 6, 7}
	cfg.Bet = 100
	cfg.Rounds = 120
	out, sum, logs := play(t, cfg, nil, cautious)
	checkBalance(t, cfg.Profile, sum, logs)
	if sum.Void == 0 {
		t.Fatalf("no round ran out of cards in %d rounds", sum.Rounds)
	}
	for _, w := range []string{
		"no cut card: the shoe is dealt to its end, and a round the cards run out in is void;",
		"The round is void: the cards ran out: the regulation has no rule for it, and this table's reading voids the round (EG-02); every stake is returned.",
		"The shoe is empty: the discards and the rest of the shoe are reshuffled (EG-05).",
	} {
		if !strings.Contains(out, w) {
			t.Errorf("transcript lacks %q", w)
		}
	}
	if strings.Contains(out, "(EG-04)") {
		t.Error("a shoe without a cut card announced a last round (EG-04)")
	}
}

// FAM-03: in family the played cards go under the deck face up and are
// shuffled when the first of them is reached; the deal goes on without a
// new deck.
func TestFamilyCollectsUnderTheDeck(t *testing.T) {
	cfg := table(t, "family", 2)
	cfg.Rounds = 80
	out, sum, logs := play(t, cfg, nil, cautious)
	checkBalance(t, cfg.Profile, sum, logs)
	if n := strings.Count(out, "The first collected card is reached: the cards under the deck are shuffled and the deal goes on (FAM-03)."); n < 3 {
		t.Errorf("the collected cards were shuffled %d times in 80 rounds", n)
	}
	if sum.Shoes != 1 || strings.Contains(out, "EG-05") || sum.Void != 0 {
		t.Errorf("family dealt %d decks, %d void rounds; want one deck dealt on (FAM-03)", sum.Shoes, sum.Void)
	}
}

// VE-20: in venice a lone customer must play at least two boxes; that is the
// default there, one box is refused at the start and between rounds, and the
// option lone_customer_boxes lifts it.
func TestLoneCustomerTwoBoxes(t *testing.T) {
	cfg := table(t, "venice", 1)
	if got := DefaultBoxes(cfg.Profile); !slices.Equal(got, []int{1, 2}) {
		t.Errorf("venice default boxes %v, want [1 2] (VE-20)", got)
	}
	cfg.Boxes = []int{3}
	if _, err := New(cfg); err == nil || !strings.Contains(err.Error(), "a lone customer must play at least 2 boxes (VE-20)") {
		t.Errorf("one box in venice: %v, want the VE-20 refusal", err)
	}
	cfg.Boxes = []int{3, 5}
	if _, err := New(cfg); err != nil {
		t.Errorf("two boxes in venice: %v", err)
	}
	one := table(t, "venice", 1, "lone_customer_boxes=0")
	one.Boxes = []int{3}
	if _, err := New(one); err != nil {
		t.Errorf("one box with lone_customer_boxes=0: %v", err)
	}
	for _, name := range []string{"spain", "argentina", "family", "vegas-s17"} {
		c := table(t, name, 1)
		if got := DefaultBoxes(c.Profile); !slices.Equal(got, []int{1}) {
			t.Errorf("%s default boxes %v, want [1]", name, got)
		}
	}
	cfg = table(t, "venice", 1)
	out, _, _ := play(t, cfg, strings.NewReader("boxes 1\nbox 4\nbox 2,2\nbox 8,9\nbox 2,4\nquit\n"), nil)
	for _, w := range []string{
		"> boxes 1\nRefused: venice: a lone customer must play at least 2 boxes (VE-20), not 1.",
		"> box 4\nRefused: venice: a lone customer must play at least 2 boxes (VE-20), not 1.",
		"Refused: box 2 is named twice.",
		"Refused: box 8: the venice table has boxes 1 to 7.",
		"You play boxes 2, 4 from the next round.",
	} {
		if !strings.Contains(out, w) {
			t.Errorf("transcript lacks %q", w)
		}
	}
}

// The end of the input ends the session cleanly with its summary: before
// the first round, between rounds, and in the middle of a round, which is
// finished with the hands standing.
func TestEndOfInput(t *testing.T) {
	cases := []struct {
		name, input string
		rounds      int
	}{
		{"empty", "", 0},
		{"between rounds", "\nh\ns\nh\ns\n", 1},
		{"no final newline", "\nh\ns\nh\ns", 1},
		{"mid-round", "\nh\n", 1},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			cfg := table(t, "vegas-s17", 42)
			cfg.Boxes = []int{1, 2}
			out, sum, logs := play(t, cfg, strings.NewReader(c.input), nil)
			if sum.Ended != EndInput || sum.Rounds != c.rounds || len(logs) != c.rounds {
				t.Errorf("ended %d after %d rounds (%d played), want the input's end after %d", sum.Ended, sum.Rounds, len(logs), c.rounds)
			}
			if !strings.Contains(out, "\n(end of input)\n") || !strings.Contains(out, "\nSession over: ") || !strings.HasSuffix(out, "play this session again.\n") {
				t.Errorf("transcript does not end with the summary:\n%s", out)
			}
			checkBalance(t, cfg.Profile, sum, logs)
		})
	}
}

// quit leaves the table between rounds and in the middle of one.
func TestQuit(t *testing.T) {
	for _, input := range []string{"quit\n", "\nq\n", "\n\nh\nexit\n"} {
		cfg := table(t, "spain", 3)
		out, sum, logs := play(t, cfg, strings.NewReader(input), nil)
		if sum.Ended != EndQuit || !strings.Contains(out, "You leave the table.") {
			t.Errorf("%q: ended %d:\n%s", input, sum.Ended, out)
		}
		checkBalance(t, cfg.Profile, sum, logs)
	}
}

// The table refuses what the bankroll cannot pay: a double the free money
// does not cover is left off the menu and refused when typed; a stake the
// bankroll cannot cover is not dealt; a bankroll below the table minimum ends
// the session.
func TestBankrollLimits(t *testing.T) {
	cfg := table(t, "vegas-s17", 1, "min_bet=1000")
	cfg.Bet, cfg.Bankroll = 1000, 1000
	first := true
	out, sum, logs := play(t, cfg, nil, func(prompt string) (string, bool) {
		if !betweenRounds(prompt) && strings.Contains(prompt, "[h]it") && first {
			first = false
			if strings.Contains(prompt, "[d]ouble") {
				t.Errorf("a double is offered with nothing free: %s", prompt)
			}
			return "d", true
		}
		return cautious(prompt)
	})
	checkBalance(t, cfg.Profile, sum, logs)
	if !strings.Contains(out, "Refused: double needs 10.00 and 0.00 of your bankroll is free.") {
		t.Error("an unpaid double is not refused")
	}
	if sum.Ended != EndBankroll || !strings.Contains(out, "cannot cover the table minimum") {
		t.Errorf("ended %d with bankroll %d, want the bankroll's end", sum.Ended, sum.Bankroll)
	}

	cfg = table(t, "spain", 1)
	cfg.Bet, cfg.Bankroll = 1000, 1500
	out, _, _ = play(t, cfg, strings.NewReader("box 1,2\n\nbet 7\n\nq\n"), nil)
	for _, w := range []string{
		"10.00 on boxes 1, 2 needs 20.00; your bankroll is 15.00: lower the bet (bet N) or play fewer boxes.",
		"Round 1: 14.00 staked on boxes 1, 2.",
	} {
		if !strings.Contains(out, w) {
			t.Errorf("transcript lacks %q", w)
		}
	}
	if _, err := New(table(t, "spain", 1)); err != nil {
		t.Fatal(err)
	}
	c := table(t, "spain", 1)
	c.Bet, c.Bankroll = 1000, 999
	if _, err := New(c); err == nil {
		t.Error("a bankroll below the stake is accepted")
	}
}

// The menu offers exactly the engine's legal actions for the box and hand
// asked about (with money enough to pay them all), on every profile, with
// every offer taken where the bot can.
func TestMenuIsTheLegalActions(t *testing.T) {
	for _, name := range rules.Names() {
		t.Run(name, func(t *testing.T) {
			cfg := table(t, name, 11)
			cfg.Boxes = []int{1, 2, 3, 4, 5}
			cfg.Bankroll = 1 << 40
			cfg.Rounds = 60
			var s *Session
			var out bytes.Buffer
			asked := 0
			answer := func(prompt string) (string, bool) {
				if betweenRounds(prompt) {
					return bold(prompt)
				}
				asked++
				pt, err := s.point()
				if err != nil {
					t.Fatal(err)
				}
				var want, got []string
				for _, a := range s.round.LegalActions(nil) {
					if a.Kind != engine.Close && a.Box == pt.box && a.Hand == pt.hand {
						want = append(want, a.String())
					}
				}
				if pt.window {
					want = append(want, "close")
				}
				for _, it := range pt.items {
					got = append(got, it.a.String())
					if !strings.Contains(prompt, it.label) {
						t.Errorf("prompt %q lacks %q", prompt, it.label)
					}
				}
				if !slices.Equal(got, want) {
					t.Errorf("menu %v, legal actions %v at %q", got, want, prompt)
				}
				return bold(prompt)
			}
			s, err := New(cfg)
			if err != nil {
				t.Fatal(err)
			}
			if _, err := s.Run(&bot{out: &out, answer: answer}, &out); err != nil {
				t.Fatal(err)
			}
			if asked < 60 {
				t.Errorf("only %d decisions asked", asked)
			}
		})
	}
}

// A session is reproducible from its seed; another seed deals other cards.
func TestSeedReproduces(t *testing.T) {
	run := func(seed uint64) string {
		cfg := table(t, "venice", seed)
		cfg.Rounds = 10
		out, _, _ := play(t, cfg, nil, bold)
		return out
	}
	a, b, c := run(99), run(99), run(100)
	if a != b {
		t.Errorf("the same seed played two sessions:\n%s", lineDiff(a, b))
	}
	if a == c {
		t.Error("seeds 99 and 100 played the same session")
	}
	for _, text := range []string{"42", SeedHex(shoe.SeedFromUint64(42))} {
		if s, err := ParseSeed(text); err != nil || s != shoe.SeedFromUint64(42) {
			t.Errorf("ParseSeed(%q) = %x, %v", text, s, err)
		}
	}
	for _, bad := range []string{"", "-1", "abc", "00ff"} {
		if _, err := ParseSeed(bad); err == nil {
			t.Errorf("ParseSeed(%q) accepted", bad)
		}
	}
}

// The session's money reads and prints as money.Parse and Amount.Plain
// (their cases, once here, are money's TestParsePlain); a net has its sign.
func TestMoney(t *testing.T) {
	if FormatNet(5) != "+0.05" || FormatNet(-5) != "-0.05" || FormatNet(0) != "0.00" {
		t.Error("FormatNet signs")
	}
}

// VE-13: after splitting ten-values, an Ace drawn to a split hand may be
// counted one; the hand is then 11, may draw or double, and must draw (VE-06).
func TestSplitTenAceChoice(t *testing.T) {
	cfg := table(t, "venice", 1)
	cfg.Rounds = 100
	out, sum, logs := play(t, cfg, nil, bold)
	checkBalance(t, cfg.Profile, sum, logs)
	re := regexp.MustCompile(`\n(Box \d hand \d): ([TJQK][SHDC]) (A[SHDC]) \(21\) against the dealer's ..\. Ace \[o\]ne  Ace \[e\]leven \(VE-13: [^\n]*\n> o\n`)
	m := re.FindStringSubmatch(out)
	if m == nil {
		t.Fatal("no VE-13 choice offered and taken in 100 rounds")
	}
	after := out[strings.Index(out, m[0])+len(m[0]):]
	want := fmt.Sprintf("%s counts the Ace 1: %s %s (11)\n%s: %s %s (11) against the dealer's", m[1], m[2], m[3], m[1], m[2], m[3])
	if !strings.HasPrefix(after, want) {
		t.Errorf("after the VE-13 choice:\n%s\nwant it to begin %q", after[:200], want)
	}
	line, _, _ := strings.Cut(after[strings.Index(after, "\n")+1:], "\n")
	if !strings.Contains(line, "[h]it  [d]ouble") || strings.Contains(line, "[s]tand") || !strings.Contains(line, "(VE-06: 11 or less must draw)") {
		t.Errorf("an Ace counted one on a split ten: %q; want a draw or a double, no stand (VE-13, VE-06)", line)
	}
}

// AR-04: amounts are typed as the table shows money (bet 50 is 50.00, not
// 0.50), and a built-in profile's table sits at a casino's minimum, which
// a stake below is refused, VE-18 (a short stake stands once dealt) or not.
func TestAmountsAsMoney_AR04_VE18(t *testing.T) {
	// The minimum's rule, of the table's own regulation: spain's seeds set
	// none.
	cite := map[string]string{"spain": "", "venice": " (VE-21)"}
	for _, name := range []string{"spain", "venice"} {
		out, _, _ := play(t, table(t, name, 1), strings.NewReader("bet 50\nbet 0.5\nbet 2.50\nq\n"), nil)
		for _, w := range []string{
			"The table minimum is 5.00 a box" + cite[name] + "; type amounts as the table shows them: bet 25 is 25.00.",
			"Stake 50.00 a box from the next round.",
			"Refused: a stake of 0.50: the table minimum is 5.00" + cite[name] + ".",
			"Refused: a stake of 2.50: the table minimum is 5.00" + cite[name] + ".",
		} {
			if !strings.Contains(out, w) {
				t.Errorf("%s: transcript lacks %q", name, w)
			}
		}
	}
	// A minimum the user sets stands: the table's own is for the profile's
	// placeholder only.
	out, _, _ := play(t, table(t, "spain", 1, "min_bet=100"), strings.NewReader("bet 2.50\nq\n"), nil)
	if !strings.Contains(out, "Stake 2.50 a box") || !strings.Contains(out, "The table minimum is 1.00 a box") {
		t.Errorf("min_bet=100: %s", out)
	}
}

// A session cites its own regulation's rule IDs only (rules.Profile.Own): a
// Spanish, Venetian, family or pontoon table names no Argentine rule (`sabot
// play spain` cited AR-04, AR-08), a reference profile none; in
// each language.
func TestSessionCitesItsOwnRules(t *testing.T) {
	id := regexp.MustCompile(`\b(AR|ES|EG|VE|FAM|PON)-\d+`)
	cases := []struct {
		name    string
		profile string
		options []string
	}{
		{"argentina", "argentina", nil}, {"spain", "spain", nil}, {"venice", "venice", nil},
		{"family", "family", nil}, {"pontoon", "family", []string{"five_card_21=true", "three_sevens=true"}},
		{"vegas-s17", "vegas-s17", nil}, {"vegas-h17", "vegas-h17", nil},
	}
	for _, c := range cases {
		for _, lang := range []language.Tag{language.Und, language.Spanish, language.Italian} {
			t.Run(c.name+"/"+lang.String(), func(t *testing.T) {
				cfg := table(t, c.profile, 7, c.options...)
				cfg.Rounds = 40
				cfg.Lang = lang
				if cfg.Profile.LoneCustomerBoxes < 2 {
					cfg.Boxes = []int{1, 2}
				}
				out, _, _ := play(t, cfg, nil, bold)
				seen := map[string]bool{}
				for _, m := range id.FindAllString(out, -1) {
					if !cfg.Profile.OwnRule(m) && !seen[m] {
						seen[m] = true
						t.Errorf("%s cites %s, another regulation's rule", c.name, m)
					}
				}
			})
		}
	}
}
