// Package report is the pit's eyes (docs/pit.md): each table's
// results over a period against its theoretical win, the regulator's export
// of them, the players' ratings and the return to player watched, read from
// the table logs and the ledger a sabot.Store keeps, on either database.
//
// It reads the log records the table server writes (internal/actor's
// records.go: the stored format, whose fields are added and never renamed)
// through the fields it needs. It writes only the rollups (rollup.go: the
// tables' report's sums by table and hour, sabot.Rollups), never the log
// or the ledger.
package report

import (
	"context"
	"slices"
	"time"

	"sabot"
	"sabot/internal/tablelog"
	"sabot/rules"
)

// Source is what a report reads: a sabot.Store.
type Source interface {
	Tables(ctx context.Context) ([]*sabot.Table, error)
	Find(ctx context.Context, q sabot.LogQuery) ([]*sabot.LogRecord, error)
}

// Period is the half-open interval [From, To) a report covers; a round
// belongs to it when the record that closed it (settle or void) was
// written in it.
type Period struct {
	From, To time.Time
}

// Check refuses an empty or reversed period.
func (p Period) Check() error {
	if p.From.IsZero() || p.To.IsZero() || !p.From.Before(p.To) {
		return sabot.Errorf(sabot.EINVALID, "a report's period runs from a time to a later one, not %s to %s",
			p.From.Format(time.RFC3339), p.To.Format(time.RFC3339))
	}
	return nil
}

// pageSize is how many records a report reads from the store at a time: it
// holds one page in memory, whatever the period. A paced source reads
// smaller pages (pacedPage).
const pageSize = 2000

// pageOf is the page a report reads from src.
func pageOf(src Source) int {
	if p, ok := src.(interface{ pageSize() int }); ok {
		return p.pageSize()
	}
	return pageSize
}

// each calls fn with every record of a kind written in the period, across
// tables, the newest first, a page at a time (LogQuery.Before: the cursor
// of the index log_kind_created).
func each(ctx context.Context, src Source, kind string, p Period, fn func(*sabot.LogRecord) error) error {
	pg := newPager(src, kind, p)
	for {
		r, err := pg.peek(ctx)
		if err != nil || r == nil {
			return err
		}
		pg.next()
		if err := fn(r); err != nil {
			return err
		}
	}
}

// pager reads the records of a kind written in a period, the newest first,
// a page at a time: two pagers read side by side merge two kinds.
type pager struct {
	src    Source
	q      sabot.LogQuery
	page   []*sabot.LogRecord
	i      int
	last   bool // the page read last was the last one
	called bool
}

func newPager(src Source, kind string, p Period) *pager {
	return &pager{src: src, q: sabot.LogQuery{Kinds: []string{kind}, Since: p.From, Newest: true, Limit: pageOf(src),
		Before: &sabot.LogRecord{Created: p.To}}}
}

// peek returns the next record (nil at the end) without taking it.
func (pg *pager) peek(ctx context.Context) (*sabot.LogRecord, error) {
	if pg.i < len(pg.page) {
		return pg.page[pg.i], nil
	}
	if pg.last {
		return nil, nil
	}
	if pg.called {
		if err := ctx.Err(); err != nil {
			return nil, err
		}
	}
	recs, err := pg.src.Find(ctx, pg.q)
	if err != nil {
		return nil, err
	}
	pg.called = true
	pg.page, pg.i, pg.last = recs, 0, len(recs) < pg.q.Limit
	if len(recs) > 0 {
		pg.q.Before = recs[len(recs)-1]
		return recs[0], nil
	}
	return nil, nil
}

// next takes the record peek returned.
func (pg *pager) next() { pg.i++ }

// The payloads a report reads are internal/tablelog's: the kinds' types
// and the partial reads for speed.

// optionsAt gives the options in force at each record of one table: those
// it opened with, changed by each configure record (internal/server's
// configure.go: the options in force from then on).
type optionsAt struct {
	profile string
	seqs    []int64
	opts    []map[string]string
	// Each change's theory and profile, once asked.
	theories []*Theory
	profiles []*rules.Profile
	hashes   []string
}

func loadOptions(ctx context.Context, src Source, t *sabot.Table) (*optionsAt, error) {
	// Two queries: the changes on the index log_configure, the opening
	// (the log's first record) on the primary key, from the start.
	opened, err := src.Find(ctx, sabot.LogQuery{Kinds: []string{sabot.LogTableOpened}, TableID: t.ID, Limit: 1})
	if err != nil {
		return nil, err
	}
	changes, err := src.Find(ctx, sabot.LogQuery{Kinds: []string{sabot.LogConfigure}, TableID: t.ID})
	if err != nil {
		return nil, err
	}
	recs := append(opened, changes...)
	o := &optionsAt{profile: t.Profile, seqs: []int64{0}, opts: []map[string]string{t.Options}}
	for _, r := range recs {
		var p tablelog.ConfigureOptions
		if err := tablelog.Decode(r, &p); err != nil {
			return nil, err
		}
		o.seqs = append(o.seqs, r.Seq)
		o.opts = append(o.opts, p.Options)
	}
	return o, nil
}

// index is the last change before seq.
func (o *optionsAt) index(seq int64) int {
	i, _ := slices.BinarySearch(o.seqs, seq)
	return max(i-1, 0)
}

// theory returns the theory of the rules in force at seq.
func (o *optionsAt) theory(ctx context.Context, th *Theories, seq int64) (*Theory, error) {
	i := o.index(seq)
	if o.theories == nil {
		o.theories = make([]*Theory, len(o.opts))
	}
	if o.theories[i] == nil {
		t, err := th.Of(ctx, o.profile, o.opts[i])
		if err != nil {
			return nil, err
		}
		o.theories[i] = t
	}
	return o.theories[i], nil
}

// rules returns the profile in force at seq.
func (o *optionsAt) rules(seq int64) (*rules.Profile, error) {
	i := o.index(seq)
	if o.profiles == nil {
		o.profiles = make([]*rules.Profile, len(o.opts))
	}
	if o.profiles[i] == nil {
		p, err := sabot.ProfileOf(o.profile, o.opts[i])
		if err != nil {
			return nil, err
		}
		o.profiles[i] = p
	}
	return o.profiles[i], nil
}

// hash returns the GameHash of the rules in force at seq.
func (o *optionsAt) hash(seq int64) (string, error) {
	i := o.index(seq)
	if o.hashes == nil {
		o.hashes = make([]string, len(o.opts))
	}
	if o.hashes[i] == "" {
		p, err := o.rules(seq)
		if err != nil {
			return "", err
		}
		o.hashes[i] = p.GameHash()
	}
	return o.hashes[i], nil
}
