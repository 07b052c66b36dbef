package wire

import (
	"sabot"
	"sabot/card"
	"sabot/money"
)

// What clients see. A card dealt face down (the hole card, an AR-17 double
// card) is "??" until it is turned, and no total counts it; the shoe's seed
// and its undealt cards never leave the server before the shoe is over.

// Hidden is how a face-down card shows.
const Hidden = "??"

// TableView is a table as a client sees it: the snapshot.
type TableView struct {
	ID       int64             `json:"id"`
	Name     string            `json:"name"`
	Profile  string            `json:"profile"`
	Options  map[string]string `json:"options,omitempty"`
	TestMode bool              `json:"test_mode,omitempty"`
	Closed   string            `json:"closed,omitempty"`
	Rules    RulesView         `json:"rules"`
	Seats    []SeatView        `json:"seats"`
	Bets     []BetView         `json:"bets"` // placed for the next round
	Bank     string            `json:"bank,omitempty"`
	Shoe     ShoeView          `json:"shoe"`
	Round    *RoundView        `json:"round,omitempty"`
	Turn     *TurnView         `json:"turn,omitempty"`
	// BettingDeadline is when the betting window closes (Unix ms), 0 when
	// no bet is down yet.
	BettingDeadline int64 `json:"betting_deadline,omitempty"`
	// Ready are the seated players who said "deal" in this betting
	// window (it ends when every seated player has); KeepBetWindow says
	// whether the window waits for them (false: the last seated box's bet
	// deals).
	Ready         []string `json:"ready,omitempty"`
	KeepBetWindow bool     `json:"keep_bet_window,omitempty"`
	// Need is whom the next card is for, at a table dealt from a physical
	// shoe whose round waits for it.
	Need *NeedView `json:"need,omitempty"`
	// Corrections are the dealer's AR-23 corrections waiting for the
	// inspector's decision.
	Corrections []CorrectionView `json:"corrections,omitempty"`
	// Cash is a live table's cash limits in force (walk-in players).
	Cash *CashView `json:"cash,omitempty"`
	// Waiting says why the bets placed cannot be dealt yet (AR-03, VE-20):
	// the table waits for more players, bets or boxes. Absent when they can
	// be, or when no bet is placed.
	Waiting *WaitingView `json:"waiting,omitempty"`
}

// RulesView is what a table publishes of its rules, the timers and the
// default decisions included.
type RulesView struct {
	Boxes             int          `json:"boxes"`
	BackBetsPerBox    int          `json:"back_bets_per_box"`
	MinBet            money.Amount `json:"min_bet"`
	MaxBet            money.Amount `json:"max_bet"`
	MinBetsToStart    int          `json:"min_bets_to_start"`
	LoneCustomerBoxes int          `json:"lone_customer_boxes,omitempty"`
	DoubleForLess     bool         `json:"double_for_less,omitempty"` // VE-19: a double may stake less or more than the original
	BankRotates       bool         `json:"bank_rotates,omitempty"`    // FAM-02: the bank is a player's and rotates
	BankRounds        int          `json:"bank_rounds,omitempty"`     // FAM-02: rounds after which it passes (0: on a blackjack only)
	BetWindowMS       int64        `json:"bet_window_ms"`
	DecisionMS        int64        `json:"decision_ms"`
	WindowMS          int64        `json:"window_ms"`
	OnTimeout         string       `json:"on_timeout"`
	// SeatIdleMS is how long a box is held with no round dealt (AR-21):
	// then it is given up and its bets returned.
	SeatIdleMS int64 `json:"seat_idle_ms"`
	// Departs lists the option values that break a rule of the table's own
	// regulation, one line each ("AR-01: decks=4, the regulation asks at
	// least 8 …", rules.Departure); absent at a table that keeps them all.
	Departs []string `json:"departs,omitempty"`
}

type SeatView struct {
	Box    int    `json:"box"`
	Player string `json:"player"`
}

type BetView struct {
	Player string       `json:"player"`
	Box    int          `json:"box"`
	Hand   int          `json:"hand,omitempty"`
	Kind   string       `json:"kind,omitempty"`
	Stake  money.Amount `json:"stake"`
	Result string       `json:"result,omitempty"`
	Net    money.Amount `json:"net,omitempty"`
}

