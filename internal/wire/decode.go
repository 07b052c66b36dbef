package wire

import (
	"bytes"
	"encoding/json"
	"fmt"
	"io"
	"reflect"
	"strings"
	"sync"
	"unicode"
	"unicode/utf8"

	"sabot"
)

// Decode decodes one JSON object into v, a pointer to a struct, more
// strictly than encoding/json (issue 11, finding 12): every field of the
// object must be one of v's, spelled exactly as its tag says (encoding/json
// would take "Stake" for "stake"), and at most once; nothing but white
// space may follow the object. The WebSocket's commands and the HTTP bodies
// are read with it.
func Decode(data []byte, v any) error {
	if err := exactFields(data, v); err != nil {
		return err
	}
	dec := json.NewDecoder(bytes.NewReader(data))
	dec.DisallowUnknownFields()
	if err := dec.Decode(v); err != nil {
		return sabot.Errorf(sabot.EINVALID, "bad JSON body: %v", err)
	}
	if _, err := dec.Token(); err != io.EOF {
		return sabot.Errorf(sabot.EINVALID, "bad JSON body: something follows the JSON object")
	}
	return nil
}

// exactFields checks the names of the top-level fields of a JSON object
// against the JSON names of v's struct fields.
func exactFields(data []byte, v any) error {
	names := jsonNames(reflect.TypeOf(v).Elem())
	dec := json.NewDecoder(bytes.NewReader(data))
	// The reason quotes what it refuses: on one line and short.
	bad := func(format string, args ...any) error {
		return sabot.Errorf(sabot.EINVALID, "bad JSON body: %s", Brief(fmt.Sprintf(format, args...)))
	}
	t, err := dec.Token()
	if err != nil {
		if err == io.EOF {
			return bad("no JSON object")
		}
		return bad("%v", err)
	}
	if t != json.Delim('{') {
		return bad("a JSON object is expected")
	}
	seen := map[string]bool{}
	for dec.More() {
		t, err := dec.Token()
		if err != nil {
			return bad("%v", err)
		}
		key, _ := t.(string)
		if !names[key] {
			for n := range names {
				if strings.EqualFold(n, key) {
					return bad("unknown field %q (field names are exact: %q)", key, n)
				}
			}
			return bad("unknown field %q", key)
		}
		if seen[key] {
			return bad("the field %q is given twice", key)
		}
		seen[key] = true
		var skip json.RawMessage
		if err := dec.Decode(&skip); err != nil {
			return bad("%v", err)
		}
	}
	return nil
}

var jsonNameCache sync.Map // reflect.Type → map[string]bool

// jsonNames returns the JSON names of a struct type's fields.
func jsonNames(t reflect.Type) map[string]bool {
	if m, ok := jsonNameCache.Load(t); ok {
		return m.(map[string]bool)
	}
	m := map[string]bool{}
	for i := range t.NumField() {
		f := t.Field(i)
		if !f.IsExported() {
			continue
		}
		name, _, _ := strings.Cut(f.Tag.Get("json"), ",")
		switch name {
		case "-":
			continue
		case "":
			name = f.Name
		}
		m[name] = true
	}
	jsonNameCache.Store(t, m)
	return m
}

// Brief is a text a refusal quotes, on one line and at most 120 bytes.
func Brief(s string) string {
	s = strings.Map(func(r rune) rune {
		if unicode.IsControl(r) {
			return ' '
		}
		return r
	}, s)
	if len(s) > 120 {
		cut := 117
		for cut > 0 && !utf8.RuneStart(s[cut]) {
			cut--
		}
		s = s[:cut] + "…"
	}
	return s
}
