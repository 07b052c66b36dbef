package actor

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"log/slog"
	"maps"
	"slices"
	"sync/atomic"
	"time"

	"sabot"
	"sabot/card"
	"sabot/engine"
	"sabot/internal/cluster"
	"sabot/internal/live"
	"sabot/internal/operator"
	"sabot/internal/report"
	"sabot/internal/tablelog"
	"sabot/money"
	"sabot/rules"
	"sabot/shoe"
	"sabot/table"
)

// The actor's state, and how the table's log rebuilds it (load, replay):
// on every start, and after a failed write (rebuild, table_loop.go).

// Table is a table served by one goroutine, its actor, which owns the
// table.Table and everything about it: commands, timers and subscribers all
// go through its loop, so nothing about a table is shared between
// goroutines.
//
// Every change is written to the table's log before anyone is told of it.
// A command is checked against the rules without changing anything, then
// its record and its ledger postings are appended in one store transaction,
// then it is applied. The two changes that can only be computed by making
// them (a deal, which draws cards and frees seats; the close of a round,
// which collects cards and may pass the bank) are made first and, if the
// record cannot be written, the actor rebuilds the table from its log. The
// log is replayed through the same code on every start: that is the crash
// recovery.
type Table struct {
	s       *Host
	cfg     *sabot.Table // the configuration in force
	created *sabot.Table // as the table was created; never changes (other goroutines read its ID)
	p       *rules.Profile
	log     *slog.Logger

	cmds chan *Command
	done chan struct{}

	state // what the log rebuilds

	// Live only.
	rtp   report.Watch      // the return since the actor started (rtpwatch.go)
	count report.CountWatch // the players' bets against the count since then (rtpwatch.go)
	feed  feed              // the table's events, to its subscribers (feed.go)
	timer alarm             // the betting window's or a decision's (table_timers.go)
	sent  int               // engine events of the round already published
	// unloaded is why the last rebuild failed (nil: the state is the
	// log's): the database did not answer, the state is gone; the table
	// answers 503 and tries again on the timer (rebuild).
	unloaded error
	// AR-21: when each box was taken, and when the last round ended (or
	// the table started): a box held SeatIdle since both without a round
	// dealt is given up; seatTimer fires at the first such moment.
	seatSince map[int]time.Time
	roundEnd  time.Time
	// changes counts what the table did (commands, timers); lobbyView is
	// its view as last read with the count then (LobbyView).
	changes   atomic.Int64
	lobbyView atomic.Pointer[countedView]
	// seatUses are the players' boxes given up for no bet and their sits,
	// lately (seats.go).
	seatUses  map[string]*seatUse
	waiting   map[string]time.Time // who asked for a box taken, when
	seatTimer alarm
	// ready are the seated players who said "deal" (callDeal) in this
	// betting window: it ends early once every seated player has.
	ready map[string]bool
	// seenMax bounds the command IDs the table remembers (maxSeen; a
	// test sets it small).
	seenMax int

	// Several nodes (internal/cluster): the table's hold on its lease, its
	// epoch, its fence and its hand-over between rounds.
	fence *cluster.Fence

	// The operator's players' debits (internal/operator, operator.go). A
	// rebuild keeps them: the log does not hold them.
	debits *operator.Debits
}

// write appends a record under the table's lease. A refusal for an old
// epoch marks the table fenced: the actor stops after the step in hand and
// the node drops the table, which another node serves now.
func (a *Table) write(ctx context.Context, rec *sabot.LogAppend, ps []sabot.Posting) (bool, error) {
	rec.Epoch = a.fence.Epoch
	if a.s.wallet() {
		var err error
		if ps, err = a.operatorMoney(ctx, rec, ps); err != nil {
			return false, err
		}
	}
	dup, err := a.s.Store.Append(ctx, rec, ps)
	if err == nil && !dup && a.s.wallet() {
		a.operatorWritten(rec)
	}
	if a.fence.Refused(err) {
		a.log.Warn("an append was refused under an old lease: the table is another node's now", "epoch", a.fence.Epoch, "err", err)
	}
	return dup, err
}

