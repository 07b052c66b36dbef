package actor

import (
	"context"
	"encoding/json"
	"fmt"
	"sabot/internal/wire"
	"strings"
	"testing"
	"time"

	"sabot"
	"sabot/internal/tablelog"
)

// A command ID repeated after the table has dropped it
// from its memory (sits and leaves pushed it out) is answered from the
// store — the first record's seq — and changes nothing: the player deciding
// keeps his timer, nobody gets a message, the log gets no record.
func TestHostileDuplicateIDDoesNotMoveTimer(t *testing.T) {
	ctx := context.Background()
	p := newPlayedTable(t, "vegas-s17", nil, -1)
	p.a.seenMax = 16
	p.s.SitsPerMinute = -1 // eve's sits push her first command out of memory, not the sit rate's test
	ana, ben := p.player(t, "ana"), p.player(t, "ben")
	eve := &sabot.User{Name: "eve", PasswordHash: []byte("x")}
	if err := p.st.CreateUser(ctx, eve); err != nil {
		t.Fatal(err)
	}
	first := p.a.handle(ctx, testCommand(t, wire.OpSit, eve, "eve", "first", wire.CommandRequest{Box: 5}))
	if first.err != nil || first.seq == 0 {
		t.Fatalf("eve's first sit: %+v", first)
	}
	p.do(t, eve, wire.OpLeave, wire.CommandRequest{})
	for range 3 * p.a.seenMax {
		p.do(t, eve, wire.OpSit, wire.CommandRequest{Box: 5})
		p.do(t, eve, wire.OpLeave, wire.CommandRequest{})
	}
	if _, ok := p.a.seen["eve\x00first"]; ok || !p.a.forgot {
		t.Fatal("the table still remembers eve's first command: the test proves nothing")
	}

	// A round in which ana decides.
	p.do(t, ana, wire.OpSit, wire.CommandRequest{Box: 1})
	p.do(t, ben, wire.OpSit, wire.CommandRequest{Box: 2})
	for tries := 0; p.a.timer.kind != decisionTimer; tries++ {
		if tries == 50 {
			t.Fatal("no round with a decision to wait for in 50 deals")
		}
		p.do(t, ana, wire.OpBet, wire.CommandRequest{Box: 1, Stake: 100})
		p.do(t, ben, wire.OpBet, wire.CommandRequest{Box: 2, Stake: 100})
		for p.a.dealt && p.a.timer.kind != decisionTimer {
			p.a.expire(ctx)
		}
	}
	sub := NewSubscriber(64)
	p.a.handle(ctx, &Command{inside: subscribing(sub, 0, "")})
	sub.drain() // its snapshot
	timer, due, last := p.a.timer, p.a.timer.due, p.a.lastSeq

	for range 3 {
		again := p.a.handle(ctx, testCommand(t, wire.OpSit, eve, "eve", "first", wire.CommandRequest{Box: 5}))
		if again.err != nil || !again.dup || again.seq != first.seq {
			t.Fatalf("the repeated sit: %+v; want a duplicate of seq %d", again, first.seq)
		}
	}
	if p.a.timer != timer || !p.a.timer.due.Equal(due) || p.a.timer.kind != decisionTimer {
		t.Fatalf("the repeat moved the decision timer: due %v, was %v", p.a.timer.due, due)
	}
	if got := sub.drain(); len(got) != 0 {
		t.Fatalf("the repeat sent %d messages to the table's players: %s", len(got), got[0])
	}
	recs, err := p.st.Log(ctx, p.a.cfg.ID, last+1)
	if err != nil || len(recs) != 0 || p.a.t.Holder(5) != "" {
		t.Fatalf("the repeat wrote %d records (%v), box 5 held by %q", len(recs), err, p.a.t.Holder(5))
	}
	// A new command of eve's is still run.
	if r := p.a.handle(ctx, testCommand(t, wire.OpSit, eve, "eve", fmt.Sprint("new-", cmdNo), wire.CommandRequest{Box: 5})); r.err != nil || r.dup {
		t.Fatalf("a new sit after the repeats: %+v", r)
	}
}

