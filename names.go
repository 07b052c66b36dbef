package sabot

import (
	"golang.org/x/text/cases"
	"golang.org/x/text/unicode/norm"
)

// FoldName is the key under which a user's name is unique and looked up:
// the name in Unicode compatibility form (NFKC) and case-folded, so that
// "Alice", "alice" and "ＡＬＩＣＥ" are one name (the NFKC_Casefold of
// Unicode's identifier comparison: NFKC, fold, NFKC again).
func FoldName(name string) string {
	return norm.NFKC.String(cases.Fold().String(norm.NFKC.String(name)))
}
