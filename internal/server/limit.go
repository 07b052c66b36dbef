package server

import (
	"math"
	"sync"
	"time"

	"golang.org/x/time/rate"
)

// DefaultShoeReads is how many GET /api/shoes/{id} the server answers a
// second, from everybody together (Server.ShoeReads, --shoe-reads): the
// endpoint needs no login.
const DefaultShoeReads = 50

// readLimit is a token bucket of requests a second, made on first use.
type readLimit struct {
	once      sync.Once
	perSecond float64
	lim       *rate.Limiter
}

// init sets the rate: perSecond (0: def; negative: no limit), with a
// burst of a second's worth.
func (l *readLimit) init(perSecond float64, def float64) {
	l.once.Do(func() {
		if perSecond == 0 {
			perSecond = def
		}
		l.perSecond = perSecond
		if perSecond > 0 {
			l.lim = rate.NewLimiter(rate.Limit(perSecond), max(1, int(math.Ceil(perSecond))))
		}
	})
}

// allow takes a token at now; when there is none, it says how long until
// there is.
func (l *readLimit) allow(now time.Time) (time.Duration, bool) {
	if l.lim == nil {
		return 0, true
	}
	r := l.lim.ReserveN(now, 1)
	if d := r.DelayFrom(now); d > 0 {
		r.CancelAt(now)
		return d, false
	}
	return 0, true
}
