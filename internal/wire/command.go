package wire

import (
	"sabot"
	"sabot/card"
	"sabot/money"
)

// The table commands' bodies. A command is sent as a small envelope, the
// fields every command has (Envelope: op, command_id, client_id, walk_in),
// and the fields of its own request, in one JSON object:
// {"op":"bet","command_id":...,"box":1,"stake":500} on the WebSocket, the
// same without op as the body of POST /api/tables/{id}/bet. DecodeCommand
// reads the envelope and checks the object as strictly as Decode (field
// names exact, each once, nothing after it); DecodeRequest then reads the
// op's own request (Requests: Sit, Bet, Act, ...), refusing a field it has
// not. The server's registry of commands (internal/actor/table_commands.go)
// runs each op's handler on its request.

// Envelope is what every table command says besides its own request.
// CommandID is the client's, unique per client: a command sent again with
// the same ID is applied once and answered the same. WalkIn: the dealer
// sends a player's command (bet, withdraw, act, decline, leave) for the
// walk-in at this box (docs/live.md).
type Envelope struct {
	Op        string `json:"op,omitempty"` // on the WebSocket; the URL says it over HTTP
	CommandID string `json:"command_id"`
	ClientID  string `json:"client_id,omitempty"`
	WalkIn    int    `json:"walk_in,omitempty"`
}

// CommandResult is the answer to a command that was applied: the sequence
// number of its record in the table's log.
type CommandResult struct {
	OK        bool  `json:"ok"`
	Seq       int64 `json:"seq"`
	Duplicate bool  `json:"duplicate,omitempty"`
}

// The requests of the table commands, each its command's own fields: the
// envelope's (op, command_id, client_id, walk_in) are the server's to
// check, before the command reads its own.
type (
	// Sit takes a free box (AR-21).
	Sit struct {
		Box int `json:"box,omitempty"`
	}
	// Leave stands the player up.
	Leave struct{}
	// Deal says the player has placed his bets: the betting window ends
	// once every seated player has said so.
	Deal struct{}
	// Bet places or changes a bet on a box for the next round.
	Bet struct {
		Box   int          `json:"box,omitempty"`
		Stake money.Amount `json:"stake,omitempty"`
	}
	// Withdraw withdraws a bet before the deal (VE-04).
	Withdraw struct {
		Box int `json:"box,omitempty"`
	}
	// Act is a player's decision (docs/protocol.md: action): its stake,
	// where it adds one, 0 for the usual (a double's, a split's: the
	// hand's; a challenge's, an insurance's: half of it); its value, an
	// Ace declared (AR-11) or chosen (VE-13).
	Act struct {
		Box    int          `json:"box,omitempty"`
		Hand   int          `json:"hand,omitempty"`
		Stake  money.Amount `json:"stake,omitempty"`
		Action string       `json:"action,omitempty"`
		Value  int          `json:"value,omitempty"`
	}
	// Decline passes in an optional window.
	Decline struct {
		Box  int `json:"box,omitempty"`
		Hand int `json:"hand,omitempty"`
	}
	// ForceCards gives the next round's cards, in dealing order (test
	// mode): their codes, space-separated.
	ForceCards struct {
		Cards string `json:"cards,omitempty"`
	}
	// NewShoe prepares a new shoe between rounds (AR-24).
	NewShoe struct{}
	// Void voids the round in play (AR-23).
	Void struct{}
	// AuthoriseShuffle is the inspector's authorisation of a new shoe's
	// shuffle, which the shoe waits for where the profile asks it
	// (player_cut; 000 item 5, AR-07, EG-02).
	AuthoriseShuffle struct{}
	// CutShoe is the cut of a new shoe whose shuffle was authorised: the
	// cards moved to the back (value), within min_cut (AR-07, EG-02); the
	// player's chosen to cut, or the inspector's with nobody seated.
	CutShoe struct {
		Value int `json:"value,omitempty"`
	}
	// Configure changes the table's options (those set to "" go back to
	// the profile's) and, at a family table, who holds the bank (a seated
	// player, "" the house; FAM-01), for a reason.
	Configure struct {
		Options map[string]string `json:"options,omitempty"`
		Bank    *string           `json:"bank,omitempty"`
		Reason  string            `json:"reason,omitempty"`
	}
)

// The requests of a table closed and reopened by the pit (003 §11:
// «cuando hay pocos jugadores en las mesas, se van cerrando éstas y los
// jugadores son invitados a agruparse en las que permanecen abiertas»).
type (
	// CloseTable closes the table between rounds: the bets placed for the
	// next round are returned, the seats given up, and the players are
	// invited to the table To (0: none named), for a reason.
	CloseTable struct {
		To     int64  `json:"to,omitempty"`
		Reason string `json:"reason,omitempty"`
	}
	// ReopenTable opens a table the pit closed.
	ReopenTable struct{}
)

