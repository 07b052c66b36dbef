// Package wire is the table server's API as types: the bodies a client
// sends (a table command's request, a registration, a credit), the answers
// it reads (a command's result, a user, a round's record, a shoe), the
// views of a table, its events and the WebSocket's messages. The server
// and every Go client import it, so that a client never lives inside the
// server (docs/protocol.md and docs/openapi.yaml describe the same JSON).
//
// The ops and the event kinds are constants (names.go); a table command is
// an envelope and its op's own request (command.go), read strictly
// (DecodeCommand, DecodeRequest). Money is money.Amount, a JSON number of
// minor units (no wire change from an int64); a body is read strictly
// (Decode): every field spelled exactly as its tag, at most once, nothing
// after the object.
package wire
