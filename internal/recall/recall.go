// Package recall is game recall (GLI-19 §4.14, VE-22): every round is
// rebuilt from its table's log, with its shoe and position, every card,
// every decision with who made it (or "by timeout"), the settlement and the
// wallets before and after; a shoe is shown with its commitment, and once
// it is over its seed and cards, and checked against the commitment; a
// player's rounds and his history at a table are read on the store's index
// of each player's rounds.
//
// Recall reads the store through Log, and never a round in play: its
// hidden cards are still secret. Who may recall what (a player his own
// rounds, the pit any) is the server's to decide before it calls.
package recall

import (
	"context"
	"encoding/json"
	"slices"
	"sync"

	"sabot"
	"sabot/internal/tablelog"
	"sabot/internal/wire"
)

// Log is what recall reads: a table, and records of its log found on the
// store's indexes (a sabot.Store is one).
type Log interface {
	TableByID(ctx context.Context, id int64) (*sabot.Table, error)
	Find(ctx context.Context, q sabot.LogQuery) ([]*sabot.LogRecord, error)
}

// A part is what recall reads of one kind of log record: the table of
// parts (kinds) is the one place a kind is read; the server's registry of
// log kinds asks it (Reads) for each kind.
type part struct {
	what string // what recall reads of it, said ("": nothing)
	// options reads, before a round's deal, the options in force.
	options func(rr *round, r *sabot.LogRecord) error
	// round reads a record of the round recalled into its record.
	round func(rr *round, r *sabot.LogRecord) error
	// shoe reads a shoe's start or end into its report (ShoeInfo).
	shoe func(rep *wire.ShoeReport, r *sabot.LogRecord) error
	// words say a significant event for the pit (Words); nil: the kind
	// is not one, and is said by its name.
	words func(r *sabot.LogRecord) []sabot.Phrase
}

// kinds are what recall reads of each kind of log record: every kind of
// sabot.LogKinds has an entry, one that reads nothing saying so.
var kinds = map[string]part{
	sabot.LogTableOpened: {words: sayAs(openedWords)},
	sabot.LogShoe:        {what: "a shoe's commitment", shoe: readShoeStart},
	sabot.LogShoeReveal:  {what: "a shoe's seed, revealed", shoe: readReveal},
	sabot.LogSit:         {},
	sabot.LogLeave:       {},
	sabot.LogBet:         {},
	sabot.LogBetWithdraw: {},
	sabot.LogDeal:        {what: "the round's deal: its shoe, bets and wallets", round: readDeal},
	sabot.LogAction:      {what: "a decision, by a player or the dealer", round: readDecision},
	sabot.LogTimeout:     {what: "a decision applied by timeout", round: readDecision, words: sayAs(timeoutWords)},
	sabot.LogSettle:      {what: "the round's cards and settlement", round: readClose},
	sabot.LogVoid:        {what: "the round's void", round: readClose, words: sayAs(voidWords)},
	sabot.LogAdmin:       {words: sayAs(adminWords)},
	sabot.LogConfigure:   {what: "the options in force at the deal", options: readOptions, words: sayAs(configureWords)},
	sabot.LogSnapshot:    {},
	sabot.LogCard:        {what: "a card read in", round: readCard},
	sabot.LogCardUndo:    {what: "a card taken back", round: readCard},
	sabot.LogCutCard:     {what: "the cut card", round: readCut},
	sabot.LogWalletDebit: {},
	sabot.LogShoeStep:    {what: "a new shoe's authorised shuffle and its cut", shoe: readShoeStep, words: sayAs(shoeStepWords)},
}

// Reads says what recall reads of a kind of log record ("" : nothing), and
// whether recall has the kind in its table at all.
func Reads(kind string) (what string, known bool) {
	p, ok := kinds[kind]
	return p.what, ok
}

// roundKinds are the records of a round that recall reads (made on first
// use, not at start-up).
var roundKinds = sync.OnceValue(func() []string {
	var out []string
	for k, p := range kinds {
		if p.round != nil {
			out = append(out, k)
		}
	}
	slices.Sort(out)
	return out
})

// Recall returns a settled or void round's record, by its ID ("3-17"). A
// round in play is refused: its hidden cards are still secret. It reads the
// round's records and the last configuration change before its deal, each
// on an index: its cost does not grow with the table's log.
func Recall(ctx context.Context, st Log, id string) (*wire.RoundRecord, error) {
	tid, no, err := ParseRoundID(id)
	if err != nil {
		return nil, err
	}
	t, err := st.TableByID(ctx, tid)
	if err != nil {
		return nil, err
	}
	recs, err := st.Find(ctx, sabot.LogQuery{Kinds: roundKinds(), TableID: tid, FromRound: int64(no), ToRound: int64(no)})
	if err != nil {
		return nil, err
	}
	for _, r := range recs {
		if r.Kind != sabot.LogDeal {
			continue
		}
		// The options in force: the last change before the deal.
		cfg, err := st.Find(ctx, sabot.LogQuery{Kinds: []string{sabot.LogConfigure}, TableID: tid, Before: r, Newest: true, Limit: 1})
		if err != nil {
			return nil, err
		}
		recs = append(cfg, recs...)
		break
	}
	return From(t, recs, no)
}

// round is a round's record as it is read.
type round struct {
	*wire.RoundRecord
	dealt, closed bool
}

