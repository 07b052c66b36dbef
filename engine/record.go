package engine

import (
	"fmt"

	"sabot/card"
	"sabot/money"
	"sabot/rules"
)

// PlacedBet is a bet placed before the deal.
type PlacedBet struct {
	Player string       `json:"player"`
	Box    int          `json:"box"`
	Stake  money.Amount `json:"stake"`
}

// Record is everything that reproduces a round exactly: the cards in the
// order they were drawn, the bets, the decisions, and when the cut card came
// out. With the profile, Replay plays it again to the same events.
type Record struct {
	Cards      []card.Card `json:"cards"`
	Bets       []PlacedBet `json:"bets"`
	Actions    []Action    `json:"actions"`
	CutAfter   int         `json:"cut_after"` // draws after which the cut card was out (-1: not in this round)
	CutAtStart bool        `json:"cut_at_start,omitempty"`
}

// Record returns the round's record so far.
func (r *Round) Record() Record {
	rec := Record{
		Cards:      append([]card.Card(nil), r.drawn...),
		Actions:    append([]Action(nil), r.actions...),
		CutAfter:   -1,
		CutAtStart: r.cutOutAtStart,
	}
	for i := range r.bets {
		if b := &r.bets[i]; b.Kind == MainBet {
			rec.Bets = append(rec.Bets, PlacedBet{b.Player, b.Box, b.Stake})
		}
	}
	if r.lastRound && !r.cutOutAtStart {
		rec.CutAfter = r.cutAfter
	}
	// A shoe that ran out needs no mark: the record's cards end where it did.
	return rec
}

// Forced is a Source that deals a fixed card order: the forced-card mode of
// tests, certification and replay. The cut card comes out after CutAfter
// draws (-1: never).
type Forced struct {
	Cards    []card.Card
	Pos      int
	CutAfter int
	CutStart bool
	// Wait makes it a physical shoe's cards so far (Waiter): past the last
	// card the round waits for the next instead of running out.
	Wait bool
}

// NewForced returns a forced source without a cut card.
func NewForced(cards []card.Card) *Forced { return &Forced{Cards: cards, CutAfter: -1} }

// Draw implements Source.
func (f *Forced) Draw() (card.Card, bool) {
	if f.Pos >= len(f.Cards) {
		return 0, false
	}
	c := f.Cards[f.Pos]
	f.Pos++
	return c, true
}

// Waiting implements Waiter: the cards are all drawn and more may come.
func (f *Forced) Waiting() bool { return f.Wait && f.Pos >= len(f.Cards) }

// CutCardOut implements Source.
func (f *Forced) CutCardOut() bool { return f.CutStart || f.CutAfter >= 0 && f.Pos >= f.CutAfter }

// Replay plays a record again through the checked path and returns the
// round. An error means the record does not replay: it was not made by this
// engine with this profile.
func Replay(p *rules.Profile, rec Record) (*Round, error) { return replay(p, rec, false) }

// ReplayPhysical is Replay for a round dealt from a physical shoe (Waiter)
// and still in play: past the record's last card the round waits for the
// next one (Waiting) instead of running out. A table dealt by hand feeds
// each card read from the shoe this way: the record, one card longer,
// replays to the same events and on to where the round needs the next.
func ReplayPhysical(p *rules.Profile, rec Record) (*Round, error) { return replay(p, rec, true) }

func replay(p *rules.Profile, rec Record, wait bool) (*Round, error) {
	r := New(p)
	r.Reset(&Forced{Cards: rec.Cards, CutAfter: rec.CutAfter, CutStart: rec.CutAtStart, Wait: wait})
	for _, b := range rec.Bets {
		if err := r.PlaceBet(b.Player, b.Box, b.Stake); err != nil {
			return nil, fmt.Errorf("replay: %w", err)
		}
	}
	if err := r.Start(); err != nil {
		return nil, fmt.Errorf("replay: %w", err)
	}
	for i, a := range rec.Actions {
		if err := r.Act(a); err != nil {
			return nil, fmt.Errorf("replay: decision %d: %w", i+1, err)
		}
	}
	return r, nil
}
