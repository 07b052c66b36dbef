package server

import (
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"strconv"
	"strings"

	"sabot"
	"sabot/card"
	"sabot/engine"
	"sabot/money"
	"sabot/rules"
	"sabot/shoe"
)

// The payloads of the table log's records (sabot.LogRecord.Payload). They
// are part of the stored format: fields are added, never renamed.

type openedPayload struct {
	Name     string            `json:"name"`
	Profile  string            `json:"profile"`
	Options  map[string]string `json:"options,omitempty"`
	TestMode bool              `json:"test_mode,omitempty"`
}

// shoePayload starts a shoe. The seed stays in the server until the shoe
// is revealed; clients see the commitment only, and the log has the seed
// sealed with the server's seed key (seal.go). Stores written before seeds
// were sealed have it in the clear, in Seed.
type shoePayload struct {
	Shoe       int    `json:"shoe"`
	Seed       string `json:"seed,omitempty"`   // hex: a store of an older sabot, or a server without a seed key
	Sealed     string `json:"sealed,omitempty"` // the seed, sealed (SeedKey.seal)
	Commitment string `json:"commitment"`
	// Options are the table's options when the shoe was prepared, when a
	// configuration change had changed them from those it was created with
	// (null: none had; {} is the profile's own values).
	Options map[string]string `json:"options"`
}

type revealPayload struct {
	Shoe       int    `json:"shoe"`
	Seed       string `json:"seed"`
	Commitment string `json:"commitment"`
}

