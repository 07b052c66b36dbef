package server_test

import (
	"context"
	"fmt"
	"math/rand/v2"
	"path/filepath"
	"slices"
	"testing"

	"sabot"
	"sabot/internal/actor"
	"sabot/internal/client"
	"sabot/internal/server"
	"sabot/internal/store/sqlite"
	"sabot/internal/wire"
	"sabot/money"
)

// The command path under random interleavings: several
// players sit, leave, bet, withdraw, decide, reconnect their sockets and
// change their passwords in an order drawn from a seed; a thief who stole
// each password logs in with it as it changes. After every step: the
// ledger balances, no player holds more boxes without a bet than AR-21's
// cap allows him beyond his first, and no session outlives the credentials
// it was opened with (the old tokens and the old password are refused).
// A failing seed is printed: the run is replayed from it.
func TestCommandPathProperties(t *testing.T) {
	t.Parallel()
	for _, seed := range []uint64{1, 2, 3} {
		t.Run(fmt.Sprint("seed-", seed), func(t *testing.T) { commandPathRun(t, seed, 120) })
	}
}

// propPlayer is a player of the run: his client, his password, the tokens
// his password changes ended, a thief's client holding his old password.
type propPlayer struct {
	name     string
	c        *client.Client
	password string
	changes  int
	ended    []string
	feed     *client.Feed
}

func commandPathRun(t *testing.T, seed uint64, steps int) {
	ctx := context.Background()
	rng := rand.New(rand.NewPCG(seed, seed^0x5eed))
	db := sqlite.NewDB(filepath.Join(t.TempDir(), "sabot.db"))
	if err := db.Open(ctx); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { db.Close() })
	st := &heldLogin{DB: db}
	st.user.Store(-1)
	h := newLimited(t, st, func(s *server.Server) {
		s.CommandRate, s.SitsPerMinute = -1, -1 // the properties, not the rates
		s.LoginOKNameBurst, s.RefusalBurst, s.Tarpit = -1, -1, -1
	})
	tb := h.table("vegas-s17", false, nil)
	var ps []*propPlayer
	for _, n := range []string{"ana", "ben", "cy"} {
		ps = append(ps, &propPlayer{name: n, c: h.player(n, 1_000_000), password: password})
	}
	boxes := 7
	t.Cleanup(func() {
		for _, p := range ps {
			if p.feed != nil {
				p.feed.Close()
			}
		}
	})
	for step := range steps {
		p := ps[rng.IntN(len(ps))]
		var what string
		switch k := rng.IntN(10); {
		case k < 3:
			box := 1 + rng.IntN(boxes)
			what = fmt.Sprintf("%s sits at %d", p.name, box)
			p.c.Command(ctx, tb, "sit", wire.CommandRequest{Box: box})
		case k < 4:
			what = p.name + " leaves"
			p.c.Command(ctx, tb, "leave", wire.CommandRequest{})
		case k < 6:
			box := 1 + rng.IntN(boxes)
			what = fmt.Sprintf("%s bets at %d", p.name, box)
			p.c.Command(ctx, tb, "bet", wire.CommandRequest{Box: box, Stake: money.Amount(100 * (1 + rng.IntN(5)))})
		case k < 7:
			box := 1 + rng.IntN(boxes)
			what = fmt.Sprintf("%s withdraws at %d", p.name, box)
			p.c.Command(ctx, tb, "withdraw", wire.CommandRequest{Box: box})
		case k < 8:
			what = "decisions"
			for _, q := range ps {
				if v, err := q.c.Table(ctx, tb); err == nil && v.Turn != nil && slices.Contains(v.Turn.Players, q.name) {
					kind := "stand"
					if rng.IntN(2) == 0 {
						kind = "hit"
					}
					q.c.Command(ctx, tb, "act", wire.CommandRequest{Action: kind, Box: v.Turn.Box, Hand: v.Turn.Hand})
				}
			}
		case k < 9:
			what = p.name + " reconnects"
			if p.feed != nil {
				p.feed.Close()
			}
			if f, err := p.c.Subscribe(ctx, tb, "", 0); err == nil {
				p.feed = f
			} else {
				p.feed = nil
			}
		default:
			what = p.name + " changes his password"
			thief := &client.Client{URL: h.srv.URL()}
			must(thief.Login(ctx, p.name, p.password)) // the password stolen
			// A second login of the thief's in flight across the change:
			// its hash read before, its session made after.
			late := &client.Client{URL: h.srv.URL()}
			inFlight := rng.IntN(2) == 0
			done := make(chan error, 1)
			if inFlight {
				me := must(p.c.Me(ctx))
				st.reached, st.release = make(chan struct{}), make(chan struct{})
				st.user.Store(me.ID)
				st.held.Store(false)
				go func() {
					_, err := late.Login(ctx, p.name, p.password)
					done <- err
				}()
				<-st.reached
				st.user.Store(-1)
			}
			next := fmt.Sprintf("new secret %d", p.changes+1)
			var res wire.LoginResult
			must(0, p.c.Do(ctx, "POST", "/api/me/password", server.PasswordRequest{Password: p.password, NewPassword: next}, &res))
			if inFlight {
				close(st.release)
				<-done
			}
			p.ended = append(p.ended, p.c.Token, thief.Token)
			if late.Token != "" {
				p.ended = append(p.ended, late.Token)
			}
			p.c.Token, p.password = res.Token, next
			p.changes++
			if _, err := (&client.Client{URL: h.srv.URL()}).Login(ctx, p.name, fmt.Sprintf("new secret %d", p.changes-1)); p.changes > 1 && err == nil {
				t.Fatalf("seed %d step %d (%s): the old password logs in", seed, step, what)
			}
		}
		checkProperties(t, h, tb, ps, fmt.Sprintf("seed %d step %d (%s)", seed, step, what))
	}
}

func checkProperties(t *testing.T, h *harness, tb int64, ps []*propPlayer, at string) {
	t.Helper()
	ctx := context.Background()
	rep := must(h.st.CheckLedger(ctx))
	if !rep.OK() {
		t.Fatalf("%s: the ledger: %v", at, rep.Problems)
	}
	v := must(h.admin.Table(ctx, tb))
	unbet := map[string]int{}
	for _, s := range v.Seats {
		bet := false
		for _, b := range v.Bets {
			bet = bet || b.Player == s.Player && b.Box == s.Box
		}
		if v.Round != nil && v.Round.Phase != "done" {
			bet = true // a round in play: the boxes play it
		}
		if !bet {
			unbet[s.Player]++
		}
	}
	for p, n := range unbet {
		if n > actor.DefaultMaxBoxesWithoutBet {
			t.Fatalf("%s: %s holds %d boxes without a bet (AR-21: at most %d)", at, p, n, actor.DefaultMaxBoxesWithoutBet)
		}
	}
	for _, p := range ps {
		for _, tok := range p.ended {
			if _, err := (&client.Client{URL: h.srv.URL(), Token: tok}).Me(ctx); sabot.ErrorCode(err) != sabot.EUNAUTHORIZED {
				t.Fatalf("%s: a session of %s's old credentials outlived them: %v", at, p.name, err)
			}
		}
		if _, err := p.c.Me(ctx); err != nil {
			t.Fatalf("%s: %s's own session: %v", at, p.name, err)
		}
	}
}
