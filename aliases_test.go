package sabot_test

import (
	"go/ast"
	"go/parser"
	"go/token"
	"io/fs"
	"path/filepath"
	"strings"
	"testing"
)

// TestNoTypeAliases: no package of the module declares a type alias
// (`type X = Y`) in its non-test code: a type has one name, and a rename
// renames its users rather than keeping the old name as an alias
// (docs/architecture.md). An alias declared inside a function, a short
// name for one function's body, keeps no old name and is not counted.
func TestNoTypeAliases(t *testing.T) {
	found := inGoSources(t, nil, fileAliases)
	for _, a := range found {
		t.Errorf("%s: a type alias; name the type itself", a)
	}
}

// fileAliases are the type aliases f declares at its top level, each as
// file:line: type X = Y.
func fileAliases(fset *token.FileSet, f *ast.File) []string {
	var out []string
	for _, d := range f.Decls {
		g, ok := d.(*ast.GenDecl)
		if !ok || g.Tok != token.TYPE {
			continue
		}
		for _, s := range g.Specs {
			if ts := s.(*ast.TypeSpec); ts.Assign.IsValid() {
				out = append(out, fset.Position(ts.Pos()).String()+": type "+ts.Name.Name+" = …")
			}
		}
	}
	return out
}

// TestNoTypeAliasesSeesOne: the check finds an alias at a file's top
// level, grouped or not, and not one inside a function nor a type
// definition.
func TestNoTypeAliasesSeesOne(t *testing.T) {
	src := `package p
type A = int
type (
	B int
	C = string
)
func f() { type D = int; _ = D(0) }
`
	fset := token.NewFileSet()
	f, err := parser.ParseFile(fset, "p.go", src, 0)
	if err != nil {
		t.Fatal(err)
	}
	got := strings.Join(fileAliases(fset, f), "\n")
	want := "p.go:2:6: type A = …\np.go:5:2: type C = …"
	if got != want {
		t.Errorf("aliases found:\n%s\nwant\n%s", got, want)
	}
}

// inGoSources is what find reports in every non-test Go file of the
// repository (hidden folders, node_modules, testdata and the folders skip
// names left out), in walking order.
func inGoSources(t *testing.T, skip func(dir string) bool, find func(*token.FileSet, *ast.File) []string) []string {
	t.Helper()
	fset := token.NewFileSet()
	var found []string
	err := filepath.WalkDir(".", func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if d.IsDir() {
			if n := d.Name(); strings.HasPrefix(n, ".") && p != "." || n == "node_modules" || n == "testdata" ||
				skip != nil && skip(p) {
				return filepath.SkipDir
			}
			return nil
		}
		if !strings.HasSuffix(p, ".go") || strings.HasSuffix(p, "_test.go") {
			return nil
		}
		f, err := parser.ParseFile(fset, p, nil, parser.SkipObjectResolution)
		if err != nil {
			return err
		}
		found = append(found, find(fset, f)...)
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	return found
}
