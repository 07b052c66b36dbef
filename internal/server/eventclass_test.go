package server_test

import (
	"context"
	"encoding/json"
	"net/url"
	"testing"

	"sabot"
	"sabot/internal/tablelog"
)

// The pit filters the significant-event log by class:
// ?class=money keeps the credits, ?class=table the tables opened, and a
// class that is not one is refused with the classes to give.
func TestEventsByClass(t *testing.T) {
	t.Parallel()
	h := newHarness(t, nil, slow)
	h.table("venice", true, nil)
	h.player("ana", 1000)
	h.player("ben", 500)
	event := func(raw json.RawMessage) string {
		var p struct{ Event string }
		json.Unmarshal(raw, &p)
		return p.Event
	}
	money := h.events(url.Values{"class": {"money"}})
	if len(money) != 2 {
		t.Errorf("class money: %d events, want the 2 credits", len(money))
	}
	for _, ev := range money {
		if ev.Kind != sabot.LogAdmin || event(ev.Payload) != tablelog.EventCredit {
			t.Errorf("class money has %s %q", ev.Kind, event(ev.Payload))
		}
	}
	table := h.events(url.Values{"class": {"table"}})
	opened := 0
	for _, ev := range table {
		if ev.Kind == sabot.LogTableOpened {
			opened++
		}
		if ev.Kind == sabot.LogAdmin && event(ev.Payload) == tablelog.EventCredit {
			t.Errorf("class table has a credit")
		}
	}
	if opened == 0 {
		t.Errorf("class table: no table opened among %d events", len(table))
	}
	if len(h.events(url.Values{"class": {"advantage"}})) != 0 {
		t.Errorf("class advantage: events where nobody played")
	}
	err := h.admin.Do(context.Background(), "GET", "/api/admin/events?class=pit", nil, nil)
	if sabot.ErrorCode(err) != sabot.EINVALID {
		t.Errorf("class=pit: %v, want EINVALID", err)
	}
}
