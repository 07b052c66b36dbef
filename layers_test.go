package sabot_test

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"go/parser"
	"go/token"
	"io"
	"io/fs"
	"maps"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"slices"
	"strconv"
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
//	     client's files and its API, the wire types of the table server's
//	     API (requests, answers, views, events) and its small leaf
//	     mechanisms
//	7    the table server's subsystems, each a package behind a narrow
//	     interface (player care, the cluster, the operator's wallet, the
//	     staff's live table, recall), and the Go client of the API (its
//	     bots and hostile client): none imports another
//	8    the table actor (a table's loop, its log and its timers) and
//	     the table server, which runs the actors and mounts the
//	     subsystems; the server imports the actor, not the reverse
//	9    the programs and the end-to-end tests
var layers = map[string]int{
	"sabot/money": 0,
	// How a test waits for a state (imported by tests only).
	"sabot/internal/testwait": 0,
	"sabot/card":              0,
	"sabot/shoe":              1,
	"sabot/rules":             2,
	"sabot/engine":            3,
	"sabot/analysis":          4,
	"sabot/sim":               4,

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
	// The pit's reports: tables, players, the return watched.
	"sabot/internal/report": 6,

	// The table server's API as types: requests, answers, views, events.
	"sabot/internal/wire": 6,
	// The table log's stored format: each kind's payload, one type, and
	// the partial reads the reports need.
	"sabot/internal/tablelog": 6,
	// The seed key: a shoe sealed until it is dealt, the commitment.
	"sabot/internal/seal": 6,

	// The table server's subsystems: player care; the cluster
	// (leases, fencing, nodes, forwarding); the operator's wallet and its
	// delivery; the staff's live table (console, devices, corrections,
	// walk-ins); recall; and the Go client of the API, its bots and its
	// hostile client.
	"sabot/internal/care":     7,
	"sabot/internal/cluster":  7,
	"sabot/internal/operator": 7,
	"sabot/internal/live":     7,
	"sabot/internal/recall":   7,
	"sabot/internal/client":   7,

	// A table's actor: its loop, its commands, its log and its timers.
	"sabot/internal/actor":  8,
	"sabot/internal/server": 8,

	"sabot/cmd/sabot":        9,
	"sabot/internal/webtest": 9,
}

// layerTrees place every package under a path: a store's driver, a command.
var layerTrees = map[string]int{
	"sabot/internal/store/": 6,
	"sabot/cmd/":            9,
}

const coreTop = 4

// sameLayer is what a package may import from its own layer: nothing but
// what it is given here. Within a layer imports run one way too: the
// simulator reads the analysis, not the reverse; a store's driver builds
// on sqlstore and the web client's files on httpjson, not on each other;
// the wallet does not read the store, nor the store the web client.
var sameLayer = map[string][]string{
	"sabot/sim": {"sabot/analysis"}, // the analysis's basic strategy

	"sabot/play":     {"sabot/internal/english"},
	"sabot/scenario": {"sabot/internal/profilefile"},

	"sabot/internal/store":            {"sabot/internal/store/postgres", "sabot/internal/store/sqlite"},
	"sabot/internal/store/postgres":   {"sabot/internal/store/sqlstore"},
	"sabot/internal/store/sqlite":     {"sabot/internal/store/sqlstore"},
	"sabot/internal/store/storetest":  {"sabot/internal/store/sqlstore"},
	"sabot/internal/wallet/walletsim": {"sabot/internal/wallet"},
	"sabot/internal/webapi":           {"sabot/internal/httpjson"},
	"sabot/web":                       {"sabot/internal/httpjson"},
	"sabot/internal/certify":          {"sabot/internal/webapi", "sabot/web"},
	"sabot/internal/server":           {"sabot/internal/actor"},
	// The log's settlements carry the API's bet and hand results; the
	// reports read the log through its types.
	"sabot/internal/tablelog": {"sabot/internal/wire"},
	"sabot/internal/report":   {"sabot/internal/tablelog"},
}

