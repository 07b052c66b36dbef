package report

import (
	"context"
	"maps"
	"math"
	"slices"
	"time"

	"sabot"
	"sabot/money"
)

// BandZ is how many standard deviations either side of the theoretical win
// a table's band spans: 1.96, where a table whose players play basic
// strategy ends 95 % of periods.
const BandZ = 1.96

// TableResult is one table's (or profile's, or the whole floor's) results
// over the period: the regulator's export (docs/pit.md, "The schema").
// Amounts are minor units.
type TableResult struct {
	Table   int64  `json:"table,omitempty"` // 0: a profile's or the total's row
	Name    string `json:"name,omitempty"`
	Profile string `json:"profile,omitempty"`
	// Label names a profile's row's rule set by the options in which it
	// differs from its profile (RulesLabel: "spain · decks=4").
	Label    string `json:"label,omitempty"`
	Physical bool   `json:"physical,omitempty"`
	// TestMode marks a table whose rounds may be dealt forced cards
	// (sabot.Table.TestMode): counted, and marked so.
	TestMode bool `json:"test_mode,omitempty"`
	// Rules are the rule sets the rounds were dealt under (GameHash).
	Rules  []string `json:"rules"`
	Tables int      `json:"tables"` // tables with a round closed in the period
	Rounds int64    `json:"rounds"` // settled
	Voids  int64    `json:"voids"`  // void: every stake returned
	Hands  int64    `json:"hands"`  // the players' hands settled, split hands each
	// Stakes is every stake of the settled rounds (main bets, back bets,
	// doubles, splits, insurance, challenges); Initial the stakes placed
	// before the deal (main and back bets).
	Stakes  money.Amount `json:"stakes"`
	Initial money.Amount `json:"initial_stakes"`
	// Drop is the cash a physical table's float took for chips (the
	// walk-ins' buy-ins); Cashout what it gave back for them.
	Drop    money.Amount `json:"drop"`
	Cashout money.Amount `json:"cashout"`
	// Win is the house's: what the players lost (a family bank's net is
	// its holder's, not the house's).
	Win money.Amount `json:"win"`
	// HoldPct is Win per cent of Stakes; DropHoldPct of Drop (physical
	// tables; 0 without a drop).
	HoldPct     float64 `json:"hold_pct"`
	DropHoldPct float64 `json:"drop_hold_pct,omitempty"`
	// Theo is the theoretical win: the initial stakes × the exact house
	// edge of the rules each round was dealt under (Theory.HouseEdge).
	Theo money.Amount `json:"theo_win"`
	// Sigma is the standard deviation of the win about Theo: √Σ (SD ×
	// the box's initial stakes)² over the boxes of the rounds; BandLow and
	// BandHigh are Theo ∓ BandZ·Sigma; Z is (Win − Theo)/Sigma.
	Sigma    money.Amount `json:"sigma"`
	BandLow  money.Amount `json:"band_low"`
	BandHigh money.Amount `json:"band_high"`
	Z        float64      `json:"z"`
	Outside  bool         `json:"outside_band"`
	// LedgerHouseNet is what the ledger's entries put on the house's
	// account through the same rounds' settlements: equal to Win. Tables'
	// rows and the total's have it (a table's rules may change in a
	// period, so a profile's row has not); nil when the store cannot sum
	// its ledger.
	LedgerHouseNet *money.Amount `json:"ledger_house_net,omitempty"`
	// The return to player over the period (the return watched, from the
	// point --from names): RTP is 1 − Win/Initial, CertifiedRTP 1 −
	// Theo/Initial, and RTPLow, RTPHigh the band's ends as returns.
	RTP          float64 `json:"rtp"`
	CertifiedRTP float64 `json:"certified_rtp"`
	RTPLow       float64 `json:"rtp_low"`
	RTPHigh      float64 `json:"rtp_high"`

	theo, variance float64
}

// Tables is the report of the tables over a period.
type Tables struct {
	From     time.Time      `json:"from"`
	To       time.Time      `json:"to"`
	BandZ    float64        `json:"band_z"`
	Theories []*Theory      `json:"theories"`
	Tables   []*TableResult `json:"tables"`
	Profiles []*TableResult `json:"profiles"`
	Total    *TableResult   `json:"total"`
}

// TablesReport reads the tables' results over a period. The ledger's
// totals are read when src is a sabot.LedgerReader. Where src keeps the
// rollups of RollupTables (sabot.Rollups) and the period holds whole
// hours, it reads those hours' rows, and the log only for the rest: the
// period's first and last part hours, and each table's records past its
// mark (docs/pit.md, "Rollups"); the answer is the same either way.
func TablesReport(ctx context.Context, src Source, th *Theories, p Period) (*Tables, error) {
	return TablesReportWith(ctx, src, th, p, TablesOptions{})
}

