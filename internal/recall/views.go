package recall

import (
	"sabot/card"
	"sabot/internal/wire"
	"sabot/money"
)

// Views of the records that other parts of the server write (a decision,
// a card read, a configuration change, a table's opening, the pit's
// events): the fields recall reads or says, under the same JSON names as
// their writers'. Recall may not import their writers (the server, the
// staff's live table, player care, the operator's wallet).

// Action is a decision as the log and the API have it: an engine.Action
// with the action's name (the server's WireAction, the same JSON).
type Action = wire.Action

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

// Change is a configuration change (sabot.LogConfigure) as recall reads
// and says it: the options in force from it on, what it set, the bank
// given, the bets it returned, a new shoe, who made it and why.
type Change struct {
	Options  map[string]string `json:"options"`
	Changed  map[string]string `json:"changed,omitempty"` // "": back to the profile's
	Bank     *string           `json:"bank,omitempty"`    // a family table's bank given ("": to the house)
	Returned []ReturnedBet     `json:"returned,omitempty"`
	NewShoe  bool              `json:"new_shoe,omitempty"`
	Reason   string            `json:"reason,omitempty"`
	By       string            `json:"by"`
}

// ReturnedBet is a bet a configuration change returned.
type ReturnedBet struct {
	Player string       `json:"player"`
	Box    int          `json:"box"`
	Stake  money.Amount `json:"stake"`
}

// opened is a table's opening (sabot.LogTableOpened).
type opened struct {
	Name     string            `json:"name"`
	Profile  string            `json:"profile"`
	Options  map[string]string `json:"options,omitempty"`
	TestMode bool              `json:"test_mode,omitempty"`
}

// adminEvent is a significant event of the pit's or the server's
// (sabot.LogAdmin): the values its words say.
type adminEvent struct {
	Event    string            `json:"event"`
	User     string            `json:"user,omitempty"`
	Amount   money.Amount      `json:"amount,omitempty"`
	Memo     string            `json:"memo,omitempty"`
	Cards    []card.Card       `json:"cards,omitempty"`
	Round    int               `json:"round,omitempty"`
	Text     string            `json:"text,omitempty"`
	Node     string            `json:"node,omitempty"`
	URL      string            `json:"url,omitempty"`
	Tables   int               `json:"tables,omitempty"`
	At       string            `json:"at,omitempty"`
	Table    int64             `json:"table,omitempty"`
	Name     string            `json:"name,omitempty"`
	Profile  string            `json:"profile,omitempty"`
	Options  map[string]string `json:"options,omitempty"`
	TestMode bool              `json:"test_mode,omitempty"`
	Days     int               `json:"days,omitempty"`
	Until    string            `json:"until,omitempty"`
	Role     string            `json:"role,omitempty"`
	By       string            `json:"by,omitempty"`
	Device   int64             `json:"device,omitempty"`
	// Correction is an AR-23 correction asked, approved or refused at a
	// live table.
	Correction *struct {
		Round int    `json:"round"`
		Case  string `json:"case"`
		Asked string `json:"asked_by"`
		By    string `json:"by,omitempty"`
	} `json:"correction,omitempty"`
	// Return is an rtp-outside event's figures, Count an advantage-play,
	// index-play or back-counting event's scores (issue 29: the server's rtpwatch.go writes them).
	Return *struct {
		Rounds    int64   `json:"rounds"`
		RTP       float64 `json:"rtp"`
		Low       float64 `json:"rtp_low"`
		High      float64 `json:"rtp_high"`
		Certified float64 `json:"certified_rtp"`
		Z         float64 `json:"z"`
	} `json:"return,omitempty"`
	// An index-play event's Count is his decisions at the index plays'
	// hands (Rounds), those at a count that called for the index play
	// (Said), the index play taken then and otherwise, and Z; a
	// back-counting event's the rounds of the shoes he bet behind in
	// (Rounds), those he bet behind in (Backed) and Z.
	Count *struct {
		Rounds         int     `json:"rounds"`
		HiLoZ          float64 `json:"hi_lo_z"`
		HiOptIIZ       float64 `json:"hi_opt_ii_z"`
		Said           int     `json:"said,omitempty"`
		DeviatedSaid   int     `json:"deviated_when_said,omitempty"`
		DeviatedNotSay int     `json:"deviated_when_not,omitempty"`
		Backed         int     `json:"backed,omitempty"`
		Z              float64 `json:"z,omitempty"`
	} `json:"count,omitempty"`
}
