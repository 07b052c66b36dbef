package care_test

import (
	"context"
	"net/http"
	"net/http/httptest"
	"reflect"
	"strings"
	"testing"
	"time"

	"sabot"
	"sabot/internal/care"
	"sabot/internal/wire"
	"sabot/money"
)

// The pit finds players by the start of their name and sees each one's
// wallet (not an operator's player's), seats, limits, exclusion or block
// and last rounds; staff are not players; a bad query is refused with the
// reason (the server's TestPitPlayers keeps the seats its tables report).
func TestPlayersView(t *testing.T) { eachStore(t, testPlayersView) }

func testPlayersView(t *testing.T, f *fixture) {
	ctx := context.Background()
	pit := f.user(sabot.User{Name: "pit", Admin: true})
	ana := f.user(sabot.User{Name: "ana"})
	anabel := f.user(sabot.User{Name: "anabel"})
	andrea := f.user(sabot.User{Name: "@andrea", OperatorID: "andrea"})
	f.user(sabot.User{Name: "andy", Role: sabot.RoleDealer})
	f.tables.seats["ana"] = []care.PlayerSeat{{Table: 3, Name: "blackjack", Box: 2}}
	must(f.setLimit(ana, "loss", "day", amt(20000)))
	must(0, f.do("POST", "/api/admin/players/anabel/block", pit, "", care.BlockRequest{Reason: "fraud"}, nil))
	now := f.now()
	must(0, f.st.(sabot.Care).PutCare(ctx, andrea.ID, sabot.PlayerCare{Exclusion: "time-out", ExcludedFrom: now, ExcludedUntil: now.Add(time.Hour)}))

	var ps []care.PlayerView
	must(0, f.do("GET", "/api/admin/players?q=AN", pit, "", nil, &ps))
	if len(ps) != 2 || ps[0].Name != "ana" || ps[1].Name != "anabel" {
		t.Fatalf("players AN: %+v", ps)
	}
	a, b := ps[0], ps[1]
	if a.ID != ana.ID || a.Wallet == nil || *a.Wallet != money.Amount(1000*ana.ID) || len(a.Seats) != 1 || a.Seats[0] != f.tables.seats["ana"][0] ||
		len(a.Limits) != 1 || a.Limits[0] != (care.PlayerLimit{Kind: "loss", Period: "day", Amount: 20000}) || a.Blocked != nil || a.Exclusion != "" || a.Until != nil {
		t.Fatalf("ana as the pit sees her: %+v", a)
	}
	if rs := a.Rounds; len(rs) != care.PlayerRoundsShown || rs[0].ID != "ana-1" || rs[4].ID != "ana-5" || rs[4].Net != -400 {
		t.Fatalf("ana's rounds: %+v, want her last %d", rs, care.PlayerRoundsShown)
	}
	if b.Blocked == nil || !b.Blocked.Blocked || b.Blocked.Reason != "fraud" || b.Blocked.Player != "anabel" || b.Seats == nil || len(b.Seats) != 0 || b.Limits == nil || *b.Wallet != money.Amount(1000*anabel.ID) {
		t.Fatalf("anabel as the pit sees her: %+v", b)
	}
	ps = nil
	must(0, f.do("GET", "/api/admin/players?q=@", pit, "", nil, &ps))
	if len(ps) != 1 || !ps[0].Operator || ps[0].Wallet != nil || ps[0].Exclusion != "time-out" || ps[0].Until == nil || !near(*ps[0].Until, now.Add(time.Hour)) {
		t.Fatalf("an operator's player under a time-out: %+v", ps)
	}
	f.advance(time.Hour)
	ps = nil
	must(0, f.do("GET", "/api/admin/players?q=@", pit, "", nil, &ps))
	if ps[0].Exclusion != "" || ps[0].Until != nil {
		t.Fatalf("a time-out over: %+v", ps[0])
	}

	must(0, f.do("GET", "/api/admin/players?limit=1", pit, "", nil, &ps))
	if len(ps) != 1 {
		t.Fatalf("limit=1: %d players", len(ps))
	}
	must(0, f.do("GET", "/api/admin/players", pit, "", nil, &ps))
	if len(ps) != 3 {
		t.Fatalf("every player: %+v", ps)
	}
	wantCode(t, f.do("GET", "/api/admin/players?q="+strings.Repeat("a", care.MaxPlayerQuery+1), pit, "", nil, &ps), sabot.EINVALID, "at most 64")
	wantCode(t, f.do("GET", "/api/admin/players?limit=51", pit, "", nil, &ps), sabot.EINVALID, "")
}

