package server_test

import (
	"context"
	"net/url"
	"strconv"
	"strings"
	"testing"
	"time"

	"sabot"
	"sabot/internal/client"
	"sabot/internal/live"
	"sabot/internal/server"
	"sabot/internal/wire"
)

// 003 §11 over HTTP: the inspector closes a Spanish table between rounds
// and invites its players to another; their bets come back to their
// wallets (nothing void; a self-excluded back bettor's too), the lobby shows the table closed with the table
// invited to, the significant-event log names the inspector, a sit is
// refused (table_closed_pit) after a restart too, and reopen-table opens
// it again.
func TestCloseTableOverHTTP_003s11(t *testing.T) {
	ctx := context.Background()
	h := newHarness(t, nil, slow)
	tb, other := h.table("spain", false, nil), h.table("spain", false, nil)
	ines := h.staff("ines", sabot.RoleInspector)
	ana, ben := h.player("ana", 1000), h.player("ben", 1000)
	must(ana.Command(ctx, tb, "sit", wire.CommandRequest{Box: 1}))
	must(ana.Command(ctx, tb, "bet", wire.CommandRequest{Box: 1, Stake: 100}))
	must(ben.Command(ctx, tb, "bet", wire.CommandRequest{Box: 1, Stake: 200})) // a back bet (ES-03)
	if wallet(t, ana) != 900 || wallet(t, ben) != 800 {
		t.Fatalf("wallets after the bets: ana %d, ben %d", wallet(t, ana), wallet(t, ben))
	}
	// ben's self-exclusion comes into force with his bet down (written
	// by another node, or his care's seam: the table does not know it):
	// the closing returns his stake all the same (a return is no stake).
	u := must(h.st.UserByName(ctx, "ben"))
	now := time.Now()
	must(0, h.st.(sabot.Care).PutCare(ctx, u.ID, sabot.PlayerCare{Exclusion: "self-exclusion", ExcludedFrom: now, ExcludedUntil: now.Add(180 * 24 * time.Hour)}))
	_, err := ana.Command(ctx, tb, wire.OpCloseTable, wire.CommandRequest{To: other})
	wantCode(t, err, sabot.EFORBIDDEN, "the inspector's or the pit's only (ES-01)")
	must(ines.Command(ctx, tb, wire.OpCloseTable, wire.CommandRequest{To: other, Reason: "few players"}))
	if w := must(h.st.Account(ctx, sabot.AccountWallet, u.ID)).Balance; wallet(t, ana) != 1000 || w != 1000 {
		t.Fatalf("wallets after the closing: ana %d, ben (self-excluded) %d, want 1000 each", wallet(t, ana), w)
	}
	var lobby []wire.TableView
	must(0, ana.Do(ctx, "GET", "/api/tables", nil, &lobby))
	found := false
	for _, v := range lobby {
		if v.ID == tb {
			found = true
			if !v.PitClosed || v.InvitedTo != other || !strings.Contains(v.Closed, "the inspector ines") || len(v.Seats) != 0 || len(v.Bets) != 0 {
				t.Fatalf("the lobby's closed table: %+v", v)
			}
		} else if v.Closed != "" {
			t.Fatalf("table %d closed too: %q", v.ID, v.Closed)
		}
	}
	if !found {
		t.Fatalf("table %d not in the lobby", tb)
	}
	evs := h.events(url.Values{"table": {strconv.FormatInt(tb, 10)}})
	said := false
	for _, e := range evs {
		if strings.HasPrefix(e.Summary, "close-table: closed by the inspector ines; the players are invited to table "+strconv.FormatInt(other, 10)) {
			said = len(e.Words) == 1 && e.Words[0].Key == "closeTableTo"
		}
	}
	if !said {
		t.Fatalf("the significant events do not name the inspector's closing: %+v", evs)
	}
	_, err = ana.Command(ctx, tb, "sit", wire.CommandRequest{Box: 2})
	wantReason(t, err, sabot.ECONFLICT, "table_closed_pit")
	h.restart(slow)
	ana.URL, ines.URL = h.srv.URL(), h.srv.URL()
	_, err = ana.Command(ctx, tb, "bet", wire.CommandRequest{Box: 1, Stake: 100})
	wantReason(t, err, sabot.ECONFLICT, "table_closed_pit")
	if v := must(ana.Table(ctx, tb)); !v.PitClosed || v.InvitedTo != other {
		t.Fatalf("after a restart: %+v", v)
	}
	must(ines.Command(ctx, tb, wire.OpReopenTable, wire.CommandRequest{}))
	must(ana.Command(ctx, tb, "sit", wire.CommandRequest{Box: 2}))
	if v := must(ana.Table(ctx, tb)); v.PitClosed || v.Closed != "" {
		t.Fatalf("reopened: %+v", v)
	}
	checkLedger(t, h.st)
}

