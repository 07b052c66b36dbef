package analysis

import (
	"context"
	"fmt"
	"runtime"
	"sort"
	"sync"

	"sabot/rules"
)

// StrategyKind names a player strategy.
type StrategyKind uint8

const (
	// TotalDependent is basic strategy: decisions by hard or soft total,
	// pair and the number of cards (two, or more), as on a strategy card.
	TotalDependent StrategyKind = iota
	// CompositionDependent decides by the exact cards of the hand.
	CompositionDependent
)

func (k StrategyKind) String() string {
	if k == CompositionDependent {
		return "cd"
	}
	return "td"
}

// ParseStrategy reads "td" or "cd".
func ParseStrategy(s string) (StrategyKind, error) {
	switch s {
	case "td", "TD", "basic":
		return TotalDependent, nil
	case "cd", "CD":
		return CompositionDependent, nil
	}
	return 0, fmt.Errorf("unknown strategy %q: want td (total-dependent basic strategy) or cd (composition-dependent)", s)
}

// Summary is the PAR-sheet view of one strategy played off the top of a
// full shoe by one player alone at the table. Probabilities are per round.
type Summary struct {
	Strategy StrategyKind
	// EV is the player's expected net per initial unit bet (negative when
	// the house wins); HouseEdge is -EV and RTP 1+EV.
	EV, HouseEdge, RTP float64
	// Win, Push and Lose are the expected numbers of hands won, pushed and
	// lost per round (a split adds hands; a surrender counts as lost).
	Win, Push, Lose float64
	// Blackjack is the probability of a player blackjack, DealerBlackjack of
	// a dealer blackjack.
	Blackjack, DealerBlackjack float64
	// Stake is the average total stake per round per initial unit: doubles,
	// splits, insurance and the challenge included.
	Stake float64
	// Doubles is the expected number of doubled hands per round; Splits,
	// Surrenders, Insurance, EvenMoney and Challenge the probabilities that a
	// round splits, surrenders, insures, takes even money, challenges.
	Doubles, Splits, Surrenders, Insurance, EvenMoney, Challenge float64
}

// DealerRow is the dealer's final-total distribution under one up card,
// for a full shoe less the up card.
type DealerRow struct {
	Up string // A, 2-9, T
	// P is the probability of this up card.
	P float64
	// Outcome probabilities, by the names of Outcomes(): 17, 18, 19, 20,
	// 21, 21 of five cards, blackjack, bust.
	All [outcomes]float64
	// NoBlackjack is the distribution given that the dealer has no
	// blackjack (what a player faces after a peek).
	NoBlackjack [outcomes]float64
}

// Outcomes names the dealer outcomes of DealerRow.
func Outcomes() []string { return outcomeNames[:] }

// HandEV is the analysis of one initial hand against one up card: the
// expectation of each decision open to it (composition-dependent play
// after it), per initial unit, dealer blackjack included.
type HandEV struct {
	Up    string    // dealer up card
	Cards [2]string // the player's two cards
	P     float64   // probability of this up card and these two cards
	// EV by decision code (e.g. "S", "H", "D@11", "P", "R").
	EV map[string]float64
	// CD and TD are the decisions of the two strategies.
	CD, TD string
}

// ChallengeRow is the Desafío (AR-10) under one up card: the probability
// that the player's second card is ten-value given his Ace and the up card,
// and the expectation per unit of the challenge's own stake (it pays 2:1).
type ChallengeRow struct {
	Up      string
	PTen    float64
	EV      float64 // per unit staked on the challenge: 3*PTen - 1
	Advised bool    // take it (EV > 0)
}

// Result is the exact analysis of a profile.
type Result struct {
	Profile string
	Hash    string
	Decks   int
	// TD is basic strategy, CD the composition-dependent optimum.
	TD, CD Summary
	Dealer [kinds]DealerRow
	// Basic is the total-dependent strategy card.
	Basic *StrategyCard
	Hands []HandEV
	// Challenge is empty unless the profile has the Desafío (AR-10).
	Challenge []ChallengeRow
	// InsuranceEV is the expectation of insurance (per unit insured) for a
	// player holding no ten: the best case; it is taken only when positive.
	InsuranceEV float64
}

