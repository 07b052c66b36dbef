package analysis

import (
	"errors"
	"fmt"
	"strings"
	"sync"

	"sabot/card"
	"sabot/rules"
)

// SplitPlay names the post-split strategy a split's value assumes.
type SplitPlay uint8

// The post-split strategies, as Eric Farmer's analyzer defines them (its
// readme.txt and BJPlayer::computeEVx; docs/analysis.md, "Post-split
// play"), and Nairn's (SplitBasic, nairn.go).
const (
	// SplitCDP1 is Farmer's CDP1: every split hand plays the first split
	// hand's optimum for its own cards (the analysis's cd; see splitValue).
	SplitCDP1 SplitPlay = iota
	// SplitBasic (nairn.go) is 1.
	_
	// SplitCDZ is Farmer's CDZ- (composition-dependent, zero memory): every
	// split hand plays as the unsplit hand of the same cards would, its
	// best option by their values from the shoe less its own cards and the
	// up card, among the options the split hand has (cdzChoice).
	SplitCDZ
	// SplitCDP is Farmer's CDP: the split hands' play is the optimum for
	// the shoe each hand's value is computed from, the number of other pair
	// cards removed varying (splitValue's D_j); see docs/analysis.md.
	SplitCDP
)

// ParseSplitPlay reads a post-split strategy name: cdz (or cdz-), cdp1,
// cdp, or exact (Nairn's exact splitting, SplitBasic).
func ParseSplitPlay(s string) (SplitPlay, error) {
	switch strings.ToLower(s) {
	case "", "cdp1":
		return SplitCDP1, nil
	case "exact", "basic":
		return SplitBasic, nil
	case "cdz", "cdz-":
		return SplitCDZ, nil
	case "cdp":
		return SplitCDP, nil
	}
	return 0, fmt.Errorf("unknown split play %q: want cdz, cdp1, cdp or exact", s)
}

func (s SplitPlay) String() string {
	switch s {
	case SplitBasic:
		return "exact"
	case SplitCDZ:
		return "cdz"
	case SplitCDP:
		return "cdp"
	}
	return "cdp1"
}

// EVOptions tune HandValues.
type EVOptions struct {
	// Removed are cards out of the shoe besides the up card and the hand:
	// other players' cards, the cards dealt from a depleted shoe.
	Removed []card.Card
	// SplitHands is the most hands a split may make (2: one split); 0
	// takes the profile's max_hands.
	SplitHands int
	// SplitPlay is the post-split strategy: SplitCDP1, SplitCDZ,
	// SplitCDP, or SplitBasic (Nairn's exact splitting).
	SplitPlay SplitPlay
}

// ActionEV is the value of one decision: its action code (as on the
// strategy card: S, H, D, P, R, with @1 or @11 for a declared Ace, AR-11)
// and its expected net per initial unit.
type ActionEV struct {
	Code string  `json:"code"`
	EV   float64 `json:"ev"`
}

// Values are the exact expectations of the decisions open to one hand
// against one up card, from a given shoe, each per initial unit and
// composition-dependent play after it (split hands: SplitPlay). Under a
// peek (hole_card=peek, an Ace or ten up) the dealer has checked for a
// blackjack before the player acts: the values are given that he has
// none (Peeked). Otherwise the dealer's blackjack is one of his outcomes
// and takes what the profile's dealer_blackjack_takes says. A nil field is
// a decision the rules do not open to the hand.
type Values struct {
	Stand     *float64 `json:"stand,omitempty"`
	Hit       *float64 `json:"hit,omitempty"`
	Double    *float64 `json:"double,omitempty"`
	Split     *float64 `json:"split,omitempty"`
	Surrender *float64 `json:"surrender,omitempty"`
	// EvenMoney is a blackjack paid 1:1 at once (ES-10, VE-16).
	EvenMoney *float64 `json:"even_money,omitempty"`
	// Insurance is the side bet's expectation per initial unit (half a unit
	// at 2:1 on a dealer blackjack, ES-11, VE-15), taken before any peek:
	// worth taking when positive. It is not one of the actions.
	Insurance *float64 `json:"insurance,omitempty"`
	// Best is the best action's name: stand, hit, double, split,
	// surrender or even_money.
	Best string `json:"best"`
	// Actions lists every decision by its code, declarations apart: under
	// AR-11 stand, hit and double above are the better of the two
	// declarations.
	Actions []ActionEV `json:"actions"`
	// Peeked says the values are given no dealer blackjack (a peek).
	Peeked bool `json:"peeked"`
	// PDealerBlackjack is the chance of a dealer blackjack given the cards
	// seen (before any peek).
	PDealerBlackjack float64 `json:"p_dealer_blackjack"`
	// Cards is the number of cards in the shoe the hand draws from (the
	// up card, the hand and the removed cards out).
	Cards int `json:"cards"`
}

