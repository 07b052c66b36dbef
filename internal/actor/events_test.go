package actor

import (
	"net/http"
	"net/http/httptest"
	"slices"
	"strings"
	"testing"
	"time"

	"sabot"
	"sabot/internal/recall"
	"sabot/internal/tablelog"
	"sabot/internal/wire"
	"sabot/rules"
	"sabot/web"
)

// Each kind of significant event is said in a line.
func TestEventSummaries(t *testing.T) {
	for _, c := range []struct {
		kind    string
		payload any
		want    string
	}{
		{sabot.LogTimeout, tablelog.Decision{Round: 7, Action: wire.Action{Kind: "stand", Player: "ana", Box: 2, Hand: 1}, ByTimeout: true},
			"round 7: time ran out; ana box 2 hand 1: stand applied by default"},
		{sabot.LogTimeout, tablelog.Decision{Round: 8, Action: wire.Action{Kind: "close"}, ByTimeout: true},
			"round 8: time ran out; the dealer applied close"},
		{sabot.LogVoid, tablelog.Settle{Round: 9, Void: true, Reason: "void by the pit"},
			"round 9 void, every stake returned: void by the pit"},
		{sabot.LogVoid, tablelog.Settle{Void: true, Closed: true, Reason: "the log does not replay"},
			"table out of service, every stake returned: the log does not replay"},
		{sabot.LogAdmin, wire.AdminEvent{Event: "credit", User: "ana", Amount: 5000, Memo: "welcome credit"},
			"credit ana 50.00: welcome credit"},
		{sabot.LogTableOpened, tablelog.Opened{Name: "Madrid", Profile: "spain", Options: map[string]string{"min_bet": "100", "max_bet": "500"}, TestMode: true},
			`table "Madrid" opened: spain max_bet=5.00 min_bet=1.00 (test mode)`},
		{sabot.LogConfigure, tablelog.Configure{Changed: map[string]string{"max_bet": "300"}, By: "pit", Reason: "evening",
			Returned: []tablelog.Bet{{Player: "ben", Box: 2, Stake: 400}}},
			"the table's configuration changed; max_bet: 3.00 (by pit: evening); ben's bet of 4.00 on box 2 returned"},
	} {
		if got := sabot.Sentence(recall.Words(&sabot.LogRecord{Kind: c.kind, Payload: MustJSON(c.payload)})); got != c.want {
			t.Errorf("%s: %q, want %q", c.kind, got, c.want)
		}
	}
}

