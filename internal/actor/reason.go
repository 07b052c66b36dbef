package actor

import (
	"errors"
	"strings"

	"sabot"
	"sabot/internal/wire"
	"sabot/table"
)

// The reasons a client words in its own language (docs/protocol.md,
// "Errors"): a stable key and the values its message names. Errors without
// one are shown by their message.

// errorMessage is an error's answer on a socket: its code, its message and,
// where it has them, its reason and values.
func errorMessage(commandID string, err error) wire.Message {
	reason, params := sabot.ReasonOf(err)
	return wire.Message{Type: wire.MsgError, CommandID: commandID, Code: sabot.ErrorCode(err), Error: sabot.ErrorMessage(err), Reason: reason, Params: params}
}

// waiting is the event that says why the bets placed cannot be dealt yet
// (table.NotReady): in words, never an error's raw text, and with its
// reason and values for the page to word in its language.
func waiting(err error) wire.Event {
	w := waitingView(err)
	return wire.Event{Kind: wire.EvWaiting, Text: w.Text, Reason: w.Reason, Params: w.Params}
}

func waitingView(err error) *wire.WaitingView {
	w := &wire.WaitingView{Text: strings.TrimPrefix(sabot.ErrorMessage(wire.Refusal(err)), "refused: ")}
	var nr *table.NotReady
	if errors.As(err, &nr) {
		w.Reason = nr.Reason
		w.Params = map[string]any{"need": nr.Need, "n": nr.Have, "bets": nr.Bets, "rule": nr.Rule}
		if nr.Shoe {
			w.Params["shoe"] = true // AR-03: the shoe goes on while so many bets are made
		}
	}
	return w
}

// ruleParams are a reason's values with the rule IDs the table's
// regulation owns ("rule"), where it owns any.
func ruleParams(rule string, params map[string]any) map[string]any {
	if rule != "" {
		params["rule"] = rule
	}
	return params
}