// leaves returns the leave records of a table's log.
func (p *playedTable) leaves(tb testing.TB) []tablelog.Seat {
	tb.Helper()
	recs, err := p.st.Log(context.Background(), p.a.cfg.ID, 1)
	if err != nil {
		tb.Fatal(err)
	}
	var out []tablelog.Seat
	for _, r := range recs {
		if r.Kind == sabot.LogLeave {
			out = append(out, payloadOf[tablelog.Seat](r, nil))
		}
	}
	return out
}

// AR-21: a box its holder has not bet on when the
// betting window closes is given up — a box, not the player: eve keeps the
// box she bet on — with a leave record that a start replays, and an event.
func TestSeatNotBetGivenUpAtWindowClose_AR21(t *testing.T) {
	ctx := context.Background()
	p := newPlayedTable(t, "vegas-s17", nil, -1)
	ana, eve := p.player(t, "ana"), p.player(t, "eve")
	p.do(t, ana, wire.OpSit, wire.CommandRequest{Box: 1})
	p.do(t, eve, wire.OpSit, wire.CommandRequest{Box: 2})
	p.do(t, eve, wire.OpSit, wire.CommandRequest{Box: 3})
	p.do(t, eve, wire.OpBet, wire.CommandRequest{Box: 2, Stake: 100})
	p.do(t, ana, wire.OpBet, wire.CommandRequest{Box: 1, Stake: 100})
	if p.a.dealt || p.a.timer.kind != betTimer {
		t.Fatal("dealt before the window closed, with box 3 held and not bet on")
	}
	sub := NewSubscriber(256)
	p.a.handle(ctx, &Command{inside: subscribing(sub, 0, "")})
	p.a.expire(ctx) // the betting window closes
	if h := p.a.t.Holder(3); h != "" {
		t.Fatalf("box 3, not bet on when the window closed, is still held by %s", h)
	}
	if p.a.t.Holder(2) != "eve" || p.a.t.Holder(1) != "ana" {
		t.Fatalf("boxes bet on: holders %q %q", p.a.t.Holder(1), p.a.t.Holder(2))
	}
	if l := p.leaves(t); len(l) != 1 || l[0].Player != "eve" || l[0].Box != 3 || l[0].Reason == "" {
		t.Fatalf("leave records %+v, want eve's box 3 with its reason", l)
	}
	// The round is dealt to the boxes bet on (it may be over already: a
	// dealer's blackjack ends it at the deal).
	released, dealt := false, false
	for _, data := range sub.drain() {
		var m wire.Message
		json.Unmarshal(data, &m)
		released = released || m.Event != nil && m.Event.Kind == "release" && m.Event.Box == 3 && strings.Contains(m.Event.Text, "given up") && !strings.Contains(m.Event.Text, "AR-21") && // a reference table cites no regulation

			m.Event.Reason == "box_given_up_no_bet" && m.Event.Params["box"] == float64(3)
		dealt = dealt || m.Event != nil && m.Event.Kind == "deal"
	}
	if !released || !dealt {
		t.Fatalf("release event for box 3: %v; deal event: %v", released, dealt)
	}
	for p.a.dealt {
		p.a.expire(ctx)
	}
	want := p.a.stateJSON(t)
	for _, every := range []int{-1} {
		if got := p.startFrom(t, every).stateJSON(t); got != want {
			t.Fatalf("rebuilt from the log:\n%s\nwant\n%s", got, want)
		}
	}
}

