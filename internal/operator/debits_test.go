package operator

import (
	"context"
	"log/slog"
	"net/http"
	"net/http/httptest"
	"slices"
	"strings"
	"testing"
	"time"

	"sabot"
	"sabot/internal/wallet"
	"sabot/money"
)

// table is a table actor as its debits see it: its records written, the
// functions posted to its loop, the answers it gave.
type table struct {
	t       *testing.T
	d       *Debits
	out     *outbox
	players map[string]int64
	round   int
	dealt   bool
	seq     int64
	written []*sabot.LogAppend
	posted  chan func(context.Context)
	answers []answer
}

type answer struct {
	waiters []any
	r       Reply
}

// cmd is a command: a bet of a player's.
type cmd struct {
	client, id, player string
	stake              money.Amount
	waiter             any
}

func (c *cmd) IDs() (string, string) { return c.client, c.id }
func (c *cmd) Name() string          { return "bet" }
func (c *cmd) UserID() int64         { return 0 }
func (c *cmd) Waiter() any           { return c.waiter }

// ok is the table's answer to a command that went through.
type ok struct{ seq int64 }

func (ok) Parked() bool { return false }
func (ok) Err() error   { return nil }

func newTable(t *testing.T, r *rig) *table {
	tb := &table{t: t, out: r.out, players: map[string]int64{"@ana": 7, "@ben": 8, "cy": 9}, posted: make(chan func(context.Context), 16)}
	tb.d = r.Debits(tb)
	return tb
}

func (tb *table) ID() int64                 { return 3 }
func (tb *table) Profile() string           { return "vegas-s17" }
func (tb *table) Loaded() bool              { return true }
func (tb *table) RoundNo() int              { return tb.round }
func (tb *table) Dealt() bool               { return tb.dealt }
func (tb *table) Players() map[string]int64 { return tb.players }
func (tb *table) LastSeq() int64            { return tb.seq }
func (tb *table) Log() *slog.Logger         { return slog.New(slog.DiscardHandler) }

// Write appends as the store does: the record's calls into the outbox,
// the debits it counts marked.
func (tb *table) Write(ctx context.Context, rec *sabot.LogAppend) error {
	for _, c := range rec.Calls {
		if tb.out.call(c.ID) != nil {
			return sabot.Errorf(sabot.ECONFLICT, "the call %s is in the outbox already", c.ID)
		}
	}
	tb.seq++
	rec.Seq = tb.seq
	for _, c := range rec.Calls {
		c.TableID, c.Seq = rec.TableID, rec.Seq
		tb.out.add(c)
	}
	tb.out.mu.Lock()
	for _, id := range rec.Counts {
		tb.out.find(id).Counted = true
	}
	tb.out.mu.Unlock()
	tb.written = append(tb.written, rec)
	return nil
}

// bet stakes a player's money as a table command does: its postings, then
// the operator's part, then the record.
func (tb *table) bet(ctx context.Context, c *cmd) (*sabot.LogRecord, error) {
	rec := &sabot.LogRecord{TableID: 3, Kind: sabot.LogBet}
	req := sabot.Appending(rec)
	ps := []sabot.Posting{{AccountID: 100 + tb.players[c.player], Amount: -c.stake}, {AccountID: 50, Amount: c.stake}}
	ps, err := tb.d.Money(ctx, req, ps)
	if err != nil {
		return nil, err
	}
	var sum money.Amount
	for _, p := range ps {
		sum += p.Amount
	}
	if sum != 0 {
		tb.t.Fatalf("the postings of %s's bet do not net to zero: %+v", c.player, ps)
	}
	tb.Write(ctx, req)
	tb.d.Written(req)
	return rec, nil
}

func (tb *table) Run(ctx context.Context, c Command) Reply {
	if _, err := tb.bet(ctx, c.(*cmd)); err != nil {
		return refused{err}
	}
	return ok{tb.seq}
}

func (tb *table) Answer(waiters []any, r Reply) { tb.answers = append(tb.answers, answer{waiters, r}) }
func (tb *table) Post(fn func(context.Context)) { tb.posted <- fn }