// Every phrase a significant event is said in is in the Spanish and
// Italian catalogues (event.KEY), naming only the values the phrase sends
// (the pit page in the pit's language).
func TestEventPhrasesTranslated(t *testing.T) {
	bank, none := "ana", ""
	recs := []struct {
		kind    string
		payload any
	}{
		{sabot.LogTimeout, tablelog.Decision{Round: 7, Action: wire.Action{Kind: "stand", Player: "ana", Box: 2, Hand: 1}}},
		{sabot.LogTimeout, tablelog.Decision{Round: 8, Action: wire.Action{Kind: "close"}}},
		{sabot.LogVoid, tablelog.Settle{Round: 9, Void: true, Reason: "void by the pit"}},
		{sabot.LogVoid, tablelog.Settle{Round: 9, Void: true, Reason: "the cards ran out (AR-08)"}},
		{sabot.LogVoid, tablelog.Settle{Round: 9, Void: true, Reason: "the cut card came out and the house stops the shoe (EG-04)"}},
		{sabot.LogVoid, tablelog.Settle{Void: true, Closed: true, Reason: "the log does not replay"}},
		{sabot.LogTableOpened, tablelog.Opened{Name: "Madrid", Profile: "spain", TestMode: true}},
		{sabot.LogConfigure, tablelog.Configure{Changed: map[string]string{"max_bet": "300", "min_bet": ""}, Bank: &bank, NewShoe: true, By: "pit", Reason: "evening",
			Returned: []tablelog.Bet{{Player: "ben", Box: 2, Stake: 400}}}},
		{sabot.LogConfigure, tablelog.Configure{Bank: &none, By: "pit"}},
		{sabot.LogAdmin, wire.AdminEvent{Event: "credit", User: "ana", Amount: 5000, Memo: "welcome credit"}},
		{sabot.LogAdmin, wire.AdminEvent{Event: "admin-created", User: "pit"}},
		{sabot.LogAdmin, wire.AdminEvent{Event: "force-cards", Cards: nil}},
		{sabot.LogAdmin, wire.AdminEvent{Event: "new-shoe", Text: "a new shoe on the inspector's request (AR-24)"}},
		{sabot.LogAdmin, wire.AdminEvent{Event: "void", Round: 3, Text: "void by the pit"}},
		{sabot.LogAdmin, wire.AdminEvent{Event: "node-joined", Node: "n1", URL: "http://a", Tables: 3, Text: "node n1 joined"}},
		{sabot.LogAdmin, wire.AdminEvent{Event: "node-lost", Node: "n1", URL: "http://a", Tables: 3, At: time.Now().Format(time.RFC3339), Text: "node n1 lost"}},
		{sabot.LogAdmin, wire.AdminEvent{Event: "table-created", Table: 4, Name: "Roma", Profile: "venice", Text: "table 4"}},
		{sabot.LogAdmin, wire.AdminEvent{Event: "self-exclusion", User: "ben", Days: 30, Until: time.Now().Format(time.RFC3339), Text: "ben chose"}},
		{sabot.LogAdmin, wire.AdminEvent{Event: "staff-created", User: "dora", Role: sabot.RoleDealer, Text: "dealer dora by pit"}},
		{sabot.LogAdmin, wire.AdminEvent{Event: "staff-created", User: "ivo", Role: sabot.RoleInspector, Text: "inspector ivo by pit"}},
		{sabot.LogAdmin, wire.AdminEvent{Event: "device-issued", Device: 3, Name: "reader 1", Table: 2, Text: "card reader 3"}},
		{sabot.LogAdmin, wire.AdminEvent{Event: "device-revoked", Device: 3, Text: "card reader 3 revoked"}},
		{sabot.LogAdmin, wire.AdminEvent{Event: "wallet-rollback", User: "@p1", Amount: 500, Table: 2, Memo: "d-1", Text: "no answer within 3s"}},
		{sabot.LogAdmin, wire.AdminEvent{Event: "wallet-undelivered", User: "@p1", Amount: 500, Table: 2, Memo: "c-1", Text: "credit c-1 unanswered for 1m0s"}},
		{sabot.LogAdmin, wire.AdminEvent{Event: "wallet-refused", User: "@p1", Amount: 500, Table: 2, Memo: "c-1", Text: "credit c-1 refused"}},
		{sabot.LogAdmin, wire.AdminEvent{Event: "wallet-paid", User: "@p1", Amount: 500, Table: 2, Memo: "c-1", Text: "credit c-1, refused, paid when sent again as c-1-2"}},
		{sabot.LogAdmin, wire.AdminEvent{Event: "wallet-resolved", User: "@p1", Amount: 500, Table: 2, Memo: "c-1", By: "pit", Text: "paid by the cashier"}},
		{sabot.LogAdmin, wire.AdminEvent{Event: "ruling", By: "ivo", Text: "box 3's card stands"}},
		{sabot.LogAdmin, wire.AdminEvent{Event: "buy-in", User: "#4-9", Amount: 5000, By: "dora", Text: "#4-9 buys 50.00"}},
		{sabot.LogAdmin, wire.AdminEvent{Event: "cash-out", User: "#4-9", Amount: 6000, By: "dora", Text: "#4-9 changes 60.00"}},
		{sabot.LogAdmin, wire.AdminEvent{Event: "correction-asked", Correction: &wire.CorrectionView{Case: "b", Round: 4, Box: 2, Asked: "dora"}, Text: "AR-23 (b)"}},
		{sabot.LogAdmin, wire.AdminEvent{Event: "correction-approved", Correction: &wire.CorrectionView{Case: "b", Round: 4, Box: 2, Asked: "dora", By: "ivo"}, Text: "AR-23 (b)"}},
		{sabot.LogAdmin, wire.AdminEvent{Event: "rtp-outside", Table: 2, Text: "table 2's return is outside its band",
			Return: &wire.ReturnValues{Rounds: 5000, RTP: 1.05, Low: 0.97, High: 1.02, Certified: 0.995, Z: 5.1}}},
		{sabot.LogAdmin, wire.AdminEvent{Event: "advantage-play", User: "ana", Table: 2, Text: "ana's bets follow the count",
			Count: &wire.CountValues{Rounds: 120, HiLoZ: 4.4, HiOptIIZ: 4.0}}},
		{sabot.LogAdmin, wire.AdminEvent{Event: "index-play", User: "ana", Table: 2, Text: "ana's play at the index hands follows the count",
			Count: &wire.CountValues{Rounds: 40, Said: 12, DeviatedSaid: 11, DeviatedNotSay: 1, Z: 4.2}}},
		{sabot.LogAdmin, wire.AdminEvent{Event: "back-counting", User: "ben", Table: 2, Text: "ben's back bets follow the count",
			Count: &wire.CountValues{Rounds: 150, Backed: 30, Z: 4.1}}},
		{sabot.LogAdmin, wire.AdminEvent{Event: "correction-refused", Correction: &wire.CorrectionView{Case: "c", Round: 4, Asked: "dora", By: "ivo"}, Text: "AR-23 (c)"}},
	}
	said := map[string]sabot.Phrase{}
	for _, r := range recs {
		for _, p := range recall.Words(&sabot.LogRecord{Kind: r.kind, Payload: MustJSON(r.payload)}) {
			if p.Key == "" {
				t.Errorf("%s %+v: a phrase without a key: %q", r.kind, r.payload, p.Text)
			}
			said[p.Key] = p
		}
	}
	if len(said) < 32 {
		t.Errorf("%d phrases said: a case is missing", len(said))
	}
	for _, lang := range []string{"es", "it"} {
		cat, err := web.Messages(lang)
		if err != nil {
			t.Fatal(err)
		}
		for key, p := range said {
			names, ok := cat["event."+key]
			if !ok {
				t.Errorf("%s.js lacks event.%s (%q)", lang, key, p.Text)
			}
			for _, n := range names {
				if _, ok := p.Params[n]; !ok {
					t.Errorf("%s.js event.%s names {%s}; the phrase sends %v", lang, key, n, p.Params)
				}
			}
			for n := range p.Params {
				if !slices.Contains(names, n) {
					t.Errorf("%s.js event.%s leaves out {%s}", lang, key, n)
				}
			}
		}
		for _, kind := range sabot.SignificantKinds {
			if _, ok := cat["kind."+kind]; !ok {
				t.Errorf("%s.js lacks kind.%s", lang, kind)
			}
		}
	}
}

