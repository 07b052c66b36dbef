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
// deadline scaled for the machine), on a fake clock (testing/synctest: a
// sleep in a bubble is the test's own time passing), or
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
			// On a fake clock a sleep is the test's time passing, not a
			// guess: time.Sleep in a synctest.Test bubble's func, or in a
			// helper that waits for the bubble (calls synctest.Wait).
			var bubble []ast.Node
			ast.Inspect(f, func(n ast.Node) bool {
				switch n := n.(type) {
				case *ast.FuncDecl:
					if n.Body != nil && calls(n.Body, "synctest", "Wait") {
						bubble = append(bubble, n)
					}
				case *ast.CallExpr:
					if isCall(n, "synctest", "Test") {
						bubble = append(bubble, n)
					}
				}
				return true
			})
			ast.Inspect(f, func(n ast.Node) bool {
				call, ok := n.(*ast.CallExpr)
				if !ok || !isCall(call, "time", "Sleep") {
					return true
				}
				for _, b := range bubble {
					if b.Pos() <= call.Pos() && call.End() <= b.End() {
						return true
					}
				}
				t.Errorf("%s: time.Sleep in a test: wait for the state (testwait.Until), or name the pause (testwait.Pause), or run on a fake clock (testing/synctest)", fset.Position(call.Pos()))
				return true
			})
		}
	}
}

// isCall says whether call calls pkg.name.
func isCall(call *ast.CallExpr, pkg, name string) bool {
	sel, ok := call.Fun.(*ast.SelectorExpr)
	if !ok || sel.Sel.Name != name {
		return false
	}
	x, ok := sel.X.(*ast.Ident)
	return ok && x.Name == pkg
}

// calls says whether n calls pkg.name anywhere.
func calls(n ast.Node, pkg, name string) bool {
	found := false
	ast.Inspect(n, func(n ast.Node) bool {
		if c, ok := n.(*ast.CallExpr); ok && isCall(c, pkg, name) {
			found = true
		}
		return !found
	})
	return found
}
