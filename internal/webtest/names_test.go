package webtest

import (
	"strings"
	"testing"

	"github.com/chromedp/chromedp"

	"sabot/internal/server"
)

// José and Ana María register through the login page;
// a name over the limit is refused with its length, never cut; the page
// says what a new wallet is credited, as the server does.
func TestUnicodeNames(t *testing.T) {
	t.Parallel()
	site := MustStart(t, slow, func(s *server.Server) { s.WelcomeCredit = 100000 })
	ctx := page(t, 1280, 900)
	open(t, ctx, site, "/login", "#name")
	waitJS(t, ctx, "the welcome credit", `/starts with 1,000\.00/.test(document.getElementById('welcome').textContent)`)
	if got := text(t, ctx, "#name-hint"); !strings.Contains(got, "at most 32 characters") {
		t.Errorf("the name's hint: %q", got)
	}

	long := strings.Repeat("a", 200)
	do(t, ctx, "a name of 200 characters",
		chromedp.SendKeys(chromedp.ID("name"), long),
		chromedp.SendKeys(chromedp.ID("password"), Password),
		chromedp.Click(chromedp.ID("register")))
	waitJS(t, ctx, "the refusal", `document.getElementById('login-error').textContent !== ''`)
	if got := text(t, ctx, "#login-error"); got != "A name has at most 32 characters; this one has 200." {
		t.Errorf("a long name: %q", got)
	}
	if got := eval[int](t, ctx, `document.getElementById('name').value.length`); got != 200 {
		t.Errorf("the name field holds %d characters: the name was cut", got)
	}

	for _, name := range []string{"José", "Ana María"} {
		register(t, ctx, site, name)
		if got := text(t, ctx, "#account .who"); got != name {
			t.Errorf("logged in as %q, want %q", got, name)
		}
		if got := text(t, ctx, "#balance"); got != "1,000.00" {
			t.Errorf("%s's new wallet holds %s, want the welcome credit 1,000.00", name, got)
		}
		eval[bool](t, ctx, `(localStorage.clear(), true)`)
	}
	// The server's refusal, word for word, on the page: look-alike letters.
	open(t, ctx, site, "/login", "#name")
	do(t, ctx, "a mixed-alphabet name",
		chromedp.SendKeys(chromedp.ID("name"), "аna"),
		chromedp.SendKeys(chromedp.ID("password"), Password),
		chromedp.Click(chromedp.ID("register")))
	waitJS(t, ctx, "the refusal", `document.getElementById('login-error').textContent !== ''`)
	if got := text(t, ctx, "#login-error"); !strings.Contains(got, "one alphabet") {
		t.Errorf("a mixed-alphabet name: %q", got)
	}
}
