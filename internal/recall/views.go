package recall

import (
	"sabot/card"
	"sabot/internal/wire"
)

// Views of the records that other parts of the server write (a decision,
// a card read, a configuration change, a table's opening): the fields
// recall reads or says, under the same JSON names as their writers'.
// Recall may not import their writers (the server, the staff's live table,
// player care, the operator's wallet). The significant events (the pit's,
// the server's, the staff's) are wire.AdminEvent, which every writer and
// recall share.

// Action is a decision as the log and the API have it: an engine.Action
// with the action's name (the server's WireAction, the same JSON).
type Action = wire.Action

// cardRead is a card read into a physical round, or taken back
// (sabot.LogCard, sabot.LogCardUndo).
type cardRead struct {
	Card   card.Card `json:"card"`
	By     string    `json:"by"`
	Device int64     `json:"device,omitempty"`
}

// cutCard is the cut card's coming out of a physical shoe
// (sabot.LogCutCard).
type cutCard struct {
	By string `json:"by"`
}

// A decision and a configuration change are tablelog.Decision and
// tablelog.Configure.

// opened is a table's opening (sabot.LogTableOpened).
type opened struct {
	Name     string            `json:"name"`
	Profile  string            `json:"profile"`
	Options  map[string]string `json:"options,omitempty"`
	TestMode bool              `json:"test_mode,omitempty"`
}
