package tablelog

import (
	"encoding/json"
	"fmt"
	"time"

	"sabot"
	"sabot/card"
	"sabot/engine"
	"sabot/internal/wire"
	"sabot/money"
)

// Deal starts a round (sabot.LogDeal).
type Deal struct {
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

// DealBets is what the reports read of a deal (a Deal's fields): where
// the round stands in its shoe and its bets.
type DealBets struct {
	Round   int                `json:"round"`
	Shoe    int                `json:"shoe"`
	ShoePos int                `json:"shoe_pos"`
	Bets    []engine.PlacedBet `json:"bets"`
}

// Settle closes a round (sabot.LogSettle): settled, or void with every
// stake returned (sabot.LogVoid).
type Settle struct {
	Round    int                     `json:"round"`
	Void     bool                    `json:"void,omitempty"`
	Reason   string                  `json:"reason,omitempty"`
	Record   engine.Record           `json:"record"`
	Dealer   []card.Card             `json:"dealer"`
	Hands    []wire.HandResult       `json:"hands"`
	Bets     []wire.BetResult        `json:"bets"`
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
	// Left is when each player of the round who stood up while it was in
	// play left (the table's defaults played his hands to the settle): his
	// session there ends then. Rounds settled before it was written have
	// none.
	Left map[string]time.Time `json:"left,omitempty"`
}

// SettleRead is what the players' and the shoes' reports read of a
// settlement (a Settle's fields): its record and hands' cards only when
// asked (DecodeSettleRead), their decoding being most of the work over a
// long period (docs/pit.md, "Fast on a year of data").
type SettleRead struct {
	Round    int                     `json:"round"`
	Void     bool                    `json:"void"`
	Record   engine.Record           `json:"record"`
	Hands    []HandCards             `json:"hands"`
	Bets     []BetLine               `json:"bets"`
	House    money.Amount            `json:"house"`
	Bank     string                  `json:"bank"`
	BankPaid map[string]money.Amount `json:"bank_paid"`
	Left     map[string]time.Time    `json:"left"`
}

// BetLine is what a report reads of a settled bet (wire.BetResult's
// fields).
type BetLine struct {
	Player string       `json:"player"`
	Box    int          `json:"box"`
	Hand   int          `json:"hand"`
	Kind   string       `json:"kind"`
	Stake  money.Amount `json:"stake"`
	Result string       `json:"result"`
	Net    money.Amount `json:"net"`
}

// HandCards is what a report reads of a settled hand (wire.HandResult's
// fields).
type HandCards struct {
	Box   int         `json:"box"`
	Hand  int         `json:"hand"`
	Cards []card.Card `json:"cards"`
}

// HouseWin is what the house (owner 0's account) won in the round.
func (s *SettleRead) HouseWin() money.Amount { return HouseWin(s.Void, s.Bank, s.House, s.BankPaid) }

// DecodeSettleRead decodes a settle or void record's payload; without the
// round's record (withRecord false) it leaves out the record and the
// hands.
func DecodeSettleRead(r *sabot.LogRecord, s *SettleRead, withRecord bool) error {
	if withRecord {
		return Decode(r, s)
	}
	var x struct {
		Round    int                     `json:"round"`
		Void     bool                    `json:"void"`
		Bets     []BetLine               `json:"bets"`
		House    money.Amount            `json:"house"`
		Bank     string                  `json:"bank"`
		BankPaid map[string]money.Amount `json:"bank_paid"`
		Left     map[string]time.Time    `json:"left"`
	}
	if err := Decode(r, &x); err != nil {
		return err
	}
	*s = SettleRead{Round: x.Round, Void: x.Void, Bets: x.Bets, House: x.House, Bank: x.Bank, BankPaid: x.BankPaid, Left: x.Left}
	return nil
}

// SettleTotals is what the tables' report reads of a settlement (a
// Settle's fields): not the round's record nor the hands' cards.
type SettleTotals struct {
	Round int        `json:"round"`
	Void  bool       `json:"void"`
	Hands []struct{} `json:"hands"` // counted
	Bets  []struct {
		Box   int          `json:"box"`
		Kind  string       `json:"kind"`
		Stake money.Amount `json:"stake"`
	} `json:"bets"`
	House    money.Amount            `json:"house"`
	Bank     string                  `json:"bank"`
	BankPaid map[string]money.Amount `json:"bank_paid"`
}

// HouseWin is what the house (owner 0's account) won in the round.
func (s *SettleTotals) HouseWin() money.Amount {
	return HouseWin(s.Void, s.Bank, s.House, s.BankPaid)
}

// HouseWin is what the house (owner 0's account) won in a round: the
// round's net, or at a family table whose bank a player held, only what
// the house covered of the bank's loss (FAM-01, FAM-02; internal/server's
// housePostings).
func HouseWin(void bool, bank string, house money.Amount, bankPaid map[string]money.Amount) money.Amount {
	if void {
		return 0
	}
	if bank == "" {
		return house
	}
	return bankPaid["house"]
}

// Decode decodes a record's payload into v, the error naming the record.
func Decode(r *sabot.LogRecord, v any) error {
	if err := json.Unmarshal(r.Payload, v); err != nil {
		return fmt.Errorf("table %d record %d (%s): %w", r.TableID, r.Seq, r.Kind, err)
	}
	return nil
}

// SettleCards is what a shoe's report reads of a settlement (a Settle's
// fields): the cards the round took out of the shoe.
type SettleCards struct {
	Record struct {
		Cards []card.Card `json:"cards"`
	} `json:"record"`
}

// DealForced is what a shoe's report reads of a deal (a Deal's fields):
// the cards forced in test mode, nil when none were.
type DealForced struct {
	Forced []card.Card `json:"forced"`
}
