package wire

import (
	"errors"

	"sabot"
	"sabot/engine"
	"sabot/table"
)

// Refusal turns a rule's refusal into the error a player reads: what was
// refused and why, with the rule ID. The engine's refusals are invalid, or
// a conflict where it is not the player's turn or the round's phase; the
// table's are a conflict; a sabot error passes as it is. The server's
// table commands and the live table's word them so, one way.
func Refusal(err error) error {
	if err == nil {
		return nil
	}
	var r *engine.Refusal
	var tr *table.Refusal
	switch {
	case errors.As(err, &r):
		code := sabot.EINVALID
		if errors.Is(err, engine.ErrOutOfTurn) || errors.Is(err, engine.ErrPhase) {
			code = sabot.ECONFLICT
		}
		return sabot.Errorf(code, "refused: %s", r.Error()).WithReason(engineReason(r))
	case errors.As(err, &tr) && tr.Reason != "":
		return sabot.Errorf(sabot.ECONFLICT, "%s", err.Error()).WithReason(tr.Reason, tr.Params)
	case errors.Is(err, table.ErrRefused):
		return sabot.Errorf(sabot.ECONFLICT, "%s", err.Error())
	}
	var se *sabot.Error
	if errors.As(err, &se) {
		return err
	}
	return sabot.Errorf(sabot.EINVALID, "refused: %v", err)
}

// engineReason is the reason of a refusal of the engine, by its kind: a
// decision out of turn or at the wrong moment, a stake, an action the
// rules do not allow; the rules it cites are its "rule".
func engineReason(r *engine.Refusal) (string, map[string]any) {
	reason := "action_refused"
	switch {
	case errors.Is(r.Err, engine.ErrOutOfTurn):
		reason = "out_of_turn"
	case errors.Is(r.Err, engine.ErrPhase):
		reason = "wrong_phase"
	case errors.Is(r.Err, engine.ErrStake):
		reason = "stake_refused"
	}
	if r.Rule == "" {
		return reason, nil
	}
	return reason, map[string]any{"rule": r.Rule}
}