// sameLayerTests is what a package's tests may import from its layer
// besides sameLayer's: the store's suite, the reference operator, the web
// client that the API serves, the wire's names the web client is held to.
var sameLayerTests = map[string][]string{
	"sabot/internal/store":          {"sabot/internal/store/storetest"},
	"sabot/internal/store/postgres": {"sabot/internal/store/storetest"},
	"sabot/internal/store/sqlite":   {"sabot/internal/store/storetest"},
	"sabot/internal/wallet":         {"sabot/internal/wallet/walletsim"},
	"sabot/internal/webapi":         {"sabot/web"},
	"sabot/web":                     {"sabot/internal/wire"}, // the client's ops and event kinds held to the wire's (web/wire_test.go)
}

// sameLayerAllowed reports whether pkg (its tests, if test) may import imp
// of its own layer.
func sameLayerAllowed(pkg, imp string, test bool) bool {
	return imp == pkg || slices.Contains(sameLayer[pkg], imp) || test && slices.Contains(sameLayerTests[pkg], imp)
}

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
			case li == l && !sameLayerAllowed(name, imp, p.ForTest != ""):
				bad = append(bad, fmt.Sprintf("%s (layer %d) imports %s of its own layer, which sameLayer does not allow it", p.ImportPath, l, imp))
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

// fileImports reads the imports of every Go file of the module under root
// (module path "sabot"), whatever its build constraints: go list reads a
// package's files for this machine's system and architecture only, and a
// file for another (lock_other.go, graph_other.go) would go unchecked.
// Each file is a package of its own, "PKG (FILE)", held to PKG's layer;
// a _test.go file is PKG's test.
func fileImports(tb testing.TB, root string) []listed {
	tb.Helper()
	var out []listed
	std := map[string]bool{}
	err := filepath.WalkDir(root, func(path string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		name := d.Name()
		if d.IsDir() {
			if path != root && (name == "testdata" || strings.HasPrefix(name, ".") || strings.HasPrefix(name, "_")) {
				return filepath.SkipDir
			}
			return nil
		}
		if !strings.HasSuffix(name, ".go") {
			return nil
		}
		f, err := parser.ParseFile(token.NewFileSet(), path, nil, parser.ImportsOnly)
		if err != nil {
			return err
		}
		rel, err := filepath.Rel(root, filepath.Dir(path))
		if err != nil {
			return err
		}
		pkg := "sabot"
		if rel != "." {
			pkg += "/" + filepath.ToSlash(rel)
		}
		p := listed{ImportPath: pkg + " (" + name + ")"}
		if strings.HasSuffix(name, "_test.go") {
			p.ForTest = pkg
		}
		for _, spec := range f.Imports {
			imp, err := strconv.Unquote(spec.Path.Value)
			if err != nil {
				return err
			}
			p.Imports = append(p.Imports, imp)
			// A path whose first element has no dot is the standard
			// library's (or the module's).
			if first, _, _ := strings.Cut(imp, "/"); !inModule(imp) && !strings.Contains(first, ".") {
				std[imp] = true
			}
		}
		out = append(out, p)
		return nil
	})
	if err != nil {
		tb.Fatal(err)
	}
	for _, imp := range slices.Sorted(maps.Keys(std)) {
		out = append(out, listed{ImportPath: imp, Standard: true})
	}
	return out
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
	// Every file, whatever its build constraints.
	for _, v := range layerViolations(fileImports(t, ".")) {
		t.Error(v)
	}
}

