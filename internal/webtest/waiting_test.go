package webtest

import (
	"sabot/internal/actor"
	"strings"
	"testing"
	"time"
)

// A table a lone player cannot start says so up front
// (the lobby and the table's heading name AR-03), and when its betting
// window runs out it shows a "waiting for players" state with the right
// counts — three bets of one player — and when the bets come back; never
// an error's raw text. The lobby and the table say it in
// the same words (seated players betting, not bets), the wait is the
// server's AR-21 stand-by as it is (1 min 30 s, not "2 min"), and the table
// points to the tables that deal to one player.
func TestLoneTableWaits_AR03(t *testing.T) {
	t.Parallel()
	g := newGame(t, actor.Timing{BetWindow: 2 * time.Second, Decision: time.Minute, Window: time.Minute, SeatIdle: 90 * time.Second}, "Buenos Aires", "argentina")
	madrid := g.site.Table(t, "Madrid", "spain", limits())
	ana := g.player(t, "ana")
	open(t, ana, g.site, "/", ".lobby .table-card")
	const needs = "Deals with at least 3 seated players betting (AR-03)."
	if got := text(t, ana, ".table-card .to-deal"); got != needs+" Bets placed wait for more players at most 1 min 30 s, then come back (AR-21)." {
		t.Errorf("the lobby says %q of what the table needs", got)
	}
	open(t, ana, g.site, g.path(), ".box .plate")
	if got := text(t, ana, ".table-sub"); !strings.Contains(got, "Deals with at least 3 seated players betting (AR-03).") {
		t.Errorf("the table's heading: %q", got)
	}
	sit(t, ana, 1)
	for _, box := range []int{1, 2, 3} {
		bet(t, ana, box, 0)
		waitJS(t, ana, "the bet", `!!document.querySelector('.box[data-box="`+itoa(int64(box))+`"] .spot.holder .amount')`)
	}
	waitJS(t, ana, "the waiting state", `/^Waiting for players\./.test(document.querySelector('.status-text').textContent)`)
	want := "Waiting for players. " + needs + " Placed now: 3 bets. Your bets stay on the table until it can deal, for at most 1 min 30 s (AR-21); then they come back. You may withdraw them."
	if got := text(t, ana, ".status-text"); got != want {
		t.Errorf("the status:\n%s\nwant\n%s", got, want)
	}
	waitJS(t, ana, "the tables that deal to one player", `document.querySelector('.elsewhere:not([hidden])')?.textContent === 'Tables that deal to one player: Madrid.'`)
	if got := eval[string](t, ana, `document.querySelector('.elsewhere a').getAttribute('href')`); got != "/tables/"+itoa(madrid) {
		t.Errorf("the link to Madrid: %q", got)
	}
	waitCalls(t, ana, needs+" Placed now: 3 bets.")
	page := eval[string](t, ana, `document.body.innerText`)
	for _, raw := range []string{"sabot error", "code=", "message="} {
		if strings.Contains(page, raw) {
			t.Errorf("the page shows an error's raw text %q", raw)
		}
	}
	// A page opened now has it from the snapshot.
	open(t, ana, g.site, g.path(), ".box .plate")
	waitJS(t, ana, "the waiting state after a reload", `document.querySelector('.status-text').textContent.startsWith('Waiting for players. `+needs+`')`)
	open(t, ana, g.site, "/", ".lobby .table-card")
	waitJS(t, ana, "the lobby's waiting state", `document.querySelector('.table-card .now').textContent === 'Waiting for players. `+needs+` Placed now: 3 bets.'`)
}
