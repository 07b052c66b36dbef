package sabot_test

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"slices"
	"strings"
	"testing"
)

// layers are the core's layers, bottom up: card < shoe < rules < engine <
// analysis and sim (which may import each other one way: sim reads the
// analysis's basic strategy). Every other package of the module is above
// them all (topLayer). A package imports only from its own layer or below,
// and the core imports nothing outside the standard library and the core.
var layers = map[string]int{
	"sabot/money":    0,
	"sabot/card":     0,
	"sabot/shoe":     1,
	"sabot/rules":    2,
	"sabot/engine":   3,
	"sabot/analysis": 4,
	"sabot/sim":      4,
}

const topLayer = 5

// listed is what `go list -json` says of a package that the check reads.
type listed struct {
	ImportPath string
	ForTest    string // a test's variant or external test package: the package under test
	Standard   bool
	Imports    []string
}

// basePath strips the test variant's suffix: "sabot/rules [sabot/sim.test]".
func basePath(p string) string {
	if i := strings.IndexByte(p, ' '); i >= 0 {
		return p[:i]
	}
	return p
}

func inModule(p string) bool { return p == "sabot" || strings.HasPrefix(p, "sabot/") }

func layerOf(p string) int {
	if l, ok := layers[p]; ok {
		return l
	}
	return topLayer
}

// layerViolations returns each import that breaks the layering among pkgs,
// the packages (with their tests) of the module and their dependencies.
func layerViolations(pkgs []listed) []string {
	standard := map[string]bool{}
	for _, p := range pkgs {
		standard[basePath(p.ImportPath)] = p.Standard
	}
	var bad []string
	for _, p := range pkgs {
		name := basePath(p.ImportPath)
		if !inModule(name) || strings.HasSuffix(name, ".test") {
			continue // (a test's generated main)
		}
		if p.ForTest != "" {
			name = p.ForTest // its tests are held to the package's layer
		}
		l := layerOf(name)
		for _, imp := range p.Imports {
			imp = basePath(imp)
			switch {
			case standard[imp]:
			case !inModule(imp):
				if l < topLayer {
					bad = append(bad, fmt.Sprintf("%s (core) imports %s, outside the standard library", p.ImportPath, imp))
				}
			case layerOf(imp) > l:
				bad = append(bad, fmt.Sprintf("%s (layer %d) imports %s (layer %d), above it", p.ImportPath, l, imp, layerOf(imp)))
			}
		}
	}
	slices.Sort(bad)
	return slices.Compact(bad)
}

// goList runs `go list -deps -test -json` on the module's packages.
func goList(t *testing.T) []listed {
	t.Helper()
	goTool := filepath.Join(runtime.GOROOT(), "bin", "go")
	if _, err := os.Stat(goTool); err != nil {
		if goTool, err = exec.LookPath("go"); err != nil {
			t.Fatalf("no go command to list the packages: %v", err)
		}
	}
	cmd := exec.Command(goTool, "list", "-deps", "-test", "-json", "./...")
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	out, err := cmd.Output()
	if err != nil {
		t.Fatalf("go list: %v\n%s", err, stderr.Bytes())
	}
	var pkgs []listed
	dec := json.NewDecoder(bytes.NewReader(out))
	for {
		var p listed
		if err := dec.Decode(&p); errors.Is(err, io.EOF) {
			break
		} else if err != nil {
			t.Fatal(err)
		}
		pkgs = append(pkgs, p)
	}
	return pkgs
}

// TestImportsRunOneWay holds the layering of the module: card < shoe <
// rules < engine < analysis, sim < everything else, and nothing but the
// standard library under the core (card, shoe, rules, engine, analysis,
// sim), their tests included.
func TestImportsRunOneWay(t *testing.T) {
	pkgs := goList(t)
	seen := map[string]bool{}
	for _, p := range pkgs {
		seen[basePath(p.ImportPath)] = true
	}
	for core := range layers {
		if !seen[core] {
			t.Errorf("go list does not list %s: the check would hold nothing", core)
		}
	}
	for _, v := range layerViolations(pkgs) {
		t.Error(v)
	}
}

// TestLayerViolationsFound: the check finds an import upward, a core
// package importing outside the standard library (its tests too), and
// lets the top layer import anything.
func TestLayerViolationsFound(t *testing.T) {
	pkgs := []listed{
		{ImportPath: "fmt", Standard: true},
		{ImportPath: "github.com/x/y"},
		{ImportPath: "sabot/card", Imports: []string{"fmt"}},
		{ImportPath: "sabot/rules", Imports: []string{"sabot/card", "sabot/engine"}},
		{ImportPath: "sabot/engine", Imports: []string{"sabot/rules", "github.com/x/y"}},
		{ImportPath: "sabot/sim", Imports: []string{"sabot/analysis", "sabot/engine"}},
		{ImportPath: "sabot/analysis", Imports: []string{"sabot/rules"}},
		{ImportPath: "sabot/shoe_test [sabot/shoe.test]", ForTest: "sabot/shoe", Imports: []string{"sabot/sim", "sabot/card [sabot/shoe.test]"}},
		{ImportPath: "sabot/internal/server", Imports: []string{"sabot/engine", "github.com/x/y", "sabot/web"}},
		{ImportPath: "sabot/web", Imports: []string{"sabot/internal/server"}},
	}
	want := []string{
		"sabot/engine (core) imports github.com/x/y, outside the standard library",
		"sabot/rules (layer 2) imports sabot/engine (layer 3), above it",
		"sabot/shoe_test [sabot/shoe.test] (layer 1) imports sabot/sim (layer 4), above it",
	}
	if got := layerViolations(pkgs); !slices.Equal(got, want) {
		t.Errorf("violations:\n%s\nwant:\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"))
	}
}