// The reasons the table's events carry (a box or seat given up, a bet the
// bank cannot cover, a void) are worded in every language, from the values
// the server sends.
func TestEventReasonsWorded(t *testing.T) {
	a := &Table{p: rules.MustLookup("family")}
	for reason, params := range map[string]map[string]any{
		"seat_no_bet":         ruleParams("", map[string]any{}), // no regulation's rule at a family table
		"box_given_up_no_bet": releaseParams(3, 30*time.Second, ""),
		"box_given_up_idle":   releaseParams(3, 30*time.Second, "AR-21"),
		"bank_cannot_cover":   a.uncoveredParams("ana", 1000, 500),
		"back_bet_unplayed":   unplayedParams(3, "ES-03"),
		recall.VoidReason("the cards ran out (AR-08)"):                                  nil,
		recall.VoidReason(rules.MustLookup("spain").VoidText()):                         recall.VoidParams(rules.MustLookup("spain").VoidText()),
		recall.VoidReason("the cut card came out and the house stops the shoe (EG-04)"): nil,
	} {
		for _, lang := range []string{"en", "es", "it"} {
			cat, err := web.Messages(lang)
			if err != nil {
				t.Fatal(err)
			}
			names, ok := cat["reason."+reason]
			if !ok {
				t.Errorf("%s.js lacks reason.%s", lang, reason)
			}
			for _, n := range names {
				if _, ok := params[n]; !ok {
					t.Errorf("%s.js reason.%s names {%s}; the event sends %v", lang, reason, n, params)
				}
			}
		}
	}
}

// The rules panel says what a timer decides in the page's language from
// its catalogue (rules.onTimeout); the English is the server's OnTimeout,
// word for word, so that the two cannot drift apart.
func TestOnTimeoutInCatalogue(t *testing.T) {
	rec := httptest.NewRecorder()
	web.Handler().ServeHTTP(rec, httptest.NewRequest("GET", "/js/i18n/en.js", nil))
	if rec.Code != http.StatusOK {
		t.Fatalf("GET /js/i18n/en.js: %d", rec.Code)
	}
	want := strings.ReplaceAll("When time runs out — "+OnTimeout+".", `"`, `\"`)
	if !strings.Contains(rec.Body.String(), want) {
		t.Errorf("en.js's rules.onTimeout is not %q", want)
	}
}
