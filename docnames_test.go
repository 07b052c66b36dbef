package sabot_test

import (
	"go/ast"
	"go/parser"
	"go/token"
	"io/fs"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
)

// TestDocsNameWhatExists holds the documentation to the code: every Go name
// a doc writes as `pkg.Name` or `pkg.Type.Member` (README.md, docs/*.md,
// every other Markdown file of the module) is declared by a package of
// that name in the module, and every file path it names (`internal/…/x.go`,
// `web/static/js/x.js`, …) exists. A name of a package outside the module
// (the standard library, a dependency) is not checked; a package name the
// build knows nowhere is an error, since it is most likely one that was
// renamed. A rename that leaves a doc behind fails here, naming the doc,
// its line and the name.
func TestDocsNameWhatExists(t *testing.T) {
	decls := moduleDecls(t)
	outside := outsideNames(t)
	qualified := regexp.MustCompile("`([a-z][a-z0-9]*)\\.([A-Z][A-Za-z0-9_]*)(?:\\.([A-Z][A-Za-z0-9_]*))?(?:\\(\\))?`")
	path := regexp.MustCompile("`((?:cmd|internal|web|docs|scripts|deploy|analysis|card|engine|money|play|profile|rules|scenario|shoe|sim|table)/[A-Za-z0-9_./-]+\\.(?:go|js|mjs|md|css|html|json|yaml|sh|sql|toml|csv))`")

	var docs []string
	err := filepath.WalkDir(".", func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if d.IsDir() && (strings.HasPrefix(d.Name(), ".") && p != "." || d.Name() == "node_modules" || d.Name() == "testdata") {
			return filepath.SkipDir
		}
		if !d.IsDir() && strings.HasSuffix(p, ".md") {
			docs = append(docs, p)
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	checked := 0
	for _, doc := range docs {
		data, err := os.ReadFile(doc)
		if err != nil {
			t.Fatal(err)
		}
		for i, line := range strings.Split(string(data), "\n") {
			for _, m := range qualified.FindAllStringSubmatch(line, -1) {
				pkg, name, member := m[1], m[2], m[3]
				d, ours := decls[pkg]
				if !ours {
					if !outside[pkg] {
						t.Errorf("%s:%d: `%s`: no package %q in the module or its dependencies", doc, i+1, strings.Trim(m[0], "`"), pkg)
					}
					continue
				}
				checked++
				if !d.names[name] {
					t.Errorf("%s:%d: `%s`: package %s declares no %s", doc, i+1, strings.Trim(m[0], "`"), pkg, name)
					continue
				}
				if member != "" && !d.members[name+"."+member] {
					t.Errorf("%s:%d: `%s`: %s.%s has no method or field %s", doc, i+1, strings.Trim(m[0], "`"), pkg, name, member)
				}
			}
			for _, m := range path.FindAllStringSubmatch(line, -1) {
				if strings.ContainsAny(m[1], "*…") {
					continue
				}
				checked++
				if _, err := os.Stat(m[1]); err != nil {
					t.Errorf("%s:%d: `%s`: no such file", doc, i+1, m[1])
				}
			}
		}
	}
	if checked < 100 {
		t.Fatalf("only %d names checked: the patterns no longer match the docs", checked)
	}
}

// pkgDecls are the top-level names of the module's packages of one name
// (several directories may share it), and their types' methods and
// struct fields as "Type.Member".
type pkgDecls struct {
	names   map[string]bool
	members map[string]bool
}

func moduleDecls(t *testing.T) map[string]*pkgDecls {
	t.Helper()
	out := map[string]*pkgDecls{}
	fset := token.NewFileSet()
	err := filepath.WalkDir(".", func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if d.IsDir() {
			if p != "." && (strings.HasPrefix(d.Name(), ".") || d.Name() == "testdata" || d.Name() == "node_modules") {
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
		pd := out[f.Name.Name]
		if pd == nil {
			pd = &pkgDecls{names: map[string]bool{}, members: map[string]bool{}}
			out[f.Name.Name] = pd
		}
		for _, decl := range f.Decls {
			switch decl := decl.(type) {
			case *ast.FuncDecl:
				if decl.Recv == nil {
					pd.names[decl.Name.Name] = true
					continue
				}
				if recv := receiverName(decl.Recv.List[0].Type); recv != "" {
					pd.members[recv+"."+decl.Name.Name] = true
				}
			case *ast.GenDecl:
				for _, spec := range decl.Specs {
					switch spec := spec.(type) {
					case *ast.TypeSpec:
						pd.names[spec.Name.Name] = true
						addMembers(pd, spec.Name.Name, spec.Type)
					case *ast.ValueSpec:
						for _, n := range spec.Names {
							pd.names[n.Name] = true
						}
					}
				}
			}
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	return out
}

func addMembers(pd *pkgDecls, typ string, expr ast.Expr) {
	switch expr := expr.(type) {
	case *ast.StructType:
		for _, f := range expr.Fields.List {
			for _, n := range f.Names {
				pd.members[typ+"."+n.Name] = true
			}
			if len(f.Names) == 0 { // an embedded field is named by its type
				if n := receiverName(f.Type); n != "" {
					pd.members[typ+"."+n] = true
				}
			}
		}
	case *ast.InterfaceType:
		for _, m := range expr.Methods.List {
			for _, n := range m.Names {
				pd.members[typ+"."+n.Name] = true
			}
		}
	}
}

func receiverName(expr ast.Expr) string {
	for {
		switch e := expr.(type) {
		case *ast.StarExpr:
			expr = e.X
		case *ast.IndexExpr:
			expr = e.X
		case *ast.IndexListExpr:
			expr = e.X
		case *ast.SelectorExpr:
			return e.Sel.Name
		case *ast.Ident:
			return e.Name
		default:
			return ""
		}
	}
}

// outsideNames are the package names of the standard library and of the
// module's dependencies, which a doc may name without their being checked.
func outsideNames(t *testing.T) map[string]bool {
	t.Helper()
	cmd := exec.Command("go", "list", "-deps", "-test", "-f", "{{.Name}}", "std", "./...")
	out, err := cmd.Output()
	if err != nil {
		t.Fatalf("go list: %v", err)
	}
	names := map[string]bool{}
	for _, n := range strings.Fields(string(out)) {
		names[n] = true
	}
	// Names the docs use for programs and tools that are not Go packages of
	// the build: the Go toolchain's own commands and the CLI's verbs.
	for _, n := range []string{"go"} {
		names[n] = true
	}
	return names
}
