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
	"sabot/internal/tablelog"
	"sabot/money"
	"sabot/rules"
	"sabot/sim"
)

// SessionGap ends a player's session at a table: a round of his there
// dealt more than this after his last one there closed starts a new one.
const SessionGap = 15 * time.Minute

// PlayerRating is one player's rating over a period (docs/pit.md).
// Amounts are minor units.
type PlayerRating struct {
	Player string  `json:"player"`
	Tables []int64 `json:"tables"`
	// Sessions are his runs of rounds at each table (SessionGap), counted
	// table by table, as a rating system rates a table's session; Seconds
	// the time they lasted, from each one's first deal to its last
	// settlement, truncated to the second.
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
	// insurance taken against declining it, times its stake. Each
	// decision's cost is summed in millionths of a minor unit.
	Decisions int64        `json:"decisions"`          // valued
	Errors    int64        `json:"errors"`             // decisions worth less than the best
	ErrorCost money.Amount `json:"error_cost"`         // their cost, summed
	Unvalued  int64        `json:"unvalued_decisions"` // split hands, declarations, the Desafío
	// CostVsBasic is what his play cost against basic strategy's over
	// the decisions valued: basic strategy's decision's value less his,
	// times his stake (negative where his departures from it paid: a
	// counter's index plays). BetsVsCount is what his bets against the
	// Hi-Lo true count at the deal are worth to the house (betsVsCount): 0
	// for a flat bettor, negative for a counter's spread. SkillTheo is the
	// house's theo with his own skill: Theo + CostVsBasic + BetsVsCount.
	// Without the decisions valued (PlayersOptions.NoErrors) they are left
	// out: 0, 0, and Theo.
	CostVsBasic money.Amount `json:"cost_vs_basic"`
	BetsVsCount money.Amount `json:"bets_vs_count"`
	SkillTheo   money.Amount `json:"skill_theo"`

	theo    float64
	cost    int64 // micro-units
	vsBasic int64 // micro-units
	byCount []countAt
}

// countAt are a player's rounds and stakes by the count under one rule
// set, with its edge by the count.
type countAt struct {
	c    *countSums
	edge CountEdge
}

// betsVsCount is what his bets against the count are worth to the house:
// Σ_k (B_k − n_k·s̄)·e(k) over each rule set's counts k, B_k his initial
// stakes at k, n_k his rounds there, s̄ his mean initial stake over all of
// them, e(k) the rule set's house edge at k (CountEdge). A flat bettor's
// is exactly 0; a counter who bets up at the counts that favour him has
// it negative.
func betsVsCount(cs []countAt) float64 {
	var n, b int64
	for _, x := range cs {
		for k := range x.c.Rounds {
			n += x.c.Rounds[k]
			b += x.c.Stakes[k]
		}
	}
	if n == 0 {
		return 0
	}
	mean := float64(b) / float64(n)
	var out float64
	for _, x := range cs {
		for k := range x.c.Rounds {
			out += (float64(x.c.Stakes[k]) - float64(x.c.Rounds[k])*mean) * x.edge.At(k)
		}
	}
	return out
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
	// a decision, where it is not rolled up).
	NoErrors bool
	// Progress, if set, is told the rounds read from the log so far,
	// every ProgressRounds rounds and once when they are all read: a
	// long report says how far it is.
	Progress func(rounds int64)
}

// ProgressRounds is how many rounds a report reads between two calls of
// its Progress.
const ProgressRounds = 1000

