package server

import (
	"context"
	"fmt"
	"testing"

	"sabot"
)

// Issue 11, finding 1: a command ID repeated after the table has dropped it
// from its memory (sits and leaves pushed it out) is answered from the
// store — the first record's seq — and changes nothing: the player deciding
// keeps his timer, nobody gets a message, the log gets no record.
func TestHostileDuplicateIDDoesNotMoveTimer(t *testing.T) {
	ctx := context.Background()
	p := newPlayedTable(t, "vegas-s17", nil, -1)
	p.a.seenMax = 16
	ana, ben := p.player(t, "ana"), p.player(t, "ben")
	eve := &sabot.User{Name: "eve", PasswordHash: []byte("x")}
	if err := p.st.CreateUser(ctx, eve); err != nil {
		t.Fatal(err)
	}
	first := p.a.handle(ctx, &command{op: opSit, user: eve, clientID: "eve", commandID: "first", box: 5})
	if first.err != nil || first.seq == 0 {
		t.Fatalf("eve's first sit: %+v", first)
	}
	p.do(t, eve, opLeave, command{})
	for range 3 * p.a.seenMax {
		p.do(t, eve, opSit, command{box: 5})
		p.do(t, eve, opLeave, command{})
	}
	if _, ok := p.a.seen["eve\x00first"]; ok || !p.a.forgot {
		t.Fatal("the table still remembers eve's first command: the test proves nothing")
	}

	// A round in which ana decides.
	p.do(t, ana, opSit, command{box: 1})
	p.do(t, ben, opSit, command{box: 2})
	for tries := 0; p.a.timerOn != decisionTimer; tries++ {
		if tries == 50 {
			t.Fatal("no round with a decision to wait for in 50 deals")
		}
		p.do(t, ana, opBet, command{box: 1, stake: 100})
		p.do(t, ben, opBet, command{box: 2, stake: 100})
		for p.a.dealt && p.a.timerOn != decisionTimer {
			p.a.expire(ctx)
		}
	}
	sub := &subscriber{ch: make(chan []byte, 64)}
	p.a.handle(ctx, &command{op: opSubscribe, sub: sub})
	<-sub.ch // its snapshot
	timer, due, last := p.a.timer, p.a.due, p.a.lastSeq

	for range 3 {
		again := p.a.handle(ctx, &command{op: opSit, user: eve, clientID: "eve", commandID: "first", box: 5})
		if again.err != nil || !again.dup || again.seq != first.seq {
			t.Fatalf("the repeated sit: %+v; want a duplicate of seq %d", again, first.seq)
		}
	}
	if p.a.timer != timer || !p.a.due.Equal(due) || p.a.timerOn != decisionTimer {
		t.Fatalf("the repeat moved the decision timer: due %v, was %v", p.a.due, due)
	}
	if n := len(sub.ch); n != 0 {
		t.Fatalf("the repeat sent %d messages to the table's players: %s", n, <-sub.ch)
	}
	recs, err := p.st.Log(ctx, p.a.cfg.ID, last+1)
	if err != nil || len(recs) != 0 || p.a.t.Holder(5) != "" {
		t.Fatalf("the repeat wrote %d records (%v), box 5 held by %q", len(recs), err, p.a.t.Holder(5))
	}
	// A new command of eve's is still run.
	if r := p.a.handle(ctx, &command{op: opSit, user: eve, clientID: "eve", commandID: fmt.Sprint("new-", cmdNo), box: 5}); r.err != nil || r.dup {
		t.Fatalf("a new sit after the repeats: %+v", r)
	}
}