type ShoeView struct {
	ID         string `json:"id"`
	Commitment string `json:"commitment"` // "" for a physical shoe: no seed, nothing to commit to
	Remaining  int    `json:"remaining"`  // cards left before the shuffle (0 for a physical shoe: not known)
	// Physical: the table is dealt from a physical shoe; Read is
	// the cards read from it since the shuffle, CutCard whether the cut
	// card came out (EG-04).
	Physical bool `json:"physical,omitempty"`
	Read     int  `json:"read,omitempty"`
	CutCard  bool `json:"cut_card,omitempty"`
	// Await is what a new shoe waits for before its first deal
	// (player_cut; AR-07, EG-02): "authorise" (the inspector's
	// authorisation of the shuffle) or "cut" (Cutter's cut, of CutMin to
	// CutMax cards moved to the back; "" Cutter: the inspector's, nobody
	// being seated). AuthorisedBy and CutBy are who took the steps.
	Await        string `json:"await,omitempty"`
	Cutter       string `json:"cutter,omitempty"`
	CutMin       int    `json:"cut_min,omitempty"`
	CutMax       int    `json:"cut_max,omitempty"`
	AuthorisedBy string `json:"authorised_by,omitempty"`
	CutBy        string `json:"cut_by,omitempty"`
}

// NeedView is whom the next card of a physical shoe is for, while the
// round waits for it (engine.Need): a box's hand, or the dealer (box 0);
// face down (the hole card, a double's card under AR-17); replace: the
// hole card burned and replaced (AR-23 (c)).
type NeedView struct {
	Round    int  `json:"round"`
	Box      int  `json:"box"`
	Hand     int  `json:"hand,omitempty"`
	FaceDown bool `json:"face_down,omitempty"`
	Replace  bool `json:"replace,omitempty"`
}

type HandView struct {
	Box    int      `json:"box,omitempty"`
	Hand   int      `json:"hand,omitempty"`
	Holder string   `json:"holder,omitempty"`
	Cards  []string `json:"cards"`
	Total  int      `json:"total"` // of the cards shown
	Result string   `json:"result,omitempty"`
}

type RoundView struct {
	ID     string     `json:"id"`
	No     int        `json:"no"`
	Phase  string     `json:"phase"`
	Test   bool       `json:"test,omitempty"`
	Void   string     `json:"void,omitempty"`
	Dealer HandView   `json:"dealer"`
	Hands  []HandView `json:"hands"`
	Bets   []BetView  `json:"bets"`
}

// TurnView says who decides now, until when, what they may do, and what
// happens if they do not.
type TurnView struct {
	Round    int      `json:"round"`
	Phase    string   `json:"phase"`
	Box      int      `json:"box,omitempty"`
	Hand     int      `json:"hand,omitempty"`
	Players  []string `json:"players"`
	Deadline int64    `json:"deadline"` // Unix ms
	Default  string   `json:"default"`
	Legal    []Action `json:"legal"`
	// Cards is the hand in turn, as shown; Dealer the dealer's cards shown.
	Cards  []string `json:"cards,omitempty"`
	Dealer []string `json:"dealer"`
}

