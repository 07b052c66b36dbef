package actor

import (
	"context"
	"errors"
	"strings"
	"testing"

	"sabot"
	"sabot/internal/recall"
	"sabot/internal/wire"
	"sabot/money"
	"sabot/rules"
)

// Regressions found by the review of the configuration changes and the
// snapshots (session 2): each test failed before its fix.

var pit = &sabot.User{ID: 999, Name: "pit", Admin: true}

func (p *playedTable) tableAccount() money.Amount {
	return p.s.balance(context.Background(), sabot.AccountTable, p.a.cfg.ID)
}

// startFrom rebuilds the table as a start would: from its latest snapshot
// (every < 0: from its whole log).
func (p *playedTable) startFrom(tb testing.TB, every int) *Table {
	tb.Helper()
	a := newActor(&Host{Store: p.s.Store, SnapshotEvery: every, Metrics: NewMetrics(), SeedKey: p.s.SeedKey}, p.a.created)
	if err := a.load(context.Background()); err != nil {
		tb.Fatal(err)
	}
	if a.closed != "" {
		tb.Fatalf("the table does not rebuild: %s", a.closed)
	}
	return a
}

// A bet that a configuration change returns leaves the table's stakes: a
// table closed afterwards returns nothing twice.
func TestConfigureReturnsTheStake(t *testing.T) {
	p := newPlayedTable(t, "spain", map[string]string{"max_bet": "50000"}, -1)
	ana := p.player(t, "ana")
	p.player(t, "ben")
	p.rounds(t, 2)
	p.do(t, ana, wire.OpBet, wire.CommandRequest{Box: 1, Stake: 40000})
	p.do(t, pit, wire.OpConfigure, wire.CommandRequest{Options: map[string]string{"max_bet": "30000"}})
	if e := p.a.escrow["ana"]; e != 0 {
		t.Fatalf("ana's stakes held %d after her only bet was returned", e)
	}
	if e := p.startFrom(t, -1).escrow["ana"]; e != 0 {
		t.Fatalf("rebuilt from the log, ana's stakes held %d", e)
	}
	if err := p.a.closeTable(context.Background(), errors.New("a test")); err != nil {
		t.Fatal(err)
	}
	if b := p.tableAccount(); b != 0 {
		t.Fatalf("the table account is %d after the close: money created", b)
	}
}

// A change back to the profile's own values ({} options) survives a
// snapshot, and the shoe it starts verifies under them.
func TestSnapshotKeepsTheProfilesValues(t *testing.T) {
	ctx := context.Background()
	p := newPlayedTable(t, "spain", map[string]string{"max_bet": "50000", "decks": "4"}, 2)
	ana := p.player(t, "ana")
	p.player(t, "ben")
	p.rounds(t, 1)
	p.do(t, pit, wire.OpConfigure, wire.CommandRequest{Options: map[string]string{"max_bet": "", "decks": ""}})
	no := p.a.t.ShoeNo()
	p.rounds(t, 3) // snapshots after rounds 2 and 4
	want := p.a.p.MaxBet
	for _, every := range []int{2, -1} {
		a := p.startFrom(t, every)
		if a.p.MaxBet != want || a.p.Decks != rules.MustLookup("spain").Decks || len(a.cfg.Options) != 0 {
			t.Fatalf("start (snapshot every %d): max_bet %d (live %d), %d decks, options %v", every, a.p.MaxBet, want, a.p.Decks, a.cfg.Options)
		}
	}
	p.a = p.startFrom(t, 2)
	p.do(t, ana, wire.OpBet, wire.CommandRequest{Box: 1, Stake: 60000}) // over the old 50000
	p.startFrom(t, -1)
	p.a.expire(ctx)
	for p.a.dealt {
		p.a.expire(ctx)
	}
	p.do(t, pit, wire.OpNewShoe, wire.CommandRequest{})
	rep, err := recall.VerifyShoe(ctx, p.st, recall.ShoeID(p.a.cfg.ID, no))
	if err != nil || !rep.Matches || len(rep.Problems) > 0 {
		t.Fatalf("the shoe started by the change: %+v %v", rep, err)
	}
}