// AR-21: a player holds at most MaxBoxesWithoutBet
// boxes he has not bet on (3 by default); once he bets on them he may take
// more: several boxes, each bet on, are a player's right (AR-04, VE-17).
func TestBoxesWithoutBetCapped_AR21(t *testing.T) {
	ctx := context.Background()
	p := newPlayedTable(t, "vegas-s17", nil, -1)
	ana, eve := p.player(t, "ana"), p.player(t, "eve")
	p.do(t, ana, wire.OpSit, wire.CommandRequest{Box: 7}) // not bet on: no deal yet
	for box := 1; box <= DefaultMaxBoxesWithoutBet; box++ {
		p.do(t, eve, wire.OpSit, wire.CommandRequest{Box: box})
	}
	r := p.a.handle(ctx, testCommand(t, wire.OpSit, eve, "eve", "one-more", wire.CommandRequest{Box: 4}))
	if sabot.ErrorCode(r.err) != sabot.ECONFLICT || !strings.Contains(r.err.Error(), "at most 3 here") || strings.Contains(r.err.Error(), "AR-21") || p.a.t.Holder(4) != "" { // vegas-s17: no regulation's AR-21
		t.Fatalf("eve's box %d without a bet: %v", DefaultMaxBoxesWithoutBet+1, r.err)
	}
	for box := 1; box <= DefaultMaxBoxesWithoutBet; box++ {
		p.do(t, eve, wire.OpBet, wire.CommandRequest{Box: box, Stake: 100})
	}
	for box := 4; box <= 6; box++ {
		p.do(t, eve, wire.OpSit, wire.CommandRequest{Box: box})
	}
	if n := p.a.unbetBoxes("eve"); n != 3 {
		t.Fatalf("eve holds %d boxes without a bet, want 3", n)
	}
}

// AR-21: bets that do not allow a round (AR-03: a
// shoe starts with three seated players betting) hold their boxes no
// longer than SeatIdle: the boxes are given up and the bets returned, in
// the ledger and in a log that replays.
func TestSeatIdleWithBetsGivenUp_AR21(t *testing.T) {
	ctx := context.Background()
	p := newPlayedTable(t, "argentina", nil, -1)
	now := time.Now()
	p.s.Now = func() time.Time { return now }
	ana, ben := p.player(t, "ana"), p.player(t, "ben")
	p.do(t, ana, wire.OpSit, wire.CommandRequest{Box: 1})
	p.do(t, ben, wire.OpSit, wire.CommandRequest{Box: 2})
	p.do(t, ana, wire.OpBet, wire.CommandRequest{Box: 1, Stake: 1000})
	p.do(t, ben, wire.OpBet, wire.CommandRequest{Box: 2, Stake: 1000})
	p.a.expire(ctx) // the window closes; AR-03 refuses the round
	if p.a.dealt || p.a.t.Holder(1) != "ana" || p.a.t.Holder(2) != "ben" {
		t.Fatalf("after the window: dealt %v, holders %q %q", p.a.dealt, p.a.t.Holder(1), p.a.t.Holder(2))
	}
	// The table says what it waits for, in words and
	// by its reason, and when the bets come back.
	if w := p.a.view().Waiting; w == nil || w.Reason != "table_minimum_bets" || w.Params["need"] != 3 || w.Params["n"] != 2 || w.Text != "a shoe starts with 3 bets; 2 placed (AR-03)" {
		t.Fatalf("the view's waiting: %+v", w)
	}
	if ms := p.a.view().Rules.SeatIdleMS; ms != p.s.timing().SeatIdle.Milliseconds() {
		t.Fatalf("the view's seat_idle_ms %d", ms)
	}
	now = now.Add(p.s.timing().SeatIdle - time.Second)
	p.a.expireSeats(ctx)
	if p.a.t.Holder(1) != "ana" {
		t.Fatal("a box given up before its time")
	}
	now = now.Add(2 * time.Second)
	p.a.expireSeats(ctx)
	if p.a.t.Holder(1) != "" || p.a.t.Holder(2) != "" || len(p.a.t.Bets()) != 0 {
		t.Fatalf("boxes held %q %q, bets %+v, %v after the seat time", p.a.t.Holder(1), p.a.t.Holder(2), p.a.t.Bets(), p.s.timing().SeatIdle)
	}
	if b := p.tableAccount(); b != 0 {
		t.Fatalf("the table account holds %d: the bets were not returned", b)
	}
	if l := p.leaves(t); len(l) != 2 || l[0].Returned != 1000 || l[1].Returned != 1000 {
		t.Fatalf("leave records %+v", l)
	}
	if rep, err := p.st.CheckLedger(ctx); err != nil || !rep.OK() {
		t.Fatalf("ledger: %+v %v", rep, err)
	}
	want := p.a.stateJSON(t)
	if got := p.startFrom(t, -1).stateJSON(t); got != want {
		t.Fatalf("rebuilt from the log:\n%s\nwant\n%s", got, want)
	}
}

