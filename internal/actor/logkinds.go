package actor

import (
	"encoding/json"
	"fmt"
	"time"

	"sabot"
	"sabot/card"
	"sabot/engine"
	"sabot/internal/recall"
	"sabot/internal/tablelog"
	"sabot/internal/wire"
	"sabot/money"
	"sabot/table"
)

// A logKind is one kind of record of a table's log (sabot.Log*): its
// payload's type, how the table's actor keeps what it moved (track: the
// money and the bank's cover, on every record, replayed or not), and how a
// start applies it to the rebuilt table (replay). What recall reads of it
// and how the pit's event log says it are its entry in recall's table of
// kinds (recall.Reads, recall.Words). A new kind is one entry here, one in
// recall's table, and its constant in sabot.LogKinds; checkLogKinds
// refuses a kind without.
type logKind struct {
	payload any // the zero value of its payload's type
	track   func(a *Table, r *sabot.LogRecord, given any)
	replay  func(a *Table, r *sabot.LogRecord) error
}

// kindParts are a kind's parts on its payload, a T, decoded once for
// each. A part the kind does not have is said so in none, and costs no
// decoding: a part neither given nor said absent leaves the entry without
// it, which checkLogKinds refuses.
type kindParts[T any] struct {
	track func(a *Table, r *sabot.LogRecord, p T)
	// trackRecord is a track from the record alone, its payload not
	// decoded (a snapshot: its round).
	trackRecord func(a *Table, r *sabot.LogRecord)
	replay      func(a *Table, r *sabot.LogRecord, p T) error
	none        absent
	// lenient: the replay takes what of the payload decodes (a physical
	// shoe's records); else a payload that does not decode stops it.
	lenient bool
}

// absent are the parts a kind does not have.
type absent uint8

const (
	noTrack  absent = 1 << iota // it moves nothing the actor keeps
	noReplay                    // a start has nothing to apply to the table
)

// kindOf is the entry of a kind whose payload is a T.
func kindOf[T any](k kindParts[T]) logKind {
	var zero T
	e := logKind{payload: zero}
	switch {
	case k.track != nil:
		e.track = func(a *Table, r *sabot.LogRecord, given any) { k.track(a, r, payloadOf[T](r, given)) }
	case k.trackRecord != nil:
		e.track = func(a *Table, r *sabot.LogRecord, _ any) { k.trackRecord(a, r) }
	case k.none&noTrack != 0:
		e.track = func(*Table, *sabot.LogRecord, any) {}
	}
	switch {
	case k.replay != nil:
		e.replay = func(a *Table, r *sabot.LogRecord) error {
			if k.lenient {
				return k.replay(a, r, payloadOf[T](r, nil))
			}
			var p T
			if err := json.Unmarshal(r.Payload, &p); err != nil {
				return err
			}
			return k.replay(a, r, p)
		}
	case k.none&noReplay != 0:
		e.replay = func(*Table, *sabot.LogRecord) error { return nil }
	}
	return e
}