// PlayersReport reads the players' ratings over a period. Where src keeps
// the players' rollups (RollupPlayers, and RollupErrors for the cost of
// errors) and the period holds whole hours, it reads those hours' rows,
// and the log only for the rest, as TablesReport does; the answer is the
// same either way.
func PlayersReport(ctx context.Context, src Source, th *Theories, p Period, po PlayersOptions) (*Players, error) {
	if err := p.Check(); err != nil {
		return nil, err
	}
	p.From, p.To = p.From.UTC(), p.To.UTC()
	tables, err := src.Tables(ctx)
	if err != nil {
		return nil, err
	}
	a := &playersAcc{src: src, po: po, byID: map[int64]*sabot.Table{}, players: map[int64]*playersRow{}, errs: map[int64]*errorsRow{},
		opts: map[int64]*optionsAt{}, shoes: newShoes(src)}
	for _, t := range tables {
		a.byID[t.ID] = t
	}
	plans := map[*rollKind]*rollupPlan{}
	kinds := []*rollKind{playersKind}
	if !po.NoErrors {
		kinds = append(kinds, errorsKind)
	}
	var logged []*rollKind // the kinds read from the log alone
	var plan *rollupPlan   // any plan: they cut the period alike
	for _, k := range kinds {
		pl, err := planRollups(ctx, src, k, p)
		if err != nil {
			return nil, err
		}
		if pl == nil {
			logged = append(logged, k)
		} else {
			plans[k], plan = pl, pl
		}
	}
	if len(logged) > 0 {
		if err := a.readPeriod(ctx, p, logged, a.players, a.errs); err != nil {
			return nil, err
		}
	}
	if plan != nil {
		rolled := slices.Collect(maps.Keys(plans))
		before, after := &playersAcc{}, &playersAcc{}
		for _, x := range []struct {
			p   *Period
			acc *playersAcc
		}{{plan.before, before}, {plan.after, after}} {
			x.acc.players, x.acc.errs = map[int64]*playersRow{}, map[int64]*errorsRow{}
			if x.p != nil {
				if err := a.readPeriod(ctx, *x.p, rolled, x.acc.players, x.acc.errs); err != nil {
					return nil, err
				}
			}
		}
		for _, id := range slices.Sorted(maps.Keys(a.byID)) {
			for _, k := range kinds {
				pl := plans[k]
				if pl == nil {
					continue
				}
				sum := a.sums(k, id)
				sum.then(before.sumsIf(k, id))
				if err := pl.read(ctx, src, a.byID[id], sum.then); err != nil {
					return nil, err
				}
				sum.then(after.sumsIf(k, id))
			}
		}
	}
	if a.po.Progress != nil {
		a.po.Progress(a.rated)
	}
	return a.results(ctx, th, p)
}

// playersAcc sums the players' rounds of a period, table by table.
type playersAcc struct {
	rated   int64 // rounds read from the log, for Progress
	src     Source
	po      PlayersOptions
	byID    map[int64]*sabot.Table
	players map[int64]*playersRow
	errs    map[int64]*errorsRow
	opts    map[int64]*optionsAt
	shoes   *shoes
}

// sums are a table's sums of kind k.
func (a *playersAcc) sums(k *rollKind, id int64) rollSums {
	if k == errorsKind {
		r := a.errs[id]
		if r == nil {
			r = &errorsRow{}
			a.errs[id] = r
		}
		return r
	}
	r := a.players[id]
	if r == nil {
		r = &playersRow{}
		a.players[id] = r
	}
	return r
}

// sumsIf are a table's sums of kind k, empty ones if none.
func (a *playersAcc) sumsIf(k *rollKind, id int64) rollSums {
	if k == errorsKind && a.errs[id] == nil || k == playersKind && a.players[id] == nil {
		return k.fresh()
	}
	return a.sums(k, id)
}

func (a *playersAcc) options(ctx context.Context, id int64) (*optionsAt, error) {
	o := a.opts[id]
	if o == nil {
		var err error
		if o, err = loadOptions(ctx, a.src, a.byID[id]); err != nil {
			return nil, err
		}
		a.opts[id] = o
	}
	return o, nil
}

