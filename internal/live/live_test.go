package live

import (
	"context"
	"errors"
	"strings"
	"testing"

	"sabot"
	"sabot/card"
	"sabot/engine"
	"sabot/internal/tablelog"
	"sabot/internal/wire"
	"sabot/money"
	"sabot/rules"
	"sabot/shoe"
	"sabot/table"
)

// fakeTable is a live.Table over a real table dealt from a physical shoe,
// which keeps what a command did to the actor: its records, events, undos.
type fakeTable struct {
	t       *table.Table
	options map[string]string
	dealt   bool
	seq     int64
	pending Pending
	players map[string]int64

	records   []Record
	events    []wire.Event
	undone    []card.Card
	exposed   bool
	house     []engine.Action
	proceeded int
	rebuilt   int
	fail      error // the next Append's error
}

func (f *fakeTable) Table() *table.Table              { return f.t }
func (f *fakeTable) ID() int64                        { return 7 }
func (f *fakeTable) Options() map[string]string       { return f.options }
func (f *fakeTable) Dealt() bool                      { return f.dealt }
func (f *fakeTable) Seq() int64                       { return f.seq }
func (f *fakeTable) Pending() *Pending                { return &f.pending }
func (f *fakeTable) Player(name string) (int64, bool) { id, ok := f.players[name]; return id, ok }
func (f *fakeTable) Rebuild(context.Context)          { f.rebuilt++ }
func (f *fakeTable) Publish(e wire.Event)             { f.events = append(f.events, e) }
func (f *fakeTable) PublishRound(string)              {}
func (f *fakeTable) Proceed(context.Context)          { f.proceeded++ }
func (f *fakeTable) Deal(context.Context) (int64, error) {
	return 0, errors.New("not dealt here")
}
func (f *fakeTable) Sit(context.Context, *sabot.User, int) (int64, error) {
	return 0, errors.New("not seated here")
}

func (f *fakeTable) Append(_ context.Context, r Record) (int64, error) {
	if err := f.fail; err != nil {
		f.fail = nil
		return 0, err
	}
	f.seq++
	f.records = append(f.records, r)
	return f.seq, nil
}

func (f *fakeTable) Undone(_ string, back card.Card, expose bool) {
	f.undone = append(f.undone, back)
	f.exposed = f.exposed || expose
}

func (f *fakeTable) House(_ context.Context, act engine.Action) bool {
	f.house = append(f.house, act)
	return f.t.Round().Act(act) == nil
}

func (f *fakeTable) Act(_ context.Context, act engine.Action) (int64, error) {
	f.house = append(f.house, act)
	return f.seq, f.t.Round().Act(act)
}

// dealt is a spain table dealt from a physical shoe, ana on box 1 and ben
// on box 2, the round dealt and its cards read.
func dealt(t *testing.T, cards string) *fakeTable {
	t.Helper()
	tb, err := table.NewPhysical(rules.MustLookup("spain"))
	if err != nil {
		t.Fatal(err)
	}
	tb.Sit("ana", 1)
	tb.Sit("ben", 2)
	tb.Bet("ana", 1, 1000)
	tb.Bet("ben", 2, 1000)
	if _, err := tb.Deal(); err != nil {
		t.Fatal(err)
	}
	f := &fakeTable{t: tb, dealt: true, seq: 10}
	for _, c := range card.MustParseList(cards) {
		if _, err := ReadCard(context.Background(), f, dealer, c); err != nil {
			t.Fatalf("card %v: %v", c, err)
		}
	}
	return f
}

var (
	dealer    = Sender{User: &sabot.User{Name: "dora", Role: sabot.RoleDealer}}
	inspector = Sender{User: &sabot.User{Name: "ivo", Role: sabot.RoleInspector}}
)

func wantCode(t *testing.T, err error, code, text string) {
	t.Helper()
	if sabot.ErrorCode(err) != code || !strings.Contains(sabot.ErrorMessage(err), text) {
		t.Fatalf("got %v, want %s saying %q", err, code, text)
	}
}

