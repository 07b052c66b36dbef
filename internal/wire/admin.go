package wire

import (
	"sabot/card"
	"sabot/money"
)

// AdminEvent is a significant event as the log keeps it (sabot.LogAdmin): a
// credit, a configuration change, a void by the pit, a new shoe on
// request, forced cards in test mode, a node's, a table created, an
// exclusion, the staff's, a live table's correction, the return or a
// player's count watched. The server writes it, recall reads and words it
// (`GET /api/admin/events`, `sabot events`): one type, so that neither
// reads a field the other does not write.
type AdminEvent struct {
	Event  string       `json:"event"`
	User   string       `json:"user,omitempty"`
	Amount money.Amount `json:"amount,omitempty"`
	Memo   string       `json:"memo,omitempty"`
	Cards  []card.Card  `json:"cards,omitempty"`
	Round  int          `json:"round,omitempty"`
	Text   string       `json:"text,omitempty"`
	// The values of the events that say them (a client words the event
	// from them; the records written before them have Text only): a
	// node's, a table created's, an exclusion's.
	Node     string            `json:"node,omitempty"`
	URL      string            `json:"url,omitempty"`
	Tables   int               `json:"tables,omitempty"`
	At       string            `json:"at,omitempty"` // RFC 3339
	Table    int64             `json:"table,omitempty"`
	Name     string            `json:"name,omitempty"`
	Profile  string            `json:"profile,omitempty"`
	Options  map[string]string `json:"options,omitempty"`
	TestMode bool              `json:"test_mode,omitempty"`
	Days     int               `json:"days,omitempty"`
	Until    string            `json:"until,omitempty"`  // RFC 3339
	Role     string            `json:"role,omitempty"`   // a member of the staff made
	By       string            `json:"by,omitempty"`     // the dealer who sold or changed back a walk-in's chips
	Box      int               `json:"box,omitempty"`    // the walk-in's box, where he bought or changed back chips
	Device   int64             `json:"device,omitempty"` // a card reader issued or revoked
	// Correction is an AR-23 correction asked, approved or refused at a
	// live table (internal/live), or a walk-in's buy-in or cash-out over
	// the table's cash_approval.
	Correction *CorrectionView `json:"correction,omitempty"`
	// Return is an rtp-outside event's figures, Count an advantage-play
	// event's scores (the table's watch of its return and of its
	// players' counts).
	Return *ReturnValues `json:"return,omitempty"`
	Count  *CountValues  `json:"count,omitempty"`
}

// ReturnValues are an rtp-outside event's figures: the return over the
// rounds watched, its band and the certified figure, as fractions, and
// how far outside the band (z).
type ReturnValues struct {
	Rounds    int64   `json:"rounds"`
	RTP       float64 `json:"rtp"`
	Low       float64 `json:"rtp_low"`
	High      float64 `json:"rtp_high"`
	Certified float64 `json:"certified_rtp"`
	Z         float64 `json:"z"`
}

// CountValues are an advantage-play event's values: the rounds a player's
// bets were watched against the count, and his scores for Hi-Lo and
// Hi-Opt II (docs/pit.md). An index-play event's are his decisions at the
// index plays' hands (Rounds), those at a count that called for the index
// play (Said), the index play taken then and otherwise, and Z; a
// back-counting event's the rounds of the shoes he bet behind in (Rounds),
// those he bet behind in (Backed) and Z.
type CountValues struct {
	Rounds         int     `json:"rounds"`
	HiLoZ          float64 `json:"hi_lo_z"`
	HiOptIIZ       float64 `json:"hi_opt_ii_z"`
	Said           int     `json:"said,omitempty"`
	DeviatedSaid   int     `json:"deviated_when_said,omitempty"`
	DeviatedNotSay int     `json:"deviated_when_not,omitempty"`
	Backed         int     `json:"backed,omitempty"`
	Z              float64 `json:"z,omitempty"`
}
