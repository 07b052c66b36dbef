package webapi

import (
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"sabot/rules"
)

// Quotation marks («…» or "…") hold only a seed's own words: every quoted
// text of the web client's catalogues, of the profiles' readings and of
// the options' documentation is in a seed file as it is quoted (passages
// joined by " … " each), a {value} the client fills in aside. The
// catalogues quoted paraphrases («6 es el número máximo de separaciones»).
func TestQuotesAreTheSeedsWords(t *testing.T) {
	files, err := filepath.Glob(filepath.Join("testdata", "seeds", "*.txt"))
	if err != nil || len(files) < 4 {
		t.Fatalf("seeds: %v %v", files, err)
	}
	var seeds []string
	for _, f := range files {
		seeds = append(seeds, seedWords(t, filepath.Base(f)))
	}
	inSeed := func(passage string) bool {
		for _, s := range seeds {
			if strings.Contains(s, passage) {
				return true
			}
		}
		return false
	}
	value := regexp.MustCompile(`^\{\w+\}$`)
	check := func(where, quoted string) {
		quoted = strings.Join(strings.Fields(quoted), " ")
		if value.MatchString(quoted) {
			return
		}
		for _, p := range strings.Split(quoted, " … ") {
			if !inSeed(p) {
				t.Errorf("%s quotes %q, which no seed says", where, p)
			}
		}
	}
	guillemets := regexp.MustCompile(`«([^»]*)»`)
	straight := regexp.MustCompile(`"([^"]*)"`)
	n := 0
	for _, lang := range []string{"en", "es", "it"} {
		b, err := os.ReadFile(filepath.Join("..", "..", "web", "static", "js", "i18n", lang+".js"))
		if err != nil {
			t.Fatal(err)
		}
		// A message a line: the replay's « First and Last » are arrows.
		for _, line := range strings.Split(strings.ReplaceAll(string(b), `\'`, "'"), "\n") {
			for _, m := range guillemets.FindAllStringSubmatch(line, -1) {
				check(lang+".js", m[1])
				n++
			}
		}
	}
	for _, name := range rules.Names() {
		for _, r := range rules.MustLookup(name).Readings() {
			for _, q := range [...]*regexp.Regexp{guillemets, straight} {
				for _, m := range q.FindAllStringSubmatch(r.Text, -1) {
					check(name+"'s reading of "+r.Rule, m[1])
					n++
				}
			}
		}
	}
	for _, reg := range []string{"argentina", "spain", "family", "venice"} {
		for _, r := range rules.RegulatedValues(reg) {
			for _, q := range [...]*regexp.Regexp{guillemets, straight} {
				for _, m := range q.FindAllStringSubmatch(r.Want, -1) {
					check(reg+"'s regulated "+r.Option+" ("+r.Rule+")", m[1])
					n++
				}
			}
		}
	}
	for _, o := range rules.Options() {
		for _, q := range [...]*regexp.Regexp{guillemets, straight} {
			for _, m := range q.FindAllStringSubmatch(o.Doc, -1) {
				check("option "+o.Key, m[1])
				n++
			}
		}
	}
	if n < 20 {
		t.Errorf("only %d quotations found", n)
	}
}
