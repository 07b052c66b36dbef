// Package httpjson is the JSON side of sabot's HTTP API shared by the table
// server and the web client's handlers: the one table from error code to
// HTTP status, and how bodies and errors are written.
package httpjson

import (
	"encoding/json"
	"net/http"
	"strconv"
	"time"

	"sabot"
)

// statusOf is the one table from error code to HTTP status.
var statusOf = map[string]int{
	sabot.EINVALID:      http.StatusBadRequest,
	sabot.EUNAUTHORIZED: http.StatusUnauthorized,
	sabot.EINSUFFICIENT: http.StatusPaymentRequired,
	sabot.EFORBIDDEN:    http.StatusForbidden,
	sabot.ENOTFOUND:     http.StatusNotFound,
	sabot.ECONFLICT:     http.StatusConflict,
	sabot.EINTERNAL:     http.StatusInternalServerError,
	sabot.ETHROTTLED:    http.StatusTooManyRequests,
	sabot.EUNAVAILABLE:  http.StatusServiceUnavailable,
	sabot.EMEDIATYPE:    http.StatusUnsupportedMediaType,
}

// Status returns the HTTP status of an error code.
func Status(code string) int {
	if s, ok := statusOf[code]; ok {
		return s
	}
	return http.StatusInternalServerError
}

// ErrorBody is the body of every error answer: a code and a one-line
// reason; where a client may word the refusal itself, its reason key and
// values (sabot.Error.Reason, Params).
type ErrorBody struct {
	Code   string         `json:"code"`
	Error  string         `json:"error"`
	Reason string         `json:"reason,omitempty"`
	Params map[string]any `json:"params,omitempty"`
}

// Write writes v as a JSON answer.
func Write(w http.ResponseWriter, status int, v any) {
	w.Header().Set("Content-Type", "application/json")
	w.WriteHeader(status)
	json.NewEncoder(w).Encode(v)
}

// WriteError writes an error's code and user-readable message with its
// status; an internal error's cause never reaches the user. An error that
// asks the client to wait says how long in Retry-After (whole seconds, at
// least 1).
func WriteError(w http.ResponseWriter, err error) {
	code := sabot.ErrorCode(err)
	if d := sabot.RetryAfter(err); d > 0 {
		w.Header().Set("Retry-After", strconv.FormatInt(int64((d+time.Second-1)/time.Second), 10))
	}
	reason, params := sabot.ReasonOf(err)
	Write(w, Status(code), ErrorBody{Code: code, Error: sabot.ErrorMessage(err), Reason: reason, Params: params})
}
