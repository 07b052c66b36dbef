package actor

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"maps"

	"sabot"
	"sabot/internal/tablelog"
	"sabot/money"
	"sabot/shoe"
	"sabot/table"
)

// A table's log grows with every round, and a start replays it. Between
// rounds, every SnapshotEvery rounds, the table writes its state as a
// snapshot record; a start restores the latest snapshot and replays only
// the records after it. The snapshot is a shortcut, never the truth: a
// snapshot that does not restore, or a log that does not replay after it,
// sends the start back to the full replay from the first record.

// DefaultSnapshotEvery is how many rounds a table plays between snapshots.
const DefaultSnapshotEvery = 100

// DefaultSnapshotRecords is how many records a table writes between
// snapshots whatever the rounds (sits and leaves wrote tens of
// thousands of records to a table that played no round, every one
// replayed at its next start).
const DefaultSnapshotRecords = 1000

// snapshotSeen is how many records before a snapshot a start from it reads
// for their command IDs: a few dozen rounds of a table, minutes of play.
const snapshotSeen = 1024

// maybeSnapshot writes a snapshot between rounds when the table has played
// SnapshotEvery rounds, or written SnapshotRecords records, since the last.
func (a *Table) maybeSnapshot(ctx context.Context) {
	if a.unloaded != nil {
		return // a command applied, then a later write and the rebuild failed: no table to snapshot
	}
	every := a.s.SnapshotEvery
	if every == 0 {
		every = DefaultSnapshotEvery
	}
	records := int64(a.s.SnapshotRecords)
	if records == 0 {
		records = DefaultSnapshotRecords
	}
	due := a.t.RoundNo()-a.snapRound >= every || records > 0 && a.lastSeq-a.snapSeq >= records
	// Not with seeds drawn and not yet written (a.fresh), nor with seeds
	// written and not yet used (a.seeds: a record that drew a shoe failed
	// after its seed was written): a start from the snapshot would not
	// give them back.
	// Nor while a walk-in's buy-in or cash-out waits for the inspector
	// (internal/live): the snapshot does not keep it.
	if every < 0 || a.dealt || a.closed != "" || a.shut != nil || len(a.fresh) > 0 || len(a.seeds) > 0 || len(a.pending) > 0 || a.t.Awaiting() != table.StepNone || !due {
		return
	}
	pay, err := a.snapshot()
	if err != nil {
		a.log.Warn("no snapshot", "err", err)
		return
	}
	rec := &sabot.LogRecord{TableID: a.cfg.ID, Kind: sabot.LogSnapshot, RoundNo: int64(a.t.RoundNo()), Created: a.s.now(), Payload: MustJSON(pay)}
	if _, err := a.write(ctx, sabot.Appending(rec), nil); err != nil {
		a.log.Warn("snapshot not written", "err", err)
		return
	}
	a.track(rec)
	a.snapRound, a.snapSeq = a.t.RoundNo(), rec.Seq
}

func (a *Table) snapshot() (*tablelog.Snapshot, error) {
	ts, err := a.t.Snapshot()
	if err != nil {
		return nil, err
	}
	pay := &tablelog.Snapshot{Version: tablelog.SnapshotVersion, Table: ts, Options: a.configured, Players: maps.Clone(a.players), Escrow: map[string]money.Amount{},
		ShoeNo: a.shoeNo, ShoePos: a.shoePos, Shoes: map[int]tablelog.SnapshotShoe{}, Forced: a.forced, ShoeSteps: a.stepsLog, PhysicalSteps: a.physSteps}
	for p, v := range a.escrow {
		if v != 0 {
			pay.Escrow[p] = v
		}
	}
	for no, sh := range a.shoes { // bounded: see trackAs
		pay.Shoes[no] = tablelog.SnapshotShoe{Seed: seedHex(sh.seed), Commitment: sh.commitment, Revealed: sh.revealed}
	}
	if k := a.s.SeedKey; k != nil {
		secret := tablelog.SnapshotSecret{Seed: pay.Table.Seed, Shoe: pay.Table.Shoe, Shoes: pay.Shoes}
		pay.Sealed = k.Seal(MustJSON(secret), snapshotSealWhat(a.cfg.ID, ts.RoundNo))
		pay.Table.Seed, pay.Table.Shoe, pay.Shoes = "", shoe.State{}, nil
	}
	return pay, nil
}

