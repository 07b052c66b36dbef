package webapi

import (
	"context"
	"encoding/json"
	"io"
	"math"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"sabot"
	"sabot/analysis"
	"sabot/rules"
	"sabot/web"
)

// tables is a store of table configurations for the tests.
type tables map[int64]*sabot.Table

func (ts tables) TableByID(_ context.Context, id int64) (*sabot.Table, error) {
	if t, ok := ts[id]; ok {
		return t, nil
	}
	return nil, sabot.Errorf(sabot.ENOTFOUND, "no table %d", id)
}

func testServer(t *testing.T) *httptest.Server {
	t.Helper()
	mux := http.NewServeMux()
	(&API{Tables: tables{
		1: {ID: 1, Name: "Venezia", Profile: "venice", Options: map[string]string{"min_bet": "500", "max_bet": "50000"}},
		2: {ID: 2, Name: "Buenos Aires", Profile: "argentina"},
		3: {ID: 3, Name: "significant events"},
		4: {ID: 4, Name: "one deck", Profile: "vegas-s17", Options: map[string]string{"decks": "1", "cut_card_reserve": "0"}},
	}}).Register(mux)
	mux.Handle("/", web.Handler()) // as the server mounts them: an unknown /api/ path is the client's JSON 404
	ts := httptest.NewServer(mux)
	t.Cleanup(ts.Close)
	return ts
}

func get(t *testing.T, url string) (*http.Response, string) {
	t.Helper()
	resp, err := http.Get(url)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	b, _ := io.ReadAll(resp.Body)
	return resp, string(b)
}

// The house edge of a table's rules is package analysis' exact figure:
// venice (VE-*) off the top, basic strategy.
func TestEdge(t *testing.T) {
	if testing.Short() {
		t.Skip("an exact analysis takes a second")
	}
	ts := testServer(t)
	resp, body := get(t, ts.URL+"/api/tables/1/edge")
	if resp.StatusCode != 200 {
		t.Fatalf("%d %s", resp.StatusCode, body)
	}
	var e Edge
	if err := json.Unmarshal([]byte(body), &e); err != nil {
		t.Fatal(err)
	}
	if e.Profile != "venice" || e.Decks != 6 || e.Basic.HouseEdge < 0.004 || e.Basic.HouseEdge > 0.007 || e.Basic.RTP+e.Basic.HouseEdge < 0.9999 || e.Best.RTP < e.Basic.RTP {
		t.Fatalf("venice's edge: %+v", e)
	}
	if e.InsuranceEV == nil || *e.InsuranceEV >= 0 {
		t.Fatalf("venice has insurance, never worth taking off the top: %v", e.InsuranceEV)
	}
	resp, body = get(t, ts.URL+"/api/tables/1/strategy.svg")
	if resp.StatusCode != 200 || resp.Header.Get("Content-Type") != "image/svg+xml" || !strings.Contains(body, "<svg") {
		t.Fatalf("the strategy card: %d %s %.80s", resp.StatusCode, resp.Header.Get("Content-Type"), body)
	}
}

// Errors have the server's shape and statuses.
func TestAPIErrors(t *testing.T) {
	ts := testServer(t)
	for _, c := range []struct {
		path   string
		status int
		code   string
	}{
		{"/api/tables/9/edge", 404, "not_found"},
		{"/api/tables/x/rules", 400, "invalid"},
		{"/api/tables/3/rules", 404, "not_found"}, // the significant-event log is no table
		{"/api/nothing", 404, "not_found"},
		{"/api/tables/4/ev?up=6&hand=8,X", 400, "invalid"},
		{"/api/tables/4/ev?up=6", 400, "invalid"},
		{"/api/tables/4/ev?up=6&hand=T,8,5", 400, "invalid"},
		{"/api/tables/4/ev?up=6&hand=8,8&removed=8,8,8", 400, "invalid"},
	} {
		resp, body := get(t, ts.URL+c.path)
		var e struct{ Code, Error string }
		json.Unmarshal([]byte(body), &e)
		if resp.StatusCode != c.status || e.Code != c.code || e.Error == "" || resp.Header.Get("Content-Type") != "application/json" {
			t.Errorf("%s: %d %s", c.path, resp.StatusCode, body)
		}
	}
}

