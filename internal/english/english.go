// Package english words the small things of the texts sabot shows a
// person, in one way everywhere: a count of things, and a sentence's first
// letter. The terminal game (package play) and the rules in plain words
// (package internal/webapi) use it.
package english

import (
	"strconv"
	"strings"
)

// Count says n things, with the word for one or for many: Count(1, "deck",
// "decks") is "1 deck", Count(8, "deck", "decks") "8 decks", Count(0, …)
// "0 decks".
func Count(n int, one, many string) string {
	if n == 1 {
		return "1 " + one
	}
	return strconv.Itoa(n) + " " + many
}

// Capitalize puts the first letter of a sentence in upper case (an ASCII
// letter: sabot's texts begin with one).
func Capitalize(s string) string {
	if s == "" {
		return s
	}
	return strings.ToUpper(s[:1]) + s[1:]
}
