package report

import (
	"context"
	"math"

	"sabot"
	"sabot/money"
)

// The return watched: a table's return to player since
// a point, against the certified figure (1 − the exact house edge), in a
// band of WatchZ standard deviations. The watch is asked after every
// round, so its false-alarm rate is not a fixed test's: it is measured
// (TestWatchFalseAlarms, docs/pit.md) for watches of 10^4 to 10^6 rounds.
const (
	WatchZ         = 4.5
	WatchMinRounds = 1000 // no alarm before: the normal approximation needs rounds
)

// Watch is the return of one table (or profile) since it started. The
// zero value is a watch of no rounds, with the default band.
type Watch struct {
	// Z and MinRounds replace WatchZ and WatchMinRounds (0: those).
	Z         float64
	MinRounds int64

	rounds         int64
	initial, win   float64 // minor units
	theo, variance float64
	outside        bool
}

func (w *Watch) z() float64 {
	if w.Z > 0 {
		return w.Z
	}
	return WatchZ
}

// WatchState is the watch after a round.
type WatchState struct {
	Rounds    int64   `json:"rounds"`
	RTP       float64 `json:"rtp"`           // 1 − win / initial stakes
	Certified float64 `json:"certified_rtp"` // 1 − theo / initial stakes: the exact figure of the rules played
	Low       float64 `json:"rtp_low"`       // Certified ∓ WatchZ standard deviations
	High      float64 `json:"rtp_high"`
	Z         float64 `json:"z"` // (RTP − Certified) in standard deviations
	Outside   bool    `json:"outside"`
	// Crossed is set on the round that took the return out of the band
	// (from WatchMinRounds on): the significant event's round.
	Crossed bool `json:"crossed,omitempty"`
}

// Add counts a settled round: its boxes' initial stakes (each box's main
// and back bets together), the house's win, and the theory of the rules it
// was dealt under.
func (w *Watch) Add(t *Theory, boxes []money.Amount, win money.Amount) WatchState {
	w.rounds++
	w.win += float64(win)
	for _, s := range boxes {
		w.initial += float64(s)
		w.theo += float64(s) * t.HouseEdge
		x := float64(s) * t.SD
		w.variance += x * x
	}
	st := w.State()
	minRounds := w.MinRounds
	if minRounds <= 0 {
		minRounds = WatchMinRounds
	}
	out := st.Outside && w.rounds >= minRounds
	st.Crossed = out && !w.outside
	w.outside = out
	return st
}

// State is the watch now.
func (w *Watch) State() WatchState {
	st := WatchState{Rounds: w.rounds}
	if w.initial == 0 {
		return st
	}
	sd := math.Sqrt(w.variance) / w.initial
	st.RTP = 1 - w.win/w.initial
	st.Certified = 1 - w.theo/w.initial
	st.Low, st.High = st.Certified-w.z()*sd, st.Certified+w.z()*sd
	if sd > 0 {
		st.Z = (st.RTP - st.Certified) / sd
	}
	st.Outside = math.Abs(st.Z) > w.z()
	return st
}

// Cached returns the theory of a profile with options if it has been
// computed, without computing it.
func (c *Theories) Cached(profile string, options map[string]string) (*Theory, bool) {
	p, err := sabot.ProfileOf(profile, options)
	if err != nil {
		return nil, false
	}
	c.mu.Lock()
	e, ok := c.m[p.GameHash()]
	c.mu.Unlock()
	if !ok {
		return nil, false
	}
	select {
	case <-e.done:
		return e.t, e.err == nil
	default:
		return nil, false
	}
}

// Warm starts computing a theory in the background unless it is computed
// or being computed.
func (c *Theories) Warm(profile string, options map[string]string) {
	p, err := sabot.ProfileOf(profile, options)
	if err != nil {
		return
	}
	c.mu.Lock()
	_, ok := c.m[p.GameHash()]
	c.mu.Unlock()
	if !ok {
		go c.Of(context.Background(), profile, options)
	}
}
