package engine

import (
	"sabot/card"
	"sabot/money"
	"sabot/rules"
)

// EventKind is the kind of an event of a round's log.
type EventKind uint8

// The events. Box 0 is the dealer.
const (
	EvBet     EventKind = iota + 1 // a stake placed: Player, Box, Hand, BetKind, Amount
	EvCard                         // a card dealt: Box, Hand, Card, FaceDown
	EvReveal                       // a face-down card turned: Box, Hand, Card
	EvAction                       // a decision: Action
	EvWindow                       // an optional window opened: Phase
	EvCutCard                      // the cut card came out: this is the last round of the shoe (EG-04)
	EvVoid                         // the round is void: Text (AR-08, EG-04)
	EvResult                       // a bet settled: Player, Box, Hand, BetKind, Result, Amount (its net); a void round settles every bet again at 0, so a bet's last result counts
	EvDone                         // the round is over
	EvBurn                         // a card burned in the round (AR-23): Box, Card
)

var eventNames = [...]string{"", "bet", "card", "reveal", "action", "window", "cut-card", "void", "result", "done", "burn"}

func (k EventKind) String() string {
	if int(k) < len(eventNames) && k > 0 {
		return eventNames[k]
	}
	return "?"
}

// MarshalText implements encoding.TextMarshaler.
func (k EventKind) MarshalText() ([]byte, error) { return []byte(k.String()), nil }

// Event is one entry of a round's log. A table service shows events to
// players as they happen; a face-down card's Card must not leave the server
// before its EvReveal.
type Event struct {
	Seq      int
	Kind     EventKind
	Box      int // 0: the dealer
	Hand     int
	Card     card.Card
	FaceDown bool
	Phase    Phase
	Action   Action
	Player   string
	BetKind  BetKind
	Result   rules.Result
	Amount   money.Amount
	Text     string
}

// Events returns the round's log so far (do not modify).
func (r *Round) Events() []Event { return r.events }
