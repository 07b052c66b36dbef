package live

import (
	"context"
	"fmt"
	"slices"
	"strings"

	"sabot"
	"sabot/card"
	"sabot/engine"
	"sabot/internal/tablelog"
	"sabot/internal/wire"
	"sabot/table"
)

// The inspector's authority at a live table (docs/live.md). A dealer's
// irregularity (AR-23) is corrected only
// "previa autorización del Inspector": the dealer asks for a correction
// at the console (correct), the inspector, or the pit, approves it on his
// own screen (approve) or refuses it (refuse-correction), and only then
// does it take effect. Each step is a significant event of the table's
// log naming the dealer and the inspector. A new shoe (AR-24) and a void
// of the round are the inspector's alone.

// The corrections a dealer may ask for, by AR-23's letter: what each does.
// (h), the bank's cards forgotten, needs none: the console asks for the
// bank's cards in turn; (i) has nothing to correct. "undo" takes back the
// last card read when it decided something: the dealer's own
// undo-card is for a misread that decided nothing.
var correctionCases = map[string]struct {
	action engine.Kind // the engine's correction; 0: a burn (or, with undo, the take-back)
	box    bool        // it names a box
	card   bool        // it names a card (the one burned)
	text   string
	undo   bool // it takes back the last card read
	// refuse: the case has nothing to correct; the request is refused
	// with this reason (Correct, citing the table's own rule).
	refuse string
}{
	"h":    {refuse: "the console asks for the bank's cards in turn: take back a card read as another's and read it again where the console asks (\"próximas cartas para la Banca\")"},
	"i":    {refuse: "a player's cards put into the discard by mistake give no claim: there is nothing to correct"},
	"undo": {undo: true, text: "the last card read decided something: it is taken back and the round asks for it again; a hole card turned after it stays turned, and is turned again before anyone decides"},
	"a":    {action: engine.VoidBox, box: true, text: "a box got one card only and its player does not consent to complete it: the bet is void, the card burned"},
	"b":    {action: engine.VoidBox, box: true, text: "a box got more than two cards in the deal: that bet is void, the cards burned"},
	"c":    {action: engine.BurnHole, text: "the dealer's second card came face up: it is burned and replaced"},
	"d":    {card: true, text: "a card drawn out of turn is burned"},
	"e":    {action: engine.VoidBox, box: true, text: "the dealer forgot to deal to a player: the box sits the round out"},
	"f":    {action: engine.BankFirst, text: "the dealer skipped a player and completed the bank's hand: the skipped players play against the seen bank or withdraw their bets, and are paid if it busted"},
	"g":    {action: engine.ExposeHole, text: "the bank's card was exposed: the players decide seeing it"},
	// Item 14 (RULES.md's AR-23 has no letter for it: j here): «Cuando el
	// Pagador introduce por error una o más cartas de la Banca dentro del
	// Zambullo, anunciará … (Previa autorización del Inspector): "Próximas
	// cartas para la Banca"». The request names the bank's card; one
	// correction a card.
	"j": {action: engine.BankDiscarded, card: true, text: "the bank's card was put into the discard by mistake: «Próximas cartas para la Banca», the next card out of the shoe is the bank's in its place"},
}

// bankCard is the position (1, 2) among the bank's cards of the card an
// item-14 correction names, or 0 where the bank holds none such.
func bankCard(tb *table.Table, c card.Card) int {
	for i, x := range tb.Round().Dealer().Cards() {
		if x == c {
			return i + 1
		}
	}
	return 0
}

// CorrectRequest is the dealer's request: AR-23's case, the box or card it
// names.
type CorrectRequest struct {
	Case string
	Box  int
	Card card.Card
}

// ParseCorrect reads the dealer's request for a correction: its case (a
// letter of AR-23's catalogue, which the console offers at every
// profile, or undo), the box it names, the card burned (its code). The
// refusals of a case there is nothing to correct, which cite the table's
// own rule, are Correct's.
func ParseCorrect(kase string, box int, code string) (CorrectRequest, error) {
	c, ok := correctionCases[kase]
	switch {
	case !ok:
		return CorrectRequest{}, sabot.Errorf(sabot.EINVALID, "case %q: give a correction's letter, a to j, or undo (the last card read taken back)", kase)
	case c.box && box < 1:
		return CorrectRequest{}, sabot.Errorf(sabot.EINVALID, "case %s: give the box", kase)
	}
	req := CorrectRequest{Case: kase, Box: box}
	if c.card {
		x, err := card.Parse(code)
		if err != nil {
			return CorrectRequest{}, sabot.Errorf(sabot.EINVALID, "case %s: give the card burned, e.g. AS (%q is not one)", kase, code)
		}
		req.Card = x
	}
	return req, nil
}

