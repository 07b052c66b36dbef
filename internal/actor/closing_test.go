package actor

import (
	"context"
	"strings"
	"testing"

	"sabot"
	"sabot/internal/wire"
	"sabot/money"
)

var closeInspector = &sabot.User{ID: 997, Name: "ines", Role: sabot.RoleInspector}

// 003 §11: «cuando hay pocos jugadores en las mesas, se van cerrando éstas
// y los jugadores son invitados a agruparse en las que permanecen
// abiertas». The inspector closes a table between rounds: nothing is
// void, every bet placed for the next round goes back to its player's
// wallet (the seated players' and a back bettor's), the table's account
// holds nothing, the seats are free; the table says which table its
// players are invited to, refuses a sit and a bet, answers the closing
// sent again under its command ID as the first time, closes the same
// after a restart, and opens again on reopen-table.
func TestCloseTable_003s11_StakesKeptPlayersInvited(t *testing.T) {
	ctx := context.Background()
	p := newPlayedTable(t, "spain", nil, -1)
	p.s.Timing.KeepBetWindow = true // the last seated box's bet does not deal
	ana, ben, carl := p.player(t, "ana"), p.player(t, "ben"), p.player(t, "carl")
	wallet := func(u *sabot.User) money.Amount { return p.s.balance(ctx, sabot.AccountWallet, u.ID) }
	before := map[string]money.Amount{"ana": wallet(ana), "ben": wallet(ben), "carl": wallet(carl)}
	tableBefore := p.tableAccount()
	p.do(t, ana, wire.OpSit, wire.CommandRequest{Box: 1})
	p.do(t, ben, wire.OpSit, wire.CommandRequest{Box: 2})
	p.do(t, ana, wire.OpBet, wire.CommandRequest{Box: 1, Stake: 100})
	p.do(t, ben, wire.OpBet, wire.CommandRequest{Box: 2, Stake: 200})
	p.do(t, carl, wire.OpBet, wire.CommandRequest{Box: 1, Stake: 300}) // a back bet (ES-03)
	if wallet(carl) != before["carl"]-300 || p.tableAccount() != tableBefore+600 {
		t.Fatalf("the bets were not debited: carl %s, table %s", wallet(carl), p.tableAccount())
	}
	// A player does not close a table.
	wantCode(t, tableCommandNamed(wire.OpCloseTable).Allows(ana, p.a), sabot.EFORBIDDEN)
	close := testCommand(t, wire.OpCloseTable, closeInspector, "ines", "close-1", wire.CommandRequest{To: 7, Reason: "few players"})
	r := p.a.handle(ctx, close)
	if r.err != nil {
		t.Fatal(r.err)
	}
	for _, u := range []*sabot.User{ana, ben, carl} {
		if got := wallet(u); got != before[u.Name] {
			t.Errorf("%s's wallet %s after the closing, %s before his bet", u.Name, got, before[u.Name])
		}
	}
	if got := p.tableAccount(); got != tableBefore {
		t.Errorf("the table's account holds %s after the closing, %s before the bets", got, tableBefore)
	}
	if len(p.a.t.Seated()) != 0 || len(p.a.t.Bets()) != 0 {
		t.Fatalf("seated %v, bets %v after the closing", p.a.t.Seated(), p.a.t.Bets())
	}
	returned := map[string]money.Amount{}
	for _, l := range p.leaves(t) {
		returned[l.Player] += l.Returned
	}
	if returned["ana"] != 100 || returned["ben"] != 200 || returned["carl"] != 300 {
		t.Fatalf("leave records returned %v", returned)
	}
	v := p.a.view()
	if v.InvitedTo != 7 || !strings.Contains(v.Closed, "the inspector ines") || !strings.Contains(v.Closed, "table 7") {
		t.Fatalf("the view says closed %q, invited to %d", v.Closed, v.InvitedTo)
	}
	// Closed: a sit and a bet are refused, citing 003 §11.
	for _, try := range []struct {
		op  string
		req wire.CommandRequest
	}{{wire.OpSit, wire.CommandRequest{Box: 1}}, {wire.OpBet, wire.CommandRequest{Box: 1, Stake: 100}}} {
		err := p.try(t, ana, try.op, try.req)
		wantCode(t, err, sabot.ECONFLICT)
		if msg := sabot.ErrorMessage(err); !strings.Contains(msg, "(003 §11)") || !strings.Contains(msg, "table 7") {
			t.Errorf("%s at the closed table: %q", try.op, msg)
		}
	}
	// The closing sent again under its command ID changes nothing.
	seqBefore := p.a.lastSeq
	again := p.a.handle(ctx, testCommand(t, wire.OpCloseTable, closeInspector, "ines", "close-1", wire.CommandRequest{To: 7, Reason: "few players"}))
	if again.err != nil || !again.dup || again.seq != r.seq || p.a.lastSeq != seqBefore {
		t.Fatalf("the closing sent again: %+v (first seq %d), last seq %d → %d", again, r.seq, seqBefore, p.a.lastSeq)
	}
	// A restart replays the closing: the same closed state, and the same
	// answer to the closing sent again.
	p.rebuildWith(t)
	if v := p.a.view(); v.InvitedTo != 7 || v.Closed == "" || len(v.Seats) != 0 || len(v.Bets) != 0 {
		t.Fatalf("after a restart: closed %q, invited to %d, seats %v, bets %v", v.Closed, v.InvitedTo, v.Seats, v.Bets)
	}
	wantCode(t, p.try(t, ana, wire.OpSit, wire.CommandRequest{Box: 1}), sabot.ECONFLICT)
	if again := p.a.handle(ctx, testCommand(t, wire.OpCloseTable, closeInspector, "ines", "close-1", wire.CommandRequest{To: 7})); again.err != nil || !again.dup {
		t.Fatalf("the closing sent again after a restart: %+v", again)
	}
	// Reopened: the table serves again, and a restart keeps it open.
	p.do(t, closeInspector, wire.OpReopenTable, wire.CommandRequest{})
	wantCode(t, p.try(t, closeInspector, wire.OpReopenTable, wire.CommandRequest{}), sabot.ECONFLICT)
	p.do(t, ana, wire.OpSit, wire.CommandRequest{Box: 1})
	p.rebuildWith(t)
	if v := p.a.view(); v.Closed != "" || v.InvitedTo != 0 || len(v.Seats) != 1 {
		t.Fatalf("reopened, after a restart: closed %q, invited to %d, seats %v", v.Closed, v.InvitedTo, v.Seats)
	}
	p.do(t, ana, wire.OpBet, wire.CommandRequest{Box: 1, Stake: 100})
}

