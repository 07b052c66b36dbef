// Package webtest drives the web client (package web) in a real browser:
// the real table service on a temporary SQLite database and port :0, in
// test mode (forced cards), with the client mounted at "/", and Debian's
// chromium under chromedp. The tests are in this package's _test files.
//
// Chromium is found on $PATH as chromium (or chromium-browser,
// google-chrome), or at $SABOT_CHROMIUM. Without it the tests skip, except
// in CI (CI=true), where they fail: CI installs chromium so that they run.
// The tests share one chromium, each in browser contexts of its own
// (Browser), and run side by side (t.Parallel).
package webtest

import (
	"context"
	"fmt"
	"net/http"
	"net/http/httptest"
	"os"
	"os/exec"
	"path/filepath"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	cdpbrowser "github.com/chromedp/cdproto/browser"
	"github.com/chromedp/chromedp"

	"sabot"
	"sabot/internal/actor"
	"sabot/internal/client"
	"sabot/internal/server"
	"sabot/internal/store"
	"sabot/internal/testwait"
	"sabot/internal/wire"
	"sabot/money"
)

// Password is every test user's password.
const Password = "correct horse"

// Site is the table service with the web client, as `sabot serve` serves it.
type Site struct {
	URL    string
	Server *server.Server
	Store  sabot.Store
	Admin  *client.Client

	timing  actor.Timing
	options []func(*server.Server)       // applied to each server before it opens
	handler atomic.Pointer[http.Handler] // the running server's, swapped by Restart
}

// Handler is the handler `sabot serve` serves: the table service with the
// web client and its API mounted at "/" (server.Server.Handler).
func Handler(srv *server.Server, _ sabot.Store) http.Handler { return srv.Handler() }

// MustStart starts the table service with an administrator "pit" on a
// temporary database, in test mode, and the client in front of it; the
// options set the server up before it opens (and again at each Restart).
func MustStart(tb testing.TB, timing actor.Timing, options ...func(*server.Server)) *Site {
	tb.Helper()
	ctx := context.Background()
	st, err := store.Open(ctx, filepath.Join(tb.TempDir(), "sabot.db"))
	if err != nil {
		tb.Fatal(err)
	}
	s := &Site{Store: st, timing: timing, options: options}
	s.start(tb)
	if err := s.Server.EnsureAdmin(ctx, "pit", Password); err != nil {
		tb.Fatal(err)
	}
	ts := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		(*s.handler.Load()).ServeHTTP(w, r)
	}))
	tb.Cleanup(func() {
		s.Server.Close() // tables stop, WebSockets end
		ts.CloseClientConnections()
		ts.Close()
		st.Close()
	})
	s.URL = ts.URL
	s.Admin = &client.Client{URL: ts.URL}
	if _, err := s.Admin.Login(ctx, "pit", Password); err != nil {
		tb.Fatal(err)
	}
	return s
}

func (s *Site) start(tb testing.TB) {
	tb.Helper()
	srv := &server.Server{Store: s.Store, TestMode: true, Timing: s.timing, BcryptCost: 4}
	for _, o := range s.options {
		o(srv)
	}
	if err := srv.Open(); err != nil {
		tb.Fatal(err)
	}
	h := Handler(srv, s.Store)
	s.handler.Store(&h)
	s.Server = srv
}

// Restart stops the table service and starts it again on the same store
// and address: every table is rebuilt from its log, rounds in play resume,
// and the clients reconnect (a new epoch: a fresh snapshot).
func (s *Site) Restart(tb testing.TB) {
	tb.Helper()
	if err := s.Server.Close(); err != nil {
		tb.Fatal(err)
	}
	s.start(tb)
}

// Down stops the table service and answers every request with 503 until
// Up: the server gone away, as the pages see it (the WebSockets end, a
// reconnection is refused).
func (s *Site) Down(tb testing.TB) {
	tb.Helper()
	if err := s.Server.Close(); err != nil {
		tb.Fatal(err)
	}
	var h http.Handler = http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		http.Error(w, "down", http.StatusServiceUnavailable)
	})
	s.handler.Store(&h)
}

