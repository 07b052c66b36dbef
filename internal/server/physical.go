package server

import (
	"context"

	"sabot"
	"sabot/card"
)

// A table dealt from a physical shoe (issue 13, docs/live.md): the option
// shoe=physical. The round asks for each card where it deals it (a "need"
// event, TableView.Need); the dealer's console or a card reader sends the
// card read (the card command), the last card may be taken back before
// anyone acted on it (undo-card), and the dealer says when the cut card
// came out (cut-card). Each is a record of the table's log naming who sent
// it and from which device: a start replays them like every other record.

// The dealer's commands.
const (
	opCard     = "card"
	opUndoCard = "undo-card"
	opCutCard  = "cut-card"
	opNoMore   = "no-more-bets"
)

// cardPayload is a card read into the round (LogCard), or taken back
// (LogCardUndo): who sent it (the dealer at the console, or the card reader
// by its name) and, from a reader, its ID.
type cardPayload struct {
	Round  int       `json:"round"`
	Card   card.Card `json:"card"`
	By     string    `json:"by"`
	Device int64     `json:"device,omitempty"`
	// A card taken back by the inspector (issue 25): the correction he
	// approved (its ID), and whether the hole card turned after the card
	// is turned again before anyone decides (AR-23 (g)).
	Correction int64 `json:"correction,omitempty"`
	Expose     bool  `json:"expose,omitempty"`
}

// cutPayload is the cut card's coming out (LogCutCard, EG-04).
type cutPayload struct {
	Round int    `json:"round"`
	By    string `json:"by"`
}

// cardRequest is a card read from the shoe: its code (AS, TD, 9H).
type cardRequest struct{ Card card.Card }

func (cardRequest) read(b CommandRequest) (cardRequest, error) {
	c, err := card.Parse(b.Card)
	if err != nil {
		return cardRequest{}, sabot.Errorf(sabot.EINVALID, "card %q: a card is its rank (A, 2 to 9, T, J, Q, K) and its suit (S, H, D, C), e.g. AS or TD", b.Card)
	}
	return cardRequest{Card: c}, nil
}

// physicalOnly refuses a dealer's command at a table dealt from a
// shuffled shoe.
func (a *actor) physicalOnly() error {
	if !a.t.Physical() {
		return sabot.Errorf(sabot.ECONFLICT, "refused: the table deals from the server's shuffled shoe; cards are read only at a table opened with shoe=physical")
	}
	return nil
}

// readCard feeds the card read from the shoe to the round, where it asks
// for one. A card when none is due, or one the shoe cannot hold, is
// refused and changes nothing.
func (a *actor) readCard(ctx context.Context, c *command, req cardRequest) (int64, error) {
	if err := a.physicalOnly(); err != nil {
		return 0, err
	}
	if !a.dealt {
		return 0, sabot.Errorf(sabot.ECONFLICT, "refused: no card is due: no round is in play")
	}
	if err := a.t.Feed(req.Card); err != nil {
		return 0, refusal(err)
	}
	pay := cardPayload{Round: a.t.RoundNo(), Card: req.Card, By: c.user.Name}
	if c.device != nil {
		pay.Device = c.device.ID
	}
	rec, err := a.append(ctx, c, sabot.LogCard, a.t.RoundNo(), pay, nil)
	if err != nil {
		a.rebuild(ctx)
		return 0, err
	}
	a.publishRound("dealer")
	a.proceed(ctx)
	return rec.Seq, nil
}

// undoCard is the dealer's own undo: it takes back the last card read, a
// misread that nothing followed and that decided nothing; the round asks
// for that card again. A card that decided something (Table.Decided: read
// face down, it ended a hand or the dealer's, a hole card was turned or a
// bet settled after it) is the inspector's to take back, an AR-23
// correction (case undo): the dealer is refused, and nothing changes. So
// no player who may still decide is ever asked again after the hole card
// was turned (AR-09; issue 25).
func (a *actor) undoCard(ctx context.Context, c *command, _ noFields) (int64, error) {
	if err := a.physicalOnly(); err != nil {
		return 0, err
	}
	if !a.dealt {
		return 0, sabot.Errorf(sabot.ECONFLICT, "refused: no round is in play")
	}
	tk, err := a.t.Decided()
	if err != nil {
		return 0, refusal(err)
	}
	if tk.Why != "" {
		return 0, sabot.Errorf(sabot.ECONFLICT, "refused: the last card read decided something: %s: taking it back is an AR-23 correction the inspector approves (correct, case undo)", tk.Why)
	}
	return a.takeBack(ctx, c, cardPayload{By: c.user.Name})
}

// takeBack takes back the last card read and records it (LogCardUndo,
// with pay's who and correction): the players are told which card went
// back (not a face-down one) and the round asks for it again.
func (a *actor) takeBack(ctx context.Context, c *command, pay cardPayload) (int64, error) {
	back, err := a.t.Undo()
	if err != nil {
		return 0, refusal(err)
	}
	pay.Round, pay.Card = a.t.RoundNo(), back
	rec, err := a.append(ctx, c, sabot.LogCardUndo, a.t.RoundNo(), pay, nil)
	if err != nil {
		a.rebuild(ctx)
		return 0, err
	}
	if pay.Correction != 0 {
		a.drop(pay.Correction)
		a.expose = a.expose || pay.Expose
	}
	// The round has fewer events than were sent: the players are told
	// which card went back, and count on from the round as it is now.
	n := a.needView()
	e := Event{Kind: "undo", Round: a.t.RoundNo(), Player: pay.By, Need: n}
	if n != nil {
		e.Box, e.Hand, e.FaceDown = n.Box, n.Hand, n.FaceDown
		if !n.FaceDown {
			e.Card = back.String()
		}
	}
	a.sent = len(a.t.Round().Events())
	a.publish(e)
	a.proceed(ctx)
	return rec.Seq, nil
}

// cutCard notes that the cut card came out of the shoe while the round
// was dealt: it is the shoe's last (EG-04).
func (a *actor) cutCard(ctx context.Context, c *command, _ noFields) (int64, error) {
	if err := a.physicalOnly(); err != nil {
		return 0, err
	}
	if !a.dealt {
		return 0, sabot.Errorf(sabot.ECONFLICT, "refused: the cut card is noted while a round is dealt (EG-04)")
	}
	if err := a.t.CutCard(); err != nil {
		return 0, refusal(err)
	}
	rec, err := a.append(ctx, c, sabot.LogCutCard, a.t.RoundNo(), cutPayload{Round: a.t.RoundNo(), By: c.user.Name}, nil)
	if err != nil {
		a.rebuild(ctx)
		return 0, err
	}
	// The players see the cut card come out where the round shows it:
	// before the next card (the engine's cut-card event).
	return rec.Seq, nil
}

// noMoreBets is the dealer's call "no more bets" (AR-22; "rien ne va
// plus", VE-04): the betting closes at his word and the round is dealt,
// if the bets allow it (AR-03, VE-20: else the refusal says what is
// missing). At any table; at a physical one it is how a round starts
// before the betting window runs out.
func (a *actor) noMoreBets(ctx context.Context, c *command, _ noFields) (int64, error) {
	if a.dealt {
		return 0, sabot.Errorf(sabot.ECONFLICT, "refused: round %d is in play", a.t.RoundNo())
	}
	if err := a.t.CanDeal(); err != nil {
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