// A registration or a login from the address or the browser where a
// player under an exclusion (or blocked) was seen is a significant event
// for the pit; the browser is given its ID once, in a
// cookie; staff and operators' players are not recorded (moved here from
// the server's TestCareReRegistration, which keeps the welcome credit).
func TestSighted(t *testing.T) { eachStore(t, testSighted) }

func testSighted(t *testing.T, f *fixture) {
	ctx := context.Background()
	ben := f.user(sabot.User{Name: "ben"})
	cy := f.user(sabot.User{Name: "cy"})
	dan := f.user(sabot.User{Name: "dan"})

	// ben's browser gets its ID at his login.
	w := httptest.NewRecorder()
	if f.care.Sighted(ctx, w, httptest.NewRequest("POST", "/api/login", nil), ben, "10.0.0.1", "logged in") {
		t.Fatalf("nobody excluded was seen yet")
	}
	cookies := w.Result().Cookies()
	if len(cookies) != 1 || cookies[0].Name != "sabot_device" || len(cookies[0].Value) != 32 || !cookies[0].HttpOnly {
		t.Fatalf("the browser's cookie: %+v", cookies)
	}
	device := cookies[0]
	fromBen := func() *http.Request {
		r := httptest.NewRequest("POST", "/api/register", nil)
		r.AddCookie(device)
		return r
	}
	w = httptest.NewRecorder()
	f.care.Sighted(ctx, w, fromBen(), ben, "10.0.0.1", "logged in")
	if len(w.Result().Cookies()) != 0 {
		t.Fatalf("a browser with its ID was given another: %+v", w.Result().Cookies())
	}
	var pc sabot.PlayerCare
	must(0, f.do("POST", "/api/me/care/exclusion", ben, "", care.ExclusionRequest{Kind: "time-out", Days: 1}, &pc))
	f.takeEvents()

	until := pc.ExcludedUntil.UTC().Format(time.RFC3339)
	if !f.care.Sighted(ctx, httptest.NewRecorder(), fromBen(), cy, "10.0.0.1", "registered") {
		t.Fatalf("cy registered from ben's browser and address: not seen")
	}
	if !f.care.Sighted(ctx, httptest.NewRecorder(), httptest.NewRequest("POST", "/api/login", nil), dan, "10.0.0.1", "logged in") {
		t.Fatalf("dan logged in from ben's address: not seen")
	}
	if f.care.Sighted(ctx, httptest.NewRecorder(), httptest.NewRequest("POST", "/api/login", nil), dan, "10.0.0.2", "logged in") {
		t.Fatalf("dan logged in from elsewhere: seen")
	}
	staff := &sabot.User{ID: dan.ID, Name: "dan", Role: sabot.RoleDealer}
	if f.care.Sighted(ctx, httptest.NewRecorder(), fromBen(), staff, "10.0.0.1", "logged in") {
		t.Fatalf("staff are not players: seen")
	}
	evs, _ := f.takeEvents()
	want := []wire.AdminEvent{
		{Event: "excluded-seen", User: "cy", Name: "ben", Until: until, Text: "cy registered from the address and device of ben, under a time-out until " + until + ": no welcome credit"},
		{Event: "excluded-seen", User: "dan", Name: "ben", Until: until, Text: "dan logged in from the address of ben, under a time-out until " + until},
	}
	if len(evs) != len(want) {
		t.Fatalf("the events: %+v", evs)
	}
	for i := range want {
		if !reflect.DeepEqual(evs[i], want[i]) {
			t.Errorf("event %d: %+v, want %+v", i, evs[i], want[i])
		}
	}
}
