package server

import (
	"encoding/json"
	"reflect"
	"sabot/internal/actor"
	"sabot/internal/wire"
	"strings"
	"testing"

	"sabot"
)

// FuzzWSCommand feeds the decoder of the WebSocket's messages anything: it
// never panics, and gives either a clear refusal (invalid or forbidden, one
// short line) or a valid command: a known op, a player's op (or, for an
// administrator, an administrator's), from the JSON the message is. The
// seed corpus is in testdata/fuzz/FuzzWSCommand (`go test -fuzz
// FuzzWSCommand ./internal/server`).
func FuzzWSCommand(f *testing.F) {
	f.Add([]byte(`{"op":"sit","command_id":"c-1","box":3}`), false)
	s := &Server{}
	s.host = &actor.Host{CheckID: s.checkID}
	player := &sabot.User{ID: 7, Name: "ana"}
	admin := &sabot.User{ID: 1, Name: "pit", Admin: true}
	f.Fuzz(func(t *testing.T, data []byte, asAdmin bool) {
		u := player
		if asAdmin {
			u = admin
		}
		req, c, err := s.decodeWS(u, nil, data)
		if err != nil {
			code, msg := sabot.ErrorCode(err), sabot.ErrorMessage(err)
			if code != sabot.EINVALID && code != sabot.EFORBIDDEN {
				t.Fatalf("%q: refused with code %s (%v), want invalid or forbidden", data, code, err)
			}
			if msg == "" || strings.ContainsAny(msg, "\n\r") || len(msg) > 300 {
				t.Fatalf("%q: the refusal is not one short line: %q", data, msg)
			}
			if c != nil {
				t.Fatalf("%q: refused (%v) and a command", data, err)
			}
			return
		}
		if !json.Valid(data) {
			t.Fatalf("%q: accepted, and not JSON", data)
		}
		if req.Op == wire.OpSnapshot || req.Op == wire.OpPing {
			if c != nil {
				t.Fatalf("%q: a snapshot request gives a command %+v", data, c)
			}
			return
		}
		if c == nil || c.Op() == nil || c.Op().Name() != req.Op || c.User() != u || c.ID() != req.CommandID || !readFrom(c.Request(), data) {
			t.Fatalf("%q: accepted as %+v from %+v", data, c, req)
		}
		if c.Op() != actor.OpNamed(c.Op().Name()) || c.Op().Allows(u, nil) != nil {
			t.Fatalf("%q: op %q accepted from %s", data, c.Op().Name(), u.Name)
		}
		if f, ok := c.Request().(wire.ForceCards); ok && len(f.Cards) == 0 {
			t.Fatalf("%q: forced cards accepted without a card", data)
		}
	})
}

// readFrom says whether each field of a command's wire request is the
// message's field of its JSON name (but the cards of force-cards, which
// are parsed; a live table's requests are read from theirs by their own
// tests).
func readFrom(req any, data []byte) bool {
	if reflect.TypeOf(req).PkgPath() != "sabot/internal/wire" {
		return true
	}
	var body, got map[string]any
	b, _ := json.Marshal(req)
	if json.Unmarshal(data, &body) != nil || json.Unmarshal(b, &got) != nil {
		return false
	}
	for k, v := range got {
		if k != "cards" && !reflect.DeepEqual(v, body[k]) {
			return false
		}
	}
	return true
}
