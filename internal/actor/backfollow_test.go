package actor

import (
	"context"
	"encoding/json"
	"errors"
	"maps"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"sabot"
	"sabot/card"
	"sabot/engine"
	"sabot/internal/operator"
	"sabot/internal/recall"
	"sabot/internal/store/sqlite"
	"sabot/internal/tablelog"
	"sabot/internal/wire"
	"sabot/money"
	"sabot/rules"
)

// followTable is a test-mode table of profile under back_follow=follow:
// dee's stakes are refused by his care (a self-exclusion), his bets
// (BetGuard) are not: he was excluded after placing his back bet.
func followTable(t *testing.T, profile string) (*playedTable, map[string]*sabot.User) {
	t.Helper()
	ctx := context.Background()
	st := sqlite.NewDB(filepath.Join(t.TempDir(), "sabot.db") + "?_pragma=synchronous(OFF)")
	if err := st.Open(ctx); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { st.Close() })
	p := &playedTable{st: st, s: &Host{Store: st, Metrics: NewMetrics(), Timing: Timing{BetWindow: 1 << 40, Decision: 1 << 40, Window: 1 << 40}}}
	p.open(t, &sabot.Table{Name: "follow", Profile: profile, Options: map[string]string{"back_follow": "follow", "min_bet": "100", "back_bets_per_box": "3"}, TestMode: true})
	us := map[string]*sabot.User{}
	for _, n := range []string{"ana", "ben", "cy", "dee"} {
		us[n] = p.player(t, n)
	}
	dee := us["dee"].ID
	p.s.StakeGuard = func(_ string, uid int64, _ money.Amount) *sabot.StakeGuard {
		return &sabot.StakeGuard{UserID: uid, Check: func(sabot.Eligibility) error {
			if uid == dee {
				return sabot.Errorf(sabot.EFORBIDDEN, "refused: dee is self-excluded")
			}
			return nil
		}}
	}
	// cy's wallet holds his back bet's stake and 50 more: not a match.
	w, _ := p.s.account(ctx, sabot.AccountWallet, us["cy"].ID)
	house, _ := p.s.account(ctx, sabot.AccountHouse, 0)
	if err := st.Transfer(ctx, "debit", []sabot.Posting{{AccountID: w, Amount: -(1 << 40) + 150}, {AccountID: house, Amount: 1<<40 - 150}}); err != nil {
		t.Fatal(err)
	}
	return p, us
}

// ES-03 («debiendo aceptar sus iniciativas»), VE-11, VE-12: at a table of
// back_follow=follow the back bets follow the holder's split or double, each
// bettor's matching stake taken from his wallet in the decision's
// transaction; a bettor who cannot pay it (cy: his wallet; dee: his care
// refuses the stake) stays where he bet, his bet taking the one card of a
// double, as a back bettor's who does not match at a table of choose. The
// ledger balances, and the round rebuilt from the log, recalled, and
// replayed from its record gives the same nets.
func TestFollowingBackBetsServed_ES03_VE12(t *testing.T) {
	for _, c := range []struct {
		profile, cards, act string
		bets                []engine.BetKind // ben's bets after the decision
	}{
		// ana 8S 8H splits against the dealer's 6D; each hand draws a ten and stands.
		{"spain", "8S 6D 8H TC TD TH 9S", "split", []engine.BetKind{engine.MainBet, engine.SplitBet}},
		// ana 6S 5H (11) doubles against the dealer's 6D, draws a ten.
		{"venice", "6S 6D 5H TC TD 9S", "double", []engine.BetKind{engine.MainBet, engine.DoubleBet}},
	} {
		t.Run(c.profile, func(t *testing.T) {
			ctx := context.Background()
			p, us := followTable(t, c.profile)
			ana, ben, cy, dee := us["ana"], us["ben"], us["cy"], us["dee"]
			wallet := func(u *sabot.User) money.Amount { return p.s.balance(ctx, sabot.AccountWallet, u.ID) }
			p.do(t, ana, wire.OpSit, wire.CommandRequest{Box: 1})
			p.do(t, stepsPit, wire.OpForceCards, wire.CommandRequest{Cards: c.cards})
			p.steps(t)
			start := map[string]money.Amount{}
			for _, u := range us {
				start[u.Name] = wallet(u)
			}
			for _, u := range []*sabot.User{ben, cy, dee} {
				p.do(t, u, wire.OpBet, wire.CommandRequest{Box: 1, Stake: 100})
			}
			p.do(t, ana, wire.OpBet, wire.CommandRequest{Box: 1, Stake: 100})
			if !p.a.dealt {
				t.Fatal("not dealt")
			}
			// A back bettor's own split or double is refused: his follows (ES-03, VE-12).
			r := p.a.handle(ctx, testCommand(t, wire.OpAct, ben, "ben", "own", wire.CommandRequest{Action: c.act, Box: 1, Hand: 1}))
			if r.err == nil || !strings.Contains(r.err.Error(), "ES-03") && !strings.Contains(r.err.Error(), "VE-1") {
				t.Fatalf("ben's own %s: %v", c.act, r.err)
			}
			p.do(t, ana, wire.OpAct, wire.CommandRequest{Action: c.act, Box: 1, Hand: 1})
			var kinds []engine.BetKind
			for _, b := range p.a.t.Round().Bets() {
				switch b.Player {
				case "ben":
					kinds = append(kinds, b.Kind)
				case "cy", "dee":
					if b.Kind != engine.MainBet || b.Hand != 1 {
						t.Errorf("%s's bet %v on hand %d: he could not pay, his bet stays", b.Player, b.Kind, b.Hand)
					}
				}
			}
			if !slices.Equal(kinds, c.bets) {
				t.Fatalf("ben's bets %v, want %v", kinds, c.bets)
			}
			var d tablelog.Decision
			recs, err := p.st.Find(ctx, sabot.LogQuery{Kinds: []string{sabot.LogAction}, TableID: p.a.cfg.ID})
			if err != nil || len(recs) != 1 {
				t.Fatalf("%d decisions: %v", len(recs), err)
			}
			if err := json.Unmarshal(recs[0].Payload, &d); err != nil {
				t.Fatal(err)
			}
			if !slices.Equal(d.Follows, []tablelog.Follow{{Player: "ben", Debit: 100}}) || !slices.Equal(d.Action.Stays, []string{"cy", "dee"}) {
				t.Fatalf("the decision records follows %v, stays %v", d.Follows, d.Action.Stays)
			}
			if p.a.dealt { // the round in play rebuilt from the log: the same stakes held, the same bets
				a := p.startFrom(t, -1)
				if !maps.Equal(a.escrow, p.a.escrow) || len(a.t.Round().Bets()) != len(p.a.t.Round().Bets()) {
					t.Fatalf("rebuilt: stakes held %v, bets %v; live %v, %v", a.escrow, a.t.Round().Bets(), p.a.escrow, p.a.t.Round().Bets())
				}
			}
			for p.a.dealt && p.a.t.Round().Phase() != engine.Done {
				box, hand := p.a.t.Round().Current()
				p.do(t, ana, wire.OpAct, wire.CommandRequest{Action: "stand", Box: box, Hand: hand})
			}
			if p.a.dealt {
				t.Fatal("the round is not settled")
			}
			if r, err := p.st.CheckLedger(ctx); err != nil || !r.OK() {
				t.Fatalf("ledger: %v %v", err, r)
			}
			if b := p.tableAccount(); b != 0 {
				t.Fatalf("the table account holds %d after the settlement", b)
			}
			rr, err := recall.Recall(ctx, p.st, recall.RoundID(p.a.cfg.ID, 1))
			if err != nil {
				t.Fatal(err)
			}
			if rr.Net["ben"] != 200 || rr.Net["cy"] != 100 || rr.Net["dee"] != 100 || rr.Net["ana"] != 200 {
				t.Fatalf("recalled nets %v: want ben and ana 200 (both hands win), cy and dee 100 (one bet)", rr.Net)
			}
			for _, u := range us {
				if wallet(u) != start[u.Name]+rr.Net[u.Name] {
					t.Errorf("%s's wallet moved %d, his net %d", u.Name, wallet(u)-start[u.Name], rr.Net[u.Name])
				}
			}
			replayed, err := engine.Replay(p.a.p, rr.Record)
			if err != nil {
				t.Fatal(err)
			}
			nets, _ := replayed.Net()
			for name, n := range rr.Net {
				if nets[name] != n {
					t.Errorf("%s: replayed %d, recalled %d", name, nets[name], n)
				}
			}
		})
	}
}