// A command repeated after a start from a snapshot is a duplicate, as after
// a start from the whole log (GLI-19 §4.2.3).
func TestDuplicateAfterSnapshotStart(t *testing.T) {
	ctx := context.Background()
	p := newPlayedTable(t, "spain", nil, 1)
	ana := p.player(t, "ana")
	sit := *testCommand(t, wire.OpSit, ana, "ana", "sit-1", wire.CommandRequest{Box: 1})
	first := p.a.handle(ctx, &sit)
	if first.err != nil {
		t.Fatal(first.err)
	}
	p.rounds(t, 3)
	for _, every := range []int{1, -1} {
		again := sit
		if r := p.startFrom(t, every).handle(ctx, &again); !r.dup || r.seq != first.seq {
			t.Fatalf("start (snapshot every %d): the repeated sit gives %+v, want a duplicate of seq %d", every, r, first.seq)
		}
	}
}

// failKind fails the next append of a kind.
type failKind struct {
	sabot.Store
	kind string
}

func (f *failKind) Append(ctx context.Context, r *sabot.LogAppend, ps []sabot.Posting) (bool, error) {
	if r.Kind == f.kind {
		f.kind = ""
		return false, errors.New("injected failure")
	}
	return f.Store.Append(ctx, r, ps)
}

// A seed written whose record failed stays queued; no snapshot is taken
// while it is (a start from it would not give the seed back), and both
// starts rebuild the same table.
func TestNoSnapshotWithSeedsQueued(t *testing.T) {
	ctx := context.Background()
	p := newPlayedTable(t, "spain", nil, 2)
	p.player(t, "ana")
	p.player(t, "ben")
	p.rounds(t, 1)
	p.s.Store = &failKind{Store: p.st, kind: sabot.LogConfigure}
	c := testCommand(t, wire.OpConfigure, pit, "pit", "cf", wire.CommandRequest{Options: map[string]string{"decks": "4"}})
	if r := p.a.handle(ctx, c); r.err == nil {
		t.Fatal("the injected failure did not fail the change")
	}
	if len(p.a.seeds) != 1 {
		t.Fatalf("%d seeds queued after the failed change, want its shoe's", len(p.a.seeds))
	}
	p.rounds(t, 3)
	snaps, _ := p.st.Find(ctx, sabot.LogQuery{Kinds: []string{sabot.LogSnapshot}, TableID: p.a.cfg.ID})
	if len(snaps) != 0 {
		t.Fatalf("%d snapshots taken with a seed queued", len(snaps))
	}
	p.do(t, pit, wire.OpNewShoe, wire.CommandRequest{}) // uses the queued seed
	p.rounds(t, 2)
	snaps, _ = p.st.Find(ctx, sabot.LogQuery{Kinds: []string{sabot.LogSnapshot}, TableID: p.a.cfg.ID})
	if len(snaps) == 0 {
		t.Fatal("no snapshot once the seed was used")
	}
	want := p.a.stateJSON(t)
	for _, every := range []int{2, -1} {
		if got := p.startFrom(t, every).stateJSON(t); got != want {
			t.Fatalf("start (snapshot every %d):\n%s\nwant\n%s", every, got, want)
		}
	}
}

// FAM-02: the player given the bank plays the dealer's hand: his bet for
// the next round goes back to his wallet.
func TestBankHolderBetReturned_FAM02(t *testing.T) {
	p := newPlayedTable(t, "family", map[string]string{"bank_rotates": "true"}, -1)
	ana, ben := p.player(t, "ana"), p.player(t, "ben")
	p.do(t, ana, wire.OpSit, wire.CommandRequest{Box: 1})
	p.do(t, ben, wire.OpSit, wire.CommandRequest{Box: 2})
	p.do(t, ana, wire.OpBet, wire.CommandRequest{Box: 1, Stake: 100})
	p.do(t, pit, wire.OpConfigure, wire.CommandRequest{Bank: new("ana")})
	if len(p.a.t.Bets()) != 0 || p.a.escrow["ana"] != 0 {
		t.Fatalf("the bank holder's bet stayed: %+v, stakes held %d", p.a.t.Bets(), p.a.escrow["ana"])
	}
	p.do(t, ben, wire.OpBet, wire.CommandRequest{Box: 2, Stake: 100})
	for _, b := range p.a.t.Round().Bets() {
		if b.Player == "ana" {
			t.Fatalf("ana plays box %d against her own bank", b.Box)
		}
	}
}

