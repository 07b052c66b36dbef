package tablelog

import (
	"sabot/card"
	"sabot/money"
)

// Opened opens a table (sabot.LogTableOpened).
type Opened struct {
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

// Seat is a player's sitting down (sabot.LogSit) or leaving (sabot.LogLeave).
type Seat struct {
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

// Card is a card read into the round (sabot.LogCard), or taken back
// (sabot.LogCardUndo): who sent it (the dealer at the console, or the card
// reader by its name) and, from a reader, its ID.
type Card struct {
	Round  int       `json:"round"`
	Card   card.Card `json:"card"`
	By     string    `json:"by"`
	Device int64     `json:"device,omitempty"`
	// A card taken back by the inspector: the correction he
	// approved (its ID), and whether the hole card turned after the card
	// is turned again before anyone decides (AR-23 (g)).
	Correction int64 `json:"correction,omitempty"`
	Expose     bool  `json:"expose,omitempty"`
}

// Cut is the cut card's coming out (sabot.LogCutCard, EG-04).
type Cut struct {
	Round int    `json:"round"`
	By    string `json:"by"`
}