// The dealer's own undo takes back a misread that decided nothing; a card
// that decided something (here one that busted a hand) is refused to him
// and changes nothing: it is the inspector's correction (AR-23).
func TestUndoCard_AR23(t *testing.T) {
	ctx := context.Background()
	f := dealt(t, "TS 9H 6D 6C 8S") // ana 16, ben 17 against a 6
	seq, err := UndoCard(ctx, f, dealer)
	if err != nil {
		t.Fatal(err)
	}
	last := f.records[len(f.records)-1]
	if p, ok := last.Payload.(tablelog.Card); last.Kind != sabot.LogCardUndo || !ok || p.Card != card.MustParse("8S") || p.By != "dora" || p.Correction != 0 || seq != f.seq {
		t.Fatalf("the undo's record: %+v (seq %d)", last, seq)
	}
	if len(f.undone) != 1 || f.undone[0] != card.MustParse("8S") || f.exposed {
		t.Fatalf("the table was told of %v (expose %v), want 8S", f.undone, f.exposed)
	}
	if n, ok := f.t.Need(); !ok || n.Box != 2 {
		t.Fatalf("the round asks for %+v, %v: want box 2's card again", n, ok)
	}
	if _, err := ReadCard(ctx, f, dealer, card.MustParse("8S")); err != nil {
		t.Fatal(err)
	}
	if err := f.t.Round().Act(engine.Action{Kind: engine.Hit, Player: "ana", Box: 1, Hand: 1}); err != nil {
		t.Fatal(err)
	}
	if _, err := ReadCard(ctx, f, dealer, card.MustParse("KH")); err != nil { // 26: busted
		t.Fatal(err)
	}
	records, cards := len(f.records), len(f.t.Cards())
	_, err = UndoCard(ctx, f, dealer)
	wantCode(t, err, sabot.ECONFLICT, "it busted box 1 hand 1 (26): taking it back is a correction the inspector approves (correct, case undo) (ES-01)")
	if len(f.records) != records || len(f.t.Cards()) != cards {
		t.Fatal("a refused undo changed the table")
	}

	// The dealer asks for it; the table is shown the correction without
	// the card; he may not approve it himself; the inspector does.
	x, err := Correct(ctx, f, dealer, CorrectRequest{Case: "undo"})
	if err != nil {
		t.Fatal(err)
	}
	if len(f.pending) != 1 || f.pending[0].ID != x || f.pending[0].Card != card.MustParse("KH") || f.pending[0].At != cards {
		t.Fatalf("waiting: %+v", f.pending)
	}
	if e := f.events[len(f.events)-1]; e.Kind != "correction" || e.Correction.Card != 0 || strings.Contains(e.Text, "KH") {
		t.Fatalf("the table was shown the card taken back: %+v %+v", e, e.Correction)
	}
	_, err = (&Live{}).Approve(ctx, f, dealer, x)
	wantCode(t, err, sabot.EFORBIDDEN, "dora asked for correction")
	if _, err := (&Live{}).Approve(ctx, f, inspector, x); err != nil {
		t.Fatal(err)
	}
	undo, approved := f.records[len(f.records)-2], f.records[len(f.records)-1]
	if p, ok := undo.Payload.(tablelog.Card); undo.Kind != sabot.LogCardUndo || undo.Again || !ok || p.Correction != x || p.By != "ivo" {
		t.Fatalf("the inspector's card-undo: %+v", undo)
	}
	if p, ok := approved.Payload.(tablelog.CorrectionApproved); !approved.Again || !ok || p.Correction.By != "ivo" {
		t.Fatalf("the approval: %+v (it is the command's second record)", approved)
	}
	if len(f.pending) != 0 || len(f.t.Cards()) != cards-1 {
		t.Fatalf("after the approval: waiting %v, cards %v", f.pending, f.t.Cards())
	}
	_, err = (&Live{}).Approve(ctx, f, inspector, x)
	wantCode(t, err, sabot.ENOTFOUND, "no correction")
}

