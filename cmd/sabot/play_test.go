package main

import (
	"bytes"
	"context"
	"os"
	"regexp"
	"strings"
	"testing"
)

// runSabot runs the command line with stdin and returns the exit status and
// what it wrote.
func runSabot(t *testing.T, stdin string, args ...string) (code int, stdout, stderr string) {
	t.Helper()
	// The game's language follows the locale (sabot play --lang): English
	// here, whatever the locale the tests run in.
	t.Setenv("LC_ALL", "C")
	var out, errOut bytes.Buffer
	code = Run(context.Background(), args, strings.NewReader(stdin), &out, &errOut)
	return code, out.String(), errOut.String()
}

// A piped session end to end: the transcript is the play package's golden
// one, input echoed because stdin is not a terminal.
func TestPlayPipedMatchesGolden(t *testing.T) {
	in, err := os.ReadFile("../../play/testdata/venice-basic.in")
	if err != nil {
		t.Fatal(err)
	}
	want, err := os.ReadFile("../../play/testdata/venice-basic.golden")
	if err != nil {
		t.Fatal(err)
	}
	code, out, errOut := runSabot(t, string(in), "play", "venice", "--seed", "42")
	if code != 0 || errOut != "" {
		t.Fatalf("exit %d, stderr %q", code, errOut)
	}
	if out != string(want) {
		t.Errorf("sabot play venice --seed 42 differs from play/testdata/venice-basic.golden")
	}
}

// The default profile is venice, and there a lone customer plays two boxes
// (VE-20).
func TestPlayDefaults(t *testing.T) {
	code, out, _ := runSabot(t, "", "play", "--seed", "1")
	if code != 0 {
		t.Fatalf("exit %d", code)
	}
	if !strings.HasPrefix(out, "sabot play: venice.") || !strings.Contains(out, "You play boxes 1, 2 at 10.00 a box, with a bankroll of 1000.00.") {
		t.Errorf("defaults:\n%s", out)
	}
	if !strings.Contains(out, "(end of input)") || !strings.Contains(out, "Session over: 0 rounds") {
		t.Errorf("empty input does not end the session with its summary:\n%s", out)
	}
}

// VE-20: one box in venice is refused input, exit status 2, one line naming
// the rule.
func TestPlayLoneCustomerRefused(t *testing.T) {
	for _, args := range [][]string{
		{"play", "--boxes", "1"},
		{"play", "venice", "--box", "4"},
	} {
		code, out, errOut := runSabot(t, "", args...)
		if code != 2 || out != "" {
			t.Errorf("%v: exit %d, stdout %q", args, code, out)
		}
		if want := "play: venice: a lone customer must play at least 2 boxes (VE-20), not 1; play --boxes 2\n"; errOut != want {
			t.Errorf("%v: stderr %q, want %q", args, errOut, want)
		}
	}
	code, _, errOut := runSabot(t, "", "play", "venice", "--boxes", "1", "--option", "lone_customer_boxes=0")
	if code != 0 {
		t.Errorf("lone_customer_boxes=0 with one box: exit %d, %s", code, errOut)
	}
}

// Refused input: exit status 2, nothing on stdout, one line on stderr.
func TestPlayRefusedInput(t *testing.T) {
	for _, c := range []struct {
		args []string
		want string
	}{
		{[]string{"play", "spain", "--boxes", "2", "--box", "1,3"}, "not both"},
		{[]string{"play", "nowhere"}, "unknown profile"},
		{[]string{"play", "spain", "--option", "decks=0"}, "decks=0"},
		{[]string{"play", "spain", "--option", "colour=red"}, "unknown option"},
		{[]string{"play", "spain", "--bet", "ten"}, "--bet"},
		{[]string{"play", "spain", "--bet", "0"}, "must be positive"},
		{[]string{"play", "spain", "--bet", "1", "--option", "min_bet=500"}, "the table minimum is 5.00\n"},
		{[]string{"play", "spain", "--bet", "0.5"}, "a stake of 0.50: the table minimum is 5.00\n"},
		{[]string{"play", "venice", "--bet", "0.5"}, "a stake of 0.50: the table minimum is 5.00 (VE-21)"},
		{[]string{"play", "spain", "--bet", "2000000000"}, "maximum is 1000000.00 (ES-03)"},
		{[]string{"play", "spain", "--bankroll", "5", "--bet", "10"}, "cannot cover"},
		{[]string{"play", "spain", "--seed", "xyz"}, "--seed"},
		{[]string{"play", "spain", "--rounds", "-1"}, "--rounds"},
		{[]string{"play", "spain", "--box", "9"}, "boxes 1 to 7"},
		{[]string{"play", "spain", "--box", "1,x"}, "--box"},
		{[]string{"play", "spain", "--boxes", "0"}, "--boxes"},
		{[]string{"play", "spain", "venice"}, "sabot play takes one PROFILE, not 2 arguments (spain venice)"},
	} {
		code, out, errOut := runSabot(t, "", c.args...)
		if code != 2 || out != "" || !strings.Contains(errOut, c.want) || strings.Count(errOut, "\n") != 1 {
			t.Errorf("%v: exit %d, stdout %q, stderr %q; want status 2 and one line with %q", c.args, code, out, errOut, c.want)
		}
	}
}

