package certify

import "strings"

// Citation is where a rule stands in its regulation: the document's title,
// its section heading and numbered point (an Argentine reglamento's "2)"),
// as a regulator cites it, and the seed file it was read from.
type Citation struct {
	Source  string // the seed file
	Section string // the section heading, as printed
	Point   string // the numbered point within it, if the document numbers them
	Line    int    // the line of the seed file the quotation begins on
	Words   string // the quotation's first words, as they stand on that line
}

// Title is the regulation's title.
func (c Citation) Title() string { return seedTitle[c.Source] }

// String is the citation as a regulator files it: «title», section, n. point.
func (c Citation) String() string {
	parts := []string{"«" + c.Title() + "»"}
	if c.Section != "" {
		parts = append(parts, c.Section)
	} else {
		parts = append(parts, "preamble")
	}
	if c.Point != "" {
		parts = append(parts, "n. "+c.Point) // the document numbers it "N)"
	}
	return strings.Join(parts, ", ")
}

// Cite is rule id's citation in its regulation; ok is false for a rule the
// project quotes from no regulation.
func Cite(id string) (Citation, bool) {
	c, ok := citations[id]
	return c, ok
}
