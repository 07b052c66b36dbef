package analysis

import (
	"bytes"
	"context"
	"math"
	"math/rand/v2"
	"slices"
	"strconv"
	"sync"
	"testing"

	"sabot/rules"
)

// simulator plays rounds of a profile by a strategy card read from the CSV
// format, one player alone, each round from a full shuffled shoe. It is
// written apart from the analysis — its own dealing, splitting and
// settlement of every hand through rules.Settle — so that agreement checks
// the analysis, not a copy of it.
type simulator struct {
	p    *rules.Profile
	card *StrategyCard
	t    *testing.T
}

type simRound struct {
	*simulator
	rng  *rand.Rand
	shoe Counts
	n    int
}

func (r *simRound) draw() int {
	x := r.rng.IntN(r.n)
	for k := 0; k < kinds; k++ {
		if x < r.shoe[k] {
			r.shoe[k]--
			r.n--
			return k
		}
		x -= r.shoe[k]
	}
	panic("empty shoe")
}

func (s *simulator) code(kind, player string, up int) Code {
	row := s.card.Lookup(kind, player)
	if row == nil || row.Cells[up].Act == 0 {
		s.t.Fatalf("strategy card has no %s %s against %s", kind, player, kindName[up])
	}
	return row.Cells[up]
}

func rowName(c rules.Count) (string, string) {
	if c.Soft() {
		return KindSoft, strconv.Itoa(c.Total())
	}
	return KindHard, strconv.Itoa(c.Total())
}

type simHand struct {
	c     rules.Count
	stake float64
	split bool
	pair  int
}

// round plays one round and returns the player's net per initial unit.
func (r *simRound) round() float64 {
	p := r.p
	r.shoe = FullShoe(p)
	r.n = r.shoe.Total()
	p1 := r.draw()
	up := r.draw()
	p2 := r.draw()
	dealer := p.DealerAdd(rules.Count{}, kindCard[up])
	if p.HoleCard != rules.NoHole {
		dealer = p.DealerAdd(dealer, kindCard[r.draw()])
	}
	playerBJ := rules.CountOf(kindCard[p1], kindCard[p2]).TwoCard21()
	if p.HoleCard == rules.Peek && dealer.TwoCard21() {
		if playerBJ {
			return 0
		}
		return -1
	}
	finishDealer := func() rules.DealerHand {
		if dealer.N == 1 {
			dealer = p.DealerAdd(dealer, kindCard[r.draw()])
		}
		for p.DealerDraws(dealer) {
			dealer = p.DealerAdd(dealer, kindCard[r.draw()])
		}
		return rules.DealerHand{Count: dealer}
	}
	if playerBJ {
		o := p.Settle(rules.PlayerHand{Count: rules.CountOf(kindCard[p1], kindCard[p2])}, finishDealer())
		return float64(o.Num) / float64(o.Den)
	}
	// The root decision: the pair row, else the total's row.
	h0 := simHand{c: rules.CountOf(kindCard[p1], kindCard[p2]), stake: 1, pair: -1}
	var code Code
	if p1 == p2 && p.MaxHands >= 2 {
		code = r.code(KindPair, kindName[p1], up)
	}
	if code.Act != Split && !(code.Act == Surrender && code.Else == Split) {
		k, tot := rowName(h0.c)
		code = r.code(k, tot, up)
	}
	if code.Act == Surrender && p.Surrender != rules.NoSurrender {
		o := p.Settle(rules.PlayerHand{Count: h0.c, Surrendered: true}, finishDealer())
		return float64(o.Num) / float64(o.Den)
	}
	var hands []*simHand
	if code.Act == Split {
		hands = r.split(p1, up)
	} else {
		r.play(&h0, up, code, true)
		hands = []*simHand{&h0}
	}
	d := finishDealer()
	net := 0.0
	for i, h := range hands {
		o := p.Settle(rules.PlayerHand{Count: h.c, Split: h.split, SplitAces: h.split && h.pair == aceIdx}, d)
		switch {
		case o.OriginalOnly && o.Num < 0:
			// A dealer blackjack takes the box's original unit only:
			// the first hand carries it.
			if i == 0 {
				net--
			}
		default:
			net += h.stake * float64(o.Num) / float64(o.Den)
		}
	}
	return net
}

