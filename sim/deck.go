package sim

import (
	"encoding/binary"
	"math/bits"
	mrand "math/rand/v2"

	"sabot/card"
	"sabot/rules"
	"sabot/shoe"
)

// deck is the simulator's dealing shoe. It runs the profile's shoe procedure
// exactly as shoe.Shoe does (shoe.Prepare: shuffle, the player's cut, the cut
// card, the burns; FAM-03 collection) and deals, for the same seed, the same
// cards in the same order: TestDeckMatchesShoe holds it to that. It differs
// only in cost: no allocation, no interface or closure per card, and padding
// after the last card so that a draw never fails inside a round (a round that
// reads the padding ran out of cards and is void, AR-08).
//
// In continuous-shuffle mode every round starts from the whole shoe and each
// draw takes a uniformly random card of those not yet dealt.
//
// Collected cards (FAM-03) go under the deck without being copied: a round's
// cards, buf[pos-k:pos] when it ends, are the shoe's next k cards after
// buf[:n] (n grows by k), and since every round between two shuffles is
// collected, the cards from laid to n are those dealt lag = n−pos cards
// before them, buf[i] = buf[i-lag]. They are laid (copied, and shuffled when
// they were collected face up) when the deal reaches them, and the live
// cards moved to the front of the buffer (compacted) when enough dead ones
// lie before them.
//
// With fast set the deck draws from a wyrand generator (seeded from the
// chunk's ChaCha8 seed) and shuffles with two 32-bit bounded draws per
// 64-bit output (Lemire's method) instead of math/rand/v2's one 64-bit
// ChaCha8 draw per card: a uniform shuffle still (TestFastShuffleUniform)
// at about a sixth of the cost, but not shoe.Shoe's permutation for the
// seed. The simulator uses it; the agreement tests use the exact one.
type deck struct {
	decks int
	proc  shoe.Procedure
	csm   bool
	fast  bool

	buf   []card.Card           // buf[:n] the shoe, buf[n:n+pad] padding
	span  *[spanCards]card.Card // buf's first spanCards cards, for fisherYates
	n     int
	pos   int
	limit int // draw calls refill when pos reaches it
	cut   int // index of the first card behind the cut card; -1 none

	moved    int  // FAM-03: the dealt cards collect dropped from the front of buf since the shuffle
	laid     int  // FAM-03: buf[:laid] holds the cards, buf[laid:n] are collected cards still to lay: buf[i-lag]
	lag      int  // FAM-03: n−pos at the end of every round of the shoe
	filled   bool // continuous shuffle: the buffer holds the whole shoe
	shuffled int  // fast, discard tray: buf[:shuffled] is shuffled, the rest when the deal reaches it; -1 all

	src *mrand.ChaCha8 // exact
	wy  uint64         // fast: the wyrand state
}

// pad is more cards than any round can take once the shoe is empty: padding
// cards are ten-values, and a hand of ten-values ends within three cards.
const pad = rules.MaxBoxes*rules.MaxHands*4 + 64

func newDeck(decks int, proc shoe.Procedure, csm bool) *deck {
	d := &deck{decks: decks, proc: proc, csm: csm, cut: -1, shuffled: -1}
	n := 52 * decks
	// Collected cards (FAM-03) make the shoe run on in the buffer: after
	// collect, the cards to lay end before 3n (fewer than n dead cards,
	// n live ones, n to lay), and the padding follows them.
	d.buf = make([]card.Card, max(4*n+pad, spanCards))
	d.span = (*[spanCards]card.Card)(d.buf)
	d.n, d.laid = n, n
	return d
}

// spanCards is a power of two beyond any card the deck shuffles (buf[:n],
// n < 3·52·16: see newDeck): fisherYates indexes span masked by it, which
// changes no index and spares the bounds checks.
const spanCards = 1 << 12

// seedChunk returns the ChaCha8 seed of a chunk of rounds: every chunk has
// its own source, so the result does not depend on which worker runs it.
func seedChunk(seed uint64, chunk int) shoe.Seed {
	var s shoe.Seed
	binary.LittleEndian.PutUint64(s[0:], seed)
	binary.LittleEndian.PutUint64(s[8:], uint64(chunk))
	copy(s[16:], "sabot sim chunk")
	return s
}

