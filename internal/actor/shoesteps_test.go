package actor

import (
	"context"
	"encoding/json"
	"fmt"
	"path/filepath"
	"slices"
	"strconv"
	"testing"
	"time"

	"sabot"
	"sabot/internal/recall"
	"sabot/internal/seal"
	"sabot/internal/store/sqlite"
	"sabot/internal/tablelog"
	"sabot/internal/wire"
	"sabot/table"
)

// try runs a command through the actor and returns its error.
func (p *playedTable) try(tb testing.TB, u *sabot.User, op string, body wire.CommandRequest) error {
	tb.Helper()
	cmdNo++
	return p.a.handle(context.Background(), testCommand(tb, op, u, u.Name, fmt.Sprint(cmdNo), body)).err
}

// stepRecords are the table's shoe-step records of shoe no.
func (p *playedTable) stepRecords(tb testing.TB, no int) []tablelog.ShoeStep {
	tb.Helper()
	recs, err := p.st.Find(context.Background(), sabot.LogQuery{Kinds: []string{sabot.LogShoeStep}, TableID: p.a.cfg.ID, Shoe: int64(no)})
	if err != nil {
		tb.Fatal(err)
	}
	var out []tablelog.ShoeStep
	for _, r := range recs {
		var s tablelog.ShoeStep
		if err := json.Unmarshal(r.Payload, &s); err != nil {
			tb.Fatal(err)
		}
		out = append(out, s)
	}
	return out
}

func wantCode(tb testing.TB, err error, code string) {
	tb.Helper()
	if sabot.ErrorCode(err) != code {
		tb.Fatalf("got %v (%s), want %s", err, sabot.ErrorCode(err), code)
	}
}