// A lone player's three bets at Buenos Aires are three
// bets of one player: the table waits for two more players (AR-03), and
// says so with the right counts.
func TestLonePlayerWaits_AR03(t *testing.T) {
	p := newPlayedTable(t, "argentina", nil, -1)
	ana := p.player(t, "ana")
	p.do(t, ana, wire.OpSit, wire.CommandRequest{Box: 1})
	for box := 1; box <= 3; box++ {
		p.do(t, ana, wire.OpBet, wire.CommandRequest{Box: box, Stake: 1000})
	}
	p.a.expire(context.Background())
	w := p.a.view().Waiting
	if p.a.dealt || w == nil || w.Reason != "table_minimum_players" || w.Params["need"] != 3 || w.Params["n"] != 1 || w.Params["bets"] != 3 || w.Params["rule"] != "AR-03" {
		t.Fatalf("dealt %v, waiting %+v", p.a.dealt, w)
	}
	if want := "a shoe starts with 3 seated players betting; 3 bets placed by 1 player (AR-03)"; w.Text != want {
		t.Fatalf("the table says %q, want %q", w.Text, want)
	}
}

// ES-03, VE-03 meet AR-21: a standing player's bet behind a box whose
// holder places none when the betting window closes is returned before
// the deal (a withdraw record and event that say why, the stake back in
// his wallet), not dealt as the box's first bet — which would make him
// the box's holder, a standing player playing a box. The holder gives up
// the seat (AR-21); a start replays it all.
func TestBackBetWithoutHolderReturned_ES03(t *testing.T) {
	ctx := context.Background()
	p := newPlayedTable(t, "spain", nil, -1)
	ana, cy, zoe := p.player(t, "ana"), p.player(t, "cy"), p.player(t, "zoe")
	p.do(t, ana, wire.OpSit, wire.CommandRequest{Box: 1})
	p.do(t, cy, wire.OpSit, wire.CommandRequest{Box: 2})
	p.do(t, zoe, wire.OpBet, wire.CommandRequest{Box: 1, Stake: 300}) // behind ana
	p.do(t, cy, wire.OpBet, wire.CommandRequest{Box: 2, Stake: 100})
	wallet := p.s.balance(ctx, sabot.AccountWallet, zoe.ID)
	sub := NewSubscriber(256)
	p.a.handle(ctx, &Command{inside: subscribing(sub, 0, "")})
	p.a.expire(ctx) // the betting window closes; ana has not bet
	if !p.a.dealt && p.a.t.RoundNo() == 0 {
		t.Fatal("no round dealt")
	}
	for _, b := range p.a.t.Round().Bets() {
		if b.Player == "zoe" {
			t.Fatalf("zoe's back bet dealt on a box nobody played: %+v", b)
		}
	}
	if got := p.s.balance(ctx, sabot.AccountWallet, zoe.ID); got != wallet+300 {
		t.Fatalf("zoe's wallet %d after the deal, want %d (her stake back)", got, wallet+300)
	}
	if p.a.t.Holder(1) != "" {
		t.Errorf("ana kept box 1 without a bet (AR-21)")
	}
	returned := false
	for _, data := range sub.drain() {
		var m wire.Message
		json.Unmarshal(data, &m)
		returned = returned || m.Event != nil && m.Event.Kind == "withdraw" && m.Event.Player == "zoe" && m.Event.Box == 1 &&
			m.Event.Amount == 300 && m.Event.Reason == "back_bet_unplayed" && m.Event.Params["rule"] == "ES-03" && strings.Contains(m.Event.Text, "(ES-03)")
	}
	if !returned {
		t.Fatal("no withdraw event for zoe's back bet, with its reason")
	}
	recs, err := p.st.Log(ctx, p.a.cfg.ID, 1)
	if err != nil {
		t.Fatal(err)
	}
	withdrawn := 0
	for _, r := range recs {
		if r.Kind == sabot.LogBetWithdraw {
			if b := payloadOf[tablelog.Bet](r, nil); b.Player == "zoe" && b.Stake == 300 && strings.Contains(b.Reason, "ES-03") {
				withdrawn++
			}
		}
	}
	if withdrawn != 1 {
		t.Fatalf("%d withdraw records of zoe's back bet, want 1", withdrawn)
	}
	for p.a.dealt {
		p.a.expire(ctx)
	}
	want := p.a.stateJSON(t)
	if got := p.startFrom(t, -1).stateJSON(t); got != want {
		t.Fatalf("rebuilt from the log:\n%s\nwant\n%s", got, want)
	}
}

