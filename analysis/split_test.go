package analysis

import (
	"fmt"
	"math"
	"sort"
	"testing"
	"time"

	"sabot/rules"
)

// splitPlay is the decision the solver's policy takes at split hand h: for
// the CD policy the first split hand's optimum for its cards
// (splitChoice), the fixed post-split strategy whose value the split method
// computes.
func (s *solver) splitPlay(h hand) play {
	if !s.mustDeclare(h) && !s.tenAceChoice(h) && (h.c.Total() >= 21 || s.oneCard(h)) {
		return playStand
	}
	return s.splitChoice(h)
}

// bruteSplit is the exact expectation of splitting pair P against up card
// up, every hand played by the solver's post-split decisions (a fixed
// strategy of the hand's own cards and of the number of pair cards removed
// when it took its second card), pair cards resplit up to maxHands, by
// enumerating every deal: each hand's cards in turn, then the dealer's hole
// card and draws from what is left. Under a peek (an Ace or ten up) the
// hole card is dealt first and conditioned to make no blackjack, and the
// result is the expectation given that. It shares no code with the split
// method but the decisions and Settle.
func bruteSplit(t *testing.T, s *solver, P int, maxHands int) float64 {
	p := s.p
	type done struct {
		c     rules.Count
		stake float64
	}
	dealerMemo := map[[2]uint64]*[outcomes]float64{}
	// dealerDist: the dealer's outcomes from count c with shoe sh, by plain
	// recursion over the draws.
	var dealerDist func(c rules.Count, sh Counts, key pack, hole int) *[outcomes]float64
	dealerDist = func(c rules.Count, sh Counts, key pack, hole int) *[outcomes]float64 {
		mk := [2]uint64{uint64(key), uint64(hole)}
		if d, ok := dealerMemo[mk]; ok {
			return d
		}
		d := new([outcomes]float64)
		var rec func(c rules.Count, sh Counts, w float64)
		rec = func(c rules.Count, sh Counts, w float64) {
			if c.N >= 2 && !p.DealerDraws(c) {
				d[dealerClass(c)] += w
				return
			}
			n := sh.Total()
			for r := 0; r < kinds; r++ {
				if sh[r] == 0 {
					continue
				}
				q := float64(sh[r]) / float64(n)
				sh[r]--
				rec(c.Add(kindCard[r]), sh, w*q)
				sh[r]++
			}
		}
		rec(c, sh, 1)
		dealerMemo[mk] = d
		return d
	}
	settle := func(hands []done, sh Counts, removed pack, hole int) float64 {
		up := rules.Count{}.Add(kindCard[s.up])
		if hole >= 0 {
			up = up.Add(kindCard[hole])
		}
		d := dealerDist(up, sh, removed, hole)
		ev := 0.0
		for i, h := range hands {
			pay := s.pay.of(h.c, true, P == aceIdx)
			for k := 0; k < outcomes; k++ {
				u := pay[k].units * h.stake
				if pay[k].origOnly && pay[k].res < 0 {
					// dealer_blackjack_takes=original: the box's original
					// stake, on its first hand, is lost; the others are
					// returned (engine.settleBet).
					u = 0
					if i == 0 {
						u = -1
					}
				}
				ev += d[k] * u
			}
		}
		return ev
	}
	// play deals to the hands in turn. queue is the number of hands still
	// waiting for their second card, made the hands made so far.
	var play, play1 func(sh Counts, removed pack, made, queue int, hands []done, hole int) float64
	var playHand func(sh Counts, removed pack, made, queue int, hands []done, hole int, h hand) float64
	draw := func(sh Counts, f func(r int, q float64) float64) float64 {
		n := sh.Total()
		ev := 0.0
		for r := 0; r < kinds; r++ {
			if sh[r] > 0 {
				ev += f(r, float64(sh[r])/float64(n))
			}
		}
		return ev
	}
	playMemo := map[string]float64{}
	play = func(sh Counts, removed pack, made, queue int, hands []done, hole int) float64 {
		if queue == 0 {
			return settle(hands, sh, removed, hole)
		}
		// The future depends on the finished hands only through their
		// settlement keys and stakes, and which is the first hand.
		ks := make([]int, len(hands))
		for i, h := range hands {
			ks[i] = int(keyOf(h.c, true, P == aceIdx))<<2 | int(h.stake)
		}
		first := -1
		if len(ks) > 0 {
			first = ks[0]
		}
		sort.Ints(ks)
		mk := fmt.Sprint(uint64(removed), made, queue, hole, first, ks)
		if v, ok := playMemo[mk]; ok {
			return v
		}
		v := play1(sh, removed, made, queue, hands, hole)
		playMemo[mk] = v
		return v
	}
	play1 = func(sh Counts, removed pack, made, queue int, hands []done, hole int) float64 {
		start := hand{split: true, pair: int8(P)}.with(P)
		return draw(sh, func(r int, q float64) float64 {
			sh2 := sh
			sh2[r]--
			// resplit: a new hand waits; under resplit_hands=first (VE-12)
			// only while the first hand, played first, is unfinished.
			if r == P && made < maxHands && s.maySplit(P, made) && (p.ResplitHands != rules.ResplitFirst || len(hands) == 0) {
				return q * play(sh2, removed.add(r), made+1, queue+1, hands, hole)
			}
			return q * playHand(sh2, removed.add(r), made, queue-1, hands, hole, start.with(r))
		})
	}
	playHand = func(sh Counts, removed pack, made, queue int, hands []done, hole int, h hand) float64 {
		finish := func(sh Counts, removed pack, c rules.Count, stake float64) float64 {
			hs := append(append([]done(nil), hands...), done{c, stake})
			return play(sh, removed, made, queue, hs, hole)
		}
		if h.c.Bust() {
			return finish(sh, removed, h.c, 1)
		}
		switch s.splitPlay(h) {
		case playDeclare1: // AR-11, VE-13
			return playHand(sh, removed, made, queue, hands, hole, h.declare(1))
		case playDeclare11: // AR-11
			return playHand(sh, removed, made, queue, hands, hole, h.declare(11))
		case playStand:
			return finish(sh, removed, h.c, 1)
		case playDouble:
			return draw(sh, func(r int, q float64) float64 {
				sh2 := sh
				sh2[r]--
				return q * finish(sh2, removed.add(r), h.with(r).c, 2)
			})
		}
		return draw(sh, func(r int, q float64) float64 {
			sh2 := sh
			sh2[r]--
			return q * playHand(sh2, removed.add(r), made, queue, hands, hole, h.with(r))
		})
	}
	sh := s.shoe(pack(0).addN(P, 2))
	if !s.peek {
		return play(sh, 0, 2, 2, nil, -1)
	}
	// Peek: the hole card first, no blackjack.
	bj := tenIdx
	if s.up == tenIdx {
		bj = aceIdx
	}
	n := sh.Total()
	ev, w := 0.0, 0.0
	for hole := 0; hole < kinds; hole++ {
		if hole == bj || sh[hole] == 0 {
			continue
		}
		q := float64(sh[hole]) / float64(n)
		sh2 := sh
		sh2[hole]--
		ev += q * play(sh2, 0, 2, 2, nil, hole)
		w += q
	}
	return ev / w
}

