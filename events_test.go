package sabot_test

import (
	"go/ast"
	"go/parser"
	"go/token"
	"path/filepath"
	"strings"
	"testing"
)

// TestEventsWrittenByTheirType: no package's non-test code builds a
// significant event as a wire.AdminEvent: every writer builds the event's
// own type (internal/tablelog's Event), whose JSON is the AdminEvent's,
// and the sinks (the server's event, care's, live's and the operator's
// Event) take only that. Only tablelog, which converts its types to the
// record, and wire, which declares it, name the record's literal; the
// readers decode into a declared variable, which is no literal.
func TestEventsWrittenByTheirType(t *testing.T) {
	found := inGoSources(t, func(dir string) bool {
		return dir == filepath.Join("internal", "tablelog") || dir == filepath.Join("internal", "wire")
	}, adminLiterals)
	for _, a := range found {
		t.Errorf("%s: a significant event written as a wire.AdminEvent; build its type (internal/tablelog/events.go)", a)
	}
}

// adminLiterals are the places f builds a wire.AdminEvent: a composite
// literal of it (a slice's elements too) or new(wire.AdminEvent), each as
// file:line.
func adminLiterals(fset *token.FileSet, f *ast.File) []string {
	isAdmin := func(e ast.Expr) bool {
		s, ok := e.(*ast.SelectorExpr)
		if !ok || s.Sel.Name != "AdminEvent" {
			return false
		}
		x, ok := s.X.(*ast.Ident)
		return ok && x.Name == "wire"
	}
	var out []string
	ast.Inspect(f, func(n ast.Node) bool {
		switch n := n.(type) {
		case *ast.CompositeLit:
			typ := n.Type
			if a, ok := typ.(*ast.ArrayType); ok {
				typ = a.Elt
			}
			if isAdmin(typ) {
				out = append(out, fset.Position(n.Pos()).String())
			}
		case *ast.CallExpr:
			if id, ok := n.Fun.(*ast.Ident); ok && id.Name == "new" && len(n.Args) == 1 && isAdmin(n.Args[0]) {
				out = append(out, fset.Position(n.Pos()).String())
			}
		}
		return true
	})
	return out
}

// TestEventsWrittenByTheirTypeSeesOne: the check finds a literal, a
// slice of them and new, and not a variable declared to decode into.
func TestEventsWrittenByTheirTypeSeesOne(t *testing.T) {
	src := `package p
import "sabot/internal/wire"
func a() any { return wire.AdminEvent{Event: "credit"} }
func b() any { return []wire.AdminEvent{{Event: "credit"}} }
func c() any { return new(wire.AdminEvent) }
func d() any { var p wire.AdminEvent; return p }
`
	fset := token.NewFileSet()
	f, err := parser.ParseFile(fset, "p.go", src, 0)
	if err != nil {
		t.Fatal(err)
	}
	got := adminLiterals(fset, f)
	want := []string{"p.go:3:23", "p.go:4:23", "p.go:5:23"}
	if strings.Join(got, " ") != strings.Join(want, " ") {
		t.Errorf("found %q, want %q", got, want)
	}
}
