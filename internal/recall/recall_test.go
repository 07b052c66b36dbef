package recall

import (
	"context"
	"encoding/json"
	"slices"
	"strings"
	"testing"
	"time"

	"sabot"
	"sabot/card"
	"sabot/engine"
	"sabot/internal/tablelog"
	"sabot/internal/wire"
	"sabot/money"
)

// fakeLog is a table and its log, read as a store's indexes would find
// them (by kind, table, round and shoe), counting the records it returns.
type fakeLog struct {
	t    *sabot.Table
	recs []*sabot.LogRecord
	read int
}

func (f *fakeLog) TableByID(_ context.Context, id int64) (*sabot.Table, error) {
	if id != f.t.ID {
		return nil, sabot.Errorf(sabot.ENOTFOUND, "no table %d", id)
	}
	return f.t, nil
}

func (f *fakeLog) Find(_ context.Context, q sabot.LogQuery) ([]*sabot.LogRecord, error) {
	var out []*sabot.LogRecord
	for _, r := range f.recs {
		switch {
		case !slices.Contains(q.Kinds, r.Kind), q.TableID != 0 && r.TableID != q.TableID,
			q.FromRound != 0 && r.RoundNo < q.FromRound, q.ToRound != 0 && r.RoundNo > q.ToRound,
			q.Before != nil && r.Seq >= q.Before.Seq:
			continue
		case q.Shoe != 0:
			var p struct{ Shoe int64 }
			json.Unmarshal(r.Payload, &p)
			if p.Shoe != q.Shoe {
				continue
			}
		}
		out = append(out, r)
	}
	if q.Newest {
		slices.Reverse(out)
	}
	if q.Limit > 0 && len(out) > q.Limit {
		out = out[:q.Limit]
	}
	f.read += len(out)
	return out, nil
}

func (f *fakeLog) add(kind string, round int64, user int64, payload any) {
	b, _ := json.Marshal(payload)
	seq := int64(len(f.recs) + 1)
	f.recs = append(f.recs, &sabot.LogRecord{Seq: seq, TableID: f.t.ID, Kind: kind, RoundNo: round, UserID: user,
		Created: time.Date(2026, 11, 26, 12, 0, int(seq), 0, time.UTC), Payload: b})
}