// splitCase values splitting P against up, up to maxHands hands, by the
// split method and by enumeration; the CD post-split play, every new pair
// resplit. A non-nil shoe replaces the profile's full shoe (before the up
// card is dealt).
func splitCase(t *testing.T, p *rules.Profile, P, up, maxHands int, shoe *Counts) (method, exact float64) {
	t.Helper()
	p.MaxHands = maxHands
	if err := p.Validate(); err != nil {
		t.Fatal(err)
	}
	s := newSolver(p, up)
	if shoe != nil {
		s.base = *shoe
		s.base[up]--
	}
	s.alwaysResplit = true
	v := s.splitValue(P)
	method = v[sEV] / s.weight(pack(0).addN(P, 2))
	exact = bruteSplit(t, s, P, maxHands)
	return method, exact
}

// With one split the method is exact: the two hands are exchangeable under
// a post-split strategy of the hand's own cards, and by optional stopping
// the dealer's cards after the second hand are distributed as if it had
// drawn nothing. Checked on one deck, where card removal is strongest,
// against an enumeration of every deal — under a peek too (the hole card
// dealt first), which also checks the W-space conditioning.
func TestSplitOneSplitExact(t *testing.T) {
	t.Parallel() // pure computation on its own profiles: the package's long checks side by side
	p := rules.MustLookup("vegas-s17")
	p.Decks, p.CutCardReserve = 1, 0
	cases := []struct{ P, up int }{{aceIdx, 5}, {8, 0}, {7, 9}, {7, 5}, {1, 5}}
	if testing.Short() {
		cases = cases[:2]
	}
	for _, c := range cases {
		start := time.Now()
		m, e := splitCase(t, p.Clone(), c.P, c.up, 2, nil)
		t.Logf("  %v", time.Since(start))
		t.Logf("one deck, split %s,%s vs %s, one split: method %.12f exact %.12f", kindName[c.P], kindName[c.P], kindName[c.up], m, e)
		if math.Abs(m-e) > 1e-12 {
			t.Errorf("split %s vs %s: method %.15f, exact %.15f", kindName[c.P], kindName[c.up], m, e)
		}
	}
}