// AR-05: with no back betting, a second seated player's bet on a free box
// someone already bet on is refused at once (the deal would refuse it).
func TestFreeBoxOneBettor_AR05(t *testing.T) {
	p := newPlayedTable(t, "argentina", nil, -1)
	ana, ben := p.player(t, "ana"), p.player(t, "ben")
	p.do(t, ana, wire.OpSit, wire.CommandRequest{Box: 1})
	p.do(t, ben, wire.OpSit, wire.CommandRequest{Box: 2})
	p.do(t, ana, wire.OpBet, wire.CommandRequest{Box: 3, Stake: 1000})
	r := p.a.handle(context.Background(), testCommand(t, wire.OpBet, ben, "ben", "b3", wire.CommandRequest{Box: 3, Stake: 1000}))
	if sabot.ErrorCode(r.err) != sabot.ECONFLICT || !strings.Contains(r.err.Error(), "AR-05") {
		t.Fatalf("ben's bet on ana's free box 3: %v", r.err)
	}
}

// A configuration change judges the bets as the deal does: the box
// holder's first, then the back bets, under the box's maximum (ES-03).
func TestRefusedBetsHolderFirst_ES03(t *testing.T) {
	p := newPlayedTable(t, "spain", map[string]string{"max_bet": "10000"}, -1)
	ana, ben, cy := p.player(t, "ana"), p.player(t, "ben"), p.player(t, "cy")
	p.do(t, ana, wire.OpSit, wire.CommandRequest{Box: 1})
	p.do(t, cy, wire.OpSit, wire.CommandRequest{Box: 3})               // has not bet: no deal yet
	p.do(t, ben, wire.OpBet, wire.CommandRequest{Box: 1, Stake: 3000}) // a back bet, placed first
	p.do(t, ana, wire.OpBet, wire.CommandRequest{Box: 1, Stake: 4000})
	p.do(t, pit, wire.OpConfigure, wire.CommandRequest{Options: map[string]string{"max_bet": "6000"}})
	bets := p.a.t.Bets()
	if len(bets) != 1 || bets[0].Player != "ana" {
		t.Fatalf("bets kept %+v, want ana's (the holder's) and ben's back bet returned", bets)
	}
}

// The cover a player's bank took for the round in play
// is rebuilt from the log, and a table closed mid-round (its log does not
// replay) gives it back to the holder's wallet: nothing stays in the bank
// account (FAM-01, FAM-02).
func TestClosedTableReturnsBankCover_FAM01(t *testing.T) {
	ctx := context.Background()
	p := newPlayedTable(t, "family", nil, -1)
	ana, ben := p.player(t, "ana"), p.player(t, "ben")
	p.do(t, ana, wire.OpSit, wire.CommandRequest{Box: 1})
	p.do(t, ben, wire.OpSit, wire.CommandRequest{Box: 2})
	p.do(t, pit, wire.OpConfigure, wire.CommandRequest{Bank: new("ben")})
	for !p.a.dealt { // a blackjack ends the round at once: deal again
		if p.a.t.Bank() != "ben" {
			p.do(t, pit, wire.OpConfigure, wire.CommandRequest{Bank: new("ben")})
		}
		p.do(t, ana, wire.OpBet, wire.CommandRequest{Box: 1, Stake: 100})
	}
	full := p.s.balance(ctx, sabot.AccountWallet, ben.ID) + p.a.bankCover
	if p.a.bankCover != 150 || p.s.balance(ctx, sabot.AccountBank, ben.ID) != 150 {
		t.Fatalf("ben's bank covers %d (account %d), want 150", p.a.bankCover, p.s.balance(ctx, sabot.AccountBank, ben.ID))
	}
	if c := p.startFrom(t, -1).bankCover; c != 150 {
		t.Fatalf("rebuilt from the log, the bank covers %d", c)
	}
	if err := p.a.closeTable(ctx, errors.New("a test")); err != nil {
		t.Fatal(err)
	}
	if b, w := p.s.balance(ctx, sabot.AccountBank, ben.ID), p.s.balance(ctx, sabot.AccountWallet, ben.ID); b != 0 || w != full {
		t.Fatalf("after the close: ben's bank account %d, wallet %d (want 0, %d)", b, w, full)
	}
	if b := p.tableAccount(); b != 0 {
		t.Fatalf("the table account is %d after the close", b)
	}
	if r, err := p.st.CheckLedger(ctx); err != nil || !r.OK() {
		t.Fatalf("ledger: %v %v", err, r)
	}
}
