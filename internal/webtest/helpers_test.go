package webtest

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"sabot/internal/actor"
	"sabot/internal/client"
	"sabot/internal/testwait"
	"sabot/internal/wire"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/chromedp/cdproto/network"
	"github.com/chromedp/cdproto/runtime"
	"github.com/chromedp/chromedp"
)

// slow timers: nothing runs out during a test.
var slow = actor.Timing{BetWindow: time.Minute, Decision: time.Minute, Window: time.Minute}

// limits are a test table's options: stakes from 1.00 to 1,000.00, and
// more options as key, value pairs.
func limits(kv ...string) map[string]string {
	o := map[string]string{"min_bet": "100", "max_bet": "100000"}
	for i := 0; i+1 < len(kv); i += 2 {
		o[kv[i]] = kv[i+1]
	}
	return o
}

// game is a test's set-up: the site, one test-mode table, and the players'
// tabs, each in a browser context of its own.
type game struct {
	site  *Site
	table int64
	logs  map[context.Context]*pageLog
}

// newGame starts the site with these timers and opens a test-mode table of
// the profile (limits, and the options as key, value pairs).
func newGame(t testing.TB, timing actor.Timing, name, profile string, options ...string) *game {
	t.Helper()
	site := MustStart(t, timing)
	return &game{
		site:  site,
		table: site.Table(t, name, profile, limits(options...)),
		logs:  map[context.Context]*pageLog{},
	}
}

// page opens a tab of the package's chromium in a browser context of its
// own, in a window of this size, and records it (watch: the test fails on
// an error in the page).
func page(t testing.TB, width, height int) context.Context {
	t.Helper()
	ctx := Browser(t, width, height)
	watch(t, ctx)
	return ctx
}

// tab opens a tab of a person of the game's: a browser context of its
// own (cookies, storage), in a laptop's window.
func (g *game) tab(t testing.TB) context.Context {
	t.Helper()
	return Browser(t, 1280, 1000)
}

// player opens a tab for a player, with its own cookies and storage, records
// it (watch: the test fails on an error in the page), registers the player
// through the login page and has the pit credit him 1,000.00.
func (g *game) player(t testing.TB, name string) context.Context {
	t.Helper()
	ctx := g.tab(t)
	g.logs[ctx] = watch(t, ctx)
	register(t, ctx, g.site, name)
	g.site.Credit(t, name, 100000)
	return ctx
}

// join is player, then the table's page.
func (g *game) join(t testing.TB, name string) context.Context {
	t.Helper()
	ctx := g.player(t, name)
	open(t, ctx, g.site, g.path(), ".box .plate")
	return ctx
}

// path is the table's page.
func (g *game) path() string { return "/tables/" + itoa(g.table) }

// force makes the table's next round deal these cards.
func (g *game) force(t testing.TB, cards string) { g.site.Force(t, g.table, cards) }

// sit takes the seat at a box and waits for it.
func sit(t testing.TB, ctx context.Context, box int) {
	t.Helper()
	b := itoa(int64(box))
	click(t, ctx, `.box[data-box="`+b+`"] .sit`)
	waitJS(t, ctx, "seated at box "+b, `!!document.querySelector('.box[data-box="`+b+`"] .plate .me')`)
}

// bet chooses a chip (0: the chip chosen) and clicks the box holder's
// spot of a box once.
func bet(t testing.TB, ctx context.Context, box int, chip int64) {
	t.Helper()
	if chip > 0 {
		click(t, ctx, `.rack [data-fk="chip-`+itoa(chip)+`"]`)
	}
	click(t, ctx, `.box[data-box="`+itoa(int64(box))+`"] .spot.holder.open`)
}

// keyActions are the decisions by their English shortcut: a test names a
// decision so, and the page shows it under its own language's key (Stand
// is S in English, L in Spanish, O in Italian: key.* in the catalogues).
var keyActions = map[string]string{"h": "hit", "s": "stand", "d": "double", "p": "split", "r": "surrender",
	"i": "insure", "e": "even-money", "c": "challenge", "w": "withdraw", "n": "decline"}

