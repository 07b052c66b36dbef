package actor

import (
	"encoding/json"

	"sabot"
	"sabot/internal/seal"
	"sabot/money"
	"sabot/rules"
)

// The payloads of the table log's records (sabot.LogRecord.Payload). They
// are part of the stored format: fields are added, never renamed. A
// round's (a deal, a settlement) are internal/tablelog's (tablelog.Deal,
// tablelog.Settle), a shoe's start and reveal still recall's
// (recall.ShoeStart, recall.Reveal); each kind's entry is in logkinds.go.

type openedPayload struct {
	Name     string            `json:"name"`
	Profile  string            `json:"profile"`
	Options  map[string]string `json:"options,omitempty"`
	TestMode bool              `json:"test_mode,omitempty"`
	// ShoeSteps: the table's new shoes wait for the inspector's
	// authorisation and a player's cut where its profile asks them
	// (player_cut; AR-07, EG-02). A log that predates the steps has not
	// it, and its table never waits for them.
	ShoeSteps bool `json:"shoe_steps,omitempty"`
	// PhysicalSteps: at a table dealt from a physical shoe too, its new
	// shoes wait for them, which the dealer's console records (who
	// authorised the shuffle, who cut). A log that
	// predates them has not it: its physical shoes never wait.
	PhysicalSteps bool `json:"physical_steps,omitempty"`
}

type seatPayload struct {
	Player string `json:"player"`
	// Box is the box taken (sit) or, on a leave, the one box given up
	// (AR-21: the seat was not bet on; 0: every box the player holds).
	Box int `json:"box,omitempty"`
	// Returned is what a leaving player's bets for the next round gave back.
	Returned money.Amount `json:"returned,omitempty"`
	// Reason says why the server gave the seat up (AR-21); "" when the
	// player left.
	Reason string `json:"reason,omitempty"`
}

// MustJSON is a payload as the log keeps it: JSON, which every payload
// type marshals to.
func MustJSON(v any) json.RawMessage {
	b, err := json.Marshal(v)
	if err != nil {
		panic(err)
	}
	return b
}

var (
	seedHex   = seal.SeedHex
	parseSeed = seal.ParseSeed
)

// profileOf builds a table's profile from its configuration.
func profileOf(profile string, options map[string]string) (*rules.Profile, error) {
	return sabot.ProfileOf(profile, options)
}
