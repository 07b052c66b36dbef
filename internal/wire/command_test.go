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

// oldBody is the body every command decoded before each had its own
// request (internal/server's CommandRequest), its stake an int64: what the
// wire said then, to hold today's to.
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

// requests are the commands' own requests, each a zero value.
var requests = []any{Sit{}, Leave{}, Deal{}, Bet{}, Withdraw{}, Act{}, Decline{}, ForceCards{}, NewShoe{}, Void{}, Configure{}, AuthoriseShuffle{}, CutShoe{}}

// Every field of a command's request is a field of the body, under the
// same JSON name and of the same type: so Take never fails on a body that
// Decode took, and a request says nothing the body cannot.
func TestRequestsAreTheBody(t *testing.T) {
	body := map[string]reflect.Type{}
	bt := reflect.TypeOf(CommandRequest{})
	for i := range bt.NumField() {
		name, _, _ := strings.Cut(bt.Field(i).Tag.Get("json"), ",")
		body[name] = bt.Field(i).Type
	}
	for _, r := range requests {
		rt := reflect.TypeOf(r)
		for i := range rt.NumField() {
			f := rt.Field(i)
			name, opts, _ := strings.Cut(f.Tag.Get("json"), ",")
			if body[name] != f.Type {
				t.Errorf("%s.%s: json %q of type %v; the body's is of type %v", rt.Name(), f.Name, name, f.Type, body[name])
			}
			if opts != "omitempty" {
				t.Errorf("%s.%s: json %q is not omitempty, as the body's is", rt.Name(), f.Name, name)
			}
		}
	}
}

// Each command's request, taken out of a body, is what the command read
// out of the one body every command decoded before: its own fields, the
// others' ignored.
func TestTakeReadsWhatTheBodySays(t *testing.T) {
	bank := ""
	ana := "ana"
	for _, c := range []struct {
		body string
		take func(CommandRequest) (any, error)
		want any
	}{
		{`{"op":"sit","command_id":"c1","box":3}`, take[Sit], Sit{Box: 3}},
		// Another command's fields are checked by the body, not read.
		{`{"command_id":"c2","box":2,"hand":1,"action":"stand","stake":100,"cards":"TS ZZ"}`, take[Sit], Sit{Box: 2}},
		{`{"command_id":"c3","walk_in":4}`, take[Leave], Leave{}},
		{`{"command_id":"c4","box":1,"stake":2500}`, take[Bet], Bet{Box: 1, Stake: 2500}},
		{`{"command_id":"c5","box":1,"stake":-5,"hand":2}`, take[Bet], Bet{Box: 1, Stake: -5}},
		{`{"command_id":"c6","box":5}`, take[Withdraw], Withdraw{Box: 5}},
		{`{"command_id":"c7","box":1,"hand":2,"action":"double","stake":400,"value":11}`, take[Act], Act{Box: 1, Hand: 2, Action: "double", Stake: 400, Value: 11}},
		{`{"command_id":"c8","action":"hit"}`, take[Act], Act{Action: "hit"}},
		{`{"command_id":"c9","box":2,"hand":1}`, take[Decline], Decline{Box: 2, Hand: 1}},
		{`{"command_id":"c10","cards":"TS 9H 7C 8D"}`, take[ForceCards], ForceCards{Cards: "TS 9H 7C 8D"}},
		{`{"command_id":"c11","box":1}`, take[NewShoe], NewShoe{}},
		{`{"command_id":"c12"}`, take[Void], Void{}},
		{`{"command_id":"c13","options":{"max_bet":"500"},"reason":"why"}`, take[Configure], Configure{Options: map[string]string{"max_bet": "500"}, Reason: "why"}},
		{`{"command_id":"c14","bank":""}`, take[Configure], Configure{Bank: &bank}},
		// An empty map stays as the body read it, as the union gave it the command before.
		{`{"command_id":"c15","bank":"ana","options":{}}`, take[Configure], Configure{Bank: &ana, Options: map[string]string{}}},
	} {
		var body CommandRequest
		if err := Decode([]byte(c.body), &body); err != nil {
			t.Fatalf("%s: %v", c.body, err)
		}
		got, err := c.take(body)
		if err != nil {
			t.Fatalf("%s: %v", c.body, err)
		}
		if !reflect.DeepEqual(got, c.want) {
			t.Errorf("%s: took %#v, want %#v", c.body, got, c.want)
		}
		// The same, on the wire, as decoding the request from the body's
		// JSON.
		direct := reflect.New(reflect.TypeOf(c.want))
		err = json.Unmarshal([]byte(c.body), direct.Interface())
		a, _ := json.Marshal(direct.Elem().Interface())
		b, _ := json.Marshal(got)
		if err != nil || string(a) != string(b) {
			t.Errorf("%s: decoded as %s (%v), taken as %s", c.body, a, err, b)
		}
	}
}

