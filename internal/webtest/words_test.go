package webtest

import (
	"fmt"
	"testing"

	"github.com/chromedp/chromedp"
)

// The login page's refusals in the page's language: an unknown name or a
// wrong password, and a password too short to register, read in Spanish
// and Italian as the server's reason words them, never its English text.
func TestLoginRefusalsInThePageLanguage(t *testing.T) {
	t.Parallel()
	site := MustStart(t, slow)
	ctx := Browser(t, 1280, 800)
	for _, c := range []struct{ lang, login, short string }{
		{"es", "Nombre desconocido o contraseña incorrecta.", "Una contraseña tiene al menos 8 caracteres."},
		{"it", "Nome sconosciuto o password errata.", "Una password ha almeno 8 caratteri."},
		{"en", "Unknown name or wrong password.", "A password has at least 8 characters."},
	} {
		open(t, ctx, site, "/login", "#name")
		choose(t, ctx, c.lang)
		waitJS(t, ctx, "the page in "+c.lang, fmt.Sprintf(`document.documentElement.lang === %q`, c.lang))
		try := func(name, password, button, want string) {
			t.Helper()
			do(t, ctx, button+" "+name,
				chromedp.SetValue(chromedp.ID("name"), name),
				chromedp.SetValue(chromedp.ID("password"), password),
				chromedp.Click(chromedp.ID(button)))
			waitJS(t, ctx, c.lang+": "+want, fmt.Sprintf(`document.getElementById('login-error').textContent === %q`, want))
		}
		try("nadie", "not the password", "login", c.login)
		try("carla", "short", "register", c.short)
	}
}

// A table's page for a table that does not exist says so, in the page's
// language, instead of "connecting…" for ever; so does a visitor's.
func TestMissingTableSaysSo(t *testing.T) {
	t.Parallel()
	g := newGame(t, slow, "Madrid", "spain")
	ana := g.player(t, "ana")
	open(t, ana, g.site, "/tables/9999", "main")
	waitJS(t, ana, "the missing table said", `document.querySelector('main h1')?.textContent === 'No such table' && document.querySelector('main .form-error')?.textContent === 'There is no table 9999.'`)
	choose(t, ana, "es")
	open(t, ana, g.site, "/tables/9998", "main")
	waitJS(t, ana, "the missing table said in Spanish", `document.querySelector('main h1')?.textContent === 'Esta mesa no existe' && document.querySelector('main .form-error')?.textContent === 'No existe la mesa 9998.'`)
}
