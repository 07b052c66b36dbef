package report

import (
	"context"
	"maps"
	"math"
	"slices"
	"time"

	"sabot"
	"sabot/analysis"
	"sabot/card"
	"sabot/engine"
	"sabot/money"
	"sabot/rules"
)

// SessionGap ends a player's session: a round of his dealt more than this
// after his last one closed, or at another table, starts a new session.
const SessionGap = 15 * time.Minute

// PlayerRating is one player's rating over a period (docs/pit.md).
// Amounts are minor units.
type PlayerRating struct {
	Player string  `json:"player"`
	Tables []int64 `json:"tables"`
	// Sessions are his runs of rounds at one table (SessionGap); Seconds
	// the time they lasted, from each one's first deal to its last
	// settlement.
	Sessions int   `json:"sessions"`
	Seconds  int64 `json:"seconds_played"`
	Rounds   int64 `json:"rounds"`
	// Initial is his stakes before the deal (main and back bets); AvgBet
	// Initial per round; Stakes every stake of his.
	Initial money.Amount `json:"initial_stakes"`
	AvgBet  money.Amount `json:"avg_bet"`
	Stakes  money.Amount `json:"stakes"`
	// Theo is his initial stakes × the exact house edge of the rules of
	// each round; Win what the house won from him (minus his net).
	Theo money.Amount `json:"theo_win"`
	Win  money.Amount `json:"win"`
	// The cost of his errors: each decision he made on an unsplit hand
	// (hit, stand, double, split, surrender, even money) valued exactly
	// (analysis.HandValues) for his cards against the up card from the
	// shoe as he saw it (less every card seen in the shoe before it),
	// against the best decision's value, times his stake on the hand; an
	// insurance taken against declining it, times its stake.
	Decisions int64        `json:"decisions"`          // valued
	Errors    int64        `json:"errors"`             // decisions worth less than the best
	ErrorCost money.Amount `json:"error_cost"`         // their cost, summed
	Unvalued  int64        `json:"unvalued_decisions"` // split hands, declarations, the Desafío

	session *span // the session his rounds counted last are in
	theo    float64
	cost    float64
}

type span struct {
	table      int64
	start, end time.Time
}

// Players is the report of the players over a period.
type Players struct {
	From    time.Time       `json:"from"`
	To      time.Time       `json:"to"`
	Players []*PlayerRating `json:"players"`
}

// PlayersOptions tune PlayersReport.
type PlayersOptions struct {
	// Player keeps one player's rating ("": everyone's).
	Player string
	// NoErrors leaves the cost of errors out (it takes a few milliseconds
	// a decision).
	NoErrors bool
}

