package recall

import (
	"encoding/json"
	"reflect"
	"slices"
	"strings"
	"testing"

	"sabot"
	"sabot/internal/tablelog"
	"sabot/internal/wire"
	"sabot/web"
)

// The live watch's index-play and back-counting events (the
// server writes them from report.CountWatch's flags) are said from their
// figures, in phrases the pit's catalogues word in English, Spanish and
// Italian, naming only the values each phrase sends.
func TestAdvantageEventWords(t *testing.T) {
	cases := []struct {
		payload string
		key     string
		want    map[string]any
	}{
		{`{"event":"index-play","user":"ana","table":3,"round":90,"text":"ana's play follows the count","count":{"rounds":40,"hi_lo_z":0,"hi_opt_ii_z":0,"said":9,"deviated_when_said":9,"deviated_when_not":1,"z":4.2}}`,
			"indexPlay", map[string]any{"user": "ana", "table": int64(3), "n": 40, "said": 9, "took": 9, "other": 1, "z": 4.2}},
		{`{"event":"back-counting","user":"bo","table":3,"round":91,"text":"bo bets behind when the count is high","count":{"rounds":120,"hi_lo_z":0,"hi_opt_ii_z":0,"backed":30,"z":5.1}}`,
			"backCounting", map[string]any{"user": "bo", "table": int64(3), "n": 120, "backed": 30, "z": 5.1}},
	}
	for _, c := range cases {
		words := Words(&sabot.LogRecord{Kind: sabot.LogAdmin, Payload: json.RawMessage(c.payload)})
		if len(words) != 1 || words[0].Key != c.key {
			t.Fatalf("%s: %+v, want one phrase %s", c.key, words, c.key)
		}
		p := words[0]
		for k, v := range c.want {
			if p.Params[k] != v {
				t.Errorf("%s: {%s} = %#v, want %#v", c.key, k, p.Params[k], v)
			}
		}
		catalogueNames(t, p)
	}
}

// A configuration change says a money option as money (max_bet: 400.00),
// never its minor units (40000), with the amount as a value the pit's
// page words in its language; other options as they are.
func TestChangeWordsSayMoneyAsMoney(t *testing.T) {
	words := ChangeWords(tablelog.Configure{Changed: map[string]string{"max_bet": "40000", "decks": "6", "min_bet": ""}})
	if got, want := sabot.Sentence(words), "the table's configuration changed; decks: 6; max_bet: 400.00; min_bet: the profile's"; got != want {
		t.Errorf("%q, want %q", got, want)
	}
	var money *sabot.Phrase
	for i := range words {
		if words[i].Params["option"] == "max_bet" {
			money = &words[i]
		}
	}
	if money == nil || money.Key != "optionMoney" || money.Params["amount"] != int64(40000) {
		t.Fatalf("max_bet's phrase: %+v, want optionMoney with amount 40000", money)
	}
	for _, lang := range []string{"en", "es", "it"} {
		cat, err := web.Messages(lang)
		if err != nil {
			t.Fatal(err)
		}
		if names, ok := cat["event.optionMoney"]; !ok || !slices.Contains(names, "amount") {
			t.Errorf("%s: event.optionMoney names %q, want the amount", lang, names)
		}
	}
}

// TestEventWordsInEveryLanguage: every significant event a server writes
// (tablelog.Events) has its words in recall's registry, and each phrase of
// its examples is in the pit's catalogues in English, Spanish and Italian,
// naming only the values the phrase sends; the kinds of the
// significant-event log are worded too. The only events said as written
// are the two that have never had words of their own.
func TestEventWordsInEveryLanguage(t *testing.T) {
	plain := []string{tablelog.EventPasswordChanged, tablelog.EventExcludedSeen}
	if err := checkEventWords(eventWords, tablelog.EventTypes); err != nil {
		t.Fatal(err)
	}
	for _, ev := range tablelog.EventTypes {
		e := eventWords[reflect.TypeOf(ev)]
		if e.say == nil {
			if !slices.Contains(plain, ev.EventName()) {
				t.Errorf("event %q has no words of its own", ev.EventName())
			}
			continue
		}
		for _, x := range e.examples {
			for _, p := range Words(&sabot.LogRecord{Kind: sabot.LogAdmin, Payload: mustJSON(t, x)}) {
				if p.Key != "" { // a phrase of text alone has no words (none is keyed so)
					catalogueNames(t, p)
				}
			}
		}
	}
	for _, lang := range []string{"en", "es", "it"} {
		cat, err := web.Messages(lang)
		if err != nil {
			t.Fatal(err)
		}
		for _, kind := range sabot.SignificantKinds {
			if _, ok := cat["kind."+kind]; !ok {
				t.Errorf("%s.js lacks kind.%s", lang, kind)
			}
		}
	}
}

// TestCheckEventWordsRefusesAnEventWithout: the start-up check refuses an
// event without words, and words for an event that is not one.
func TestCheckEventWordsRefusesAnEventWithout(t *testing.T) {
	if err := checkEventWords(eventWords, append(slices.Clone(tablelog.EventTypes), newEvent{})); err == nil || !strings.Contains(err.Error(), `"new-event" (recall.newEvent) has no words`) {
		t.Errorf("an event without words: %v", err)
	}
	if err := checkEventWords(eventWords, tablelog.EventTypes[1:]); err == nil || !strings.Contains(err.Error(), "not one of tablelog.EventTypes") {
		t.Errorf("words of an event that is not one: %v", err)
	}
}

// newEvent is an event no registry words.
type newEvent struct{}

func (newEvent) EventName() string      { return "new-event" }
func (newEvent) EventType() string      { return tablelog.EventTypePrefix + "v1.new-event" }
func (newEvent) Admin() wire.AdminEvent { return wire.AdminEvent{Event: "new-event"} }