// logKinds is the registry of the log's kinds: every kind of
// sabot.LogKinds has its entry (TestLogKinds).
var logKinds = map[string]logKind{
	sabot.LogTableOpened: kindOf(kindParts[tablelog.Opened]{replay: (*Table).replayOpened, none: noTrack}),
	sabot.LogShoe:        kindOf(kindParts[tablelog.ShoeStart]{track: (*Table).trackShoe, none: noReplay}),
	sabot.LogShoeReveal:  kindOf(kindParts[tablelog.Reveal]{track: (*Table).trackReveal, none: noReplay}),
	sabot.LogSit:         kindOf(kindParts[tablelog.Seat]{track: (*Table).trackSit, replay: (*Table).replaySit}),
	sabot.LogLeave:       kindOf(kindParts[tablelog.Seat]{track: (*Table).trackLeave, replay: (*Table).replayLeave}),
	sabot.LogBet:         kindOf(kindParts[tablelog.Bet]{track: (*Table).trackBet, replay: (*Table).replayBet}),
	sabot.LogBetWithdraw: kindOf(kindParts[tablelog.Bet]{track: (*Table).trackWithdraw, replay: (*Table).replayWithdraw}),
	sabot.LogDeal:        kindOf(kindParts[tablelog.Deal]{track: (*Table).trackDeal, replay: (*Table).replayDeal}),
	sabot.LogAction:      kindOf(kindParts[tablelog.Decision]{track: (*Table).trackAction, replay: (*Table).replayAction}),
	sabot.LogTimeout:     kindOf(kindParts[tablelog.Decision]{track: (*Table).trackAction, replay: (*Table).replayAction}),
	sabot.LogSettle:      kindOf(kindParts[tablelog.Settle]{track: (*Table).trackClose, replay: (*Table).replayClose}),
	sabot.LogVoid:        kindOf(kindParts[tablelog.Settle]{track: (*Table).trackClose, replay: (*Table).replayClose}),
	sabot.LogShoeStep:    kindOf(kindParts[tablelog.ShoeStep]{replay: (*Table).replayShoeStep, none: noTrack}),
	sabot.LogAdmin:       kindOf(kindParts[wire.AdminEvent]{replay: (*Table).replayAdmin, none: noTrack}),
	sabot.LogConfigure:   kindOf(kindParts[tablelog.Configure]{track: (*Table).trackConfigure, replay: (*Table).replayConfigure}),
	sabot.LogSnapshot:    kindOf(kindParts[tablelog.Snapshot]{trackRecord: (*Table).trackSnapshot, none: noReplay}),
	sabot.LogCard:        kindOf(kindParts[tablelog.Card]{replay: (*Table).replayCard, none: noTrack, lenient: true}),
	sabot.LogCardUndo:    kindOf(kindParts[tablelog.Card]{replay: (*Table).replayCardUndo, none: noTrack, lenient: true}),
	sabot.LogCutCard:     kindOf(kindParts[tablelog.Cut]{replay: (*Table).replayCutCard, none: noTrack, lenient: true}),
	sabot.LogWalletDebit: kindOf(kindParts[tablelog.WalletDebit]{none: noTrack | noReplay}),
}

// checkLogKinds says which of kinds has no entry in reg, or an entry
// without one of its parts, or none in recall's table.
func checkLogKinds(reg map[string]logKind, kinds []string) error {
	for _, k := range kinds {
		e, ok := reg[k]
		switch _, recalled := recall.Reads(k); {
		case !ok:
			return fmt.Errorf("log kind %q has no entry in the registry of log kinds (logkinds.go)", k)
		case e.payload == nil || e.track == nil || e.replay == nil:
			return fmt.Errorf("log kind %q: its entry lacks a part (payload %v, track %v, replay %v)", k,
				e.payload != nil, e.track != nil, e.replay != nil)
		case !recalled:
			return fmt.Errorf("log kind %q has no entry in recall's table of kinds (internal/recall)", k)
		}
	}
	return nil
}

func init() {
	if err := checkLogKinds(logKinds, sabot.LogKinds); err != nil {
		panic(err)
	}
}

// The tracks: what a record moved, kept by the actor whether it is
// replayed or not.

func (a *Table) trackBet(_ *sabot.LogRecord, p tablelog.Bet)      { a.escrow[p.Player] += p.Debit }
func (a *Table) trackWithdraw(_ *sabot.LogRecord, p tablelog.Bet) { a.escrow[p.Player] -= p.Stake }
func (a *Table) trackLeave(r *sabot.LogRecord, p tablelog.Seat) {
	a.escrow[p.Player] -= p.Returned
	if a.dealt && p.Box == 0 { // he stood up from the table, not from one box (AR-21)
		if a.left == nil {
			a.left = map[string]time.Time{}
		}
		if _, ok := a.left[p.Player]; !ok {
			a.left[p.Player] = r.Created
		}
	}
}