// split plays a split of kind P: each hand takes its second card in turn,
// resplitting a new pair while hands may be made, and is played out.
func (r *simRound) split(P, up int) []*simHand {
	p := r.p
	maxHands := p.MaxHands
	if P == aceIdx && !p.ResplitAces {
		maxHands = 2
	}
	start := func() *simHand {
		return &simHand{c: rules.Count{}.Add(kindCard[P]), stake: 1, split: true, pair: P}
	}
	hands := []*simHand{start(), start()}
	for i := 0; i < len(hands); i++ {
		h := hands[i]
		for {
			k := r.draw()
			if k == P && len(hands) < maxHands {
				hands = append(hands, start())
				continue
			}
			h.c = h.c.Add(kindCard[k])
			break
		}
		r.play(h, up, Code{}, false)
	}
	return hands
}

// play plays a hand of two cards by the card (code, for the root hand, is
// already chosen), then on by the hit/stand rows.
func (r *simRound) play(h *simHand, up int, code Code, root bool) {
	p := r.p
	oneCard := h.split && h.pair == aceIdx && !p.HitSplitAces
	if oneCard {
		return
	}
	if h.split && h.pair == tenIdx && p.SplitTenAceChoice && h.c.Aces == 1 && h.c.N == 2 { // VE-13
		c := r.code(KindTenAce, "T,A", up)
		if c.Declare != 1 {
			return
		}
		h.c = h.c.Declare(1)
		code = c
	}
	if h.c.Total() == 21 {
		return
	}
	if code.Act == 0 {
		k, tot := rowName(h.c)
		code = r.code(k, tot, up)
	}
	if p.DeclareInitialAce && h.c.Aces > 0 && h.c.Declared == 0 { // AR-11
		d := int(code.Declare)
		if d == 0 {
			d = 11
		}
		h.c = h.c.Declare(d)
		if h.c.Total() == 21 {
			return
		}
	}
	canDouble := p.CanDoubleOn(h.c) && (!h.split || p.DoubleAfterSplit)
	act := code.Act
	for {
		switch {
		case act == Double && !canDouble, act == Surrender, act == Split:
			act = code.Else
			continue
		case act == Stand && p.MustDraw(h.c):
			act = Hit
		}
		break
	}
	switch act {
	case Stand:
		return
	case Double:
		h.stake = 2
		h.c = h.c.Add(kindCard[r.draw()])
		return
	}
	for {
		h.c = h.c.Add(kindCard[r.draw()])
		t := h.c.Total()
		if t >= 21 {
			return
		}
		kind := KindHardN
		if h.c.Soft() {
			kind = KindSoftN
		}
		a := r.code(kind, strconv.Itoa(t), up).Act
		if a == Stand && !p.MustDraw(h.c) {
			return
		}
	}
}

// simulate plays rounds on two goroutines and returns the mean net per
// round and its standard error.
func simulate(t *testing.T, p *rules.Profile, card *StrategyCard, rounds int, seed uint64) (mean, se float64) {
	const workers = 2
	var mu sync.Mutex
	var sum, sum2 float64
	var wg sync.WaitGroup
	for w := 0; w < workers; w++ {
		wg.Add(1)
		go func(w int) {
			defer wg.Done()
			r := &simRound{simulator: &simulator{p: p, card: card, t: t}, rng: rand.New(rand.NewPCG(seed, uint64(w)))}
			var s, s2 float64
			for i := 0; i < rounds/workers; i++ {
				x := r.round()
				s += x
				s2 += x * x
			}
			mu.Lock()
			sum += s
			sum2 += s2
			mu.Unlock()
		}(w)
	}
	wg.Wait()
	n := float64(rounds / workers * workers)
	mean = sum / n
	se = math.Sqrt((sum2/n - mean*mean) / n)
	return mean, se
}

// An independent simulation of every built-in profile, and of the rules
// its options add (PON-01, PON-02, surrender), agrees with the exact
// expectation of basic strategy within 3 standard errors. The card is
// passed through the CSV format, so the simulation plays what a reader of
// the file would. Exotic rules covered: AR-09/AR-15 no peek, AR-10 (never
// worth taking, see TestChallenge), AR-11 declarations, AR-17 double on 11,
// AR-19 split Aces that draw and split blackjacks paid 1:1, ES-09 seven
// hands, ES-12/VE-15 no hole card with everything lost, VE-06 must draw and
// stand on 21, VE-13, PON-01, PON-02.
func TestMonteCarloAgrees(t *testing.T) {
	t.Parallel() // pure computation on its own profiles: the package's long checks side by side
	rounds := 2_000_000
	if testing.Short() {
		rounds = 300_000
	}
	cases := []monteCarloCase{
		{"argentina", nil}, {"spain", nil}, {"venice", nil}, {"family", nil},
		{"vegas-s17", nil}, {"vegas-h17", nil},
		{"family", []string{"five_card_21=true", "three_sevens=true"}},
		{"vegas-s17", []string{"surrender=late", "decks=2", "cut_card_reserve=26"}},
	}
	monteCarlo(t, cases, rounds, 1)
}