// ErrHand is returned, wrapped, for a hand, up card or removal HandValues
// cannot value: a one-line reason.
var ErrHand = errors.New("hand not valued")

// HandValues values every decision open to hand (two cards or more, not bust)
// against the dealer's up card, from the profile's full shoe less the up
// card, the hand and opts.Removed: the exact expectation of each action
// per initial unit, composition-dependent play after it. It is safe for
// concurrent use and takes a few milliseconds (BenchmarkHandValues).
func HandValues(p *rules.Profile, up card.Card, hand []card.Card, opts EVOptions) (*Values, error) {
	if err := p.Validate(); err != nil {
		return nil, err
	}
	if opts.SplitHands != 0 {
		if opts.SplitHands < 1 || opts.SplitHands > rules.MaxHands {
			return nil, fmt.Errorf("%w: split hands %d: want 1 to %d", ErrHand, opts.SplitHands, rules.MaxHands)
		}
		p = p.Clone()
		p.MaxHands = opts.SplitHands
		if err := p.Validate(); err != nil {
			return nil, err
		}
	}
	if !up.Valid() {
		return nil, fmt.Errorf("%w: no dealer up card", ErrHand)
	}
	if len(hand) < 2 {
		return nil, fmt.Errorf("%w: a hand has two cards or more, not %d", ErrHand, len(hand))
	}
	u := kindOf(up.Rank())
	shoe := FullShoe(p)
	var comp pack
	take := func(c card.Card, what string) error {
		if !c.Valid() {
			return fmt.Errorf("%w: %s: not a card", ErrHand, what)
		}
		k := kindOf(c.Rank())
		if shoe[k] == 0 {
			return fmt.Errorf("%w: the %d-deck shoe has no %s left for the %s (up card, hand and removed cards together)", ErrHand, p.Decks, kindName[k], what)
		}
		shoe[k]--
		return nil
	}
	if err := take(up, "up card"); err != nil {
		return nil, err
	}
	h := hand0()
	for _, c := range hand {
		if err := take(c, "hand"); err != nil {
			return nil, err
		}
		k := kindOf(c.Rank())
		h = h.with(k)
		comp = comp.add(k)
	}
	if h.c.Bust() {
		return nil, fmt.Errorf("%w: the hand %s is bust", ErrHand, comp)
	}
	for _, c := range opts.Removed {
		if err := take(c, "removed cards"); err != nil {
			return nil, err
		}
	}
	if shoe.Total() < 1 {
		return nil, fmt.Errorf("%w: no card left in the shoe", ErrHand)
	}
	s := evSolvers.get(p, u)
	defer evSolvers.put(s)
	// Split hands resplit every pair the rules let them, as Farmer's and
	// Nairn's values do (the cd pass of Analyze may keep one instead).
	s.alwaysResplit = true
	switch opts.SplitPlay {
	case SplitBasic:
		if (p.DeclareInitialAce || p.SplitTenAceChoice) && len(hand) == 2 && pairKind(comp) >= 0 {
			return nil, fmt.Errorf("%w: exact splitting plays Nairn's basic strategy, which declares no Ace (AR-11, VE-13): use --split-play cdp1", ErrHand)
		}
		s.basicSplit = true
	case SplitCDZ:
		s.cdzSplit = true
	case SplitCDP:
		s.cdpSplit = true
	case SplitCDP1:
	default:
		return nil, fmt.Errorf("%w: unknown split play %d", ErrHand, opts.SplitPlay)
	}
	s.base = shoe
	for k := range shoe {
		s.base[k] += comp.get(k) // the solver removes the hand's cards itself
	}
	return s.handValues(h)
}

