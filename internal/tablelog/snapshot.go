package tablelog

import (
	"sabot/card"
	"sabot/money"
	"sabot/shoe"
	"sabot/table"
)

// SnapshotVersion is the version of the snapshot's format; a start ignores
// (and replays past) a snapshot of another version.
const SnapshotVersion = 1

// Snapshot is the table's state between rounds (sabot.LogSnapshot): what
// replaying the log up to the snapshot record would rebuild.
type Snapshot struct {
	Version int            `json:"version"` // SnapshotVersion; a snapshot of another version is not used
	Table   table.Snapshot `json:"table"`
	// Options are the options in force when a configuration change had
	// changed them (null: those the table was created with; {}: the
	// profile's own values).
	Options map[string]string       `json:"options"`
	Players map[string]int64        `json:"players"` // player name → user ID
	Escrow  map[string]money.Amount `json:"escrow"`  // each player's stakes held by the table
	ShoeNo  int                     `json:"shoe_no"`
	ShoePos int                     `json:"shoe_pos"`
	// Shoes are the shoes whose seeds are not yet revealed, and the
	// current one.
	Shoes  map[int]SnapshotShoe `json:"shoes"`
	Forced []card.Card          `json:"forced,omitempty"` // test mode: the next round's cards
	// Sealed holds, sealed with the server's seed key, what would predict
	// the cards to come (a SnapshotSecret): the current shoe's seed and
	// state (Table.Seed and Table.Shoe, then empty) and the shoes' seeds
	// (Shoes, then null). Empty: they are in the clear (a server without a
	// seed key, or a snapshot of an older sabot).
	Sealed string `json:"sealed,omitempty"`
	// ShoeSteps: the table's log knows a new shoe's steps
	// (Opened.ShoeSteps; AR-07, EG-02).
	ShoeSteps bool `json:"shoe_steps,omitempty"`
	// PhysicalSteps: it knows a physical shoe's too
	// (Opened.PhysicalSteps).
	PhysicalSteps bool `json:"physical_steps,omitempty"`
}

// SnapshotSecret is what a snapshot seals (Snapshot.Sealed).
type SnapshotSecret struct {
	Seed  string               `json:"seed"`
	Shoe  shoe.State           `json:"shoe"`
	Shoes map[int]SnapshotShoe `json:"shoes"`
}

// SnapshotShoe is a shoe a snapshot keeps: its seed (hex), its commitment,
// and whether its seed was revealed.
type SnapshotShoe struct {
	Seed       string `json:"seed"`
	Commitment string `json:"commitment"`
	Revealed   bool   `json:"revealed,omitempty"`
}

// PlayerOf is what the table's actor reads of a record of a kind it does
// not know (one a newer sabot wrote): the player it concerns, if its
// payload names one.
type PlayerOf struct {
	Player string `json:"player"`
}
