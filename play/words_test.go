package play

import (
	"bytes"
	"go/ast"
	"go/parser"
	"go/token"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"testing"

	"golang.org/x/text/language"
)

// onlyFormat is a format with no words of its own: verbs, punctuation,
// the program's name.
var onlyFormat = regexp.MustCompile(`^(?:%[-+# 0-9.]*[a-zA-Z]|\\n|[\s:;,.()>?]|sabot play)*$`)

// Every message the session prints (printf, Sprintf, word, each with a
// format of its own) has its Spanish and Italian words in the catalogue:
// `play --lang es` prints no English line.
func TestEveryMessageIsTranslated(t *testing.T) {
	messages() // fills translated
	files, _ := filepath.Glob("*.go")
	fset := token.NewFileSet()
	n := 0
	for _, f := range files {
		if strings.HasSuffix(f, "_test.go") || f == "messages.go" {
			continue
		}
		file, err := parser.ParseFile(fset, f, nil, 0)
		if err != nil {
			t.Fatal(err)
		}
		ast.Inspect(file, func(x ast.Node) bool {
			call, ok := x.(*ast.CallExpr)
			if !ok || len(call.Args) == 0 {
				return true
			}
			sel, ok := call.Fun.(*ast.SelectorExpr)
			name := ""
			if ok {
				name = sel.Sel.Name
			} else if id, ok := call.Fun.(*ast.Ident); ok {
				name = id.Name
			}
			if name != "printf" && name != "Sprintf" && name != "word" && name != "said" {
				return true
			}
			if id, ok := call.Fun.(*ast.SelectorExpr); ok {
				if pkg, ok := id.X.(*ast.Ident); ok && pkg.Name == "fmt" {
					return true // fmt's, not the session's printer
				}
			}
			lit, ok := call.Args[0].(*ast.BasicLit)
			if !ok || lit.Kind != token.STRING {
				return true
			}
			format, _ := strconv.Unquote(lit.Value)
			if name == "said" {
				format = strings.ToUpper(format[:1]) + format[1:]
			}
			n++
			if !onlyFormat.MatchString(format) && !translated[format] {
				t.Errorf("%s: %q has no Spanish or Italian words", fset.Position(lit.Pos()), format)
			}
			return true
		})
	}
	if n < 50 {
		t.Fatalf("found %d messages: the scan is broken", n)
	}
}

// A session in Spanish: a refused double, an unknown command and leaving
// in a round read in Spanish, with the engine's reason and the profile's
// description.
func TestSessionInSpanishPrintsNoEnglish(t *testing.T) {
	cfg := table(t, "spain", 7)
	cfg.Lang = language.Spanish
	s, err := New(cfg)
	if err != nil {
		t.Fatal(err)
	}
	var out bytes.Buffer
	// Round 1 is QH JC against 8H (seed 7): a double is refused (ES-08).
	if _, err := s.Run(strings.NewReader("\nd\nx\nquit\n"), &out); err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(out.String(), "Rechazado: Casillero 1 no puede doblar") {
		t.Fatalf("no refused double in Spanish:\n%s", out.String())
	}
	for _, english := range []string{"Refused", "may not", "Unknown command", "The round is finished", "Spanish casino", "doubling needs"} {
		if strings.Contains(out.String(), english) {
			t.Errorf("the Spanish session prints %q:\n%s", english, out.String())
		}
	}
}