// The rules in plain words say what the profile's options say, each line
// with its own regulation's rule IDs and their texts.
func TestRules(t *testing.T) {
	ts := testServer(t)
	_, body := get(t, ts.URL+"/api/tables/2/rules")
	var r TableRules
	if err := json.Unmarshal([]byte(body), &r); err != nil {
		t.Fatal(err)
	}
	text := map[string]string{}
	ids := map[string]bool{}
	for _, l := range r.Lines {
		text[l.Topic] += l.Text
		for _, x := range l.Rules {
			ids[x.ID] = true
			if !strings.HasPrefix(x.ID, "AR-") || x.Text == "" {
				t.Errorf("argentina's %s line cites %s: %q", l.Topic, x.ID, x.Text)
			}
		}
	}
	for topic, want := range map[string]string{
		"Deal":      "face down: the hole card", // AR-09
		"Double":    "only on a two-card 11",    // AR-17
		"Challenge": "half your stake",          // AR-10
		"Aces":      "declare it 1 or 11",       // AR-11
		"Insurance": "No insurance",             // AR-20
		"Start":     "3 bets from 3 seated",     // AR-03
	} {
		if !strings.Contains(text[topic], want) {
			t.Errorf("argentina's %s: %q lacks %q", topic, text[topic], want)
		}
	}
	for _, id := range []string{"AR-09", "AR-10", "AR-11", "AR-17", "AR-20"} {
		if !ids[id] {
			t.Errorf("no line cites %s", id)
		}
	}
	if r.Values["blackjack_pays"] != "3:2" || r.Values["decks"] != "8" || len(r.Readings) == 0 {
		t.Errorf("values %v, readings %v", r.Values, r.Readings)
	}
}

// Every rule ID a profile's options or readings name has its text.
func TestRuleTexts(t *testing.T) {
	for _, o := range rules.Options() {
		for _, id := range o.Rules {
			if ruleText[id] == "" {
				t.Errorf("option %s names %s, which has no text", o.Key, id)
			}
		}
	}
	for _, n := range rules.Names() {
		for _, rd := range rules.MustLookup(n).Readings() {
			if ruleText[rd.Rule] == "" {
				t.Errorf("%s's reading of %s: no text", n, rd.Rule)
			}
		}
	}
}

// seedWords is a seed file's text as the quotes take it: runs of white
// space as one space, emphasis marks (*) left out.
func seedWords(t *testing.T, file string) string {
	t.Helper()
	b, err := os.ReadFile(filepath.Join("testdata", "seeds", file))
	if err != nil {
		t.Fatal(err)
	}
	return strings.Join(strings.Fields(strings.ReplaceAll(string(b), "*", "")), " ")
}

// Every rule the rules page cites at a table of the seeds' regulations has
// the seed's own words, and every quoted passage is in its seed file as it
// is quoted.
func TestSeedTexts(t *testing.T) {
	for id, s := range seedText {
		if s.Lang != "es" && s.Lang != "it" || s.Text == "" {
			t.Errorf("%s: %+v", id, s)
			continue
		}
		words := seedWords(t, s.Source)
		for _, passage := range strings.Split(s.Text, " … ") {
			if !strings.Contains(words, passage) {
				t.Errorf("%s: %q is not in %s", id, passage, s.Source)
			}
		}
		if ruleText[id] == "" {
			t.Errorf("%s is quoted but has no English wording", id)
		}
	}
	for _, name := range []string{"argentina", "spain", "venice", "family"} {
		tr := PlainRules(1, rules.MustLookup(name))
		for _, line := range append(tr.Lines, tr.Readings...) {
			for _, ref := range line.Rules {
				if ref.Seed == nil || ref.Seed.Text != seedText[ref.ID].Text {
					t.Errorf("%s: the rules page cites %s without its seed's words", name, ref.ID)
				}
			}
		}
	}
}