// ParseID reads the correction an approval or a refusal names: its ID.
func ParseID(id int64) (int64, error) {
	if id <= 0 {
		return 0, sabot.Errorf(sabot.EINVALID, "give the correction's ID (correction)")
	}
	return id, nil
}

// correctionWords says a correction for the table and the pit, citing
// the table's own rule (StaffRules). A correction asked and not yet
// decided is a wire.CorrectionView, as the table's log keeps it and the
// table shows it; its ID is the seq of the record that asked for it.
func correctionWords(t Table, c wire.CorrectionView) string {
	if cashCase(c.Case) {
		if IsWalkIn(c.Player) { // named by his box, as the console names him
			return fmt.Sprintf("%s of %s for walk-in, box %d: %s", c.Case, c.Amount, c.Box, c.Text)
		}
		return fmt.Sprintf("%s of %s for %s at box %d: %s", c.Case, c.Amount, c.Player, c.Box, c.Text)
	}
	s := fmt.Sprintf("correction (%s) round %d", c.Case, c.Round)
	if c.Box > 0 {
		s += fmt.Sprintf(" box %d", c.Box)
	}
	if c.Card != 0 {
		s += " card " + c.Card.String()
	}
	return s + ": " + c.Text + Cited(t, StaffRules, "")
}

// public is a correction as the table shows it to everyone: without the
// card burned or taken back (a hole card's face among them), whose value the players have no right to know (AR-23 (d):
// "no teniendo los jugadores derecho a reclamo o a conocer su valor"). The
// significant-event log, the pit's, keeps it.
func public(c wire.CorrectionView) wire.CorrectionView {
	c.Card = 0
	return c
}

// MaxPending bounds the corrections waiting at a table.
const MaxPending = 16

// Pending are the requests waiting for the inspector at a table, oldest
// first: the AR-23 corrections of the round in play, and the walk-ins'
// buy-ins and cash-outs over the table's cash_approval.
type Pending []wire.CorrectionView

// Drop forgets a request decided. (Those of a round go with it: Lapse.)
func (p *Pending) Drop(id int64) {
	*p = slices.DeleteFunc(*p, func(x wire.CorrectionView) bool { return x.ID == id })
}

// Lapse forgets the corrections of the round that ended: one not decided
// lapses with it; a walk-in's buy-in or cash-out waiting for the inspector
// does not.
func (p *Pending) Lapse() {
	*p = slices.DeleteFunc(*p, func(x wire.CorrectionView) bool { return !cashCase(x.Case) })
}

// View lists the requests waiting, oldest first, as everyone may see them
// (public).
func (p Pending) View() []wire.CorrectionView {
	var out []wire.CorrectionView
	for _, x := range p {
		out = append(out, public(x))
	}
	return out
}

// Replay rebuilds the requests waiting, and the burns approved, from a
// record of the log: its seq, its event and its correction.
func (p *Pending) Replay(t *table.Table, seq int64, event string, x *wire.CorrectionView) error {
	if x == nil {
		return nil
	}
	switch event {
	case tablelog.EventCorrectionAsked:
		y := *x
		y.ID = seq
		*p = append(*p, y)
	case tablelog.EventCorrectionApproved: // a buy-in's or a cash-out's approval is its own record (walkin.go)
		p.Drop(x.ID)
		if k := correctionCases[x.Case]; k.action == 0 && !k.undo { // an undo replays from its card-undo record
			return t.Burn(x.Card)
		}
	case tablelog.EventCorrectionRefused:
		p.Drop(x.ID)
	}
	return nil
}

// ask writes a request for the inspector and keeps it waiting.
func ask(ctx context.Context, t Table, x wire.CorrectionView, round int) (int64, error) {
	seq, err := t.Append(ctx, Record{Kind: sabot.LogAdmin, Round: round, Payload: tablelog.CorrectionAsked{Round: x.Round, Correction: &x, Text: correctionWords(t, x) + " (asked by " + x.Asked + ")"}})
	if err != nil {
		return 0, err
	}
	x.ID = seq
	*t.Pending() = append(*t.Pending(), x)
	publishCorrection(t, x)
	return seq, nil
}

