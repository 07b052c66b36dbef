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

// layers are the module's packages, bottom up. A package imports only from
// its own layer or below, its tests too, and the core (layers 0 to
// coreTop) imports nothing outside the standard library. Every package of
// the module has a layer: a new one is placed here (layerOf).
//
//	0–4  the core: money and card < shoe < rules < engine < analysis and
//	     sim (which may import each other one way: sim reads the analysis's
//	     basic strategy)
//	5    the application on the core: the domain records, errors and
//	     service interfaces (the root package), the live table, the
//	     terminal game, the scenario contract, profile files, charts,
//	     English wording
//	6    adapters to the world: the stores, JSON over HTTP, the web
//	     client's files and its API
//	7    the table server, which mounts them
//	8    the programs and the end-to-end tests
var layers = map[string]int{
	"sabot/money":    0,
	"sabot/card":     0,
	"sabot/shoe":     1,
	"sabot/rules":    2,
	"sabot/engine":   3,
	"sabot/analysis": 4,
	"sabot/sim":      4,

	"sabot":                      5,
	"sabot/table":                5,
	"sabot/play":                 5,
	"sabot/scenario":             5,
	"sabot/internal/profilefile": 5,
	"sabot/internal/chart":       5,
	"sabot/internal/english":     5,

	"sabot/internal/httpjson": 6,
	"sabot/internal/store":    6,
	"sabot/internal/webapi":   6,
	// The operator's wallet protocol, its client and reference operator.
	"sabot/internal/wallet":           6,
	"sabot/internal/wallet/walletsim": 6,
	"sabot/internal/wallet/specop":    6,
	"sabot/web":                       6,
	// The certification kit's documents and randomness tests.
	"sabot/internal/certify": 6,
	// The pit's reports (issue 29): tables, players, the return watched.
	"sabot/internal/report": 6,

	"sabot/internal/server": 7,

	"sabot/cmd/sabot":        8,
	"sabot/internal/webtest": 8,
}

// layerTrees place every package under a path: a store's driver, a command.
var layerTrees = map[string]int{
	"sabot/internal/store/": 6,
	"sabot/cmd/":            8,
}

const coreTop = 4

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

// layerOf is a package's layer, and false if it has none.
func layerOf(p string) (int, bool) {
	if l, ok := layers[p]; ok {
		return l, true
	}
	for tree, l := range layerTrees {
		if strings.HasPrefix(p, tree) {
			return l, true
		}
	}
	return 0, false
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
		l, ok := layerOf(name)
		if !ok {
			bad = append(bad, fmt.Sprintf("%s has no layer: place it in layers_test.go", name))
			continue
		}
		for _, imp := range p.Imports {
			imp = basePath(imp)
			switch li, _ := layerOf(imp); {
			case standard[imp]:
			case !inModule(imp):
				if l <= coreTop {
					bad = append(bad, fmt.Sprintf("%s (core) imports %s, outside the standard library", p.ImportPath, imp))
				}
			case li > l:
				bad = append(bad, fmt.Sprintf("%s (layer %d) imports %s (layer %d), above it", p.ImportPath, l, imp, li))
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

// TestImportsRunOneWay holds the layering of the module (layers): the core
// card < shoe < rules < engine < analysis, sim, on the standard library
// alone; then the application < the adapters (stores, HTTP, the web client)
// < the server < the programs; their tests included.
func TestImportsRunOneWay(t *testing.T) {
	pkgs := goList(t)
	seen := map[string]bool{}
	for _, p := range pkgs {
		seen[basePath(p.ImportPath)] = true
	}
	for p := range layers {
		if !seen[p] {
			t.Errorf("go list does not list %s: the check would hold nothing", p)
		}
	}
	for _, v := range layerViolations(pkgs) {
		t.Error(v)
	}
}

// TestLayerViolationsFound: the check finds an import upward, in the core
// and above it, a core package importing outside the standard library (its
// tests too), and a package with no layer; it lets the programs import
// anything and places a store's driver by its path.
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
		{ImportPath: "sabot/table", Imports: []string{"sabot/engine", "sabot/internal/webapi"}},
		{ImportPath: "sabot/internal/store/mysql", Imports: []string{"sabot", "github.com/x/y"}},
		{ImportPath: "sabot/internal/webapi_test [sabot/internal/webapi.test]", ForTest: "sabot/internal/webapi", Imports: []string{"sabot/internal/webtest"}},
		{ImportPath: "sabot/cmd/sabot", Imports: []string{"sabot/internal/server", "sabot/internal/store/mysql", "sabot/web"}},
		{ImportPath: "sabot/internal/newthing", Imports: []string{"sabot"}},
	}
	want := []string{
		"sabot/engine (core) imports github.com/x/y, outside the standard library",
		"sabot/internal/newthing has no layer: place it in layers_test.go",
		"sabot/internal/webapi_test [sabot/internal/webapi.test] (layer 6) imports sabot/internal/webtest (layer 8), above it",
		"sabot/rules (layer 2) imports sabot/engine (layer 3), above it",
		"sabot/shoe_test [sabot/shoe.test] (layer 1) imports sabot/sim (layer 4), above it",
		"sabot/table (layer 5) imports sabot/internal/webapi (layer 6), above it",
		"sabot/web (layer 6) imports sabot/internal/server (layer 7), above it",
	}
	if got := layerViolations(pkgs); !slices.Equal(got, want) {
		t.Errorf("violations:\n%s\nwant:\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"))
	}
}