// Up starts the table service again after Down, on the same store: the
// tables are rebuilt from their logs and the pages reconnect.
func (s *Site) Up(tb testing.TB) {
	tb.Helper()
	s.start(tb)
}

// Table opens a test-mode table.
func (s *Site) Table(tb testing.TB, name, profile string, options map[string]string) int64 {
	tb.Helper()
	v, err := s.Admin.CreateTable(context.Background(), wire.TableRequest{Name: name, Profile: profile, Options: options, TestMode: true})
	if err != nil {
		tb.Fatal(err)
	}
	s.ShoeSteps(tb, v.ID)
	return v.ID
}

// ShoeSteps takes the steps a table's new shoe waits for (player_cut;
// AR-07, EG-02) as the pit: the shuffle authorised, and, nobody being
// seated, the pit's cut at the first position allowed (at a physical
// table, the pit's own cut by hand, record-cut box 0).
func (s *Site) ShoeSteps(tb testing.TB, table int64) {
	tb.Helper()
	ctx := context.Background()
	for range 2 {
		v, err := s.Admin.Table(ctx, table)
		if err != nil {
			tb.Fatal(err)
		}
		switch v.Shoe.Await {
		case "authorise":
			_, err = s.Admin.Command(ctx, table, wire.OpAuthoriseShuffle, wire.CommandRequest{})
		case "cut":
			if v.Shoe.Physical {
				_, err = s.Admin.Command(ctx, table, wire.OpRecordCut, wire.CommandRequest{})
				break
			}
			_, err = s.Admin.Command(ctx, table, wire.OpCutShoe, wire.CommandRequest{Value: v.Shoe.CutMin})
		default:
			return
		}
		if err != nil {
			tb.Fatal(err)
		}
	}
}

// Credit gives a player play money.
func (s *Site) Credit(tb testing.TB, name string, amount int64) {
	tb.Helper()
	if err := s.Admin.Credit(context.Background(), name, money.Amount(amount)); err != nil {
		tb.Fatal(err)
	}
}

// Force makes the next round of a table deal these cards.
func (s *Site) Force(tb testing.TB, table int64, cards string) {
	tb.Helper()
	if _, err := s.Admin.Command(context.Background(), table, wire.OpForceCards, wire.CommandRequest{CommandID: fmt.Sprintf("force-%d", time.Now().UnixNano()), Cards: cards}); err != nil {
		tb.Fatal(err)
	}
}

// Configure changes a table's options between rounds, as the pit does.
func (s *Site) Configure(tb testing.TB, table int64, options map[string]string, reason string) {
	tb.Helper()
	if _, err := s.Admin.Command(context.Background(), table, wire.OpConfigure, wire.CommandRequest{Options: options, Reason: reason}); err != nil {
		tb.Fatal(err)
	}
}

// Chromium returns the browser to drive: it skips the test when there is
// none, or fails it in CI.
func Chromium(tb testing.TB) string {
	tb.Helper()
	if p := os.Getenv("SABOT_CHROMIUM"); p != "" {
		return p
	}
	for _, name := range []string{"chromium", "chromium-browser", "google-chrome", "google-chrome-stable"} {
		if p, err := exec.LookPath(name); err == nil {
			return p
		}
	}
	if os.Getenv("CI") == "true" {
		tb.Fatal("chromium is not installed: CI must install it (apt-get install -y chromium) so that the browser tests run")
	}
	tb.Skip("browser tests skipped: no chromium on $PATH (apt-get install chromium, or set SABOT_CHROMIUM)")
	return ""
}

// The package's tests share one chromium (browser), started by the first
// test that asks for a browser and stopped by Close; each test gets a
// browser context of its own in it (Browser), with its own cookies and
// storage, so tests run side by side (t.Parallel) as if each had a
// browser of its own.
var chrome struct {
	once   sync.Once
	ctx    context.Context // the browser's first tab, kept blank
	cancel func()
	dir    string // its profile
	err    error
}

// sizeKey is the key of a tab's window size in its context: the size that
// Player's tabs open at too.
type sizeKey struct{}

