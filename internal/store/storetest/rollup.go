package storetest

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"reflect"
	"testing"
	"time"

	"sabot"
	"sabot/money"
)

// testRollups: a rollup's mark moves only from where it is (a second
// roller's write is refused and writes nothing), rows replace the rows of
// their hour, a read gives the marks and the rows of the hours asked in
// one snapshot; HouseNets sums the house's entries of each settle and void
// record in a seq range and of no other; Find reads a table's log on from
// a seq (LogQuery.After).
func testRollups(t *testing.T, s sabot.Store) {
	ctx := context.Background()
	ro, ok := s.(sabot.Rollups)
	if !ok {
		t.Fatalf("%T is not a sabot.Rollups", s)
	}
	t1 := &sabot.Table{Name: "one", Profile: "vegas-s17"}
	t2 := &sabot.Table{Name: "two", Profile: "vegas-s17"}
	must(t, s.CreateTable(ctx, t1))
	must(t, s.CreateTable(ctx, t2))
	h := time.Date(2026, 3, 4, 5, 0, 0, 0, time.UTC)
	day := time.Date(2026, 3, 4, 0, 0, 0, 0, time.UTC)
	row := func(tbl *sabot.Table, hours int, data string) sabot.Rollup {
		return sabot.Rollup{TableID: tbl.ID, Span: sabot.RollupHour, Start: h.Add(time.Duration(hours) * time.Hour), Data: json.RawMessage(data)}
	}
	dayRow := func(tbl *sabot.Table, days int, data string) sabot.Rollup {
		return sabot.Rollup{TableID: tbl.ID, Span: sabot.RollupDay, Start: day.AddDate(0, 0, days), Data: json.RawMessage(data)}
	}
	must(t, ro.PutRollup(ctx, "k/1", t1.ID, 0, 10, []sabot.Rollup{row(t1, 0, `{"a":1}`), row(t1, 1, `{"a":2}`), dayRow(t1, 0, `{"d":1}`)}))
	must(t, ro.PutRollup(ctx, "k/1", t2.ID, 0, 4, []sabot.Rollup{row(t2, 1, `{"b":1}`)}))
	must(t, ro.PutRollup(ctx, "other/1", t1.ID, 0, 99, []sabot.Rollup{row(t1, 1, `{"other":1}`)}))
	// A second roller from the same mark, or from a wrong one: refused,
	// nothing written.
	code(t, ro.PutRollup(ctx, "k/1", t1.ID, 0, 12, []sabot.Rollup{row(t1, 0, `{"lost":1}`)}), sabot.ECONFLICT)
	code(t, ro.PutRollup(ctx, "k/1", t1.ID, 9, 12, []sabot.Rollup{row(t1, 0, `{"lost":1}`)}), sabot.ECONFLICT)
	code(t, ro.PutRollup(ctx, "k/1", t1.ID, 10, 9, nil), sabot.EINVALID)
	for _, bad := range []sabot.Rollup{
		{TableID: t1.ID, Span: sabot.RollupHour, Start: h.Add(time.Minute), Data: json.RawMessage(`{}`)}, // not on the hour
		{TableID: t1.ID, Span: sabot.RollupDay, Start: h, Data: json.RawMessage(`{}`)},                   // not at midnight
		{TableID: t1.ID, Span: time.Minute, Start: h, Data: json.RawMessage(`{}`)},                       // no such span
		{TableID: t1.ID, Span: sabot.RollupHour, Start: h},                                               // no data
		row(t2, 0, `{}`), // another table's
	} {
		code(t, ro.PutRollup(ctx, "k/1", t1.ID, 10, 12, []sabot.Rollup{bad}), sabot.EINVALID)
	}
	_, _, err := ro.RollupRows(ctx, "k/1", 0, sabot.RollupRange{Span: time.Minute, From: h, To: h.Add(time.Hour)})
	code(t, err, sabot.EINVALID)
	// The mark moves on; a row replaces its hour's, another is added, the
	// day's is replaced.
	must(t, ro.PutRollup(ctx, "k/1", t1.ID, 10, 20, []sabot.Rollup{row(t1, 1, `{"a":3}`), row(t1, 2, `{"a":4}`), dayRow(t1, 0, `{"d":2}`)}))
	hours := sabot.RollupRange{Span: sabot.RollupHour, From: h, To: h.Add(3 * time.Hour)}
	days := sabot.RollupRange{Span: sabot.RollupDay, From: day, To: day.AddDate(0, 0, 1)}
	marks, rows, err := ro.RollupRows(ctx, "k/1", 0, hours, days)
	must(t, err)
	if want := map[int64]int64{t1.ID: 20, t2.ID: 4}; !reflect.DeepEqual(marks, want) {
		t.Fatalf("marks %v, want %v", marks, want)
	}
	got := func(rows []sabot.Rollup) []string {
		var out []string
		for _, r := range rows {
			out = append(out, fmt.Sprintf("%d %v %s %s", r.TableID, r.Span, r.Start.Format("02 15"), r.Data))
		}
		return out
	}
	want := []string{fmt.Sprintf(`%d 1h0m0s 04 05 {"a":1}`, t1.ID), fmt.Sprintf(`%d 1h0m0s 04 06 {"a":3}`, t1.ID), fmt.Sprintf(`%d 1h0m0s 04 07 {"a":4}`, t1.ID),
		fmt.Sprintf(`%d 24h0m0s 04 00 {"d":2}`, t1.ID), fmt.Sprintf(`%d 1h0m0s 04 06 {"b":1}`, t2.ID)}
	if g := got(rows); !reflect.DeepEqual(g, want) {
		t.Fatalf("rows %q, want %q", g, want)
	}
	// One table's, of some hours; the marks alone.
	_, rows, err = ro.RollupRows(ctx, "k/1", t1.ID, sabot.RollupRange{Span: sabot.RollupHour, From: h.Add(time.Hour), To: h.Add(2 * time.Hour)})
	must(t, err)
	if g := got(rows); !reflect.DeepEqual(g, want[1:2]) {
		t.Fatalf("table %d's rows of 06:00: %q, want %q", t1.ID, g, want[1:2])
	}
	marks, rows, err = ro.RollupRows(ctx, "k/1", t2.ID)
	must(t, err)
	if len(marks) != 2 || len(rows) != 0 {
		t.Fatalf("the marks alone: %v, rows %q", marks, got(rows))
	}
	// A row's bytes are kept as they are, whatever they are (binary: a
	// zero byte, bytes that are no UTF-8).
	bin := []byte{1, 4, 0, 0xff, 0xfe, 0x80, 0}
	must(t, ro.PutRollup(ctx, "bin/1", t2.ID, 0, 1, []sabot.Rollup{{TableID: t2.ID, Span: sabot.RollupDay, Start: day, Data: bin}}))
	_, rows, err = ro.RollupRows(ctx, "bin/1", t2.ID, days)
	must(t, err)
	if len(rows) != 1 || !bytes.Equal(rows[0].Data, bin) {
		t.Fatalf("a binary row read as %q, want %q", got(rows), bin)
	}
	marks, rows, err = ro.RollupRows(ctx, "none/1", 0, hours, days)
	must(t, err)
	if len(marks) != 0 || len(rows) != 0 {
		t.Fatalf("a kind never rolled up: marks %v, rows %q", marks, got(rows))
	}

	// HouseNets: the house's net through each settle and void record.
	house := account(t, s, sabot.AccountHouse, 0)
	w := account(t, s, sabot.AccountWallet, 1)
	credit(t, s, w, 10000)
	tbl := account(t, s, sabot.AccountTable, t1.ID)
	app := func(kind string, ps ...sabot.Posting) int64 {
		rec := &sabot.LogRecord{TableID: t1.ID, Kind: kind, RoundNo: 1, Payload: json.RawMessage(`{}`)}
		if _, err := s.Append(ctx, sabot.Appending(rec), ps); err != nil {
			t.Fatal(err)
		}
		return rec.Seq
	}
	bet := app(sabot.LogBet, sabot.Posting{AccountID: w, Amount: -100}, sabot.Posting{AccountID: tbl, Amount: 100})
	won := app(sabot.LogSettle, sabot.Posting{AccountID: tbl, Amount: -100}, sabot.Posting{AccountID: house, Amount: 100})
	app(sabot.LogDeal)
	lost := app(sabot.LogSettle, sabot.Posting{AccountID: w, Amount: 250}, sabot.Posting{AccountID: house, Amount: -250})
	void := app(sabot.LogVoid, sabot.Posting{AccountID: w, Amount: 7}, sabot.Posting{AccountID: house, Amount: -7})
	none := app(sabot.LogSettle) // a push: no transaction
	nets, err := ro.HouseNets(ctx, t1.ID, 0, void)
	must(t, err)
	if want := map[int64]money.Amount{won: 100, lost: -250, void: -7}; !reflect.DeepEqual(nets, want) {
		t.Fatalf("house nets %v, want %v", nets, want)
	}
	nets, err = ro.HouseNets(ctx, t1.ID, won, lost)
	must(t, err)
	if want := map[int64]money.Amount{lost: -250}; !reflect.DeepEqual(nets, want) {
		t.Fatalf("house nets in (%d, %d]: %v, want %v", won, lost, nets, want)
	}
	nets, err = ro.HouseNets(ctx, t2.ID, 0, 1<<40)
	must(t, err)
	if len(nets) != 0 {
		t.Fatalf("another table's nets: %v", nets)
	}

	// Find on from a seq, oldest first.
	recs, err := s.Find(ctx, sabot.LogQuery{Kinds: []string{sabot.LogSettle, sabot.LogVoid}, TableID: t1.ID, After: won, Limit: 2})
	must(t, err)
	if len(recs) != 2 || recs[0].Seq != lost || recs[1].Seq != void {
		t.Fatalf("settles and voids after %d, 2 of them: %v", won, seqs(recs))
	}
	recs, err = s.Find(ctx, sabot.LogQuery{Kinds: []string{sabot.LogSettle, sabot.LogVoid}, TableID: t1.ID, After: void})
	must(t, err)
	if len(recs) != 1 || recs[0].Seq != none {
		t.Fatalf("settles and voids after %d: %v", void, seqs(recs))
	}
	_ = bet
	_, err = s.Find(ctx, sabot.LogQuery{Kinds: []string{sabot.LogSettle}, After: 1})
	code(t, err, sabot.EINVALID)
	_, err = s.Find(ctx, sabot.LogQuery{Kinds: []string{sabot.LogSettle}, TableID: t1.ID, After: -1})
	code(t, err, sabot.EINVALID)
}

func seqs(recs []*sabot.LogRecord) []int64 {
	var out []int64
	for _, r := range recs {
		out = append(out, r.Seq)
	}
	return out
}
