package server

import (
	"regexp"

	"sabot"
	"sabot/rules"
)

// The reasons a client words in its own language (docs/protocol.md,
// "Errors"): a stable key and the values its message names. Errors without
// one are shown by their message.

// errorMessage is an error's answer on a socket: its code, its message and,
// where it has them, its reason and values.
func errorMessage(commandID string, err error) Message {
	reason, params := sabot.ReasonOf(err)
	return Message{Type: "error", CommandID: commandID, Code: sabot.ErrorCode(err), Error: sabot.ErrorMessage(err), Reason: reason, Params: params}
}

// ruleAtEnd finds the rule ID a refusal ends with: "… (AR-03)".
var ruleAtEnd = regexp.MustCompile(`\(([A-Z]+-\d+)\)$`)

// waiting is the event that says why the bets placed cannot be dealt yet,
// with its reason where the page words it: table_minimum_bets (need, n,
// rule: AR-03) or lone_customer_boxes (need, rule: VE-20).
func waiting(p *rules.Profile, bets int, err error) Event {
	e := Event{Kind: "waiting", Text: refusal(err).Error()}
	m := ruleAtEnd.FindStringSubmatch(err.Error())
	if m == nil {
		return e
	}
	switch m[1] {
	case "AR-03":
		e.Reason, e.Params = "table_minimum_bets", map[string]any{"need": p.MinBetsToStart, "n": bets, "rule": m[1]}
	case "VE-20":
		e.Reason, e.Params = "lone_customer_boxes", map[string]any{"need": p.LoneCustomerBoxes, "rule": m[1]}
	}
	return e
}