// readPeriod sums the period's rounds from the log into the rows of the
// kinds asked, by table: each round closed in it (a settlement) from its
// deal to its settlement.
func (a *playersAcc) readPeriod(ctx context.Context, p Period, kinds []*rollKind, players map[int64]*playersRow, errs map[int64]*errorsRow) error {
	ratePlayers, rateErrors := slices.Contains(kinds, playersKind), slices.Contains(kinds, errorsKind)
	// rate counts a settled round in its players' sums, dealt at start.
	// The rounds come in the order of their deals, the newest first: each
	// table's rows are made from the newest round back, and its shoes
	// read one after the other.
	rate := func(c *closing, start time.Time) error {
		rec := c.rec
		if a.po.Progress != nil {
			if a.rated++; a.rated%ProgressRounds == 0 {
				a.po.Progress(a.rated)
			}
		}
		o, err := a.options(ctx, rec.TableID)
		if err != nil {
			return err
		}
		if ratePlayers {
			h, err := o.hash(rec.Seq)
			if err != nil {
				return err
			}
			one := &playersRow{}
			one.round(&c.s, start, rec.Created, h, o.opts[o.index(rec.Seq)], a.po.Player)
			if row := players[rec.TableID]; row != nil {
				row.after(one)
			} else {
				players[rec.TableID] = one
			}
		}
		if rateErrors {
			one, err := valueRound(ctx, rec, o, a.shoes, a.po.Player)
			if err != nil {
				return err
			}
			if row := errs[rec.TableID]; row != nil {
				row.then(one)
			} else {
				errs[rec.TableID] = one
			}
		}
		return nil
	}
	// The settlements of the period, the newest first, each waiting for
	// its deal, which the deals of the period, read beside them, give: a
	// deal newer than the settlement read last has its settlement read
	// (or none: a void, a round still open at the period's end). So the
	// rounds waiting are the rounds in play at one time, a few a table.
	waiting := map[[2]int64]*closing{}
	deals := newPager(a.src, sabot.LogDeal, p)
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
	settles := newPager(a.src, sabot.LogSettle, p)
	for {
		rec, err := settles.peek(ctx)
		if err != nil {
			return err
		}
		if rec == nil {
			break
		}
		settles.next()
		c := &closing{rec: rec}
		if err := tablelog.DecodeSettleRead(rec, &c.s, false); err != nil {
			return err
		}
		if a.byID[rec.TableID] != nil && !c.s.Void {
			waiting[[2]int64{rec.TableID, int64(c.s.Round)}] = c
		}
		if err := dealsTo(rec.Created, false); err != nil {
			return err
		}
	}
	if err := dealsTo(time.Time{}, true); err != nil {
		return err
	}
	// The rounds dealt before the period (a table's oldest), their deals
	// found by round.
	left := slices.SortedFunc(maps.Values(waiting), func(a, b *closing) int { return b.rec.Created.Compare(a.rec.Created) })
	for _, c := range left {
		start, err := dealtAt(ctx, a.src, c.rec)
		if err != nil {
			return err
		}
		if err := rate(c, start); err != nil {
			return err
		}
	}
	return nil
}

// after puts the sums of one round before those of the rounds after it:
// the rows of the log are made from the newest round back.
func (r *playersRow) after(u *playersRow) {
	for h, o := range u.Rules {
		r.Rules[h] = o
	}
	if r.Players == nil {
		r.Players = map[string]*playerSums{}
	}
	for name, p := range u.Players {
		if q := r.Players[name]; q != nil {
			p.then(q)
		}
		r.Players[name] = p
	}
}

