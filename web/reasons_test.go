package web

import (
	"io/fs"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"sabot"
)

// reasonLiteral finds a reason code given in the server's code: an error's
// (WithReason), a table's refusal (refuseAs), an event's or a view's
// (Reason: "..."), the engine's refusals' (reason = "...").
var reasonLiteral = regexp.MustCompile(`(?:WithReason\(|refuseAs\(|Reason:\s*|reason :?= )"([a-z][a-z0-9_]*)"\s*[,)}\n]`)

// Every reason code the server's code gives, and every error code's
// general reason (sabot.GeneralReason, for an error given none), has its
// words in the client's es, it and en catalogues, with no value the
// server does not send: a page in Spanish or Italian never shows a
// refusal in English.
func TestEveryReasonHasWordsInEveryLanguage(t *testing.T) {
	reasons := map[string]string{} // reason → where
	root := filepath.Join("..")
	err := filepath.WalkDir(root, func(path string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if d.IsDir() && path != root && (strings.HasPrefix(d.Name(), ".") || d.Name() == "testdata" || d.Name() == "node_modules") {
			return filepath.SkipDir
		}
		if d.IsDir() || !strings.HasSuffix(path, ".go") || strings.HasSuffix(path, "_test.go") {
			return nil
		}
		b, err := os.ReadFile(path)
		if err != nil {
			return err
		}
		for _, m := range reasonLiteral.FindAllStringSubmatch(string(b), -1) {
			reasons[m[1]] = path
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	for _, code := range sabot.Codes {
		r, _ := sabot.GeneralReason(code, "refused (AR-22)")
		reasons[r] = "sabot.GeneralReason(" + code + ")"
	}
	for _, want := range []string{"login_failed", "password_short", "bets_closed", "error_conflict", "deal_no_bet"} {
		if reasons[want] == "" {
			t.Fatalf("the scan missed %s: %v", want, reasons)
		}
	}
	for _, lang := range []string{"en", "es", "it"} {
		msgs, err := Messages(lang)
		if err != nil {
			t.Fatal(err)
		}
		for r, where := range reasons {
			if _, ok := msgs["reason."+r]; !ok {
				t.Errorf("%s: reason %s (%s) has no words (reason.%s)", lang, r, where, r)
			}
		}
	}
	en, _ := Catalogue("en")
	for _, lang := range []string{"es", "it"} {
		c, _ := Catalogue(lang)
		for r := range reasons {
			k := "reason." + r
			if c[k] != nil && en[k] != nil && c[k][""] != "" && c[k][""] == en[k][""] {
				t.Errorf("%s: reason.%s is the English words: %q", lang, r, c[k][""])
			}
		}
	}
}