// Summary returns the summary of a strategy.
func (r *Result) Summary(k StrategyKind) Summary {
	if k == CompositionDependent {
		return r.CD
	}
	return r.TD
}

// Options tune an analysis.
type Options struct {
	// Progress, if set, is called after each dealer up card is analysed
	// with the number done and the total (10), from one goroutine at a time.
	Progress func(done, total int)
	// Cache holds results by Profile.GameHash; nil uses the package's cache.
	Cache *Cache
}

// upResult is what one up card contributes.
type upResult struct {
	up       int
	cd, td   []rootHand
	dealer   DealerRow
	col      *tdColumn
	splitsCD [kinds]float64
	// The distributions of the round's net (netdist.go), by policy (CD,
	// TD, mimic), when asked for.
	net              [nPolNet]ndist
	netSplit, netGap [nPolNet]float64
	netDealerGap     [nPolNet]float64 // the largest difference of the dealer's law between a split ending's hands
}

// Analyze returns the exact analysis of profile p, computing it unless the
// cache has it. The Result is shared: do not modify it.
func Analyze(ctx context.Context, p *rules.Profile, o Options) (*Result, error) {
	c := o.Cache
	if c == nil {
		c = defaultCache
	}
	return c.get(ctx, p, func() (*Result, error) { return compute(ctx, p, o.Progress) })
}

func compute(ctx context.Context, p *rules.Profile, progress func(int, int)) (*Result, error) {
	res, _, err := computeWith(ctx, p, progress, false)
	return res, err
}

// computeWith is compute, also returning each up card's results; with net,
// they carry the distributions of the round's net (NetDistributions).
func computeWith(ctx context.Context, p *rules.Profile, progress func(int, int), net bool) (*Result, []*upResult, error) {
	if err := p.Validate(); err != nil {
		return nil, nil, err
	}
	p = p.Clone()
	if err := checkBust(p); err != nil {
		return nil, nil, err
	}
	full := FullShoe(p)
	// The heaviest up cards first, so that two workers finish together.
	order := []int{1, 0, 2, 3, 4, 5, 6, 7, 8, 9}
	results := make([]*upResult, kinds)
	var (
		mu   sync.Mutex
		done int
		wg   sync.WaitGroup
		next = make(chan int)
	)
	workers := runtime.GOMAXPROCS(0)
	if workers > kinds {
		workers = kinds
	}
	for w := 0; w < workers; w++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			var s *solver
			for up := range next {
				var r *upResult
				r, s = analyseUp(p, up, s, net)
				mu.Lock()
				results[up] = r
				done++
				if progress != nil {
					progress(done, kinds)
				}
				mu.Unlock()
			}
		}()
	}
	var err error