// reseed sets the deck's source. A continuous shuffler starts again from
// new-deck order: a chunk's cards depend on its seed alone, not on the
// chunks the worker dealt before.
func (d *deck) reseed(s shoe.Seed) {
	d.wy = mrand.NewChaCha8(s).Uint64()
	d.src = mrand.NewChaCha8(s)
	d.filled = false
}

// wyrand constants (Wang Yi's wyhash, as the Go runtime's cheaprand).
const (
	wyInc = 0xa0761d6478bd642f
	wyMix = 0xe7037ed1a0b428db
)

// rand64 is the fast mode's generator: wyrand, a 64-bit counter mixed by
// one 64×64→128-bit multiply. It passes BigCrush and PractRand; its cost is
// about a nanosecond.
func (d *deck) rand64() uint64 {
	d.wy += wyInc
	hi, lo := bits.Mul64(d.wy, d.wy^wyMix)
	return hi ^ lo
}

// uint64n is math/rand/v2's (*Rand).uint64n on the ChaCha8 source, so that a
// shuffle here is the same permutation as shoe.Shoe's.
func (d *deck) uint64n(n uint64) uint64 {
	if n&(n-1) == 0 {
		return d.src.Uint64() & (n - 1)
	}
	hi, lo := bits.Mul64(d.src.Uint64(), n)
	if lo < n {
		thresh := -n % n
		for lo < thresh {
			hi, lo = bits.Mul64(d.src.Uint64(), n)
		}
	}
	return hi
}

// shuffle shuffles buf[from:n] as (*Rand).Shuffle does: Fisher-Yates from
// the top down.
func (d *deck) shuffle(from, n int) {
	if d.fast {
		d.shuffleFast(from, n)
		return
	}
	cs := d.buf[from:n]
	for i := len(cs) - 1; i > 0; i-- {
		j := int(d.uint64n(uint64(i + 1)))
		cs[i], cs[j] = cs[j], cs[i]
	}
}

// shuffleFast shuffles buf[from:n] uniformly: Fisher-Yates from the bottom
// up.
func (d *deck) shuffleFast(from, n int) { d.fisherYates(n, from, n) }

// fisherYates puts a uniformly random card of buf[i:n] at each position i
// from from to end: Fisher-Yates from the bottom up, stopped at end, so
// that buf[:end] is the top of a uniform shuffle of buf[from:n] and the
// rest can follow later. Each 64-bit output gives two positions
// j = i+⌊x·(n−i)/2³²⌋ of 32-bit x, rejecting the few x that would bias
// them (Lemire, "Fast random integer generation in an interval", 2019).
func (d *deck) fisherYates(n, from, end int) {
	cs := d.span // (indices masked by spanCards−1: all are below n)
	const m = spanCards - 1
	s := d.wy // a local copy keeps the state in a register
	i, left := from, uint32(n-from)
	for ; i+1 < end; i, left = i+2, left-2 {
		s += wyInc
		hi, lo := bits.Mul64(s, s^wyMix)
		r := hi ^ lo
		x := uint64(uint32(r)) * uint64(left)
		y := (r >> 32) * uint64(left-1)
		if uint32(x) < left || uint32(y) < left-1 { // rarely: maybe biased, decide by Lemire's threshold
			d.wy = s
			x = d.unbias(x, left)
			y = d.unbias(y, left-1)
			s = d.wy
		}
		j := i + int(x>>32)
		cs[i&m], cs[j&m] = cs[j&m], cs[i&m]
		j = i + 1 + int(y>>32)
		cs[(i+1)&m], cs[j&m] = cs[j&m], cs[(i+1)&m]
	}
	d.wy = s
	if i < end {
		j := i + d.bounded32(uint32(d.rand64()), uint32(n-i))
		cs[i&m], cs[j&m] = cs[j&m], cs[i&m]
	}
}

// bounded32 maps a 32-bit x to [0, n) without bias: ⌊x·n/2³²⌋, drawing
// again the few x whose low product falls below 2³² mod n.
func (d *deck) bounded32(x, n uint32) int {
	return int(d.unbias(uint64(x)*uint64(n), n) >> 32)
}

