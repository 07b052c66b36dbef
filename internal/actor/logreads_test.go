package actor

import (
	"context"
	"encoding/json"
	"fmt"
	"reflect"
	"slices"
	"testing"

	"sabot"
	"sabot/engine"
	"sabot/internal/recall"
	"sabot/internal/tablelog"
	"sabot/internal/wire"
)

// countingStore counts the log records a read returns.
type countingStore struct {
	sabot.Store
	records int
}

func (s *countingStore) Log(ctx context.Context, table, from int64) ([]*sabot.LogRecord, error) {
	recs, err := s.Store.Log(ctx, table, from)
	s.records += len(recs)
	return recs, err
}

func (s *countingStore) Find(ctx context.Context, q sabot.LogQuery) ([]*sabot.LogRecord, error) {
	recs, err := s.Store.Find(ctx, q)
	s.records += len(recs)
	return recs, err
}

// TestLogReadsDoNotScanTheLog: a round's recall, a
// shoe's page and a player's rounds read the records they show, found on
// the store's indexes, not the table's whole log (or every table's); and
// they give what reading the whole log gives.
func TestLogReadsDoNotScanTheLog(t *testing.T) {
	ctx := context.Background()
	p := newPlayedTable(t, "vegas-s17", nil, 0)
	for _, n := range []string{"ana", "ben", "cy"} {
		p.player(t, n)
	}
	p.rounds(t, 60)
	pit := &sabot.User{ID: 999, Name: "pit", Admin: true}
	p.do(t, pit, wire.OpConfigure, wire.CommandRequest{Options: map[string]string{"max_bet": "100000"}})
	p.rounds(t, 190)
	all, err := p.st.Log(ctx, p.a.cfg.ID, 1)
	if err != nil {
		t.Fatal(err)
	}
	if len(all) < 1500 {
		t.Fatalf("a log of %d records", len(all))
	}
	cs := &countingStore{Store: p.st}
	read := func(what string, most int) {
		t.Helper()
		if cs.records > most {
			t.Errorf("%s read %d records of a log of %d: want at most %d", what, cs.records, len(all), most)
		}
		cs.records = 0
	}

	// A round: its records, and the configuration change before its deal.
	for _, no := range []int{30, 61, 120} {
		got, err := recall.Recall(ctx, cs, recall.RoundID(p.a.cfg.ID, no))
		if err != nil {
			t.Fatal(err)
		}
		read(fmt.Sprint("the recall of round ", no), 20)
		want, err := recall.From(p.a.created, all, no)
		if err != nil {
			t.Fatal(err)
		}
		if !reflect.DeepEqual(got, want) {
			t.Errorf("round %d recalled from the indexes:\n%+v\nfrom the whole log:\n%+v", no, got, want)
		}
	}

	// A shoe: its start and reveal, a page of its deals and settlements.
	shoeRounds := map[int][]string{}
	for _, r := range all {
		if r.Kind == sabot.LogDeal {
			var d tablelog.Deal
			json.Unmarshal(r.Payload, &d)
			shoeRounds[d.Shoe] = append(shoeRounds[d.Shoe], recall.RoundID(p.a.cfg.ID, d.Round))
		}
	}
	for _, no := range []int{2, p.a.t.ShoeNo() - 1} {
		want := shoeRounds[no]
		got, err := recall.ShoeInfo(ctx, cs, recall.ShoeID(p.a.cfg.ID, no), 0, 3)
		if err != nil {
			t.Fatal(err)
		}
		read(fmt.Sprint("a page of 3 rounds of shoe ", no), 2+4+3)
		if !slices.Equal(got.Rounds, want[:3]) || got.Next != want[2] || len(got.Dealt) != 3 || !got.Revealed {
			t.Errorf("shoe %d's first page: rounds %v next %q, %d dealt; want %v next %q", no, got.Rounds, got.Next, len(got.Dealt), want[:3], want[2])
		}
		whole, err := recall.WholeShoe(func(after int) (*wire.ShoeReport, error) {
			return recall.ShoeInfo(ctx, cs, recall.ShoeID(p.a.cfg.ID, no), after, 3)
		})
		if err != nil {
			t.Fatal(err)
		}
		cs.records = 0
		if !slices.Equal(whole.Rounds, want) {
			t.Errorf("shoe %d's pages: %v, want %v", no, whole.Rounds, want)
		}
		rep, err := recall.CheckShoe(whole)
		if err != nil || !rep.OK() || rep.Rounds != len(want) {
			t.Errorf("shoe %d does not verify from its pages: %+v %v", no, rep, err)
		}
	}

	// A player's rounds, the newest first, page by page.
	for _, u := range p.users[:2] {
		var want []string
		for i := len(all) - 1; i >= 0; i-- {
			r := all[i]
			if r.Kind != sabot.LogSettle && r.Kind != sabot.LogVoid || r.RoundNo == 0 {
				continue
			}
			var s tablelog.Settle
			json.Unmarshal(r.Payload, &s)
			if slices.ContainsFunc(s.Record.Bets, func(b engine.PlacedBet) bool { return b.Player == u.Name }) {
				want = append(want, recall.RoundID(p.a.cfg.ID, int(r.RoundNo)))
			}
		}
		var got []string
		before := ""
		for {
			page, err := recall.PlayerRounds(ctx, cs, u, before, 40)
			if err != nil {
				t.Fatal(err)
			}
			read(u.Name+"'s page of 40 rounds", 41)
			for _, r := range page {
				got = append(got, r.ID)
			}
			if len(page) < 40 {
				break
			}
			before = page[len(page)-1].ID
		}
		if !slices.Equal(got, want) {
			t.Errorf("%s's rounds, page by page:\n%v\nfrom the whole log:\n%v", u.Name, got, want)
		}
	}
	if _, err := recall.PlayerRounds(ctx, cs, p.users[0], recall.RoundID(p.a.cfg.ID, 9999), 10); sabot.ErrorCode(err) != sabot.EINVALID {
		t.Errorf("a page before a round that is not: %v", err)
	}
}
