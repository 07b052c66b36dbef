package sabot_test

import (
	"go/ast"
	"go/parser"
	"go/token"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// timingPackages are the packages whose tests wait on timers, windows,
// leases, timeouts, processes and browsers: the ones a busy machine slows.
var timingPackages = []string{"cmd/sabot", "internal/server", "internal/actor", "internal/cluster", "internal/webtest"}

// No test of the timing-sensitive packages sleeps to wait for a state: a
// fixed sleep is a guess at how long the machine takes, and a busy machine
// guesses wrong. A test waits for the state itself (testwait.Until, with a
// deadline scaled for the machine), on a fake clock (testing/synctest), or
// names a pause that waits for no state (testwait.Pause: the moment of a
// fault, the length of a load). This lists every time.Sleep left.
func TestNoSleepWaitsForAState(t *testing.T) {
	fset := token.NewFileSet()
	for _, dir := range timingPackages {
		files, err := filepath.Glob(filepath.Join(dir, "*_test.go"))
		if err != nil {
			t.Fatal(err)
		}
		if len(files) == 0 {
			t.Fatalf("%s: no test file (a package moved? update timingPackages)", dir)
		}
		for _, name := range files {
			src, err := os.ReadFile(name)
			if err != nil {
				t.Fatal(err)
			}
			if !strings.Contains(string(src), "Sleep") {
				continue
			}
			f, err := parser.ParseFile(fset, name, src, 0)
			if err != nil {
				t.Fatal(err)
			}
			ast.Inspect(f, func(n ast.Node) bool {
				call, ok := n.(*ast.CallExpr)
				if !ok {
					return true
				}
				if sel, ok := call.Fun.(*ast.SelectorExpr); ok && sel.Sel.Name == "Sleep" {
					if x, ok := sel.X.(*ast.Ident); ok && x.Name == "time" {
						t.Errorf("%s: time.Sleep in a test: wait for the state (testwait.Until), or name the pause (testwait.Pause)", fset.Position(call.Pos()))
					}
				}
				return true
			})
		}
	}
}
