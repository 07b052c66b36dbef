package recall

import (
	"sabot/card"
	"sabot/money"
)

// Views of the records of a round that other parts of the server write: the
// fields recall reads, under the same JSON names as their writers'.

// Action is a decision as the log and the API have it: an engine.Action
// with the action's name (the server's WireAction, the same JSON).
type Action struct {
	Kind   string       `json:"action"`
	Player string       `json:"player,omitempty"`
	Box    int          `json:"box,omitempty"`
	Hand   int          `json:"hand,omitempty"`
	Stake  money.Amount `json:"stake,omitempty"`
	Value  int          `json:"value,omitempty"`
}

// decision is a decision's record (sabot.LogAction, sabot.LogTimeout).
type decision struct {
	Round     int    `json:"round"`
	Action    Action `json:"action"`
	ByTimeout bool   `json:"by_timeout,omitempty"`
}

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

// change is a configuration change (sabot.LogConfigure): the options in
// force from it on.
type change struct {
	Options map[string]string `json:"options"`
}