// decisionButton is the selector of the offered decision a test names by
// its key: the button showing that key, or, on a page in another language,
// the decision that key is in English (keyActions).
func decisionButton(key string) string {
	sel := `.prompt:not([hidden]) button[data-key="` + key + `"]`
	if a := keyActions[key]; a != "" {
		sel += `, .prompt:not([hidden]) button.act-` + a
	}
	return sel
}

// waitKey waits until the player is offered the decision with this key,
// or, on a page in another language, the decision it is in English.
func waitKey(t testing.TB, ctx context.Context, what, key string) {
	t.Helper()
	waitJS(t, ctx, what, `!!document.querySelector('`+decisionButton(key)+`')`)
}

// press types a decision's shortcut: the key as given where a button shows
// it, else the key the page's language gives the decision it is in
// English (Stand: S, L in Spanish, O in Italian).
func press(t testing.TB, ctx context.Context, what, key string) {
	t.Helper()
	if shown := eval[string](t, ctx, `(document.querySelector('`+decisionButton(key)+`') || {}).dataset?.key || ''`); shown != "" {
		key = shown
	}
	do(t, ctx, what, chromedp.KeyEvent(key))
}

// waitBalance waits until the header shows the balance.
func waitBalance(t testing.TB, ctx context.Context, what, want string) {
	t.Helper()
	waitJS(t, ctx, what, `document.getElementById('balance').textContent === '`+want+`'`)
}

// waitCalls waits until the dealer's calls say each of these lines.
func waitCalls(t testing.TB, ctx context.Context, lines ...string) {
	t.Helper()
	for _, l := range lines {
		waitJS(t, ctx, "the dealer's call "+l, fmt.Sprintf(`document.querySelector('.calls').innerText.split('\n').includes(%q)`, l))
	}
}

// text is the text of the first element a CSS selector finds ("" if none).
func text(t testing.TB, ctx context.Context, sel string) string {
	t.Helper()
	return eval[string](t, ctx, fmt.Sprintf(`document.querySelector(%q)?.textContent ?? ''`, sel))
}

// record opens the replay of a round of the table, as the player recalls
// it, and returns its record and the rows of its settlement ("ana 1 1 main
// 5.00 win +5.00").
func (g *game) record(t testing.TB, ctx context.Context, round int) (string, []string) {
	t.Helper()
	open(t, ctx, g.site, "/rounds/"+itoa(g.table)+"-"+itoa(int64(round)), ".replay-summary")
	return eval[string](t, ctx, `document.querySelector('.replay-summary').innerText`),
		eval[[]string](t, ctx, `[...document.querySelectorAll('.replay-summary table.rounds')[0].tBodies[0].rows].map(r => [...r.cells].map(c => c.textContent).join(' '))`)
}

// do runs browser steps, failing the test with what it was doing (and a
// screenshot of the page).
func do(t testing.TB, ctx context.Context, what string, steps ...chromedp.Action[chromedp.Void]) {
	t.Helper()
	tctx, cancel := context.WithTimeout(ctx, 20*time.Second)
	defer cancel()
	if err := chromedp.Do(tctx, steps...); err != nil {
		shot(t, ctx, "failure")
		t.Fatalf("%s: %v", what, err)
	}
}

// eval evaluates JavaScript in the page.
func eval[T any](t testing.TB, ctx context.Context, js string) T {
	t.Helper()
	tctx, cancel := context.WithTimeout(ctx, 20*time.Second)
	defer cancel()
	v, err := chromedp.Run(tctx, chromedp.Evaluate[T](js))
	if err != nil {
		shot(t, ctx, "failure")
		t.Fatalf("evaluate %s: %v", js, err)
	}
	return v
}

