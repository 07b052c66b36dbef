package live

import (
	"context"

	"sabot"
	"sabot/engine"
	"sabot/internal/wire"
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

// CardStands is the dealer's call of (d)'s exception: the card stands.
func CardStands(ctx context.Context, t Table) (int64, error) {
	return irregular(ctx, t, engine.CardStands)
}

// SkippedEleven is the dealer's call of item 9: he skipped a player on 11.
func SkippedEleven(ctx context.Context, t Table) (int64, error) {
	return irregular(ctx, t, engine.SkippedEleven)
}

// irregular applies the dealer's call as the house's action of the round,
// recorded in the table's log like any decision; refused with the engine's
// reason (AR-23) where it does not apply.
func irregular(ctx context.Context, t Table, k engine.Kind) (int64, error) {
	if err := physicalOnly(t); err != nil {
		return 0, err
	}
	r := t.Table().Round()
	if !t.Dealt() || r.Phase() == engine.Done {
		return 0, sabot.Errorf(sabot.ECONFLICT, "refused: no round is in play%s", Cited(t, StaffRules, ""))
	}
	act := engine.Action{Kind: k}
	if err := r.Check(act); err != nil {
		return 0, wire.Refusal(err)
	}
	return t.Act(ctx, act)
}
