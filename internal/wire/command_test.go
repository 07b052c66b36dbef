package wire

import (
	"encoding/json"
	"reflect"
	"strconv"
	"strings"
	"testing"

	"sabot"
	"sabot/card"
	"sabot/money"
)

// oldBody is the one body every command decoded before each had its own
// request (wire.CommandRequest, internal/server's before it), its stake an
// int64: what the wire said then, to hold today's to.
type oldBody struct {
	Op         string            `json:"op,omitempty"`
	CommandID  string            `json:"command_id"`
	ClientID   string            `json:"client_id,omitempty"`
	Box        int               `json:"box,omitempty"`
	Hand       int               `json:"hand,omitempty"`
	Stake      int64             `json:"stake,omitempty"`
	Action     string            `json:"action,omitempty"`
	Value      int               `json:"value,omitempty"`
	Cards      string            `json:"cards,omitempty"`
	Card       string            `json:"card,omitempty"`
	Case       string            `json:"case,omitempty"`
	Correction int64             `json:"correction,omitempty"`
	WalkIn     int               `json:"walk_in,omitempty"`
	Options    map[string]string `json:"options,omitempty"`
	Bank       *string           `json:"bank,omitempty"`
	Reason     string            `json:"reason,omitempty"`
}

// Every field of a command's request is a field a Go client can fill
// (CommandRequest) under the same JSON name and of the same type, and no
// field of the envelope's: so every request can be sent from Go, and json
// reads a request out of the whole object (DecodeRequest) without the
// envelope's fields matching one of its own in another case.
func TestRequestsAreWhatClientsSend(t *testing.T) {
	sent := map[string]reflect.Type{}
	ct := reflect.TypeOf(CommandRequest{})
	for i := range ct.NumField() {
		name, _, _ := strings.Cut(ct.Field(i).Tag.Get("json"), ",")
		sent[name] = ct.Field(i).Type
	}
	for op, r := range Requests() {
		rt := reflect.TypeOf(r)
		for i := range rt.NumField() {
			f := rt.Field(i)
			name, opts, _ := strings.Cut(f.Tag.Get("json"), ",")
			if sent[name] != f.Type {
				t.Errorf("%s: %s.%s: json %q of type %v; a client's is of type %v", op, rt.Name(), f.Name, name, f.Type, sent[name])
			}
			if opts != "omitempty" {
				t.Errorf("%s: %s.%s: json %q is not omitempty, as a client's is", op, rt.Name(), f.Name, name)
			}
			for env := range envelopeNames {
				if strings.EqualFold(env, name) {
					t.Errorf("%s: %s.%s: json %q is the envelope's %q", op, rt.Name(), f.Name, name, env)
				}
			}
		}
	}
	if len(Requests()) != len(Ops()) {
		t.Fatalf("%d requests for %d ops", len(Requests()), len(Ops()))
	}
	for _, op := range Ops() {
		if _, ok := Requests()[op]; !ok {
			t.Errorf("op %s has no request", op)
		}
	}
}