type seatPayload struct {
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

// betPayload places or changes a bet: Debit is what moved from the wallet
// to the table (negative when a stake was lowered).
type betPayload struct {
	Player string       `json:"player"`
	Box    int          `json:"box"`
	Stake  money.Amount `json:"stake"`
	Debit  money.Amount `json:"debit"`
	// Reason says why the server withdrew a bet (a record with no command):
	// at the deal, a family bank could not cover it (FAM-01).
	Reason string `json:"reason,omitempty"`
}

type dealPayload struct {
	Round   int                     `json:"round"`
	Shoe    int                     `json:"shoe"`
	ShoePos int                     `json:"shoe_pos"` // cards out of the shoe (burns included) before the round's first card
	Test    bool                    `json:"test,omitempty"`
	Forced  []card.Card             `json:"forced,omitempty"`
	Bets    []engine.PlacedBet      `json:"bets"`
	Seats   map[string]string       `json:"seats,omitempty"` // box → holder after AR-21
	Bank    string                  `json:"bank,omitempty"`
	Wallets map[string]money.Amount `json:"wallets_at_deal,omitempty"`
	// BankCover is what moved from the bank holder's wallet to his bank
	// account to cover the bets dealt: the most they can win (FAM-01).
	BankCover money.Amount `json:"bank_cover,omitempty"`
}

// actionPayload is one decision: a player's, the dealer's closing of a
// window, or a default applied when the decision timer ran out.
type actionPayload struct {
	Round     int          `json:"round"`
	Action    WireAction   `json:"action"`
	ByTimeout bool         `json:"by_timeout,omitempty"`
	Decline   bool         `json:"decline,omitempty"` // a player passes in an optional window
	Debit     money.Amount `json:"debit,omitempty"`   // the stake the decision added
	// BankCover is what moved from the bank holder's wallet to his bank
	// account to cover the stake the decision added (FAM-01).
	BankCover money.Amount `json:"bank_cover,omitempty"`
}

type betResult struct {
	Player string       `json:"player"`
	Box    int          `json:"box"`
	Hand   int          `json:"hand"`
	Kind   string       `json:"kind"`
	Stake  money.Amount `json:"stake"`
	Result string       `json:"result"`
	Net    money.Amount `json:"net"`
}

type handResult struct {
	Box    int         `json:"box"`
	Hand   int         `json:"hand"`
	Cards  []card.Card `json:"cards"`
	Total  int         `json:"total"`
	Result string      `json:"result"`
}

// settlePayload closes a round: settled, or void with every stake returned.
type settlePayload struct {
	Round    int                     `json:"round"`
	Void     bool                    `json:"void,omitempty"`
	Reason   string                  `json:"reason,omitempty"`
	Record   engine.Record           `json:"record"`
	Dealer   []card.Card             `json:"dealer"`
	Hands    []handResult            `json:"hands"`
	Bets     []betResult             `json:"bets"`
	Net      map[string]money.Amount `json:"net"`
	Returned map[string]money.Amount `json:"returned"` // credited to each wallet: stakes plus net
	House    money.Amount            `json:"house"`    // the house's (or the bank's) net
	Bank     string                  `json:"bank,omitempty"`
	NewBank  string                  `json:"new_bank,omitempty"`
	// BankPaid says where a family bank's net went: "wallet" (the bank
	// player's). Rounds dealt before banks took cover (no bank_cover in
	// their deal) also have "bank" (his bank account) and "house" (what
	// he could not pay).
	BankPaid map[string]money.Amount `json:"bank_paid,omitempty"`
	// BankCover is the round's cover, returned from the bank holder's bank
	// account to his wallet with the bank's net (FAM-01, FAM-02).
	BankCover money.Amount            `json:"bank_cover,omitempty"`
	Wallets   map[string]money.Amount `json:"wallets_after,omitempty"`
	// Closed marks a void written because the table's log could not be
	// replayed: the table is out of service.
	Closed bool `json:"closed,omitempty"`
}

// adminPayload is a significant event: a credit, a configuration change, a
// void by the pit, a new shoe on request, forced cards in test mode.
type adminPayload struct {
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
	Role     string            `json:"role,omitempty"`   // a member of the staff made (issue 13)
	By       string            `json:"by,omitempty"`     // the dealer who sold or changed back a walk-in's chips
	Device   int64             `json:"device,omitempty"` // a card reader issued or revoked
	// Correction is an AR-23 correction asked, approved or refused at a
	// live table (corrections.go).
	Correction *correction `json:"correction,omitempty"`
	// Return is an rtp-outside event's figures, Count an advantage-play
	// event's scores (rtpwatch.go).
	Return *returnValues `json:"return,omitempty"`
	Count  *countValues  `json:"count,omitempty"`
}

// WireAction is an engine.Action as JSON, with the action's name.
type WireAction struct {
	Kind   string       `json:"action"`
	Player string       `json:"player,omitempty"`
	Box    int          `json:"box,omitempty"`
	Hand   int          `json:"hand,omitempty"`
	Stake  money.Amount `json:"stake,omitempty"`
	Value  int          `json:"value,omitempty"`
}

func toWire(a engine.Action) WireAction {
	return WireAction{a.Kind.String(), a.Player, a.Box, a.Hand, a.Stake, a.Value}
}

func (w WireAction) engine() (engine.Action, error) {
	k, ok := engine.ParseKind(w.Kind)
	if !ok {
		return engine.Action{}, sabot.Errorf(sabot.EINVALID, "unknown action %q", w.Kind)
	}
	hand := w.Hand
	if hand == 0 && k != engine.Close && !k.House() {
		hand = 1
	}
	return engine.Action{Kind: k, Player: w.Player, Box: w.Box, Hand: hand, Stake: w.Stake, Value: w.Value}, nil
}

func mustJSON(v any) json.RawMessage {
	b, err := json.Marshal(v)
	if err != nil {
		panic(err)
	}
	return b
}

// Commitment is the SHA-256 over a shoe's seed and its order after the
// shuffle and the cut: published when the shoe starts, checked against the
// seed revealed after it (`sabot verify`).
func Commitment(seed shoe.Seed, order []card.Card) string {
	h := sha256.New()
	h.Write(seed[:])
	h.Write([]byte(card.Format(order)))
	return hex.EncodeToString(h.Sum(nil))
}

// ShoeOrder prepares a shoe from its seed exactly as a table does and
// returns the order of its cards, the burned ones first.
func ShoeOrder(p *rules.Profile, seed shoe.Seed) ([]card.Card, error) {
	s := shoe.New(p.Decks, seed)
	if _, err := s.Prepare(p.ShoeProcedure(), 0); err != nil {
		return nil, err
	}
	return s.Composition(), nil
}

func seedHex(s shoe.Seed) string { return hex.EncodeToString(s[:]) }

func parseSeed(h string) (shoe.Seed, error) {
	var s shoe.Seed
	b, err := hex.DecodeString(h)
	if err != nil || len(b) != len(s) {
		return s, fmt.Errorf("bad shoe seed %q", h)
	}
	copy(s[:], b)
	return s, nil
}

// RoundID names a round: table and round number, "3-17".
func RoundID(table int64, round int) string { return fmt.Sprintf("%d-%d", table, round) }

// ParseRoundID reads a round's or a shoe's ID, "TABLE-N".
func ParseRoundID(s string) (table int64, n int, err error) {
	a, b, ok := strings.Cut(s, "-")
	t, err1 := strconv.ParseInt(a, 10, 64)
	r, err2 := strconv.Atoi(b)
	if !ok || err1 != nil || err2 != nil || t < 1 || r < 1 {
		return 0, 0, sabot.Errorf(sabot.EINVALID, "%q is not an ID of the form TABLE-N, e.g. 3-17", s)
	}
	return t, r, nil
}

// profileOf builds a table's profile from its configuration.
func profileOf(profile string, options map[string]string) (*rules.Profile, error) {
	return sabot.ProfileOf(profile, options)
}
