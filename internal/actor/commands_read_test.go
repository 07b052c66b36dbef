package actor

import (
	"reflect"
	"strings"
	"testing"

	"sabot"
	"sabot/internal/wire"
)

// Every command of the registry reads its own request out of a body that
// holds every field: a wire request (wire.Take) and a request that reads
// itself alike, never with an internal error; what a wire request reads is
// the body's fields under its JSON names, each of the body's type.
func TestEveryCommandReadsItsRequest(t *testing.T) {
	bank := "ana"
	body := wire.CommandRequest{CommandID: "c1", ClientID: "k", Box: 2, Hand: 1, Stake: 500, Action: "double", Value: 11,
		Cards: "TS 9H", Card: "7C", Case: "a", Correction: 3, Options: map[string]string{"max_bet": "500"}, Bank: &bank, Reason: "why"}
	want := map[string]any{
		opSit:      wire.Sit{Box: 2},
		opLeave:    wire.Leave{},
		opBet:      wire.Bet{Box: 2, Stake: 500},
		opWithdraw: wire.Withdraw{Box: 2},
		opAct:      wire.Act{Box: 2, Hand: 1, Stake: 500, Action: "double", Value: 11},
		opDecline:  wire.Decline{Box: 2, Hand: 1},
		opForce:    wire.ForceCards{Cards: "TS 9H"},
		opNewShoe:  wire.NewShoe{},
		opVoid:     wire.Void{},
		opConfig:   wire.Configure{Options: map[string]string{"max_bet": "500"}, Bank: &bank, Reason: "why"},
	}
	fields := map[string]reflect.Type{}
	bt := reflect.TypeOf(body)
	for i := range bt.NumField() {
		name, _, _ := strings.Cut(bt.Field(i).Tag.Get("json"), ",")
		fields[name] = bt.Field(i).Type
	}
	for _, c := range tableCommands {
		req, err := c.read(body)
		if sabot.ErrorCode(err) == sabot.EINTERNAL {
			t.Errorf("%s: %v", c.name, err)
			continue
		}
		if rt := reflect.TypeOf(req); rt != nil && rt.PkgPath() == "sabot/internal/wire" {
			for i := range rt.NumField() {
				f := rt.Field(i)
				name, _, _ := strings.Cut(f.Tag.Get("json"), ",")
				if fields[name] != f.Type {
					t.Errorf("%s: %s.%s is json %q of type %v; the body's is of type %v", c.name, rt.Name(), f.Name, name, f.Type, fields[name])
				}
			}
		}
		if w, ok := want[c.name]; ok && (err != nil || !reflect.DeepEqual(req, w)) {
			t.Errorf("%s: read %#v (%v), want %#v", c.name, req, err, w)
		}
	}
	// A wire request's own check refuses as the command's read did.
	if _, err := tableCommandNamed(opForce).read(wire.CommandRequest{CommandID: "c2", Cards: "TS ZZ"}); sabot.ErrorCode(err) != sabot.EINVALID {
		t.Errorf("force-cards TS ZZ: %v", err)
	}
}
