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
	switch {
	case errors.As(err, &r):
		code := sabot.EINVALID
		if errors.Is(err, engine.ErrOutOfTurn) || errors.Is(err, engine.ErrPhase) {
			code = sabot.ECONFLICT
		}
		return sabot.Errorf(code, "refused: %s", r.Error())
	case errors.Is(err, table.ErrRefused):
		return sabot.Errorf(sabot.ECONFLICT, "%s", err.Error())
	}
	var se *sabot.Error
	if errors.As(err, &se) {
		return err
	}
	return sabot.Errorf(sabot.EINVALID, "refused: %v", err)
}
