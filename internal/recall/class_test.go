package recall

import (
	"context"
	"fmt"
	"slices"
	"testing"

	"sabot"
	"sabot/internal/tablelog"
	"sabot/internal/wire"
)

// Every significant event a server writes has its class, so that the
// pit's filter by class shows each under one.
func TestEveryEventHasAClass(t *testing.T) {
	for _, ev := range tablelog.Events {
		if _, ok := adminClass[ev]; !ok {
			t.Errorf("significant event %q has no class in adminClass", ev)
		}
	}
	for ev, c := range adminClass {
		if !slices.Contains(EventClasses, c) {
			t.Errorf("event %q: class %q is not one of EventClasses", ev, c)
		}
	}
}

// The log filtered by class keeps that class's events only, the newest
// first, up to its limit, reading past pages of other classes' records.
func TestEventsFilteredByClass(t *testing.T) {
	ctx := context.Background()
	f := &fakeLog{t: &sabot.Table{ID: 3}}
	seq := int64(0)
	add := func(kind string, p any) {
		seq++
		f.recs = append(f.recs, &sabot.LogRecord{TableID: 3, Seq: seq, Kind: kind, Payload: mustJSON(t, p)})
	}
	add(sabot.LogAdmin, wire.AdminEvent{Event: tablelog.EventCredit, User: "ana", Amount: 500}) // 1 money
	add(sabot.LogAdmin, wire.AdminEvent{Event: tablelog.EventIndexPlay, User: "ana"})           // 2 advantage
	add(sabot.LogVoid, tablelog.Settle{Round: 4})                                               // 3 table
	add(sabot.LogAdmin, wire.AdminEvent{Event: tablelog.EventStaffCreated, User: "dan"})        // 4 staff
	add(sabot.LogAdmin, wire.AdminEvent{Event: tablelog.EventPlayerBlocked, User: "ana"})       // 5 exclusions
	add(sabot.LogAdmin, wire.AdminEvent{Event: tablelog.EventBackCounting, User: "bob"})        // 6 advantage
	add(sabot.LogAdmin, wire.AdminEvent{Event: tablelog.EventNewShoe})                          // 7 table
	for range 1200 {                                                                            // more than two pages of another class's
		add(sabot.LogAdmin, wire.AdminEvent{Event: tablelog.EventCredit, User: "ana", Amount: 100})
	}
	cases := []struct {
		class string
		limit int
		want  []int64
	}{
		{ClassAdvantage, 0, []int64{6, 2}},
		{ClassAdvantage, 1, []int64{6}},
		{ClassTable, 0, []int64{7, 3}},
		{ClassStaff, 10, []int64{4}},
		{ClassExclusions, 10, []int64{5}},
		{ClassSystem, 10, nil},
	}
	for _, c := range cases {
		evs, err := Events(ctx, f, EventQuery{Class: c.class, Limit: c.limit})
		if err != nil {
			t.Fatalf("%s: %v", c.class, err)
		}
		var got []int64
		for _, e := range evs {
			got = append(got, e.Seq)
		}
		if fmt.Sprint(got) != fmt.Sprint(c.want) {
			t.Errorf("class %s limit %d: seqs %v, want %v", c.class, c.limit, got, c.want)
		}
	}
	money, err := Events(ctx, f, EventQuery{Class: ClassMoney, Limit: 3})
	if err != nil || len(money) != 3 || money[0].Seq != seq {
		t.Errorf("money, limit 3: %d events, %v; want the 3 newest", len(money), err)
	}
	if _, err := Events(ctx, f, EventQuery{Class: "pit"}); sabot.ErrorCode(err) != sabot.EINVALID {
		t.Errorf("class \"pit\": %v, want EINVALID", err)
	}
}