// state is everything replaying the log rebuilds.
type state struct {
	t      *table.Table
	closed string // why the table is out of service ("" when it serves)
	// shut is the pit's closing (003 §11; nil: open), which reopen-table
	// ends.
	shut    *pitClose
	lastSeq int64
	// configured are the options a configuration change put in force (nil:
	// those the table was created with).
	configured map[string]string
	snapRound  int         // the round after which the last snapshot was written
	snapSeq    int64       // the last snapshot's seq (0: none)
	seeds      []shoe.Seed // recorded seeds not yet used by a shoe
	fresh      []shoe.Seed // seeds drawn since the last record: written before it
	// seedSteps and freshSteps say, of each of seeds and fresh, whether
	// its shoe waits for its steps (tablelog.ShoeStart.Steps); stepsLog: the
	// table's log knows the steps (tablelog.Opened.ShoeSteps).
	seedSteps  []bool
	freshSteps []bool
	stepsLog   bool
	// physSteps: the log knows a physical shoe's steps too
	// (tablelog.Opened.PhysicalSteps).
	physSteps bool
	shoes     map[int]*shoeState
	shoeNo    int // the shoe whose position is counted
	shoePos   int
	players   map[string]int64        // player name → user ID
	escrow    map[string]money.Amount // each player's stakes in the table account
	dealt     bool                    // the round in the table was dealt and not yet settled or void in the log
	// left are the players who stood up while the dealt round was in play,
	// when they left: its settlement says so (tablelog.Settle.Left).
	left     map[string]time.Time
	roundPos int         // the round's shoe position
	forced   []card.Card // test mode: the next round's cards
	// forcedRound: the round in the table was dealt from forced cards, not
	// from the shoe.
	forcedRound bool
	forcedCards []card.Card
	declined    map[declineKey]bool
	pending     live.Pending // AR-23 corrections asked, waiting for the inspector (internal/live)
	window      int          // engine windows opened in the round: declines belong to one
	seen        map[string]int64
	seenFIFO    []string

	// expose: a card the inspector took back had been followed by the
	// hole card's turning, which the players saw: the round turns it again
	// before anyone decides (AR-23 (g); internal/live/physical.go).
	expose bool

	// bankCover is what the player holding a family bank has moved to his
	// bank account to cover the round in play (FAM-01); bankHolder is he.
	bankCover  money.Amount
	bankHolder string
	// forgot: seen may lack commands of the log (the oldest were
	// dropped, or the start read only the end of the log): a command it
	// does not know is looked up in the store before it is run.
	forgot bool
}

type shoeState struct {
	seed       shoe.Seed
	commitment string
	revealed   bool
}

type declineKey struct {
	player string
	box    int
}

// maxSeen bounds the command IDs a table remembers in memory; older repeats
// are looked up in the store (GLI-19 §4.2.3).
const maxSeen = 8192

func newActor(s *Host, cfg *sabot.Table) *Table {
	s.defaults()
	a := &Table{
		s: s, cfg: cfg, created: cfg, log: s.logger().With("table", cfg.ID),
		cmds: make(chan *Command, 64), done: make(chan struct{}),
		feed: newFeed(), seenMax: maxSeen, fence: cluster.NewFence(),
	}
	a.debits = s.Operator.Debits(debitTable{a})
	return a
}

// load rebuilds the table from its log (resume then goes on with what the
// log left open). A table whose log cannot be replayed is closed with every
// stake returned.
func (a *Table) load(ctx context.Context) error {
	a.seatSince, a.roundEnd = map[int]time.Time{}, a.s.now() // every seat held gets its full time again
	if a.s.SnapshotEvery >= 0 {
		err := a.loadFrom(ctx, true)
		if err == nil {
			return nil
		}
		if !errors.Is(err, errNoSnapshot) {
			a.log.Warn("the table's snapshot is not used: replaying its whole log", "err", err)
		}
	}
	return a.loadFrom(ctx, false)
}