// Check refuses a table invited to that is no table's ID.
func (c CloseTable) Check() error {
	if c.To < 0 {
		return sabot.Errorf(sabot.EINVALID, "to: a table's ID, or nothing")
	}
	return nil
}

// The requests of the live table's commands (internal/live, docs/live.md).
type (
	// Card is a card read from a physical shoe: its code.
	Card struct {
		Card string `json:"card,omitempty"`
	}
	// UndoCard takes back the last card read.
	UndoCard struct{}
	// CutCard notes the cut card come out of the shoe (EG-04).
	CutCard struct{}
	// RecordCut names the box of the player who cut a new physical shoe
	// (0: the inspector, or the pit, cut it himself).
	RecordCut struct {
		Box int `json:"box,omitempty"`
	}
	// NoMoreBets closes the betting at a live table.
	NoMoreBets struct{}
	// SeatWalkIn seats a walk-in at a box.
	SeatWalkIn struct {
		Box int `json:"box,omitempty"`
	}
	// BuyIn sells chips to the walk-in at a box: the amount, in minor
	// units (named "stake" on the wire).
	BuyIn struct {
		Box    int          `json:"box,omitempty"`
		Amount money.Amount `json:"stake,omitempty"`
	}
	// CashOut changes the chips of the walk-in at a box back to cash.
	CashOut struct {
		Box int `json:"box,omitempty"`
	}
	// CardStands and SkippedEleven are the dealer's irregularities: the
	// round's state names the hand.
	CardStands    struct{}
	SkippedEleven struct{}
	// Correct asks for an AR-23 correction: its case ("a" to "i"), with
	// the box or the card burned.
	Correct struct {
		Case string `json:"case,omitempty"`
		Box  int    `json:"box,omitempty"`
		Card string `json:"card,omitempty"`
	}
	// Approve and RefuseCorrection decide a correction asked: its ID.
	Approve struct {
		Correction int64 `json:"correction,omitempty"`
	}
	RefuseCorrection struct {
		Correction int64 `json:"correction,omitempty"`
	}
	// Ruling is the inspector's ruling: its text (named "reason" on the
	// wire).
	Ruling struct {
		Text string `json:"reason,omitempty"`
	}
)

// Requests are each op's request, a zero value: what DecodeRequest reads
// for it. The server's registry of commands runs a handler of each.
func Requests() map[string]any {
	return map[string]any{
		OpSit: Sit{}, OpLeave: Leave{}, OpBet: Bet{}, OpDeal: Deal{}, OpWithdraw: Withdraw{}, OpAct: Act{}, OpDecline: Decline{},
		OpForceCards: ForceCards{}, OpNewShoe: NewShoe{}, OpVoid: Void{}, OpConfigure: Configure{},
		OpAuthoriseShuffle: AuthoriseShuffle{}, OpCutShoe: CutShoe{},
		OpCard: Card{}, OpUndoCard: UndoCard{}, OpCutCard: CutCard{}, OpRecordCut: RecordCut{}, OpNoMoreBets: NoMoreBets{},
		OpSeatWalkIn: SeatWalkIn{}, OpBuyIn: BuyIn{}, OpCashOut: CashOut{}, OpCardStands: CardStands{}, OpSkippedEleven: SkippedEleven{},
		OpCorrect: Correct{}, OpApprove: Approve{}, OpRefuseCorrection: RefuseCorrection{}, OpRuling: Ruling{},
		OpCloseTable: CloseTable{}, OpReopenTable: ReopenTable{},
	}
}

// StakeOf is the stake a request says (a bet's, a decision's, a buy-in's),
// 0 for one that says none: the server bounds it for every command
// (CheckStake) before the command reads the rest.
func StakeOf(req any) money.Amount {
	switch r := req.(type) {
	case Bet:
		return r.Stake
	case Act:
		return r.Stake
	case BuyIn:
		return r.Amount
	}
	return 0
}

// Parse reads the cards forced, in dealing order: a list of card codes,
// refused (invalid) when it holds none or a code that is not a card's.
func (f ForceCards) Parse() ([]card.Card, error) {
	cards, err := card.ParseList(f.Cards)
	if err != nil {
		return nil, sabot.Errorf(sabot.EINVALID, "forced cards: %v", err)
	} else if len(cards) == 0 {
		return nil, sabot.Errorf(sabot.EINVALID, "forced cards: give the card codes in dealing order, e.g. \"TS 9H 7C 8D\"")
	}
	return cards, nil
}

// Check refuses forced cards that Parse refuses: when the command is read,
// before it reaches the table.
func (f ForceCards) Check() error {
	_, err := f.Parse()
	return err
}