// AR-21: three accounts whose script takes back every box
// the moment it is given up held a table for ever; a fourth player asked
// again and again and never sat. A box given up for no bet is not its
// holder's again for a while, the boxes given up count against the cap
// over a window, and sits are bounded a minute: the fourth player sits,
// and every box the holders keep is one they took within the rules.
func TestBoxesNotHeldForEverByResitting_AR21(t *testing.T) {
	ctx := context.Background()
	p := newPlayedTable(t, "vegas-s17", nil, -1)
	now := time.Now()
	p.s.Now = func() time.Time { return now }
	holders := []*sabot.User{p.player(t, "h1"), p.player(t, "h2"), p.player(t, "h3")}
	ana := p.player(t, "ana")
	try := func(u *sabot.User, box int) bool {
		cmdNo++
		r := p.a.handle(ctx, testCommand(t, wire.OpSit, u, u.Name, fmt.Sprint(cmdNo), wire.CommandRequest{Box: box}))
		return r.err == nil
	}
	grab := func() { // the holders' script: every free box, at once
		for _, u := range holders {
			for box := 1; box <= p.a.p.Boxes; box++ {
				if p.a.t.Holder(box) == "" {
					try(u, box)
				}
			}
		}
	}
	grab()
	for box := 1; box <= p.a.p.Boxes; box++ {
		if p.a.t.Holder(box) == "" {
			t.Fatalf("box %d free: the holders did not take the table", box)
		}
	}
	asked, sat := 0, 0
	for step := time.Duration(0); step < 100*time.Second && sat == 0; step += time.Second {
		now = now.Add(time.Second)
		p.a.expireSeats(ctx) // boxes held SeatIdle with no round are given up
		grab()               // the script asks first
		for box := 1; box <= p.a.p.Boxes && sat == 0; box++ {
			if p.a.t.Holder(box) == "" {
				asked++
				if try(ana, box) {
					sat++
				}
			}
		}
		if sat == 0 {
			asked++
			try(ana, 1) // she asks every second whatever she sees
		}
	}
	if sat == 0 {
		t.Fatalf("over 100 s ana asked %d times and sat 0 times: three re-sitting accounts hold the table", asked)
	}
}

