package server

import (
	"fmt"
	"unicode"
	"unicode/utf8"

	"golang.org/x/text/unicode/norm"

	"sabot"
)

// MaxName is the longest name a player may take, in characters.
const MaxName = 32

// checkName returns a name as it is kept, in Unicode NFKC ("ａｎａ" is "ana",
// "José" typed with a combining accent is the one-character é), or refuses
// it with the reason. A name is 1 to MaxName characters: letters of any
// script, digits, '.', '_' and '-' anywhere (as names always were), and a
// space or an apostrophe between two letters or digits ("Ana María",
// "D'Angelo"). Its letters are not Latin, Greek and Cyrillic mixed: "аna"
// with a Cyrillic а would pass for "ana" (Unicode's UTS #39 calls such a
// name mixed-script). Names are unique as sabot.FoldName folds them: "Ana"
// and "ana" are one.
func checkName(name string) (string, error) {
	if n := utf8.RuneCountInString(name); n > 4*MaxName { // NFKC cannot bring it within MaxName
		return "", sabot.Errorf(sabot.EINVALID, "a name has at most %d characters; this one has %d", MaxName, n).WithReason("name_long", map[string]any{"most": MaxName})
	}
	if !utf8.ValidString(name) {
		return "", sabot.Errorf(sabot.EINVALID, "a name must be UTF-8 text").WithReason("name_chars", nil)
	}
	name = norm.NFKC.String(name)
	rs := []rune(name)
	switch {
	case len(rs) == 0:
		return "", sabot.Errorf(sabot.EINVALID, "a name needs at least one letter or digit").WithReason("name_empty", nil)
	case len(rs) > MaxName:
		return "", sabot.Errorf(sabot.EINVALID, "a name has at most %d characters; this one has %d", MaxName, len(rs)).WithReason("name_long", map[string]any{"most": MaxName})
	}
	var scripts [3]bool // Latin, Greek, Cyrillic
	around := func(i int) bool { return i >= 0 && i < len(rs) && wordRune(rs[i]) }
	word := false // a letter or a digit seen
	for i, r := range rs {
		switch {
		case unicode.IsLetter(r):
			word = true
			for k, sc := range []*unicode.RangeTable{unicode.Latin, unicode.Greek, unicode.Cyrillic} {
				if unicode.Is(sc, r) {
					scripts[k] = true
				}
			}
		case unicode.Is(unicode.Nd, r):
			word = true
		case unicode.Is(unicode.Mn, r) || unicode.Is(unicode.Mc, r):
			if i == 0 || !unicode.IsLetter(rs[i-1]) && !unicode.IsMark(rs[i-1]) {
				return "", sabot.Errorf(sabot.EINVALID, "a name's accent marks follow a letter").WithReason("name_chars", nil)
			}
		case r == '.' || r == '_' || r == '-':
		case r == ' ' || r == '\'' || r == '’':
			if !around(i-1) || !around(i+1) {
				return "", sabot.Errorf(sabot.EINVALID, "a space or an apostrophe in a name stands between two letters or digits").WithReason("name_spaces", nil)
			}
		default:
			return "", sabot.Errorf(sabot.EINVALID, "a name is letters, digits, '.', '_', '-', and single spaces or apostrophes between words: %s is not allowed", quoteRune(r)).WithReason("name_char", map[string]any{"char": string(r)})
		}
	}
	if !word {
		return "", sabot.Errorf(sabot.EINVALID, "a name needs at least one letter or digit").WithReason("name_empty", nil)
	}
	if n := btoi(scripts[0]) + btoi(scripts[1]) + btoi(scripts[2]); n > 1 {
		return "", sabot.Errorf(sabot.EINVALID, "a name's letters are of one alphabet: Latin, Greek and Cyrillic letters are not mixed (they look alike)").WithReason("name_scripts", nil)
	}
	return name, nil
}

// wordRune is a letter, a digit or an accent mark.
func wordRune(r rune) bool {
	return unicode.IsLetter(r) || unicode.Is(unicode.Nd, r) || unicode.IsMark(r)
}

func btoi(b bool) int {
	if b {
		return 1
	}
	return 0
}

// quoteRune shows a character a name may not have: printed if it prints,
// else by its code point.
func quoteRune(r rune) string {
	if unicode.IsPrint(r) && !unicode.IsSpace(r) {
		return fmt.Sprintf("%q", r)
	}
	return fmt.Sprintf("U+%04X", r)
}