// splitExactCase is one split checked against the enumeration.
type splitExactCase struct {
	name    string // the rules it checks
	profile string
	opts    []string
	P, up   int
	hands   int
	shoe    *Counts // nil: one deck
}

func checkSplitExact(t *testing.T, cases []splitExactCase) {
	t.Helper()
	oneDeck := Counts{4, 4, 4, 4, 4, 4, 4, 4, 4, 16}
	for i, c := range cases {
		t.Run(fmt.Sprint(i), func(t *testing.T) {
			p := rules.MustLookup(c.profile)
			p.Decks, p.CutCardReserve, p.BurnCards, p.MinCut = 2, 0, 0, 0
			if err := p.SetAll(c.opts); err != nil {
				t.Fatal(err)
			}
			shoe := c.shoe
			if shoe == nil {
				shoe = &oneDeck
			}
			start := time.Now()
			m, e := splitCase(t, p, c.P, c.up, c.hands, shoe)
			t.Logf("%s: %d cards, split %s,%s vs %s, up to %d hands: method %.12f exact %.12f (%v)",
				c.name, shoe.Total(), kindName[c.P], kindName[c.P], kindName[c.up], c.hands, m, e, time.Since(start).Round(time.Millisecond))
			if math.Abs(m-e) > 1e-12 {
				t.Errorf("%s: split %s vs %s to %d hands: method %.15f, exact %.15f", c.name, kindName[c.P], kindName[c.up], c.hands, m, e)
			}
		})
	}
}

// With resplits the method is exact too, for the post-split strategy of the
// hand's own cards (the first split hand's optimum), whatever the other
// hands drew. Checked on one deck, where card removal is strongest, against
// the enumeration of every deal: resplitting tens too, which the "pair cards
// removed" approximation got wrong by 0.007 (3 hands) and 0.013 (4 hands)
// per unit (Nairn 2009, "Exact calculation of expected values for
// splitting pairs in blackjack", found the same of such approximations).
func TestSplitResplitExact(t *testing.T) {
	t.Parallel() // pure computation on its own profiles: the package's long checks side by side
	cases := []splitExactCase{
		{name: "vegas-s17", profile: "vegas-s17", P: 7, up: 5, hands: 3},
		{name: "vegas-s17", profile: "vegas-s17", P: 8, up: 5, hands: 3},
		{name: "vegas-s17", profile: "vegas-s17", P: tenIdx, up: 5, hands: 3},
		{name: "vegas-s17", profile: "vegas-s17", P: 7, up: 5, hands: 4},
		{name: "vegas-s17", profile: "vegas-s17", P: tenIdx, up: 5, hands: 4},
		{name: "vegas-s17, peek, resplit_aces", profile: "vegas-s17", opts: []string{"resplit_aces=true"}, P: aceIdx, up: tenIdx, hands: 4},
		{name: "vegas-s17, resplit_aces", profile: "vegas-s17", opts: []string{"resplit_aces=true"}, P: aceIdx, up: 5, hands: 4},
		{name: "vegas-h17, no DAS", profile: "vegas-h17", opts: []string{"double_after_split=false"}, P: 8, up: 4, hands: 4},
	}
	if testing.Short() {
		cases = cases[:3]
	}
	checkSplitExact(t, cases)
}