// Correct is the dealer's request for a correction: it waits for the
// inspector.
func Correct(ctx context.Context, t Table, by Sender, req CorrectRequest) (int64, error) {
	if err := physicalOnly(t); err != nil {
		return 0, err
	}
	if !t.Dealt() {
		return 0, sabot.Errorf(sabot.ECONFLICT, "refused: no round is in play%s", Cited(t, StaffRules, ""))
	}
	k := correctionCases[req.Case]
	if k.refuse != "" {
		return 0, sabot.Errorf(sabot.EINVALID, "refused: case %s: %s%s", req.Case, k.refuse, Cited(t, StaffRules, ""))
	}
	if n := len(*t.Pending()); n >= MaxPending {
		return 0, sabot.Errorf(sabot.ECONFLICT, "refused: %d corrections wait for the inspector already", n)
	}
	tb := t.Table()
	if k.box && !slices.Contains(tb.Round().Boxes(), req.Box) {
		return 0, sabot.Errorf(sabot.EINVALID, "refused: no box %d in play%s", req.Box, Cited(t, StaffRules, ""))
	}
	if k.action == engine.BankDiscarded {
		i := bankCard(tb, req.Card)
		if i == 0 {
			return 0, sabot.Errorf(sabot.EINVALID, "refused: the bank holds no %v%s", req.Card, Cited(t, StaffRules, ""))
		}
		if err := tb.Round().Check(engine.Action{Kind: engine.BankDiscarded, Value: i}); err != nil {
			return 0, wire.Refusal(err)
		}
	}
	x := wire.CorrectionView{Round: tb.RoundNo(), Case: req.Case, Box: req.Box, Card: req.Card, Asked: by.User.Name, Text: k.text}
	if k.undo {
		tk, err := tb.Decided()
		if err != nil {
			return 0, wire.Refusal(err)
		}
		x.Card, x.At = tk.Card, len(tb.Cards())
	}
	return ask(ctx, t, x, tb.RoundNo())
}

// Approve applies a request waiting, on the inspector's word: the burn,
// or the engine's correction (AR-23), or the walk-in's buy-in or
// cash-out. Whoever asked for it cannot approve it.
func (l *Live) Approve(ctx context.Context, t Table, by Sender, id int64) (int64, error) {
	x, err := decide(t, by, id)
	if err != nil {
		return 0, err
	}
	if cashCase(x.Case) {
		return l.approveCash(ctx, t, by, x)
	}
	k := correctionCases[x.Case]
	if k.undo {
		return approveUndo(ctx, t, by, x)
	}
	tb := t.Table()
	act := engine.Action{Kind: k.action, Box: x.Box}
	if k.action == engine.BankDiscarded {
		if act.Value = bankCard(tb, x.Card); act.Value == 0 {
			return 0, sabot.Errorf(sabot.ECONFLICT, "refused: the bank no longer holds the card correction %d names: the round moved on%s", x.ID, Cited(t, StaffRules, ""))
		}
	}
	switch {
	case k.action == 0:
		if err := tb.Burn(x.Card); err != nil {
			return 0, wire.Refusal(err)
		}
	default:
		if err := tb.Round().Check(act); err != nil {
			return 0, wire.Refusal(err)
		}
	}
	x.Status, x.By = "approved", by.User.Name
	seq, err := t.Append(ctx, Record{Kind: sabot.LogAdmin, Round: x.Round, Payload: tablelog.CorrectionApproved{Round: x.Round, Correction: &x,
		Text: correctionWords(t, x) + " (asked by " + x.Asked + ", approved by " + x.By + ")"}})
	if err != nil {
		t.Rebuild(ctx)
		return 0, err
	}
	t.Pending().Drop(x.ID)
	publishCorrection(t, x)
	if k.action != 0 && !t.House(ctx, act) {
		return seq, nil
	}
	t.Proceed(ctx)
	return seq, nil
}

