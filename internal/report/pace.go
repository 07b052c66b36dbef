package report

import (
	"context"
	"time"

	"sabot"
)

// Paced gives a report's source a pace: after each read it pauses rest
// times as long as the report worked since its last pause (the read and
// the work on what it read), so that a report of a long period leaves
// the processor and the database to the tables between its pages. rest 1
// keeps the report busy half the time at most, and takes it twice as long
// (docs/pit.md, "Fast on a year of data"). The ledger's totals are read
// through it when src has them.
func Paced(src Source, rest float64) Source {
	p := &paced{Source: src, rest: rest, now: time.Now, sleep: sleepCtx}
	if lr, ok := src.(sabot.LedgerReader); ok {
		return pacedLedger{p, lr}
	}
	return p
}

// pacedPage is the page a paced report reads (pageSize unpaced): its
// work on a page, then its pause, are an eighth as long, so that the
// tables beside it wait behind shorter bursts (docs/pit.md).
const pacedPage = 250

type paced struct {
	Source
	rest  float64
	since time.Time // when the last pause ended
	now   func() time.Time
	sleep func(context.Context, time.Duration) error
}

type pacedLedger struct {
	*paced
	sabot.LedgerReader
}

func (p *paced) pageSize() int {
	if p.rest <= 0 {
		return pageSize
	}
	return pacedPage
}

func (p *paced) Find(ctx context.Context, q sabot.LogQuery) ([]*sabot.LogRecord, error) {
	if p.since.IsZero() {
		p.since = p.now()
	}
	recs, err := p.Source.Find(ctx, q)
	if err != nil || p.rest <= 0 {
		return recs, err
	}
	busy := p.now().Sub(p.since)
	if err := p.sleep(ctx, time.Duration(p.rest*float64(busy))); err != nil {
		return nil, err
	}
	p.since = p.now()
	return recs, nil
}

func sleepCtx(ctx context.Context, d time.Duration) error {
	if d <= 0 {
		return ctx.Err()
	}
	t := time.NewTimer(d)
	defer t.Stop()
	select {
	case <-t.C:
		return nil
	case <-ctx.Done():
		return ctx.Err()
	}
}