// Each command's request, read out of a command's object, is what the
// command read out of the one body every command decoded before: its own
// fields; the envelope's are the envelope's.
func TestRequestReadsWhatTheBodySays(t *testing.T) {
	bank := ""
	ana := "ana"
	for _, c := range []struct {
		body string
		read func(Body) (any, error)
		want any
		env  Envelope
	}{
		{`{"op":"sit","command_id":"c1","box":3}`, read[Sit](OpSit), Sit{Box: 3}, Envelope{Op: "sit", CommandID: "c1"}},
		{`{"command_id":"c3","walk_in":4,"client_id":"k"}`, read[Leave](OpLeave), Leave{}, Envelope{CommandID: "c3", WalkIn: 4, ClientID: "k"}},
		{`{"command_id":"c4","box":1,"stake":2500}`, read[Bet](OpBet), Bet{Box: 1, Stake: 2500}, Envelope{CommandID: "c4"}},
		{`{"command_id":"c5","box":1,"stake":-5}`, read[Bet](OpBet), Bet{Box: 1, Stake: -5}, Envelope{CommandID: "c5"}},
		{`{"command_id":"c6","box":5}`, read[Withdraw](OpWithdraw), Withdraw{Box: 5}, Envelope{CommandID: "c6"}},
		{`{"command_id":"c7","box":1,"hand":2,"action":"double","stake":400,"value":11}`, read[Act](OpAct), Act{Box: 1, Hand: 2, Action: "double", Stake: 400, Value: 11}, Envelope{CommandID: "c7"}},
		{`{"command_id":"c8","action":"hit"}`, read[Act](OpAct), Act{Action: "hit"}, Envelope{CommandID: "c8"}},
		{`{"command_id":"c9","box":2,"hand":1}`, read[Decline](OpDecline), Decline{Box: 2, Hand: 1}, Envelope{CommandID: "c9"}},
		{`{"command_id":"c10","cards":"TS 9H 7C 8D"}`, read[ForceCards](OpForceCards), ForceCards{Cards: "TS 9H 7C 8D"}, Envelope{CommandID: "c10"}},
		{`{"command_id":"c12"}`, read[Void](OpVoid), Void{}, Envelope{CommandID: "c12"}},
		{`{"command_id":"c13","options":{"max_bet":"500"},"reason":"why"}`, read[Configure](OpConfigure), Configure{Options: map[string]string{"max_bet": "500"}, Reason: "why"}, Envelope{CommandID: "c13"}},
		{`{"command_id":"c14","bank":""}`, read[Configure](OpConfigure), Configure{Bank: &bank}, Envelope{CommandID: "c14"}},
		// An empty map stays as the body read it, as the union gave it the command before.
		{`{"command_id":"c15","bank":"ana","options":{}}`, read[Configure](OpConfigure), Configure{Bank: &ana, Options: map[string]string{}}, Envelope{CommandID: "c15"}},
		// The punned names of the one body, each its own field now.
		{`{"command_id":"c16","box":2,"stake":5000}`, read[BuyIn](OpBuyIn), BuyIn{Box: 2, Amount: 5000}, Envelope{CommandID: "c16"}},
		{`{"command_id":"c17","reason":"the card stands"}`, read[Ruling](OpRuling), Ruling{Text: "the card stands"}, Envelope{CommandID: "c17"}},
	} {
		env, body, err := DecodeCommand([]byte(c.body))
		if err != nil {
			t.Fatalf("%s: %v", c.body, err)
		}
		if env != c.env {
			t.Errorf("%s: the envelope %+v, want %+v", c.body, env, c.env)
		}
		got, err := c.read(body)
		if err != nil {
			t.Fatalf("%s: %v", c.body, err)
		}
		if !reflect.DeepEqual(got, c.want) {
			t.Errorf("%s: read %#v, want %#v", c.body, got, c.want)
		}
		// What the one body read and each command took of it.
		var old oldBody
		if err := Decode([]byte(c.body), &old); err != nil {
			t.Fatalf("%s: the old body: %v", c.body, err)
		}
		a, _ := json.Marshal(c.want)
		var fields map[string]any
		json.Unmarshal(a, &fields)
		for k, v := range fields {
			o := reflect.ValueOf(old)
			for i := range o.NumField() {
				if name, _, _ := strings.Cut(o.Type().Field(i).Tag.Get("json"), ","); name == k {
					ob, _ := json.Marshal(o.Field(i).Interface())
					vb, _ := json.Marshal(v)
					if string(ob) != string(vb) {
						t.Errorf("%s: %s is %s, the old body's %s", c.body, k, vb, ob)
					}
				}
			}
		}
	}
}

func read[R any](op string) func(Body) (any, error) {
	return func(b Body) (any, error) { return DecodeRequest[R](op, b) }
}

