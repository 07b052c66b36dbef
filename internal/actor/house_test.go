package actor

import (
	"context"
	"testing"
	"time"

	"sabot"
	"sabot/money"
)

// Two tables' settlements post the house's side to two accounts, each
// table's own (no row every table's settlements lock): no entry of either touches the
// central house (AccountHouse, owner 0), which the players' credits
// alone move; the ledger balances and its house is the central account
// and the tables' together.
func TestSettlementsPostToTheTablesHouse(t *testing.T) {
	ctx := context.Background()
	p := newPlayedTable(t, "vegas-s17", nil, -1)
	cfg := &sabot.Table{Name: "snap 2", Profile: "vegas-s17"}
	if err := p.st.CreateTable(ctx, cfg); err != nil {
		t.Fatal(err)
	}
	q := &playedTable{st: p.st, s: p.s, a: newActor(p.s, cfg)}
	if err := q.a.load(ctx); err != nil {
		t.Fatal(err)
	}
	q.steps(t)
	p.player(t, "ann")
	p.player(t, "bob")
	q.users = p.users
	p.rounds(t, 6)
	q.rounds(t, 6)

	h1, h2 := must(p.st.Account(ctx, sabot.AccountTableHouse, p.a.cfg.ID)), must(p.st.Account(ctx, sabot.AccountTableHouse, q.a.cfg.ID))
	// The shoes are random: twelve rounds can net 0 at both tables (it
	// happened once); play on until a house has moved.
	for i := 0; i < 30 && h1.Balance == 0 && h2.Balance == 0; i++ {
		p.rounds(t, 1)
		q.rounds(t, 1)
		h1, h2 = must(p.st.Account(ctx, sabot.AccountTableHouse, p.a.cfg.ID)), must(p.st.Account(ctx, sabot.AccountTableHouse, q.a.cfg.ID))
	}
	central := must(p.st.Account(ctx, sabot.AccountHouse, 0))
	if h1.ID == h2.ID || h1.ID == central.ID || h2.ID == central.ID {
		t.Fatalf("the house accounts: table 1 %d, table 2 %d, central %d", h1.ID, h2.ID, central.ID)
	}
	nets, err := p.st.RoundNets(ctx, time.Time{}, time.Now().Add(time.Hour))
	if err != nil {
		t.Fatal(err)
	}
	byTable := map[int64]money.Amount{}
	for _, n := range nets {
		switch {
		case n.Kind == sabot.AccountHouse:
			t.Fatalf("table %d's rounds moved the central house (%s of %d): %d", n.TableID, n.Kind, n.OwnerID, n.Net)
		case n.Kind == sabot.AccountTableHouse && n.OwnerID != n.TableID:
			t.Fatalf("table %d's rounds moved table %d's house: %d", n.TableID, n.OwnerID, n.Net)
		case n.Kind == sabot.AccountTableHouse:
			byTable[n.TableID] += n.Net
		}
	}
	if byTable[p.a.cfg.ID] != h1.Balance || byTable[q.a.cfg.ID] != h2.Balance || h1.Balance == 0 && h2.Balance == 0 {
		t.Fatalf("the tables' house nets %v; their accounts hold %d and %d", byTable, h1.Balance, h2.Balance)
	}
	r, err := p.st.CheckLedger(ctx)
	if err != nil {
		t.Fatal(err)
	}
	if !r.OK() || r.House != int64(central.Balance+h1.Balance+h2.Balance) || r.HouseTables != 2 {
		t.Fatalf("the ledger: %+v; the central house %d, the tables' %d and %d", r, central.Balance, h1.Balance, h2.Balance)
	}
}

func must[T any](v T, err error) T {
	if err != nil {
		panic(err)
	}
	return v
}
