package sabot

import (
	"errors"
	"fmt"
)

// Error codes. The server maps each to one HTTP status.
const (
	ECONFLICT     = "conflict"
	EINTERNAL     = "internal"
	EINVALID      = "invalid"
	ENOTFOUND     = "not_found"
	EUNAUTHORIZED = "unauthorized"
	EFORBIDDEN    = "forbidden"
	EINSUFFICIENT = "insufficient_funds"
	ETOOMANY      = "too_many_requests" // a limit on a user, a client or a socket: try again later
)

// Error is an application error: a code and a one-line message a user may
// read. Internal errors keep their cause for the log, never for the user.
type Error struct {
	Code    string
	Message string
	Cause   error
}

func (e *Error) Error() string {
	if e.Cause != nil && e.Code == EINTERNAL {
		return fmt.Sprintf("sabot error: code=%s message=%s cause=%v", e.Code, e.Message, e.Cause)
	}
	return fmt.Sprintf("sabot error: code=%s message=%s", e.Code, e.Message)
}

func (e *Error) Unwrap() error { return e.Cause }

// Errorf returns an *Error with a code and a formatted message.
func Errorf(code, format string, args ...any) *Error {
	return &Error{Code: code, Message: fmt.Sprintf(format, args...)}
}

// Internal wraps an unexpected error: the user sees only "internal error".
func Internal(cause error) *Error {
	return &Error{Code: EINTERNAL, Message: "internal error", Cause: cause}
}

// ErrorCode returns the code of an error: its *Error's, or EINTERNAL.
func ErrorCode(err error) string {
	var e *Error
	if err == nil {
		return ""
	} else if errors.As(err, &e) {
		return e.Code
	}
	return EINTERNAL
}

// ErrorMessage returns the message a user may read.
func ErrorMessage(err error) string {
	var e *Error
	if err == nil {
		return ""
	} else if errors.As(err, &e) {
		return e.Message
	}
	return "internal error"
}
