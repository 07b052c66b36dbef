package play

import (
	"bytes"
	"io"
	"regexp"
	"strconv"
	"strings"
)

// bot is standard input typed by a player who reads the screen: each Read
// answers the prompt the game has just written with one line. It is still
// plain line input to the game, the same as a pipe, but lets a test play
// long sessions whose decisions depend on the cards.
type bot struct {
	out    *bytes.Buffer
	answer func(prompt string) (line string, ok bool) // ok false: the input ends
	lines  int
	limit  int // end the input after this many lines (0: no limit)
}

func (b *bot) Read(p []byte) (int, error) {
	if b.limit > 0 && b.lines >= b.limit {
		return 0, io.EOF
	}
	line, ok := b.answer(lastPrompt(b.out.String()))
	if !ok {
		return 0, io.EOF
	}
	b.lines++
	return copy(p, line+"\n"), nil
}

// lastPrompt is the question before the trailing "> ".
func lastPrompt(out string) string {
	out = strings.TrimSuffix(out, "\n> ")
	if i := strings.LastIndexByte(out, '\n'); i >= 0 {
		return out[i+1:]
	}
	return out
}

var totalRE = regexp.MustCompile(`\((?:soft )?(\d+)`)

// promptTotal is the hand's total as the prompt shows it.
func promptTotal(prompt string) int {
	m := totalRE.FindStringSubmatch(prompt)
	if m == nil {
		return 0
	}
	n, _ := strconv.Atoi(m[1])
	return n
}

func betweenRounds(prompt string) bool { return strings.HasPrefix(prompt, "Bankroll ") }

// cautious deals every round, declines every offer, counts Aces 11, and
// draws to 17.
func cautious(prompt string) (string, bool) {
	switch {
	case betweenRounds(prompt):
		return "", true
	case strings.Contains(prompt, "[n]o"):
		return "n", true
	case strings.Contains(prompt, "Ace [e]leven") && !strings.Contains(prompt, "[h]it"):
		return "e", true
	case strings.Contains(prompt, "[s]tand") && promptTotal(prompt) >= 17:
		return "s", true
	case strings.Contains(prompt, "[h]it"):
		return "h", true
	case strings.Contains(prompt, "[s]tand"):
		return "s", true
	}
	return "quit", true
}

// bold takes every offer the menu makes: the challenge, insurance, even
// money, splits, doubles on 9 to 11, Aces counted one on a split ten
// (VE-13); otherwise it plays like cautious. It exercises every path of the
// game's display.
func bold(prompt string) (string, bool) {
	t := promptTotal(prompt)
	switch {
	case betweenRounds(prompt):
		return "", true
	case strings.Contains(prompt, "[c]hallenge"):
		return "c", true
	case strings.Contains(prompt, "[e]ven money"):
		return "e", true
	case strings.Contains(prompt, "[i]nsure"):
		return "i", true
	case strings.Contains(prompt, "[n]o"):
		return "n", true
	case strings.Contains(prompt, "Ace [o]ne") && strings.Contains(prompt, "VE-13"):
		return "o", true
	case strings.Contains(prompt, "Ace [e]leven") && !strings.Contains(prompt, "[h]it") && !strings.Contains(prompt, "s[p]lit"):
		return "e", true
	case strings.Contains(prompt, "s[p]lit"):
		return "p", true
	case strings.Contains(prompt, "[d]ouble") && t >= 9 && t <= 11:
		return "d", true
	case strings.Contains(prompt, "su[r]render") && t == 16:
		return "r", true
	}
	return cautious(prompt)
}