// unbias returns m = x·n for a uniform 32-bit x, drawn again while its low
// half is below 2³² mod n (Lemire's rejection).
func (d *deck) unbias(m uint64, n uint32) uint64 {
	if l := uint32(m); l < n {
		t := -n % n
		for l < t {
			m = uint64(uint32(d.rand64())) * uint64(n)
			l = uint32(m)
		}
	}
	return m
}

// prepare is shoe.Prepare with a random cut: fill in new-deck order, shuffle
// (EG-05), cut (AR-07, EG-02), place the cut card (AR-08, EG-02), burn
// (EG-03).
func (d *deck) prepare() {
	n := 52 * d.decks
	d.n, d.laid = n, n
	d.pos, d.moved = 0, 0
	d.cut = -1
	if d.csm {
		// A uniformly random pick among the cards left at each draw;
		// the buffer holds every card of the shoe in some order, after
		// the first shuffle in new-deck order. The fast deck picks a
		// few cards ahead (Fisher-Yates from the bottom up, stopped),
		// the exact one at each draw (refill).
		if !d.filled {
			for k := 0; k < d.decks; k++ {
				copy(d.buf[52*k:], newDeckOrder[:])
			}
			d.filled = true
		}
		d.limit = 0
		if d.fast {
			d.limit = min(csmAhead, n)
			d.fisherYates(n, 0, d.limit)
		}
		return
	}
	for k := 0; k < d.decks; k++ {
		copy(d.buf[52*k:], newDeckOrder[:])
	}
	// The cut card (shoe.PlaceCutCard).
	if r := d.proc.CutCardReserve; r > 0 && r < n {
		d.cut = n - r
	}
	d.shuffled, d.limit = -1, n
	if d.fast && d.proc.Collected == shoe.DiscardTray && d.cut >= 0 {
		// Behind the cut card only the last round's cards are dealt:
		// shuffle to a little past it, the rest if a round needs it
		// (refill). Fisher-Yates from the bottom up stopped anywhere
		// leaves a uniformly shuffled top.
		d.shuffled = min(d.cut+pastCut, n)
		d.fisherYates(n, 0, d.shuffled)
		d.limit = d.shuffled
	} else {
		d.shuffle(0, n)
	}
	if !d.fast {
		d.cutShoe(n)
	}
	d.pos = min(d.proc.BurnCards, n) // burns: no collected cards yet, the cut is beyond
}

// pastCut is how many cards past the cut card the fast deck shuffles at
// first: more than one round takes but in rare cases.
const pastCut = 32

// csmAhead is how many cards the fast continuous shuffler picks at a time:
// a round of one box takes about five.
const csmAhead = 8

// cutShoe is the player's cut (shoe.RandomCut, shoe.Cut, AR-07, EG-02). The
// fast deck skips it: a cut of a uniformly shuffled shoe is a uniformly
// shuffled shoe.
func (d *deck) cutShoe(n int) {
	lo, hi := d.proc.MinCut+1, n-d.proc.MinCut-1
	at := n / 2
	if hi >= lo {
		at = lo + int(d.uint64n(uint64(hi-lo+1)))
	}
	rotate(d.buf[:n], at)
}

// rotate moves the first at cards to the back.
func rotate(cs []card.Card, at int) {
	reverse(cs[:at])
	reverse(cs[at:])
	reverse(cs)
}

func reverse(cs []card.Card) {
	for i, j := 0, len(cs)-1; i < j; i, j = i+1, j-1 {
		cs[i], cs[j] = cs[j], cs[i]
	}
}

var padCard = card.New(card.Ten, card.Spades)

// newDeckOrder is card.Deck's order, the order shoe.Shoe fills a deck in.
var newDeckOrder = func() (d [52]card.Card) {
	copy(d[:], card.Deck())
	return d
}()

func (d *deck) fillPad() { copy(d.buf[d.n:d.n+pad], padding[:]) }

// padding is pad padding cards (a copy is a memmove, a loop is not).
var padding = func() (p [pad]card.Card) {
	for i := range p {
		p[i] = padCard
	}
	return p
}()