func hand0() hand { return hand{pair: -1} }

// handValues values the decisions at the unsplit hand h (its cards out of
// s.base when valued).
func (s *solver) handValues(h hand) (*Values, error) {
	v := &Values{Peeked: s.peek, PDealerBlackjack: s.pBJ(h.comp)}
	sh := s.shoe(h.comp)
	v.Cards = sh.Total()
	w := s.weight(h.comp) // W-space: P(no dealer blackjack) under a peek
	if w == 0 {
		return nil, fmt.Errorf("%w: the dealer has a blackjack for certain from this shoe", ErrHand)
	}
	add := func(code Code, ev float64) {
		v.Actions = append(v.Actions, ActionEV{Code: code.String(), EV: ev})
	}
	pbj := v.PDealerBlackjack
	if h.c.N == 2 && h.c.TwoCard21() {
		pay := s.pay.of(h.c, false, false)
		// Even money and insurance are decided before any peek: a
		// blackjack's values are not conditioned on the dealer's card.
		v.Peeked = false
		ev := (1-pbj)*pay[d18].units + pbj*pay[dBJ].units
		add(Code{Act: Stand}, ev)
		v.Stand = ptr(ev)
		em := s.p.EvenMoney == rules.EvenMoneyAceTen && s.bjUp || s.p.EvenMoney == rules.EvenMoneyAce && s.up == aceIdx
		if em {
			v.EvenMoney = ptr(1)
		}
		if s.p.Insurance && s.p.InsureBlackjack && s.up == aceIdx {
			v.Insurance = ptr(0.5 * (3*pbj - 1))
		}
		v.pickBest()
		return v, nil
	}
	if s.p.Insurance && s.up == aceIdx {
		v.Insurance = ptr(0.5 * (3*pbj - 1))
	}
	s.prefetchHand(h)
	// Stand, hit and double, for each declaration the hand must choose.
	decls := []uint8{0}
	if s.mustDeclare(h) {
		decls = []uint8{11, 1}
	}
	best := func(f **float64, x float64) {
		if *f == nil || x > **f {
			*f = ptr(x)
		}
	}
	for _, d := range decls {
		hd := h
		if d != 0 {
			hd = s.declared(h, int(d))
		}
		if s.canStand(hd) || hd.c.Total() == 21 {
			x := s.stand(hd, 0, 1)[sEV] / w
			add(Code{Act: Stand, Declare: d}, x)
			best(&v.Stand, x)
		}
		if hd.c.Total() < 21 {
			x := s.hit(hd, 0)[sEV] / w
			add(Code{Act: Hit, Declare: d}, x)
			best(&v.Hit, x)
		}
		if s.canDouble(hd) {
			x := s.double(hd, 0)[sEV] / w
			add(Code{Act: Double, Declare: d}, x)
			best(&v.Double, x)
		}
	}
	if h.c.N == 2 {
		if P := pairKind(h.comp); P >= 0 && s.maySplit(P, 1) {
			x := s.splitValue(P)[sEV] / w
			add(Code{Act: Split}, x)
			v.Split = ptr(x)
		}
		if s.p.MaySurrender(rules.HandPos{Count: h.c}) {
			// Late: after the peek, against no blackjack where there is one;
			// without a peek a dealer blackjack settles it (Settle). Early:
			// half the unit whatever the dealer holds.
			x := pbj*s.surBJ + (1-pbj)*s.surOther
			if s.peek {
				x = s.surOther
			}
			add(Code{Act: Surrender}, x)
			v.Surrender = ptr(x)
		}
	}
	v.pickBest()
	return v, nil
}

