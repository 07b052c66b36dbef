package wire

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"reflect"
	"slices"
	"strings"
	"sync"
	"unicode"
	"unicode/utf8"

	"sabot"
)

// Decode decodes one JSON object into v, a pointer to a struct, more
// strictly than encoding/json: every field of the
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

// Body is a table command's JSON object as DecodeCommand read it: the
// object, and the names of its fields besides the envelope's, which the
// op's request reads (DecodeRequest).
type Body struct {
	data   []byte
	fields []string
}

// envelopeNames are the JSON names of the envelope's fields.
var envelopeNames = jsonNames(reflect.TypeFor[Envelope]())

// commandNames are the JSON names of every field a command may have: the
// envelope's and each request's. A field of none is refused as no field
// (as the one body every command was sent in refused it); a field of
// another command's request is refused by the command's (DecodeRequest).
var commandNames = sync.OnceValue(func() map[string]bool {
	m := map[string]bool{}
	for n := range envelopeNames {
		m[n] = true
	}
	for _, r := range Requests() {
		for n := range jsonNames(reflect.TypeOf(r)) {
			m[n] = true
		}
	}
	return m
})

// DecodeCommand reads a table command's JSON object: its envelope, and
// the body its op's request is read from (DecodeRequest). It is as strict
// as Decode: every field spelled exactly as some command's, at most once,
// of the envelope's types; nothing but white space after the object.
func DecodeCommand(data []byte) (Envelope, Body, error) {
	var env Envelope
	body := Body{data: data}
	names := commandNames()
	// A refusal of the object's names or syntax says no envelope (no
	// command ID goes with it), as the one body every command had said none.
	bad := func(format string, args ...any) (Envelope, Body, error) {
		return Envelope{}, Body{}, sabot.Errorf(sabot.EINVALID, "bad JSON body: %s", Brief(fmt.Sprintf(format, args...)))
	}
	dec := json.NewDecoder(bytes.NewReader(data))
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
	var seen [8]string // most commands have few fields
	given := seen[:0]
	var typeErr error // an envelope's field of another type: refused once every name is checked, as Decode does
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
		if slices.Contains(given, key) {
			return bad("the field %q is given twice", key)
		}
		given = append(given, key)
		var v any
		switch key {
		case "op":
			v = &env.Op
		case "command_id":
			v = &env.CommandID
		case "client_id":
			v = &env.ClientID
		case "walk_in":
			v = &env.WalkIn
		default:
			body.fields = append(body.fields, key)
			var skip json.RawMessage
			v = &skip
		}
		if err := dec.Decode(v); err != nil {
			var te *json.UnmarshalTypeError
			if errors.As(err, &te) {
				if typeErr == nil {
					typeErr = sabot.Errorf(sabot.EINVALID, "bad JSON body: json: cannot unmarshal %s into the field %q of type %s", te.Value, key, te.Type)
				}
				continue
			}
			return bad("%v", err)
		}
	}
	if _, err := dec.Token(); err != nil { // the object's end
		if err == io.EOF {
			err = io.ErrUnexpectedEOF
		}
		return bad("%v", err)
	}
	if _, err := dec.Token(); err != io.EOF { // the object was read: its envelope goes with the refusal
		return env, body, sabot.Errorf(sabot.EINVALID, "bad JSON body: something follows the JSON object")
	}
	return env, body, typeErr
}

// DecodeRequest reads an op's own request, R, out of a command's body:
// a field R has not (another command's) is refused (invalid), with the
// fields R has.
func DecodeRequest[R any](op string, b Body) (R, error) {
	var req R
	if len(b.fields) == 0 {
		return req, nil
	}
	names := jsonNames(reflect.TypeFor[R]())
	for _, f := range b.fields {
		if !names[f] {
			return req, sabot.Errorf(sabot.EINVALID, "bad JSON body: %s", Brief(fmt.Sprintf("%s has no field %q (%s)", op, f, fieldList(names))))
		}
	}
	// The envelope's fields are no field of R's: json reads R's alone,
	// their names checked exact above.
	if err := json.Unmarshal(b.data, &req); err != nil {
		return req, sabot.Errorf(sabot.EINVALID, "bad JSON body: %v", err)
	}
	return req, nil
}

// fieldList says a request's fields: "its fields: box, stake", or that it
// has none.
func fieldList(names map[string]bool) string {
	if len(names) == 0 {
		return "it takes none besides command_id and client_id"
	}
	list := make([]string, 0, len(names))
	for n := range names {
		list = append(list, n)
	}
	slices.Sort(list)
	return "its fields: " + strings.Join(list, ", ")
}
