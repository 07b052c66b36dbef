package server

import (
	"os"
	"regexp"
	"sabot/internal/actor"
	"slices"
	"strings"
	"testing"
)

// docs/openapi.yaml documents every route the server serves, and nothing
// else: its operations are read from the spec; the routes from the
// registrations in the sources (http.go, internal/webapi/api.go) and the command ops.
func TestOpenAPIMatchesRoutes(t *testing.T) {
	t.Parallel()
	spec, err := os.ReadFile("../../docs/openapi.yaml")
	if err != nil {
		t.Fatal(err)
	}
	var documented []string
	path := ""
	pathLine := regexp.MustCompile(`^  (/\S*):\s*$`)
	opLine := regexp.MustCompile(`^    (get|post|put|patch|delete):`)
	inPaths := false
	for _, l := range strings.Split(string(spec), "\n") {
		if l == "paths:" {
			inPaths = true
			continue
		}
		if !inPaths {
			continue
		}
		if m := pathLine.FindStringSubmatch(l); m != nil {
			path = m[1]
		} else if m := opLine.FindStringSubmatch(l); m != nil && path != "" {
			documented = append(documented, strings.ToUpper(m[1])+" "+path)
		}
	}

	var served []string
	literal := regexp.MustCompile(`"((?:GET|POST|PUT|PATCH|DELETE) /[^"]*)"`)
	for _, src := range []string{"http.go", "../webapi/api.go"} {
		b, err := os.ReadFile(src)
		if err != nil {
			t.Fatal(err)
		}
		for _, m := range literal.FindAllStringSubmatch(string(b), -1) {
			if !strings.HasSuffix(m[1], "/") { // POST /api/tables/{id}/ + op: below
				served = append(served, m[1])
			}
		}
	}
	for _, c := range actor.Ops() {
		served = append(served, commandRoute(c))
	}
	slices.Sort(documented)
	slices.Sort(served)
	if len(served) < 20 {
		t.Fatalf("found only %d routes in the sources: %v", len(served), served)
	}
	for _, r := range served {
		if _, ok := slices.BinarySearch(documented, r); !ok {
			t.Errorf("served but not in docs/openapi.yaml: %s", r)
		}
	}
	for _, r := range documented {
		if _, ok := slices.BinarySearch(served, r); !ok {
			t.Errorf("in docs/openapi.yaml but not served: %s", r)
		}
	}
}