// PlayersReport reads the players' ratings over a period.
func PlayersReport(ctx context.Context, src Source, th *Theories, p Period, po PlayersOptions) (*Players, error) {
	if err := p.Check(); err != nil {
		return nil, err
	}
	p.From, p.To = p.From.UTC(), p.To.UTC()
	tables, err := src.Tables(ctx)
	if err != nil {
		return nil, err
	}
	byID := map[int64]*sabot.Table{}
	for _, t := range tables {
		byID[t.ID] = t
	}
	out := &Players{From: p.From, To: p.To, Players: []*PlayerRating{}}
	ratings := map[string]*PlayerRating{}
	opts := map[int64]*optionsAt{}
	sh := newShoes(src)
	// rate counts a settled round in its players' ratings, dealt at start.
	// The rounds come in the order of their deals, the newest first: each
	// player's sessions are joined as they come, and each table's shoes
	// are read one after the other.
	rate := func(c *closing, start time.Time) error {
		rec, s := c.rec, &c.s
		t := byID[rec.TableID]
		o := opts[t.ID]
		if o == nil {
			var err error
			if o, err = loadOptions(ctx, src, t); err != nil {
				return err
			}
			opts[t.ID] = o
		}
		theory, err := o.theory(ctx, th, rec.Seq)
		if err != nil {
			return err
		}
		mine := map[string]*PlayerRating{}
		for _, b := range s.Bets {
			if po.Player != "" && b.Player != po.Player {
				continue
			}
			r := ratings[b.Player]
			if r == nil {
				r = &PlayerRating{Player: b.Player, Tables: []int64{}}
				ratings[b.Player] = r
			}
			mine[b.Player] = r
			r.Stakes += b.Stake
			r.Win -= b.Net
			if b.Kind == "main" {
				r.Initial += b.Stake
				r.theo += float64(b.Stake) * theory.HouseEdge
			}
		}
		for _, name := range slices.Sorted(maps.Keys(mine)) {
			r := mine[name]
			r.Rounds++
			r.join(span{rec.TableID, start, rec.Created})
			if !slices.Contains(r.Tables, rec.TableID) {
				r.Tables = append(r.Tables, rec.TableID)
			}
			if po.NoErrors {
				continue
			}
			prof, err := o.rules(rec.Seq)
			if err != nil {
				return err
			}
			var seen []card.Card
			if h, err := sh.of(ctx, rec.TableID, s.Round); err != nil {
				return err
			} else if h != nil {
				seen = h.seen(s.Round)
			}
			v := valueDecisions(prof, s.Record, seen, name)
			r.Decisions += v.decisions
			r.Errors += v.errors
			r.Unvalued += v.unvalued
			r.cost += v.cost
		}
		return nil
	}
	// The settlements of the period, the newest first, each waiting for
	// its deal, which the deals of the period, read beside them, give: a
	// deal newer than the settlement read last has its settlement read
	// (or none: a void, a round still open at the period's end). So the
	// rounds waiting are the rounds in play at one time, a few a table.
	waiting := map[[2]int64]*closing{}
	deals := newPager(src, sabot.LogDeal, p)
	dealsTo := func(after time.Time, all bool) error {
		for {
			d, err := deals.peek(ctx)
			if err != nil || d == nil || (!all && !d.Created.After(after)) {
				return err
			}
			deals.next()
			k := [2]int64{d.TableID, d.RoundNo}
			if c := waiting[k]; c != nil {
				delete(waiting, k)
				if err := rate(c, d.Created); err != nil {
					return err
				}
			}
		}
	}
	settles := newPager(src, sabot.LogSettle, p)
	for {
		rec, err := settles.peek(ctx)
		if err != nil {
			return nil, err
		}
		if rec == nil {
			break
		}
		settles.next()
		c := &closing{rec: rec}
		if err := decodeSettlement(rec, &c.s, !po.NoErrors); err != nil {
			return nil, err
		}
		if byID[rec.TableID] != nil && !c.s.Void {
			waiting[[2]int64{rec.TableID, int64(c.s.Round)}] = c
		}
		if err := dealsTo(rec.Created, false); err != nil {
			return nil, err
		}
	}
	if err := dealsTo(time.Time{}, true); err != nil {
		return nil, err
	}
	// The rounds dealt before the period: their start is taken as their
	// settlement's, the oldest last.
	left := slices.SortedFunc(maps.Values(waiting), func(a, b *closing) int { return b.rec.Created.Compare(a.rec.Created) })
	for _, c := range left {
		if err := rate(c, c.rec.Created); err != nil {
			return nil, err
		}
	}
	for _, name := range slices.Sorted(maps.Keys(ratings)) {
		r := ratings[name]
		r.finish()
		out.Players = append(out.Players, r)
	}
	return out, nil
}

// closing is a settle record read, waiting for its deal.
type closing struct {
	rec *sabot.LogRecord
	s   settlement
}

// join counts a round of his, older than those counted (the rounds come
// newest first): it opens a session when it was at another table than the
// session he is in, or closed more than SessionGap before it started.
func (r *PlayerRating) join(s span) {
	if c := r.session; c != nil && c.table == s.table && c.start.Sub(s.end) <= SessionGap {
		c.start = s.start
		return
	}
	r.closeSession()
	r.Sessions++
	r.session = &s
}

func (r *PlayerRating) closeSession() {
	if c := r.session; c != nil {
		r.Seconds += int64(c.end.Sub(c.start).Seconds())
	}
	r.session = nil
}