// A correction waits for the inspector: refused, it is dropped and the
// table is told; approved, it takes effect (a burn, AR-23 (d)); at most
// MaxPending wait; those not decided lapse with the round, a walk-in's
// buy-in does not.
func TestCorrectionFlow_AR23(t *testing.T) {
	ctx := context.Background()
	f := dealt(t, "TS 9H 6D 6C 8S")
	req, err := ParseCorrect("d", 0, "2C")
	if err != nil {
		t.Fatal(err)
	}
	a, _ := Correct(ctx, f, dealer, req)
	b, _ := Correct(ctx, f, dealer, req)
	if _, err := RefuseCorrection(ctx, f, inspector, a); err != nil {
		t.Fatal(err)
	}
	if e := f.events[len(f.events)-1]; e.Correction.ID != a || e.Correction.Status != "refused" || e.Correction.By != "ivo" {
		t.Fatalf("the refusal as told: %+v", e.Correction)
	}
	proceeded := f.proceeded
	if _, err := (&Live{}).Approve(ctx, f, inspector, b); err != nil {
		t.Fatal(err)
	}
	if len(f.pending) != 0 || f.proceeded != proceeded+1 {
		t.Fatalf("after the burn: waiting %v, proceeded %d", f.pending, f.proceeded-proceeded)
	}
	if p := f.records[len(f.records)-1].Payload.(tablelog.CorrectionApproved); p.Correction.Card != card.MustParse("2C") || !strings.Contains(p.Text, "approved by ivo") {
		t.Fatalf("the pit's record keeps the card burned: %+v", p)
	}

	for range MaxPending {
		if _, err := Correct(ctx, f, dealer, req); err != nil {
			t.Fatal(err)
		}
	}
	_, err = Correct(ctx, f, dealer, req)
	wantCode(t, err, sabot.ECONFLICT, "16 corrections wait for the inspector already")

	f.pending = append(f.pending, wire.CorrectionView{ID: 99, Case: wire.OpBuyIn, Player: "#7-1", Amount: 5000})
	f.pending.Lapse()
	if len(f.pending) != 1 || f.pending[0].ID != 99 {
		t.Fatalf("after the round: %+v, want the buy-in only", f.pending)
	}
}

// Replaying a correction's records rebuilds what waits, and the burns
// approved.
func TestPendingReplay(t *testing.T) {
	f := dealt(t, "TS 9H 6D 6C 8S")
	var p Pending
	x := &wire.CorrectionView{Case: "d", Card: card.MustParse("2C"), Asked: "dora"}
	for _, r := range []struct {
		seq   int64
		event string
		x     *wire.CorrectionView
	}{{1, "correction-asked", x}, {2, "correction-asked", x}, {3, "correction-refused", &wire.CorrectionView{ID: 1}}} {
		if err := p.Replay(f.t, r.seq, r.event, r.x); err != nil {
			t.Fatal(err)
		}
	}
	if len(p) != 1 || p[0].ID != 2 {
		t.Fatalf("waiting: %+v, want correction 2", p)
	}
	y := *x
	y.ID = 2
	if err := p.Replay(f.t, 4, "correction-approved", &y); err != nil || len(p) != 0 {
		t.Fatalf("after the approval: %v, waiting %+v", err, p)
	}
	if v := (Pending{{ID: 5, Card: card.MustParse("AS")}}).View(); v[0].Card != 0 {
		t.Fatal("the view shows a correction's card")
	}
}

