package wire

// The names the wire says: a table command's op (the URL's last segment
// over HTTP, the "op" field on the WebSocket) and an event's kind
// (Event.Kind). Every Go writer and reader says them by these constants;
// the web client is held to them by web/web_test.go.

// The table commands' ops (internal/actor's registry, docs/protocol.md).
const (
	// A player's.
	OpSit      = "sit"
	OpLeave    = "leave"
	OpBet      = "bet"
	OpDeal     = "deal"
	OpWithdraw = "withdraw"
	OpAct      = "act"
	OpDecline  = "decline"
	// The pit's and the inspector's.
	OpForceCards = "force-cards"
	OpNewShoe    = "new-shoe"
	OpVoid       = "void"
	OpConfigure  = "configure"
	// A new shoe's steps (AR-07, EG-02).
	OpAuthoriseShuffle = "authorise-shuffle"
	OpCutShoe          = "cut-shoe"
	// The dealer's, at a table dealt from a physical shoe (internal/live).
	OpCard     = "card"
	OpUndoCard = "undo-card"
	OpCutCard  = "cut-card"
	// OpRecordCut records who cut a new physical shoe (AR-07, EG-02),
	// where the profile asks it (player_cut): the player at the box the
	// dealer names, or the inspector's own cut (box 0).
	OpRecordCut     = "record-cut"
	OpNoMoreBets    = "no-more-bets"
	OpSeatWalkIn    = "seat-walk-in"
	OpBuyIn         = "buy-in"
	OpCashOut       = "cash-out"
	OpCardStands    = "card-stands"
	OpSkippedEleven = "skipped-eleven"
	OpCorrect       = "correct"
	// The inspector's (internal/live).
	OpApprove          = "approve"
	OpRefuseCorrection = "refuse-correction"
	OpRuling           = "ruling"
	// A table closed between rounds and its players invited to another
	// (003 §11), and reopened: the inspector's or the pit's.
	OpCloseTable  = "close-table"
	OpReopenTable = "reopen-table"
)

// The WebSocket's own ops, which are no table command: the table's
// snapshot asked for, and a client's heartbeat (answered "pong").
const (
	OpSnapshot = "snapshot"
	OpPing     = "ping"
)

// Ops are the table commands' ops, in the registry's order.
func Ops() []string {
	return []string{OpSit, OpLeave, OpBet, OpDeal, OpWithdraw, OpAct, OpDecline,
		OpForceCards, OpNewShoe, OpVoid, OpConfigure, OpAuthoriseShuffle, OpCutShoe,
		OpCard, OpUndoCard, OpCutCard, OpRecordCut, OpNoMoreBets, OpSeatWalkIn, OpBuyIn, OpCashOut, OpCardStands, OpSkippedEleven,
		OpCorrect, OpApprove, OpRefuseCorrection, OpRuling, OpCloseTable, OpReopenTable}
}

// The kinds of the events a table pushes to its subscribers (Event.Kind).
const (
	// Seats, bets and the betting window.
	EvSit      = "sit"
	EvLeave    = "leave"
	EvRelease  = "release" // a box given up (AR-21) and its bets returned
	EvBet      = "bet"
	EvWithdraw = "withdraw"
	EvReady    = "ready"   // a seated player said "deal"
	EvBetting  = "betting" // the betting window's deadline
	EvWaiting  = "waiting" // why the bets placed cannot be dealt yet
	// The table and its shoe.
	EvConfigure  = "configure"
	EvShoe       = "shoe"
	EvShoeReveal = "shoe-reveal"
	EvShoeStep   = "shoe-step"
	// A round, as the engine plays it.
	EvDeal    = "deal"
	EvStake   = "stake"
	EvCard    = "card"
	EvReveal  = "reveal"
	EvBurn    = "burn"
	EvAction  = "action"
	EvWindow  = "window"
	EvCutCard = "cut-card"
	EvResult  = "result"
	EvVoid    = "void"
	EvDone    = "done"
	EvTurn    = "turn"
	EvDecline = "decline"
	EvSettle  = "settle"
	// A table dealt from a physical shoe (internal/live).
	EvNeed       = "need"
	EvUndo       = "undo"
	EvCorrection = "correction"
	EvRuling     = "ruling"
	// The table closed by the pit, its players invited to another (003
	// §11), and reopened.
	EvClosed   = "closed"
	EvReopened = "reopened"
)

// EventKinds are the kinds of every event a table pushes.
func EventKinds() []string {
	return []string{EvSit, EvLeave, EvRelease, EvBet, EvWithdraw, EvReady, EvBetting, EvWaiting,
		EvConfigure, EvShoe, EvShoeReveal, EvShoeStep,
		EvDeal, EvStake, EvCard, EvReveal, EvBurn, EvAction, EvWindow, EvCutCard, EvResult, EvVoid, EvDone, EvTurn, EvDecline, EvSettle,
		EvNeed, EvUndo, EvCorrection, EvRuling, EvClosed, EvReopened}
}

// The types of the WebSocket's messages from the server (Message.Type).
const (
	MsgSnapshot = "snapshot"
	MsgEvent    = "event"
	MsgResult   = "result"
	MsgError    = "error"
	MsgPong     = "pong"
)