// shared starts the package's chromium once, headless with a fresh
// profile, and returns the context of its first tab.
func shared(tb testing.TB) context.Context {
	tb.Helper()
	path := Chromium(tb)
	chrome.once.Do(func() {
		dir, err := os.MkdirTemp("", "sabot-webtest-")
		if err != nil {
			chrome.err = err
			return
		}
		chrome.dir = dir
		opts := []chromedp.ExecAllocatorOption{
			chromedp.ExecPath(path),
			chromedp.Flag("headless", true),
			chromedp.NoSandbox,
			chromedp.DisableGPU,
			chromedp.Flag("disable-background-networking", true),
			chromedp.Flag("disable-component-update", true),
			chromedp.Flag("disable-sync", true),
			chromedp.Flag("disable-dev-shm-usage", true),
			chromedp.Flag("disable-extensions", true),
			chromedp.Flag("hide-scrollbars", true),
			chromedp.Flag("mute-audio", true),
			// Tests side by side each have windows of their own: none
			// is slowed as a window in the background.
			chromedp.Flag("disable-background-timer-throttling", true),
			chromedp.Flag("disable-backgrounding-occluded-windows", true),
			chromedp.Flag("disable-renderer-backgrounding", true),
			chromedp.NoFirstRun,
			chromedp.NoDefaultBrowserCheck,
			chromedp.UserDataDir(dir),
			chromedp.WindowSize(1280, 1000),
		}
		alloc, cancelAlloc := chromedp.NewExecAllocator(context.Background(), opts...)
		ctx, cancel := chromedp.NewContext(alloc)
		// The first run starts the browser, which lives as long as this
		// context: no timeout on it.
		if err := chromedp.Do(ctx); err != nil {
			cancel()
			cancelAlloc()
			chrome.err = err
			return
		}
		chrome.ctx = ctx
		chrome.cancel = func() { cancel(); cancelAlloc() }
	})
	if chrome.err != nil {
		tb.Fatalf("starting chromium: %v", chrome.err)
	}
	return chrome.ctx
}

// Close stops the package's chromium, if a test started it, and removes
// its profile: TestMain calls it once the tests are done.
func Close() {
	if chrome.cancel != nil {
		chrome.cancel()
	}
	if chrome.dir != "" {
		os.RemoveAll(chrome.dir)
	}
}

// Browser returns a tab in a browser context of its own (its own cookies
// and storage, a person's browser) of the package's chromium, in a window
// of this size; more tabs, each with its own cookies and storage (another
// player), come from Player. The context ends with the test.
func Browser(tb testing.TB, width, height int) context.Context {
	tb.Helper()
	return tab(tb, shared(tb), width, height)
}

// tab opens a tab in a new browser context of the chromium of parent, in
// a window of this size.
func tab(tb testing.TB, parent context.Context, width, height int) context.Context {
	tb.Helper()
	ctx, cancel := chromedp.NewContext(parent, chromedp.WithNewBrowserContext())
	tb.Cleanup(cancel)
	// The first run opens the tab, which lives as long as this context:
	// no timeout on it.
	if err := chromedp.Do(ctx); err != nil {
		tb.Fatalf("opening a tab: %v", err)
	}
	sctx, scancel := context.WithTimeout(ctx, testwait.Deadline(30*time.Second))
	defer scancel()
	w, err := chromedp.Call(sctx, cdpbrowser.GetWindowForTarget, cdpbrowser.GetWindowForTargetParams{})
	if err == nil {
		_, err = chromedp.CallBrowser(sctx, cdpbrowser.SetWindowBounds, cdpbrowser.SetWindowBoundsParams{WindowID: w.WindowID, Bounds: &cdpbrowser.Bounds{Width: int64(width), Height: int64(height)}})
	}
	if err != nil {
		tb.Fatalf("sizing a tab's window to %dx%d: %v", width, height, err)
	}
	return context.WithValue(ctx, sizeKey{}, [2]int{width, height})
}

// Player opens a tab in a browser context of its own, in a window of the
// size of browser's: another person at the table, with a storage of its
// own.
func Player(tb testing.TB, browser context.Context) context.Context {
	tb.Helper()
	size, _ := browser.Value(sizeKey{}).([2]int)
	return tab(tb, browser, size[0], size[1])
}
