package sim

import (
	"math/bits"
	"runtime"
	"testing"

	"sabot/card"
	"sabot/rules"
)

// bareGame is the reference the fast path's speed is measured against:
// vegas-s17 with one box and a strategy card, played by the simplest loop
// we could write that plays the same game. Its rules are written in, not
// read from the profile: six decks, a burn card, the cut card 78 cards from
// the end (a round starting with 234 cards out of the shoe is the last),
// peek, dealer stands on soft 17, double on any two cards and after a
// split, split to four hands, split Aces once with one card each, a
// blackjack paid 3:2, no surrender, and insurance and even money declined
// (a basic strategy declines them: newBareGame checks). Cards are values
// 1..10; the shoe is reshuffled in place, Fisher–Yates over every card
// with one wyrand output a card; the statistics are the sums of the net
// and of its square. TestBareLoopAgrees holds it to the fast path round
// for round on the same cards; BenchmarkBareLoop measures it.
type bareGame struct {
	shoe [6 * 52]uint8
	pos  int
	wy   uint64

	// The strategy by up card (1..10): two-card hands by hard or soft
	// total (not pairs), pairs by value that may split and that may not,
	// and hands of three cards or more (hit or stand).
	hard2, soft2 [22][11]Move
	pair, pairNo [11][11]Move
	hardN, softN [22][11]Move

	n      int64 // rounds
	x, xx  int64 // net in half units, and its square
	shoes  int64
	dealtN int64 // cards out of the shoe at the shuffles
}

const (
	bareCut      = 6*52 - 78 // a round starting with more cards out is not dealt
	bareMaxHands = 4
)

func newBareGame(t *StrategyCard, seed uint64) *bareGame {
	g := &bareGame{wy: seed}
	for i := range g.shoe {
		g.shoe[i] = uint8(min(i%13+1, 10))
	}
	ace := card.New(card.Ace, card.Spades)
	for up := 1; up <= 10; up++ {
		if t.Insure(up, false, 0) || t.Insure(up, true, 0) || t.EvenMoney(up, 0) {
			panic("bare loop: the strategy insures")
		}
		two := Legal(0).With(Hit).With(Stand).With(Double)
		for tot := 4; tot <= 21; tot++ {
			// A hard total of two cards as the fast path shows it.
			g.hard2[tot][up] = t.Play(&Hand{Count: rules.Count{Hard: uint8(tot), N: 2}}, up, two, 0)
			g.hardN[tot][up] = t.Play(&Hand{Count: rules.Count{Hard: uint8(tot), N: 3}}, up, Legal(0).With(Hit).With(Stand), 0)
			if tot >= 12 {
				soft := rules.Count{Hard: uint8(tot - 10), N: 2, Aces: 1}
				g.soft2[tot][up] = t.Play(&Hand{Count: soft}, up, two, 0)
				soft.N = 3
				g.softN[tot][up] = t.Play(&Hand{Count: soft}, up, Legal(0).With(Hit).With(Stand), 0)
			}
		}
		for v := 1; v <= 10; v++ {
			c := card.New(card.Rank(v), card.Spades)
			if v == 1 {
				c = ace
			}
			h := Hand{Count: rules.CountOf(c, c), Pair: v}
			g.pair[v][up] = t.Play(&h, up, two.With(Split), 0)
			g.pairNo[v][up] = t.Play(&h, up, two, 0)
		}
	}
	g.shuffle()
	return g
}

// shuffle shuffles the shoe in place and burns one card.
func (g *bareGame) shuffle() {
	s := g.shoe[:]
	for i := len(s) - 1; i > 0; i-- {
		g.wy += wyInc
		hi, lo := bits.Mul64(g.wy, g.wy^wyMix)
		j := int(uint64(uint32(hi^lo)) * uint64(i+1) >> 32)
		s[i], s[j] = s[j], s[i]
	}
	g.pos = 1
	g.shoes++
}

// play deals rounds.
func (g *bareGame) play(rounds int) {
	for r := 0; r < rounds; r++ {
		net, used := g.round(g.shoe[g.pos:])
		g.pos += used
		g.n++
		g.x += int64(net)
		g.xx += int64(net * net)
		if g.pos > bareCut {
			g.dealtN += int64(g.pos)
			g.shuffle()
		}
	}
}

// bareHand is a player's hand: the hard total (Aces 1), an Ace, the cards.
type bareHand struct {
	hard, n, first   int
	ace, doubled, sa bool // sa: a split Ace
}

func (h *bareHand) total() int {
	if h.ace && h.hard <= 11 {
		return h.hard + 10
	}
	return h.hard
}

