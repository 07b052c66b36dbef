package sim

import (
	"math"
)

// Result is a simulation's outcome. EV and SE are per initial bet (a
// fraction of the stakes placed before the deal); SD, WinRate and AvgBet are
// in units (Config.Unit).
type Result struct {
	cfg Config

	Profile string `json:"profile"`
	Rounds  int64  `json:"rounds"`
	Played  int64  `json:"rounds_played"`
	Void    int64  `json:"rounds_void"`
	Shoes   int64  `json:"shoes"`
	Unit    int64  `json:"unit"`

	// CardsPerShoe is the penetration reached: the mean number of cards
	// taken from a shoe before it was shuffled again, burn cards
	// included; Penetration is the same as a fraction of the shoe's
	// cards. (Without a shoe dealt to its end, as with a continuous
	// shuffler: 0 and left out.)
	CardsPerShoe float64 `json:"cards_per_shoe,omitempty"`
	Penetration  float64 `json:"penetration,omitempty"`

	EV   float64    `json:"ev"`
	SE   float64    `json:"se"`
	CI95 [2]float64 `json:"ci95"`
	// SD is the standard deviation of the net per round played, in units.
	SD float64 `json:"sd"`
	// AvgBet is the mean initial bet per round played, in units.
	AvgBet float64 `json:"avg_bet"`
	// AvgBetMinor is the same in minor units (AvgBet·Unit): the average
	// bet in money.
	AvgBetMinor float64 `json:"avg_bet_minor"`
	// WinRate is the mean net per 100 rounds played, in units, with its
	// standard error.
	WinRate   float64 `json:"win_rate_per_100"`
	WinRateSE float64 `json:"win_rate_per_100_se"`

	// Rates per box-round of the player (the box holder's net on the box).
	Win       float64 `json:"win"`
	Push      float64 `json:"push"`
	Loss      float64 `json:"loss"`
	Blackjack float64 `json:"blackjack"`

	// Counting figures (Schlesinger, Blackjack Attack, ch. 9-10): SCORE =
	// 10⁶·(mean/SD)² per round, DI = √SCORE, N0 = (SD/mean)² rounds.
	SCORE float64 `json:"score"`
	DI    float64 `json:"di"`
	N0    float64 `json:"n0"`

	BackEV float64 `json:"back_ev,omitempty"` // the back bets' EV per initial bet
	BackSE float64 `json:"back_se,omitempty"`

	ByCount []CountRow  `json:"by_count,omitempty"`
	Paths   [][]float64 `json:"-"`
	Stats   Stats       `json:"-"`
}

// CountRow is the play at one count at the bet (floor of the count; the ends
// gather everything beyond ±10).
type CountRow struct {
	Count  int     `json:"count"`
	Rounds int64   `json:"rounds"`
	Freq   float64 `json:"freq"`
	EV     float64 `json:"ev"` // per initial bet
	SE     float64 `json:"se"`
	AvgBet float64 `json:"avg_bet"`
}

// Config returns the configuration the result was run with, defaults filled.
func (r *Result) Config() Config { return r.cfg }

func (r *Result) summarize() {
	s := &r.Stats
	cfg := &r.cfg
	unit := float64(cfg.Unit)
	r.Profile = cfg.Profile.Name
	r.Rounds, r.Played, r.Void, r.Shoes, r.Unit = s.Rounds, s.Played, s.Void, s.Shoes, cfg.Unit
	if s.ShoesDealt > 0 {
		r.CardsPerShoe = float64(s.ShoeCards) / float64(s.ShoesDealt)
		r.Penetration = r.CardsPerShoe / float64(52*cfg.Profile.Decks)
	}
	r.EV, r.SE = ratio(s)
	r.CI95 = [2]float64{r.EV - 1.96*r.SE, r.EV + 1.96*r.SE}
	if s.Played > 0 {
		n := float64(s.Played)
		mean := float64(s.X) / n
		sd := math.Sqrt(math.Max(s.XX/n-mean*mean, 0))
		r.SD = sd / unit
		r.AvgBet = float64(s.W) / n / unit
		r.AvgBetMinor = float64(s.W) / n
		r.WinRate = 100 * mean / unit
		r.WinRateSE = 100 * sd / math.Sqrt(n) / unit
		if sd > 0 {
			r.DI = 1000 * mean / sd
			r.SCORE = r.DI * r.DI
			if mean < 0 {
				r.SCORE = -r.SCORE
			}
			if mean != 0 {
				r.N0 = (sd / mean) * (sd / mean)
			}
		}
	}
	if s.Boxes > 0 {
		b := float64(s.Boxes)
		r.Win, r.Push, r.Loss = float64(s.Wins)/b, float64(s.Pushes)/b, float64(s.Losses)/b
		r.Blackjack = float64(s.Blackjacks) / b
	}
	if s.BackW > 0 {
		n := float64(s.Played)
		r.BackEV = float64(s.BackX) / float64(s.BackW)
		mean := float64(s.BackX) / n
		sd := math.Sqrt(math.Max(s.BackXX/n-mean*mean, 0))
		r.BackSE = sd / math.Sqrt(n) / (float64(s.BackW) / n)
	}
	if cfg.Count != nil {
		for i, b := range s.ByCount {
			if b.Rounds == 0 {
				continue
			}
			n := float64(b.Rounds)
			row := CountRow{Count: i - countRange, Rounds: b.Rounds, Freq: n / float64(max(s.Played, 1))}
			if b.W > 0 {
				mw := float64(b.W) / n
				row.EV = float64(b.X) / float64(b.W)
				mean := float64(b.X) / n
				row.SE = math.Sqrt(math.Max(b.XX/n-mean*mean, 0)/n) / mw
				row.AvgBet = mw / unit
			}
			r.ByCount = append(r.ByCount, row)
		}
	}
}

// RiskOfRuin is the probability of ever losing a bankroll of the given units
// at this result's win rate and SD per round: exp(−2·mean·B/SD²), the
// diffusion approximation (Blackjack Attack, ch. 9).
func (r *Result) RiskOfRuin(bankroll float64) float64 {
	mean := r.WinRate / 100
	if mean <= 0 || r.SD == 0 {
		return 1
	}
	return math.Exp(-2 * mean * bankroll / (r.SD * r.SD))
}

// Distribution returns the distribution of the net per round played, in
// units: values (multiples of ½) and their frequencies, the ends gathering
// everything beyond ±24 units.
func (r *Result) Distribution() (values, freq []float64) {
	var n int64
	for _, c := range r.Stats.Dist {
		n += c
	}
	for i, c := range r.Stats.Dist {
		if c == 0 {
			continue
		}
		values = append(values, float64(i-distRange)/2)
		freq = append(freq, float64(c)/float64(n))
	}
	return values, freq
}