// shot saves a screenshot, for a failure, in $SABOT_WEBTEST_SHOTS or the
// temporary directory.
func shot(t testing.TB, ctx context.Context, name string) {
	sctx, cancel := context.WithTimeout(ctx, 5*time.Second)
	defer cancel()
	b, err := chromedp.Run(sctx, chromedp.FullScreenshot(100))
	if err != nil {
		return
	}
	dir := os.Getenv("SABOT_WEBTEST_SHOTS")
	if dir == "" {
		dir = os.TempDir()
	}
	p := filepath.Join(dir, strings.ReplaceAll(t.Name(), "/", "_")+"-"+name+".png")
	if os.WriteFile(p, b, 0o644) == nil {
		t.Logf("screenshot: %s", p)
	}
}

// register registers a player through the page and stays logged in. The
// cards are dealt with a short pause each (?pace=).
func register(t testing.TB, ctx context.Context, site *Site, name string) {
	t.Helper()
	loginPage(t, ctx, site, "/login?pace=25", name, "register")
}

// login logs an existing user (the pit) in through the login page.
func login(t testing.TB, ctx context.Context, site *Site, name string) {
	t.Helper()
	loginPage(t, ctx, site, "/login", name, "login")
}

// loginPage fills the login page at path with name and the test password
// and presses the button (register or login), then waits for the lobby
// and the balance.
func loginPage(t testing.TB, ctx context.Context, site *Site, path, name, button string) {
	t.Helper()
	do(t, ctx, button+" "+name,
		chromedp.Navigate(site.URL+path),
		chromedp.WaitVisible(chromedp.ID("name")),
		chromedp.SendKeys(chromedp.ID("name"), name),
		chromedp.SendKeys(chromedp.ID("password"), Password),
		chromedp.Click(chromedp.ID(button)),
		chromedp.WaitVisible(chromedp.CSS(".lobby")),
		// The staff's header has no balance: the name shows.
		chromedp.WaitVisible(chromedp.CSS("#account .who")),
	)
}

// open goes to a page of the site and waits for the selector.
func open(t testing.TB, ctx context.Context, site *Site, path, wait string) {
	t.Helper()
	do(t, ctx, "open "+path, chromedp.Navigate(site.URL+path), chromedp.WaitVisible(chromedp.CSS(wait)))
}

// waitJS waits until a JavaScript expression is true in the page.
func waitJS(t testing.TB, ctx context.Context, what, js string) {
	t.Helper()
	if !testwait.Within(15*time.Second, func() bool {
		ok, err := chromedp.Run(ctx, chromedp.Evaluate[bool](js))
		return err == nil && ok
	}) {
		shot(t, ctx, "timeout")
		page, _ := chromedp.Run(ctx, chromedp.Evaluate[string](`document.querySelector('main').innerText`))
		t.Fatalf("timed out waiting for %s (%s); the page says:\n%s", what, js, page)
	}
}

// click clicks the element a CSS selector finds, once it is there and
// enabled. The page redraws parts of the felt as events come, so the
// element is found and clicked in one step.
func click(t testing.TB, ctx context.Context, sel string) {
	t.Helper()
	waitJS(t, ctx, "to click "+sel, fmt.Sprintf(`(() => { const e = document.querySelector(%q); if (!e || e.disabled) return false; e.click(); return true })()`, sel))
}

func itoa(n int64) string { return fmt.Sprint(n) }

// pageLog records what a tab receives and what goes wrong in it: every
// WebSocket frame, every API response (read later with bodies), every
// uncaught exception and console error.
type pageLog struct {
	mu        sync.Mutex
	frames    []string
	responses []apiResponse
	urls      map[network.RequestID]string
	errors    []string
}

type apiResponse struct {
	id  network.RequestID
	url string
	at  int // frames received before it
}