// A box given up for no bet is not its holder's again for ReseatAfter
// (another box is); sits are bounded a minute (429 with its wait); the
// boxes given up count against MaxBoxesWithoutBet for UnbetWindow, and a
// round played with a bet clears them.
func TestReseatBounded_AR21(t *testing.T) {
	ctx := context.Background()
	p := newPlayedTable(t, "vegas-s17", nil, -1)
	now := time.Now()
	p.s.Now = func() time.Time { return now }
	eve, wu := p.player(t, "eve"), p.player(t, "wu")
	sit := func(box int) error {
		cmdNo++
		return p.a.handle(ctx, testCommand(t, wire.OpSit, eve, "eve", fmt.Sprint(cmdNo), wire.CommandRequest{Box: box})).err
	}
	if err := sit(1); err != nil {
		t.Fatal(err)
	}
	now = now.Add(p.s.timing().SeatIdle)
	p.a.expireSeats(ctx)
	if p.a.t.Holder(1) != "" {
		t.Fatal("box 1 not given up")
	}
	if err := sit(1); err != nil {
		t.Fatalf("box 1 again, nobody waiting for a box: %v", err)
	}
	cmdNo++
	if r := p.a.handle(ctx, testCommand(t, wire.OpSit, wu, "wu", fmt.Sprint(cmdNo), wire.CommandRequest{Box: 1})); r.err == nil {
		t.Fatal("box 1 is eve's")
	} // wu waits for a box
	now = now.Add(p.s.timing().SeatIdle)
	p.a.expireSeats(ctx)
	err := sit(1)
	if sabot.ErrorCode(err) != sabot.ECONFLICT || !strings.Contains(fmt.Sprint(err), "box 1 was given up by eve for no bet") {
		t.Fatalf("box 1 again at once, a player waiting: %v", err)
	}
	if err := sit(2); err != nil {
		t.Fatalf("another box: %v", err)
	}
	// Two given up for no bet within the window and one held: the cap of 3.
	now = now.Add(p.s.reseatAfter())
	if err := sit(1); sabot.ErrorCode(err) != sabot.ECONFLICT || !strings.Contains(fmt.Sprint(err), "given up 2 for no bet") {
		t.Fatalf("past the cap with boxes given up: %v", err)
	}
	now = now.Add(p.s.unbetWindow())
	if err := sit(1); err != nil {
		t.Fatalf("after the window: %v", err)
	}
	// A round played with a bet clears the boxes given up.
	now = now.Add(p.s.timing().SeatIdle)
	p.a.expireSeats(ctx) // boxes 1, 2, 3 given up
	if err := sit(4); err != nil {
		t.Fatal(err)
	}
	ann, bo := p.player(t, "ann"), p.player(t, "bo")
	p.do(t, ann, wire.OpSit, wire.CommandRequest{Box: 5})
	p.do(t, bo, wire.OpSit, wire.CommandRequest{Box: 6})
	before := p.a.t.RoundNo()
	for _, b := range []struct {
		u   *sabot.User
		box int
	}{{eve, 4}, {ann, 5}, {bo, 6}} {
		p.do(t, b.u, wire.OpBet, wire.CommandRequest{Box: b.box, Stake: 100})
	}
	// Dealt, and perhaps over already: a dealer's blackjack ends the
	// round at the deal (one shoe in twenty-odd), so the round's number
	// says it was dealt, not the round in play.
	if p.a.t.RoundNo() == before {
		t.Fatal("no round dealt")
	}
	if u := p.a.seatUses["eve"]; u != nil && len(u.givenUp) != 0 {
		t.Fatalf("a round played kept eve's boxes given up: %+v", u.givenUp)
	}

	// Sits a minute.
	p.s.ReseatAfter, p.s.UnbetWindow = -1, -1
	ben := p.player(t, "ben")
	n := 0
	for ; n < 100; n++ {
		cmdNo++
		err = p.a.handle(ctx, testCommand(t, wire.OpSit, ben, "ben", fmt.Sprint(cmdNo), wire.CommandRequest{Box: 7})).err
		if err != nil {
			break
		}
		p.do(t, ben, wire.OpLeave, wire.CommandRequest{})
	}
	if n != p.s.sitsPerMinute() || sabot.ErrorCode(err) != sabot.ETHROTTLED || sabot.RetryAfter(err) <= 0 {
		t.Fatalf("sits in a minute: %d, then %v (retry %v)", n, err, sabot.RetryAfter(err))
	}
	now = now.Add(time.Minute)
	p.do(t, ben, wire.OpSit, wire.CommandRequest{Box: 7})
}