// results make the ratings of the sums, table by table.
func (a *playersAcc) results(ctx context.Context, th *Theories, p Period) (*Players, error) {
	ratings := map[string]*PlayerRating{}
	rating := func(name string) *PlayerRating {
		r := ratings[name]
		if r == nil {
			r = &PlayerRating{Player: name, Tables: []int64{}}
			ratings[name] = r
		}
		return r
	}
	keep := func(name string) bool { return a.po.Player == "" || name == a.po.Player }
	for _, id := range slices.Sorted(maps.Keys(a.players)) {
		row, t := a.players[id], a.byID[id]
		theories := map[string]*Theory{}
		for h, o := range row.Rules {
			theory, err := th.Of(ctx, t.Profile, o)
			if err != nil {
				return nil, err
			}
			theories[h] = theory
		}
		for _, name := range slices.Sorted(maps.Keys(row.Players)) {
			ps := row.Players[name]
			if !keep(name) || ps.Rounds == 0 {
				continue
			}
			r := rating(name)
			r.Tables = append(r.Tables, id)
			r.Rounds += ps.Rounds
			r.Stakes += ps.Stakes
			r.Win += ps.Win
			for _, h := range slices.Sorted(maps.Keys(ps.Initial)) {
				r.Initial += ps.Initial[h]
				if theories[h] == nil {
					return nil, sabot.Errorf(sabot.EINTERNAL, "table %d's rounds of %s: rule set %s without its options", id, name, h)
				}
				r.theo += float64(ps.Initial[h]) * theories[h].HouseEdge
			}
			r.Sessions += int(ps.Sessions.N)
			r.Seconds += ps.Sessions.Seconds()
		}
	}
	for _, id := range slices.Sorted(maps.Keys(a.errs)) {
		for name, e := range a.errs[id].Players {
			if !keep(name) {
				continue
			}
			r := rating(name)
			r.Decisions += e.Decisions
			r.Errors += e.Errors
			r.Unvalued += e.Unvalued
			r.cost += e.Cost
			r.vsBasic += e.VsBasic
			for _, h := range slices.Sorted(maps.Keys(e.ByCount)) {
				c := e.ByCount[h]
				var o map[string]string
				ok := false
				if row := a.players[id]; row != nil {
					o, ok = row.Rules[h]
				}
				if !ok {
					return nil, sabot.Errorf(sabot.EINTERNAL, "table %d's rounds of %s: rule set %s without its options", id, name, h)
				}
				edge, err := th.CountEdgeOf(ctx, a.byID[id].Profile, o)
				if err != nil {
					return nil, err
				}
				r.byCount = append(r.byCount, countAt{c, edge})
			}
		}
	}
	out := &Players{From: p.From, To: p.To, Players: []*PlayerRating{}}
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
	s   tablelog.SettleRead
}

func (r *PlayerRating) finish() {
	if r.Rounds > 0 {
		r.AvgBet = money.Amount(math.Round(float64(r.Initial) / float64(r.Rounds)))
	}
	r.Theo = money.Amount(math.Round(r.theo))
	r.ErrorCost = money.Amount(math.Round(float64(r.cost) / 1e6))
	r.CostVsBasic = money.Amount(math.Round(float64(r.vsBasic) / 1e6))
	bets := betsVsCount(r.byCount)
	r.BetsVsCount = money.Amount(math.Round(bets))
	r.SkillTheo = money.Amount(math.Round(r.theo + float64(r.vsBasic)/1e6 + bets))
}

// decisionValues are what valueDecisions found of one player's decisions
// in one round.
type decisionValues struct {
	decisions, errors, unvalued int64
	cost                        float64 // minor units
	micro                       int64   // the same, each decision's rounded to a millionth
	// vsBasic is, over the decisions valued, basic strategy's value less
	// his, times the stake, in millionths of a minor unit (each decision's
	// rounded): what his play cost him against basic strategy, negative
	// where his departures from it paid (an index play).
	vsBasic int64
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
	var offered []int // his boxes that could insure or take even money before the action
	replayer{}.replayThen(p, rec, func(r *engine.Round, a engine.Action) {
		if a.Player == player {
			out.value(r, a, seen)
		}
	}, func(r *engine.Round, a *engine.Action) {
		if a != nil && len(offered) > 0 && r.Phase() != engine.InsuranceWindow && p.InsuranceCloses != rules.ClosesThirdCard {
			for _, box := range offered {
				if a.Player != player || a.Box != box || (a.Kind != engine.Insure && a.Kind != engine.EvenMoney) {
					out.declined(r, player, box, seen)
				}
			}
		}
		offered = offered[:0]
		if r.Phase() == engine.InsuranceWindow {
			offered = offers(r, player, offered)
		}
	})
	return out
}

// offers appends the boxes player holds that could insure or take even
// money now.
func offers(r *engine.Round, player string, dst []int) []int {
	for _, box := range r.Boxes() {
		if r.Holder(box) != player {
			continue
		}
		ins := engine.Action{Kind: engine.Insure, Player: player, Box: box, Hand: 1, Stake: 1}
		em := engine.Action{Kind: engine.EvenMoney, Player: player, Box: box, Hand: 1}
		if r.Legal(ins) || r.Legal(em) {
			dst = append(dst, box)
		}
	}
	return dst
}