// Every built-in profile's splitting rules, exact against the enumeration:
// spain's seven hands with no hole card (ES-09, ES-12), venice's three with
// an Ace on split tens counted 1 or 11 and one card to split Aces (VE-12,
// VE-13, VE-14), argentina's one split with split Aces drawing, split
// blackjacks and declared Aces (AR-11, AR-18, AR-19), and a dealer
// blackjack that takes the original stake only, once for the box
// (dealer_blackjack_takes=original, AR-15's alternative), with resplits.
func TestSplitExactProfiles(t *testing.T) {
	t.Parallel() // pure computation on its own profiles: the package's long checks side by side
	// Smaller shoes keep the enumeration of seven hands short; the method
	// is exact for any shoe.
	tens := Counts{3, 3, 3, 3, 3, 3, 3, 3, 3, 12}
	eights := Counts{2, 2, 2, 2, 2, 2, 2, 8, 2, 16}
	cases := []splitExactCase{
		{name: "venice VE-12 VE-13", profile: "venice", P: tenIdx, up: 5, hands: 3},
		{name: "venice VE-14", profile: "venice", P: aceIdx, up: 5, hands: 3},
		{name: "argentina AR-11 AR-18 AR-19", profile: "argentina", P: 5, up: tenIdx, hands: 2},
		{name: "argentina AR-11 AR-18 AR-19", profile: "argentina", P: aceIdx, up: 5, hands: 2},
		{name: "venice VE-12 VE-13", profile: "venice", P: tenIdx, up: aceIdx, hands: 3},
		{name: "spain ES-09 ES-12, dealer_blackjack_takes=original", profile: "spain", opts: []string{"dealer_blackjack_takes=original"}, P: 7, up: aceIdx, hands: 5, shoe: &eights},
		{name: "vegas-s17, no-peek, dealer_blackjack_takes=original", profile: "vegas-s17", opts: []string{"hole_card=no-peek", "dealer_blackjack_takes=original"}, P: 7, up: tenIdx, hands: 4, shoe: &eights},
		{name: "spain ES-09 ES-12", profile: "spain", P: tenIdx, up: 5, hands: 7, shoe: &tens},
	}
	if testing.Short() {
		cases = cases[:4]
	}
	checkSplitExact(t, cases)
}

// VE-12 read by the letter (resplit_hands=first): only the first split
// hand, dealt the third card, splits again; exact against the enumeration
// of every deal in the engine's order (the first hand played out first),
// at venice (3 hands, tens and 9s, an Ace up without a hole card), with
// dealer_blackjack_takes=original, and to 4 and 7 hands where the first
// hand's chain runs on.
func TestSplitResplitFirstExact_VE12(t *testing.T) {
	t.Parallel() // pure computation on its own profiles: the package's long checks side by side
	tens := Counts{3, 3, 3, 3, 3, 3, 3, 3, 3, 12}
	eights := Counts{2, 2, 2, 2, 2, 2, 2, 8, 2, 16}
	first := []string{"resplit_hands=first"}
	cases := []splitExactCase{
		{name: "venice first", profile: "venice", opts: first, P: tenIdx, up: 5, hands: 3},
		{name: "venice first", profile: "venice", opts: first, P: 8, up: 5, hands: 3},
		{name: "vegas-s17 first", profile: "vegas-s17", opts: first, P: 7, up: 5, hands: 4},
		{name: "vegas-s17 first, no-peek, original", profile: "vegas-s17", opts: []string{"resplit_hands=first", "hole_card=no-peek", "dealer_blackjack_takes=original"}, P: 7, up: tenIdx, hands: 4, shoe: &eights},
		{name: "vegas-s17 first, resplit_aces", profile: "vegas-s17", opts: []string{"resplit_hands=first", "resplit_aces=true"}, P: aceIdx, up: 5, hands: 4},
		{name: "spain first", profile: "spain", opts: first, P: tenIdx, up: 5, hands: 7, shoe: &tens},
		{name: "venice first", profile: "venice", opts: first, P: 8, up: aceIdx, hands: 3},
	}
	if testing.Short() {
		cases = cases[:4]
	}
	checkSplitExact(t, cases)
}
