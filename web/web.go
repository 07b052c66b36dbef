// Package web is the browser client of `sabot serve`: plain JavaScript
// modules and CSS embedded in the binary (no build step), served at "/" with
// the single-page routes of the lobby, a table, the login and the game
// recall. The client speaks the server's HTTP API and the table WebSocket
// (docs/protocol.md), and the few endpoints that only it needs (a table's
// house edge, strategy card and rules in plain words), which package
// internal/webapi serves beside the server. See docs/web.md.
package web

import (
	"bytes"
	"crypto/sha256"
	"embed"
	"encoding/hex"
	"io/fs"
	"mime"
	"net/http"
	"path"
	"regexp"
	"slices"
	"strings"
	"sync"
	"time"

	"sabot"
	"sabot/internal/httpjson"
)

//go:embed static
var static embed.FS

// asset is one embedded file with its validator.
type asset struct {
	data  []byte
	etag  string
	ctype string
}

// assets reads the embedded files once, when first served: hashing them
// at start-up would cost every command of the binary (sabot edge, sim…)
// several milliseconds.
var assets = sync.OnceValue(func() map[string]*asset {
	m := map[string]*asset{}
	root, err := fs.Sub(static, "static")
	if err != nil {
		panic(err)
	}
	err = fs.WalkDir(root, ".", func(p string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() {
			return err
		}
		b, err := fs.ReadFile(root, p)
		if err != nil {
			return err
		}
		sum := sha256.Sum256(b)
		ct := mime.TypeByExtension(path.Ext(p))
		switch path.Ext(p) {
		case ".js":
			ct = "text/javascript; charset=utf-8"
		case ".css":
			ct = "text/css; charset=utf-8"
		case ".svg":
			ct = "image/svg+xml"
		case ".html":
			ct = "text/html; charset=utf-8"
		}
		m["/"+p] = &asset{data: b, etag: `"` + hex.EncodeToString(sum[:8]) + `"`, ctype: ct}
		return nil
	})
	if err != nil {
		panic(err)
	}
	return m
})

// Handler serves the client: the embedded files, and index.html for every
// other path that is not the API's, so that the client's routes (/tables/3,
// /rounds/3-17, /recall, /login) load the application. An unknown /api/ path
// is a JSON 404 like the server's, never the page.
func Handler() http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		p := r.URL.Path
		if p == "/api" || strings.HasPrefix(p, "/api/") {
			httpjson.WriteError(w, sabot.Errorf(sabot.ENOTFOUND, "no API endpoint %s %s", r.Method, p))
			return
		}
		if r.Method != http.MethodGet && r.Method != http.MethodHead {
			w.Header().Set("Allow", "GET, HEAD")
			httpjson.Write(w, http.StatusMethodNotAllowed, httpjson.ErrorBody{Code: sabot.EINVALID, Error: "the web client is read with GET"})
			return
		}
		a, ok := assets()[p]
		if !ok {
			if path.Ext(p) != "" {
				http.NotFound(w, r)
				return
			}
			a = assets()["/index.html"] // a client route
		}
		h := w.Header()
		securityHeaders(h, r)
		h.Set("Content-Type", a.ctype)
		h.Set("ETag", a.etag)
		// Revalidate every time: an upgraded server serves new modules at
		// once, and an unchanged file costs a 304.
		h.Set("Cache-Control", "no-cache")
		http.ServeContent(w, r, "", time.Time{}, bytes.NewReader(a.data))
	})
}

// securityHeaders: the page loads only its own scripts and styles, talks
// only to its own server (HTTP and WebSocket), and is never framed.
func securityHeaders(h http.Header, r *http.Request) {
	host := r.Host
	h.Set("Content-Security-Policy", "default-src 'self'; img-src 'self' data:; style-src 'self'; script-src 'self'; "+
		"connect-src 'self' ws://"+host+" wss://"+host+"; frame-ancestors 'none'; base-uri 'none'; form-action 'self'")
	h.Set("X-Content-Type-Options", "nosniff")
	h.Set("Referrer-Policy", "same-origin")
	h.Set("X-Frame-Options", "DENY")
}

// Messages reads the keys of a language's catalogue of the client
// (static/js/i18n/LANG.js), each with the {names} of the values its text
// uses (every plural form's together): for tests that check the server
// says nothing the client cannot word.
func Messages(lang string) (map[string][]string, error) {
	b, err := static.ReadFile("static/js/i18n/" + lang + ".js")
	if err != nil {
		return nil, err
	}
	out := map[string][]string{}
	for _, l := range strings.Split(string(b), "\n") {
		m := messageLine().FindStringSubmatch(l)
		if m == nil {
			continue
		}
		names := []string{}
		for _, n := range messageName().FindAllStringSubmatch(m[2], -1) {
			if !slices.Contains(names, n[1]) {
				names = append(names, n[1])
			}
		}
		out[m[1]] = names
	}
	return out, nil
}

// The catalogue's patterns, compiled on first use (not at start-up).
var (
	messageLine = sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(`^\s*'([^']+)':\s*(.*)$`) })
	messageName = sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(`\{(\w+)\}`) })
)

// Catalogue reads a language's catalogue of the client
// (static/js/i18n/LANG.js): each key's text, or its plural forms (one,
// other, …) by form; a text without forms is under "". It words the rules
// of the certification kit (internal/certify) as the client words them.
func Catalogue(lang string) (map[string]map[string]string, error) {
	b, err := static.ReadFile("static/js/i18n/" + lang + ".js")
	if err != nil {
		return nil, err
	}
	unquote := func(s string) string { return strings.ReplaceAll(s, `\'`, `'`) }
	out := map[string]map[string]string{}
	for _, l := range strings.Split(string(b), "\n") {
		m := messageLine().FindStringSubmatch(l)
		if m == nil {
			continue
		}
		v := strings.TrimSpace(m[2])
		if strings.HasPrefix(v, "{") {
			forms := map[string]string{}
			for _, f := range catalogueForm().FindAllStringSubmatch(v, -1) {
				forms[f[1]] = unquote(f[2])
			}
			if len(forms) > 0 {
				out[m[1]] = forms
			}
			continue
		}
		if s := catalogueString().FindStringSubmatch(v); s != nil {
			out[m[1]] = map[string]string{"": unquote(s[1])}
		}
	}
	return out, nil
}

var (
	catalogueString = sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(`^'((?:[^'\\]|\\.)*)'`) })
	catalogueForm   = sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(`(\w+):\s*'((?:[^'\\]|\\.)*)'`) })
)