// TestRecallReadsEachKind: a round's record takes from each kind of its
// records what that kind says (the deal, the decisions and who made them,
// the cards read, the cut card, the settlement) and the options of the
// last change before its deal, not a later one; a round in play is
// refused, and a round never dealt is not found.
func TestRecallReadsEachKind(t *testing.T) {
	ctx := context.Background()
	f := &fakeLog{t: &sabot.Table{ID: 3, Name: "Rosario", Profile: "argentina"}}
	f.add(sabot.LogConfigure, 0, 0, tablelog.Configure{Options: map[string]string{"max_bet": "300"}})
	f.add(sabot.LogBet, 1, 7, map[string]any{"player": "ana", "box": 1, "stake": 100})
	f.add(sabot.LogDeal, 1, 0, tablelog.Deal{Round: 1, Shoe: 2, ShoePos: 9, Bets: []engine.PlacedBet{{Player: "ana", Box: 1, Stake: 100}}, Bank: "ben"})
	f.add(sabot.LogCard, 1, 0, tablelog.Card{Card: card.MustParse("AS"), By: "reader-1", Device: 4})
	f.add(sabot.LogCardUndo, 1, 0, tablelog.Card{Card: card.MustParse("AS"), By: "dora"})
	f.add(sabot.LogCutCard, 1, 0, tablelog.Cut{By: "dora"})
	f.add(sabot.LogAction, 1, 7, tablelog.Decision{Round: 1, Action: wire.Action{Kind: "hit", Player: "ana", Box: 1, Hand: 1}})
	f.add(sabot.LogTimeout, 1, 0, tablelog.Decision{Round: 1, Action: wire.Action{Kind: "stand", Player: "ana", Box: 1, Hand: 1}, ByTimeout: true})
	f.add(sabot.LogAction, 1, 0, tablelog.Decision{Round: 1, Action: wire.Action{Kind: "close"}})
	f.add(sabot.LogSettle, 1, 0, tablelog.Settle{Round: 1, Dealer: []card.Card{card.MustParse("TD")}, Net: map[string]money.Amount{"ana": -100}, House: 100})
	f.add(sabot.LogConfigure, 1, 0, tablelog.Configure{Options: map[string]string{"max_bet": "900"}})
	f.add(sabot.LogDeal, 2, 0, tablelog.Deal{Round: 2, Shoe: 2})

	rr, err := Recall(ctx, f, "3-1")
	if err != nil {
		t.Fatal(err)
	}
	var by, readings []string
	for _, d := range rr.Decisions {
		by = append(by, d.Action.Kind+" by "+d.By)
	}
	for _, r := range rr.Readings {
		readings = append(readings, r.Kind+" "+r.Card+" "+r.By)
	}
	switch {
	case rr.ID != "3-1" || rr.TableName != "Rosario" || rr.Shoe != "3-2" || rr.ShoePos != 9 || rr.Bank != "ben" || len(rr.Bets) != 1:
		t.Errorf("the deal: %+v", rr)
	case rr.Options["max_bet"] != "300":
		t.Errorf("the options at the deal: %v", rr.Options)
	case strings.Join(by, ", ") != "hit by player, stand by timeout, close by dealer":
		t.Errorf("decisions: %v", by)
	case strings.Join(readings, ", ") != "card AS reader-1, undo AS dora, cut-card  dora":
		t.Errorf("readings: %q", readings)
	case rr.House != 100 || rr.Net["ana"] != -100 || len(rr.Dealer) != 1 || rr.Closed.IsZero():
		t.Errorf("the settlement: %+v", rr)
	}
	if _, err := Recall(ctx, f, "3-2"); sabot.ErrorCode(err) != sabot.ECONFLICT {
		t.Errorf("a round in play: %v", err)
	}
	if _, err := Recall(ctx, f, "3-3"); sabot.ErrorCode(err) != sabot.ENOTFOUND {
		t.Errorf("a round never dealt: %v", err)
	}
	if _, err := Recall(ctx, f, "3"); sabot.ErrorCode(err) != sabot.EINVALID {
		t.Errorf("a bad ID: %v", err)
	}
}

// TestKindsCoverTheLog: recall has an entry for every kind of log record,
// and only for those; a kind it reads says what it reads; the significant
// events, and only they, have words.
func TestKindsCoverTheLog(t *testing.T) {
	for _, k := range sabot.LogKinds {
		if _, ok := Reads(k); !ok {
			t.Errorf("recall has no entry for kind %q", k)
		}
	}
	for k, p := range kinds {
		if !slices.Contains(sabot.LogKinds, k) {
			t.Errorf("recall reads kind %q, which is not one of sabot.LogKinds", k)
		}
		if (p.round != nil || p.shoe != nil || p.options != nil) != (p.what != "") {
			t.Errorf("kind %q: reads %q", k, p.what)
		}
	}
	if _, ok := Reads("no-such-kind"); ok {
		t.Error("recall knows a kind that is not one")
	}
	// The significant events have words of their own; any other kind is
	// said by its name.
	for _, k := range sabot.LogKinds {
		w := Words(&sabot.LogRecord{Kind: k, Payload: []byte(`{}`)})
		named := len(w) == 1 && w[0].Key == "" && w[0].Text == k
		if significant := slices.Contains(sabot.SignificantKinds, k); named == significant || (kinds[k].words != nil) != significant {
			t.Errorf("kind %q: significant %v, said by its name %v", k, significant, named)
		}
	}
}

