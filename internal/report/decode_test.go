package report

import (
	"encoding/json"
	"reflect"
	"testing"

	"sabot"
	"sabot/engine"
	"sabot/internal/tablelog"
	"sabot/money"
)

// The reports' slim decodings of a settlement (the tables' sums, the
// players' without the round's record) read what the
// whole decoding reads, field for field: the figures cannot move. The
// settlements are Synth's, and each again as a void, as a family
// bank's round and as one a player left while it was in play.
func TestSlimSettlementsAgree(t *testing.T) {
	m, _ := synthLog(t, 3, 9, 600)
	var recs []*sabot.LogRecord
	for _, r := range m.byKind[sabot.LogSettle] {
		recs = append(recs, r)
		var s map[string]any
		if err := json.Unmarshal(r.Payload, &s); err != nil {
			t.Fatal(err)
		}
		for _, change := range []map[string]any{{"void": true}, {"bank": "ana", "bank_paid": map[string]any{"house": 250, "ana": -100}}, {"left": map[string]any{"ana": "2026-03-01T20:15:04.5Z"}}} {
			x := map[string]any{}
			for k, v := range s {
				x[k] = v
			}
			for k, v := range change {
				x[k] = v
			}
			p, err := json.Marshal(x)
			if err != nil {
				t.Fatal(err)
			}
			c := *r
			c.Payload = p
			recs = append(recs, &c)
		}
	}
	if len(recs) != 4*600 {
		t.Fatalf("%d settlements, want %d", len(recs), 4*600)
	}
	var wins money.Amount
	left := 0
	for _, r := range recs {
		var full tablelog.SettleRead
		if err := tablelog.Decode(r, &full); err != nil {
			t.Fatal(err)
		}
		if len(full.Record.Cards) == 0 || len(full.Hands) == 0 || len(full.Bets) == 0 {
			t.Fatalf("settlement %d of table %d has no cards, hands or bets: %s", full.Round, r.TableID, r.Payload)
		}
		var sums tablelog.SettleTotals
		if err := tablelog.Decode(r, &sums); err != nil {
			t.Fatal(err)
		}
		if sums.Round != full.Round || sums.Void != full.Void || len(sums.Hands) != len(full.Hands) || len(sums.Bets) != len(full.Bets) ||
			sums.HouseWin() != full.HouseWin() {
			t.Fatalf("the tables' sums %+v of %s", sums, r.Payload)
		}
		for i, b := range full.Bets {
			if x := sums.Bets[i]; x.Box != b.Box || x.Kind != b.Kind || x.Stake != b.Stake {
				t.Fatalf("bet %d: %+v, want %+v", i, x, b)
			}
		}
		wins += sums.HouseWin()
		left += len(full.Left)
		var slim tablelog.SettleRead
		if err := tablelog.DecodeSettleRead(r, &slim, false); err != nil {
			t.Fatal(err)
		}
		want := full
		want.Record, want.Hands = engine.Record{}, nil
		if !reflect.DeepEqual(slim, want) {
			t.Fatalf("without the record: %+v, want %+v", slim, want)
		}
		var with tablelog.SettleRead
		if err := tablelog.DecodeSettleRead(r, &with, true); err != nil || !reflect.DeepEqual(with, full) {
			t.Fatalf("with the record: %+v, %v; want %+v", with, err, full)
		}
	}
	if wins == 0 || left == 0 {
		t.Fatalf("%d wins, %d departures read", wins, left)
	}
}