// TablesOptions are a tables' report's options.
type TablesOptions struct {
	// Progress, if set, is told the rounds summed so far (from the log or
	// a rollup's rows), each time they pass a multiple of ProgressRounds
	// and once when they are all summed: a long report says how far it is
	// (a report job's poll), as PlayersOptions.Progress.
	Progress func(rounds int64)
}

// TablesReportWith is TablesReport with its options.
func TablesReportWith(ctx context.Context, src Source, th *Theories, p Period, to TablesOptions) (*Tables, error) {
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
	acc := &tablesAcc{src: src, byID: byID, sums: map[int64]*tableSums{}, opts: map[int64]*optionsAt{}, progress: to.Progress}
	_, acc.ledger = src.(sabot.LedgerReader)
	plan, err := planRollups(ctx, src, tablesKind, p)
	if err != nil {
		return nil, err
	}
	if plan == nil {
		err = acc.readPeriod(ctx, p)
	} else {
		err = acc.readPlan(ctx, plan)
	}
	if err != nil {
		return nil, err
	}
	if acc.progress != nil {
		acc.progress(acc.summed)
	}
	return acc.results(ctx, th, p)
}

// tablesAcc sums the tables' records of a period, table by table.
type tablesAcc struct {
	src    Source
	byID   map[int64]*sabot.Table
	sums   map[int64]*tableSums
	opts   map[int64]*optionsAt
	ledger bool // the store sums its ledger (sabot.LedgerReader)
	// progress (TablesOptions.Progress) is told summed, the rounds summed.
	progress func(rounds int64)
	summed   int64
}

// add sums s into table id's sums, telling progress of its rounds.
func (a *tablesAcc) add(id int64, s *tableSums) {
	a.table(id).plus(s)
	a.counted(s)
}

// counted tells progress of the rounds of s, summed.
func (a *tablesAcc) counted(s *tableSums) {
	if a.progress != nil {
		a.tell(s.rounds())
	}
}

// tell adds n rounds summed, telling progress each time they pass a
// multiple of ProgressRounds.
func (a *tablesAcc) tell(n int64) {
	was := a.summed
	a.summed += n
	if a.summed/ProgressRounds > was/ProgressRounds {
		a.progress(a.summed)
	}
}

// rounds are the settled rounds of the sums.
func (t *tableSums) rounds() int64 {
	var n int64
	for _, g := range t.Rules {
		n += g.Rounds
	}
	return n
}

func (a *tablesAcc) table(id int64) *tableSums {
	s := a.sums[id]
	if s == nil {
		s = &tableSums{}
		a.sums[id] = s
	}
	return s
}

// options are a table's options along its log (none: nil).
func (a *tablesAcc) options(ctx context.Context, id int64) (*optionsAt, error) {
	t := a.byID[id]
	if t == nil {
		return nil, nil
	}
	o := a.opts[id]
	if o == nil {
		var err error
		if o, err = loadOptions(ctx, a.src, t); err != nil {
			return nil, err
		}
		a.opts[id] = o
	}
	return o, nil
}

// readPlan sums the period as the plan says: its part hours from the log
// by time, its whole hours a table at a time from the rows and the log
// past the table's mark.
func (a *tablesAcc) readPlan(ctx context.Context, plan *rollupPlan) error {
	for _, e := range []*Period{plan.before, plan.after} {
		if e == nil {
			continue
		}
		if err := a.readPeriod(ctx, *e); err != nil {
			return err
		}
	}
	for _, id := range slices.Sorted(maps.Keys(a.byID)) {
		err := plan.read(ctx, a.src, a.byID[id], func(h rollSums) { a.add(id, h.(*tableSums)) })
		if err != nil {
			return err
		}
	}
	return nil
}

// readPeriod sums every record of the period from the log, found by time,
// and the ledger's nets of its rounds.
func (a *tablesAcc) readPeriod(ctx context.Context, p Period) error {
	for _, kind := range []string{sabot.LogSettle, sabot.LogVoid, sabot.LogAdmin} {
		err := each(ctx, a.src, kind, p, func(rec *sabot.LogRecord) error {
			o, err := a.options(ctx, rec.TableID)
			if err != nil {
				return err
			}
			s, seen := a.sums[rec.TableID]
			if !seen {
				s = &tableSums{}
			}
			var before int64
			if a.progress != nil {
				before = s.rounds()
			}
			counts, err := s.record(rec, o)
			if counts && !seen {
				a.sums[rec.TableID] = s
			}
			if a.progress != nil && rec.Kind == sabot.LogSettle {
				a.tell(s.rounds() - before)
			}
			return err
		})
		if err != nil {
			return err
		}
	}
	if lr, ok := a.src.(sabot.LedgerReader); ok {
		nets, err := lr.RoundNets(ctx, p.From, p.To)
		if err != nil {
			return err
		}
		for _, n := range nets {
			if sabot.IsHouse(n.Kind, n.OwnerID) { // the central house and the table's
				a.table(n.TableID).Ledger += n.Net
			}
		}
	}
	return nil
}