// Without --seed the shoe is seeded at random, and the summary prints the
// seed that plays the session again.
func TestPlayRandomSeedReplays(t *testing.T) {
	input := "\nh\ns\n\ns\ns\nquit\n"
	code, out, _ := runSabot(t, input, "play", "vegas-s17", "--boxes", "2")
	if code != 0 {
		t.Fatalf("exit %d", code)
	}
	m := regexp.MustCompile(`\nSeed ([0-9a-f]{64}): `).FindStringSubmatch(out)
	if m == nil {
		t.Fatalf("no seed in the summary:\n%s", out)
	}
	code, again, _ := runSabot(t, input, "play", "vegas-s17", "--boxes", "2", "--seed", m[1])
	if code != 0 || again != out {
		t.Errorf("--seed %s does not play the session again", m[1])
	}
	_, other, _ := runSabot(t, input, "play", "vegas-s17", "--boxes", "2")
	if other == out {
		t.Error("two sessions without --seed dealt the same cards")
	}
}

// Amounts on the command line are money as the table shows it: a whole
// number is units (--bet 50 is 50.00), or units with a point.
func TestPlayAmounts(t *testing.T) {
	code, out, errOut := runSabot(t, "", "play", "spain", "--bet", "7.50", "--bankroll", "100", "--seed", "3")
	if code != 0 || !strings.Contains(out, "You play box 1 at 7.50 a box, with a bankroll of 100.00.") {
		t.Errorf("exit %d, %s\n%s", code, errOut, out)
	}
	code, out, errOut = runSabot(t, "", "play", "spain", "--bet", "5000", "--bankroll", "10000", "--seed", "3")
	if code != 0 || !strings.Contains(out, "You play box 1 at 5000.00 a box, with a bankroll of 10000.00.") {
		t.Errorf("exit %d, %s\n%s", code, errOut, out)
	}
}

// --rounds ends the session after that many rounds.
func TestPlayRounds(t *testing.T) {
	code, out, _ := runSabot(t, strings.Repeat("\ns\ns\nn\ns\n", 10), "play", "spain", "--seed", "8", "--rounds", "3")
	if code != 0 || !strings.Contains(out, "The session ends after 3 rounds.") || !strings.Contains(out, "Session over: 3 rounds") {
		t.Errorf("exit %d:\n%s", code, out)
	}
}

// The session in docs/play.md is what `sabot play --seed 42` plays on the
// input typed there.
func TestPlayDocTranscript(t *testing.T) {
	doc, err := os.ReadFile("../../docs/play.md")
	if err != nil {
		t.Fatal(err)
	}
	const cmd = "$ sabot play --seed 42\n"
	_, rest, ok := strings.Cut(string(doc), cmd)
	want, _, ok2 := strings.Cut(rest, "```")
	if !ok || !ok2 {
		t.Fatalf("docs/play.md has no %q block", cmd)
	}
	var input strings.Builder
	for _, line := range strings.Split(want, "\n") {
		if typed, ok := strings.CutPrefix(line, ">"); ok {
			input.WriteString(strings.TrimPrefix(typed, " ") + "\n")
		}
	}
	_, out, _ := runSabot(t, input.String(), "play", "--seed", "42")
	var got strings.Builder
	for _, line := range strings.SplitAfter(out, "\n") {
		got.WriteString(strings.TrimRight(line, " \n"))
		if strings.HasSuffix(line, "\n") {
			got.WriteString("\n")
		}
	}
	if got.String() != want {
		t.Errorf("docs/play.md's session is out of date; sabot play --seed 42 now prints:\n%s", got.String())
	}
}

