package actor

import (
	"context"
	"fmt"
	"strings"

	"sabot"
	"sabot/internal/tablelog"
	"sabot/internal/wire"
	"sabot/money"
	"sabot/rules"
)

// A table closed by the pit and reopened. 003 §11: the
// game goes on «hasta el momento en que se cierre la mesa, bien por
// cumplirse el horario del casino, bien por circunstancias de orden
// interno del mismo (cuando hay pocos jugadores en las mesas, se van
// cerrando éstas y los jugadores son invitados a agruparse en las que
// permanecen abiertas)». The inspector or the pit closes a table between
// rounds: nothing is void, every stake is kept: the bets placed for the
// next round go back to their players' wallets, as a leave returns them
// (one leave record each, balanced in the ledger), the seats are given
// up, and an admin record says who closed it and the table the players
// are invited to. Closed, the table refuses every command but
// reopen-table, which an admin record ends. This is not the out-of-service
// state (closed: a log that does not replay), which refuses everything
// and is never reopened.

// pitClose is a table the pit closed: who, why, the table the players are
// invited to.
type pitClose struct {
	by, user, reason string // by: "the inspector NAME", "the pit NAME"; user: NAME
	to               int64
}

// closeRule is what a refusal of a closing cites at the table: 003 §11 at
// spain and family, whose rules (RULES.md) have no ID for it yet; this
// table's rules elsewhere (000 and 004 say nothing of closing a table).
func (a *Table) closeRule() string {
	switch a.p.Regulation {
	case "spain", "family":
		return "003 §11"
	}
	return rules.TableRules
}

// text says the closing for the players and the log.
func (pc *pitClose) text() string {
	s := "closed by " + pc.by
	if pc.to != 0 {
		s += fmt.Sprintf("; the players are invited to table %d", pc.to)
	}
	if pc.reason != "" {
		s += ": " + pc.reason
	}
	return s
}

// pitCloseTable closes the table between rounds on the inspector's or the
// pit's order (003 §11).
func (a *Table) pitCloseTable(ctx context.Context, c *Command, req wire.CloseTable) (int64, error) {
	rule := a.closeRule()
	if a.dealt {
		return 0, sabot.Errorf(sabot.ECONFLICT, "refused: a table is closed between rounds, once the round in play is over (%s)", rule).
			WithReason("close_in_round", map[string]any{"rule": rule})
	}
	if req.To == a.cfg.ID {
		return 0, sabot.Errorf(sabot.EINVALID, "to: the players are invited to another table than the one closed")
	}
	// A walk-in at a live table holds the casino's chips: the dealer
	// cashes him out (cash-out) and stands him up (leave, walk_in) before
	// the table closes.
	for _, p := range a.atTable() {
		if walkInPlayer(p) {
			return 0, sabot.Errorf(sabot.ECONFLICT, "refused: the walk-in %s still sits at the table: the dealer cashes him out (%s) and stands him up (%s with walk_in) first", p, wire.OpCashOut, wire.OpLeave)
		}
	}
	by := "the pit " + c.user.Name
	if c.user.Role == sabot.RoleInspector {
		by = "the inspector " + c.user.Name
	}
	pc := &pitClose{by: by, user: c.user.Name, reason: strings.TrimSpace(req.Reason), to: req.To}
	// Every player's bets back and his seats given up, as his leave: one
	// record each, the closing's command ID on none, so that a closing
	// stopped half-way is done whole when sent again.
	for _, p := range a.atTable() {
		var pending money.Amount
		for _, b := range a.t.Bets() {
			if b.Player == p {
				pending += b.Stake
			}
		}
		ps, err := a.moves(ctx, p, pending, "table closed: bets returned")
		if err != nil {
			return 0, err
		}
		if _, err := a.append(ctx, nil, sabot.LogLeave, 0, tablelog.Seat{Player: p, Returned: pending, Reason: "table closed (" + rule + ")"}, ps); err != nil {
			return 0, err
		}
		a.t.Leave(p)
		a.publish(wire.Event{Kind: wire.EvLeave, Player: p, Amount: pending, Text: "table closed by " + c.user.Name + " (" + rule + ")",
			Reason: "table_closed_pit", Params: map[string]any{"table": req.To, "by": c.user.Name, "rule": rule}})
	}
	rec, err := a.append(ctx, c, sabot.LogAdmin, 0, tablelog.CloseTable{User: c.user.Name, By: by, Table: req.To, Memo: pc.reason,
		Text: pc.text() + " (" + rule + ")"}, nil)
	if err != nil {
		return 0, err
	}
	a.shut = pc
	a.stopTimer()
	a.stopSeatTimer()
	a.publish(wire.Event{Kind: wire.EvClosed, Table: req.To, By: c.user.Name, Text: pc.text() + " (" + rule + ")",
		Reason: "table_closed_pit", Params: map[string]any{"table": req.To, "by": c.user.Name, "rule": rule}})
	return rec.Seq, nil
}

// pitReopenTable opens a table the pit closed.
func (a *Table) pitReopenTable(ctx context.Context, c *Command, _ wire.ReopenTable) (int64, error) {
	if a.shut == nil {
		return 0, sabot.Errorf(sabot.ECONFLICT, "refused: table %d is open", a.cfg.ID).WithReason("table_open", nil)
	}
	rec, err := a.append(ctx, c, sabot.LogAdmin, 0, tablelog.ReopenTable{User: c.user.Name, Text: "reopened by " + c.user.Name}, nil)
	if err != nil {
		return 0, err
	}
	a.shut = nil
	a.publish(wire.Event{Kind: wire.EvReopened, By: c.user.Name, Text: "reopened by " + c.user.Name})
	return rec.Seq, nil
}

// atTable are the players seated or betting (a back bettor bets on a box
// he does not hold), each once, in the order of the boxes and the bets.
func (a *Table) atTable() []string {
	var out []string
	seen := map[string]bool{}
	add := func(p string) {
		if p != "" && !seen[p] {
			seen[p] = true
			out = append(out, p)
		}
	}
	for box := 1; box <= a.p.Boxes; box++ {
		add(a.t.Holder(box))
	}
	for _, b := range a.t.Bets() {
		add(b.Player)
	}
	return out
}

// shutRefusal is the refusal of a command at a table the pit closed.
func (a *Table) shutRefusal() error {
	rule := a.closeRule()
	return sabot.Errorf(sabot.ECONFLICT, "refused: table %d is %s (%s)", a.cfg.ID, a.shut.text(), rule).
		WithReason("table_closed_pit", map[string]any{"table": a.shut.to, "by": a.shut.user, "rule": rule})
}

// replayCloseTable and replayReopenTable apply the pit's closing and
// reopening at a start.
func (a *Table) replayCloseTable(p wire.AdminEvent) {
	a.shut = &pitClose{by: p.By, user: p.User, reason: p.Memo, to: p.Table}
}
