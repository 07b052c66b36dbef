package report

import (
	"context"
	"maps"
	"math"
	"slices"
	"strings"
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
	Table    int64  `json:"table,omitempty"` // 0: a profile's or the total's row
	Name     string `json:"name,omitempty"`
	Profile  string `json:"profile,omitempty"`
	Physical bool   `json:"physical,omitempty"`
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
// totals are read when src is a sabot.LedgerReader.
func TablesReport(ctx context.Context, src Source, th *Theories, p Period) (*Tables, error) {
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
	out := &Tables{From: p.From, To: p.To, BandZ: BandZ, Theories: []*Theory{}, Tables: []*TableResult{}, Profiles: []*TableResult{},
		Total: &TableResult{Rules: []string{}}}
	rows := map[int64]*TableResult{}
	opts := map[int64]*optionsAt{}
	theories := map[string]*Theory{}
	profiles := map[string]*TableResult{}
	row := func(id int64) *TableResult {
		r := rows[id]
		if r == nil {
			t := byID[id]
			r = &TableResult{Table: id, Rules: []string{}, Tables: 1}
			if t != nil {
				r.Name, r.Profile, r.Physical = t.Name, t.Profile, t.Physical()
			}
			rows[id] = r
		}
		return r
	}
	for _, kind := range []string{sabot.LogSettle, sabot.LogVoid} {
		err := each(ctx, src, kind, p, func(rec *sabot.LogRecord) error {
			var s tableSettlement
			if err := decode(rec, &s); err != nil {
				return err
			}
			r := row(rec.TableID)
			if s.Void {
				r.Voids++
				return nil
			}
			t := byID[rec.TableID]
			if t == nil {
				return sabot.Errorf(sabot.EINTERNAL, "table %d's round %d: no such table", rec.TableID, s.Round)
			}
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
			theories[theory.Rules] = theory
			pr := profiles[t.Profile+" "+theory.Rules]
			if pr == nil {
				pr = &TableResult{Profile: t.Profile, Rules: []string{theory.Rules}}
				profiles[t.Profile+" "+theory.Rules] = pr
			}
			if !slices.Contains(r.Rules, theory.Rules) {
				r.Rules = append(r.Rules, theory.Rules)
			}
			for _, x := range []*TableResult{r, pr, out.Total} {
				x.add(&s, theory)
			}
			return nil
		})
		if err != nil {
			return nil, err
		}
	}
	err = each(ctx, src, sabot.LogAdmin, p, func(rec *sabot.LogRecord) error {
		if !strings.Contains(string(rec.Payload), `"buy-in"`) && !strings.Contains(string(rec.Payload), `"cash-out"`) {
			return nil
		}
		var a adminPayload
		if err := decode(rec, &a); err != nil {
			return err
		}
		r := row(rec.TableID)
		switch a.Event {
		case "buy-in":
			r.Drop += a.Amount
			out.Total.Drop += a.Amount
		case "cash-out":
			r.Cashout += a.Amount
			out.Total.Cashout += a.Amount
		}
		return nil
	})
	if err != nil {
		return nil, err
	}
	if lr, ok := src.(sabot.LedgerReader); ok {
		nets, err := lr.RoundNets(ctx, p.From, p.To)
		if err != nil {
			return nil, err
		}
		add := func(x *TableResult, n money.Amount) {
			if x.LedgerHouseNet == nil {
				x.LedgerHouseNet = new(money.Amount)
			}
			*x.LedgerHouseNet += n
		}
		add(out.Total, 0)
		for _, r := range rows {
			add(r, 0)
		}
		for _, n := range nets {
			if n.Kind == sabot.AccountHouse && n.OwnerID == 0 {
				add(row(n.TableID), n.Net)
				add(out.Total, n.Net)
			}
		}
	}
	for _, id := range slices.Sorted(maps.Keys(rows)) {
		out.Tables = append(out.Tables, rows[id])
	}
	for _, k := range slices.Sorted(maps.Keys(profiles)) {
		out.Profiles = append(out.Profiles, profiles[k])
	}
	for _, k := range slices.Sorted(maps.Keys(theories)) {
		out.Theories = append(out.Theories, theories[k])
		out.Total.Rules = append(out.Total.Rules, k)
	}
	// A profile's row counts its tables, the total's every table.
	seen := map[string]map[int64]bool{}
	for _, r := range out.Tables {
		for _, h := range r.Rules {
			if seen[r.Profile+" "+h] == nil {
				seen[r.Profile+" "+h] = map[int64]bool{}
			}
			seen[r.Profile+" "+h][r.Table] = true
		}
	}
	for k, pr := range profiles {
		pr.Tables = len(seen[k])
	}
	out.Total.Tables = len(out.Tables)
	for _, r := range append(append([]*TableResult{out.Total}, out.Tables...), out.Profiles...) {
		r.finish()
	}
	return out, nil
}

// tableSettlement is what the tables' report reads of a settle or void
// record (settlement): not the round's record nor the hands' cards, whose
// decoding was half the report's work over a long period (docs/pit.md,
// "Fast on a year of data").
type tableSettlement struct {
	Round int        `json:"round"`
	Void  bool       `json:"void"`
	Hands []struct{} `json:"hands"` // counted
	Bets  []struct {
		Box   int          `json:"box"`
		Kind  string       `json:"kind"`
		Stake money.Amount `json:"stake"`
	} `json:"bets"`
	House    money.Amount            `json:"house"`
	Bank     string                  `json:"bank"`
	BankPaid map[string]money.Amount `json:"bank_paid"`
}

func (s *tableSettlement) houseWin() money.Amount {
	return houseWin(s.Void, s.Bank, s.House, s.BankPaid)
}

// add counts one settled round dealt under a theory.
func (r *TableResult) add(s *tableSettlement, t *Theory) {
	r.Rounds++
	r.Hands += int64(len(s.Hands))
	r.Win += s.houseWin()
	boxes := map[int]money.Amount{}
	for _, b := range s.Bets {
		r.Stakes += b.Stake
		if b.Kind == "main" {
			r.Initial += b.Stake
			boxes[b.Box] += b.Stake
		}
	}
	for _, st := range boxes {
		r.theo += float64(st) * t.HouseEdge
		x := float64(st) * t.SD
		r.variance += x * x
	}
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
