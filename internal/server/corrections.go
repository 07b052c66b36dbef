package server

import (
	"context"
	"fmt"
	"slices"
	"strings"

	"sabot"
	"sabot/card"
	"sabot/engine"
	"sabot/money"
)

// The inspector's authority at a live table (issue 13, deliverable 3;
// docs/live.md). A dealer's irregularity (AR-23) is corrected only
// "previa autorización del Inspector": the dealer asks for a correction
// at the console (correct), the inspector, or the pit, approves it on his
// own screen (approve) or refuses it (refuse-correction), and only then
// does it take effect. Each step is a significant event of the table's
// log naming the dealer and the inspector. A new shoe (AR-24) and a void
// of the round are the inspector's alone.

// The correction commands.
const (
	opCorrect = "correct"
	opApprove = "approve"
	opRefuseC = "refuse-correction"
)

// The corrections a dealer may ask for, by AR-23's letter: what each does.
// (h), the bank's cards forgotten, needs none: the console asks for the
// bank's cards in turn; (i) has nothing to correct. "undo" takes back the
// last card read when it decided something (issue 25): the dealer's own
// undo-card is for a misread that decided nothing.
var correctionCases = map[string]struct {
	action engine.Kind // the engine's correction; 0: a burn (or, with undo, the take-back)
	box    bool        // it names a box
	card   bool        // it names a card (the one burned)
	text   string
	undo   bool // it takes back the last card read
}{
	"undo": {undo: true, text: "the last card read decided something: it is taken back and the round asks for it again; a hole card turned after it stays turned (AR-23 (g))"},
	"a":    {engine.VoidBox, true, false, "a box got one card only and its player does not consent to complete it: the bet is void, the card burned", false},
	"b":    {engine.VoidBox, true, false, "a box got more than two cards in the deal: that bet is void, the cards burned", false},
	"c":    {engine.BurnHole, false, false, "the dealer's second card came face up: it is burned and replaced", false},
	"d":    {0, false, true, "a card drawn out of turn is burned", false},
	"e":    {engine.VoidBox, true, false, "the dealer forgot to deal to a player: the box sits the round out", false},
	"f":    {engine.BankFirst, false, false, "the dealer skipped a player and completed the bank's hand: the skipped players play against the seen bank or withdraw their bets, and are paid if it busted", false},
	"g":    {engine.ExposeHole, false, false, "the bank's card was exposed: the players decide seeing it", false},
}

// correctRequest is the dealer's request: AR-23's case, the box or card it
// names.
type correctRequest struct {
	Case string
	Box  int
	Card card.Card
}

func (correctRequest) read(b CommandRequest) (correctRequest, error) {
	c, ok := correctionCases[b.Case]
	switch {
	case b.Case == "i":
		return correctRequest{}, sabot.Errorf(sabot.EINVALID, "AR-23 (i): a player's cards put into the discard by mistake give no claim: there is nothing to correct")
	case b.Case == "h":
		return correctRequest{}, sabot.Errorf(sabot.EINVALID, "AR-23 (h): the console asks for the bank's cards in turn: take back a card read as another's and read it again where the console asks (\"próximas cartas para la Banca\")")
	case !ok:
		return correctRequest{}, sabot.Errorf(sabot.EINVALID, "case %q: give AR-23's letter, a to i, or undo (the last card read taken back)", b.Case)
	case c.box && b.Box < 1:
		return correctRequest{}, sabot.Errorf(sabot.EINVALID, "AR-23 (%s): give the box", b.Case)
	}
	req := correctRequest{Case: b.Case, Box: b.Box}
	if c.card {
		x, err := card.Parse(b.Card)
		if err != nil {
			return correctRequest{}, sabot.Errorf(sabot.EINVALID, "AR-23 (%s): give the card burned, e.g. AS (%q is not one)", b.Case, b.Card)
		}
		req.Card = x
	}
	return req, nil
}

// approveRequest names a correction asked: its ID.
type approveRequest struct{ ID int64 }

func (approveRequest) read(b CommandRequest) (approveRequest, error) {
	if b.Correction <= 0 {
		return approveRequest{}, sabot.Errorf(sabot.EINVALID, "give the correction's ID (correction)")
	}
	return approveRequest{ID: b.Correction}, nil
}

// correction is a correction asked and not yet decided. Its ID is the seq
// of the record that asked for it.
type correction struct {
	ID     int64     `json:"id"`
	Round  int       `json:"round"`
	Case   string    `json:"case"`
	Box    int       `json:"box,omitempty"`
	Card   card.Card `json:"card,omitempty"`
	At     int       `json:"at,omitempty"` // undo: the round's cards read, the one taken back the last
	Asked  string    `json:"asked_by"`
	Text   string    `json:"text"`
	Status string    `json:"status,omitempty"` // approved, refused (in the records that decide it)
	By     string    `json:"by,omitempty"`     // who decided it

	// A walk-in's buy-in or cash-out over the table's cash_approval, asked
	// by the dealer (walkin.go): the walk-in and the amount.
	Player string       `json:"player,omitempty"`
	Amount money.Amount `json:"amount,omitempty"`
}

