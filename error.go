package sabot

import (
	"errors"
	"fmt"
	"regexp"
	"slices"
	"strings"
	"sync"
	"time"
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
	// ETHROTTLED: too many requests of a kind from one client or for one
	// name; the answer says when to try again (Error.RetryAfter).
	ETHROTTLED = "too_many_requests"
	// EUNAVAILABLE: the service cannot take the request now (its password
	// hashing is saturated, its store refuses writes).
	EUNAVAILABLE = "unavailable"
	// EMEDIATYPE: a request body that is not declared application/json.
	EMEDIATYPE = "unsupported_media_type"
)

// Error is an application error: a code and a one-line message a user may
// read. Internal errors keep their cause for the log, never for the user.
type Error struct {
	Code    string
	Message string
	Cause   error
	// RetryAfter, for ETHROTTLED and EUNAVAILABLE, is how long the client
	// should wait before it tries again (0: not said).
	RetryAfter time.Duration
	// Reason and Params let a client word the refusal in its own language
	// (docs/protocol.md, "Errors"): a stable snake_case key and the values
	// the message names (numbers, amounts in minor units, rule IDs, player
	// names; never words). Empty for most errors: the client shows Message.
	Reason string
	Params map[string]any
}

// WithReason gives the error a reason and its values and returns it.
func (e *Error) WithReason(reason string, params map[string]any) *Error {
	e.Reason, e.Params = reason, params
	return e
}

// ReasonOf returns an error's reason and values: its own, or, for an error
// given none, its code's general one (GeneralReason), so that every error
// a client reads has a reason it words in its own language ("" for nil).
func ReasonOf(err error) (string, map[string]any) {
	if err == nil {
		return "", nil
	}
	var e *Error
	if errors.As(err, &e) && e.Reason != "" {
		return e.Reason, e.Params
	}
	return GeneralReason(ErrorCode(err), ErrorMessage(err))
}

// Codes lists every error code, each with its general reason
// (GeneralReason).
var Codes = []string{ECONFLICT, EINTERNAL, EINVALID, ENOTFOUND, EUNAUTHORIZED, EFORBIDDEN, EINSUFFICIENT, ETHROTTLED, EUNAVAILABLE, EMEDIATYPE}

// ruleID finds the rule IDs a message cites (RULES.md's prefixes),
// compiled on first use (not at start-up).
var ruleID = sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(`\b(?:AR|ES|VE|EG|FAM|PON)-\d+\b`) })

// GeneralReason is the reason of an error given no reason of its own: its
// code's ("error_conflict", ...), with the rule IDs its message cites
// ("rule": "AR-22, ES-01") where it cites any: a client words what kind of
// refusal it is and under which rules, in its own language.
func GeneralReason(code, message string) (string, map[string]any) {
	reason := "error_" + code
	if ids := ruleID().FindAllString(message, -1); len(ids) > 0 {
		var seen []string
		for _, id := range ids {
			if !slices.Contains(seen, id) {
				seen = append(seen, id)
			}
		}
		return reason, map[string]any{"rule": strings.Join(seen, ", ")}
	}
	return reason, nil
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

// Throttled returns an ETHROTTLED error that asks the client to wait.
func Throttled(wait time.Duration, format string, args ...any) *Error {
	return &Error{Code: ETHROTTLED, Message: fmt.Sprintf(format, args...), RetryAfter: wait}
}

// RetryAfter returns how long an error asks the client to wait (0: not said).
func RetryAfter(err error) time.Duration {
	var e *Error
	if errors.As(err, &e) {
		return e.RetryAfter
	}
	return 0
}

// ErrFenced is the cause of an append refused because its table's lease
// has moved to an epoch after the append's (Cluster): the node that sent it
// no longer owns the table. The error is EUNAVAILABLE: the client may try
// again, and reaches the table's new owner.
var ErrFenced = errors.New("the table's lease has moved on")

// ErrLeaseLost is the cause of a node's lease renewal or claim refused
// because its lease has expired or it left (Cluster).
var ErrLeaseLost = errors.New("the node's lease has expired")

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
