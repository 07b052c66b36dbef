package actor

import (
	"context"

	"sabot"
	"sabot/card"
	"sabot/engine"
	"sabot/internal/live"
	"sabot/internal/tablelog"
	"sabot/internal/wire"
	"sabot/money"
	"sabot/table"
)

// The staff's live table is internal/live (docs/live.md): a table dealt
// from a physical shoe, its walk-ins, the inspector's corrections and
// rulings, the staff and their card readers. Here are its commands'
// requests, read from the body every command has, the actor as a
// live.Table.

// The live table's requests, each read from its wire request by its
// command (parsed).
type (
	// cardRequest is a card read from the shoe.
	cardRequest struct{ Card card.Card }
	// correctRequest is the dealer's request for an AR-23 correction.
	correctRequest struct{ live.CorrectRequest }
	// approveRequest names a correction asked: its ID.
	approveRequest struct{ ID int64 }
	// rulingRequest is a ruling's text.
	rulingRequest struct{ Text string }
	// buyInRequest sells chips to the walk-in at a box.
	buyInRequest struct {
		Box    int
		Amount money.Amount
	}
)

func parseCard(w wire.Card) (cardRequest, error) {
	c, err := live.ParseCard(w.Card)
	return cardRequest{Card: c}, err
}

func parseCorrect(w wire.Correct) (correctRequest, error) {
	req, err := live.ParseCorrect(w.Case, w.Box, w.Card)
	return correctRequest{req}, err
}

func parseApprove(w wire.Approve) (approveRequest, error) {
	id, err := live.ParseID(w.Correction)
	return approveRequest{ID: id}, err
}

func parseRefuse(w wire.RefuseCorrection) (approveRequest, error) {
	id, err := live.ParseID(w.Correction)
	return approveRequest{ID: id}, err
}

func parseRuling(w wire.Ruling) (rulingRequest, error) {
	text, err := live.ParseRuling(w.Text)
	return rulingRequest{Text: text}, err
}

func parseBuyIn(w wire.BuyIn) (buyInRequest, error) {
	amount, err := live.ParseBuyIn(int64(w.Amount))
	return buyInRequest{Box: w.Box, Amount: amount}, err
}

// The live table's commands, as the registry's handlers.

func (a *Table) readCard(ctx context.Context, c *Command, req cardRequest) (int64, error) {
	return live.ReadCard(ctx, a.liveAt(c), senderOf(c), req.Card)
}

func (a *Table) undoCard(ctx context.Context, c *Command, _ wire.UndoCard) (int64, error) {
	return live.UndoCard(ctx, a.liveAt(c), senderOf(c))
}

func (a *Table) cutCard(ctx context.Context, c *Command, _ wire.CutCard) (int64, error) {
	return live.CutCard(ctx, a.liveAt(c), senderOf(c))
}

func (a *Table) noMoreBets(ctx context.Context, c *Command, _ wire.NoMoreBets) (int64, error) {
	return live.NoMoreBets(ctx, a.liveAt(c))
}

func (a *Table) seatWalkIn(ctx context.Context, c *Command, req wire.SeatWalkIn) (int64, error) {
	return a.s.liveDeps().SeatWalkIn(ctx, a.liveAt(c), req.Box)
}

func (a *Table) buyIn(ctx context.Context, c *Command, req buyInRequest) (int64, error) {
	return a.s.liveDeps().BuyIn(ctx, a.liveAt(c), senderOf(c), req.Box, req.Amount)
}

func (a *Table) cashOut(ctx context.Context, c *Command, req wire.CashOut) (int64, error) {
	return a.s.liveDeps().CashOut(ctx, a.liveAt(c), senderOf(c), req.Box)
}

func (a *Table) cardStands(ctx context.Context, c *Command, _ wire.CardStands) (int64, error) {
	return live.CardStands(ctx, a.liveAt(c))
}

func (a *Table) skippedEleven(ctx context.Context, c *Command, _ wire.SkippedEleven) (int64, error) {
	return live.SkippedEleven(ctx, a.liveAt(c))
}

func (a *Table) correct(ctx context.Context, c *Command, req correctRequest) (int64, error) {
	return live.Correct(ctx, a.liveAt(c), senderOf(c), req.CorrectRequest)
}

func (a *Table) approve(ctx context.Context, c *Command, req approveRequest) (int64, error) {
	return a.s.liveDeps().Approve(ctx, a.liveAt(c), senderOf(c), req.ID)
}

func (a *Table) refuseCorrection(ctx context.Context, c *Command, req approveRequest) (int64, error) {
	return live.RefuseCorrection(ctx, a.liveAt(c), senderOf(c), req.ID)
}

func (a *Table) ruling(ctx context.Context, c *Command, req rulingRequest) (int64, error) {
	return live.Ruling(ctx, a.liveAt(c), senderOf(c), req.Text)
}

// senderOf is who sent a command: the user, and the card reader.
func senderOf(c *Command) live.Sender {
	by := live.Sender{User: c.user}
	if c.device != nil {
		by.Device = c.device.ID
	}
	return by
}

// liveTable is the actor as a live.Table, running the command c.
type liveTable struct {
	a *Table
	c *Command
}

func (a *Table) liveAt(c *Command) liveTable { return liveTable{a, c} }