// errNoSnapshot: the table has no snapshot to start from.
var errNoSnapshot = errors.New("no snapshot")

// restoreSnapshot rebuilds the state from the table's latest snapshot and
// returns the records after it, to replay.
func (a *Table) restoreSnapshot(ctx context.Context) ([]*sabot.LogRecord, error) {
	found, err := a.s.Store.Find(ctx, sabot.LogQuery{Kinds: []string{sabot.LogSnapshot}, TableID: a.cfg.ID, Newest: true, Limit: 1})
	if err != nil {
		return nil, err
	}
	if len(found) == 0 {
		return nil, errNoSnapshot
	}
	snap := found[0]
	var pay tablelog.Snapshot
	if err := json.Unmarshal(snap.Payload, &pay); err != nil {
		return nil, fmt.Errorf("snapshot %d: %w", snap.Seq, err)
	}
	if pay.Version != tablelog.SnapshotVersion {
		return nil, fmt.Errorf("snapshot %d is of version %d, this server writes %d", snap.Seq, pay.Version, tablelog.SnapshotVersion)
	}
	if pay.Sealed != "" {
		b, err := a.s.SeedKey.Open(pay.Sealed, snapshotSealWhat(a.cfg.ID, pay.Table.RoundNo))
		if err != nil {
			return nil, fmt.Errorf("snapshot %d: %w", snap.Seq, err)
		}
		var secret tablelog.SnapshotSecret
		if err := json.Unmarshal(b, &secret); err != nil {
			return nil, fmt.Errorf("snapshot %d: %w", snap.Seq, err)
		}
		pay.Table.Seed, pay.Table.Shoe, pay.Shoes = secret.Seed, secret.Shoe, secret.Shoes
	}
	opts := a.created.Options
	if pay.Options != nil {
		opts = pay.Options
	}
	prof, err := profileOf(a.created.Profile, opts)
	if err != nil {
		return nil, fmt.Errorf("snapshot %d: %w", snap.Seq, err)
	}
	t, err := table.Restore(prof, pay.Table)
	if err != nil {
		return nil, fmt.Errorf("snapshot %d: %w", snap.Seq, err)
	}
	a.stepsLog, a.physSteps = pay.ShoeSteps, pay.PhysicalSteps
	t.Seeds, t.ShoeSteps = a.nextSeed, a.nextShoeSteps
	if t.Physical() {
		t.ShoeSteps = a.physicalShoeSteps
	}
	t.SetAmountStyle(money.Grouped)
	a.t = t
	a.inForce(prof, pay.Options)
	a.shoeNo, a.shoePos, a.forced = pay.ShoeNo, pay.ShoePos, pay.Forced
	for p, id := range pay.Players {
		a.players[p] = id
	}
	for p, v := range pay.Escrow {
		a.escrow[p] = v
	}
	for no, sh := range pay.Shoes {
		seed, err := parseSeed(sh.Seed)
		if err != nil {
			return nil, fmt.Errorf("snapshot %d: shoe %d: %w", snap.Seq, no, err)
		}
		a.shoes[no] = &shoeState{seed: seed, commitment: sh.Commitment, revealed: sh.Revealed}
	}
	a.lastSeq, a.snapRound, a.snapSeq = snap.Seq, t.RoundNo(), snap.Seq
	// The commands of the last records before the snapshot are
	// remembered, as a replay of the whole log would: a command a client
	// repeats after the start is answered as a duplicate (GLI-19 §4.2.3).
	// An older repeat is looked up in the store.
	from := max(1, snap.Seq+1-snapshotSeen)
	a.forgot = a.forgot || from > 1
	recs, err := a.s.Store.Log(ctx, a.cfg.ID, from)
	if err != nil {
		return nil, err
	}
	i := 0
	for ; i < len(recs) && recs[i].Seq <= snap.Seq; i++ {
		a.remember(recs[i].ClientID, recs[i].CommandID, recs[i].Seq)
	}
	return recs[i:], nil
}