// stake sends a bet: run, and when it waits for its debit, its debit
// asked.
func (tb *table) stake(ctx context.Context, c *cmd) (parked bool, err error) {
	_, err = tb.bet(ctx, c)
	if nd, ok := err.(*NeedDebit); ok {
		return tb.d.Start(ctx, c, nd)
	}
	return false, err
}

// loop runs one function posted to the table's loop.
func (tb *table) loop(ctx context.Context) {
	tb.t.Helper()
	select {
	case fn := <-tb.posted:
		fn(ctx)
	case <-time.After(10 * time.Second):
		tb.t.Fatal("no answer of the debit posted to the table")
	}
}

// A stake of an operator's player counts on a debit the operator has
// acknowledged: the command waits for it, runs again when it is answered,
// and its record counts the debit and moves the money through the house;
// the settlement credits the operator, and a lost round is closed by a
// credit of 0. A player of sabot's own wallets never waits.
func TestDebitCountsOnStake(t *testing.T) {
	ctx := context.Background()
	r := newRig(t)
	r.ref.AddPlayer("ana", "Ana", 1000)
	r.ref.AddPlayer("ben", "Ben", 1000)
	tb := newTable(t, r)
	if parked, err := tb.stake(ctx, &cmd{client: "9", id: "b1", player: "cy", stake: 100}); parked || err != nil {
		t.Fatalf("cy's own wallet: parked %v, %v", parked, err)
	}
	ch := make(chan int)
	bet := &cmd{client: "7", id: "b1", player: "@ana", stake: 300, waiter: ch}
	if parked, err := tb.stake(ctx, bet); !parked || err != nil {
		t.Fatalf("ana's stake: parked %v, %v", parked, err)
	}
	again := &cmd{client: "7", id: "b1", player: "@ana", stake: 300, waiter: make(chan int)}
	if parked, err := tb.d.Start(ctx, again, &NeedDebit{player: "@ana", amount: 300, kind: KindBet}); !parked || err != nil {
		t.Fatalf("the same command again: parked %v, %v", parked, err)
	}
	debit := tb.written[len(tb.written)-1]
	if debit.Kind != sabot.LogWalletDebit || len(debit.Calls) != 1 || len(r.out.calls) != 1 {
		t.Fatalf("the debit's record: %+v; the outbox %d calls", debit, len(r.out.calls))
	}
	call := debit.Calls[0]
	if call.Op != wallet.OpDebit || call.Player != "ana" || call.Amount != 300 || call.Kind != KindBet || call.Round != "3-1" || call.Game != "blackjack-vegas-s17" {
		t.Fatalf("the debit: %+v", call)
	}
	tb.loop(ctx)
	if len(tb.answers) != 1 || tb.answers[0].r.Err() != nil || !slices.Equal(tb.answers[0].waiters, []any{ch, again.waiter}) {
		t.Fatalf("the answers: %+v", tb.answers)
	}
	stake := tb.written[len(tb.written)-1]
	if stake.Kind != sabot.LogBet || !slices.Equal(stake.Counts, []string{call.ID}) || r.ref.Balance("ana") != 700 {
		t.Fatalf("the stake counts %v; the operator holds %d", stake.Counts, r.ref.Balance("ana"))
	}
	if c := r.out.call(call.ID); c.State != sabot.CallOK || !c.Counted {
		t.Fatalf("the debit in the outbox: %+v", c)
	}

	// ben's stake too; the round is dealt and settled: ana wins 600, ben
	// loses.
	tb.stake(ctx, &cmd{client: "8", id: "b1", player: "@ben", stake: 100})
	tb.loop(ctx)
	tb.round, tb.dealt = 1, true
	settle := sabot.Appending(&sabot.LogRecord{TableID: 3, Kind: sabot.LogSettle, RoundNo: 1})
	ps, err := tb.d.Money(ctx, settle, []sabot.Posting{{AccountID: 50, Amount: -600}, {AccountID: 107, Amount: 600}})
	if err != nil {
		t.Fatal(err)
	}
	if len(ps) != 4 || len(settle.Calls) != 2 {
		t.Fatalf("the settlement: postings %+v, calls %+v", ps, settle.Calls)
	}
	for _, c := range settle.Calls {
		want := map[string]money.Amount{"ana": 600, "ben": 0}[c.Player]
		if c.Op != wallet.OpCredit || c.Kind != "settle" || !c.RoundClosed || c.Amount != want || c.Round != "3-1" || !strings.HasPrefix(c.ID, "c-") {
			t.Errorf("%s's credit: %+v", c.Player, c)
		}
	}
	tb.d.Written(settle)
	if len(tb.d.staked) != 0 || len(tb.d.funded["@ana"]) != 0 {
		t.Fatalf("after the settlement: staked %v, funded %v", tb.d.staked, tb.d.funded)
	}
}