// results makes the report's rows of the sums: a table's, a profile's
// (its rules), the total's.
func (a *tablesAcc) results(ctx context.Context, th *Theories, p Period) (*Tables, error) {
	out := &Tables{From: p.From, To: p.To, BandZ: BandZ, Theories: []*Theory{}, Tables: []*TableResult{}, Profiles: []*TableResult{},
		Total: &TableResult{Rules: []string{}}}
	theories := map[string]*Theory{}
	profiles := map[string]*TableResult{}
	tablesOf := map[string]int{}
	var ledger money.Amount
	for _, id := range slices.Sorted(maps.Keys(a.sums)) {
		s, t := a.sums[id], a.byID[id]
		r := &TableResult{Table: id, Rules: []string{}, Tables: 1, Voids: s.Voids, Drop: s.Drop, Cashout: s.Cashout}
		if t != nil {
			r.Name, r.Profile, r.Physical, r.TestMode = t.Name, t.Profile, t.Physical(), t.TestMode
		} else if len(s.Rules) > 0 {
			return nil, sabot.Errorf(sabot.EINTERNAL, "table %d's rounds: no such table", id)
		}
		out.Total.Voids += s.Voids
		out.Total.Drop += s.Drop
		out.Total.Cashout += s.Cashout
		for _, h := range slices.Sorted(maps.Keys(s.Rules)) {
			g := s.Rules[h]
			theory := theories[h]
			if theory == nil {
				var err error
				if theory, err = th.Of(ctx, t.Profile, g.Options); err != nil {
					return nil, err
				}
				theories[h] = theory
			}
			pr := profiles[t.Profile+" "+h]
			if pr == nil {
				pr = &TableResult{Profile: t.Profile, Label: RulesLabel(t.Profile, g.Options), Rules: []string{h}}
				profiles[t.Profile+" "+h] = pr
			}
			tablesOf[t.Profile+" "+h]++
			r.Rules = append(r.Rules, h)
			for _, x := range []*TableResult{r, pr, out.Total} {
				x.add(g, theory)
			}
		}
		if a.ledger {
			r.LedgerHouseNet = new(money.Amount)
			*r.LedgerHouseNet = s.Ledger
			ledger += s.Ledger
		}
		out.Tables = append(out.Tables, r)
	}
	if a.ledger {
		out.Total.LedgerHouseNet = &ledger
	}
	for _, k := range slices.Sorted(maps.Keys(profiles)) {
		profiles[k].Tables = tablesOf[k] // a profile's row counts its tables
		out.Profiles = append(out.Profiles, profiles[k])
	}
	for _, k := range slices.Sorted(maps.Keys(theories)) {
		out.Theories = append(out.Theories, theories[k])
		out.Total.Rules = append(out.Total.Rules, k)
	}
	out.Total.Tables = len(out.Tables)
	for _, r := range append(append([]*TableResult{out.Total}, out.Tables...), out.Profiles...) {
		r.finish()
	}
	return out, nil
}

// add counts a table's rounds dealt under one rule set.
func (r *TableResult) add(g *ruleSums, t *Theory) {
	r.Rounds += g.Rounds
	r.Hands += g.Hands
	r.Win += g.Win
	r.Stakes += g.Stakes
	r.Initial += g.Initial
	r.theo += float64(g.Initial) * t.HouseEdge
	r.variance += g.Squares.float() * t.SD * t.SD
}

// finish computes the row's figures from its sums.
func (r *TableResult) finish() {
	r.Theo = money.Amount(math.Round(r.theo))
	sigma := math.Sqrt(r.variance)
	r.Sigma = money.Amount(math.Round(sigma))
	r.BandLow = money.Amount(math.Round(r.theo - BandZ*sigma))
	r.BandHigh = money.Amount(math.Round(r.theo + BandZ*sigma))
	if sigma > 0 {
		r.Z = round4((float64(r.Win) - r.theo) / sigma)
		r.Outside = math.Abs(float64(r.Win)-r.theo) > BandZ*sigma
	}
	if r.Initial != 0 {
		in := float64(r.Initial)
		r.RTP = round6(1 - float64(r.Win)/in)
		r.CertifiedRTP = round6(1 - r.theo/in)
		r.RTPLow = round6(1 - (r.theo+BandZ*sigma)/in)
		r.RTPHigh = round6(1 - (r.theo-BandZ*sigma)/in)
	}
	if r.Stakes != 0 {
		r.HoldPct = round4(100 * float64(r.Win) / float64(r.Stakes))
	}
	if r.Drop != 0 {
		r.DropHoldPct = round4(100 * float64(r.Win) / float64(r.Drop))
	}
}

func round4(x float64) float64 { return math.Round(x*1e4) / 1e4 }

func round6(x float64) float64 { return math.Round(x*1e6) / 1e6 }
