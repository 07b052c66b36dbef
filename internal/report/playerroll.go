package report

import (
	"context"
	"maps"
	"math"
	"slices"
	"time"

	"sabot"
	"sabot/card"
	"sabot/internal/tablelog"
	"sabot/money"
)

// The players' rollups (docs/pit.md, "Rollups"): a row holds, for one
// table's hour or day, each player's sums there (playersRow), and a row
// of the other kind the cost of his errors there (errorsRow), valued once,
// when rolled up. They add up across hours because a player's sessions are
// counted table by table, and the sessions of a run of hours are those of
// its hours joined where one ends less than SessionGap before the next
// begins: a row keeps its first and last session whole, which the rows
// before and after may join, and counts the sessions between.

// The kinds of the players' rollups (RollupTables's kin): players/2 is
// players/1 in the rows' binary codec (rowcodec.go); errors/2 added the
// cost against basic strategy (errorSums.VsBasic) and errors/3 is errors/2
// in the binary codec. The rows of a version before are left alone, and
// rolled up anew.
const (
	RollupPlayers = "players/2"
	RollupErrors  = "errors/3"
)

// tableSessions are a player's sessions at one table over a run of his rounds
// there: how many, the first's and the last's start and end (Unix
// nanoseconds; the same session when there is one), and the seconds of
// those between, each truncated to the second. Joined in order (then),
// they are the sessions of the rounds of both runs.
type tableSessions struct {
	N       int64    `json:"n"`
	First   [2]int64 `json:"first"`
	Last    [2]int64 `json:"last"`
	Between int64    `json:"between_seconds,omitempty"`
}

// oneRound is the session of one round, dealt at start and closed at end.
func oneRound(start, end time.Time) tableSessions {
	s := [2]int64{start.UnixNano(), end.UnixNano()}
	return tableSessions{N: 1, First: s, Last: s}
}

func seconds(s [2]int64) int64 { return (s[1] - s[0]) / int64(time.Second) }

// then joins b, the sessions of later rounds at the table, to a's: a's
// last session and b's first are one when b's begins SessionGap or less
// after a's ends.
func (a tableSessions) then(b tableSessions) tableSessions {
	switch {
	case a.N == 0:
		return b
	case b.N == 0:
		return a
	}
	out := tableSessions{First: a.First, Last: b.Last, Between: a.Between + b.Between}
	if b.First[0]-a.Last[1] <= int64(SessionGap) {
		joined := [2]int64{a.Last[0], b.First[1]}
		out.N = a.N + b.N - 1
		if a.N == 1 {
			out.First = joined
		}
		if b.N == 1 {
			out.Last = joined
		}
		if a.N > 1 && b.N > 1 {
			out.Between += seconds(joined)
		}
		return out
	}
	out.N = a.N + b.N
	if a.N > 1 {
		out.Between += seconds(a.Last)
	}
	if b.N > 1 {
		out.Between += seconds(b.First)
	}
	return out
}

// Seconds is the time the sessions lasted, each truncated to the second.
func (a tableSessions) Seconds() int64 {
	switch a.N {
	case 0:
		return 0
	case 1:
		return seconds(a.First)
	}
	return seconds(a.First) + a.Between + seconds(a.Last)
}

// playerSums are a player's sums at one table over a run of rounds.
type playerSums struct {
	Rounds int64        `json:"rounds"`
	Stakes money.Amount `json:"stakes"`
	Win    money.Amount `json:"win"`
	// Initial are his main bets by the rules of the rounds (GameHash).
	Initial  map[string]money.Amount `json:"initial,omitempty"`
	Sessions tableSessions           `json:"sessions"`
}

// then adds u, his sums over later rounds at the table.
func (p *playerSums) then(u *playerSums) {
	p.Rounds += u.Rounds
	p.Stakes += u.Stakes
	p.Win += u.Win
	for h, a := range u.Initial {
		if p.Initial == nil {
			p.Initial = map[string]money.Amount{}
		}
		p.Initial[h] += a
	}
	p.Sessions = p.Sessions.then(u.Sessions)
}

// playersRow are the players' sums at one table over a run of rounds.
type playersRow struct {
	// Rules are the options of the rule sets the rounds were dealt
	// under, by GameHash (the table's profile with them is a Theory).
	Rules   map[string]map[string]string `json:"rules,omitempty"`
	Players map[string]*playerSums       `json:"players"`
}

func (r *playersRow) player(name string) *playerSums {
	if r.Players == nil {
		r.Players = map[string]*playerSums{}
	}
	p := r.Players[name]
	if p == nil {
		p = &playerSums{}
		r.Players[name] = p
	}
	return p
}

