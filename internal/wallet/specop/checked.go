package specop

import (
	"bytes"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync"
)

// Checker passes calls to another operator's wallet and checks each
// request and each answer against the spec on the way.
type Checker struct {
	spec       *Spec
	next       http.Handler
	mu         sync.Mutex
	violations []string
	checked    map[string]int
	rounds     map[string]string // debit transaction ID → its round
	requests   []Message
}

// Message is a request as it came: its operation and body.
type Message struct {
	Op   string
	Body json.RawMessage
}

// Checked wraps an operator's handler.
func Checked(spec *Spec, next http.Handler) *Checker {
	return &Checker{spec: spec, next: next, checked: map[string]int{}, rounds: map[string]string{}}
}

func (c *Checker) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	body, _ := io.ReadAll(io.LimitReader(r.Body, 1<<16))
	op := r.URL.Path[strings.LastIndexByte(r.URL.Path, '/')+1:]
	if err := c.spec.Request(op, body); err != nil {
		c.violate("%s %s: %v", op, body, err)
	}
	c.sameRound(op, body)
	c.mu.Lock()
	c.requests = append(c.requests, Message{op, append(json.RawMessage(nil), body...)})
	c.mu.Unlock()
	r.Body = io.NopCloser(bytes.NewReader(body))
	rec := httptest.NewRecorder()
	c.next.ServeHTTP(rec, r)
	if rec.Code == http.StatusOK {
		if err := c.spec.Answer(rec.Body.Bytes()); err != nil {
			c.violate("the answer to %s: %s: %v", op, rec.Body.Bytes(), err)
		}
	}
	c.mu.Lock()
	c.checked[op]++
	c.mu.Unlock()
	for k, v := range rec.Header() {
		w.Header()[k] = v
	}
	w.WriteHeader(rec.Code)
	w.Write(rec.Body.Bytes())
}

func (c *Checker) violate(format string, a ...any) {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.violations = append(c.violations, fmt.Sprintf(format, a...))
}

// Violations are the messages that did not conform.
func (c *Checker) Violations() []string {
	c.mu.Lock()
	defer c.mu.Unlock()
	return append([]string(nil), c.violations...)
}

// Checked is how many calls of each operation were checked.
func (c *Checker) Checked() map[string]int {
	c.mu.Lock()
	defer c.mu.Unlock()
	out := map[string]int{}
	for k, v := range c.checked {
		out[k] = v
	}
	return out
}

// sameRound checks that a rollback carries its debit's round (the spec:
// "round: the debit's round").
func (c *Checker) sameRound(op string, body []byte) {
	var m struct {
		ID        string `json:"transaction_id"`
		Round     string `json:"round"`
		Reference string `json:"reference"`
	}
	if json.Unmarshal(body, &m) != nil {
		return
	}
	c.mu.Lock()
	defer c.mu.Unlock()
	switch op {
	case "debit":
		c.rounds[m.ID] = m.Round
	case "rollback":
		if r, ok := c.rounds[m.Reference]; ok && r != m.Round {
			c.violations = append(c.violations, fmt.Sprintf("rollback %s of debit %s: round %q, the debit's %q", m.ID, m.Reference, m.Round, r))
		}
	}
}

// Requests are the requests that came, in order.
func (c *Checker) Requests() []Message {
	c.mu.Lock()
	defer c.mu.Unlock()
	return append([]Message(nil), c.requests...)
}