func (r *PlayerRating) finish() {
	slices.Sort(r.Tables)
	r.closeSession()
	if r.Rounds > 0 {
		r.AvgBet = money.Amount(math.Round(float64(r.Initial) / float64(r.Rounds)))
	}
	r.Theo = money.Amount(math.Round(r.theo))
	r.ErrorCost = money.Amount(math.Round(r.cost))
}

// decisionValues are what valueDecisions found of one player's decisions
// in one round.
type decisionValues struct {
	decisions, errors, unvalued int64
	cost                        float64 // minor units
}

// played is the value of the decision a kind names, nil if not valued.
func played(v *analysis.Values, k engine.Kind) *float64 {
	switch k {
	case engine.Stand:
		return v.Stand
	case engine.Hit:
		return v.Hit
	case engine.Double:
		return v.Double
	case engine.Split:
		return v.Split
	case engine.Surrender:
		return v.Surrender
	case engine.EvenMoney:
		return v.EvenMoney
	}
	return nil
}

// valueDecisions replays a round's record through the engine and values
// each decision the player made on an unsplit hand of a box he holds (an
// insurance or even money taken included),
// from the shoe less the cards seen before the round and every card face
// up at the decision but his hand and the up card (the other boxes'; not
// the hole card).
func valueDecisions(p *rules.Profile, rec engine.Record, seen []card.Card, player string) decisionValues {
	var out decisionValues
	replayer{}.replay(p, rec, func(r *engine.Round, a engine.Action) {
		if a.Player == player {
			out.value(r, a, seen)
		}
	})
	return out
}

func (out *decisionValues) value(r *engine.Round, a engine.Action, seen []card.Card) {
	switch a.Kind {
	case engine.Hit, engine.Stand, engine.Double, engine.Split, engine.Surrender, engine.EvenMoney, engine.Insure:
	default:
		out.unvalued++
		return
	}
	hands := r.Hands(a.Box)
	dealer := r.Dealer().Cards()
	if r.Holder(a.Box) != a.Player || len(hands) != 1 || a.Hand != 1 || len(dealer) == 0 {
		out.unvalued++
		return
	}
	removed := append([]card.Card(nil), seen...)
	for _, box := range r.Boxes() {
		if box == a.Box {
			continue
		}
		for _, h := range r.Hands(box) {
			removed = append(removed, h.Cards()...)
		}
	}
	v, err := analysis.HandValues(r.Profile(), dealer[0], hands[0].Cards(), analysis.EVOptions{Removed: removed})
	if err != nil {
		out.unvalued++
		return
	}
	if a.Kind == engine.Insure {
		out.insurance(v, a.Stake)
		return
	}
	chosen := played(v, a.Kind)
	if chosen == nil {
		out.unvalued++
		return
	}
	best := *chosen
	for _, x := range []*float64{v.Stand, v.Hit, v.Double, v.Split, v.Surrender, v.EvenMoney} {
		if x != nil && *x > best {
			best = *x
		}
	}
	var stake money.Amount
	for _, b := range r.Bets() {
		if b.Player == a.Player && b.Box == a.Box && b.Kind == engine.MainBet {
			stake += b.Stake
		}
	}
	out.decisions++
	if best-*chosen > 1e-9 {
		out.errors++
		out.cost += (best - *chosen) * float64(stake)
	}
}

// insurance values an insurance taken, a side bet beside the hand's play:
// stake at 2:1 on a dealer blackjack, worth stake × (3·P(blackjack) − 1)
// against nothing declined (analysis.Values.Insurance is that per initial
// unit, on half a unit). Taken at a loss, it is an error of that cost.
func (out *decisionValues) insurance(v *analysis.Values, stake money.Amount) {
	if v.Insurance == nil {
		out.unvalued++
		return
	}
	out.decisions++
	if ev := 2 * *v.Insurance; ev < -1e-9 {
		out.errors++
		out.cost += -ev * float64(stake)
	}
}
