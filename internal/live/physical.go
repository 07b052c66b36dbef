package live

import (
	"context"

	"sabot"
	"sabot/card"
	"sabot/internal/tablelog"
	"sabot/internal/wire"
)

// A table dealt from a physical shoe (docs/live.md): the option
// shoe=physical. The round asks for each card where it deals it (a "need"
// event, TableView.Need); the dealer's console or a card reader sends the
// card read (the card command), the last card may be taken back before
// anyone acted on it (undo-card), and the dealer says when the cut card
// came out (cut-card). Each is a record of the table's log naming who sent
// it and from which device: a start replays them like every other record.

// A card read and the cut card's coming out are tablelog.Card and
// tablelog.Cut.

// ParseCard reads a card read from the shoe: its code (AS, TD, 9H).
func ParseCard(s string) (card.Card, error) {
	c, err := card.Parse(s)
	if err != nil {
		return 0, sabot.Errorf(sabot.EINVALID, "card %q: a card is its rank (A, 2 to 9, T, J, Q, K) and its suit (S, H, D, C), e.g. AS or TD", s)
	}
	return c, nil
}

// ReadCard feeds the card read from the shoe to the round, where it asks
// for one. A card when none is due, or one the shoe cannot hold, is
// refused and changes nothing.
func ReadCard(ctx context.Context, t Table, by Sender, c card.Card) (int64, error) {
	if err := physicalOnly(t); err != nil {
		return 0, err
	}
	if !t.Dealt() {
		return 0, sabot.Errorf(sabot.ECONFLICT, "refused: no card is due: no round is in play")
	}
	tb := t.Table()
	if err := tb.Feed(c); err != nil {
		return 0, wire.Refusal(err)
	}
	pay := tablelog.Card{Round: tb.RoundNo(), Card: c, By: by.User.Name, Device: by.Device}
	seq, err := t.Append(ctx, Record{Kind: sabot.LogCard, Round: tb.RoundNo(), Payload: pay})
	if err != nil {
		t.Rebuild(ctx)
		return 0, err
	}
	t.PublishRound("dealer")
	t.Proceed(ctx)
	return seq, nil
}

// UndoCard is the dealer's own undo: it takes back the last card read, a
// misread that nothing followed and that decided nothing; the round asks
// for that card again. A card that decided something (Table.Decided: read
// face down, it ended a hand or the dealer's, a hole card was turned or a
// bet settled after it) is the inspector's to take back, an AR-23
// correction (case undo): the dealer is refused, and nothing changes. So
// no player who may still decide is ever asked again after the hole card
// was turned (AR-09).
func UndoCard(ctx context.Context, t Table, by Sender) (int64, error) {
	if err := physicalOnly(t); err != nil {
		return 0, err
	}
	if !t.Dealt() {
		return 0, sabot.Errorf(sabot.ECONFLICT, "refused: no round is in play")
	}
	tk, err := t.Table().Decided()
	if err != nil {
		return 0, wire.Refusal(err)
	}
	if tk.Why != "" {
		return 0, sabot.Errorf(sabot.ECONFLICT, "refused: the last card read decided something: %s: taking it back is a correction the inspector approves (correct, case undo)%s", tk.Why, Cited(t, StaffRules, ""))
	}
	return takeBack(ctx, t, tablelog.Card{By: by.User.Name})
}

// takeBack takes back the last card read and records it (LogCardUndo,
// with pay's who and correction): the players are told which card went
// back (not a face-down one) and the round asks for it again.
func takeBack(ctx context.Context, t Table, pay tablelog.Card) (int64, error) {
	tb := t.Table()
	back, err := tb.Undo()
	if err != nil {
		return 0, wire.Refusal(err)
	}
	pay.Round, pay.Card = tb.RoundNo(), back
	seq, err := t.Append(ctx, Record{Kind: sabot.LogCardUndo, Round: tb.RoundNo(), Payload: pay})
	if err != nil {
		t.Rebuild(ctx)
		return 0, err
	}
	if pay.Correction != 0 {
		t.Pending().Drop(pay.Correction)
	}
	// The round has fewer events than were sent: the players are told
	// which card went back, and count on from the round as it is now.
	t.Undone(pay.By, back, pay.Correction != 0 && pay.Expose)
	t.Proceed(ctx)
	return seq, nil
}

// CutCard notes that the cut card came out of the shoe while the round
// was dealt: it is the shoe's last (AR-08, EG-04; CutCardRules).
func CutCard(ctx context.Context, t Table, by Sender) (int64, error) {
	if err := physicalOnly(t); err != nil {
		return 0, err
	}
	if !t.Dealt() {
		return 0, sabot.Errorf(sabot.ECONFLICT, "refused: the cut card is noted while a round is dealt%s", Cited(t, CutCardRules, "cut_card_reserve"))
	}
	tb := t.Table()
	if err := tb.CutCard(); err != nil {
		return 0, wire.Refusal(err)
	}
	seq, err := t.Append(ctx, Record{Kind: sabot.LogCutCard, Round: tb.RoundNo(), Payload: tablelog.Cut{Round: tb.RoundNo(), By: by.User.Name}})
	if err != nil {
		t.Rebuild(ctx)
		return 0, err
	}
	// The players see the cut card come out where the round shows it:
	// before the next card (the engine's cut-card event).
	return seq, nil
}

// NoMoreBets is the dealer's call "no more bets" (AR-22; "rien ne va
// plus", VE-04): the betting closes at his word and the round is dealt,
// if the bets allow it (AR-03, VE-20: else the refusal says what is
// missing). At any table; at a physical one it is how a round starts
// before the betting window runs out.
func NoMoreBets(ctx context.Context, t Table) (int64, error) {
	if t.Dealt() {
		return 0, sabot.Errorf(sabot.ECONFLICT, "refused: round %d is in play", t.Table().RoundNo())
	}
	return t.Deal(ctx)
}