func (c *correction) words() string {
	if cashCase(c.Case) {
		return fmt.Sprintf("%s of %s for %s at box %d: %s", c.Case, c.Amount, c.Player, c.Box, c.Text)
	}
	s := fmt.Sprintf("AR-23 (%s) round %d", c.Case, c.Round)
	if c.Box > 0 {
		s += fmt.Sprintf(" box %d", c.Box)
	}
	if c.Card != 0 {
		s += " card " + c.Card.String()
	}
	return s + ": " + c.Text
}

// public is the correction as the table shows it to everyone: without the
// card burned or taken back (a hole card's face among them), whose value the players have no right to know (AR-23 (d):
// "no teniendo los jugadores derecho a reclamo o a conocer su valor"). The
// significant-event log, the pit's, keeps it.
func (c correction) public() correction {
	c.Card = 0
	return c
}

// MaxPending bounds the corrections waiting at a table.
const MaxPending = 16

// correct is the dealer's request for a correction: it waits for the
// inspector.
func (a *actor) correct(ctx context.Context, c *command, req correctRequest) (int64, error) {
	if err := a.physicalOnly(); err != nil {
		return 0, err
	}
	if !a.dealt {
		return 0, sabot.Errorf(sabot.ECONFLICT, "refused: no round is in play (AR-23)")
	}
	if len(a.pending) >= MaxPending {
		return 0, sabot.Errorf(sabot.ECONFLICT, "refused: %d corrections wait for the inspector already", len(a.pending))
	}
	k := correctionCases[req.Case]
	if k.box && !slices.Contains(a.t.Round().Boxes(), req.Box) {
		return 0, sabot.Errorf(sabot.EINVALID, "refused: no box %d in play (AR-23)", req.Box)
	}
	x := correction{Round: a.t.RoundNo(), Case: req.Case, Box: req.Box, Card: req.Card, Asked: c.user.Name, Text: k.text}
	if k.undo {
		tk, err := a.t.Decided()
		if err != nil {
			return 0, refusal(err)
		}
		x.Card, x.At = tk.Card, len(a.t.Cards())
	}
	rec, err := a.append(ctx, c, sabot.LogAdmin, a.t.RoundNo(), adminPayload{Event: "correction-asked", Round: x.Round, Correction: &x, Text: x.words() + " (asked by " + x.Asked + ")"}, nil)
	if err != nil {
		return 0, err
	}
	x.ID = rec.Seq
	a.pending = append(a.pending, x)
	a.publishCorrection(x)
	return rec.Seq, nil
}

// approve applies a correction asked, on the inspector's word: the burn,
// or the engine's correction (AR-23). Whoever asked for it cannot approve
// it.
func (a *actor) approve(ctx context.Context, c *command, req approveRequest) (int64, error) {
	x, err := a.decide(c, req.ID)
	if err != nil {
		return 0, err
	}
	if cashCase(x.Case) {
		return a.approveCash(ctx, c, x)
	}
	k := correctionCases[x.Case]
	if k.undo {
		return a.approveUndo(ctx, c, x)
	}
	act := engine.Action{Kind: k.action, Box: x.Box}
	switch {
	case k.action == 0:
		if err := a.t.Burn(x.Card); err != nil {
			return 0, refusal(err)
		}
	default:
		if err := a.t.Round().Check(act); err != nil {
			return 0, refusal(err)
		}
	}
	x.Status, x.By = "approved", c.user.Name
	rec, err := a.append(ctx, c, sabot.LogAdmin, x.Round, adminPayload{Event: "correction-approved", Round: x.Round, Correction: &x,
		Text: x.words() + " (asked by " + x.Asked + ", approved by " + x.By + ")"}, nil)
	if err != nil {
		a.rebuild(ctx)
		return 0, err
	}
	a.drop(x.ID)
	a.publishCorrection(x)
	if k.action != 0 && !a.house(ctx, act, false) {
		return rec.Seq, nil
	}
	a.proceed(ctx)
	return rec.Seq, nil
}

// approveUndo takes back the card a correction names, still the last read
// and no decision since (issue 25, AR-23): recorded as the inspector's
// card-undo, then the approval's significant event. A hole card turned
// after the card stays turned: the round turns it again before anyone
// decides (AR-23 (g)), so no player decides against a card he was shown
// and the table hides.
func (a *actor) approveUndo(ctx context.Context, c *command, x correction) (int64, error) {
	cards := a.t.Cards()
	if x.At == 0 || len(cards) != x.At || cards[x.At-1] != x.Card {
		return 0, sabot.Errorf(sabot.ECONFLICT, "refused: the card correction %d takes back is no longer the last read: the round moved on (AR-23)", x.ID)
	}
	tk, err := a.t.Decided()
	if err != nil {
		return 0, refusal(err)
	}
	x.Status, x.By = "approved", c.user.Name
	if _, err := a.takeBack(ctx, c, cardPayload{By: c.user.Name, Correction: x.ID, Expose: tk.Revealed != 0}); err != nil {
		return 0, err
	}
	// The card-undo record carries the command; this one the decision.
	ev := *c
	ev.clientID, ev.commandID = "", ""
	rec, err := a.append(ctx, &ev, sabot.LogAdmin, x.Round, adminPayload{Event: "correction-approved", Round: x.Round, Correction: &x,
		Text: x.words() + " (asked by " + x.Asked + ", approved by " + x.By + ")"}, nil)
	if err != nil {
		return 0, err
	}
	a.publishCorrection(x)
	return rec.Seq, nil
}