loop:
	for _, up := range order {
		select {
		case next <- up:
		case <-ctx.Done():
			err = ctx.Err()
			break loop
		}
	}
	close(next)
	wg.Wait()
	if err != nil {
		return nil, nil, err
	}

	res := &Result{Profile: p.Name, Hash: p.GameHash(), Decks: p.Decks, Basic: &StrategyCard{Profile: p.Name}}
	N := float64(full.Total())
	res.CD.Strategy, res.TD.Strategy = CompositionDependent, TotalDependent
	for up := 0; up < kinds; up++ {
		r := results[up]
		pu := float64(full[up]) / N
		r.dealer.P = pu
		res.Dealer[up] = r.dealer
		res.Basic.setColumn(up, r.col, p)
		add := func(sum *Summary, roots []rootHand) {
			for _, h := range roots {
				if h.w == 0 {
					continue
				}
				w := pu * h.w
				v := h.cands[h.best].v
				sum.EV += w * v[sEV]
				sum.Win += w * v[sWin]
				sum.Push += w * v[sPush]
				sum.Lose += w * v[sLose]
				sum.Stake += w * v[sStake]
				sum.Doubles += w * v[sDouble]
				sum.DealerBlackjack += w * h.pbj
				if h.bj {
					sum.Blackjack += w
				}
				switch h.cands[h.best].code.Act {
				case Split:
					sum.Splits += w
				case Surrender:
					sum.Surrenders += w
				}
				if h.insure {
					sum.Insurance += w
					sum.Stake += w * 0.5
					sum.EV += w * h.insEV
				}
				if h.evenMoney {
					sum.EvenMoney += w
				}
			}
		}
		add(&res.CD, r.cd)
		add(&res.TD, r.td)
		if p.Challenge { // AR-10
			sh := full
			sh[up]--
			pa := float64(sh[aceIdx]) / float64(sh.Total())
			sh[aceIdx]--
			q := float64(sh[tenIdx]) / float64(sh.Total())
			row := ChallengeRow{Up: kindName[up], PTen: q, EV: 3*q - 1}
			if row.EV > 0 {
				row.Advised = true
				for _, sum := range []*Summary{&res.CD, &res.TD} {
					sum.EV += pu * pa * 0.5 * row.EV
					sum.Stake += pu * pa * 0.5
					sum.Challenge += pu * pa
				}
			}
			res.Challenge = append(res.Challenge, row)
		}
		for i, h := range r.cd {
			if h.w == 0 {
				continue
			}
			e := HandEV{Up: kindName[up], Cards: [2]string{kindName[h.x], kindName[h.y]}, P: pu * h.w,
				EV: map[string]float64{}, CD: h.cands[h.best].code.String()}
			for _, c := range h.cands {
				e.EV[c.code.String()] = c.v[sEV]
			}
			if t := r.td[i]; len(t.cands) > 0 {
				e.TD = t.cands[t.best].code.String()
			}
			if h.bj && h.evenMoney {
				e.CD, e.TD = "even-money", "even-money"
			}
			res.Hands = append(res.Hands, e)
		}
	}
	if p.Insurance {
		sh := full
		sh[aceIdx]--
		res.InsuranceEV = 3*float64(sh[tenIdx])/float64(sh.Total()) - 1
	}
	for _, s := range []*Summary{&res.CD, &res.TD} {
		s.HouseEdge = -s.EV
		s.RTP = 1 + s.EV
	}
	sort.SliceStable(res.Hands, func(i, j int) bool { return upRank(res.Hands[i].Up) < upRank(res.Hands[j].Up) })
	return res, results, nil
}

// upRank orders up cards as a strategy card does: 2 to 9, T, A.
func upRank(s string) int {
	k, _ := ParseKind(s)
	return (k + kinds - 1) % kinds
}

// analyseUp runs the CD pass and the TD construction for one up card,
// reusing the tables of old if not nil; it returns the solver for reuse.
func analyseUp(p *rules.Profile, up int, old *solver, net bool) (*upResult, *solver) {
	s := newSolverReusing(p, up, old)
	r := &upResult{up: up}
	s.prefetchAll()
	for x := 0; x < kinds; x++ {
		for y := x; y < kinds; y++ {
			r.cd = append(r.cd, s.root(x, y))
		}
	}
	r.td = s.buildTD()
	r.col = s.td
	if net {
		s.netRoots(r)
	}
	r.dealer.Up = kindName[up]
	s.dg.dist(&s.base, &r.dealer.All, &s.buf)
	if pn := 1 - r.dealer.All[dBJ]; pn > 0 {
		for k := range r.dealer.All {
			if k != dBJ {
				r.dealer.NoBlackjack[k] = r.dealer.All[k] / pn
			}
		}
	}
	return r, s
}

// checkBust verifies what solver.bust assumes: Settle loses a busted hand
// whatever the dealer holds, doubles included (ES-04).
func checkBust(p *rules.Profile) error {
	c := rules.CountOf(kindCard[tenIdx], kindCard[5], kindCard[tenIdx])
	for _, split := range []bool{false, true} {
		for d := 0; d < outcomes; d++ {
			o := p.Settle(rules.PlayerHand{Count: c, Split: split}, dealerRep[d])
			if o.Num != -o.Den || o.OriginalOnly {
				return fmt.Errorf("analysis: settlement of a busted hand is not a loss against dealer %s", outcomeNames[d])
			}
		}
	}
	return nil
}
