package server

import (
	"context"

	"sabot"
	"sabot/engine"
)

// Two of the dealer's irregularities in the Argentine reglamento that are
// not corrections for the inspector but the dealer's own call at the
// console, at a table dealt from a physical shoe (AR-23; docs/live.md):
//
//   - card-stands, (d)'s exception: «a excepción de las cartas extraídas
//     para el "AS" o "ONCE", cuando el pagador omite preguntar si "ASEGURA"
//     o "DOBLA"»: the card he drew to a first-card Ace before offering the
//     challenge, or to a two-card 11 before asking about the double, stands:
//     the challenge closes, or the 11 takes it as a hit.
//   - skipped-eleven, item 9: «se le dará la opción de retirar la apuesta o
//     a recibir la próxima carta»: the player on 11 in turn whom the dealer
//     gave no card may withdraw his bet (act withdraw) or play on.
const (
	opCardStands    = "card-stands"
	opSkippedEleven = "skipped-eleven"
)

// irregularRequest is the body of card-stands and skipped-eleven: the
// round's state names the hand.
type irregularRequest struct{}

func (irregularRequest) read(CommandRequest) (irregularRequest, error) {
	return irregularRequest{}, nil
}

func (a *actor) cardStands(ctx context.Context, c *command, _ irregularRequest) (int64, error) {
	return a.irregular(ctx, c, engine.CardStands)
}

func (a *actor) skippedEleven(ctx context.Context, c *command, _ irregularRequest) (int64, error) {
	return a.irregular(ctx, c, engine.SkippedEleven)
}

// irregular applies the dealer's call as the house's action of the round,
// recorded in the table's log like any decision; refused with the engine's
// reason (AR-23) where it does not apply.
func (a *actor) irregular(ctx context.Context, c *command, k engine.Kind) (int64, error) {
	if err := a.physicalOnly(); err != nil {
		return 0, err
	}
	r := a.t.Round()
	if !a.dealt || r.Phase() == engine.Done {
		return 0, sabot.Errorf(sabot.ECONFLICT, "refused: no round is in play (AR-23)")
	}
	act := engine.Action{Kind: k}
	if err := r.Check(act); err != nil {
		return 0, refusal(err)
	}
	rec, err := a.append(ctx, c, sabot.LogAction, a.t.RoundNo(), actionPayload{Round: a.t.RoundNo(), Action: toWire(act)}, nil)
	if err != nil {
		return 0, err
	}
	if err := r.Act(act); err != nil { // cannot happen: checked above
		a.log.Error("a checked house action was refused", "err", err)
		a.rebuild(ctx)
		return 0, sabot.Internal(err)
	}
	a.publishRound("dealer")
	return rec.Seq, nil
}