// sabot play --lang: the game in Spanish or Italian, the default from the
// locale, a language it does not speak refused in one line.
func TestPlayLang(t *testing.T) {
	code, out, errOut := runSabot(t, "\nh\n", "play", "vegas-s17", "--seed", "2", "--rounds", "1", "--lang", "es")
	if code != 0 || errOut != "" || !strings.Contains(out, "pedir [h]  plantarse [s]") || !strings.Contains(out, "Ronda 1: 10,00 apostados en el casillero 1.") {
		t.Fatalf("--lang es: exit %d, stderr %q, out:\n%s", code, errOut, out)
	}
	code, out, _ = runSabot(t, "\nh\n", "play", "vegas-s17", "--seed", "2", "--rounds", "1", "--lang", "it")
	if code != 0 || !strings.Contains(out, "carta [h]  no carta [s]") {
		t.Fatalf("--lang it: exit %d, out:\n%s", code, out)
	}
	code, _, errOut = runSabot(t, "", "play", "--lang", "fr")
	if code == 0 || !strings.Contains(errOut, `play: --lang "fr": want en, es or it`) || strings.Count(strings.TrimSpace(errOut), "\n") != 0 {
		t.Fatalf("--lang fr: exit %d, stderr %q", code, errOut)
	}
	// The locale's language without --lang; --lang en over it.
	t.Setenv("LC_ALL", "")
	t.Setenv("LC_MESSAGES", "")
	t.Setenv("LANG", "it_IT.UTF-8")
	var b bytes.Buffer
	if code := Run(context.Background(), []string{"play", "vegas-s17", "--seed", "2", "--rounds", "1"}, strings.NewReader("\nh\n"), &b, &b); code != 0 || !strings.Contains(b.String(), "carta [h]") {
		t.Fatalf("LANG=it_IT.UTF-8: exit %d:\n%s", code, b.String())
	}
	b.Reset()
	if code := Run(context.Background(), []string{"play", "vegas-s17", "--seed", "2", "--rounds", "1", "--lang", "en"}, strings.NewReader("\nh\n"), &b, &b); code != 0 || !strings.Contains(b.String(), "[h]it  [s]tand") {
		t.Fatalf("LANG=it_IT.UTF-8 --lang en: exit %d:\n%s", code, b.String())
	}
}

// The suits as symbols where asked; auto keeps the
// letters on a pipe, so piped sessions and the docs' transcripts read the
// same; a wrong value exits 2 with the reason.
func TestPlaySuits(t *testing.T) {
	t.Parallel()
	for _, c := range []struct {
		suits     string
		want, not string
	}{
		{"symbols", "Box 1: 2♠ 4♦ (6)", "2S"},
		{"letters", "Box 1: 2S 4D (6)", "♠"},
		{"auto", "Box 1: 2S 4D (6)", "♠"},
	} {
		out, errs, code := run(t, "\ns\nquit\n", "play", "vegas-s17", "--seed", "42", "--rounds", "1", "--suits", c.suits)
		if code != 0 || !strings.Contains(out, c.want) || strings.Contains(out, c.not) {
			t.Errorf("--suits %s: exit %d %s\n%s", c.suits, code, errs, out)
		}
	}
	// Every card of a symbols session in symbols, in every language: the
	// dealer's up card in the decision's line too (it said "TC" beside
	// "A♣").
	letterCard := regexp.MustCompile(`\b[2-9TJQKA][SHDC]\b`)
	for _, lang := range []string{"en", "es", "it"} {
		out, errs, code := run(t, "\nh\n\ns\n", "play", "vegas-s17", "--seed", "2", "--rounds", "2", "--lang", lang, "--suits", "symbols")
		if code != 0 || !strings.Contains(out, "T♣") || letterCard.MatchString(out) {
			t.Errorf("--lang %s --suits symbols: exit %d %s, a card by its letters %q in:\n%s", lang, code, errs, letterCard.FindString(out), out)
		}
	}
	if _, errs, code := run(t, "", "play", "--suits", "emoji"); code != 2 || !strings.Contains(errs, "want auto, symbols or letters") {
		t.Errorf("--suits emoji: exit %d, %q", code, errs)
	}
	for env, want := range map[string]bool{"LANG=es_AR.UTF-8": true, "LC_ALL=C": false, "LANG=it_IT.utf8": true, "": false,
		"LC_ALL=C LANG=en_US.UTF-8": false} {
		vars := map[string]string{}
		for _, kv := range strings.Fields(env) {
			k, v, _ := strings.Cut(kv, "=")
			vars[k] = v
		}
		if got := utf8Locale(func(k string) string { return vars[k] }); got != want {
			t.Errorf("utf8Locale(%q) = %v", env, got)
		}
	}
}