// round plays one round off the top of cs and returns the player's net in
// half units and the cards it took.
func (g *bareGame) round(cs []uint8) (net, used int) {
	p1, up, p2, hole := int(cs[0]), int(cs[1]), int(cs[2]), int(cs[3])
	i := 4
	dealerBJ := up+hole == 11 && (up == 1 || hole == 1)
	playerBJ := p1+p2 == 11 && (p1 == 1 || p2 == 1)
	switch {
	case dealerBJ && playerBJ:
		return 0, i
	case dealerBJ:
		return -2, i
	case playerBJ:
		return 3, i
	}
	var hs [bareMaxHands]bareHand
	hs[0] = bareHand{hard: p1 + p2, n: 2, first: p1, ace: p1 == 1 || p2 == 1}
	nh, live := 1, false
	for k := 0; k < nh; k++ {
		h := &hs[k]
		if h.n == 1 { // a split hand's second card
			c := int(cs[i])
			i++
			h.hard += c
			h.n = 2
			h.ace = h.ace || c == 1
			if h.sa {
				live = true // one card each: it stands
				continue
			}
		}
		var m Move
		switch t := h.total(); {
		case t == 21:
			m = Stand
		case h.hard == 2*h.first && nh < bareMaxHands && !h.sa:
			m = g.pair[h.first][up]
		case h.hard == 2*h.first:
			m = g.pairNo[h.first][up]
		case h.ace && h.hard <= 11:
			m = g.soft2[t][up]
		default:
			m = g.hard2[t][up]
		}
		switch m {
		case Split:
			aces := h.first == 1
			hs[nh] = bareHand{hard: h.first, n: 1, first: h.first, ace: aces, sa: aces}
			*h = bareHand{hard: h.first, n: 1, first: h.first, ace: aces, sa: aces}
			nh++
			k-- // the same hand again, for its second card
			continue
		case Double:
			c := int(cs[i])
			i++
			h.hard += c
			h.ace = h.ace || c == 1
			h.n++
			h.doubled = true
		case Hit:
			for {
				c := int(cs[i])
				i++
				h.hard += c
				h.ace = h.ace || c == 1
				h.n++
				t := h.total()
				if t > 21 {
					break
				}
				if h.ace && h.hard <= 11 {
					if g.softN[t][up] != Hit {
						break
					}
				} else if g.hardN[t][up] != Hit {
					break
				}
			}
		}
		live = live || h.hard <= 21
	}
	// The dealer plays if a hand stands (S17), and settles.
	d, dace := up+hole, up == 1 || hole == 1
	dt := d
	if dace && d <= 11 {
		dt = d + 10
	}
	if live {
		for dt < 17 {
			c := int(cs[i])
			i++
			d += c
			dace = dace || c == 1
			dt = d
			if dace && d <= 11 {
				dt = d + 10
			}
		}
	}
	for k := 0; k < nh; k++ {
		h := &hs[k]
		stake := 2
		if h.doubled {
			stake = 4
		}
		switch t := h.total(); {
		case t > 21:
			net -= stake
		case dt > 21 || t > dt:
			net += stake
		case t < dt:
			net -= stake
		}
	}
	return net, i
}

// TestBareLoopAgrees holds the bare loop to the fast path round for round:
// on the same cards the same net and the same number of cards, over
// 200 000 rounds of the fast path on its exact deck.
func TestBareLoopAgrees(t *testing.T) {
	tab := Textbook(false)
	cfg := Config{Profile: rules.MustLookup("vegas-s17"), Rounds: 1, Strategy: tab, exactShoe: true}
	if err := cfg.normalize(); err != nil {
		t.Fatal(err)
	}
	tb := newTable(&cfg)
	if tb.fp == nil {
		t.Fatal("not on the fast path")
	}
	g := newBareGame(tab, 1)
	tb.d.reseed(seedChunk(3, 0))
	tb.shuffle()
	var cs [6 * 52]uint8
	splits, doubles := 0, 0
	for r := 0; r < 200_000; r++ {
		tb.seat()
		d := tb.d
		start, shoes := d.pos, tb.shoes
		for i, c := range d.buf[start:d.n] {
			cs[i] = uint8(c.Value())
		}
		want, used := g.round(cs[:d.n-start])
		tb.playFast()
		if !tb.fb[0].mine {
			t.Fatal("the player does not bet")
		}
		took := d.pos - start
		if tb.shoes != shoes { // reshuffled: the cards the round took are gone
			took = -1
		}
		if got := 2 * tb.x / cfg.Unit; got != int64(want) || 2*tb.x%cfg.Unit != 0 || took >= 0 && took != used {
			t.Fatalf("round %d: fast path nets %d half units in %d cards, bare loop %d in %d", r, got, took, want, used)
		}
		if tb.fb[0].n > 1 {
			splits++
		}
		if tb.fb[0].hands[0].doubled {
			doubles++
		}
	}
	if splits < 1000 || doubles < 5000 {
		t.Errorf("%d splits and %d doubles: the rounds do not try the bare loop", splits, doubles)
	}
}

// BenchmarkBareLoop is the reference of BenchmarkSim/vegas-s17: the same
// game (one box, the textbook card, the profile's shoe) by the bare loop.
//
//	go test ./sim -run '^$' -bench 'BareLoop|Sim$/^vegas-s17$' -count 6
func BenchmarkBareLoop(b *testing.B) {
	g := newBareGame(Textbook(false), 1)
	g.play(1000)
	runtime.LockOSThread()
	defer runtime.UnlockOSThread()
	b.ReportAllocs()
	b.ResetTimer()
	cpu0 := threadCPU()
	g.play(b.N)
	cpu := threadCPU() - cpu0
	b.ReportMetric(float64(b.N)/b.Elapsed().Seconds(), "rounds/s")
	b.ReportMetric(float64(cpu.Nanoseconds())/float64(b.N), "cpu-ns/round")
}