// ES-03, VE-12: only the table names the back bets that stay; a player
// naming them is not heard (the wire's act has no such field), and the
// engine refuses stays where back bets do not follow.
func TestStaysOnlyUnderFollow_ES03_VE12(t *testing.T) {
	p := rules.MustLookup("spain")
	r := engine.New(p)
	r.Reset(engine.NewForced(card.MustParseList("8S 6D 8H TC TD TH 9S")))
	for _, b := range []struct {
		who   string
		stake money.Amount
	}{{"ana", 100}, {"ben", 100}} {
		if err := r.PlaceBet(b.who, 1, b.stake); err != nil {
			t.Fatal(err)
		}
	}
	if err := r.Start(); err != nil {
		t.Fatal(err)
	}
	err := r.Act(engine.Action{Kind: engine.Split, Player: "ana", Box: 1, Hand: 1, Stays: []string{"ben"}})
	var ref *engine.Refusal
	if !errors.As(err, &ref) || ref.Rule == "" {
		t.Fatalf("stays at back_follow=choose: %v", err)
	}
}

// ES-03, VE-12: an operator's player (--wallet) behind the box stays where
// he bet under back_follow=follow: his stake would wait for the operator's
// debit, which no decision of his asks for.
func TestOperatorsPlayerStays_ES03_VE12(t *testing.T) {
	p, us := followTable(t, "spain")
	ana, ben := us["ana"], us["ben"]
	op := p.player(t, operator.Prefix+"op1")
	p.do(t, ana, wire.OpSit, wire.CommandRequest{Box: 1})
	p.do(t, stepsPit, wire.OpForceCards, wire.CommandRequest{Cards: "8S 6D 8H TC TD TH 9S"})
	p.steps(t)
	p.do(t, ben, wire.OpBet, wire.CommandRequest{Box: 1, Stake: 100})
	p.do(t, op, wire.OpBet, wire.CommandRequest{Box: 1, Stake: 100})
	p.do(t, ana, wire.OpBet, wire.CommandRequest{Box: 1, Stake: 100})
	p.do(t, ana, wire.OpAct, wire.CommandRequest{Action: "split", Box: 1, Hand: 1})
	n := 0
	for _, b := range p.a.t.Round().Bets() {
		if b.Player == op.Name {
			n++
		}
		if b.Player == op.Name && (b.Kind != engine.MainBet || b.Hand != 1) {
			t.Fatalf("the operator's player's bet %v on hand %d: it stays", b.Kind, b.Hand)
		}
	}
	if n != 1 {
		t.Fatalf("the operator's player has %d bets, want his one", n)
	}
	if f, s := p.a.following(context.Background(), engine.Action{Kind: engine.Split, Player: "ana", Box: 1, Hand: 2}, nil); len(f) != 1 || f[0].Player != "ben" || len(s) != 0 {
		t.Fatalf("hand 2 follows %v, stays %v: want ben's split bet alone", f, s)
	}
}