// AR-13 read as the dealer's Ace staying 1 once he draws
// (dealer_ace=stays-one): the exact analysis, whose dealer model keeps the
// states of one multiset apart by their counts, agrees with the
// simulation, which draws the cards in order; at vegas-h17 too, where a
// soft 17 drawn to fixes its Ace, and at venice, without a hole card.
func TestMonteCarloAgrees_AR13(t *testing.T) {
	t.Parallel() // pure computation on its own profiles: the package's long checks side by side
	rounds := 2_000_000
	if testing.Short() {
		rounds = 300_000
	}
	monteCarlo(t, []monteCarloCase{
		{"argentina", []string{"dealer_ace=stays-one"}},
		{"vegas-h17", []string{"dealer_ace=stays-one"}},
		{"venice", []string{"dealer_ace=stays-one"}},
	}, rounds, 101)
}

type monteCarloCase struct {
	name string
	opts []string
}

func monteCarlo(t *testing.T, cases []monteCarloCase, rounds int, seed uint64) {
	t.Helper()
	for i, c := range cases {
		p := rules.MustLookup(c.name)
		if err := p.SetAll(c.opts); err != nil {
			t.Fatal(err)
		}
		res, err := Analyze(context.Background(), p, Options{})
		if err != nil {
			t.Fatal(err)
		}
		if res.TD.Insurance != 0 || res.TD.EvenMoney != 0 || res.TD.Challenge != 0 {
			t.Fatalf("%s: the simulator assumes no insurance, even money or challenge", c.name)
		}
		var buf bytes.Buffer
		if err := res.Basic.WriteCSV(&buf); err != nil {
			t.Fatal(err)
		}
		card, err := ReadCSV(&buf)
		if err != nil {
			t.Fatal(err)
		}
		mean, se := simulate(t, p, card, rounds, seed+uint64(i))
		t.Logf("%-10s %v: exact %+.5f%%, simulated %+.5f%% ± %.5f%% (%d rounds), %.1f SE", c.name, c.opts,
			100*res.TD.EV, 100*mean, 100*se, rounds, (mean-res.TD.EV)/se)
		if math.Abs(mean-res.TD.EV) > 3*se {
			t.Errorf("%s %v: simulation %.5f ± %.5f disagrees with the exact %.5f", c.name, c.opts, mean, se, res.TD.EV)
		}
	}
}

// VE-12 read by the letter (resplit_hands=first): only the first split
// hand's card makes a new hand, a chain of its own in splitValue. The
// exact analysis agrees with the simulation, which plays the rule on the
// engine's order, at venice under both readings and at spain (up to 7
// hands, where the first hand's chain runs longest).
func TestMonteCarloAgrees_VE12(t *testing.T) {
	t.Parallel() // pure computation on its own profiles: the package's long checks side by side
	rounds := 2_000_000
	if testing.Short() {
		rounds = 300_000
	}
	monteCarlo(t, []monteCarloCase{
		{"venice", []string{"resplit_hands=any"}},
		{"venice", []string{"resplit_hands=first"}},
		{"spain", []string{"resplit_hands=first"}},
	}, rounds, 201)
}

// VE-12: the first hand alone splitting again is worth less than either
// hand doing it, and the same where one split is all (max_hands=2).
func TestResplitFirstPrices_VE12(t *testing.T) {
	for _, c := range []struct {
		name  string
		opts  []string
		equal bool
	}{
		{"venice", nil, false},
		{"spain", nil, false},
		{"venice", []string{"max_hands=2"}, true},
	} {
		ev := map[string]float64{}
		for _, r := range []string{"any", "first"} {
			p := rules.MustLookup(c.name)
			if err := p.SetAll(append(slices.Clone(c.opts), "resplit_hands="+r)); err != nil {
				t.Fatal(err)
			}
			res, err := Analyze(context.Background(), p, Options{})
			if err != nil {
				t.Fatal(err)
			}
			ev[r] = res.TD.EV
		}
		t.Logf("%s %v: any %+.6f%%, first %+.6f%%", c.name, c.opts, 100*ev["any"], 100*ev["first"])
		switch {
		case c.equal && math.Abs(ev["any"]-ev["first"]) > 1e-12:
			t.Errorf("%s %v: one split: any %.9f and first %.9f differ", c.name, c.opts, ev["any"], ev["first"])
		case !c.equal && !(ev["first"] < ev["any"]):
			t.Errorf("%s %v: first %.9f not below any %.9f", c.name, c.opts, ev["first"], ev["any"])
		}
	}
}