// A field of another command's, which the one body took and the command
// did not read, is refused by the command's own request (invalid), on one
// line, with the fields it has.
func TestRequestRefusesAnotherCommandsField(t *testing.T) {
	for _, c := range []struct {
		body string
		read func(Body) (any, error)
		text string
	}{
		{`{"command_id":"c2","box":2,"hand":1,"action":"stand"}`, read[Sit](OpSit), `bad JSON body: sit has no field "hand" (its fields: box)`},
		{`{"command_id":"c5","box":1,"stake":-5,"hand":2}`, read[Bet](OpBet), `bad JSON body: bet has no field "hand" (its fields: box, stake)`},
		{`{"command_id":"c11","box":1}`, read[NewShoe](OpNewShoe), `bad JSON body: new-shoe has no field "box" (it takes none besides command_id and client_id)`},
		{`{"command_id":"c12","stake":4611686018427387904}`, read[Leave](OpLeave), `bad JSON body: leave has no field "stake" (it takes none besides command_id and client_id)`},
		{`{"command_id":"c13","options":{"decks":"x"},"bank":"nobody","reason":"why"}`, read[Ruling](OpRuling), `bad JSON body: ruling has no field "options" (its fields: reason)`},
	} {
		_, body, err := DecodeCommand([]byte(c.body))
		if err != nil {
			t.Fatalf("%s: %v", c.body, err)
		}
		_, err = c.read(body)
		if sabot.ErrorCode(err) != sabot.EINVALID || sabot.ErrorMessage(err) != c.text {
			t.Errorf("%s: %v, want invalid: %s", c.body, err, c.text)
		}
	}
}

// A command is read as strictly as before: a field no command has, a
// field in another case, a field twice, something after the object, a
// stake that is not an integer or beyond an int64, are refused (invalid),
// as the one body refused them.
func TestDecodeRefusesAsBefore(t *testing.T) {
	for _, c := range []struct{ body, text string }{
		{`{"command_id":"b1","box":1,"Stake":100}`, `bad JSON body: unknown field "Stake" (field names are exact: "stake")`},
		{`{"command_id":"b1","box":1,"colour":"red"}`, `bad JSON body: unknown field "colour"`},
		{`{"command_id":"b1","box":1,"box":2}`, `bad JSON body: the field "box" is given twice`},
		{`{"command_id":"b1","box":1}{}`, "bad JSON body: something follows the JSON object"},
		{`{"command_id":"b1","box":1} x`, "bad JSON body: something follows the JSON object"},
		{`["b1"]`, "bad JSON body: a JSON object is expected"},
		{`null`, "bad JSON body: a JSON object is expected"},
		{``, "bad JSON body: no JSON object"},
		{`{"command_id":"b1","stake":1.5}`, "bad JSON body: json: cannot unmarshal number 1.5"},
		{`{"command_id":"b1","stake":9223372036854775808}`, "bad JSON body: json: cannot unmarshal number 9223372036854775808"},
		{`{"command_id":"b1","stake":"100"}`, "bad JSON body: json: cannot unmarshal string"},
		{`{"command_id":7}`, "bad JSON body: json: cannot unmarshal number"},
		{`{"command_id":7,"colour":1}`, `bad JSON body: unknown field "colour"`},
		{`{"command_id":"b1","box":1`, "bad JSON body: unexpected EOF"},
	} {
		_, body, err := DecodeCommand([]byte(c.body))
		if err == nil {
			_, err = DecodeRequest[Bet](OpBet, body)
		}
		if sabot.ErrorCode(err) != sabot.EINVALID || !strings.HasPrefix(sabot.ErrorMessage(err), c.text) || strings.Contains(sabot.ErrorMessage(err), "\n") {
			t.Errorf("%s: %v, want invalid: %s", c.body, err, c.text)
		}
		// And the same refusal from the one body every command was read from.
		var old oldBody
		errOld := Decode([]byte(c.body), &old)
		if sabot.ErrorCode(errOld) != sabot.EINVALID || !strings.HasPrefix(sabot.ErrorMessage(errOld), c.text) {
			t.Errorf("%s: the old body: %v, want invalid: %s", c.body, errOld, c.text)
		}
	}
}