// A debit the operator refuses stakes nothing: the player reads the
// operator's reason. One it does not answer in time does not count: it is
// rolled back, a significant event, and the player may try again.
func TestDebitRefusedOrLapsed(t *testing.T) {
	ctx := context.Background()
	r := newRig(t)
	r.ref.AddPlayer("ana", "Ana", 100)
	tb := newTable(t, r)
	tb.stake(ctx, &cmd{client: "7", id: "b1", player: "@ana", stake: 300})
	tb.loop(ctx)
	err := tb.answers[0].r.Err()
	if sabot.ErrorCode(err) != sabot.EINSUFFICIENT || !strings.Contains(err.Error(), "refused by the operator's wallet: your balance does not cover the stake") {
		t.Fatalf("a stake over the balance: %v", err)
	}
	if e := (*sabot.Error)(nil); !asError(err, &e) || e.Reason != "operator_refused" {
		t.Fatalf("the refusal's reason: %+v", err)
	}
	if len(tb.written) != 1 || len(tb.d.funded["@ana"]) != 0 {
		t.Fatalf("records %d, funded %v", len(tb.written), tb.d.funded)
	}
	// The same command again: its debit is not asked twice, and the
	// player reads the operator's refusal again.
	_, err = tb.stake(ctx, &cmd{client: "7", id: "b1", player: "@ana", stake: 300})
	if sabot.ErrorCode(err) != sabot.EINSUFFICIENT || len(tb.written) != 1 || len(r.out.calls) != 1 {
		t.Fatalf("the command again: %v; %d records, %d calls", err, len(tb.written), len(r.out.calls))
	}

	down := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, _ *http.Request) { http.Error(w, "down", http.StatusBadGateway) }))
	defer down.Close()
	r.cfg.Wallet, r.cfg.Timeout = &wallet.Client{URL: down.URL, Secret: secret}, 100*time.Millisecond
	tb.stake(ctx, &cmd{client: "7", id: "b2", player: "@ana", stake: 50})
	tb.loop(ctx)
	err = tb.answers[1].r.Err()
	if sabot.ErrorCode(err) != sabot.EUNAVAILABLE || !strings.Contains(err.Error(), "did not answer within 100ms: the bet does not count") {
		t.Fatalf("a stake with the operator down: %v", err)
	}
	id := tb.written[1].Calls[0].ID
	rb := r.out.call("r-" + id)
	if r.out.call(id).State != sabot.CallLapsed || rb == nil || rb.Op != wallet.OpRollback || rb.Kind != KindLapsed || rb.Reference != id || rb.Amount != 50 {
		t.Fatalf("the debit lapsed %s, its rollback %+v", r.out.call(id).State, rb)
	}
	if ev := r.seen("wallet-rollback"); len(ev) != 1 || ev[0].User != "@ana" || ev[0].Text != "no answer within 100ms" {
		t.Fatalf("the events: %+v", ev)
	}
	if n := metric(t, r.m, "sabot_wallet_rollbacks_total"); n != 1 {
		t.Fatalf("rollbacks in the metrics: %v", n)
	}
}

func asError(err error, e **sabot.Error) bool {
	x, ok := err.(*sabot.Error)
	*e = x
	return ok
}