// prefetchHand computes in batches of four (dist4) the dealer's
// distributions that valuing h will stand on, as prefetchAll does for a
// whole analysis: those of h and the hands it leads to, and, for a pair,
// of the split hands with one other pair card removed.
func (s *solver) prefetchHand(h hand) {
	s.walkEpoch++
	s.walk(h, 0)
	if P := pairKind(h.comp); h.c.N == 2 && P >= 0 && s.maySplit(P, 1) {
		s.walkEpoch++
		x := pack(0).add(P)
		start := hand{split: true, pair: int8(P)}.with(P)
		sh := s.shoe(start.comp + x)
		for r := 0; r < kinds; r++ {
			if sh[r] > 0 {
				s.walk(s.draw(start, r), x)
			}
		}
	}
	s.batchFlush()
}

// pairKind is the kind of a two-card pair, -1 if comp is not one.
func pairKind(comp pack) int {
	for k := 0; k < kinds; k++ {
		if comp.get(k) == 2 {
			return k
		}
	}
	return -1
}

// pickBest names the best action; ties go to the first of stand, hit,
// double, split, surrender, even money.
func (v *Values) pickBest() {
	v.Best = ""
	var b float64
	for _, c := range []struct {
		name string
		x    *float64
	}{{"stand", v.Stand}, {"hit", v.Hit}, {"double", v.Double}, {"split", v.Split}, {"surrender", v.Surrender}, {"even_money", v.EvenMoney}} {
		if c.x != nil && (v.Best == "" || *c.x > b) {
			v.Best, b = c.name, *c.x
		}
	}
}

func ptr(x float64) *float64 { return &x }

// KindCard is a card of kind k (0 the Ace, 1-8 the Two to the Nine, 9 a
// ten-value; see ParseKind): the analysis counts cards by value only.
func KindCard(k int) card.Card { return kindCard[k] }

// evSolvers keeps the dealer's graphs by game and up card, and a few
// solvers done with, for HandValues: a call then builds no graph and
// allocates little (the solver's tables are reused, as Analyze's workers
// reuse theirs from one up card to the next).
var evSolvers solverPool

type solverPool struct {
	mu     sync.Mutex
	graphs map[graphKey]*dealerGraph
	free   []*solver
}

type graphKey struct {
	game string
	up   int
}

// maxGraphs and maxFree bound the pool: a graph takes a few kilobytes, a
// solver's tables up to a few megabytes.
const (
	maxGraphs = 256
	maxFree   = 4
)

func (sp *solverPool) get(p *rules.Profile, up int) *solver {
	k := graphKey{p.GameHash(), up}
	sp.mu.Lock()
	g := sp.graphs[k]
	var old *solver
	if n := len(sp.free); n > 0 {
		old, sp.free = sp.free[n-1], sp.free[:n-1]
	}
	sp.mu.Unlock()
	if g == nil {
		g = newDealerGraph(p, up)
		sp.mu.Lock()
		if sp.graphs == nil || len(sp.graphs) >= maxGraphs {
			sp.graphs = map[graphKey]*dealerGraph{}
		}
		sp.graphs[k] = g
		sp.mu.Unlock()
	}
	return newSolverGraph(p, up, g, old)
}

func (sp *solverPool) put(s *solver) {
	sp.mu.Lock()
	if len(sp.free) < maxFree {
		sp.free = append(sp.free, s)
	}
	sp.mu.Unlock()
}

// ParseRanks reads cards by rank: A 2-9 T J Q K or 10, each optionally followed
// by a suit letter, separated by commas or spaces (the analysis counts
// cards by value).
func ParseRanks(s string) ([]card.Card, error) {
	fields := strings.FieldsFunc(s, func(r rune) bool { return r == ' ' || r == ',' || r == '\t' })
	out := make([]card.Card, 0, len(fields))
	for _, f := range fields {
		c, err := card.Parse(f)
		if err != nil {
			k, kerr := ParseKind(strings.ToUpper(f))
			if kerr != nil {
				return nil, fmt.Errorf("unknown card %q: want a rank A 2-9 T J Q K (or 10), optionally with a suit S H D C", f)
			}
			c = KindCard(k)
		}
		out = append(out, c)
	}
	return out, nil
}
