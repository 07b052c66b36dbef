package storetest

import (
	"context"
	"encoding/json"
	"testing"
	"time"

	"sabot"
	"sabot/money"
)

// testTableHouse: the house is the central account (AccountHouse, owner 0)
// and each table's (AccountTableHouse): two tables' settlements
// post to two rows, neither the central one nor a live table's cash float
// (AccountHouse of the table); a table's house may go below zero; the
// ledger check sums the house over them, the float left out; RoundNets
// and HouseNets give a round settled on the central house (before the
// tables had their own) and one on the table's alike.
func testTableHouse(t *testing.T, s sabot.Store) {
	ctx := context.Background()
	t1 := &sabot.Table{Name: "one", Profile: "vegas-s17"}
	t2 := &sabot.Table{Name: "two", Profile: "vegas-s17"}
	must(t, s.CreateTable(ctx, t1))
	must(t, s.CreateTable(ctx, t2))
	central := account(t, s, sabot.AccountHouse, 0)
	float := account(t, s, sabot.AccountHouse, t1.ID)
	h1, h2 := account(t, s, sabot.AccountTableHouse, t1.ID), account(t, s, sabot.AccountTableHouse, t2.ID)
	if h1 == h2 || h1 == central || h2 == central || h1 == float {
		t.Fatalf("the house accounts: central %d, table 1 %d, table 2 %d, table 1's float %d", central, h1, h2, float)
	}
	w := account(t, s, sabot.AccountWallet, 1)
	credit(t, s, w, 10000)
	must(t, s.Transfer(ctx, "chips for cash", []sabot.Posting{{AccountID: w, Amount: 500}, {AccountID: float, Amount: -500}}))
	app := func(tbl *sabot.Table, kind string, ps ...sabot.Posting) int64 {
		rec := &sabot.LogRecord{TableID: tbl.ID, Kind: kind, RoundNo: 1, Payload: json.RawMessage(`{}`)}
		if _, err := s.Append(ctx, sabot.Appending(rec), ps); err != nil {
			t.Fatal(err)
		}
		return rec.Seq
	}
	old := app(t1, sabot.LogSettle, sabot.Posting{AccountID: w, Amount: -300}, sabot.Posting{AccountID: central, Amount: 300})
	won := app(t1, sabot.LogSettle, sabot.Posting{AccountID: w, Amount: -200}, sabot.Posting{AccountID: h1, Amount: 200})
	lost := app(t2, sabot.LogSettle, sabot.Posting{AccountID: w, Amount: 450}, sabot.Posting{AccountID: h2, Amount: -450})
	if b := balance(t, s, sabot.AccountTableHouse, t2.ID); b != -450 {
		t.Fatalf("table 2's house holds %d, want -450", b)
	}

	r, err := s.CheckLedger(ctx)
	must(t, err)
	// The central house: -10000 credited, +300 of the old round.
	if !r.OK() || r.House != -10000+300+200-450 || r.HouseTables != 2 {
		t.Fatalf("the ledger: %+v, want the house %d over 2 tables", r, -10000+300+200-450)
	}

	if lr, ok := s.(sabot.LedgerReader); ok {
		nets, err := lr.RoundNets(ctx, time.Time{}, Now().Add(time.Hour))
		must(t, err)
		house := map[int64]money.Amount{}
		for _, n := range nets {
			if sabot.IsHouse(n.Kind, n.OwnerID) {
				house[n.TableID] += n.Net
			}
		}
		if house[t1.ID] != 500 || house[t2.ID] != -450 {
			t.Fatalf("the house's nets by table %v, want table 1 500 (300 central, 200 its own), table 2 -450", house)
		}
	}
	if ro, ok := s.(sabot.Rollups); ok {
		nets, err := ro.HouseNets(ctx, t1.ID, 0, 1<<40)
		must(t, err)
		if len(nets) != 2 || nets[old] != 300 || nets[won] != 200 {
			t.Fatalf("table 1's house nets %v, want %d: 300 (central), %d: 200", nets, old, won)
		}
		nets, err = ro.HouseNets(ctx, t2.ID, 0, 1<<40)
		must(t, err)
		if len(nets) != 1 || nets[lost] != -450 {
			t.Fatalf("table 2's house nets %v, want %d: -450", nets, lost)
		}
	}
}

// TableHouseMigration: a store written before the tables had their house
// accounts (migration 021) keeps every account, balance and entry when
// this version opens it: its rounds stay on the central house, which the
// ledger check and the reports read as the house with the tables' new
// accounts; a table's house account can be made, and the bound on a
// balance (migration 007) still holds.
func TableHouseMigration(t *testing.T, dsn string, open func(tb testing.TB, dsn string, upTo int64) sabot.Store) {
	ctx := context.Background()
	old := open(t, dsn, 20)
	tbl := &sabot.Table{Name: "A", Profile: "vegas-s17"}
	must(t, old.CreateTable(ctx, tbl))
	central, w := account(t, old, sabot.AccountHouse, 0), account(t, old, sabot.AccountWallet, 1)
	credit(t, old, w, 1000)
	won := &sabot.LogRecord{TableID: tbl.ID, Kind: sabot.LogSettle, RoundNo: 1, Payload: json.RawMessage(`{}`)}
	_, err := old.Append(ctx, sabot.Appending(won), []sabot.Posting{{AccountID: w, Amount: -100}, {AccountID: central, Amount: 100}})
	must(t, err)
	if _, err := old.Account(ctx, sabot.AccountTableHouse, tbl.ID); err == nil {
		t.Fatal("a table's house account before migration 021")
	}
	before := checkLedger(t, old)
	old.Close()

	s := open(t, dsn, 0)
	if id := account(t, s, sabot.AccountHouse, 0); id != central || balance(t, s, sabot.AccountHouse, 0) != -900 || balance(t, s, sabot.AccountWallet, 1) != 900 {
		t.Fatalf("after the migration: the central house %d (was %d) holds %d, the wallet %d", id, central, balance(t, s, sabot.AccountHouse, 0), balance(t, s, sabot.AccountWallet, 1))
	}
	h := account(t, s, sabot.AccountTableHouse, tbl.ID)
	lost := &sabot.LogRecord{TableID: tbl.ID, Kind: sabot.LogSettle, RoundNo: 2, Payload: json.RawMessage(`{}`)}
	_, err = s.Append(ctx, sabot.Appending(lost), []sabot.Posting{{AccountID: w, Amount: 40}, {AccountID: h, Amount: -40}})
	must(t, err)
	r := checkLedger(t, s)
	if r.Entries != before.Entries+2 || r.Transactions != before.Transactions+1 || r.House != -940 || r.HouseTables != 1 {
		t.Fatalf("the ledger after the migration: %+v (before it %+v), want the house -940", r, before)
	}
	if ro, ok := s.(sabot.Rollups); ok {
		nets, err := ro.HouseNets(ctx, tbl.ID, 0, 1<<40)
		must(t, err)
		if len(nets) != 2 || nets[won.Seq] != 100 || nets[lost.Seq] != -40 {
			t.Fatalf("the house's nets %v: want %d: 100 (central), %d: -40 (the table's)", nets, won.Seq, lost.Seq)
		}
	}
	if err := s.Transfer(ctx, "beyond", []sabot.Posting{{AccountID: h, Amount: money.Amount(-money.Max)}, {AccountID: central, Amount: money.Amount(money.Max)}}); err == nil {
		t.Fatal("a balance beyond the bound after the migration")
	}
}
