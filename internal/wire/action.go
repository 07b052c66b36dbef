package wire

import (
	"sabot"
	"sabot/engine"
	"sabot/money"
)

// Action is an engine.Action as JSON, with the action's name: what a turn
// offers (TurnView.Legal), what an event says was done, what a round's
// record keeps of each decision.
type Action struct {
	Kind   string       `json:"action"`
	Player string       `json:"player,omitempty"`
	Box    int          `json:"box,omitempty"`
	Hand   int          `json:"hand,omitempty"`
	Stake  money.Amount `json:"stake,omitempty"`
	Value  int          `json:"value,omitempty"`
	// Stays are the back bettors who could not follow the holder's split
	// or double under back_follow=follow (engine.Action.Stays): the table
	// names them, never a player.
	Stays []string `json:"stays,omitempty"`
}

// ActionOf is an engine action as the wire says it.
func ActionOf(a engine.Action) Action {
	return Action{a.Kind.String(), a.Player, a.Box, a.Hand, a.Stake, a.Value, a.Stays}
}

// Engine is the engine's action of the wire's: its kind read from its
// name (an unknown one is refused, invalid), a player's hand 1 where none
// is said.
func (w Action) Engine() (engine.Action, error) {
	k, ok := engine.ParseKind(w.Kind)
	if !ok {
		return engine.Action{}, sabot.Errorf(sabot.EINVALID, "unknown action %q", w.Kind)
	}
	hand := w.Hand
	if hand == 0 && k != engine.Close && !k.House() {
		hand = 1
	}
	return engine.Action{Kind: k, Player: w.Player, Box: w.Box, Hand: hand, Stake: w.Stake, Value: w.Value, Stays: w.Stays}, nil
}