func take[R any](b CommandRequest) (any, error) { return Take[R](b) }

// The body is read as strictly as before: a field no command has, a field
// in another case, a field twice, something after the object, a stake
// that is not an integer or beyond an int64, are refused (invalid), as
// they were.
func TestDecodeRefusesAsBefore(t *testing.T) {
	for _, c := range []struct{ body, text string }{
		{`{"command_id":"b1","box":1,"Stake":100}`, `bad JSON body: unknown field "Stake" (field names are exact: "stake")`},
		{`{"command_id":"b1","box":1,"colour":"red"}`, `bad JSON body: unknown field "colour"`},
		{`{"command_id":"b1","box":1,"box":2}`, `bad JSON body: the field "box" is given twice`},
		{`{"command_id":"b1","box":1}{}`, "bad JSON body: something follows the JSON object"},
		{`["b1"]`, "bad JSON body: a JSON object is expected"},
		{``, "bad JSON body: no JSON object"},
		{`{"command_id":"b1","stake":1.5}`, "bad JSON body: json: cannot unmarshal number 1.5"},
		{`{"command_id":"b1","stake":9223372036854775808}`, "bad JSON body: json: cannot unmarshal number 9223372036854775808"},
		{`{"command_id":"b1","stake":"100"}`, "bad JSON body: json: cannot unmarshal string"},
	} {
		var body CommandRequest
		err := Decode([]byte(c.body), &body)
		if sabot.ErrorCode(err) != sabot.EINVALID || !strings.HasPrefix(sabot.ErrorMessage(err), c.text) {
			t.Errorf("%s: %v, want invalid: %s", c.body, err, c.text)
		}
		// And the same refusal where the body was an int64's.
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

// Take copies a body's fields into a request by their JSON names, maps and
// pointers included, and refuses a request type with a field the body has
// not, or has of another type.
func TestTakeCopiesByName(t *testing.T) {
	bank := "ana"
	body := CommandRequest{Op: "configure", CommandID: "c1", Box: 2, Hand: 1, Stake: 700, Action: "double", Value: 11,
		Options: map[string]string{"decks": "6"}, Bank: &bank, Reason: "why"}
	act, err := Take[Act](body)
	if err != nil || act != (Act{Box: 2, Hand: 1, Stake: 700, Action: "double", Value: 11}) {
		t.Fatalf("Take[Act] = %+v, %v", act, err)
	}
	cfg, err := Take[Configure](body)
	if err != nil || cfg.Options["decks"] != "6" || cfg.Bank == nil || *cfg.Bank != "ana" || cfg.Reason != "why" {
		t.Fatalf("Take[Configure] = %+v, %v", cfg, err)
	}
	if _, err := Take[struct {
		Box string `json:"box"`
	}](body); sabot.ErrorCode(err) != sabot.EINTERNAL {
		t.Errorf("a request whose box is a string: %v, want internal", err)
	}
	if _, err := Take[struct {
		Nope int `json:"nope"`
	}](body); sabot.ErrorCode(err) != sabot.EINTERNAL {
		t.Errorf("a request with a field the body has not: %v, want internal", err)
	}
}

// BenchmarkTake is a command's request read out of its body, once a
// decision: a copy of the fields, no JSON.
func BenchmarkTake(b *testing.B) {
	body := CommandRequest{Op: "act", Box: 1, Hand: 1, Action: "hit"}
	for b.Loop() {
		if _, err := Take[Act](body); err != nil {
			b.Fatal(err)
		}
	}
}
