package wire

import (
	"fmt"
	"reflect"
	"strings"
	"sync"

	"sabot"
	"sabot/card"
	"sabot/money"
)

// The table commands' bodies. Every command is sent in the same body,
// CommandRequest: {"op":"bet","command_id":...,"box":1,"stake":500} on the
// WebSocket, the same without op as the body of POST
// /api/tables/{id}/bet. The body is read strictly against CommandRequest
// (Decode), so a field that no command has is refused and a field of
// another command is checked and then not read; each command then takes
// its own request out of it (Take): Sit, Bet, Act, ... The server's
// registry of commands (internal/actor/table_commands.go) names each
// command's request type.

// CommandRequest is the body of every table command (the server's registry
// of commands: each reads its own request out of it). CommandID is the
// client's, unique per client: a command sent again with the same ID is
// applied once and answered the same.
type CommandRequest struct {
	Op        string       `json:"op,omitempty"` // on the WebSocket; the URL says it over HTTP
	CommandID string       `json:"command_id"`
	ClientID  string       `json:"client_id,omitempty"`
	Box       int          `json:"box,omitempty"`
	Hand      int          `json:"hand,omitempty"`
	Stake     money.Amount `json:"stake,omitempty"`
	Action    string       `json:"action,omitempty"`
	Value     int          `json:"value,omitempty"`
	Cards     string       `json:"cards,omitempty"` // force-cards: space-separated codes
	Card      string       `json:"card,omitempty"`  // card: the code of a card read from a physical shoe; correct: the card burned
	// correct: AR-23's case ("a" to "i"), with box or card; approve,
	// refuse-correction: the correction's ID.
	Case       string `json:"case,omitempty"`
	Correction int64  `json:"correction,omitempty"`
	// WalkIn: the dealer sends a player's command (bet, withdraw, act,
	// decline, leave) for the walk-in at this box (docs/live.md).
	WalkIn int `json:"walk_in,omitempty"`
	// configure: options to set ("" puts the profile's back), the bank of
	// a family table (a seated player, "" the house; FAM-01), why.
	Options map[string]string `json:"options,omitempty"`
	Bank    *string           `json:"bank,omitempty"`
	Reason  string            `json:"reason,omitempty"`
}

// CommandResult is the answer to a command that was applied: the sequence
// number of its record in the table's log.
type CommandResult struct {
	OK        bool  `json:"ok"`
	Seq       int64 `json:"seq"`
	Duplicate bool  `json:"duplicate,omitempty"`
}

// The requests of the table commands, each the fields of CommandRequest
// its command reads, under the same JSON names and types. The fields
// every command has (op, command_id, client_id, walk_in) are the server's
// to check, before the command reads its own.
type (
	// Sit takes a free box (AR-21); also the dealer's seat-walk-in and
	// cash-out, for the walk-in at a box.
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

// Take reads a command's own request, R, out of the body every command has:
// the fields of CommandRequest that R has, by their JSON names; the other
// commands' fields are not read. R's fields have the names and types of
// CommandRequest's (TestRequestsAreTheBody), so that a body Decode took
// always gives an R. The fields are copied, not encoded and decoded again:
// the plan of an R (which field of the body each of its fields is) is made
// once.
func Take[R any](body CommandRequest) (R, error) {
	var req R
	dst := reflect.ValueOf(&req).Elem()
	plan, err := takePlan(dst.Type())
	if err != nil {
		return req, sabot.Internal(err)
	}
	src := reflect.ValueOf(&body).Elem()
	for i, j := range plan {
		dst.Field(i).Set(src.Field(j))
	}
	return req, nil
}

// takePlans holds, for each request type Take has read, the index in
// CommandRequest of each of its fields.
var takePlans sync.Map // reflect.Type → []int

// takePlan is the index in CommandRequest of each field of the request
// type t, matched by JSON name and of the same type, or why t is no
// command's request.
func takePlan(t reflect.Type) ([]int, error) {
	if p, ok := takePlans.Load(t); ok {
		return p.([]int), nil
	}
	if t.Kind() != reflect.Struct {
		return nil, fmt.Errorf("wire: a command's request is a struct, not %s", t)
	}
	body := reflect.TypeFor[CommandRequest]()
	byName := make(map[string]int, body.NumField())
	for i := range body.NumField() {
		byName[jsonName(body.Field(i))] = i
	}
	plan := make([]int, t.NumField())
	for i := range t.NumField() {
		f := t.Field(i)
		j, ok := byName[jsonName(f)]
		if !ok || body.Field(j).Type != f.Type {
			return nil, fmt.Errorf("wire: %s.%s (%q, %s) is no field of the command body", t, f.Name, jsonName(f), f.Type)
		}
		plan[i] = j
	}
	takePlans.Store(t, plan)
	return plan, nil
}

// jsonName is the name a struct field has in JSON.
func jsonName(f reflect.StructField) string {
	name, _, _ := strings.Cut(f.Tag.Get("json"), ",")
	if name == "" {
		return f.Name
	}
	return name
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
