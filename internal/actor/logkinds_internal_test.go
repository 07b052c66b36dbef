package actor

import (
	"bytes"
	"context"
	"encoding/json"
	"maps"
	"reflect"
	"sabot/internal/wire"
	"slices"
	"strings"
	"testing"

	"sabot"
	"sabot/internal/tablelog"
)

// TestLogKinds: every kind of sabot.LogKinds has its entry in the registry
// of log kinds with each part (its payload, its track, its replay) and one
// in recall's table (what recall reads of it, its words), and the
// registry holds no other kind.
func TestLogKinds(t *testing.T) {
	if err := checkLogKinds(logKinds, sabot.LogKinds); err != nil {
		t.Fatal(err)
	}
	for _, k := range slices.Sorted(maps.Keys(logKinds)) {
		if !slices.Contains(sabot.LogKinds, k) {
			t.Errorf("the registry has kind %q, which is not one of sabot.LogKinds", k)
		}
	}
}

// TestLogKindsRefused: the registry's check refuses a kind with no entry,
// an entry lacking a part (neither given nor said absent), and a kind that
// recall's table does not have, naming the kind.
func TestLogKindsRefused(t *testing.T) {
	withNew := func(e logKind) map[string]logKind {
		reg := maps.Clone(logKinds)
		reg["new-kind"] = e
		return reg
	}
	kinds := append(slices.Clone(sabot.LogKinds), "new-kind")
	for _, c := range []struct {
		name string
		reg  map[string]logKind
		want string
	}{
		{"no entry", logKinds, `log kind "new-kind" has no entry in the registry`},
		{"no replay", withNew(kindOf(kindParts[tablelog.Bet]{track: (*Table).trackBet})), `log kind "new-kind": its entry lacks a part (payload true, track true, replay false)`},
		{"no track", withNew(kindOf(kindParts[tablelog.Bet]{replay: (*Table).replayBet})), "track false"},
		{"not in recall", withNew(kindOf(kindParts[tablelog.Bet]{none: noTrack | noReplay})), `log kind "new-kind" has no entry in recall's table`},
	} {
		if err := checkLogKinds(c.reg, kinds); err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%s: %v, want %q", c.name, err, c.want)
		}
	}
}

// TestLogKindPayloads: the payload of every record a played table writes
// (its opening, seats, bets, deals, decisions by timeout, settlements,
// shoes and their reveals, snapshots, a configuration change) decodes into
// its kind's payload type with no field left over: the registry's payload
// part is the type the table writes.
func TestLogKindPayloads(t *testing.T) {
	p := newPlayedTable(t, "vegas-s17", nil, 5)
	for _, n := range []string{"ana", "ben"} {
		p.player(t, n)
	}
	p.rounds(t, 30)
	pit := &sabot.User{ID: 999, Name: "pit", Admin: true}
	p.do(t, pit, wire.OpConfigure, wire.CommandRequest{Options: map[string]string{"max_bet": "100000"}})
	p.rounds(t, 60)
	all, err := p.st.Log(context.Background(), p.a.cfg.ID, 1)
	if err != nil {
		t.Fatal(err)
	}
	seen := map[string]bool{}
	for _, r := range all {
		e, ok := logKinds[r.Kind]
		if !ok {
			t.Fatalf("record %d: kind %q has no entry", r.Seq, r.Kind)
		}
		dec := json.NewDecoder(bytes.NewReader(r.Payload))
		dec.DisallowUnknownFields()
		if err := dec.Decode(reflect.New(reflect.TypeOf(e.payload)).Interface()); err != nil {
			t.Errorf("record %d (%s): its payload is not a %T: %v", r.Seq, r.Kind, e.payload, err)
		}
		seen[r.Kind] = true
	}
	for _, k := range []string{sabot.LogTableOpened, sabot.LogShoe, sabot.LogShoeReveal, sabot.LogSit, sabot.LogBet, sabot.LogDeal,
		sabot.LogTimeout, sabot.LogSettle, sabot.LogConfigure, sabot.LogSnapshot} {
		if !seen[k] {
			t.Errorf("the played table wrote no %s record", k)
		}
	}
}