func (r *playersRow) then(u rollSums) {
	x := u.(*playersRow)
	for h, o := range x.Rules {
		if r.Rules == nil {
			r.Rules = map[string]map[string]string{}
		}
		r.Rules[h] = o
	}
	for name, p := range x.Players {
		r.player(name).then(p)
	}
}

// round counts a settled round of the table in the players' sums, dealt
// at start and settled at end (or left earlier, s.Left) under the rules
// of hash (with options), each player's last:
// the rounds are counted in order, the oldest first.
func (r *playersRow) round(s *tablelog.SettleRead, start, end time.Time, hash string, options map[string]string, only string) {
	if r.Rules == nil {
		r.Rules = map[string]map[string]string{}
	}
	r.Rules[hash] = options
	var mine []string
	for _, b := range s.Bets {
		if only != "" && b.Player != only {
			continue
		}
		p := r.player(b.Player)
		if !slices.Contains(mine, b.Player) {
			mine = append(mine, b.Player)
		}
		p.Stakes += b.Stake
		p.Win -= b.Net
		if b.Kind == "main" {
			if p.Initial == nil {
				p.Initial = map[string]money.Amount{}
			}
			p.Initial[hash] += b.Stake
		}
	}
	for _, name := range mine {
		p := r.Players[name]
		p.Rounds++
		// A player who stood up while the round was in play ends his
		// session when he left, not when the table's defaults played his
		// hands to the settle.
		out := end
		if at, ok := s.Left[name]; ok && at.Before(out) && !at.Before(start) {
			out = at
		}
		p.Sessions = p.Sessions.then(oneRound(start, out))
	}
}

// errorSums are the value of a player's decisions at one table over a run
// of rounds (valueDecisions): Cost in millionths of a minor unit, summed
// exactly.
type errorSums struct {
	Decisions int64 `json:"decisions"`
	Errors    int64 `json:"errors,omitempty"`
	Unvalued  int64 `json:"unvalued,omitempty"`
	Cost      int64 `json:"cost_micro,omitempty"`
	// VsBasic is basic strategy's value less his over the decisions
	// valued, times the stakes, in millionths (decisionValues.vsBasic).
	VsBasic int64 `json:"vs_basic_micro,omitempty"`
	// ByCount are his rounds and initial stakes by the Hi-Lo true count
	// at their deal, by the rounds' rule set (GameHash): what his bets
	// against the count are valued from (PlayerRating.SkillTheo).
	ByCount map[string]*countSums `json:"by_count,omitempty"`
}

// CountBuckets: a round's Hi-Lo true count at the deal is kept floored
// and clamped to ±CountBuckets.
const CountBuckets = 6

// countSums are a player's rounds and initial stakes (minor units) at
// each true count −CountBuckets … +CountBuckets.
type countSums struct {
	Rounds [2*CountBuckets + 1]int64 `json:"rounds"`
	Stakes [2*CountBuckets + 1]int64 `json:"stakes"`
}

// countBucket is the bucket of a true count.
func countBucket(tc float64) int {
	return int(min(max(math.Floor(tc), -CountBuckets), CountBuckets)) + CountBuckets
}

func (e *errorSums) count(hash string, c *countSums) {
	if e.ByCount == nil {
		e.ByCount = map[string]*countSums{}
	}
	x := e.ByCount[hash]
	if x == nil {
		x = &countSums{}
		e.ByCount[hash] = x
	}
	for i := range c.Rounds {
		x.Rounds[i] += c.Rounds[i]
		x.Stakes[i] += c.Stakes[i]
	}
}

// errorsRow are the players' errorSums at one table.
type errorsRow struct {
	Players map[string]*errorSums `json:"players"`
}

func (r *errorsRow) sums(name string) *errorSums {
	if r.Players == nil {
		r.Players = map[string]*errorSums{}
	}
	e := r.Players[name]
	if e == nil {
		e = &errorSums{}
		r.Players[name] = e
	}
	return e
}

func (r *errorsRow) add(name string, v decisionValues) {
	e := r.sums(name)
	e.Decisions += v.decisions
	e.Errors += v.errors
	e.Unvalued += v.unvalued
	e.Cost += v.micro
	e.VsBasic += v.vsBasic
}

func (r *errorsRow) then(u rollSums) {
	for name, e := range u.(*errorsRow).Players {
		r.add(name, decisionValues{decisions: e.Decisions, errors: e.Errors, unvalued: e.Unvalued, micro: e.Cost, vsBasic: e.VsBasic})
		for h, c := range e.ByCount {
			r.sums(name).count(h, c)
		}
	}
}