// A dealer's request names what AR-23 lets him correct (the console's
// catalogue, by its letters, at every profile); the cases with nothing to
// correct are refused at the table, citing its own rule (ES-01 at this
// spain table).
func TestParseCorrect_AR23_ES01(t *testing.T) {
	_, err := ParseCorrect("z", 1, "")
	wantCode(t, err, sabot.EINVALID, `case "z": give a correction's letter, a to j, or undo`)
	_, err = ParseCorrect("a", 0, "")
	wantCode(t, err, sabot.EINVALID, "case a: give the box")
	_, err = ParseCorrect("d", 0, "ZZ")
	wantCode(t, err, sabot.EINVALID, "give the card burned")
	f := dealt(t, "TS TH 9C 7S 8D")
	records := len(f.records)
	for _, c := range []struct{ kase, text string }{
		{"h", "refused: case h: the console asks for the bank's cards in turn"},
		{"i", "refused: case i: a player's cards put into the discard by mistake give no claim: there is nothing to correct (ES-01)"},
	} {
		req, err := ParseCorrect(c.kase, 1, "")
		if err != nil {
			t.Fatalf("case %s: %v", c.kase, err)
		}
		_, err = Correct(context.Background(), f, dealer, req)
		wantCode(t, err, sabot.EINVALID, c.text)
	}
	if len(f.records) != records || len(f.pending) != 0 {
		t.Fatalf("a refused correction was recorded: %+v", f.records)
	}
}

// A card whose record is not written is taken out again (the table
// rebuilt from its log), and the players are not told of it.
func TestReadCardNotWritten(t *testing.T) {
	f := dealt(t, "TS")
	f.fail = sabot.Errorf(sabot.EINTERNAL, "the store is down")
	if _, err := ReadCard(context.Background(), f, dealer, card.MustParse("9H")); err == nil || f.rebuilt != 1 {
		t.Fatalf("got %v, rebuilt %d times", err, f.rebuilt)
	}
	shuffled, _ := table.New(rules.MustLookup("spain"), shoe.Seed{1})
	_, err := ReadCard(context.Background(), &fakeTable{t: shuffled, dealt: true}, dealer, card.MustParse("9H"))
	wantCode(t, err, sabot.ECONFLICT, "cards are read only at a table opened with shoe=physical")
}

// A table's cash limits: its options, else the server's flags (0: the
// defaults, negative: none).
func TestCashLimits(t *testing.T) {
	tb, _ := table.NewPhysical(rules.MustLookup("spain"))
	for _, c := range []struct {
		options           map[string]string
		flagA, flagF      money.Amount
		approval, ceiling money.Amount
	}{
		{nil, 0, 0, DefaultCashApproval, DefaultFloatLimit},
		{nil, -1, 5000, 0, 5000},
		{map[string]string{"cash_approval": "2000", "float_limit": "30000"}, -1, -1, 2000, 30000},
	} {
		if v := Cash(tb, c.options, c.flagA, c.flagF); v.Approval != c.approval || v.FloatLimit != c.ceiling {
			t.Errorf("options %v, flags %v %v: %+v, want %v %v", c.options, c.flagA, c.flagF, v, c.approval, c.ceiling)
		}
	}
	shuffled, _ := table.New(rules.MustLookup("spain"), shoe.Seed{1})
	if Cash(shuffled, nil, 0, 0) != nil {
		t.Error("a shuffled table shows cash limits")
	}
}

// A walk-in's buy-in or cash-out over the cash_approval is told in the
// significant events by his box, as the dealer's console names him, not
// by his account ("#8-3"); a player by his name.
func TestCashRequestNamesTheWalkInByHisBox(t *testing.T) {
	got := correctionWords(nil, wire.CorrectionView{Case: wire.OpBuyIn, Amount: 400000, Player: "#8-3", Box: 2, Text: "over the table's cash_approval"})
	if want := "buy-in of 4,000.00 for walk-in, box 2: over the table's cash_approval"; got != want {
		t.Errorf("a walk-in's buy-in: %q, want %q", got, want)
	}
	got = correctionWords(nil, wire.CorrectionView{Case: wire.OpCashOut, Amount: 400000, Player: "ana", Box: 1, Text: "x"})
	if want := "cash-out of 4,000.00 for ana at box 1: x"; got != want {
		t.Errorf("a player's cash-out: %q, want %q", got, want)
	}
}