// approveUndo takes back the card a correction names, still the last read
// and no decision since (AR-23): recorded as the inspector's
// card-undo, then the approval's significant event. A hole card turned
// after the card stays turned: the round turns it again before anyone
// decides (AR-23 (g)), so no player decides against a card he was shown
// and the table hides.
func approveUndo(ctx context.Context, t Table, by Sender, x wire.CorrectionView) (int64, error) {
	tb := t.Table()
	cards := tb.Cards()
	if x.At == 0 || len(cards) != x.At || cards[x.At-1] != x.Card {
		return 0, sabot.Errorf(sabot.ECONFLICT, "refused: the card correction %d takes back is no longer the last read: the round moved on%s", x.ID, Cited(t, StaffRules, ""))
	}
	tk, err := tb.Decided()
	if err != nil {
		return 0, wire.Refusal(err)
	}
	x.Status, x.By = "approved", by.User.Name
	if _, err := takeBack(ctx, t, tablelog.Card{By: by.User.Name, Correction: x.ID, Expose: tk.Revealed != 0}); err != nil {
		return 0, err
	}
	// The card-undo record carries the command; this one the decision.
	seq, err := t.Append(ctx, Record{Kind: sabot.LogAdmin, Round: x.Round, Again: true, Payload: tablelog.CorrectionApproved{Round: x.Round, Correction: &x,
		Text: correctionWords(t, x) + " (asked by " + x.Asked + ", approved by " + x.By + ")"}})
	if err != nil {
		return 0, err
	}
	publishCorrection(t, x)
	return seq, nil
}

// RefuseCorrection drops a request waiting, on the inspector's word.
func RefuseCorrection(ctx context.Context, t Table, by Sender, id int64) (int64, error) {
	x, err := decide(t, by, id)
	if err != nil {
		return 0, err
	}
	x.Status, x.By = "refused", by.User.Name
	seq, err := t.Append(ctx, Record{Kind: sabot.LogAdmin, Round: x.Round, Payload: tablelog.CorrectionRefused{Round: x.Round, Correction: &x,
		Text: correctionWords(t, x) + " (asked by " + x.Asked + ", refused by " + x.By + ")"}})
	if err != nil {
		return 0, err
	}
	t.Pending().Drop(x.ID)
	publishCorrection(t, x)
	return seq, nil
}

// publishCorrection tells the table of a correction, its card kept back.
func publishCorrection(t Table, x wire.CorrectionView) {
	p := public(x)
	t.Publish(wire.Event{Kind: wire.EvCorrection, Round: p.Round, Text: correctionWords(t, p), Correction: &p})
}

// decide finds a request waiting that this inspector may decide.
func decide(t Table, by Sender, id int64) (wire.CorrectionView, error) {
	for _, x := range *t.Pending() {
		if x.ID != id {
			continue
		}
		if x.Asked == by.User.Name {
			return x, sabot.Errorf(sabot.EFORBIDDEN, "refused: %s asked for correction %d; another (the inspector) decides it%s", x.Asked, id, Cited(t, StaffRules, ""))
		}
		return x, nil
	}
	return wire.CorrectionView{}, sabot.Errorf(sabot.ENOTFOUND, "no correction %d waits for a decision", id)
}

// A ruling (wire.OpRuling) is the inspector's ruling on a dispute at the table: "todas las
// incidencias del juego … deberán ser dirimidas por el jefe de mesa" (the
// Spanish general rules); "la decisión del Jefe de Mesa es irrevocable"
// (the Spanish leaflet). It is written, with who gave
// it, in the table's significant-event log; what it decides is done with
// the inspector's commands (a correction approved, a void).

// MaxRuling bounds a ruling's text, in bytes.
const MaxRuling = 500

// ParseRuling reads a ruling's text (the body's reason).
func ParseRuling(reason string) (string, error) {
	text := strings.TrimSpace(reason)
	switch {
	case text == "":
		return "", sabot.Errorf(sabot.EINVALID, "a ruling says what was decided (reason)")
	case len(text) > MaxRuling || strings.ContainsFunc(text, func(r rune) bool { return r < ' ' }):
		return "", sabot.Errorf(sabot.EINVALID, "a ruling is one line of at most %d bytes", MaxRuling)
	}
	return text, nil
}

// Ruling writes the inspector's ruling on a dispute.
func Ruling(ctx context.Context, t Table, by Sender, text string) (int64, error) {
	round := 0
	if t.Dealt() {
		round = t.Table().RoundNo()
	}
	seq, err := t.Append(ctx, Record{Kind: sabot.LogAdmin, Round: round, Payload: tablelog.Ruling{Round: round, By: by.User.Name, Text: text}})
	if err != nil {
		return 0, err
	}
	t.Publish(wire.Event{Kind: wire.EvRuling, Round: round, Player: by.User.Name, Text: text})
	return seq, nil
}
