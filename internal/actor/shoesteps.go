package actor

import (
	"context"
	"crypto/rand"
	"math/big"

	"sabot"
	"sabot/internal/recall"
	"sabot/internal/tablelog"
	"sabot/internal/wire"
	"sabot/table"
)

// A new shoe's steps before its first deal, where the profile asks them
// (player_cut; AR-07, EG-02; table/steps.go): the inspector authorises the
// shuffle (authorise-shuffle), then the player chosen to cut cuts it
// (cut-shoe), at the position he gives. Reading of «solicitando a los
// apostadores» (000 item 5) and «uno de los jugadores» (003 §10): the
// holder of the lowest seated box cuts; with nobody seated, the inspector
// (or the pit). Each step is a record (sabot.LogShoeStep), replayed. The
// cut waits one betting window from the authorisation (or the first bet
// after it): when it runs out, the inspector's cut is made, at a position
// the server draws, and the record says so. The authorisation waits for
// the inspector: the bets placed stay.

// cutter is the player chosen to cut the shoe and his box ("": nobody is
// seated).
func (a *Table) cutter() (string, int) {
	for box := 1; box <= a.p.Boxes; box++ {
		if h := a.t.Holder(box); h != "" && h != a.t.Bank() {
			return h, box
		}
	}
	return "", 0
}

// roleOf is the role a step's record names for its sender.
func roleOf(u *sabot.User) string {
	switch {
	case u.Admin:
		return "pit"
	case u.Role == sabot.RoleInspector:
		return "inspector"
	}
	return "player"
}

// authoriseShuffle is the inspector's authorisation of the new shoe's
// shuffle (000 item 5).
func (a *Table) authoriseShuffle(ctx context.Context, c *Command, _ wire.AuthoriseShuffle) (int64, error) {
	if a.dealt {
		return 0, sabot.Errorf(sabot.ECONFLICT, "refused: a new shoe's shuffle is authorised between rounds%s", cite(a.p.Cite("AR-07, EG-02", "player_cut")))
	}
	if err := a.t.AuthoriseShuffle(c.user.Name); err != nil {
		return 0, wire.Refusal(err)
	}
	pay := tablelog.ShoeStep{Shoe: a.t.ShoeNo(), Step: tablelog.StepAuthorise, By: c.user.Name, Role: roleOf(c.user)}
	rec, err := a.append(ctx, c, sabot.LogShoeStep, 0, pay, nil)
	if err != nil {
		a.rebuild(ctx)
		return 0, err
	}
	a.publishStep(pay)
	a.stopTimer()
	a.armBetTimer() // the cut's window
	return rec.Seq, nil
}

// cutShoe is the cut of the new shoe: by the player chosen to cut, or by
// the inspector or the pit when nobody is seated (AR-07, EG-02).
func (a *Table) cutShoe(ctx context.Context, c *Command, req wire.CutShoe) (int64, error) {
	if a.dealt {
		return 0, sabot.Errorf(sabot.ECONFLICT, "refused: a new shoe is cut between rounds%s", cite(a.p.Cite("AR-07, EG-02", "player_cut")))
	}
	if a.t.Physical() {
		return 0, sabot.Errorf(sabot.ECONFLICT, "refused: a physical shoe is cut by hand: the dealer records who cut it (%s)%s", wire.OpRecordCut, cite(a.p.Cite("AR-07, EG-02", "player_cut")))
	}
	if a.t.Awaiting() == table.StepCut {
		name, box := a.cutter()
		role := roleOf(c.user)
		switch {
		case role == "player" && name != c.user.Name && name != "":
			return 0, sabot.Errorf(sabot.EFORBIDDEN, "refused: the cut is %s's, the player at box %d%s", name, box, cite(a.p.Cite("AR-07, EG-02", "player_cut")))
		case role == "player" && name == "":
			return 0, sabot.Errorf(sabot.EFORBIDDEN, "refused: the cut is a seated player's%s", cite(a.p.Cite("AR-07, EG-02", "player_cut")))
		case role != "player" && name != "":
			return 0, sabot.Errorf(sabot.ECONFLICT, "refused: the cut is %s's, the player at box %d: the inspector cuts when nobody is seated or nobody cuts in time%s",
				name, box, cite(a.p.Cite("AR-07, EG-02", "player_cut")))
		}
	}
	pay := tablelog.ShoeStep{Shoe: a.t.ShoeNo(), Step: tablelog.StepCut, By: c.user.Name, Role: roleOf(c.user), At: req.Value}
	return a.cut(ctx, c, pay)
}

// recordCutRequest names the box of the player who cut a physical shoe
// (0: the inspector, or the pit, cut it himself).
type recordCutRequest struct{ Box int }

