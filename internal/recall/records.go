package recall

import (
	"sabot/internal/wire"
)

// The persisted form of a round and of a shoe: the payloads of the table
// log's records that recall reads whole (sabot.LogRecord.Payload), which
// the table server writes. They are part of the stored format: fields are
// added, never renamed. The records of a round that other subsystems write
// (a decision, a card read, a configuration change) recall reads through
// views of its own (views.go): it may not import their writers.

// ShoeStart starts a shoe (sabot.LogShoe). The seed stays in the server
// until the shoe is revealed; clients see the commitment only, and the log
// has the seed sealed with the server's seed key (package seal). Stores
// written before seeds were sealed have it in the clear, in Seed.
type ShoeStart struct {
	Shoe       int    `json:"shoe"`
	Seed       string `json:"seed,omitempty"`   // hex: a store of an older sabot, or a server without a seed key
	Sealed     string `json:"sealed,omitempty"` // the seed, sealed (seal.Key.Seal)
	Commitment string `json:"commitment"`
	// Options are the table's options when the shoe was prepared, when a
	// configuration change had changed them from those it was created with
	// (null: none had; {} is the profile's own values).
	Options map[string]string `json:"options"`
	// Steps: the shoe waits for the inspector's authorisation and a
	// player's cut (ShoeStep records; player_cut, AR-07, EG-02), and the
	// commitment covers its order after the shuffle, before the cut. A
	// shoe without it was cut at once, at random, and its commitment
	// covers the order after the cut.
	Steps bool `json:"steps,omitempty"`
}

// ShoeStep is a step a new shoe took before its first deal
// (sabot.LogShoeStep; AR-07, EG-02): the authorisation of its shuffle
// (000 item 5: «con autorización del Inspector o Jefe de Mesa») or its cut
// (AR-07; 003 §10: «se presentarán a uno de los jugadores para un nuevo y
// final corte»).
type ShoeStep struct {
	Shoe int    `json:"shoe"`
	Step string `json:"step"`         // "authorise" or "cut"
	By   string `json:"by"`           // who authorised, who cut
	Role string `json:"role"`         // "inspector", "pit" or "player"
	At   int    `json:"at,omitempty"` // the cut: cards moved to the back (AR-07)
	// Timeout: nobody cut within the table's window, and the cut is the
	// inspector's, at a position drawn by the server.
	Timeout bool `json:"timeout,omitempty"`
	// A physical shoe's cut, by hand: Box is the box of the player who
	// cut, Recorded who recorded it at the dealer's console (record-cut;
	// At is not known).
	Box      int    `json:"box,omitempty"`
	Recorded string `json:"recorded,omitempty"`
}

// Shoe steps (ShoeStep.Step).
const (
	StepAuthorise = "authorise"
	StepCut       = "cut"
)

// Reveal is a shoe's seed, revealed once the shoe is over
// (sabot.LogShoeReveal).
type Reveal struct {
	Shoe       int    `json:"shoe"`
	Seed       string `json:"seed"`
	Commitment string `json:"commitment"`
}

// BetResult is one bet of a settled round: its stake, result and net.
type BetResult = wire.BetResult

// HandResult is one hand of a settled round: its cards, total and result.
type HandResult = wire.HandResult

// A round's deal and settlement are tablelog.Deal and tablelog.Settle.

// RoundID names a round: table and round number, "3-17".
func RoundID(table int64, round int) string { return wire.RoundID(table, round) }

// ShoeID names a shoe: table and shoe number, "3-2".
func ShoeID(table int64, no int) string { return RoundID(table, no) }

// ParseRoundID reads a round's or a shoe's ID, "TABLE-N".
func ParseRoundID(s string) (table int64, n int, err error) { return wire.ParseRoundID(s) }
