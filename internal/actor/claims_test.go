package actor

import (
	"context"
	"path/filepath"
	"strconv"
	"testing"
	"time"

	"sabot"
	"sabot/internal/store"
	"sabot/internal/testwait"
	"sabot/internal/wire"
)

// AR-21: "a free box goes to the first player who asks; on a tie, to the
// one seated nearest box 1". Requests for seats that wait together at a
// table are taken together: the earliest wins, and within one tick the one
// already seated nearest box 1.
func TestSimultaneousClaims_AR21(t *testing.T) {
	ctx := context.Background()
	st, err := store.Open(ctx, filepath.Join(t.TempDir(), "sabot.db"))
	if err != nil {
		t.Fatal(err)
	}
	defer st.Close()
	s := &Host{Store: st, Metrics: NewMetrics()}
	cfg := &sabot.Table{Name: "claims", Profile: "argentina"}
	if err := st.CreateTable(ctx, cfg); err != nil {
		t.Fatal(err)
	}
	users := map[string]*sabot.User{}
	for _, name := range []string{"ana", "ben", "cy", "dan"} {
		u := &sabot.User{Name: name, PasswordHash: []byte("x")}
		if err := st.CreateUser(ctx, u); err != nil {
			t.Fatal(err)
		}
		users[name] = u
	}
	a := newActor(s, cfg)
	if err := a.load(ctx); err != nil {
		t.Fatal(err)
	}
	send := func(name string, box int, at time.Time) chan reply {
		c := testCommand(t, wire.OpSit, users[name], name, name+"-"+strconv.Itoa(box), wire.CommandRequest{Box: box})
		c.at, c.reply = at, make(chan reply, 1)
		a.cmds <- c
		return c.reply
	}
	t0 := time.Date(2026, 11, 22, 12, 0, 0, 0, time.UTC)
	// ben sits at box 2 and ana at box 5 first, then four requests wait
	// together: cy (not seated) asks for box 1 first; ana and ben ask for
	// box 1 within the same millisecond, a moment after cy's tick; dan for
	// box 3 earlier than all.
	for _, r := range []chan reply{send("ben", 2, t0), send("ana", 5, t0)} {
		go func() { <-r }()
	}
	stop := runActor(a)
	waitFor := func(f func() bool) { testwait.Until(t, 5*time.Second, "the claims queued", f) }
	view := func() *wire.TableView { return a.do(ctx, &Command{inside: viewTable}).view }
	waitFor(func() bool { return len(view().Seats) == 2 })
	stop()

	// The actor is stopped: queue the claims, then run it again.
	tick := t0.Add(time.Second)
	rAna := send("ana", 1, tick.Add(600*time.Microsecond))
	rCy := send("cy", 1, tick.Add(-time.Millisecond))
	rBen := send("ben", 1, tick.Add(300*time.Microsecond))
	rDan := send("dan", 3, tick.Add(-5*time.Millisecond))
	stop = runActor(a)
	for name, r := range map[string]chan reply{"ana": rAna, "ben": rBen, "cy": rCy, "dan": rDan} {
		rep := <-r
		won := name == "cy" || name == "dan"
		if won != (rep.err == nil) {
			t.Errorf("%s: %v", name, rep.err)
		}
	}
	if h := a.t.Holder(1); h != "cy" {
		t.Fatalf("box 1 went to %q, want cy, who asked a tick before ana and ben", h)
	}

	// A tie: ana (seated at box 5) and ben (seated at box 2) ask for box 4
	// in the same millisecond, ana first: ben, nearest box 1, gets it.
	stop()
	tick = tick.Add(time.Second)
	rAna = send("ana", 4, tick.Add(100*time.Microsecond))
	rBen = send("ben", 4, tick.Add(900*time.Microsecond))
	stop = runActor(a)
	defer stop()
	if rep := <-rAna; rep.err == nil {
		t.Error("ana got box 4 on a tie with ben, seated nearer box 1")
	}
	if rep := <-rBen; rep.err != nil {
		t.Errorf("ben: %v", rep.err)
	}
	if h := a.t.Holder(4); h != "ben" {
		t.Fatalf("box 4 went to %q on a tie, want ben (box 2, nearer box 1 than ana's box 5)", h)
	}
}

// runActor runs a table's loop until the returned stop is called.
func runActor(a *Table) (stop func()) {
	ctx, cancel := context.WithCancel(context.Background())
	a.done = make(chan struct{})
	go a.run(ctx)
	return func() { cancel(); <-a.done }
}