// The hand calculator: 8,8 against a 6 on one deck, S17, DAS, resplits to
// four, equal to Eric Farmer's analyzer 7.6 built here
// (analysis/testdata/farmer-ev/1d-s17-das.txt: Stand −17.817051012 %, Hit
// −39.669184544 %, Double −79.338369088 %, Split 38.529444897 %), as
// `sabot ev` gives them.
func TestEV(t *testing.T) {
	ts := testServer(t)
	resp, body := get(t, ts.URL+"/api/tables/4/ev?up=6&hand=8,8")
	if resp.StatusCode != 200 {
		t.Fatalf("%d %s", resp.StatusCode, body)
	}
	var v analysis.Values
	if err := json.Unmarshal([]byte(body), &v); err != nil {
		t.Fatal(err)
	}
	for _, c := range []struct {
		name string
		got  *float64
		want float64
	}{{"stand", v.Stand, -0.17817051012}, {"hit", v.Hit, -0.39669184544}, {"double", v.Double, -0.79338369088}, {"split", v.Split, 0.38529444897}} {
		if c.got == nil || math.Abs(*c.got-c.want) > 1e-11 {
			t.Errorf("%s: %v, Farmer %.11f", c.name, c.got, c.want)
		}
	}
	if v.Best != "split" {
		t.Errorf("best %q", v.Best)
	}
}

// The strategy card as rows: each with the hand its hover values are for,
// and the codes of /strategy.svg's card.
func TestStrategyRows(t *testing.T) {
	if testing.Short() {
		t.Skip("an exact analysis takes a second")
	}
	ts := testServer(t)
	resp, body := get(t, ts.URL+"/api/tables/4/strategy")
	if resp.StatusCode != 200 {
		t.Fatalf("%d %s", resp.StatusCode, body)
	}
	var c StrategyCard
	if err := json.Unmarshal([]byte(body), &c); err != nil {
		t.Fatal(err)
	}
	if strings.Join(c.Ups, "") != "23456789TA" {
		t.Fatalf("ups %v", c.Ups)
	}
	seen := map[string]bool{}
	for _, r := range c.Rows {
		seen[r.Kind+" "+r.Label+" "+r.Hand] = true
		if len(r.Codes) != 10 {
			t.Errorf("%+v", r)
		}
		// One deck S17 DAS: 16 stands against a 6, 8,8 splits against a ten
		// (every basic strategy chart; docs/analysis.md).
		if r.Kind == "hard" && r.Label == "16" && r.Codes[4] != "S" || r.Kind == "pair" && r.Label == "8,8" && r.Codes[8] != "P" {
			t.Errorf("%+v", r)
		}
	}
	for _, want := range []string{"hard 16 T,6", "hard 5 2,3", "hard 20 T,5,5", "soft A,7 A,7", "pair 8,8 8,8", "pair A,A A,A"} {
		if !seen[want] {
			t.Errorf("no row %q in %v", want, seen)
		}
	}
}

// AR-15's words are the settlement table, not only the sentence that
// introduces it; AR-20's are the Desafío's own, the regulation's only
// «SEGURO», not its heading alone. No rule's words are a heading only.
func TestSeedWordsAreTheRule_AR15_AR20(t *testing.T) {
	for _, row := range []string{"PUNTAJE DEL PAGADOR GANA A EMPATA PIERDE", "21 (Con 3 o más cartas) 20 o Menor 21 Black Jack", "22 o Más Black Jack, 21 o Menor"} {
		if !strings.Contains(seedText["AR-15"].Text, row) {
			t.Errorf("AR-15's words lack the table's row %q", row)
		}
	}
	if s := seedText["AR-20"].Text; !strings.Contains(s, "SEGURO") || !strings.Contains(s, "puede desafiar al pagador") || !strings.Contains(s, `"ASEGURA"`) {
		t.Errorf("AR-20's words: %q", s)
	}
	for id, s := range seedText {
		for _, passage := range strings.Split(s.Text, " … ") {
			if strings.ToUpper(passage) == passage || len(strings.Fields(passage)) < 6 {
				t.Errorf("%s quotes %q: a heading, not the rule", id, passage)
			}
		}
	}
}