// AR-07, EG-02 (000 item 5; 003 §10): at an RNG table a new shoe waits for
// the inspector's authorisation, then for the cut of the player chosen
// (the holder of the lowest seated box); his cut is the one applied to
// the committed order, recorded, and replayed after a restart.
func TestPlayerCut_AR07_TableWaitsForInspectorAndPlayer(t *testing.T) {
	ctx := context.Background()
	p := newPlayedTable(t, "spain", nil, -1)
	ana, ben := p.player(t, "ana"), p.player(t, "ben")
	insp := &sabot.User{ID: 998, Name: "ines", Role: sabot.RoleInspector}
	p.do(t, ana, wire.OpSit, wire.CommandRequest{Box: 1})
	p.do(t, ben, wire.OpSit, wire.CommandRequest{Box: 2})
	p.do(t, stepsPit, wire.OpNewShoe, wire.CommandRequest{})
	if p.a.t.Awaiting() != table.StepAuthorise {
		t.Fatalf("the new shoe awaits %q", p.a.t.Awaiting())
	}
	no := p.a.t.ShoeNo()
	p.do(t, ana, wire.OpBet, wire.CommandRequest{Box: 1, Stake: 100})
	p.do(t, ben, wire.OpBet, wire.CommandRequest{Box: 2, Stake: 100})
	p.a.expire(ctx) // the betting window closes: no deal without the steps
	if p.a.dealt {
		t.Fatal("dealt before the inspector authorised the shuffle")
	}
	if w := p.a.view().Waiting; w == nil || w.Reason != "shoe_authorise" {
		t.Fatalf("the view's waiting: %+v", w)
	}
	wantCode(t, p.try(t, ana, wire.OpCutShoe, wire.CommandRequest{Value: 100}), sabot.ECONFLICT)
	wantCode(t, tableCommandNamed(wire.OpAuthoriseShuffle).Allows(ana, nil), sabot.EFORBIDDEN)
	wantCode(t, tableCommandNamed(wire.OpCutShoe).Allows(&sabot.User{Name: "dan", Role: sabot.RoleDealer}, nil), sabot.EFORBIDDEN)
	if err := tableCommandNamed(wire.OpCutShoe).Allows(ana, nil); err != nil {
		t.Fatal(err)
	}
	p.do(t, insp, wire.OpAuthoriseShuffle, wire.CommandRequest{})
	if v := p.a.view().Shoe; v.Await != "cut" || v.Cutter != "ana" || v.AuthorisedBy != "ines" {
		t.Fatalf("the view's shoe: %+v", v)
	}
	wantCode(t, p.try(t, ben, wire.OpCutShoe, wire.CommandRequest{Value: 100}), sabot.EFORBIDDEN) // not the chosen player
	wantCode(t, p.try(t, insp, wire.OpCutShoe, wire.CommandRequest{Value: 100}), sabot.ECONFLICT) // a player is seated
	wantCode(t, p.try(t, ana, wire.OpCutShoe, wire.CommandRequest{Value: 312}), sabot.ECONFLICT)  // outside the shoe
	// A restart while the shoe waits for the cut still waits, on the same order.
	order := seal.ShoeOrderUncut(p.a.p, p.a.shoes[no].seed)
	p.rebuildWith(t)
	if p.a.t.Awaiting() != table.StepCut || !slices.Equal(p.a.t.Shoe().Composition(), order) {
		t.Fatalf("after a restart the shoe awaits %q", p.a.t.Awaiting())
	}
	if p.a.dealt {
		t.Fatal("dealt after the restart without the cut")
	}
	p.do(t, ana, wire.OpCutShoe, wire.CommandRequest{Value: 100})
	if !p.a.dealt {
		t.Fatal("not dealt once the shoe is cut and every box is bet on")
	}
	want := append(slices.Clone(order[100:]), order[:100]...)
	if got := p.a.t.Round().Record().Cards[0]; got != want[5] { // EG-03: 5 burned after the cut
		t.Fatalf("first card %v, want %v", got, want[5])
	}
	steps := p.stepRecords(t, no)
	if len(steps) != 2 || steps[0] != (tablelog.ShoeStep{Shoe: no, Step: "authorise", By: "ines", Role: "inspector"}) ||
		steps[1] != (tablelog.ShoeStep{Shoe: no, Step: "cut", By: "ana", Role: "player", At: 100}) {
		t.Fatalf("step records %+v", steps)
	}
	for p.a.dealt {
		p.a.expire(ctx)
	}
	before := p.a.stateJSON(t)
	p.rebuildWith(t)
	if got := p.a.stateJSON(t); got != before {
		t.Fatalf("the replay rebuilds\n%s\nnot\n%s", got, before)
	}
}

// AR-07: nobody cuts within the betting window: the inspector's cut, at a
// position the server draws within min_cut, and the record says so.
func TestPlayerCut_AR07_InspectorCutsOnTimeout(t *testing.T) {
	ctx := context.Background()
	p := newPlayedTable(t, "spain", nil, -1)
	ana := p.player(t, "ana")
	p.do(t, ana, wire.OpSit, wire.CommandRequest{Box: 1})
	p.do(t, stepsPit, wire.OpNewShoe, wire.CommandRequest{})
	p.do(t, stepsPit, wire.OpAuthoriseShuffle, wire.CommandRequest{})
	p.do(t, ana, wire.OpBet, wire.CommandRequest{Box: 1, Stake: 100})
	if p.a.dealt {
		t.Fatal("dealt before the cut")
	}
	p.a.expire(ctx)
	if !p.a.dealt {
		t.Fatal("the window ran out and no round was dealt")
	}
	steps := p.stepRecords(t, p.a.t.ShoeNo())
	if len(steps) != 2 || !steps[1].Timeout || steps[1].Role != "inspector" || steps[1].At < 1 || steps[1].At > 311 {
		t.Fatalf("step records %+v", steps)
	}
	if w := sabot.Sentence(recall.ShoeStepWords(steps[1])); w != "shoe 2: nobody cut within the table's window; the inspector's cut at "+strconv.Itoa(steps[1].At)+" cards" {
		t.Errorf("said %q", w)
	}
}

