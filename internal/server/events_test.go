package server

import (
	"testing"

	"sabot"
)

// Each kind of significant event is said in a line.
func TestEventSummaries(t *testing.T) {
	for _, c := range []struct {
		kind    string
		payload any
		want    string
	}{
		{sabot.LogTimeout, actionPayload{Round: 7, Action: WireAction{Kind: "stand", Player: "ana", Box: 2, Hand: 1}, ByTimeout: true},
			"round 7: time ran out; ana box 2 hand 1: stand applied by default"},
		{sabot.LogTimeout, actionPayload{Round: 8, Action: WireAction{Kind: "close"}, ByTimeout: true},
			"round 8: time ran out; the dealer applied close"},
		{sabot.LogVoid, settlePayload{Round: 9, Void: true, Reason: "void by the pit"},
			"round 9 void, every stake returned: void by the pit"},
		{sabot.LogVoid, settlePayload{Void: true, Closed: true, Reason: "the log does not replay"},
			"table out of service, every stake returned: the log does not replay"},
		{sabot.LogAdmin, adminPayload{Event: "credit", User: "ana", Amount: 5000, Memo: "welcome credit"},
			"credit ana 50.00: welcome credit"},
		{sabot.LogTableOpened, openedPayload{Name: "Madrid", Profile: "spain", Options: map[string]string{"min_bet": "100", "max_bet": "500"}, TestMode: true},
			`table "Madrid" opened: spain max_bet=500 min_bet=100 (test mode)`},
		{sabot.LogConfigure, configurePayload{Changed: map[string]string{"max_bet": "300"}, By: "pit", Reason: "evening",
			Returned: []betPayload{{Player: "ben", Box: 2, Stake: 400}}},
			"the table's configuration changed; max_bet: 300 (by pit: evening); ben's bet of 4.00 on box 2 returned"},
	} {
		if got := summarize(&sabot.LogRecord{Kind: c.kind, Payload: mustJSON(c.payload)}); got != c.want {
			t.Errorf("%s: %q, want %q", c.kind, got, c.want)
		}
	}
}
