package report

import (
	"bytes"
	"context"
	"fmt"
	"sync"

	"sabot"
	"sabot/analysis"
	"sabot/rules"
	"sabot/sim"
)

// Theory is what the analysis says of one rule set (a profile with a
// table's options): the figures a table's results are set against.
type Theory struct {
	Profile string `json:"profile"`
	Rules   string `json:"rules"` // rules.Profile.GameHash: tables with the same rules share it
	// HouseEdge is the house's expected win per unit of initial stake,
	// basic strategy (td) off the top of a full shoe: analysis.Analyze,
	// exact.
	HouseEdge float64 `json:"house_edge"`
	// SD is the standard deviation of a box's net per round, per unit of
	// initial stake, basic strategy: by simulation (SDRounds rounds of one
	// box, flat one unit, the analysis's basic strategy card, the
	// profile's own shoe and cut card; sim.Run), since the analysis
	// computes expectations only. A million rounds put it within a few
	// tenths of a per cent.
	SD float64 `json:"sd_per_unit"`
}

// SDRounds is how many rounds the simulation that measures a rule set's SD
// deals (sim.Run, seed SDSeed: the same figure every time).
const (
	SDRounds = 1 << 20
	SDSeed   = 29
)

// Theories computes each rule set's Theory once and keeps it: the exact
// analysis takes seconds per rule set (analysis.Analyze, which keeps its
// own cache as well), the simulation a fraction of one.
type Theories struct {
	mu    sync.Mutex
	m     map[string]*theoryEntry
	lines map[string]*lineEntry
}

// CountEdge is a rule set's house edge per unit of initial stake at a
// Hi-Lo true count k (floored): Intercept + Slope·k. It is the weighted
// least-squares line (weights: the rounds at each count) through the
// edge a flat basic-strategy player gives at each count −CountBuckets …
// +CountBuckets, simulated (sim.Run with the Hi-Lo count, CountRounds
// rounds, seed SDSeed): the counts far from 0 are rare, and a line keeps
// their noise out.
type CountEdge struct {
	Intercept float64 `json:"intercept"`
	Slope     float64 `json:"slope"`
}

// At is the house edge at true count bucket k (countBucket's index).
func (e CountEdge) At(k int) float64 { return e.Intercept + e.Slope*float64(k-CountBuckets) }

// CountRounds is how many rounds the simulation of CountEdge deals.
const CountRounds = 1 << 20

type lineEntry struct {
	done chan struct{}
	e    CountEdge
	err  error
}

// CountEdgeOf returns the CountEdge of a built-in profile with options on
// top, computed once.
func (c *Theories) CountEdgeOf(ctx context.Context, profile string, options map[string]string) (CountEdge, error) {
	p, err := sabot.ProfileOf(profile, options)
	if err != nil {
		return CountEdge{}, err
	}
	key := p.GameHash()
	c.mu.Lock()
	if c.lines == nil {
		c.lines = map[string]*lineEntry{}
	}
	e, ok := c.lines[key]
	if !ok {
		e = &lineEntry{done: make(chan struct{})}
		c.lines[key] = e
	}
	c.mu.Unlock()
	if !ok {
		e.e, e.err = countEdge(context.WithoutCancel(ctx), p)
		close(e.done)
	}
	select {
	case <-e.done:
		return e.e, e.err
	case <-ctx.Done():
		return CountEdge{}, ctx.Err()
	}
}

