// Package specop is a second operator's wallet, written from
// docs/wallet.yaml alone: it imports nothing of sabot's
// wallet client or of the reference operator (walletsim), so a test that
// plays against it proves the protocol as documented, not as one
// implementation understands it. It also reads the spec's schemas and
// checks every message against them (Spec, Checked).
package specop

import (
	"encoding/json"
	"fmt"
	"math"
	"os"
	"regexp"
	"slices"
	"sort"
	"strings"
	"time"

	"go.yaml.in/yaml/v3"
)

// Spec is docs/wallet.yaml: the schema of each operation's request, of an
// answer and of the operator's statement.
type Spec struct {
	schemas  map[string]any // components.schemas
	requests map[string]any // operation → its request's schema
}

// Load reads the spec.
func Load(path string) (*Spec, error) {
	b, err := os.ReadFile(path)
	if err != nil {
		return nil, err
	}
	var doc map[string]any
	if err := yaml.Unmarshal(b, &doc); err != nil {
		return nil, fmt.Errorf("%s: %v", path, err)
	}
	sp := &Spec{requests: map[string]any{}}
	comp, _ := doc["components"].(map[string]any)
	sp.schemas, _ = comp["schemas"].(map[string]any)
	if sp.schemas == nil {
		return nil, fmt.Errorf("%s: no components.schemas", path)
	}
	paths, _ := doc["paths"].(map[string]any)
	for p, v := range paths {
		post, _ := dig(v, "post").(map[string]any)
		schema := dig(post, "requestBody", "content", "application/json", "schema")
		if schema == nil {
			return nil, fmt.Errorf("%s: %s has no request schema", path, p)
		}
		sp.requests[strings.TrimPrefix(p, "/")] = schema
	}
	if len(sp.requests) == 0 {
		return nil, fmt.Errorf("%s: no paths", path)
	}
	return sp, nil
}

func dig(v any, keys ...string) any {
	for _, k := range keys {
		m, ok := v.(map[string]any)
		if !ok {
			return nil
		}
		v = m[k]
	}
	return v
}

// Ops are the operations the spec has, sorted.
func (sp *Spec) Ops() []string {
	var ops []string
	for op := range sp.requests {
		ops = append(ops, op)
	}
	sort.Strings(ops)
	return ops
}

// Enum is the values a property of a named schema may take (nil: no enum).
func (sp *Spec) Enum(schema, property string) []string {
	e := dig(sp.schemas[schema], "properties", property, "enum")
	if e == nil {
		return nil
	}
	return list(e)
}

// Request checks a request's body against its operation's schema.
func (sp *Spec) Request(op string, body []byte) error {
	schema, ok := sp.requests[op]
	if !ok {
		return fmt.Errorf("no operation %q in the spec", op)
	}
	return sp.check(schema, body)
}

// Answer checks an answer's body against the Response schema.
func (sp *Spec) Answer(body []byte) error { return sp.Schema("Response", body) }

// Schema checks a document against a named schema of the spec.
func (sp *Spec) Schema(name string, body []byte) error {
	schema, ok := sp.schemas[name]
	if !ok {
		return fmt.Errorf("no schema %q in the spec", name)
	}
	return sp.check(schema, body)
}

func (sp *Spec) check(schema any, body []byte) error {
	var v any
	d := json.NewDecoder(strings.NewReader(string(body)))
	d.UseNumber()
	if err := d.Decode(&v); err != nil {
		return fmt.Errorf("not JSON: %v", err)
	}
	var errs []string
	sp.validate(schema, v, "", &errs)
	if len(errs) > 0 {
		return fmt.Errorf("%s", strings.Join(errs, "; "))
	}
	return nil
}

// validate checks a value against the part of JSON Schema the spec uses:
// $ref, type, required, properties, additionalProperties (false), items,
// enum, minLength, maxLength, minimum, pattern, format date-time.
func (sp *Spec) validate(schema, v any, at string, errs *[]string) {
	s, _ := schema.(map[string]any)
	if s == nil {
		return
	}
	where := at
	if where == "" {
		where = "the body"
	}
	fail := func(format string, a ...any) { *errs = append(*errs, where+": "+fmt.Sprintf(format, a...)) }
	if ref, ok := s["$ref"].(string); ok {
		name := strings.TrimPrefix(ref, "#/components/schemas/")
		target, ok := sp.schemas[name]
		if !ok {
			fail("the spec has no %s", ref)
			return
		}
		sp.validate(target, v, at, errs)
		return
	}
	switch t, _ := s["type"].(string); t {
	case "object":
		m, ok := v.(map[string]any)
		if !ok {
			fail("not an object")
			return
		}
		props, _ := s["properties"].(map[string]any)
		for _, r := range list(s["required"]) {
			if _, ok := m[r]; !ok {
				fail("%s is required", r)
			}
		}
		keys := make([]string, 0, len(m))
		for k := range m {
			keys = append(keys, k)
		}
		sort.Strings(keys)
		for _, k := range keys {
			p, ok := props[k]
			if !ok {
				if ap, isBool := s["additionalProperties"].(bool); isBool && !ap {
					fail("%s is not in the spec", k)
				}
				continue
			}
			sp.validate(p, m[k], at+"."+k, errs)
		}
	case "array":
		a, ok := v.([]any)
		if !ok {
			fail("not an array")
			return
		}
		for i, x := range a {
			sp.validate(s["items"], x, fmt.Sprintf("%s[%d]", at, i), errs)
		}
	case "string":
		str, ok := v.(string)
		if !ok {
			fail("not a string: %v", v)
			return
		}
		if n, ok := number(s["minLength"]); ok && float64(len(str)) < n {
			fail("%q is shorter than %v", str, n)
		}
		if n, ok := number(s["maxLength"]); ok && float64(len(str)) > n {
			fail("%q is longer than %v", str, n)
		}
		if p, ok := s["pattern"].(string); ok {
			if re, err := regexp.Compile(p); err != nil || !re.MatchString(str) {
				fail("%q does not match %s", str, p)
			}
		}
		if f, _ := s["format"].(string); f == "date-time" {
			if _, err := time.Parse(time.RFC3339Nano, str); err != nil {
				fail("%q is not an RFC 3339 time", str)
			}
		}
	case "integer":
		n, ok := v.(json.Number)
		if !ok {
			fail("not an integer: %v", v)
			return
		}
		i, err := n.Int64()
		if err != nil {
			fail("not an integer: %s", n)
			return
		}
		if min, ok := number(s["minimum"]); ok && float64(i) < min {
			fail("%d is under %v", i, min)
		}
	case "boolean":
		if _, ok := v.(bool); !ok {
			fail("not a boolean: %v", v)
		}
	}
	if e := s["enum"]; e != nil {
		str := fmt.Sprint(v)
		if !slices.Contains(list(e), str) {
			fail("%q is not one of %v", str, list(e))
		}
	}
}

func list(v any) []string {
	a, _ := v.([]any)
	out := make([]string, 0, len(a))
	for _, x := range a {
		out = append(out, fmt.Sprint(x))
	}
	return out
}

func number(v any) (float64, bool) {
	switch n := v.(type) {
	case int:
		return float64(n), true
	case float64:
		return n, !math.IsNaN(n)
	}
	return 0, false
}
