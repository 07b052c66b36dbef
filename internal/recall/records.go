package recall

import (
	"sabot/internal/wire"
)

// The persisted form of a round and of a shoe: the payloads of the table
// log's records that recall reads whole (sabot.LogRecord.Payload), which
// the table server writes. They are part of the stored format: fields are
// added, never renamed. The records of a round that other subsystems write
// (a decision, a card read, a configuration change) recall reads through
// the same internal/tablelog types (views.go).

// A shoe's start, steps and reveal are tablelog.ShoeStart, tablelog.ShoeStep
// and tablelog.Reveal.

// A round's deal and settlement are tablelog.Deal and tablelog.Settle.

// RoundID names a round: table and round number, "3-17".
func RoundID(table int64, round int) string { return wire.RoundID(table, round) }

// ShoeID names a shoe: table and shoe number, "3-2".
func ShoeID(table int64, no int) string { return RoundID(table, no) }

// ParseRoundID reads a round's or a shoe's ID, "TABLE-N".
func ParseRoundID(s string) (table int64, n int, err error) { return wire.ParseRoundID(s) }
