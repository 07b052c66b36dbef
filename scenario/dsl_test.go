package scenario

import (
	"encoding/json"
	"errors"
	"fmt"
	"strconv"
	"strings"
	"testing"

	"sabot/rules"
)

// round is a compact scenario for table-driven rule tests:
//
//	bets      "ana 1 100; ben 1 50"            player box stake
//	decisions "ana 1 hit; ana 1/2 double 50"    player box[/hand] action [stake|value]
//	net       "ana=250 ben=0"
type round struct {
	name      string
	profile   string
	options   map[string]any
	cards     string
	bets      string
	decisions string

	net     string // expected nets; empty: not checked
	dealer  int    // expected dealer total; 0: not checked
	err     string // expected refusal containing this text
	void    bool
	results string // expected hand results "1/1=win 1/2=lose"
	check   func(t *testing.T, out *Output)
}

func (rd round) input(t testing.TB) *Input {
	in := &Input{Profile: rd.profile}
	cards, _ := json.Marshal(rd.cards)
	in.Cards = cards
	if len(rd.options) > 0 {
		in.Options = map[string]json.RawMessage{}
		for k, v := range rd.options {
			b, _ := json.Marshal(v)
			in.Options[k] = b
		}
	}
	for _, f := range split(rd.bets) {
		w := strings.Fields(f)
		box, _ := strconv.Atoi(w[1])
		stake, _ := strconv.ParseInt(w[2], 10, 64)
		in.Bets = append(in.Bets, Bet{Player: w[0], Box: box, Stake: stake})
	}
	for _, f := range split(rd.decisions) {
		w := strings.Fields(f)
		if len(w) < 3 {
			t.Fatalf("bad decision %q", f)
		}
		d := Decision{Player: w[0], Action: w[2]}
		bh := strings.SplitN(w[1], "/", 2)
		d.Box, _ = strconv.Atoi(bh[0])
		if len(bh) == 2 {
			d.Hand, _ = strconv.Atoi(bh[1])
		}
		if len(w) > 3 {
			n, _ := strconv.ParseInt(w[3], 10, 64)
			if d.Action == "declare" {
				v := int(n)
				d.Value = &v
			} else {
				d.Stake = &n
			}
		}
		in.Decisions = append(in.Decisions, d)
	}
	return in
}

func split(s string) []string {
	var out []string
	for _, f := range strings.Split(s, ";") {
		if f = strings.TrimSpace(f); f != "" {
			out = append(out, f)
		}
	}
	return out
}

func (rd round) run(t *testing.T) {
	t.Helper()
	in := rd.input(t)
	p, err := in.ResolveProfile("")
	var out *Output
	if err == nil {
		out, err = Run(in, p)
	}
	if rd.err != "" {
		if err == nil {
			t.Fatalf("want refusal %q, got success: net %v", rd.err, out.Net)
		}
		if !errors.Is(err, ErrRefused) && !errors.Is(err, ErrInput) {
			t.Fatalf("error %v wraps neither ErrRefused nor ErrInput", err)
		}
		if !strings.Contains(err.Error(), rd.err) {
			t.Fatalf("error %q does not contain %q", err, rd.err)
		}
		return
	}
	if err != nil {
		t.Fatalf("unexpected error: %v", err)
	}
	var sum int64
	for _, b := range out.Bets {
		sum += b.Net
	}
	if out.House != -sum {
		t.Errorf("house %d is not minus the players' net %d", out.House, sum)
	}
	if rd.net != "" {
		want := map[string]int64{}
		for _, kv := range strings.Fields(rd.net) {
			k, v, _ := strings.Cut(kv, "=")
			n, _ := strconv.ParseInt(v, 10, 64)
			want[k] = n
		}
		for k, v := range want {
			if out.Net[k] != v {
				t.Errorf("net[%s] = %d, want %d (bets %s)", k, out.Net[k], v, fmtBets(out))
			}
		}
		if len(out.Net) != len(want) {
			t.Errorf("net = %v, want %v", out.Net, want)
		}
	}
	if rd.dealer != 0 && out.Dealer.Total != rd.dealer {
		t.Errorf("dealer total %d (%v), want %d", out.Dealer.Total, out.Dealer.Cards, rd.dealer)
	}
	if out.Void != rd.void {
		t.Errorf("void = %v, want %v", out.Void, rd.void)
	}
	if rd.results != "" {
		got := []string{}
		for _, h := range out.Hands {
			got = append(got, fmt.Sprintf("%d/%d=%s", h.Box, h.Hand, h.Result))
		}
		if strings.Join(got, " ") != rd.results {
			t.Errorf("results %q, want %q", strings.Join(got, " "), rd.results)
		}
	}
	if rd.check != nil {
		rd.check(t, out)
	}
}

func fmtBets(out *Output) string {
	var b strings.Builder
	for _, x := range out.Bets {
		fmt.Fprintf(&b, "[%s %d/%d %s %d→%d] ", x.Player, x.Box, x.Hand, x.Kind, x.Stake, x.Net)
	}
	return b.String()
}

func runAll(t *testing.T, rounds []round) {
	t.Helper()
	for _, rd := range rounds {
		t.Run(rd.name, rd.run)
	}
}

var _ = rules.Win
