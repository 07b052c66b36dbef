package webapi

import (
	"encoding/json"
	"net/http"
	"net/http/httptest"
	"net/url"
	"strings"
	"testing"
	"time"

	"sabot/analysis"
	"sabot/card"
	"sabot/rules"
)

// calcServer serves a's handlers on the test tables.
func calcServer(t *testing.T, a *API) *httptest.Server {
	t.Helper()
	a.Tables = tables{4: {ID: 4, Name: "one deck", Profile: "vegas-s17", Options: map[string]string{"decks": "1", "cut_card_reserve": "0"}}}
	mux := http.NewServeMux()
	a.Register(mux)
	ts := httptest.NewServer(mux)
	t.Cleanup(ts.Close)
	return ts
}

// The calculator takes the table's options changed by o=key=value (as
// sabot's -o) and each post-split strategy: its values are HandValues' for
// those rules, to the last bit, and differ from the table's own.
func TestEVOptions(t *testing.T) {
	ts := calcServer(t, &API{})
	q := url.Values{"up": {"6"}, "hand": {"8,8"}, "removed": {"T,T"}, "split_play": {"cdz"},
		"o": {"decks=2", "dealer_hits_soft_17=true", "double_after_split=false", "surrender=late"}}
	resp, body := get(t, ts.URL+"/api/tables/4/ev?"+q.Encode())
	if resp.StatusCode != 200 {
		t.Fatalf("%d %s", resp.StatusCode, body)
	}
	var got analysis.Values
	if err := json.Unmarshal([]byte(body), &got); err != nil {
		t.Fatal(err)
	}
	p := rules.MustLookup("vegas-s17")
	if err := p.SetAll([]string{"decks=1", "cut_card_reserve=0", "decks=2", "dealer_hits_soft_17=true", "double_after_split=false", "surrender=late"}); err != nil {
		t.Fatal(err)
	}
	want, err := analysis.HandValues(p, card.MustParse("6S"), card.MustParseList("8H 8D"), analysis.EVOptions{Removed: card.MustParseList("TS TH"), SplitPlay: analysis.SplitCDZ})
	if err != nil {
		t.Fatal(err)
	}
	if *got.Split != *want.Split || *got.Stand != *want.Stand || got.Surrender == nil || *got.Surrender != -0.5 || got.Cards != 104-5 {
		t.Errorf("ours %+v\nHandValues %+v", got, want)
	}
	_, plain := get(t, ts.URL+"/api/tables/4/ev?up=6&hand=8,8")
	var table analysis.Values
	json.Unmarshal([]byte(plain), &table)
	if table.Split == nil || *table.Split == *got.Split || table.Surrender != nil {
		t.Errorf("the options changed nothing: %s", plain)
	}
}

// What a request may ask is bounded: a clear 400 for a query too long, too
// many options, an option out of the rules' bounds or unknown.
func TestEVBounds(t *testing.T) {
	ts := calcServer(t, &API{})
	many := strings.Repeat("&o=decks=2", MaxEVOptions+1)
	for _, c := range []struct{ query, want string }{
		{"up=6&hand=8,8&removed=" + strings.Repeat("T,", 600), "at most 1024"},
		{"up=6&hand=8,8" + many, "17 options, at most 16"},
		{"up=6&hand=8,8&o=decks=17", "want 1 to 16 decks"},
		{"up=6&hand=8,8&o=max_hands=9", "max_hands"},
		{"up=6&hand=8,8&o=wizardry=1", `"wizardry"`},
		{"up=6&hand=8,8&o=decks", `"decks" is not key=value`},
		{"up=6&hand=8,8&split_play=cdq", "want cdz, cdp1, cdp or exact"},
	} {
		resp, body := get(t, ts.URL+"/api/tables/4/ev?"+c.query)
		var e struct{ Code, Error string }
		json.Unmarshal([]byte(body), &e)
		if resp.StatusCode != 400 || e.Code != "invalid" || !strings.Contains(e.Error, c.want) || strings.Contains(e.Error, "\n") {
			t.Errorf("%.60s: %d %s; want 400 invalid with %q", c.query, resp.StatusCode, body, c.want)
		}
	}
}

// A client address that has spent its computing time is refused with 429
// and when to try again, another address is not; with every slot busy a
// request is refused with 503 once it has waited CalcWait.
func TestEVBudget(t *testing.T) {
	a := &API{CalcBurst: time.Millisecond, CalcShare: 1e-6, ClientKey: func(r *http.Request) string { return r.Header.Get("X-Test-Client") }}
	ts := calcServer(t, a)
	ask := func(client string) (*http.Response, string) {
		req, _ := http.NewRequest("GET", ts.URL+"/api/tables/4/ev?up=T&hand=T,6", nil)
		req.Header.Set("X-Test-Client", client)
		resp, err := http.DefaultClient.Do(req)
		if err != nil {
			t.Fatal(err)
		}
		defer resp.Body.Close()
		var e struct{ Code, Error, Reason string }
		json.NewDecoder(resp.Body).Decode(&e)
		return resp, e.Code + ": " + e.Error + " [" + e.Reason + "]"
	}
	if resp, body := ask("ana"); resp.StatusCode != 200 {
		t.Fatalf("first request: %d %s", resp.StatusCode, body)
	}
	resp, body := ask("ana")
	// The reason lets the page word it in its language.
	if resp.StatusCode != 429 || !strings.HasPrefix(body, "too_many_requests: the hand calculator's computing time for your address is spent") || !strings.HasSuffix(body, "[calc_budget]") || resp.Header.Get("Retry-After") == "" {
		t.Errorf("second request: %d %s (Retry-After %q)", resp.StatusCode, body, resp.Header.Get("Retry-After"))
	}
	if resp, body := ask("bea"); resp.StatusCode != 200 {
		t.Errorf("another address: %d %s", resp.StatusCode, body)
	}

	b := &API{CalcSlots: 1, CalcWait: 20 * time.Millisecond}
	ts = calcServer(t, b)
	b.guard().slots <- struct{}{} // the one slot taken
	r, body2 := get(t, ts.URL+"/api/tables/4/ev?up=T&hand=T,6")
	if r.StatusCode != 503 || !strings.Contains(body2, "the hand calculator is busy") || !strings.Contains(body2, `"reason":"calc_busy"`) || r.Header.Get("Retry-After") != "1" {
		t.Errorf("every slot busy: %d %s", r.StatusCode, body2)
	}
	<-b.guard().slots
	if r, body2 := get(t, ts.URL+"/api/tables/4/ev?up=T&hand=T,6"); r.StatusCode != 200 {
		t.Errorf("the slot free again: %d %s", r.StatusCode, body2)
	}
}
