package web

import (
	"io"
	"net/http"
	"net/http/httptest"
	"regexp"
	"slices"
	"strings"
	"testing"

	"sabot/rules"
)

func testServer(t *testing.T) *httptest.Server {
	t.Helper()
	ts := httptest.NewServer(Handler())
	t.Cleanup(ts.Close)
	return ts
}

func get(t *testing.T, url string) (*http.Response, string) {
	t.Helper()
	resp, err := http.Get(url)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	b, _ := io.ReadAll(resp.Body)
	return resp, string(b)
}

// The client is served at "/" and at each of its routes; an unknown API
// path is the API's 404, never the page.
func TestHandler(t *testing.T) {
	ts := testServer(t)
	for _, path := range []string{"/", "/tables/3", "/rounds/3-17", "/recall", "/login"} {
		resp, body := get(t, ts.URL+path)
		if resp.StatusCode != 200 || !strings.Contains(body, `<script type="module" src="/js/app.js">`) {
			t.Errorf("%s: %d", path, resp.StatusCode)
		}
		csp := resp.Header.Get("Content-Security-Policy")
		if !strings.Contains(csp, "script-src 'self'") || !strings.Contains(csp, "frame-ancestors 'none'") {
			t.Errorf("%s: CSP %q", path, csp)
		}
	}
	resp, body := get(t, ts.URL+"/js/table.js")
	if resp.StatusCode != 200 || resp.Header.Get("Content-Type") != "text/javascript; charset=utf-8" || !strings.Contains(body, "export function tablePage") {
		t.Fatalf("table.js: %d %s", resp.StatusCode, resp.Header.Get("Content-Type"))
	}
	// Revalidated with its ETag.
	req, _ := http.NewRequest("GET", ts.URL+"/js/table.js", nil)
	req.Header.Set("If-None-Match", resp.Header.Get("ETag"))
	resp2, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	resp2.Body.Close()
	if resp2.StatusCode != http.StatusNotModified {
		t.Fatalf("revalidation: %d", resp2.StatusCode)
	}
	if resp, _ := get(t, ts.URL+"/js/missing.js"); resp.StatusCode != 404 {
		t.Fatalf("a missing file: %d", resp.StatusCode)
	}
	post, err := http.Post(ts.URL+"/", "text/plain", nil)
	if err != nil {
		t.Fatal(err)
	}
	post.Body.Close()
	if post.StatusCode != http.StatusMethodNotAllowed {
		t.Fatalf("POST /: %d", post.StatusCode)
	}
}

// Every module the page loads is embedded, and every file it names exists.
func TestAssetsComplete(t *testing.T) {
	for path, a := range assets() {
		if !strings.HasSuffix(path, ".js") && !strings.HasSuffix(path, ".html") {
			continue
		}
		for _, m := range importRe.FindAllStringSubmatch(string(a.data), -1) {
			ref := m[1]
			if strings.HasPrefix(ref, "./") {
				ref = path[:strings.LastIndex(path, "/")+1] + ref[2:]
			}
			if _, ok := assets()[ref]; !ok {
				t.Errorf("%s names %s, which is not embedded", path, m[1])
			}
		}
	}
}

// importRe finds the files a module imports and the page loads.
var importRe = regexp.MustCompile(`(?:from|import|src=|href=)\s*['"](\.?/[^'"]+\.(?:js|css|svg))['"]`)

// The options the client shows as money are the profile options that are
// amounts (the replay said max_bet=50000).
func TestMoneyOptions(t *testing.T) {
	b, err := static.ReadFile("static/js/dom.js")
	if err != nil {
		t.Fatal(err)
	}
	m := regexp.MustCompile(`MONEY_OPTIONS = new Set\(\[([^\]]*)\]\)`).FindSubmatch(b)
	if m == nil {
		t.Fatal("dom.js has no MONEY_OPTIONS")
	}
	var js []string
	for _, q := range regexp.MustCompile(`'([a-z_]+)'`).FindAllSubmatch(m[1], -1) {
		js = append(js, string(q[1]))
	}
	var want []string
	for _, o := range rules.Options() {
		if o.Values == "integer (minor units)" {
			want = append(want, o.Key)
		}
	}
	slices.Sort(want)
	if !slices.Equal(js, want) {
		t.Errorf("MONEY_OPTIONS is %q, the options in minor units are %q", js, want)
	}
}