// loadFrom rebuilds the table from its latest snapshot and the records
// after it, or from its whole log. From a snapshot, any failure is
// returned (the caller replays the whole log); from the whole log, a table
// that does not replay is closed with every stake returned.
func (a *Table) loadFrom(ctx context.Context, fromSnapshot bool) error {
	a.reset()
	var recs []*sabot.LogRecord
	var err error
	if fromSnapshot {
		if recs, err = a.restoreSnapshot(ctx); err != nil {
			return err
		}
	} else {
		if recs, err = a.s.Store.Log(ctx, a.cfg.ID, 1); err != nil {
			return err
		}
		if len(recs) == 0 {
			// A table whose creation stopped before its first record.
			rec := &sabot.LogRecord{TableID: a.cfg.ID, Kind: sabot.LogTableOpened, Payload: MustJSON(tablelog.Opened{
				Name: a.cfg.Name, Profile: a.cfg.Profile, Options: a.cfg.Options, TestMode: a.cfg.TestMode, ShoeSteps: true, PhysicalSteps: true})}
			if _, err := a.write(ctx, sabot.Appending(rec), nil); err != nil {
				return err
			}
			recs = []*sabot.LogRecord{rec}
		}
	}
	// The shoes' seeds, in the order they were drawn. A seed that does not
	// open (the server has another seed key, or none) stops the start: the
	// table would deal other cards than those its log committed to.
	for _, r := range recs {
		if r.Kind == sabot.LogShoe {
			var sp tablelog.ShoeStart
			if json.Unmarshal(r.Payload, &sp) == nil {
				seed, err := a.s.openSeed(sp, a.cfg.ID)
				if err != nil {
					return err
				}
				a.seeds = append(a.seeds, seed)
				a.seedSteps = append(a.seedSteps, sp.Steps)
			}
		}
	}
	var replayErr error
	for _, r := range recs {
		if a.closed != "" {
			a.track(r)
			continue
		}
		if err := a.replay(r); err != nil {
			replayErr = fmt.Errorf("record %d (%s): %w", r.Seq, r.Kind, err)
			a.closed = "the table's log does not replay: " + replayErr.Error()
		}
	}
	if replayErr != nil && fromSnapshot {
		return replayErr
	}
	if replayErr != nil {
		a.fresh, a.freshSteps = nil, nil
		a.log.Error("table log does not replay", "err", replayErr)
		return a.closeTable(ctx, replayErr)
	}
	if a.t == nil {
		return fmt.Errorf("table %d: the log has no table-opened record", a.cfg.ID)
	}
	return a.writeFresh(ctx)
}

// reset forgets everything the log rebuilds.
func (a *Table) reset() {
	a.cfg = a.created
	a.state = state{shoes: map[int]*shoeState{}, players: map[string]int64{}, escrow: map[string]money.Amount{},
		declined: map[declineKey]bool{}, seen: map[string]int64{}}
}

// track keeps the money and the command IDs of a record that is not
// replayed (a closed table): the stakes it moved still count.
func (a *Table) track(r *sabot.LogRecord) { a.trackAs(r, nil) }

// trackAs is track of a record this actor has just written, with the
// payload it wrote (the value; nil: read it from the record).
func (a *Table) trackAs(r *sabot.LogRecord, payload any) {
	a.lastSeq = r.Seq
	a.remember(r.ClientID, r.CommandID, r.Seq)
	if r.UserID != 0 {
		var player string
		switch p := payload.(type) {
		case tablelog.Seat:
			player = p.Player
		case tablelog.Bet:
			player = p.Player
		case nil:
			var pl tablelog.PlayerOf
			if json.Unmarshal(r.Payload, &pl) == nil {
				player = pl.Player
			}
		}
		if player != "" {
			a.players[player] = r.UserID
		}
	}
	if k, ok := logKinds[r.Kind]; ok {
		k.track(a, r, payload)
	}
}

// payloadOf is a record's payload as a T: given, if it is one, else
// decoded from the record (a zero T if it does not decode).
func payloadOf[T any](r *sabot.LogRecord, given any) T {
	if v, ok := given.(T); ok {
		return v
	}
	var v T
	json.Unmarshal(r.Payload, &v)
	return v
}

// closeTable writes the void that returns every stake of a table whose log
// cannot be replayed, once.
func (a *Table) closeTable(ctx context.Context, cause error) error {
	ret := map[string]money.Amount{}
	for p, v := range a.escrow {
		if v != 0 {
			ret[p] = v
		}
	}
	if len(ret) == 0 && a.bankCover == 0 {
		return nil
	}
	pay := tablelog.Settle{Void: true, Closed: true, Reason: cause.Error(), Returned: ret, Net: map[string]money.Amount{}}
	var total money.Amount
	var ps []sabot.Posting
	if a.bankCover != 0 {
		// FAM-01: the bank's cover goes back to its holder's wallet.
		bps, err := a.returnCover(ctx, a.bankHolder, 0, "void: table out of service")
		if err != nil {
			return err
		}
		ps = append(ps, bps...)
		pay.Bank, pay.BankCover = a.bankHolder, a.bankCover
	}
	for _, p := range slices.Sorted(maps.Keys(ret)) {
		w, err := a.s.account(ctx, sabot.AccountWallet, a.players[p])
		if err != nil {
			return err
		}
		ps = append(ps, sabot.Posting{AccountID: w, Amount: ret[p], Memo: "void: table out of service"})
		total += ret[p]
	}
	tid, err := a.s.account(ctx, sabot.AccountTable, a.cfg.ID)
	if err != nil {
		return err
	}
	if total != 0 {
		ps = append(ps, sabot.Posting{AccountID: tid, Amount: -total, Memo: "void: table out of service"})
	}
	rec := &sabot.LogRecord{TableID: a.cfg.ID, Kind: sabot.LogVoid, Payload: MustJSON(pay)}
	if _, err := a.write(ctx, sabot.Appending(rec), ps); err != nil {
		return err
	}
	a.escrow = map[string]money.Amount{}
	a.bankCover, a.bankHolder = 0, ""
	a.s.Metrics.rounds.WithLabelValues("void").Inc()
	return nil
}

