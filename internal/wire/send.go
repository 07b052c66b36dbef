package wire

import (
	"reflect"
	"strings"

	"sabot/money"
)

// CommandRequest is what a Go client fills to send any table command (the
// bots, `sabot play`, the tests): the envelope and the fields an op's
// request may have, each under its JSON name, so that it marshals to the
// JSON the web client sends. The server never reads one: it reads the
// envelope and the op's own request (DecodeCommand, DecodeRequest), which
// refuses a field of another op's. Stake is a bet's or a decision's stake
// and a buy-in's amount (BuyIn.Amount), Reason a configuration's reason
// and a ruling's text (Ruling.Text), Card a card read or burned, as the
// JSON names them.
type CommandRequest struct {
	Op         string            `json:"op,omitempty"`
	CommandID  string            `json:"command_id"`
	ClientID   string            `json:"client_id,omitempty"`
	Box        int               `json:"box,omitempty"`
	Hand       int               `json:"hand,omitempty"`
	Stake      money.Amount      `json:"stake,omitempty"`
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
	To         int64             `json:"to,omitempty"`
}

// Only is the request with the envelope and the fields op's request has,
// the others cleared: what a Go client sends for op (a field of another
// op's, which the one body every command had took and did not read, is
// refused now: DecodeRequest). An op with no request (a socket's
// snapshot, an unknown name) keeps every field.
func (r CommandRequest) Only(op string) CommandRequest {
	req, ok := Requests()[op]
	if !ok {
		return r
	}
	keep := jsonNames(reflect.TypeOf(req))
	v := reflect.ValueOf(&r).Elem()
	for i := range v.NumField() {
		name := jsonName(v.Type().Field(i))
		if !keep[name] && !envelopeNames[name] {
			v.Field(i).SetZero()
		}
	}
	return r
}

// jsonName is the name a struct field has in JSON.
func jsonName(f reflect.StructField) string {
	name, _, _ := strings.Cut(f.Tag.Get("json"), ",")
	if name == "" {
		return f.Name
	}
	return name
}