func mustJSON(t *testing.T, v any) json.RawMessage {
	t.Helper()
	b, err := json.Marshal(v)
	if err != nil {
		t.Fatal(err)
	}
	return b
}

// catalogueNames checks that each language's event.KEY names exactly the
// values a phrase sends.
func catalogueNames(t *testing.T, p sabot.Phrase) {
	t.Helper()
	for _, lang := range []string{"en", "es", "it"} {
		cat, err := web.Messages(lang)
		if err != nil {
			t.Fatal(err)
		}
		names, ok := cat["event."+p.Key]
		if !ok {
			t.Errorf("%s.js lacks event.%s", lang, p.Key)
		}
		for _, n := range names {
			if _, ok := p.Params[n]; !ok {
				t.Errorf("%s.js event.%s names {%s}; the phrase sends %v", lang, p.Key, n, p.Params)
			}
		}
		for n := range p.Params {
			if !slices.Contains(names, n) {
				t.Errorf("%s.js event.%s leaves out {%s}", lang, p.Key, n)
			}
		}
	}
}

// A walk-in is named in the events as the dealer's console names him, by
// his box ("Walk-in, box 2"), never by his account (#8-3): his buy-in, his
// cash-out, his decision applied by timeout and his bet returned.
func TestWalkInEventsNameHisBox(t *testing.T) {
	cases := []struct {
		kind, payload, key, want string
	}{
		{sabot.LogAdmin, `{"event":"buy-in","user":"#8-3","amount":5000,"table":8,"by":"dora","box":2,"text":"#8-3 buys 50.00 in chips at box 2 (by dora)"}`,
			"buyInWalkIn", "buy-in: walk-in, box 2 buys 50.00 in chips (by dora)"},
		{sabot.LogAdmin, `{"event":"cash-out","user":"#8-3","amount":2500,"table":8,"by":"dora","box":2,"text":"x"}`,
			"cashOutWalkIn", "cash-out: walk-in, box 2 changes 25.00 in chips back to cash (by dora)"},
		{sabot.LogAdmin, `{"event":"correction-asked","correction":{"id":7,"round":0,"case":"buy-in","box":2,"asked_by":"dora","text":"over the table's cash_approval of 1,000.00","player":"#8-3","amount":400000},"text":"buy-in of 4,000.00 for walk-in, box 2: over the table's cash_approval of 1,000.00 (asked by dora)"}`,
			"buyInAskedWalkIn", "correction-asked: buy-in of 4,000.00 for walk-in, box 2: over the table's cash_approval of 1,000.00 (asked by dora)"},
		{sabot.LogAdmin, `{"event":"correction-asked","correction":{"id":8,"round":0,"case":"cash-out","box":2,"asked_by":"dora","text":"x","player":"#8-3","amount":400000},"text":"cash-out of 4,000.00 for walk-in, box 2: x (asked by dora)"}`,
			"cashOutAskedWalkIn", "correction-asked: cash-out of 4,000.00 for walk-in, box 2: x (asked by dora)"},
		{sabot.LogTimeout, `{"round":4,"action":{"action":"stand","player":"#8-3","box":2,"hand":1}}`,
			"timeoutWalkIn", "round 4: time ran out; walk-in, box 2 hand 1: stand applied by default"},
		{sabot.LogConfigure, `{"changed":{"decks":"6"},"by":"pit","returned":[{"player":"#8-3","box":2,"stake":1000}]}`,
			"returnedWalkIn", "the table's configuration changed; decks: 6 (by pit); the bet of 10.00 of the walk-in at box 2 returned"},
	}
	for _, c := range cases {
		words := Words(&sabot.LogRecord{Kind: c.kind, Payload: json.RawMessage(c.payload)})
		if got := sabot.Sentence(words); got != c.want {
			t.Errorf("%s: %q, want %q", c.key, got, c.want)
		}
		var p *sabot.Phrase
		for i := range words {
			if words[i].Key == c.key {
				p = &words[i]
			}
		}
		if p == nil {
			t.Errorf("%s: %+v has no phrase %s", c.key, words, c.key)
			continue
		}
		if _, ok := p.Params["player"]; ok {
			t.Errorf("%s: sends the account %v", c.key, p.Params["player"])
		}
		if _, ok := p.Params["user"]; ok {
			t.Errorf("%s: sends the account %v", c.key, p.Params["user"])
		}
		catalogueNames(t, *p)
	}
}

// A table opened or created says its money options as money
// (max_bet=400.00), never minor units, each option a phrase the pit's page
// words in its language.
func TestOpenedOptionsSayMoneyAsMoney(t *testing.T) {
	for _, c := range []struct{ kind, payload, want string }{
		{sabot.LogTableOpened, `{"name":"t1","profile":"spain","options":{"max_bet":"40000","decks":"6"}}`,
			`table "t1" opened: spain decks=6 max_bet=400.00`},
		{sabot.LogAdmin, `{"event":"table-created","table":3,"name":"t1","profile":"spain","options":{"max_bet":"40000","decks":"6"}}`,
			`table-created: table 3 "t1": spain decks=6 max_bet=400.00`},
	} {
		words := Words(&sabot.LogRecord{Kind: c.kind, Payload: json.RawMessage(c.payload)})
		if got := sabot.Sentence(words); got != c.want {
			t.Errorf("%q, want %q", got, c.want)
		}
		money := 0
		for _, p := range words {
			catalogueNames(t, p)
			if p.Key == "openOptionMoney" && p.Params["amount"] == int64(40000) {
				money++
			}
		}
		if money != 1 {
			t.Errorf("%+v: want one openOptionMoney of 40000", words)
		}
	}
}