// An Amount is a JSON number of minor units: a body marshals byte for byte
// as the old one with its int64 stake did, and reads back the same.
func TestBodyOnTheWireUnchanged(t *testing.T) {
	bank := "ana"
	for _, stake := range []int64{0, 1, -5, 2500, int64(money.Max), int64(money.Max) + 1, -1 << 63} {
		now := CommandRequest{Op: "act", CommandID: "c1", ClientID: "k", Box: 1, Hand: 2, Stake: money.Amount(stake), Action: "double",
			Value: 11, Cards: "TS", Card: "9H", Case: "a", Correction: 7, WalkIn: 3, Options: map[string]string{"x": "y"}, Bank: &bank, Reason: "r"}
		old := oldBody{Op: "act", CommandID: "c1", ClientID: "k", Box: 1, Hand: 2, Stake: stake, Action: "double",
			Value: 11, Cards: "TS", Card: "9H", Case: "a", Correction: 7, WalkIn: 3, Options: map[string]string{"x": "y"}, Bank: &bank, Reason: "r"}
		a, _ := json.Marshal(now)
		b, _ := json.Marshal(old)
		if string(a) != string(b) {
			t.Fatalf("stake %d: the body marshals as\n%s\nwas\n%s", stake, a, b)
		}
		var back CommandRequest
		if err := Decode(a, &back); err != nil || !reflect.DeepEqual(back, now) {
			t.Fatalf("stake %d: read back as %+v (%v)", stake, back, err)
		}
	}
	if b, _ := json.Marshal(Bet{Box: 1, Stake: 1050}); string(b) != `{"box":1,"stake":1050}` {
		t.Fatalf("a bet marshals as %s", b)
	}
}

// A stake beyond the most an amount may be, either way, is refused with
// the reason it always had; one within it goes on to the table's limits.
func TestCheckStake(t *testing.T) {
	for _, s := range []money.Amount{0, 1, -1, money.Max, -money.Max} {
		if err := CheckStake(s); err != nil {
			t.Errorf("stake %d: %v", s, err)
		}
	}
	for _, s := range []money.Amount{money.Max + 1, -money.Max - 1, 1<<63 - 1, -1 << 63} {
		err := CheckStake(s)
		want := "refused: a stake of " + strconv.FormatInt(int64(s), 10) + " minor units is beyond the most an amount may be (1000000000000000)"
		if sabot.ErrorCode(err) != sabot.EINVALID || sabot.ErrorMessage(err) != want {
			t.Errorf("stake %d: %v, want invalid: %s", s, err, want)
		}
	}
}

// Forced cards are refused when read, with the reasons they had: none
// given, or a code that is not a card's.
func TestForceCardsCheck(t *testing.T) {
	for _, c := range []struct{ cards, text string }{
		{"", `forced cards: give the card codes in dealing order, e.g. "TS 9H 7C 8D"`},
		{"TS ZZ", "forced cards: "},
	} {
		err := ForceCards{Cards: c.cards}.Check()
		if sabot.ErrorCode(err) != sabot.EINVALID || !strings.HasPrefix(sabot.ErrorMessage(err), c.text) {
			t.Errorf("%q: %v", c.cards, err)
		}
	}
	got, err := ForceCards{Cards: "TS 9H"}.Parse()
	if err != nil || !reflect.DeepEqual(got, []card.Card{card.MustParse("TS"), card.MustParse("9H")}) {
		t.Fatalf("TS 9H: %v %v", got, err)
	}
}

// BenchmarkDecodeCommand is a decision as a socket's message is read:
// its envelope, then its own request (before: the one body every command
// had, strictly, and the request copied out of it).
func BenchmarkDecodeCommand(b *testing.B) {
	data := []byte(`{"op":"act","command_id":"c123","client_id":"k1","box":1,"hand":1,"action":"hit"}`)
	for b.Loop() {
		env, body, err := DecodeCommand(data)
		if err != nil || env.Op != OpAct {
			b.Fatal(err)
		}
		if _, err := DecodeRequest[Act](env.Op, body); err != nil {
			b.Fatal(err)
		}
	}
}