func parseRecordCut(b wire.RecordCut) (recordCutRequest, error) {
	if b.Box < 0 {
		return recordCutRequest{}, sabot.Errorf(sabot.EINVALID, "record-cut: give the box of the player who cut (box), or 0 for the inspector's own cut")
	}
	return recordCutRequest{Box: b.Box}, nil
}

// recordCut is the dealer's record, at the console of a table dealt from
// a physical shoe, of who cut its new shoe once the inspector authorised
// the shuffle (authorise-shuffle; AR-07: «solicitando a los apostadores
// realizar el corte»; EG-02: «se presentarán a uno de los jugadores para
// un nuevo y final corte»): the player at the box he names, as the
// record's By, and himself as who recorded it. The real cards are cut:
// where is not known. With box 0 the cut is the sender's own, the
// inspector's or the pit's (nobody seated, or nobody would cut); a dealer
// does not cut. The same step and record (sabot.LogShoeStep) as at an RNG
// table: the deal waits for it.
func (a *Table) recordCut(ctx context.Context, c *Command, req recordCutRequest) (int64, error) {
	rule := cite(a.p.Cite("AR-07, EG-02", "player_cut"))
	switch {
	case !a.t.Physical():
		return 0, sabot.Errorf(sabot.ECONFLICT, "refused: the table deals from the server's shuffled shoe: the player chosen cuts it himself (%s)%s", wire.OpCutShoe, rule)
	case a.dealt:
		return 0, sabot.Errorf(sabot.ECONFLICT, "refused: a new shoe is cut between rounds%s", rule)
	case req.Box > a.p.Boxes:
		return 0, sabot.Errorf(sabot.EINVALID, "refused: the table has boxes 1 to %d", a.p.Boxes).WithReason("no_such_box", map[string]any{"boxes": a.p.Boxes})
	}
	pay := tablelog.ShoeStep{Shoe: a.t.ShoeNo(), Step: tablelog.StepCut, Recorded: c.user.Name}
	if req.Box == 0 {
		if !c.user.Admin && c.user.Role != sabot.RoleInspector {
			return 0, sabot.Errorf(sabot.EINVALID, "refused: give the box of the player who cut; the dealer does not cut: with nobody to cut, the inspector cuts and records it%s", rule)
		}
		pay.By, pay.Role = c.user.Name, roleOf(c.user)
	} else {
		h := a.t.Holder(req.Box)
		if h == "" {
			return 0, sabot.Errorf(sabot.ECONFLICT, "refused: nobody holds box %d: a seated player cuts%s", req.Box, rule)
		}
		pay.By, pay.Role, pay.Box = h, "player", req.Box
	}
	return a.cut(ctx, c, pay)
}

// cut applies a cut and writes its record.
func (a *Table) cut(ctx context.Context, c *Command, pay tablelog.ShoeStep) (int64, error) {
	if err := a.t.CutShoe(pay.By, pay.At); err != nil {
		return 0, wire.Refusal(err)
	}
	a.noteShoe() // the burns after the cut (EG-03)
	rec, err := a.append(ctx, c, sabot.LogShoeStep, 0, pay, nil)
	if err != nil {
		a.rebuild(ctx)
		return 0, err
	}
	a.publishStep(pay)
	if c != nil {
		a.maybeDeal(ctx)
	}
	return rec.Seq, nil
}

// cutByTimeout is the inspector's cut when the chosen player did not cut
// within the betting window: at a position drawn by the server, within
// min_cut (AR-07). It reports whether the shoe is cut.
func (a *Table) cutByTimeout(ctx context.Context) bool {
	lo, hi := a.t.CutRange()
	n, err := rand.Int(rand.Reader, big.NewInt(int64(hi-lo+1)))
	if err != nil {
		a.log.Error("no cut drawn", "err", err)
		return false
	}
	pay := tablelog.ShoeStep{Shoe: a.t.ShoeNo(), Step: tablelog.StepCut, By: "inspector", Role: "inspector", At: lo + int(n.Int64()), Timeout: true}
	_, err = a.cut(ctx, nil, pay)
	if err != nil {
		a.log.Error("the inspector's cut not written", "err", err)
		return false
	}
	return true
}

// publishStep tells the table's subscribers a step.
func (a *Table) publishStep(p tablelog.ShoeStep) {
	a.publish(wire.Event{Kind: wire.EvShoeStep, Shoe: recall.ShoeID(a.cfg.ID, p.Shoe), Text: sabot.Sentence(recall.ShoeStepWords(p))})
}

func (a *Table) replayShoeStep(_ *sabot.LogRecord, p tablelog.ShoeStep) error {
	if p.Step == tablelog.StepAuthorise {
		return a.t.AuthoriseShuffle(p.By)
	}
	if err := a.t.CutShoe(p.By, p.At); err != nil {
		return err
	}
	a.noteShoe()
	return nil
}
