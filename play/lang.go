package play

import (
	"fmt"
	"strings"

	"golang.org/x/text/feature/plural"
	"golang.org/x/text/language"
	"golang.org/x/text/message"
	"golang.org/x/text/message/catalog"

	"sabot/internal/english"
	"sabot/money"
)

// The languages a session speaks: English, Spanish and Italian, the
// languages of the regulations (Argentina, Spain, Venice). A message is
// keyed by its English format string; the Spanish and Italian texts are in
// a golang.org/x/text catalogue (messages.go), with their plural forms, and
// a format without a translation prints in English.
var (
	Languages = []language.Tag{language.English, language.Spanish, language.Italian}
	matcher   = language.NewMatcher(Languages)
)

// ParseLang reads a --lang value: en, es or it, or a tag of one of them
// ("es-AR", "it_IT.UTF-8").
func ParseLang(s string) (language.Tag, error) {
	t, ok := langOf(s)
	if !ok {
		return language.English, fmt.Errorf("%q: want en, es or it", s)
	}
	return t, nil
}

// LangFromEnv is the language of the locale the environment names, in the
// POSIX order (LC_ALL, then LC_MESSAGES, then LANG), or English: "C",
// "POSIX", an unset locale and a language the game does not speak are all
// English.
func LangFromEnv(getenv func(string) string) language.Tag {
	for _, v := range []string{"LC_ALL", "LC_MESSAGES", "LANG"} {
		if s := getenv(v); s != "" {
			t, _ := langOf(s)
			return t
		}
	}
	return language.English
}

// langOf matches a locale name or a language tag to a language the game
// speaks.
func langOf(s string) (language.Tag, bool) {
	s = strings.TrimSpace(s)
	if i := strings.IndexAny(s, ".@"); i >= 0 {
		s = s[:i] // es_AR.UTF-8, it_IT@euro
	}
	t, err := language.Parse(strings.ReplaceAll(s, "_", "-"))
	if err != nil {
		return language.English, false
	}
	_, i, conf := matcher.Match(t)
	if conf < language.High {
		return language.English, false
	}
	return Languages[i], true
}

// printer prints a session's messages in its language. English prints as
// fmt does (its numbers as they always were); Spanish and Italian through
// an x/text message.Printer, which finds the translation and writes the
// numbers in the language's way.
type printer struct {
	tag language.Tag
	p   *message.Printer
}

func newPrinter(tag language.Tag) printer {
	if tag == language.Und {
		tag = language.English
	}
	return printer{tag: tag, p: message.NewPrinter(tag, message.Catalog(messages()))}
}

func (p printer) english() bool { return p.tag == language.English || p.p == nil }

// Sprintf formats a message in the printer's language.
func (p printer) Sprintf(format string, a ...any) string {
	if p.english() {
		return fmt.Sprintf(format, a...)
	}
	return p.p.Sprintf(format, a...)
}

// count says n of a thing: "1 round", "3 rounds"; in Spanish and Italian by
// the catalogue's plural forms of the message "%d " + one.
func (p printer) count(n int, one, many string) string {
	if p.english() {
		return english.Count(n, one, many)
	}
	return p.p.Sprintf("%d "+one, n)
}

// money shows an amount in units with two decimals: "1234.50", or
// "1234,50" in Spanish and Italian.
func (p printer) money(a money.Amount) string {
	if p.english() {
		return a.Plain()
	}
	return strings.Replace(a.Plain(), ".", ",", 1)
}

// net shows a net amount with its sign: "+10.00", "-5.00", "0.00".
func (p printer) net(a money.Amount) string {
	if p.english() {
		return FormatNet(a)
	}
	return strings.Replace(FormatNet(a), ".", ",", 1)
}

// word translates one word or phrase (a result, an action) by the catalogue.
func (p printer) word(s string) string {
	if p.english() {
		return s
	}
	return p.p.Sprintf(s)
}

// translated are the keys the catalogue has (messages), for its tests.
var translated = map[string]bool{}

// set adds one message's Spanish and Italian texts to a catalogue.
func set(b *catalog.Builder, key, es, it string) {
	translated[key] = true
	b.SetString(language.Spanish, key, es)
	b.SetString(language.Italian, key, it)
}

// setPlural adds a count's plural forms: "%d round" is "1 ronda", "3 rondas".
func setPlural(b *catalog.Builder, key, esOne, esOther, itOne, itOther string) {
	translated[key] = true
	b.Set(language.Spanish, key, plural.Selectf(1, "%d", plural.One, esOne, plural.Other, esOther))
	b.Set(language.Italian, key, plural.Selectf(1, "%d", plural.One, itOne, plural.Other, itOther))
}