// watch starts recording a tab; the test fails if the page throws or logs
// an error.
func watch(t testing.TB, ctx context.Context) *pageLog {
	t.Helper()
	l := &pageLog{urls: map[network.RequestID]string{}}
	err := chromedp.Listen(ctx, func(ev any) {
		l.mu.Lock()
		defer l.mu.Unlock()
		switch e := ev.(type) {
		case *network.EventWebSocketFrameReceived:
			l.frames = append(l.frames, string(e.Response.PayloadData))
		case *network.EventResponseReceived:
			if strings.Contains(e.Response.URL, "/api/") {
				l.urls[e.RequestID] = e.Response.URL
			}
		case *network.EventLoadingFinished:
			if u, ok := l.urls[e.RequestID]; ok {
				l.responses = append(l.responses, apiResponse{e.RequestID, u, len(l.frames)})
			}
		case *runtime.EventExceptionThrown:
			d := e.ExceptionDetails
			msg := d.Text
			if d.Exception != nil && d.Exception.Description != "" {
				msg += " " + d.Exception.Description
			}
			l.errors = append(l.errors, fmt.Sprintf("uncaught: %s (%s:%d)", msg, d.URL, d.LineNumber+1))
		case *runtime.EventConsoleAPICalled:
			if e.Type == runtime.ConsoleAPICalledTypeError {
				var parts []string
				for _, a := range e.Args {
					parts = append(parts, string(a.Value)+a.Description)
				}
				l.errors = append(l.errors, "console.error: "+strings.Join(parts, " "))
			}
		}
	})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() {
		l.mu.Lock()
		defer l.mu.Unlock()
		for _, e := range l.errors {
			t.Errorf("the page: %s", e)
		}
	})
	return l
}

func (l *pageLog) allFrames() []string {
	l.mu.Lock()
	defer l.mu.Unlock()
	return append([]string(nil), l.frames...)
}

// bodies reads the bodies of the API responses received so far, each with
// how many WebSocket frames had come before it.
func (l *pageLog) bodies(t testing.TB, ctx context.Context) []apiResponse {
	t.Helper()
	l.mu.Lock()
	rs := append([]apiResponse(nil), l.responses...)
	l.mu.Unlock()
	return rs
}

func body(ctx context.Context, id network.RequestID) string {
	r, err := chromedp.Call(ctx, network.GetResponseBody, network.GetResponseBodyParams{RequestID: id})
	if err != nil {
		return ""
	}
	return string(r.Body)
}

// keys lists the keyboard shortcuts of the decisions offered, in order.
func keys(t testing.TB, ctx context.Context) string {
	t.Helper()
	return eval[string](t, ctx, `[...document.querySelectorAll('.prompt:not([hidden]) button[data-key]')].map(b => b.dataset.key).join(' ')`)
}

// feltSig is what the felt shows: the dealer's cards and total, each box's
// hands with their totals and results, and the stakes on its spots.
const feltSig = `JSON.stringify({
	dealer: [...document.querySelectorAll('.dealer .card')].map(c => c.dataset.card || '??').join(' ') + ' ' + document.querySelector('.dealer .total').textContent,
	boxes: [...document.querySelectorAll('.box')].map(b => [
		[...b.querySelectorAll('.hand')].map(h => [...h.querySelectorAll('.card')].map(c => c.dataset.card || '??').join(' ') + ' = ' + h.querySelector('.total').textContent + ' ' + (h.querySelector('.badge')?.textContent || '')).join(' | '),
		[...b.querySelectorAll('.spot')].map(s => (s.querySelector('.amount')?.textContent || '-')).join(' '),
		b.querySelector('.plate .name')?.firstChild?.textContent || ''
	].join(' / '))
})`

// seatedClient registers a player through the API, credits him 1,000.00,
// logs him in and seats him at a box of the table: the pit's pages' tests
// play his rounds through it.
func seatedClient(t testing.TB, site *Site, name string, table int64, box int) *client.Client {
	t.Helper()
	ctx := context.Background()
	c := &client.Client{URL: site.URL}
	if err := c.Register(ctx, name, Password); err != nil {
		t.Fatal(err)
	}
	site.Credit(t, name, 100000)
	if _, err := c.Login(ctx, name, Password); err != nil {
		t.Fatal(err)
	}
	if _, err := c.Command(ctx, table, "sit", wire.CommandRequest{Box: box}); err != nil {
		t.Fatal(err)
	}
	return c
}