// 003 §11 in a cluster: the closing of a table served by node 1, sent
// through node 0, is applied by the table's owner; the players' feed
// through node 0 gets the "closed" event with the table invited to; the
// same closing sent again under its command ID, through the owner itself,
// is answered as the first (the same seq, a duplicate) and writes nothing;
// the ledger balances.
func TestCloseTableInACluster_003s11(t *testing.T) {
	ctx := context.Background()
	c := newCluster(t, 1)
	ids := c.tables(2)
	c.add()
	within(t, 10*time.Second, "a table on each of two nodes", func() bool {
		return server.Local(c.nodes[0]) == 1 && server.Local(c.nodes[1]) == 1
	})
	tb, other := ids[0], ids[1]
	if c.owner(tb) != c.nodes[1] {
		tb, other = other, tb
	}
	must(0, c.admin.Do(ctx, "POST", "/api/admin/staff", live.StaffRequest{Name: "ines", Password: password, Role: sabot.RoleInspector}, nil))
	ines := &client.Client{URL: c.nodes[0].URL()}
	must(ines.Login(ctx, "ines", password))
	ana := c.player("ana", c.nodes[0])
	feed := must(ana.Subscribe(ctx, tb, "", 0))
	defer feed.Close()
	ben := c.player("ben", c.nodes[1])
	must(ana.Command(ctx, tb, "sit", wire.CommandRequest{Box: 1}))
	must(ben.Command(ctx, tb, "sit", wire.CommandRequest{Box: 2})) // the window waits for his bet
	must(ana.Command(ctx, tb, "bet", wire.CommandRequest{Box: 1, Stake: 100}))
	first := must(ines.Command(ctx, tb, wire.OpCloseTable, wire.CommandRequest{CommandID: "close-1", To: other}))
	for {
		m := must(feed.Next(ctx))
		if m.Type == "event" && m.Event != nil && m.Event.Kind == wire.EvClosed {
			if m.Event.Table != other || m.Event.By != "ines" {
				t.Fatalf("the closed event: %+v", m.Event)
			}
			break
		}
	}
	if w := wallet(t, ana); w != 10000 {
		t.Fatalf("ana's wallet after the closing: %d, want 10000", w)
	}
	_, err := ben.Command(ctx, tb, "bet", wire.CommandRequest{Box: 2, Stake: 100})
	wantReason(t, err, sabot.ECONFLICT, "table_closed_pit")
	ines.URL = c.nodes[1].URL()
	again := must(ines.Command(ctx, tb, wire.OpCloseTable, wire.CommandRequest{CommandID: "close-1", To: other}))
	if !again.Duplicate || again.Seq != first.Seq {
		t.Fatalf("the closing sent again: %+v, first %+v", again, first)
	}
	if recs := must(c.nodes[1].Store.Log(ctx, tb, first.Seq+1)); len(recs) != 0 {
		t.Fatalf("the closing sent again wrote %d records", len(recs))
	}
	v := must(ana.Table(ctx, tb))
	if !v.PitClosed || v.InvitedTo != other {
		t.Fatalf("the table through node 0: %+v", v)
	}
	checkLedger(t, c.nodes[0].Store)
}
