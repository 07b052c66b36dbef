package server_test

import (
	"context"
	"strings"
	"testing"
	"time"

	"sabot/internal/actor"
	"sabot/internal/client"
	"sabot/internal/wire"
)

// One hostile client, from an address of its own, guesses the pit's
// password, registers accounts, holds sockets that ask for snapshots and
// sends malformed command IDs, all at full speed, while bots play: the bots
// finish with no error, the pit still logs in from its own
// address, the ledger balances, the server never answers 500, and the
// hostile client met each limit.
func TestHostileBesideBots(t *testing.T) {
	t.Parallel()
	h := newHarness(t, nil, actor.Timing{BetWindow: 50 * time.Millisecond, Decision: 2 * time.Second, Window: 300 * time.Millisecond})
	ctx, cancel := context.WithTimeout(context.Background(), 90*time.Second)
	defer cancel()
	target := must(h.admin.CreateTable(ctx, wire.TableRequest{Name: "target", Profile: "venice"}))
	hostile := &client.Hostile{URL: h.srv.URL(), Name: "mallory", Password: "mallory-password", Victim: "pit",
		Table: target.ID, Workers: 2, Sockets: 16, LocalAddr: "127.0.0.2"}
	hctx, stop := context.WithCancel(ctx)
	type result struct {
		rep client.HostileReport
		err error
	}
	done := make(chan result, 1)
	go func() {
		rep, err := hostile.Run(hctx)
		done <- result{rep, err}
	}()
	// Once the guessing is throttled, the pit's own login still works.
	for hostile.Seen("guess", "429") == 0 {
		select {
		case <-ctx.Done():
			stop()
			r := <-done
			t.Fatalf("the password guessing was never throttled: %v %v", r.rep, r.err)
		case <-time.After(20 * time.Millisecond):
		}
	}
	pit := &client.Client{URL: h.srv.URL()}
	if _, err := pit.Login(ctx, "pit", password); err != nil {
		stop()
		<-done
		t.Fatalf("the pit is locked out by a stranger guessing its password: %v", err)
	}
	rep, err := client.RunBots(ctx, client.BotsConfig{URL: h.srv.URL(), AdminName: "pit", AdminPassword: password,
		Tables: 3, Players: 3, Rounds: 6, Profile: "venice", Stake: 10})
	stop()
	r := <-done
	if r.err != nil {
		t.Fatalf("hostile: %v", r.err)
	}
	t.Logf("hostile:\n%s", r.rep)
	if err != nil {
		t.Fatalf("bots: %v", err)
	}
	t.Logf("bots: %+v", rep)
	if rep.Errors != 0 || rep.Rounds < 3*3*6 {
		t.Errorf("the bots were disturbed: %+v", rep)
	}
	checkLedger(t, h.st)
	for attack, outs := range r.rep {
		for outcome, n := range outs {
			if strings.HasPrefix(outcome, "5") {
				t.Errorf("%s: %d answers %s", attack, n, outcome)
			}
		}
	}
	for _, want := range []struct{ attack, outcome string }{
		{"guess", "429"}, {"register", "429"}, {"bad-ids", "400"},
	} {
		if r.rep[want.attack][want.outcome] == 0 {
			t.Errorf("%s never met %s", want.attack, want.outcome)
		}
	}
	refused := 0
	for outcome, n := range r.rep["sockets"] {
		if outcome != "opened" {
			refused += n
		}
	}
	if refused == 0 {
		t.Errorf("sockets: %d opened, none refused or closed", r.rep["sockets"]["opened"])
	}
}
