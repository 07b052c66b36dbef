package webtest

import (
	"net/http/httptest"
	"strings"
	"testing"
	"time"

	"sabot/internal/server"
	"sabot/internal/testwait"
	"sabot/internal/wallet"
	"sabot/internal/wallet/walletsim"
)

// A player launched from the operator's site:
// the operator's link opens the web table logged in as the operator's
// player, with no registration; the session never stays in the address
// bar; the balance is the operator's, and a bet is debited there.
func TestLaunchFromOperator(t *testing.T) {
	t.Parallel()
	secret := []byte("a secret shared with the operator")
	op := walletsim.New(secret, "EUR")
	ws := httptest.NewServer(op)
	defer ws.Close()
	op.AddPlayer("p-7", "Paola", 100000)
	op.IssueToken("p-7", "tok-7")
	site := MustStart(t, slow, func(s *server.Server) {
		s.Wallet = &wallet.Client{URL: ws.URL, Secret: secret}
		s.Currency = "EUR"
	})
	table := site.Table(t, "operator", "vegas-s17", nil)
	ctx := page(t, 1280, 900)
	open(t, ctx, site, "/launch?token=tok-7&table="+itoa(table), ".box")
	waitJS(t, ctx, "on the table, the session out of the address bar",
		`location.pathname === '/tables/`+itoa(table)+`' && location.hash === '' && JSON.parse(localStorage.getItem('sabot.session')).token.length > 0`)
	waitBalance(t, ctx, "the operator's balance", "€1,000.00")
	sit(t, ctx, 1)
	bet(t, ctx, 1, 0)
	testwait.Until(t, 10*time.Second, "the bet debited at the operator", func() bool { return op.Balance("p-7") != 100000 })
	if name := eval[string](t, ctx, `JSON.parse(localStorage.getItem('sabot.session')).user.name`); name != "@p-7" {
		t.Fatalf("playing as %q", name)
	}
	// His account page says who handles his limits,
	// with no tools that would refuse him.
	open(t, ctx, site, "/account", ".care-operator")
	if got := text(t, ctx, ".care-operator"); !strings.HasPrefix(got, "Your account and its money are your operator’s: your limits, time-outs and exclusions are set on its site and handled by it") {
		t.Errorf("the account page of an operator's player: %q", got)
	}
	if eval[bool](t, ctx, `!!document.querySelector('.care-form, .care-breaks')`) {
		t.Errorf("an operator's player is offered limits and breaks sabot refuses him")
	}
}