// Event is one event pushed to a table's subscribers.
type Event struct {
	Kind       string                  `json:"kind"`
	Round      int                     `json:"round,omitempty"`
	Box        int                     `json:"box,omitempty"`
	Hand       int                     `json:"hand,omitempty"`
	Card       string                  `json:"card,omitempty"`
	FaceDown   bool                    `json:"face_down,omitempty"`
	Phase      string                  `json:"phase,omitempty"`
	Player     string                  `json:"player,omitempty"`
	Action     *Action                 `json:"action,omitempty"`
	By         string                  `json:"by,omitempty"` // player, dealer or timeout
	Bet        string                  `json:"bet,omitempty"`
	Result     string                  `json:"result,omitempty"`
	Amount     money.Amount            `json:"amount,omitempty"`
	Text       string                  `json:"text,omitempty"`
	Shoe       string                  `json:"shoe,omitempty"`
	ShoePos    int                     `json:"shoe_pos,omitempty"`
	Commitment string                  `json:"commitment,omitempty"`
	Seed       string                  `json:"seed,omitempty"`
	Test       bool                    `json:"test,omitempty"`
	Void       bool                    `json:"void,omitempty"`
	Net        map[string]money.Amount `json:"net,omitempty"`
	House      money.Amount            `json:"house,omitempty"`
	NewBank    string                  `json:"new_bank,omitempty"`
	Deadline   int64                   `json:"deadline,omitempty"`
	Turn       *TurnView               `json:"turn,omitempty"`
	// Need is whom the next card is for: a "need" event at a table dealt
	// from a physical shoe.
	Need *NeedView `json:"need,omitempty"`
	// Correction is an AR-23 correction asked, approved or refused: a
	// "correction" event.
	Correction *CorrectionView `json:"correction,omitempty"`
	// Reason and Params word the Text of a "waiting", "leave", "release",
	// "withdraw" or "void" event in the client's language, as an error's
	// (docs/protocol.md, "Errors").
	Reason string         `json:"reason,omitempty"`
	Params map[string]any `json:"params,omitempty"`
	// Words are a "configure" event's Text in phrases, for the client to
	// word (sabot.Phrase; event.KEY of its catalogue).
	Words []sabot.Phrase `json:"words,omitempty"`
}

// Message is one WebSocket message from the server.
type Message struct {
	Type  string     `json:"type"` // snapshot, event, result, error, pong
	Epoch string     `json:"epoch,omitempty"`
	Seq   int64      `json:"seq,omitempty"`
	Table *TableView `json:"table,omitempty"`
	Event *Event     `json:"event,omitempty"`
	// The answer to a command sent on the socket.
	CommandID string `json:"command_id,omitempty"`
	LogSeq    int64  `json:"log_seq,omitempty"`
	Duplicate bool   `json:"duplicate,omitempty"`
	Code      string `json:"code,omitempty"`
	Error     string `json:"error,omitempty"`
	// An error's reason and values (sabot.Error.Reason, Params).
	Reason string         `json:"reason,omitempty"`
	Params map[string]any `json:"params,omitempty"`
}

// WaitingView is why a table with bets placed cannot deal them yet: its
// English text, and its reason and values — table_minimum_bets and
// table_minimum_players (AR-03), lone_customer_boxes (VE-20), each with
// need, n (what the table has of it), bets (placed) and rule.
type WaitingView struct {
	Text   string         `json:"text"`
	Reason string         `json:"reason,omitempty"`
	Params map[string]any `json:"params,omitempty"`
}

// CashView is a live table's cash limits in force: the largest buy-in or
// cash-out the dealer makes alone, and the float's ceiling (0: none).
type CashView struct {
	Approval   money.Amount `json:"cash_approval"`
	FloatLimit money.Amount `json:"float_limit"`
}

// CorrectionView is a correction waiting for the inspector, as the table
// shows it: an AR-23 correction of the cards (Case "a" to "i"), or a
// walk-in's buy-in or cash-out over the table's cash_approval (Player and
// Amount). Its ID is the seq of the record that asked for it; the card
// burned or taken back is never shown (AR-23 (d)).
type CorrectionView struct {
	ID     int64     `json:"id"`
	Round  int       `json:"round"`
	Case   string    `json:"case"`
	Box    int       `json:"box,omitempty"`
	Card   card.Card `json:"card,omitempty"`
	At     int       `json:"at,omitempty"` // undo: the round's cards read, the one taken back the last
	Asked  string    `json:"asked_by"`
	Text   string    `json:"text"`
	Status string    `json:"status,omitempty"` // approved, refused (in the records that decide it)
	By     string    `json:"by,omitempty"`     // who decided it

	// A walk-in's buy-in or cash-out over the table's cash_approval, asked
	// by the dealer: the walk-in and the amount.
	Player string       `json:"player,omitempty"`
	Amount money.Amount `json:"amount,omitempty"`
}