// declined values an insurance or even money declined on box as the
// insurance window closed (a decline is no action of the record: the
// window closes on the dealer's Close or the last answer). Nothing the
// window allows changes the hands or the up card, so the round as it
// stands after the closing action values it. Declining is basic
// strategy's play unless its card takes it: against the exact play, a
// declined insurance worth ev > 0 costs ev × its stake (half the bet), a
// declined even money its value over standing on the blackjack.
//
// Where insurance stays open while the boxes play (ES-11, closed at the
// first third card), only an insurance or even money declined at the
// window's close and never taken is seen: the later close is not.
func (out *decisionValues) declined(r *engine.Round, player string, box int, seen []card.Card) {
	a := engine.Action{Kind: engine.Insure, Player: player, Box: box, Hand: 1}
	v, ok := out.values(r, a, seen)
	if !ok {
		return
	}
	basic := basicCard(r.Profile())
	up := r.Dealer().Cards()[0].Value()
	stake := mainStake(r, a)
	out.decisions++
	if v.EvenMoney != nil { // a blackjack: even money declined, it stands
		if v.Stand == nil {
			out.unvalued++
			out.decisions--
			return
		}
		if gain := *v.EvenMoney - *v.Stand; gain > 1e-9 {
			out.errors++
			out.costs(gain * float64(stake))
		}
		if basic != nil && basic.EvenMoney(up, 0) {
			out.vsBasic += int64(math.Round((*v.EvenMoney - *v.Stand) * float64(stake) * 1e6))
		}
		return
	}
	if v.Insurance == nil {
		out.unvalued++
		out.decisions--
		return
	}
	ev := 2 * *v.Insurance // per unit of the insurance's stake
	ins := float64(stake / 2)
	if ev > 1e-9 {
		out.errors++
		out.costs(ev * ins)
	}
	if basic != nil && basic.Insure(up, false, 0) {
		out.vsBasic += int64(math.Round(ev * ins * 1e6))
	}
}

