package wire

import (
	"fmt"
	"strconv"
	"strings"
	"time"

	"sabot"
	"sabot/card"
	"sabot/engine"
	"sabot/money"
)

// Game recall's answers (GLI-19 §4.14, VE-22): a round's record (GET
// /api/rounds/{id}), a shoe's page (GET /api/shoes/{id}) and the check of a
// shoe against its commitment (`sabot verify`).

// RoundRecord is the full record of one round.
type RoundRecord struct {
	ID        string                  `json:"id"`
	Table     int64                   `json:"table"`
	TableName string                  `json:"table_name"`
	Profile   string                  `json:"profile"`
	Options   map[string]string       `json:"options,omitempty"`
	Round     int                     `json:"round"`
	Shoe      string                  `json:"shoe"`
	ShoePos   int                     `json:"shoe_pos"`
	Test      bool                    `json:"test,omitempty"`
	Forced    bool                    `json:"forced,omitempty"`
	Dealt     time.Time               `json:"dealt"`
	Closed    time.Time               `json:"closed"`
	Bank      string                  `json:"bank,omitempty"`
	Bets      []engine.PlacedBet      `json:"bets"`
	Cards     []card.Card             `json:"cards"` // in the order drawn
	Decisions []Decision              `json:"decisions"`
	Dealer    []card.Card             `json:"dealer"`
	Hands     []HandResult            `json:"hands"`
	Results   []BetResult             `json:"results"`
	Net       map[string]money.Amount `json:"net"`
	House     money.Amount            `json:"house"`
	Void      bool                    `json:"void,omitempty"`
	Reason    string                  `json:"reason,omitempty"`
	// WalletsAtDeal are the wallets when the round was dealt, its stakes
	// taken; WalletsAfter once its payouts were credited.
	WalletsAtDeal map[string]money.Amount `json:"wallets_at_deal"`
	WalletsAfter  map[string]money.Amount `json:"wallets_after"`
	Record        engine.Record           `json:"record"`
	// Physical: the round was dealt from a physical shoe. It has
	// no seed and no commitment; Readings say who read each card in, from
	// which device, and when, and each card taken back and the cut card.
	Physical bool      `json:"physical,omitempty"`
	Readings []Reading `json:"readings,omitempty"`
}

// RoundSummary is one line of a player's list of rounds (GET
// /api/me/rounds, recall.PlayerRounds), and of the pit's view of a player
// (care.PlayerView).
type RoundSummary struct {
	ID      string       `json:"id"`
	Table   int64        `json:"table"`
	Name    string       `json:"name"`
	Profile string       `json:"profile"`
	Test    bool         `json:"test,omitempty"`
	Void    bool         `json:"void,omitempty"`
	At      time.Time    `json:"at"`
	Net     money.Amount `json:"net"`
}

// Reading is one entry of a physical round's cards as the log has them: a
// card read in (card), the last one taken back (undo), the cut card noted
// (cut-card); by the dealer at the console (By, Device 0) or a card reader
// (By its name, Device its ID).
type Reading struct {
	Seq    int64     `json:"seq"`
	At     time.Time `json:"at"`
	Kind   string    `json:"kind"`
	Card   string    `json:"card,omitempty"`
	By     string    `json:"by"`
	Device int64     `json:"device,omitempty"`
}

// Decision is one decision of a round as the log has it.
type Decision struct {
	Seq    int64     `json:"seq"`
	At     time.Time `json:"at"`
	By     string    `json:"by"` // player, dealer or timeout
	Action Action    `json:"action"`
}

// ShoeReport is a shoe as the API shows it: its commitment from the start,
// its seed once it is over, its rounds (a page of them), and, once it is
// over, each round's cards: everything `sabot verify` checks it with.
type ShoeReport struct {
	ID         string `json:"id"`
	Commitment string `json:"commitment"`
	Revealed   bool   `json:"revealed"`
	Seed       string `json:"seed,omitempty"`
	// Profile and Options are the table's when the shoe was prepared: they
	// give its decks and its shuffle, cut and burns.
	Profile string            `json:"profile"`
	Options map[string]string `json:"options,omitempty"`
	Rounds  []string          `json:"rounds"`
	// Steps: the shoe waited for the inspector's authorisation of its
	// shuffle and a player's cut (player_cut; AR-07, EG-02); its
	// commitment covers the order before the cut, and CutAt is the cut
	// applied to it (cards moved to the back).
	Steps        bool   `json:"steps,omitempty"`
	AuthorisedBy string `json:"authorised_by,omitempty"`
	CutBy        string `json:"cut_by,omitempty"`
	CutRole      string `json:"cut_role,omitempty"` // "player", "inspector" or "pit"
	CutAt        int    `json:"cut_at,omitempty"`
	CutTimeout   bool   `json:"cut_timeout,omitempty"` // nobody cut within the table's window: the inspector's cut
	// Dealt are the rounds' cards in the order drawn, once the seed is
	// revealed (and, before, not at all).
	Dealt []DealtRound `json:"dealt,omitempty"`
	// Next, when the shoe has more rounds than this page, is the after=
	// of the next page: the last round of this one.
	Next string `json:"next,omitempty"`
}

// DealtRound is a round of a revealed shoe: its cards in the order drawn,
// or Forced (test mode: dealt from cards given, not from the shoe).
type DealtRound struct {
	Round  string      `json:"round"`
	Forced bool        `json:"forced,omitempty"`
	Closed bool        `json:"closed"` // settled or void in the log
	Cards  []card.Card `json:"cards"`
}

// VerifyReport is the outcome of checking a shoe against its commitment.
type VerifyReport struct {
	Shoe       string   `json:"shoe"`
	Commitment string   `json:"commitment"`
	Matches    bool     `json:"commitment_matches"`
	Rounds     int      `json:"rounds_checked"`
	Cards      int      `json:"cards_checked"`
	Skipped    []string `json:"skipped,omitempty"` // forced (test-mode) rounds, not dealt from the shoe
	Problems   []string `json:"problems,omitempty"`
}

// OK reports whether the shoe verified.
func (v *VerifyReport) OK() bool { return v.Matches && len(v.Problems) == 0 }

// BetResult is a bet of a round settled: what it staked and what it won
// or lost (Net).
type BetResult struct {
	Player string       `json:"player"`
	Box    int          `json:"box"`
	Hand   int          `json:"hand"`
	Kind   string       `json:"kind"`
	Stake  money.Amount `json:"stake"`
	Result string       `json:"result"`
	Net    money.Amount `json:"net"`
}

// HandResult is a hand of a round settled: its cards and total.
type HandResult struct {
	Box    int         `json:"box"`
	Hand   int         `json:"hand"`
	Cards  []card.Card `json:"cards"`
	Total  int         `json:"total"`
	Result string      `json:"result"`
}

// RoundID names a round: table and round number, "3-17". A shoe is named
// the same way, by its table and its number.
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