var (
	playersKind = register(&rollKind{
		name:  RollupPlayers,
		tag:   tagPlayers,
		kinds: []string{sabot.LogDeal, sabot.LogSettle},
		fresh: func() rollSums { return &playersRow{} },
		run:   func(src Source, _ sabot.Rollups) roller { return &playersRoller{src: src} },
	})
	errorsKind = register(&rollKind{
		name:   RollupErrors,
		tag:    tagErrors,
		kinds:  []string{sabot.LogSettle},
		costly: true,
		fresh:  func() rollSums { return &errorsRow{} },
		run:    func(src Source, _ sabot.Rollups) roller { return &errorsRoller{src: src, shoes: newShoes(src)} },
	})
)

// playersRoller sums a table's settlements in the players' rows, each
// round from its deal to its settlement.
type playersRoller struct{ src Source }

func (r *playersRoller) page(ctx context.Context, t *sabot.Table, _ int64, recs []*sabot.LogRecord, add func(time.Time, rollSums)) error {
	o, err := loadOptions(ctx, r.src, t)
	if err != nil {
		return err
	}
	dealt := map[int64]time.Time{}
	for _, rec := range recs {
		if rec.Kind == sabot.LogDeal {
			dealt[rec.RoundNo] = rec.Created
			continue
		}
		var s tablelog.SettleRead
		if err := tablelog.DecodeSettleRead(rec, &s, false); err != nil {
			return err
		}
		if s.Void {
			continue
		}
		start, ok := dealt[int64(s.Round)]
		if !ok {
			if start, err = dealtAt(ctx, r.src, rec); err != nil {
				return err
			}
		}
		h, err := o.hash(rec.Seq)
		if err != nil {
			return err
		}
		row := &playersRow{}
		row.round(&s, start, rec.Created, h, o.opts[o.index(rec.Seq)], "")
		add(rec.Created, row)
	}
	return nil
}

// dealtAt is when the round a settlement closes was dealt: its deal
// record's time (the settlement's, if the log has none).
func dealtAt(ctx context.Context, src Source, settle *sabot.LogRecord) (time.Time, error) {
	var s struct {
		Round int64 `json:"round"`
	}
	if err := tablelog.Decode(settle, &s); err != nil {
		return time.Time{}, err
	}
	d, err := src.Find(ctx, sabot.LogQuery{Kinds: []string{sabot.LogDeal}, TableID: settle.TableID, FromRound: s.Round, ToRound: s.Round, Newest: true, Limit: 1})
	if err != nil || len(d) == 0 || s.Round == 0 {
		return settle.Created, err
	}
	return d[0].Created, nil
}

// errorsRoller values the decisions of a table's settled rounds.
type errorsRoller struct {
	src   Source
	shoes *shoes
}

func (r *errorsRoller) page(ctx context.Context, t *sabot.Table, _ int64, recs []*sabot.LogRecord, add func(time.Time, rollSums)) error {
	o, err := loadOptions(ctx, r.src, t)
	if err != nil {
		return err
	}
	for _, rec := range recs {
		row, err := valueRound(ctx, rec, o, r.shoes, "")
		if err != nil {
			return err
		}
		if row != nil {
			add(rec.Created, row)
		}
	}
	return nil
}

// valueRound values the decisions of the players (or of one) in a settled
// round: nil for a void.
func valueRound(ctx context.Context, rec *sabot.LogRecord, o *optionsAt, sh *shoes, only string) (*errorsRow, error) {
	var s tablelog.SettleRead
	if err := tablelog.DecodeSettleRead(rec, &s, true); err != nil {
		return nil, err
	}
	if s.Void {
		return nil, nil
	}
	prof, err := o.rules(rec.Seq)
	if err != nil {
		return nil, err
	}
	names := map[string]bool{}
	for _, b := range s.Bets {
		if only == "" || b.Player == only {
			names[b.Player] = true
		}
	}
	row := &errorsRow{}
	if len(names) == 0 {
		return row, nil
	}
	h, err := sh.of(ctx, rec.TableID, s.Round)
	if err != nil {
		return nil, err
	}
	var seen []card.Card
	if h != nil {
		seen = h.seen(s.Round)
	}
	for _, name := range slices.Sorted(maps.Keys(names)) {
		row.add(name, valueDecisions(prof, s.Record, seen, name))
	}
	if h == nil {
		return row, nil
	}
	// His initial stakes by the true count at the deal.
	hash, err := o.hash(rec.Seq)
	if err != nil {
		return nil, err
	}
	k := countBucket(TrueCount(CountHiLo, seen, prof.Decks, h.pos[s.Round]))
	stakes := map[string]int64{}
	for _, b := range s.Record.Bets {
		if names[b.Player] {
			stakes[b.Player] += int64(b.Stake)
		}
	}
	for name, st := range stakes {
		var c countSums
		c.Rounds[k], c.Stakes[k] = 1, st
		row.sums(name).count(hash, &c)
	}
	return row, nil
}