// trackSit: a player who sits again in the round he left is back.
func (a *Table) trackSit(_ *sabot.LogRecord, p tablelog.Seat) { delete(a.left, p.Player) }

func (a *Table) trackDeal(_ *sabot.LogRecord, p tablelog.Deal) {
	a.bankCover, a.bankHolder = p.BankCover, p.Bank
}

func (a *Table) trackAction(_ *sabot.LogRecord, p tablelog.Decision) {
	a.escrow[p.Action.Player] += p.Debit
	a.bankCover += p.BankCover
	for _, f := range p.Follows {
		a.escrow[f.Player] += f.Debit
	}
}

func (a *Table) trackShoe(_ *sabot.LogRecord, p tablelog.ShoeStart) {
	// (The seeds of a start were opened before the replay; a shoe the
	// actor writes, writeFresh notes with its seed.)
	if seed, err := a.s.openSeed(p, a.cfg.ID); err == nil {
		a.shoes[p.Shoe] = &shoeState{seed: seed, commitment: p.Commitment}
	}
}

func (a *Table) trackReveal(_ *sabot.LogRecord, p tablelog.Reveal) {
	if sh := a.shoes[p.Shoe]; sh != nil {
		sh.revealed = true
	}
	// Only the shoes not yet revealed, and the current one (its
	// commitment is shown), are kept: the table's memory stays bounded.
	for no, sh := range a.shoes {
		if sh.revealed && (a.t == nil || no < a.t.ShoeNo()) {
			delete(a.shoes, no)
		}
	}
}

func (a *Table) trackSnapshot(r *sabot.LogRecord) { a.snapRound, a.snapSeq = int(r.RoundNo), r.Seq }

func (a *Table) trackConfigure(_ *sabot.LogRecord, p tablelog.Configure) {
	for _, b := range p.Returned {
		a.escrow[b.Player] -= b.Stake
	}
}

func (a *Table) trackClose(_ *sabot.LogRecord, p tablelog.Settle) {
	for pl, v := range p.Returned {
		a.escrow[pl] -= v - p.Net[pl]
	}
	a.bankCover, a.bankHolder = 0, ""
	a.left = nil
	if p.Closed {
		a.closed = "out of service: " + p.Reason
	}
}

// The replays: how a start applies each record to the rebuilt table.

func (a *Table) replayOpened(_ *sabot.LogRecord, p tablelog.Opened) error {
	prof, err := profileOf(p.Profile, p.Options)
	if err != nil {
		return err
	}
	a.p, a.stepsLog, a.physSteps = prof, p.ShoeSteps, p.PhysicalSteps
	physical, err := sabot.ShoeOf(p.Options)
	if err != nil {
		return err
	}
	var t *table.Table
	if physical { // no seed, no order; the cards are read as dealt
		if t, err = table.NewPhysical(prof); err == nil && a.physicalShoeSteps() {
			err = t.WaitForSteps() // AR-07, EG-02: recorded at the dealer's console
		}
	} else {
		steps := a.nextShoeSteps()
		if t, err = table.New(prof, a.nextSeed()); err == nil && steps {
			err = t.WaitForSteps() // AR-07, EG-02
		}
	}
	if err != nil {
		return err
	}
	t.Seeds, t.ShoeSteps = a.nextSeed, a.nextShoeSteps
	if physical {
		t.ShoeSteps = a.physicalShoeSteps
	}
	t.SetAmountStyle(money.Grouped) // refusals show money as the players see it
	a.t = t
	a.shoeNo = 1
	a.noteShoe()
	return nil
}

func (a *Table) replaySit(_ *sabot.LogRecord, p tablelog.Seat) error { return a.t.Sit(p.Player, p.Box) }

func (a *Table) replayLeave(_ *sabot.LogRecord, p tablelog.Seat) error {
	if p.Box > 0 { // AR-21: one seat given up
		return a.vacate(p.Player, p.Box, p.Returned)
	}
	a.t.Leave(p.Player)
	return nil
}