func (l liveTable) Table() *table.Table         { return l.a.t }
func (l liveTable) ID() int64                   { return l.a.created.ID }
func (l liveTable) Options() map[string]string  { return l.a.cfg.Options }
func (l liveTable) Dealt() bool                 { return l.a.dealt }
func (l liveTable) Seq() int64                  { return l.a.lastSeq }
func (l liveTable) Pending() *live.Pending      { return &l.a.pending }
func (l liveTable) Rebuild(ctx context.Context) { l.a.rebuild(ctx) }
func (l liveTable) PublishRound(by string)      { l.a.publishRound(by) }
func (l liveTable) Proceed(ctx context.Context) { l.a.proceed(ctx) }
func (l liveTable) Player(name string) (int64, bool) {
	id, ok := l.a.players[name]
	return id, ok
}

func (l liveTable) House(ctx context.Context, act engine.Action) bool {
	return l.a.house(ctx, act, false)
}

func (l liveTable) Append(ctx context.Context, r live.Record) (int64, error) {
	c := l.c
	if r.Again {
		again := *c
		again.clientID, again.commandID = "", ""
		c = &again
	}
	rec, err := l.a.append(ctx, c, r.Kind, r.Round, r.Payload, r.Postings)
	if err != nil {
		return 0, err
	}
	return rec.Seq, nil
}

func (l liveTable) Publish(e wire.Event) { l.a.publish(e) }

func (l liveTable) Undone(by string, back card.Card, expose bool) {
	a := l.a
	a.expose = a.expose || expose
	n := a.needView()
	e := wire.Event{Kind: wire.EvUndo, Round: a.t.RoundNo(), Player: by, Need: n}
	if n != nil {
		e.Box, e.Hand, e.FaceDown = n.Box, n.Hand, n.FaceDown
		if !n.FaceDown {
			e.Card = back.String()
		}
	}
	a.sent = len(a.t.Round().Events())
	a.publish(e)
}

// Act applies the dealer's irregularity (card-stands, skipped-eleven) as
// the house's action of the round, recorded like any decision.
func (l liveTable) Act(ctx context.Context, act engine.Action) (int64, error) {
	a := l.a
	rec, err := a.append(ctx, l.c, sabot.LogAction, a.t.RoundNo(), tablelog.Decision{Round: a.t.RoundNo(), Action: wire.ActionOf(act)}, nil)
	if err != nil {
		return 0, err
	}
	if err := a.t.Round().Act(act); err != nil { // cannot happen: checked by the caller
		a.log.Error("a checked house action was refused", "err", err)
		a.rebuild(ctx)
		return 0, sabot.Internal(err)
	}
	a.publishRound("dealer")
	// Item 9 changes what the player in turn may do (withdraw) and emits
	// no event of the round: his turn is sent again, with its actions.
	a.publishTurn()
	return rec.Seq, nil
}

// Deal deals on the dealer's "no more bets", if the bets allow it (AR-03,
// VE-20: else the refusal says what is missing).
func (l liveTable) Deal(ctx context.Context) (int64, error) {
	a := l.a
	err := a.t.ShoeReady() // AR-07, EG-02: the steps recorded first
	if err == nil {
		err = a.t.CanDeal()
	}
	if err != nil {
		w := waitingView(err)
		e := sabot.Errorf(sabot.ECONFLICT, "refused: %s", w.Text)
		if w.Reason != "" {
			e = e.WithReason(w.Reason, w.Params)
		}
		return 0, e
	}
	a.tryDeal(ctx)
	if !a.dealt {
		return 0, sabot.Errorf(sabot.ECONFLICT, "refused: the bets placed do not allow a round now")
	}
	return a.lastSeq, nil
}

// Sit seats a walk-in, a guest the dealer's command seats.
func (l liveTable) Sit(ctx context.Context, u *sabot.User, box int) (int64, error) {
	g := *l.c
	g.user = u
	l.a.players[u.Name] = u.ID
	return l.a.sit(ctx, &g, wire.Sit{Box: box})
}

// drop forgets a request decided.
func (a *Table) drop(id int64) { a.pending.Drop(id) }

// replayCorrection rebuilds the corrections waiting, and the burns
// approved, from the log.
func (a *Table) replayCorrection(r *sabot.LogRecord, p wire.AdminEvent) error {
	return a.pending.Replay(a.t, r.Seq, p.Event, p.Correction)
}

// correctionsView lists the corrections waiting, oldest first, as
// everyone may see them.
func (a *Table) correctionsView() []wire.CorrectionView {
	var out []wire.CorrectionView
	for _, x := range a.pending.View() {
		out = append(out, wire.CorrectionView(x))
	}
	return out
}

func (a *Table) cashView() *wire.CashView {
	return (*wire.CashView)(live.Cash(a.t, a.cfg.Options, a.s.CashApproval, a.s.FloatLimit))
}

// walkInPlayer reports whether a name is a walk-in's.
func walkInPlayer(name string) bool { return live.IsWalkIn(name) }

// asWalkIn turns a player's command the dealer sent for the walk-in at a
// box into the walk-in's own.
func (a *Table) asWalkIn(c *Command) error {
	holder := a.t.Holder(c.walkIn)
	if c.walkIn < 1 || c.walkIn > a.p.Boxes || !walkInPlayer(holder) {
		return sabot.Errorf(sabot.ECONFLICT, "refused: box %d is not held by a walk-in player", c.walkIn)
	}
	id, ok := a.players[holder]
	if !ok {
		return sabot.Errorf(sabot.ECONFLICT, "refused: the walk-in at box %d is not known here", c.walkIn)
	}
	c.user = &sabot.User{ID: id, Name: holder, Role: sabot.RoleGuest}
	return nil
}