func countEdge(ctx context.Context, p *rules.Profile) (CountEdge, error) {
	_, card, err := basicOf(ctx, p)
	if err != nil {
		return CountEdge{}, err
	}
	hilo := sim.HiLo
	res, err := sim.Run(ctx, sim.Config{Profile: p, Strategy: card, Count: &hilo, Rounds: CountRounds, Seed: SDSeed, Workers: 1, Unit: sim.DefaultUnit(p)})
	if err != nil {
		return CountEdge{}, fmt.Errorf("the simulation of %s by count: %w", p.Name, err)
	}
	var sw, sx, sy, sxx, sxy float64
	for _, row := range res.ByCount {
		if row.Count < -CountBuckets || row.Count > CountBuckets || row.Rounds == 0 {
			continue
		}
		w, x, y := float64(row.Rounds), float64(row.Count), -row.EV
		sw += w
		sx += w * x
		sy += w * y
		sxx += w * x * x
		sxy += w * x * y
	}
	d := sw*sxx - sx*sx
	if sw == 0 || d == 0 {
		return CountEdge{}, fmt.Errorf("the simulation of %s by count: no spread of counts", p.Name)
	}
	slope := (sw*sxy - sx*sy) / d
	return CountEdge{Intercept: (sy - slope*sx) / sw, Slope: slope}, nil
}

type theoryEntry struct {
	done chan struct{} // closed once t and err are set
	t    *Theory
	err  error
}

// NewTheories returns an empty cache.
func NewTheories() *Theories { return &Theories{m: map[string]*theoryEntry{}} }

// Of returns the theory of a built-in profile with options on top.
func (c *Theories) Of(ctx context.Context, profile string, options map[string]string) (*Theory, error) {
	p, err := sabot.ProfileOf(profile, options)
	if err != nil {
		return nil, err
	}
	key := p.GameHash()
	c.mu.Lock()
	e, ok := c.m[key]
	if !ok {
		e = &theoryEntry{done: make(chan struct{})}
		c.m[key] = e
	}
	c.mu.Unlock()
	if !ok {
		e.t, e.err = compute(context.WithoutCancel(ctx), p)
		close(e.done)
	}
	select {
	case <-e.done:
		return e.t, e.err
	case <-ctx.Done():
		return nil, ctx.Err()
	}
}

// basicOf is the analysis of a rule set and its basic strategy as a
// card that plays (sim.StrategyCard).
func basicOf(ctx context.Context, p *rules.Profile) (*analysis.Result, *sim.StrategyCard, error) {
	a, err := analysis.Analyze(ctx, p, analysis.Options{})
	if err != nil {
		return nil, nil, fmt.Errorf("the analysis of %s: %w", p.Name, err)
	}
	var b bytes.Buffer
	if err := a.Basic.WriteCSV(&b); err != nil {
		return nil, nil, err
	}
	card, err := sim.ParseStrategyCard(&b)
	if err != nil {
		return nil, nil, fmt.Errorf("the basic strategy of %s: %w", p.Name, err)
	}
	return a, card, nil
}

// basicCards keeps each rule set's basic strategy card (by GameHash; a
// server has a handful of rule sets), for valuing a player's decisions
// against basic strategy's.
var basicCards = struct {
	sync.Mutex
	m map[string]*sim.StrategyCard
}{m: map[string]*sim.StrategyCard{}}

// basicCard is the basic strategy card of a rule set, nil if the analysis
// fails.
func basicCard(p *rules.Profile) *sim.StrategyCard {
	key := p.GameHash()
	basicCards.Lock()
	defer basicCards.Unlock()
	if c, ok := basicCards.m[key]; ok {
		return c
	}
	_, c, err := basicOf(context.Background(), p)
	if err != nil {
		c = nil
	}
	basicCards.m[key] = c
	return c
}

func compute(ctx context.Context, p *rules.Profile) (*Theory, error) {
	a, card, err := basicOf(ctx, p)
	if err != nil {
		return nil, err
	}
	res, err := sim.Run(ctx, sim.Config{Profile: p, Strategy: card, Rounds: SDRounds, Seed: SDSeed, Workers: 1, Unit: sim.DefaultUnit(p)})
	if err != nil {
		return nil, fmt.Errorf("the simulation of %s: %w", p.Name, err)
	}
	return &Theory{Profile: p.Name, Rules: p.GameHash(), HouseEdge: a.TD.HouseEdge, SD: res.SD}, nil
}