// draw deals the next card. Past the last card it deals padding; the round
// is then void (out).
func (d *deck) draw() card.Card {
	if d.pos >= d.limit {
		d.refill()
	}
	c := d.buf[d.pos]
	d.pos++
	return c
}

// at is the card at pos for a caller that keeps the position: draw's card
// when d.pos is pos.
func (d *deck) at(pos int) card.Card {
	if pos >= d.limit {
		d.pos = pos
		d.refill()
	}
	return d.buf[pos]
}

// refill handles what happens at limit: a random pick (continuous shuffle),
// the first collected card (FAM-03: the collected cards are laid, shuffled
// if they are face up, and the deal goes on), or the end of the cards.
func (d *deck) refill() {
	if d.csm {
		if d.pos == d.n {
			d.fillPad()
		}
		if d.fast {
			if d.pos >= d.n {
				d.limit = d.n + pad // out of cards (a round of a whole shoe)
				return
			}
			d.limit = min(d.pos+csmAhead, d.n)
			d.fisherYates(d.n, d.pos, d.limit)
			return
		}
		if left := d.n - d.pos; left > 1 {
			j := d.pos + int(d.uint64n(uint64(left)))
			d.buf[d.pos], d.buf[j] = d.buf[j], d.buf[d.pos]
		}
		return
	}
	if d.pos == d.shuffled && d.pos < d.n { // a long last round past the cut card
		d.fisherYates(d.n, d.shuffled, d.n)
		d.shuffled, d.limit = -1, d.n
		return
	}
	if d.pos == d.laid && d.pos < d.n {
		d.lay()
		d.limit = d.n
		return
	}
	// Out of cards: deal padding for the rest of the round. (The padding
	// is laid when it is reached: collected cards may lie there before.)
	d.fillPad()
	d.limit = d.n + pad
}

// lay lays the collected cards buf[laid:n] (FAM-03): they are the cards
// dealt lag cards before, and when they were collected face up they are
// shuffled once the deal reaches the first of them.
func (d *deck) lay() {
	copy(d.buf[d.laid:d.n], d.buf[d.laid-d.lag:d.n-d.lag])
	if d.proc.Collected == shoe.UnderFaceUp {
		d.shuffle(d.laid, d.n)
	}
	d.laid = d.n
}

// out reports whether the round dealt past the last card.
func (d *deck) out() bool { return d.pos > d.n }

// cutOut reports whether the cut card has come out (EG-04).
func (d *deck) cutOut() bool { return d.cut >= 0 && d.pos > d.cut }

// dealt is the number of cards taken from the shoe since it was shuffled,
// the burns included (the padding a void round read is not a card).
func (d *deck) dealt() int { return d.moved + min(d.pos, d.n) }

// remaining is the number of cards still in the shoe.
func (d *deck) remaining() int { return d.n - d.pos }

// collect puts the round's cards, the last k dealt (buf[pos-k:pos]), under
// the deck (shoe.Collect, FAM-03). Nothing is copied: the deck grows by k
// cards still to lay (lay), buf[i] = buf[i-lag]. The collected cards wait
// face up behind the deck's last card (laid) or face down in order.
func (d *deck) collect(k int) {
	if d.proc.Collected == shoe.DiscardTray || k == 0 {
		return
	}
	lag := d.n + k - d.pos
	if d.laid < d.n && lag != d.lag {
		// Every round of a shoe is collected: lag stays.
		panic("sim: a round of the shoe was not collected")
	}
	d.lag = lag
	d.n += k
	d.limit = d.laid
	// The live cards are buf[laid-lag:laid]: the deck's, and those the
	// cards to lay repeat. Move them to the front when as many dead
	// cards lie before them.
	if dead := d.laid - lag; dead >= lag {
		copy(d.buf, d.buf[dead:d.laid])
		d.pos -= dead
		d.moved += dead
		d.laid -= dead
		d.n -= dead
		d.limit = d.laid
		if d.cut >= 0 {
			d.cut = max(d.cut-dead, 0) // (out, it stays out)
		}
	}
	if d.n+pad > len(d.buf) { // (never: see newDeck)
		d.buf = append(d.buf, make([]card.Card, d.n+pad-len(d.buf))...)
		d.span = (*[spanCards]card.Card)(d.buf)
	}
}
