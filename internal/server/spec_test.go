package server_test

import (
	"bytes"
	"context"
	"fmt"
	"io"
	"net/http"
	"os"
	"sort"
	"strings"
	"sync"
	"testing"

	"github.com/getkin/kin-openapi/openapi3"
	"github.com/getkin/kin-openapi/openapi3filter"
	"github.com/getkin/kin-openapi/routers"
	"github.com/getkin/kin-openapi/routers/gorillamux"
)

// Every HTTP exchange of this package's tests goes through specCheck,
// which validates it against docs/openapi.yaml (kin-openapi): each
// response, whatever its status, must be one the spec describes for its
// operation, and each request the server accepted (a 2xx) one the spec
// allows. A test that sends a malformed request on purpose is answered with
// an error, so its request is not held to the spec; its answer is. A
// field, a status or an enum that drifts from the spec fails the run.
func TestMain(m *testing.M) {
	check, err := newSpecCheck("../../docs/openapi.yaml", http.DefaultTransport)
	if err != nil {
		fmt.Fprintln(os.Stderr, "docs/openapi.yaml:", err)
		os.Exit(2)
	}
	http.DefaultTransport = check
	code := m.Run()
	if testing.Verbose() {
		fmt.Fprintf(os.Stderr, "docs/openapi.yaml: the tests' %d exchanges checked\n", check.checked)
	}
	if v := check.report(); v != "" {
		fmt.Fprint(os.Stderr, v)
		if code == 0 {
			code = 1
		}
	}
	os.Exit(code)
}

type specCheck struct {
	next   http.RoundTripper
	router routers.Router

	mu         sync.Mutex
	violations map[string]int // one line each, with how often it was seen
	checked    int
}

func newSpecCheck(path string, next http.RoundTripper) (*specCheck, error) {
	loader := openapi3.NewLoader()
	doc, err := loader.LoadFromFile(path)
	if err != nil {
		return nil, err
	}
	if err := doc.Validate(context.Background()); err != nil {
		return nil, err
	}
	// The spec's servers name no host: match the test servers' paths only.
	doc.Servers = nil
	router, err := gorillamux.NewRouter(doc)
	if err != nil {
		return nil, err
	}
	return &specCheck{next: next, router: router, violations: map[string]int{}}, nil
}

// specPath reports whether a request is for the documented API (the web
// client's pages, its files, /metrics, the WebSocket's upgrade and the
// profiling endpoints are not).
func specPath(r *http.Request) bool {
	p := r.URL.Path
	if strings.HasSuffix(p, "/ws") || r.Header.Get("Upgrade") != "" {
		return false
	}
	return strings.HasPrefix(p, "/api/") || p == "/healthz" || p == "/readyz" || p == "/launch"
}

func (c *specCheck) RoundTrip(r *http.Request) (*http.Response, error) {
	if !specPath(r) {
		return c.next.RoundTrip(r)
	}
	var reqBody []byte
	if r.Body != nil {
		b, err := io.ReadAll(r.Body)
		r.Body.Close()
		if err != nil {
			return nil, err
		}
		reqBody = b
		if len(b) == 0 {
			r.Body = http.NoBody // as sent: no body at all
		} else {
			r.Body = io.NopCloser(bytes.NewReader(b))
			r.GetBody = func() (io.ReadCloser, error) { return io.NopCloser(bytes.NewReader(b)), nil }
		}
	}
	resp, err := c.next.RoundTrip(r)
	if err != nil {
		return resp, err
	}
	respBody, rerr := io.ReadAll(resp.Body)
	resp.Body.Close()
	resp.Body = io.NopCloser(bytes.NewReader(respBody))
	if rerr != nil {
		return resp, nil // a connection cut mid-answer: nothing to check
	}
	c.check(r, reqBody, resp, respBody)
	return resp, nil
}

func (c *specCheck) check(r *http.Request, reqBody []byte, resp *http.Response, respBody []byte) {
	c.mu.Lock()
	c.checked++
	c.mu.Unlock()
	// The router matches on the path alone.
	rr := r.Clone(context.Background())
	rr.URL.Scheme, rr.URL.Host, rr.Host = "", "", ""
	route, params, err := c.router.FindRoute(rr)
	if err != nil {
		if resp.StatusCode == http.StatusNotFound || resp.StatusCode == http.StatusMethodNotAllowed {
			return // a route that does not exist, answered so
		}
		c.violation(r, resp.StatusCode, "not in the spec: "+err.Error())
		return
	}
	opts := &openapi3filter.Options{
		AuthenticationFunc: openapi3filter.NoopAuthenticationFunc,
		MultiError:         true,
	}
	in := &openapi3filter.RequestValidationInput{Request: rr, PathParams: params, Route: route, Options: opts}
	if resp.StatusCode/100 == 2 {
		rr.Body = io.NopCloser(bytes.NewReader(reqBody))
		if err := openapi3filter.ValidateRequest(context.Background(), in); err != nil {
			c.violation(r, resp.StatusCode, "request: "+oneLine(err))
		}
	}
	out := &openapi3filter.ResponseValidationInput{
		RequestValidationInput: in,
		Status:                 resp.StatusCode,
		Header:                 resp.Header,
		Options:                opts,
	}
	out.SetBodyBytes(respBody)
	if err := openapi3filter.ValidateResponse(context.Background(), out); err != nil {
		c.violation(r, resp.StatusCode, "response: "+oneLine(err))
	}
}

func oneLine(err error) string {
	s := strings.Join(strings.Fields(err.Error()), " ")
	if len(s) > 400 {
		s = s[:400] + "…"
	}
	return s
}

func (c *specCheck) violation(r *http.Request, status int, what string) {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.violations[fmt.Sprintf("%s %s → %d: %s", r.Method, r.URL.Path, status, what)]++
}

func (c *specCheck) report() string {
	c.mu.Lock()
	defer c.mu.Unlock()
	if len(c.violations) == 0 {
		return ""
	}
	var lines []string
	for v, n := range c.violations {
		lines = append(lines, fmt.Sprintf("  %s (×%d)", v, n))
	}
	sort.Strings(lines)
	return fmt.Sprintf("docs/openapi.yaml: %d of the tests' %d exchanges differ from the spec:\n%s\n",
		len(c.violations), c.checked, strings.Join(lines, "\n"))
}