// 003 §11: the table closes once the round in play is over («Terminada
// esa ronda»): a closing mid-round is refused, citing 003 §11 at spain
// and this table's rules at argentina (000 says nothing of it), and
// changes nothing; once the round is over it closes.
func TestCloseTable_003s11_RefusedMidRound(t *testing.T) {
	ctx := context.Background()
	for profile, want := range map[string]string{"spain": "(003 §11)", "argentina": "(this table's rules)"} {
		p := newPlayedTable(t, profile, nil, -1)
		var us []*sabot.User
		for box, name := range []string{"ana", "ben", "carl"} { // AR-03: three bets to start
			us = append(us, p.player(t, name))
			p.do(t, us[box], wire.OpSit, wire.CommandRequest{Box: box + 1})
		}
		for box, u := range us {
			p.do(t, u, wire.OpBet, wire.CommandRequest{Box: box + 1, Stake: 100})
		}
		if !p.a.dealt {
			p.a.expire(ctx)
		}
		if !p.a.dealt {
			t.Fatalf("%s: not dealt", profile)
		}
		err := p.try(t, closeInspector, wire.OpCloseTable, wire.CommandRequest{To: 2})
		wantCode(t, err, sabot.ECONFLICT)
		if msg := sabot.ErrorMessage(err); !strings.HasSuffix(msg, want) {
			t.Errorf("%s: %q, want the citation %s", profile, msg, want)
		}
		if p.a.shut != nil || len(p.a.t.Seated()) != 3 {
			t.Fatalf("%s: the refused closing changed the table", profile)
		}
		for p.a.dealt {
			p.a.expire(ctx)
		}
		p.do(t, closeInspector, wire.OpCloseTable, wire.CommandRequest{To: 2})
		if p.a.shut == nil || len(p.a.t.Seated()) != 0 {
			t.Fatalf("%s: not closed once the round is over", profile)
		}
	}
}