func (a *Table) replayBet(_ *sabot.LogRecord, p tablelog.Bet) error {
	return a.t.Bet(p.Player, p.Box, p.Stake)
}

func (a *Table) replayWithdraw(_ *sabot.LogRecord, p tablelog.Bet) error {
	_, err := a.t.Withdraw(p.Player, p.Box)
	return err
}

func (a *Table) replayDeal(_ *sabot.LogRecord, p tablelog.Deal) error {
	a.forced = p.Forced
	if err := a.deal(); err != nil {
		return err
	}
	if a.t.RoundNo() != p.Round || a.t.ShoeNo() != p.Shoe {
		return fmt.Errorf("the deal replays as round %d of shoe %d, logged as round %d of shoe %d", a.t.RoundNo(), a.t.ShoeNo(), p.Round, p.Shoe)
	}
	return nil
}

func (a *Table) replayAction(_ *sabot.LogRecord, p tablelog.Decision) error {
	a.syncWindow()
	if p.Decline {
		a.declined[declineKey{p.Action.Player, p.Action.Box}] = true
		return nil
	}
	act, err := p.Action.Engine()
	if err != nil {
		return err
	}
	if err := a.t.Round().Act(act); err != nil {
		return err
	}
	a.syncWindow()
	return nil
}

func (a *Table) replayClose(_ *sabot.LogRecord, p tablelog.Settle) error {
	if p.Closed {
		return nil
	}
	if a.t.Round().Phase() != engine.Done {
		return fmt.Errorf("round %d is settled in the log but not over in the engine", p.Round)
	}
	got := a.t.Round().Record()
	if card.Format(got.Cards) != card.Format(p.Record.Cards) {
		return fmt.Errorf("round %d replays with cards %s, logged %s", p.Round, card.Format(got.Cards), card.Format(p.Record.Cards))
	}
	_, err := a.finish()
	return err
}

func (a *Table) replayCard(_ *sabot.LogRecord, p tablelog.Card) error { return a.t.Feed(p.Card) }

func (a *Table) replayCardUndo(_ *sabot.LogRecord, p tablelog.Card) error {
	back, err := a.t.Undo()
	if err == nil && back != p.Card {
		err = fmt.Errorf("round %d: the card taken back replays as %v, logged %v", p.Round, back, p.Card)
	}
	if p.Correction != 0 { // the inspector's
		a.drop(p.Correction)
		a.expose = a.expose || p.Expose
	}
	return err
}

func (a *Table) replayCutCard(_ *sabot.LogRecord, _ tablelog.Cut) error { return a.t.CutCard() }

func (a *Table) replayConfigure(_ *sabot.LogRecord, p tablelog.Configure) error {
	prof, err := profileOf(a.cfg.Profile, p.Options)
	if err != nil {
		return err
	}
	newShoe, err := a.reconfigure(prof, p)
	if err != nil {
		return err
	}
	if newShoe != p.NewShoe {
		return fmt.Errorf("the configuration change replays with new shoe %v, logged %v", newShoe, p.NewShoe)
	}
	return nil
}

func (a *Table) replayAdmin(r *sabot.LogRecord, p wire.AdminEvent) error {
	switch p.Event {
	case tablelog.EventCorrectionAsked, tablelog.EventCorrectionApproved, tablelog.EventCorrectionRefused:
		return a.replayCorrection(r, p)
	case tablelog.EventBuyIn, tablelog.EventCashOut:
		if p.Correction != nil { // approved by the inspector (internal/live/walkin.go)
			a.drop(p.Correction.ID)
		}
	case tablelog.EventForceCards:
		a.forced = p.Cards
	case tablelog.EventCloseTable: // 003 §11
		a.replayCloseTable(p)
	case tablelog.EventReopenTable:
		a.shut = nil
	case tablelog.EventNewShoe:
		if err := a.t.NewShoe(); err != nil {
			return err
		}
		a.noteShoe()
	}
	return nil
}