// replay applies one record of the log to the rebuilt state.
func (a *Table) replay(r *sabot.LogRecord) error {
	a.track(r)
	if k, ok := logKinds[r.Kind]; ok {
		return k.replay(a, r)
	}
	return nil
}

// nextSeed is the table's source of shoe seeds: the recorded ones first
// (replay), then fresh ones from crypto/rand, each written to the log before
// the record of what drew it.
func (a *Table) nextSeed() shoe.Seed {
	if len(a.seeds) > 0 {
		s := a.seeds[0]
		a.seeds, a.seedSteps = a.seeds[1:], a.seedSteps[1:]
		return s
	}
	s := shoe.RandomSeed()
	a.fresh = append(a.fresh, s)
	a.freshSteps = append(a.freshSteps, a.newShoeSteps())
	return s
}

// nextShoeSteps says whether the shoe of the next seed (nextSeed) waits
// for its steps (AR-07, EG-02): as its record says, for a recorded seed;
// for a fresh one, where the table's log knows the steps and its profile
// asks them (player_cut).
func (a *Table) nextShoeSteps() bool {
	if len(a.seeds) > 0 {
		return a.seedSteps[0]
	}
	return a.newShoeSteps()
}

func (a *Table) newShoeSteps() bool { return a.stepsLog && a.p.PlayerCut }

// physicalShoeSteps says whether a new physical shoe waits for its steps:
// where the table's log knows them and its profile asks them
// (player_cut). There is no seed: nothing else to say it.
func (a *Table) physicalShoeSteps() bool { return a.physSteps && a.p.PlayerCut }

// noteShoe starts counting the position of a new shoe.
func (a *Table) noteShoe() {
	if a.t.ShoeNo() != a.shoeNo {
		a.shoeNo = a.t.ShoeNo()
	}
	a.shoePos = 0
	if sh := a.t.Shoe(); sh != nil { // a physical shoe counts the cards read
		a.shoePos = len(sh.Burned())
	}
}

// deal deals a round, forced in test mode when cards were given.
func (a *Table) deal() error {
	before := a.t.ShoeNo()
	var err error
	if a.forced != nil {
		_, err = a.t.DealForced(a.forced)
	} else {
		_, err = a.t.Deal()
	}
	if err != nil {
		return err
	}
	a.forcedRound, a.forcedCards = a.forced != nil, a.forced
	a.forced = nil
	if a.t.ShoeNo() != before {
		a.noteShoe()
	}
	a.roundPos = a.shoePos
	a.dealt = true
	a.declined = map[declineKey]bool{}
	a.window = 0
	a.syncWindow()
	return nil
}

// finish closes a round that is over in the engine: the cards are collected
// and the shoe position moves on.
func (a *Table) finish() (string, error) {
	// A correction is of its round: one not decided lapses with it; a
	// walk-in's buy-in or cash-out waiting for the inspector does not.
	a.pending.Lapse()
	a.expose = false
	r := a.t.Round()
	forced := a.forcedRound
	before := a.t.ShoeNo()
	newBank, err := a.t.Finish()
	if err != nil {
		return "", err
	}
	if !forced {
		a.shoePos += len(r.Record().Cards)
	}
	if a.t.ShoeNo() != before {
		a.noteShoe()
	}
	a.dealt = false
	return newBank, nil
}

// syncWindow notes a newly opened optional window: declines belong to one.
func (a *Table) syncWindow() {
	n := 0
	for _, e := range a.t.Round().Events() {
		if e.Kind == engine.EvWindow {
			n++
		}
	}
	if n != a.window || !inWindow(a.t.Round().Phase()) && len(a.declined) > 0 {
		a.window = n
		a.declined = map[declineKey]bool{}
	}
}

func (a *Table) remember(clientID, commandID string, seq int64) {
	if commandID == "" {
		return
	}
	k := clientID + "\x00" + commandID
	if _, ok := a.seen[k]; ok {
		return
	}
	a.seen[k] = seq
	a.seenFIFO = append(a.seenFIFO, k)
	if len(a.seenFIFO) > max(a.seenMax, 1) {
		delete(a.seen, a.seenFIFO[0])
		a.seenFIFO = a.seenFIFO[1:]
		a.forgot = true
	}
}

var errClosed = errors.New("table closed")