func (out *decisionValues) value(r *engine.Round, a engine.Action, seen []card.Card) {
	switch a.Kind {
	case engine.Hit, engine.Stand, engine.Double, engine.Split, engine.Surrender, engine.EvenMoney, engine.Insure:
	default:
		out.unvalued++
		return
	}
	v, ok := out.values(r, a, seen)
	if !ok {
		return
	}
	hands := r.Hands(a.Box)
	dealer := r.Dealer().Cards()
	basic := basicCard(r.Profile())
	up := dealer[0].Value()
	if a.Kind == engine.Insure {
		out.insurance(v, a.Stake, basic, up)
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
	stake := mainStake(r, a)
	out.decisions++
	if best-*chosen > 1e-9 {
		out.errors++
		out.costs((best - *chosen) * float64(stake))
	}
	if b := basicValue(basic, v, a.Kind, &hands[a.Hand-1], len(hands), up); b != nil {
		out.vsBasic += int64(math.Round((*b - *chosen) * float64(stake) * 1e6))
	}
}

// values is the analysis of the hand a decides on, from the shoe less
// seen and the other boxes' cards; false (counted unvalued) where it is
// not valued: a box he does not hold, a split hand, no up card.
func (out *decisionValues) values(r *engine.Round, a engine.Action, seen []card.Card) (*analysis.Values, bool) {
	hands := r.Hands(a.Box)
	dealer := r.Dealer().Cards()
	split := len(hands) == 2 && a.Hand >= 1 && a.Hand <= 2
	if r.Holder(a.Box) != a.Player || len(dealer) == 0 || !(len(hands) == 1 && a.Hand == 1 || split && splitValued(r, a, &hands[a.Hand-1], dealer[0])) {
		out.unvalued++
		return nil, false
	}
	removed := append([]card.Card(nil), seen...)
	for _, box := range r.Boxes() {
		for i, h := range r.Hands(box) {
			if box != a.Box || i != a.Hand-1 {
				removed = append(removed, h.Cards()...)
			}
		}
	}
	v, err := analysis.HandValues(r.Profile(), dealer[0], hands[a.Hand-1].Cards(), analysis.EVOptions{Removed: removed})
	if err != nil {
		out.unvalued++
		return nil, false
	}
	if split {
		// The split hand's options: hit, stand, and a double where the
		// engine allows it (DAS); no surrender, no resplit valued.
		w := analysis.Values{Stand: v.Stand, Hit: v.Hit}
		if a.Kind == engine.Double || r.Legal(engine.Action{Kind: engine.Double, Player: a.Player, Box: a.Box, Hand: a.Hand}) {
			w.Double = v.Double
		}
		v = &w
	}
	return v, true
}

// splitValued reports whether a decision on a hand of a box split once
// is valued: a hit, stand or double, on a hand that is no two-card 21 (a
// split hand's is not a blackjack, which the calculator would pay), with
// no dealer blackjack still to come (a peek has checked it, or the up
// card cannot make one). There the split hand's stand, hit and double
// are worth what the calculator gives the same cards unsplit from the
// shoe less the other hand's cards: the dealer's outcomes and the draws
// are the same, and play after the hit is the hand's own. Where the
// dealer's blackjack is still to come, what it takes of a split's stakes
// (dealer_blackjack_takes) differs from the unsplit hand's, and a
// resplit's hands, not valued.
func splitValued(r *engine.Round, a engine.Action, h *engine.Hand, up card.Card) bool {
	switch a.Kind {
	case engine.Hit, engine.Stand, engine.Double:
	default:
		return false
	}
	if h.Count.TwoCard21() {
		return false
	}
	return r.Profile().HoleCard == rules.Peek || !up.IsAce() && !up.IsTen()
}

// mainStake is his main bet on a's box.
func mainStake(r *engine.Round, a engine.Action) money.Amount {
	var stake money.Amount
	for _, b := range r.Bets() {
		if b.Player == a.Player && b.Box == a.Box && b.Hand == a.Hand && b.Kind == engine.MainBet {
			stake += b.Stake
		}
	}
	return stake
}

// basicValue is the value of basic strategy's decision (card's, with no
// count) where he made one of kind on hand against the up card: nil when
// there is no card or it takes none of the decisions valued.
func basicValue(card *sim.StrategyCard, v *analysis.Values, kind engine.Kind, h *engine.Hand, hands, up int) *float64 {
	if card == nil {
		return nil
	}
	if kind == engine.EvenMoney {
		if card.EvenMoney(up, 0) {
			return v.EvenMoney
		}
		return v.Stand // declined, the blackjack stands
	}
	var legal sim.Legal
	for _, x := range basicMoves {
		if played(v, x.kind) != nil {
			legal = legal.With(x.move)
		}
	}
	cs := h.Cards()
	hand := sim.Hand{Count: h.Count, Hands: hands, Split: hands > 1}
	if len(cs) == 2 && cs[0].Value() == cs[1].Value() {
		hand.Pair = cs[0].Value()
	}
	move := card.Play(&hand, up, legal, 0)
	for _, x := range basicMoves {
		if x.move == move {
			return played(v, x.kind)
		}
	}
	return nil
}

// basicMoves pairs the strategy card's moves with the engine's decisions
// they are valued as (played).
var basicMoves = [...]struct {
	move sim.Move
	kind engine.Kind
}{{sim.Hit, engine.Hit}, {sim.Stand, engine.Stand}, {sim.Double, engine.Double}, {sim.Split, engine.Split}, {sim.Surrender, engine.Surrender}}

// insurance values an insurance taken, a side bet beside the hand's play:
// stake at 2:1 on a dealer blackjack, worth stake × (3·P(blackjack) − 1)
// against nothing declined (analysis.Values.Insurance is that per initial
// unit, on half a unit). Taken at a loss, it is an error of that cost.
// Against basic strategy (its card; nil: not valued against it), which
// declines it where it does not take it too, declining is worth nothing.
func (out *decisionValues) insurance(v *analysis.Values, stake money.Amount, basic *sim.StrategyCard, up int) {
	if v.Insurance == nil {
		out.unvalued++
		return
	}
	out.decisions++
	ev := 2 * *v.Insurance
	if ev < -1e-9 {
		out.errors++
		out.costs(-ev * float64(stake))
	}
	if basic != nil && !basic.Insure(up, false, 0) {
		out.vsBasic += int64(math.Round(-ev * float64(stake) * 1e6))
	}
}

// costs adds an error's cost, in minor units.
func (out *decisionValues) costs(x float64) {
	out.cost += x
	out.micro += int64(math.Round(x * 1e6))
}
