package actor

import (
	"encoding/json"
	"reflect"
	"strings"
	"testing"

	"sabot"
	"sabot/internal/wire"
)

// readBody reads a command's request out of what a Go client fills
// (wire.CommandRequest), as the server reads the JSON it marshals to: the
// envelope, the op's own request, its check.
func readBody(cmd *Op, body wire.CommandRequest) (any, error) {
	data, err := json.Marshal(body)
	if err != nil {
		return nil, err
	}
	_, b, err := wire.DecodeCommand(data)
	if err != nil {
		return nil, err
	}
	req, err := cmd.decode(b)
	if err != nil {
		return nil, err
	}
	return cmd.check(req)
}

// Every op of wire's has a command in the registry and back, and each
// command decodes the request wire names for its op: its own fields read,
// another command's refused (invalid) with a one-line reason.
func TestEveryCommandReadsItsRequest(t *testing.T) {
	reqs := wire.Requests()
	if len(tableCommands) != len(reqs) || len(wire.Ops()) != len(reqs) {
		t.Fatalf("%d commands, %d requests, %d ops", len(tableCommands), len(reqs), len(wire.Ops()))
	}
	for _, op := range wire.Ops() {
		if tableCommandNamed(op) == nil {
			t.Errorf("no command %s", op)
		}
	}
	bank := "ana"
	want := map[string]struct {
		body string
		req  any
	}{
		wire.OpSit:              {`{"command_id":"c","box":2}`, wire.Sit{Box: 2}},
		wire.OpLeave:            {`{"command_id":"c","walk_in":3}`, wire.Leave{}},
		wire.OpBet:              {`{"command_id":"c","box":2,"stake":500}`, wire.Bet{Box: 2, Stake: 500}},
		wire.OpWithdraw:         {`{"command_id":"c","box":2}`, wire.Withdraw{Box: 2}},
		wire.OpAct:              {`{"command_id":"c","box":2,"hand":1,"stake":500,"action":"double","value":11}`, wire.Act{Box: 2, Hand: 1, Stake: 500, Action: "double", Value: 11}},
		wire.OpDecline:          {`{"command_id":"c","box":2,"hand":1}`, wire.Decline{Box: 2, Hand: 1}},
		wire.OpForceCards:       {`{"command_id":"c","cards":"TS 9H"}`, wire.ForceCards{Cards: "TS 9H"}},
		wire.OpNewShoe:          {`{"command_id":"c"}`, wire.NewShoe{}},
		wire.OpVoid:             {`{"command_id":"c"}`, wire.Void{}},
		wire.OpConfigure:        {`{"command_id":"c","options":{"max_bet":"500"},"bank":"ana","reason":"why"}`, wire.Configure{Options: map[string]string{"max_bet": "500"}, Bank: &bank, Reason: "why"}},
		wire.OpCutShoe:          {`{"command_id":"c","value":40}`, wire.CutShoe{Value: 40}},
		wire.OpBuyIn:            {`{"command_id":"c","box":2,"stake":5000}`, wire.BuyIn{Box: 2, Amount: 5000}},
		wire.OpRuling:           {`{"command_id":"c","reason":"the card stands"}`, wire.Ruling{Text: "the card stands"}},
		wire.OpCorrect:          {`{"command_id":"c","case":"a","box":2}`, wire.Correct{Case: "a", Box: 2}},
		wire.OpApprove:          {`{"command_id":"c","correction":7}`, wire.Approve{Correction: 7}},
		wire.OpSeatWalkIn:       {`{"command_id":"c","box":2}`, wire.SeatWalkIn{Box: 2}},
		wire.OpCard:             {`{"command_id":"c","card":"7C"}`, wire.Card{Card: "7C"}},
		wire.OpCardStands:       {`{"command_id":"c"}`, wire.CardStands{}},
		wire.OpNoMoreBets:       {`{"command_id":"c"}`, wire.NoMoreBets{}},
		wire.OpUndoCard:         {`{"command_id":"c"}`, wire.UndoCard{}},
		wire.OpCashOut:          {`{"command_id":"c","box":2}`, wire.CashOut{Box: 2}},
		wire.OpAuthoriseShuffle: {`{"command_id":"c"}`, wire.AuthoriseShuffle{}},
		wire.OpCutCard:          {`{"command_id":"c"}`, wire.CutCard{}},
		wire.OpRecordCut:        {`{"command_id":"c","box":3}`, wire.RecordCut{Box: 3}},
		wire.OpSkippedEleven:    {`{"command_id":"c"}`, wire.SkippedEleven{}},
		wire.OpRefuseCorrection: {`{"command_id":"c","correction":7}`, wire.RefuseCorrection{Correction: 7}},
		wire.OpDeal:             {`{"command_id":"c"}`, wire.Deal{}},
		wire.OpCloseTable:       {`{"command_id":"c","to":4,"reason":"few players"}`, wire.CloseTable{To: 4, Reason: "few players"}},
		wire.OpReopenTable:      {`{"command_id":"c"}`, wire.ReopenTable{}},
	}
	for _, c := range tableCommands {
		w, ok := want[c.name]
		if !ok {
			t.Errorf("%s: no body to read", c.name)
			continue
		}
		_, body, err := wire.DecodeCommand([]byte(w.body))
		if err != nil {
			t.Fatalf("%s: %v", c.name, err)
		}
		req, err := c.decode(body)
		if err != nil || !reflect.DeepEqual(req, w.req) {
			t.Errorf("%s: read %#v (%v), want %#v", c.name, req, err, w.req)
		}
		if reflect.TypeOf(req) != reflect.TypeOf(reqs[c.name]) {
			t.Errorf("%s: reads a %T; wire names a %T", c.name, req, reqs[c.name])
		}
		// A field of another command's is refused, with what it takes.
		other := `{"command_id":"c","correction":1}`
		if c.name == wire.OpApprove || c.name == wire.OpRefuseCorrection {
			other = `{"command_id":"c","cards":"TS"}`
		}
		_, body, _ = wire.DecodeCommand([]byte(other))
		_, err = c.decode(body)
		if msg := sabot.ErrorMessage(err); sabot.ErrorCode(err) != sabot.EINVALID || !strings.HasPrefix(msg, "bad JSON body: "+c.name+" has no field ") || strings.Contains(msg, "\n") {
			t.Errorf("%s %s: %v", c.name, other, err)
		}
	}
	// A wire request's own check refuses as the command's read did.
	if _, err := readBody(tableCommandNamed(wire.OpForceCards), wire.CommandRequest{CommandID: "c2", Cards: "TS ZZ"}); sabot.ErrorCode(err) != sabot.EINVALID {
		t.Errorf("force-cards TS ZZ: %v", err)
	}
}