// From is round no's record from records of its table's log, in order: the
// round's, and before them those that say the options at its deal (Recall
// reads them on the indexes; a test, from the whole log).
func From(t *sabot.Table, recs []*sabot.LogRecord, no int) (*wire.RoundRecord, error) {
	rr := &round{RoundRecord: &wire.RoundRecord{ID: RoundID(t.ID, no), Table: t.ID, TableName: t.Name, Profile: t.Profile, Options: t.Options, Round: no,
		Decisions: []wire.Decision{}, Physical: t.Physical()}}
	for _, r := range recs {
		p := kinds[r.Kind]
		if p.options != nil && !rr.dealt {
			if err := p.options(rr, r); err != nil {
				return nil, err
			}
		}
		if r.RoundNo != int64(no) || p.round == nil {
			continue
		}
		if err := p.round(rr, r); err != nil {
			return nil, err
		}
	}
	switch {
	case !rr.dealt:
		return nil, sabot.Errorf(sabot.ENOTFOUND, "no round %s", rr.ID)
	case !rr.closed:
		return nil, sabot.Errorf(sabot.ECONFLICT, "round %s is in play: it is recalled once settled", rr.ID)
	}
	return rr.RoundRecord, nil
}

// payload decodes a record's payload; a payload that does not decode is
// the store's fault, never the caller's.
func payload[T any](r *sabot.LogRecord) (T, error) {
	var p T
	if err := json.Unmarshal(r.Payload, &p); err != nil {
		return p, sabot.Internal(err)
	}
	return p, nil
}

// readOptions: the options in force, the last change before the deal.
func readOptions(rr *round, r *sabot.LogRecord) error {
	p, err := payload[tablelog.Configure](r)
	rr.Options = p.Options
	return err
}

func readDeal(rr *round, r *sabot.LogRecord) error {
	p, err := payload[tablelog.Deal](r)
	if err != nil {
		return err
	}
	rr.dealt = true
	rr.Shoe, rr.ShoePos, rr.Test, rr.Forced = ShoeID(rr.Table, p.Shoe), p.ShoePos, p.Test, p.Forced != nil
	rr.Dealt, rr.Bets, rr.WalletsAtDeal, rr.Bank = r.Created, p.Bets, p.Wallets, p.Bank
	return nil
}

func readDecision(rr *round, r *sabot.LogRecord) error {
	p, err := payload[tablelog.Decision](r)
	if err != nil {
		return err
	}
	by := "player"
	switch {
	case p.ByTimeout:
		by = "timeout"
	case r.UserID == 0:
		by = "dealer"
	}
	rr.Decisions = append(rr.Decisions, wire.Decision{Seq: r.Seq, At: r.Created, By: by, Action: p.Action})
	return nil
}

func readCard(rr *round, r *sabot.LogRecord) error {
	p, err := payload[tablelog.Card](r)
	if err != nil {
		return err
	}
	kind := "card"
	if r.Kind == sabot.LogCardUndo {
		kind = "undo"
	}
	rr.Readings = append(rr.Readings, wire.Reading{Seq: r.Seq, At: r.Created, Kind: kind, Card: p.Card.String(), By: p.By, Device: p.Device})
	return nil
}

func readCut(rr *round, r *sabot.LogRecord) error {
	p, err := payload[tablelog.Cut](r)
	if err != nil {
		return err
	}
	rr.Readings = append(rr.Readings, wire.Reading{Seq: r.Seq, At: r.Created, Kind: "cut-card", By: p.By})
	return nil
}

func readClose(rr *round, r *sabot.LogRecord) error {
	p, err := payload[tablelog.Settle](r)
	if err != nil {
		return err
	}
	rr.closed = true
	rr.Closed, rr.Void, rr.Reason = r.Created, p.Void, p.Reason
	rr.Record, rr.Cards, rr.Dealer, rr.Hands, rr.Results = p.Record, p.Record.Cards, p.Dealer, p.Hands, p.Bets
	rr.Net, rr.House, rr.WalletsAfter = p.Net, p.House, p.Wallets
	return nil
}

// ForPlayer is a round's record as a player may recall it: the face of a
// card taken back (an undo: a misread hole card among them) is hidden until
// its shoe is over, as a burned card's is (AR-23 (d): the players have no
// right to know its value), since the rest of the shoe is
// still to be dealt. A shoe is over once the table has dealt a round of a
// later one. It reads the table's last deal on an index.
func ForPlayer(ctx context.Context, st Log, rr *wire.RoundRecord) error {
	undone := false
	for _, x := range rr.Readings {
		undone = undone || x.Kind == "undo"
	}
	if !undone {
		return nil
	}
	over, err := shoeOver(ctx, st, rr)
	if err != nil || over {
		return err
	}
	rs := slices.Clone(rr.Readings)
	for i := range rs {
		if rs[i].Kind == "undo" {
			rs[i].Card = ""
		}
	}
	rr.Readings = rs
	return nil
}

// shoeOver reports whether the table has dealt a round of a shoe after the
// round's.
func shoeOver(ctx context.Context, st Log, rr *wire.RoundRecord) (bool, error) {
	own, err := st.Find(ctx, sabot.LogQuery{Kinds: []string{sabot.LogDeal}, TableID: rr.Table, FromRound: int64(rr.Round), ToRound: int64(rr.Round), Limit: 1})
	if err != nil || len(own) == 0 {
		return false, err
	}
	last, err := st.Find(ctx, sabot.LogQuery{Kinds: []string{sabot.LogDeal}, TableID: rr.Table, Newest: true, Limit: 1})
	if err != nil || len(last) == 0 {
		return false, err
	}
	a, err := payload[tablelog.Deal](own[0])
	if err != nil {
		return false, err
	}
	b, err := payload[tablelog.Deal](last[0])
	if err != nil {
		return false, err
	}
	return b.Shoe > a.Shoe, nil
}
