package server

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"mime"
	"net/http"
	"reflect"
	"strings"
	"sync"
	"unicode"
	"unicode/utf8"

	"sabot"
)

// maxBody bounds a request body.
const maxBody = 1 << 16

// decode reads a request's JSON body into v (a pointer to a struct):
// decodeJSON's rules, and at most limit bytes.
func decode(r *http.Request, v any) error { return decodeLimit(r, v, maxBody) }

func decodeLimit(r *http.Request, v any, limit int64) error {
	data, err := io.ReadAll(http.MaxBytesReader(nil, r.Body, limit))
	if err != nil {
		return sabot.Errorf(sabot.EINVALID, "bad JSON body: %v", err)
	}
	return decodeJSON(data, v)
}

// decodeJSON decodes one JSON object into v, a pointer to a struct, more
// strictly than encoding/json (issue 11, finding 12): every field of the
// object must be one of v's, spelled exactly as its tag says (encoding/json
// would take "Stake" for "stake"), and at most once; nothing but white
// space may follow the object. The WebSocket's commands and the HTTP bodies
// are read with it.
func decodeJSON(data []byte, v any) error {
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
		return sabot.Errorf(sabot.EINVALID, "bad JSON body: %s", brief(fmt.Sprintf(format, args...)))
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

// requireJSON refuses a request to the API with a body that is not
// declared application/json (415): a cross-site form posts
// application/x-www-form-urlencoded, multipart/form-data or text/plain
// without the browser asking the server first (issue 11, finding 12). A
// request without a body (a logout) needs no Content-Type.
func (s *Server) requireJSON(next http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.ContentLength != 0 && strings.HasPrefix(r.URL.Path, "/api/") &&
			(r.Method == http.MethodPost || r.Method == http.MethodPut || r.Method == http.MethodPatch) {
			mt, _, err := mime.ParseMediaType(r.Header.Get("Content-Type"))
			if err != nil || mt != "application/json" {
				s.writeError(w, r, sabot.Errorf(sabot.EMEDIATYPE, "a request body must be JSON, sent with Content-Type: application/json"))
				return
			}
		}
		next.ServeHTTP(w, r)
	})
}

// checkID refuses a command ID or client ID that is too long or not
// printable text, before it reaches the store (issue 11, finding 8: a NUL
// byte or an ID of 3 kB failed PostgreSQL's whole group commit; SQLite
// kept IDs of 60 kB).
func (s *Server) checkID(field, id string) error {
	max := s.maxIDLength()
	if len(id) > max {
		return sabot.Errorf(sabot.EINVALID, "%s is at most %d bytes; this one has %d", field, max, len(id))
	}
	if !utf8.ValidString(id) {
		return sabot.Errorf(sabot.EINVALID, "%s must be UTF-8 text", field)
	}
	for _, r := range id {
		if !unicode.IsPrint(r) {
			return sabot.Errorf(sabot.EINVALID, "%s must be printable text: it holds %U", field, r)
		}
	}
	return nil
}

func (s *Server) maxIDLength() int {
	if s.MaxIDLength <= 0 {
		return DefaultMaxIDLength
	}
	return min(s.MaxIDLength, MaxIDLengthLimit)
}

// errBadBearer is the refusal of an Authorization header that is not a
// bearer token.
var errBadBearer = errors.New("bad bearer")

// bearer returns the token of an Authorization header "Bearer TOKEN"; the
// scheme's case does not matter (RFC 9110 §11.1).
func bearer(header string) (string, error) {
	if header == "" {
		return "", nil
	}
	scheme, token, _ := strings.Cut(strings.TrimSpace(header), " ")
	token = strings.TrimSpace(token)
	if !strings.EqualFold(scheme, "Bearer") || token == "" {
		return "", errBadBearer
	}
	return token, nil
}