// 003 §11 at a live table: a walk-in holds the casino's chips,
// which the dealer changes back (cash-out) before he stands him up and the
// table closes: the closing is refused while he sits, and accepted once he
// is cashed out and gone;
// an online player's bet there is returned as at any table.
func TestCloseTable_003s11_LiveTableCashesOutWalkInsFirst(t *testing.T) {
	ctx := context.Background()
	p := newPlayedTable(t, "spain", map[string]string{"shoe": "physical", "player_cut": "false"}, -1)
	p.s.Timing.KeepBetWindow = true
	dora := &sabot.User{Name: "dora", PasswordHash: []byte("x"), Role: sabot.RoleDealer}
	if err := p.st.CreateUser(ctx, dora); err != nil {
		t.Fatal(err)
	}
	ana := p.player(t, "ana")
	before := p.s.balance(ctx, sabot.AccountWallet, ana.ID)
	p.do(t, ana, wire.OpSit, wire.CommandRequest{Box: 1})
	p.do(t, ana, wire.OpBet, wire.CommandRequest{Box: 1, Stake: 100})
	p.do(t, dora, wire.OpSeatWalkIn, wire.CommandRequest{Box: 2})
	p.do(t, dora, wire.OpBuyIn, wire.CommandRequest{Box: 2, Stake: 5000})
	err := p.try(t, closeInspector, wire.OpCloseTable, wire.CommandRequest{To: 3})
	wantCode(t, err, sabot.ECONFLICT)
	if !strings.Contains(sabot.ErrorMessage(err), wire.OpCashOut) || p.a.shut != nil {
		t.Fatalf("closed with a walk-in seated: %v", err)
	}
	p.do(t, dora, wire.OpCashOut, wire.CommandRequest{Box: 2})
	wantCode(t, p.try(t, closeInspector, wire.OpCloseTable, wire.CommandRequest{To: 3}), sabot.ECONFLICT) // cashed out, still seated
	stand := testCommand(t, wire.OpLeave, dora, "dora", "stand-walk-in", wire.CommandRequest{})
	stand.walkIn = 2
	if r := p.a.handle(ctx, stand); r.err != nil {
		t.Fatal(r.err)
	}
	p.do(t, closeInspector, wire.OpCloseTable, wire.CommandRequest{To: 3})
	if p.a.shut == nil || p.s.balance(ctx, sabot.AccountWallet, ana.ID) != before {
		t.Fatalf("closed %v, ana's wallet %s, %s before", p.a.shut, p.s.balance(ctx, sabot.AccountWallet, ana.ID), before)
	}
}

// AR-24 at a physical table: a new shoe on the inspector's order is
// published at once (a shoe event), so the dealer's console refreshes
// without waiting for the next event.
func TestNewShoe_AR24_PhysicalTablePublishesTheShoe(t *testing.T) {
	p := newPlayedTable(t, "spain", map[string]string{"shoe": "physical", "player_cut": "false"}, -1)
	before := p.a.feed.seq
	p.do(t, closeInspector, wire.OpNewShoe, wire.CommandRequest{})
	var kinds []string
	for i := range p.a.feed.ringN {
		m := p.a.feed.ring[(p.a.feed.head+i)%len(p.a.feed.ring)]
		if m.seq > before {
			kinds = append(kinds, string(m.data))
		}
	}
	if len(kinds) == 0 || !strings.Contains(strings.Join(kinds, "\n"), `"kind":"shoe"`) {
		t.Fatalf("no shoe event after the new shoe; published: %q", kinds)
	}
}