// AR-07, EG-02: with nobody seated, the inspector cuts; the shoe's
// commitment covers the order before the cut, and the revealed shoe
// verifies with the recorded cut (`sabot verify`).
func TestPlayerCut_EG02_CommitmentBeforeTheCutVerifies(t *testing.T) {
	ctx := context.Background()
	p := newPlayedTable(t, "argentina", nil, -1) // the pit cut the first shoe (steps)
	if got := p.stepRecords(t, 1); len(got) != 2 || got[1].Role != "pit" || got[1].At != 51 {
		t.Fatalf("first shoe's steps %+v", got)
	}
	for _, n := range []string{"ana", "ben", "cy"} {
		p.player(t, n)
	}
	p.rounds(t, 3)
	p.do(t, stepsPit, wire.OpNewShoe, wire.CommandRequest{}) // shoe 1 is over: revealed
	rep, err := recall.VerifyShoe(ctx, p.st, recall.ShoeID(p.a.cfg.ID, 1))
	if err != nil || !rep.OK() || rep.Cards == 0 {
		t.Fatalf("the shoe cut by the pit does not verify: %+v %v", rep, err)
	}
	info, err := recall.ShoeInfo(ctx, p.st, recall.ShoeID(p.a.cfg.ID, 1), 0, 10)
	if err != nil || !info.Steps || info.CutAt != 51 || info.CutBy != "pit" || info.AuthorisedBy != "pit" {
		t.Fatalf("the shoe's report: %+v %v", info, err)
	}
	// A wrong recorded cut is found.
	info.CutAt = 52
	if rep, err := recall.CheckShoe(info); err != nil || rep.OK() {
		t.Fatalf("a shoe checked with another cut verifies: %+v %v", rep, err)
	}
}

// AR-07, EG-02: a table whose log predates the steps (its opened record
// says nothing of them) deals as before and never waits, though its
// profile asks them; its shoes verify as before.
func TestPlayerCut_AR07_OldLogDoesNotWait(t *testing.T) {
	ctx := context.Background()
	dir := t.TempDir()
	st := sqlite.NewDB(filepath.Join(dir, "sabot.db") + "?_pragma=synchronous(OFF)")
	if err := st.Open(ctx); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { st.Close() })
	cfg := &sabot.Table{Name: "old", Profile: "spain"}
	if err := st.CreateTable(ctx, cfg); err != nil {
		t.Fatal(err)
	}
	old := &sabot.LogRecord{TableID: cfg.ID, Kind: sabot.LogTableOpened, Payload: []byte(`{"name":"old","profile":"spain"}`)}
	if _, err := st.Append(ctx, sabot.Appending(old), nil); err != nil {
		t.Fatal(err)
	}
	p := &playedTable{st: st, s: &Host{Store: st, SnapshotEvery: -1, Metrics: NewMetrics(), SeedKey: testSeedKey,
		Timing: Timing{BetWindow: time.Hour, Decision: time.Hour, Window: time.Hour}}}
	p.a = newActor(p.s, cfg)
	if err := p.a.load(ctx); err != nil {
		t.Fatal(err)
	}
	if p.a.t.Awaiting() != table.StepNone {
		t.Fatalf("an old table's shoe awaits %q", p.a.t.Awaiting())
	}
	p.player(t, "ana")
	p.rounds(t, 2)
	p.do(t, stepsPit, wire.OpNewShoe, wire.CommandRequest{})
	if p.a.t.Awaiting() != table.StepNone {
		t.Fatalf("an old table's new shoe awaits %q", p.a.t.Awaiting())
	}
	if rep, err := recall.VerifyShoe(ctx, p.st, recall.ShoeID(cfg.ID, 1)); err != nil || !rep.OK() {
		t.Fatalf("the old table's shoe: %+v %v", rep, err)
	}
	var sp tablelog.ShoeStart
	recs, _ := st.Find(ctx, sabot.LogQuery{Kinds: []string{sabot.LogShoe}, TableID: cfg.ID, Shoe: 1})
	json.Unmarshal(recs[0].Payload, &sp)
	if sp.Steps {
		t.Fatal("the old table's shoe record says steps")
	}
}