// One player's stakes waiting for the operator are at most
// maxDebitsPerPlayer; another player's stake goes through meanwhile.
func TestDebitsBoundedPerPlayer(t *testing.T) {
	ctx := context.Background()
	r := newRig(t, func(c *Config) { c.Go = func(func()) {} }) // the operator never answers
	tb := newTable(t, r)
	for i := range maxDebitsPerPlayer {
		if parked, err := tb.stake(ctx, &cmd{client: "7", id: string(rune('a' + i)), player: "@ana", stake: money.Amount(100 * (i + 1))}); !parked || err != nil {
			t.Fatalf("ana's stake %d: parked %v, %v", i+1, parked, err)
		}
	}
	_, err := tb.stake(ctx, &cmd{client: "7", id: "z", player: "@ana", stake: 1000})
	if sabot.ErrorCode(err) != sabot.EUNAVAILABLE || !strings.Contains(err.Error(), "4 of your stakes wait for the operator's wallet already") {
		t.Fatalf("ana's stake over the bound: %v", err)
	}
	if parked, err := tb.stake(ctx, &cmd{client: "8", id: "a", player: "@ben", stake: 100}); !parked || err != nil {
		t.Fatalf("ben's stake meanwhile: parked %v, %v", parked, err)
	}
}

// At a table's start every debit no stake counted is rolled back (the
// table stopped between the debit and the stake), once; the debits of the
// stakes in play are taken up, to roll back if the round is void.
func TestRecoverDebits(t *testing.T) {
	ctx := context.Background()
	r := newRig(t)
	r.out.add(
		sabot.WalletCall{ID: "d-pending", TableID: 3, Op: wallet.OpDebit, Player: "ana", Round: "3-2", Amount: 100},
		sabot.WalletCall{ID: "d-ok", TableID: 3, Op: wallet.OpDebit, Player: "ana", Round: "3-2", Amount: 200, State: sabot.CallOK},
		sabot.WalletCall{ID: "d-gone", TableID: 3, Op: wallet.OpDebit, Player: "ben", Round: "3-1", Amount: 50, State: sabot.CallOK},
		sabot.WalletCall{ID: "r-d-gone", TableID: 3, Op: wallet.OpRollback, Player: "ben", Round: "3-1", Reference: "d-gone", Amount: 50},
		sabot.WalletCall{ID: "d-staked", TableID: 3, Op: wallet.OpDebit, Player: "ben", Round: "3-2", Amount: 400, State: sabot.CallOK, Counted: true},
		sabot.WalletCall{ID: "d-other", TableID: 4, Op: wallet.OpDebit, Player: "ana", Round: "4-2", Amount: 100},
	)
	tb := newTable(t, r)
	tb.round = 1 // bets for round 2
	if err := tb.d.Recover(ctx); err != nil {
		t.Fatal(err)
	}
	if s := r.out.call("d-pending").State; s != sabot.CallLapsed {
		t.Fatalf("the pending debit: %s", s)
	}
	var rolled []string
	for _, e := range r.seen("wallet-rollback") {
		rolled = append(rolled, e.Memo)
	}
	if !slices.Equal(rolled, []string{"d-pending", "d-ok"}) || r.out.call("r-d-ok") == nil || r.out.call("r-d-other") != nil {
		t.Fatalf("rolled back %v", rolled)
	}
	if st := tb.d.staked["@ben"]; len(st) != 1 || st[0].id != "d-staked" || len(tb.d.staked) != 1 {
		t.Fatalf("the stakes in play: %v", tb.d.staked)
	}
	// The round void gives ben's stake back as the rollback of its debit.
	void := sabot.Appending(&sabot.LogRecord{TableID: 3, Kind: sabot.LogVoid, RoundNo: 2})
	if _, err := tb.d.Money(ctx, void, []sabot.Posting{{AccountID: 50, Amount: -400}, {AccountID: 108, Amount: 400}}); err != nil {
		t.Fatal(err)
	}
	if len(void.Calls) != 1 || void.Calls[0].ID != "r-d-staked" || void.Calls[0].Kind != KindVoid || !void.Calls[0].RoundClosed {
		t.Fatalf("the void's calls: %+v", void.Calls)
	}
	// Nothing to do without a wallet.
	if err := New(Config{}).Debits(tb).Recover(ctx); err != nil {
		t.Fatal(err)
	}
}
