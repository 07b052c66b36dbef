package actor

import (
	"context"
	"crypto/rand"
	"math/big"

	"sabot"
	"sabot/internal/recall"
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
	pay := recall.ShoeStep{Shoe: a.t.ShoeNo(), Step: recall.StepAuthorise, By: c.user.Name, Role: roleOf(c.user)}
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
	pay := recall.ShoeStep{Shoe: a.t.ShoeNo(), Step: recall.StepCut, By: c.user.Name, Role: roleOf(c.user), At: req.Value}
	return a.cut(ctx, c, pay)
}

// cut applies a cut and writes its record.
func (a *Table) cut(ctx context.Context, c *Command, pay recall.ShoeStep) (int64, error) {
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
	pay := recall.ShoeStep{Shoe: a.t.ShoeNo(), Step: recall.StepCut, By: "inspector", Role: "inspector", At: lo + int(n.Int64()), Timeout: true}
	_, err = a.cut(ctx, nil, pay)
	if err != nil {
		a.log.Error("the inspector's cut not written", "err", err)
		return false
	}
	return true
}

// publishStep tells the table's subscribers a step.
func (a *Table) publishStep(p recall.ShoeStep) {
	a.publish(wire.Event{Kind: wire.EvShoeStep, Shoe: recall.ShoeID(a.cfg.ID, p.Shoe), Text: sabot.Sentence(recall.ShoeStepWords(p))})
}

func (a *Table) replayShoeStep(_ *sabot.LogRecord, p recall.ShoeStep) error {
	if p.Step == recall.StepAuthorise {
		return a.t.AuthoriseShuffle(p.By)
	}
	if err := a.t.CutShoe(p.By, p.At); err != nil {
		return err
	}
	a.noteShoe()
	return nil
}
