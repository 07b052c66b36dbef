package actor

import (
	"context"
	"encoding/json"
	"strings"
	"testing"

	"sabot/internal/wire"
)

// A box given up cites AR-21 where it is the table's regulation's rule
// (Argentina's), and no rule at Spain's or Venice's tables, whose
// regulations say nothing of it: its text, and its reason's values.
func TestReleaseCitesAR21OnlyAtArgentina(t *testing.T) {
	for profile, want := range map[string]bool{"argentina": true, "spain": false, "venice": false} {
		t.Run(profile, func(t *testing.T) {
			ctx := context.Background()
			p := newPlayedTable(t, profile, nil, -1)
			eve := p.player(t, "eve")
			p.do(t, eve, wire.OpSit, wire.CommandRequest{Box: 2})
			p.do(t, eve, wire.OpSit, wire.CommandRequest{Box: 3})
			p.do(t, eve, wire.OpBet, wire.CommandRequest{Box: 2, Stake: 500})
			sub := NewSubscriber(256)
			p.a.handle(ctx, &Command{inside: subscribing(sub, 0, "")})
			p.a.expire(ctx) // the betting window closes: box 3 is given up
			found := false
			for _, data := range sub.drain() {
				var m wire.Message
				json.Unmarshal(data, &m)
				if m.Event == nil || m.Event.Kind != "release" || m.Event.Box != 3 {
					continue
				}
				found = true
				_, hasRule := m.Event.Params["rule"]
				if strings.Contains(m.Event.Text, "AR-21") != want || hasRule != want {
					t.Errorf("%s: the release says %q, params %v; AR-21 cited: want %v", profile, m.Event.Text, m.Event.Params, want)
				}
			}
			if !found {
				t.Fatal("no release of box 3")
			}
		})
	}
}