// refuseCorrection drops a correction asked, on the inspector's word.
func (a *actor) refuseCorrection(ctx context.Context, c *command, req approveRequest) (int64, error) {
	x, err := a.decide(c, req.ID)
	if err != nil {
		return 0, err
	}
	x.Status, x.By = "refused", c.user.Name
	rec, err := a.append(ctx, c, sabot.LogAdmin, x.Round, adminPayload{Event: "correction-refused", Round: x.Round, Correction: &x,
		Text: x.words() + " (asked by " + x.Asked + ", refused by " + x.By + ")"}, nil)
	if err != nil {
		return 0, err
	}
	a.drop(x.ID)
	a.publishCorrection(x)
	return rec.Seq, nil
}

// publishCorrection tells the table of a correction, its card kept back.
func (a *actor) publishCorrection(x correction) {
	p := x.public()
	v := CorrectionView(p)
	a.publish(Event{Kind: "correction", Round: p.Round, Text: p.words(), Correction: &v})
}

// decide finds a correction waiting that this inspector may decide.
func (a *actor) decide(c *command, id int64) (correction, error) {
	for _, x := range a.pending {
		if x.ID != id {
			continue
		}
		if x.Asked == c.user.Name {
			return x, sabot.Errorf(sabot.EFORBIDDEN, "refused: %s asked for correction %d; another (the inspector) decides it (AR-23)", x.Asked, id)
		}
		return x, nil
	}
	return correction{}, sabot.Errorf(sabot.ENOTFOUND, "no correction %d waits for a decision", id)
}

// drop forgets a correction decided. (Those of a round go with it:
// finish forgets them.)
func (a *actor) drop(id int64) {
	a.pending = slices.DeleteFunc(a.pending, func(x correction) bool { return x.ID == id })
}

// replayCorrection rebuilds the corrections waiting, and the burns
// approved, from the log.
func (a *actor) replayCorrection(r *sabot.LogRecord, p adminPayload) error {
	if p.Correction == nil {
		return nil
	}
	x := *p.Correction
	switch p.Event {
	case "correction-asked":
		x.ID = r.Seq
		a.pending = append(a.pending, x)
	case "correction-approved": // a buy-in's or a cash-out's approval is its own record (walkin.go)
		a.drop(x.ID)
		if k := correctionCases[x.Case]; k.action == 0 && !k.undo { // an undo replays from its card-undo record
			return a.t.Burn(x.Card)
		}
	case "correction-refused":
		a.drop(x.ID)
	}
	return nil
}

// correctionsView lists the corrections waiting, oldest first, as
// everyone may see them (public).
func (a *actor) correctionsView() []CorrectionView {
	var out []CorrectionView
	for _, x := range a.pending {
		out = append(out, CorrectionView(x.public()))
	}
	return out
}

// opRuling is the inspector's ruling on a dispute at the table: "todas las
// incidencias del juego … deberán ser dirimidas por el jefe de mesa" (the
// Spanish general rules); "la decisión del Jefe de Mesa es irrevocable"
// (the Spanish leaflet). It is written, with who gave
// it, in the table's significant-event log; what it decides is done with
// the inspector's commands (a correction approved, a void).
const opRuling = "ruling"

// MaxRuling bounds a ruling's text, in bytes.
const MaxRuling = 500

// rulingRequest is a ruling's text.
type rulingRequest struct{ Text string }

func (rulingRequest) read(b CommandRequest) (rulingRequest, error) {
	text := strings.TrimSpace(b.Reason)
	switch {
	case text == "":
		return rulingRequest{}, sabot.Errorf(sabot.EINVALID, "a ruling says what was decided (reason)")
	case len(text) > MaxRuling || strings.ContainsFunc(text, func(r rune) bool { return r < ' ' }):
		return rulingRequest{}, sabot.Errorf(sabot.EINVALID, "a ruling is one line of at most %d bytes", MaxRuling)
	}
	return rulingRequest{Text: text}, nil
}

// ruling writes the inspector's ruling on a dispute.
func (a *actor) ruling(ctx context.Context, c *command, req rulingRequest) (int64, error) {
	round := 0
	if a.dealt {
		round = a.t.RoundNo()
	}
	rec, err := a.append(ctx, c, sabot.LogAdmin, round, adminPayload{Event: "ruling", Round: round, By: c.user.Name, Text: req.Text}, nil)
	if err != nil {
		return 0, err
	}
	a.publish(Event{Kind: "ruling", Round: round, Player: c.user.Name, Text: req.Text})
	return rec.Seq, nil
}