// A command sent again while the first is in flight (its stake waits for
// the operator's wallet) is answered as a duplicate of the first, as a
// repeat after it is: the first sender is answered as
// the command's own.
func TestInFlightDuplicateAnsweredDuplicate(t *testing.T) {
	first, again := make(chan reply, 1), make(chan reply, 1)
	debitTable{}.Answer([]any{first, again}, debitReply{reply{seq: 42}})
	if r := <-first; r.seq != 42 || r.dup {
		t.Fatalf("the first sender's answer: %+v", r)
	}
	if r := <-again; r.seq != 42 || !r.dup {
		t.Fatalf("the repeat in flight: %+v, want a duplicate of seq 42", r)
	}
	refused, again2 := make(chan reply, 1), make(chan reply, 1)
	debitTable{}.Answer([]any{refused, again2}, debitReply{reply{err: sabot.Errorf(sabot.ECONFLICT, "no")}})
	if r := <-again2; r.err == nil || r.dup {
		t.Fatalf("a refusal's repeat: %+v", r)
	}
}

// A player who stands up while his round is in play leaves its hands to
// the table's defaults (GLI-19 §4.16.3); the settlement says when he left
// (tablelog.Settle.Left), so that his session ends then, not at the
// settle. A rebuild between the leave and the settle keeps it (the leave
// is replayed); a player who stayed has none.
func TestLeaveMidRoundSettlementSaysWhenHeLeft(t *testing.T) {
	for _, rebuild := range []bool{false, true} {
		t.Run(fmt.Sprint("rebuild=", rebuild), func(t *testing.T) {
			ctx := context.Background()
			p := newPlayedTable(t, "vegas-s17", nil, -1)
			ana, ben := p.player(t, "ana"), p.player(t, "ben")
			p.do(t, ana, wire.OpSit, wire.CommandRequest{Box: 1})
			p.do(t, ben, wire.OpSit, wire.CommandRequest{Box: 2})
			for tries := 0; !p.a.dealt || p.a.timer.kind != decisionTimer; tries++ {
				if tries == 50 {
					t.Fatal("no round with a decision to wait for in 50 deals")
				}
				p.do(t, ana, wire.OpBet, wire.CommandRequest{Box: 1, Stake: 100})
				p.do(t, ben, wire.OpBet, wire.CommandRequest{Box: 2, Stake: 100})
				for p.a.dealt && p.a.timer.kind != decisionTimer {
					p.a.expire(ctx)
				}
			}
			round := p.a.t.RoundNo()
			p.do(t, ana, wire.OpLeave, wire.CommandRequest{})
			if rebuild {
				p.a.rebuild(ctx)
				if !p.a.dealt || p.a.t.RoundNo() != round {
					t.Fatalf("after the rebuild: dealt %v, round %d, want round %d in play", p.a.dealt, p.a.t.RoundNo(), round)
				}
			}
			for p.a.dealt {
				p.a.expire(ctx)
			}
			recs, err := p.st.Log(ctx, p.a.cfg.ID, 1)
			if err != nil {
				t.Fatal(err)
			}
			var leftAt time.Time
			var settle *tablelog.Settle
			var settled time.Time
			for _, r := range recs {
				switch {
				case r.Kind == sabot.LogLeave && payloadOf[tablelog.Seat](r, nil).Player == "ana":
					leftAt = r.Created
				case r.Kind == sabot.LogSettle && r.RoundNo == int64(round):
					s := payloadOf[tablelog.Settle](r, nil)
					settle, settled = &s, r.Created
				}
			}
			if settle == nil || leftAt.IsZero() {
				t.Fatalf("round %d: settlement %v, ana's leave at %v", round, settle, leftAt)
			}
			if got, ok := settle.Left["ana"]; !ok || !got.Equal(leftAt) || got.After(settled) {
				t.Fatalf("the settlement's left %v, want ana at %v (settled %v)", settle.Left, leftAt, settled)
			}
			if _, ok := settle.Left["ben"]; ok || len(settle.Left) != 1 {
				t.Fatalf("the settlement's left %v: ben stayed", settle.Left)
			}
		})
	}
}
