package server_test

import (
	"encoding/json"
	"net/http"
	"strings"
	"testing"

	"sabot/card"
	"sabot/engine"
	"sabot/internal/server"
	"sabot/rules"
)

// A recorded round replays to the events the table showed, face-down
// cards first dealt face down, then turned (AR-09).
func TestReplay(t *testing.T) {
	t.Parallel()
	h := newHarness(t, nil, slow)
	ts := struct{ URL string }{h.srv.URL()}
	p := rules.MustLookup("argentina")
	r := engine.New(p)
	r.Reset(engine.NewForced(card.MustParseList("TS 9D 8H QC")))
	if err := r.PlaceBet("ana", 1, 100); err != nil {
		t.Fatal(err)
	}
	if err := r.Start(); err != nil {
		t.Fatal(err)
	}
	if err := r.Act(engine.Action{Kind: engine.Stand, Player: "ana", Box: 1, Hand: 1}); err != nil {
		t.Fatal(err)
	}
	req, _ := json.Marshal(server.ReplayRequest{Profile: "argentina", Round: 7, Record: r.Record()})
	resp, err := http.Post(ts.URL+"/api/replay", "application/json", strings.NewReader(string(req)))
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	var out server.ReplayResult
	if err := json.NewDecoder(resp.Body).Decode(&out); err != nil || resp.StatusCode != 200 {
		t.Fatalf("%d %v", resp.StatusCode, err)
	}
	var got []string
	for _, e := range out.Events {
		s := e.Kind
		switch {
		case e.Kind == "card" && e.FaceDown:
			s += " face-down"
		case e.Card != "":
			s += " " + e.Card
		case e.Action != nil:
			s += " " + e.Action.Kind
		case e.Result != "":
			s += " " + e.Result
		}
		if e.Round != 7 {
			t.Errorf("%s: round %d", s, e.Round)
		}
		got = append(got, s)
	}
	want := "stake card TS card 9D card 8H card face-down action stand reveal QC result lose done"
	if strings.Join(got, " ") != want {
		t.Fatalf("events\n got %s\nwant %s", strings.Join(got, " "), want)
	}
	if out.Boxes != 7 || out.BackBetsPerBox != 0 || out.Values["hole_card"] != "no-peek" {
		t.Fatalf("layout %+v", out)
	}

	// A record that is not this engine's is refused.
	bad := strings.Replace(string(req), `"TS"`, `"AS"`, 1)
	resp2, err := http.Post(ts.URL+"/api/replay", "application/json", strings.NewReader(bad))
	if err != nil {
		t.Fatal(err)
	}
	resp2.Body.Close()
	if resp2.StatusCode != 400 {
		t.Fatalf("a record that does not replay: %d", resp2.StatusCode)
	}
}
