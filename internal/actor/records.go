package actor

import (
	"encoding/json"

	"sabot"
	"sabot/internal/seal"
	"sabot/rules"
)

// The payloads of the table log's records (sabot.LogRecord.Payload). They
// are part of the stored format: fields are added, never renamed. Each is
// internal/tablelog's; each kind's entry is in logkinds.go.

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
