package server

import (
	"errors"
	"io"
	"mime"
	"net/http"
	"strings"
	"unicode"
	"unicode/utf8"

	"sabot"
	"sabot/internal/wire"
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

// decodeCommand reads a table command's body, at most maxBody bytes: its
// envelope and the body its request is read from (wire.DecodeCommand).
func decodeCommand(r *http.Request) (wire.Envelope, wire.Body, error) {
	data, err := io.ReadAll(http.MaxBytesReader(nil, r.Body, maxBody))
	if err != nil {
		return wire.Envelope{}, wire.Body{}, sabot.Errorf(sabot.EINVALID, "bad JSON body: %v", err)
	}
	return wire.DecodeCommand(data)
}

// decodeJSON decodes one JSON object into v, a pointer to a struct, as
// strictly as wire.Decode says.
func decodeJSON(data []byte, v any) error { return wire.Decode(data, v) }

// requireJSON refuses a request to the API with a body that is not
// declared application/json (415): a cross-site form posts
// application/x-www-form-urlencoded, multipart/form-data or text/plain
// without the browser asking the server first. A
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
// printable text, before it reaches the store (a NUL
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
