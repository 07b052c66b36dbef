// Package httpjson is the JSON side of sabot's HTTP API shared by the table
// server and the web client's handlers: the one table from error code to
// HTTP status, and how bodies and errors are written.
package httpjson

import (
	"encoding/json"
	"net/http"

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
	sabot.ETOOMANY:      http.StatusTooManyRequests,
}

// Status returns the HTTP status of an error code.
func Status(code string) int {
	if s, ok := statusOf[code]; ok {
		return s
	}
	return http.StatusInternalServerError
}

// ErrorBody is the body of every error answer: a code and a one-line reason.
type ErrorBody struct {
	Code  string `json:"code"`
	Error string `json:"error"`
}

// Write writes v as a JSON answer.
func Write(w http.ResponseWriter, status int, v any) {
	w.Header().Set("Content-Type", "application/json")
	w.WriteHeader(status)
	json.NewEncoder(w).Encode(v)
}

// WriteError writes an error's code and user-readable message with its
// status; an internal error's cause never reaches the user.
func WriteError(w http.ResponseWriter, err error) {
	code := sabot.ErrorCode(err)
	Write(w, Status(code), ErrorBody{code, sabot.ErrorMessage(err)})
}