// TestLayerViolationsFound: the check finds an import upward, in the core
// and above it, a core package importing outside the standard library (its
// tests too), a package with no layer, and an import within a layer that
// sameLayer does not allow (the store reading the web client, the wallet
// the store, the analysis the simulator, one of the server's subsystems
// another, the Go client a subsystem; a test's allowance used outside the
// tests); it lets the programs import anything and places a store's
// driver by its path.
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
		// Within a layer: what sameLayer allows, and no more.
		{ImportPath: "sabot/internal/store/sqlstore", Imports: []string{"sabot", "sabot/web"}},
		{ImportPath: "sabot/internal/wallet", Imports: []string{"sabot/internal/store"}},
		{ImportPath: "sabot/internal/store/sqlite", Imports: []string{"sabot/internal/store/sqlstore", "sabot/internal/store/storetest"}},
		{ImportPath: "sabot/internal/store/sqlite_test [sabot/internal/store/sqlite.test]", ForTest: "sabot/internal/store/sqlite", Imports: []string{"sabot/internal/store/sqlite [sabot/internal/store/sqlite.test]", "sabot/internal/store/storetest"}},
		{ImportPath: "sabot/analysis_test [sabot/analysis.test]", ForTest: "sabot/analysis", Imports: []string{"sabot/sim"}},
		// One of the server's subsystems reaching into another, and the
		// client into one of them.
		{ImportPath: "sabot/internal/care", Imports: []string{"sabot", "sabot/internal/wire", "sabot/internal/cluster"}},
		{ImportPath: "sabot/internal/client", Imports: []string{"sabot/internal/wire", "sabot/internal/recall"}},
	}
	want := []string{
		"sabot/analysis_test [sabot/analysis.test] (layer 4) imports sabot/sim of its own layer, which sameLayer does not allow it",
		"sabot/engine (core) imports github.com/x/y, outside the standard library",
		"sabot/internal/care (layer 7) imports sabot/internal/cluster of its own layer, which sameLayer does not allow it",
		"sabot/internal/client (layer 7) imports sabot/internal/recall of its own layer, which sameLayer does not allow it",
		"sabot/internal/newthing has no layer: place it in layers_test.go",
		"sabot/internal/store/sqlite (layer 6) imports sabot/internal/store/storetest of its own layer, which sameLayer does not allow it",
		"sabot/internal/store/sqlstore (layer 6) imports sabot/web of its own layer, which sameLayer does not allow it",
		"sabot/internal/wallet (layer 6) imports sabot/internal/store of its own layer, which sameLayer does not allow it",
		"sabot/internal/webapi_test [sabot/internal/webapi.test] (layer 6) imports sabot/internal/webtest (layer 9), above it",
		"sabot/rules (layer 2) imports sabot/engine (layer 3), above it",
		"sabot/shoe_test [sabot/shoe.test] (layer 1) imports sabot/sim (layer 4), above it",
		"sabot/table (layer 5) imports sabot/internal/webapi (layer 6), above it",
		"sabot/web (layer 6) imports sabot/internal/server (layer 8), above it",
	}
	if got := layerViolations(pkgs); !slices.Equal(got, want) {
		t.Errorf("violations:\n%s\nwant:\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"))
	}
}

// TestFileImportsReadsEveryBuildConstraint: a file built on no system
// this machine is, and a test file, are read as their package's: an
// import upward and outside the standard library in them is found.
func TestFileImportsReadsEveryBuildConstraint(t *testing.T) {
	root := t.TempDir()
	write := func(name, text string) {
		path := filepath.Join(root, filepath.FromSlash(name))
		if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(path, []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	write("card/card.go", "package card\n\nimport \"fmt\"\n\nvar _ = fmt.Sprint\n")
	write("card/card_plan9.go", "//go:build plan9\n\npackage card\n\nimport _ \"sabot/engine\"\n")
	write("card/x_test.go", "//go:build never\n\npackage card_test\n\nimport _ \"github.com/x/y\"\n")
	write("card/testdata/t.go", "package t\n\nimport _ \"sabot/engine\"\n")
	write("internal/store/sqlstore/s.go", "//go:build windows\n\npackage sqlstore\n\nimport _ \"sabot/web\"\n")
	want := []string{
		"sabot/card (card_plan9.go) (layer 0) imports sabot/engine (layer 3), above it",
		"sabot/card (x_test.go) (core) imports github.com/x/y, outside the standard library",
		"sabot/internal/store/sqlstore (s.go) (layer 6) imports sabot/web of its own layer, which sameLayer does not allow it",
	}
	if got := layerViolations(fileImports(t, root)); !slices.Equal(got, want) {
		t.Errorf("violations:\n%s\nwant:\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"))
	}
}