// TestAdminEventsWorded: a significant event written as the server writes
// it (wire.AdminEvent) is worded from its values: a correction decided, the
// return outside its band, a player's count; one of another shape, as its
// text.
func TestAdminEventsWorded(t *testing.T) {
	f := &fakeLog{t: &sabot.Table{ID: 3}}
	f.add(sabot.LogAdmin, 4, 0, wire.AdminEvent{Event: "correction-approved", Text: "AR-23 (d)", Correction: &wire.CorrectionView{Round: 4, Case: "d", Card: card.MustParse("2C"), Asked: "dora", By: "ivo"}})
	f.add(sabot.LogAdmin, 0, 0, wire.AdminEvent{Event: "rtp-outside", Table: 3, Text: "low", Return: &wire.ReturnValues{Rounds: 900, RTP: 0.9, Low: 0.95, High: 1.01, Certified: 0.99, Z: -3.5}})
	f.add(sabot.LogAdmin, 0, 0, wire.AdminEvent{Event: "advantage-play", Table: 3, User: "ana", Text: "counts", Count: &wire.CountValues{Rounds: 400, HiLoZ: 4.5, HiOptIIZ: 4.25}})
	f.add(sabot.LogAdmin, 0, 0, wire.AdminEvent{Event: "rtp-outside", Text: "written before its figures"})
	var got []string
	for _, r := range f.recs {
		w := Words(r)[0]
		b, _ := json.Marshal(w.Params)
		got = append(got, w.Key+" "+string(b))
	}
	want := []string{
		`correctionApproved {"asked":"dora","by":"ivo","case":"d","round":4}`,
		`rtpOutside {"certified":99,"high":101,"low":95,"n":900,"rtp":90,"table":3,"z":-3.5}`,
		`advantagePlay {"hilo":4.5,"hiopt":4.25,"n":400,"table":3,"user":"ana"}`,
		` null`,
	}
	if strings.Join(got, "\n") != strings.Join(want, "\n") {
		t.Errorf("words:\n%s\nwant\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"))
	}
}

// A card taken back mid-shoe (a misread hole card undone) is hidden from a
// player's recall until the shoe is over, as a burn is (AR-23 (d)); the pit's
// recall has it, and so does a player's once a round
// of the next shoe is dealt.
func TestUndoneCardHiddenUntilShoeOver_AR23(t *testing.T) {
	ctx := context.Background()
	f := &fakeLog{t: &sabot.Table{ID: 3, Name: "Rosario", Profile: "argentina"}}
	f.add(sabot.LogDeal, 1, 0, tablelog.Deal{Round: 1, Shoe: 2, Bets: []engine.PlacedBet{{Player: "ana", Box: 1, Stake: 100}}})
	f.add(sabot.LogCard, 1, 0, tablelog.Card{Card: card.MustParse("9H"), By: "dora"})
	f.add(sabot.LogCardUndo, 1, 0, tablelog.Card{Card: card.MustParse("KS"), By: "dora"})
	f.add(sabot.LogSettle, 1, 0, tablelog.Settle{Round: 1, Net: map[string]money.Amount{"ana": -100}, House: 100})
	f.add(sabot.LogDeal, 2, 0, tablelog.Deal{Round: 2, Shoe: 2})
	cards := func(rr *wire.RoundRecord) string {
		var s []string
		for _, r := range rr.Readings {
			s = append(s, r.Kind+" "+r.Card)
		}
		return strings.Join(s, ", ")
	}
	rr, err := Recall(ctx, f, "3-1")
	if err != nil {
		t.Fatal(err)
	}
	if err := ForPlayer(ctx, f, rr); err != nil {
		t.Fatal(err)
	}
	if got := cards(rr); got != "card 9H, undo " {
		t.Fatalf("a player's recall mid-shoe: %q", got)
	}
	pit, _ := Recall(ctx, f, "3-1")
	if got := cards(pit); got != "card 9H, undo KS" {
		t.Fatalf("the pit's recall: %q", got)
	}
	f.add(sabot.LogDeal, 9, 0, tablelog.Deal{Round: 9, Shoe: 3})
	rr, _ = Recall(ctx, f, "3-1")
	if err := ForPlayer(ctx, f, rr); err != nil {
		t.Fatal(err)
	}
	if got := cards(rr); got != "card 9H, undo KS" {
		t.Fatalf("a player's recall once the shoe is over: %q", got)
	}
}
