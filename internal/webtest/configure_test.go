package webtest

import (
	"strings"
	"testing"
)

// The pit changes a live table's limits between rounds: the player's page
// says so in the dealer's calls, shows the new limits in the rules, and the
// bet the new maximum refuses comes back to the balance.
func TestConfigurationChange(t *testing.T) {
	t.Parallel()
	g := newGame(t, slow, "Madrid", "spain")
	ana := g.join(t, "ana")
	waitJS(t, ana, "the limits in the rules", `document.querySelector('#rules').innerText.includes('Limits: 1.00 to 1,000.00')`)
	sit(t, ana, 1)
	ben := g.join(t, "ben")
	sit(t, ben, 2)      // ben has not bet: no deal
	bet(t, ana, 1, 500) // 5.00
	waitBalance(t, ana, "the bet debited", "995.00")
	g.site.Configure(t, g.table, map[string]string{"max_bet": "400"}, "new limits for the evening")
	waitJS(t, ana, "the pit's call", `document.querySelector('.calls').innerText.includes('The pit: the table')`)
	waitJS(t, ana, "the new limits in the rules", `document.querySelector('#rules').innerText.includes('Limits: 1.00 to 4.00')`)
	waitBalance(t, ana, "the refused bet returned", "1,000.00")
	if calls := text(t, ana, ".calls"); !strings.Contains(calls, "max_bet: 4.00") {
		t.Fatalf("the calls do not say the change: %q", calls)
	}
}
