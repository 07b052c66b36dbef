package sim

import (
	"bytes"
	"fmt"
	"hash/fnv"
	"math"
	"strings"
	"testing"

	"sabot/card"
	"sabot/engine"
	"sabot/money"
	"sabot/rules"
	"sabot/shoe"
)

// randomStrategy picks among the legal moves by a hash of everything it is
// shown: a fixed function of the decision's inputs, so that the fast path
// and the engine driver, shown the same hand, choose the same, while across
// hands it takes every move the rules allow (doubles, splits, surrenders,
// declarations, insurance, even money, challenges) often.
type randomStrategy struct{ seed string }

func (s randomStrategy) hash(a ...any) uint64 {
	h := fnv.New64a()
	fmt.Fprint(h, s.seed)
	fmt.Fprint(h, a...)
	return h.Sum64()
}

func (s randomStrategy) Play(h *Hand, up int, legal Legal, count float64) Move {
	var ms []Move
	for m := Hit; m <= Surrender; m++ {
		if legal.Has(m) {
			ms = append(ms, m)
		}
	}
	if !legal.Has(Hit) {
		ms = append(ms, None) // AR-11: go on to declare
	}
	// Hit less on high totals, so that hands end by standing as often
	// as by busting.
	x := s.hash(h.Count, h.Pair, h.Split, h.Hands, up, legal, math.Floor(count))
	m := ms[x%uint64(len(ms))]
	if m == Hit && h.Count.Total() >= 17 && legal.Has(Stand) && x&0x300 != 0 {
		m = Stand
	}
	return m
}

func (s randomStrategy) Declare(h *Hand, up int, count float64) int {
	if s.hash("declare", h.Count, up, math.Floor(count))&1 == 0 {
		return 1
	}
	return 11
}

func (s randomStrategy) Insure(up int, bj bool, count float64) bool {
	return s.hash("insure", up, bj, math.Floor(count))&1 == 0
}

func (s randomStrategy) EvenMoney(up int, count float64) bool {
	return s.hash("even", up, math.Floor(count))%3 == 0
}

func (s randomStrategy) Challenge(up int, count float64) bool {
	return s.hash("challenge", up, math.Floor(count))&1 == 0
}

// driver plays rounds through the checked engine (engine.Round.Act) on a
// real shoe.Shoe, as a table service would: it asks the same strategy at
// every decision the engine offers, keeps the count from the events a
// player sees (face-up cards and reveals), and runs the shoe procedure
// between rounds.
type driver struct {
	t    *testing.T
	p    *rules.Profile
	cfg  *Config
	s    *shoe.Shoe
	r    *engine.Round
	tag  [256]int32
	rc   int32
	in   bool
	seen int
	bank int

	x, w, bx int64
}

func newDriver(t *testing.T, cfg *Config, seed shoe.Seed) *driver {
	p := cfg.Profile
	dr := &driver{t: t, p: p, cfg: cfg, s: shoe.New(p.Decks, seed), r: engine.New(p)}
	if cfg.Count != nil {
		dr.tag = cfg.Count.tagTable()
	}
	dr.shuffle()
	return dr
}

func (dr *driver) shuffle() {
	if _, err := dr.s.Prepare(dr.p.ShoeProcedure(), 0); err != nil {
		dr.t.Fatal(err)
	}
	dr.rc = 0
	if dr.cfg.Count != nil && !dr.cfg.Count.Balanced {
		dr.rc = int32(dr.cfg.Count.IRCConst + dr.cfg.Count.IRCPerDeck*dr.p.Decks)
	}
	dr.in = !dr.cfg.Wong.HasIn
	dr.bank = 0
}

func (dr *driver) count() float64 {
	if dr.cfg.Count == nil {
		return 0
	}
	if !dr.cfg.Count.Balanced {
		return float64(dr.rc)
	}
	// The exact true count (the default) is running·52/cards left.
	return dr.cfg.TrueCount.Of(int(dr.rc), dr.s.Remaining())
}

// see counts the cards the round has shown since last time.
func (dr *driver) see() {
	ev := dr.r.Events()
	for _, e := range ev[dr.seen:] {
		switch {
		case e.Kind == engine.EvCard && !e.FaceDown, e.Kind == engine.EvReveal:
			dr.rc += dr.tag[e.Card]
		}
	}
	dr.seen = len(ev)
}

func (dr *driver) act(a engine.Action) {
	if err := dr.r.Act(a); err != nil {
		dr.t.Fatalf("the engine refuses the simulator's decision %v: %v", a, err)
	}
}

func mine(player string) bool { return strings.HasPrefix(player, "me") }

func (dr *driver) stratFor(player string) (Strategy, float64) {
	if mine(player) || strings.HasPrefix(player, "back") {
		return dr.cfg.Strategy, dr.count()
	}
	return dr.cfg.OthersStrategy, 0
}

// round plays one round.
func (dr *driver) round() {
	cfg, r := dr.cfg, dr.r
	count := dr.count()
	if cfg.Count != nil {
		if dr.in && cfg.Wong.HasOut && count < cfg.Wong.Out {
			dr.in = false
		}
		if !dr.in && cfg.Wong.HasIn && count >= cfg.Wong.In {
			dr.in = true
		}
	}
	r.Reset(dr.s)
	dr.seen = 0
	box := 0
	if dr.in {
		units := int64(1)
		if cfg.Count != nil && len(cfg.Ramp.Steps) > 0 {
			units = cfg.Ramp.Units(count)
		}
		for i := 0; i < cfg.Boxes; i++ {
			box++
			must(dr.t, r.PlaceBet("me", box, money.Amount(units*cfg.Unit)))
			for j := 1; j <= cfg.BackBets; j++ {
				must(dr.t, r.PlaceBet(fmt.Sprintf("back%d", j), box, money.Amount(units*cfg.Unit)))
			}
		}
	}
	others := cfg.Others
	if !dr.in && others == 0 {
		others = 1
	}
	for i := 0; i < others; i++ {
		box++
		must(dr.t, r.PlaceBet(fmt.Sprintf("other%d", box), box, money.Amount(cfg.Unit)))
	}
	must(dr.t, r.Start())
	var buf []engine.Action
	for r.Phase() != engine.Done {
		dr.see()
		up := r.Dealer().Cards()[0].Value()
		switch r.Phase() {
		case engine.ChallengeWindow:
			var want []engine.Action
			for _, a := range r.LegalActions(buf[:0]) {
				if a.Kind == engine.Challenge {
					s, c := dr.stratFor(a.Player)
					if s.Challenge(up, c) {
						want = append(want, a)
					}
				}
			}
			for _, a := range want {
				if r.Phase() == engine.ChallengeWindow {
					dr.act(a)
				}
			}
			if r.Phase() == engine.ChallengeWindow {
				dr.act(engine.Action{Kind: engine.Close})
			}
		case engine.InsuranceWindow:
			var want []engine.Action
			for _, b := range r.Bets() {
				if b.Kind != engine.MainBet {
					continue
				}
				s, c := dr.stratFor(b.Player)
				em := engine.Action{Kind: engine.EvenMoney, Player: b.Player, Box: b.Box, Hand: 1}
				ins := engine.Action{Kind: engine.Insure, Player: b.Player, Box: b.Box, Hand: 1, Stake: b.Stake / 2}
				bj := r.Hands(b.Box)[0].Count.TwoCard21()
				switch {
				case r.Legal(em) && s.EvenMoney(up, c):
					want = append(want, em)
				case r.Legal(ins) && s.Insure(up, bj, c):
					want = append(want, ins)
				}
			}
			for _, a := range want {
				if r.Phase() == engine.InsuranceWindow {
					dr.act(a)
				}
			}
			if r.Phase() == engine.InsuranceWindow {
				dr.act(engine.Action{Kind: engine.Close})
			}
		case engine.FollowWindow:
			var want []engine.Action
			for _, a := range r.LegalActions(buf[:0]) {
				if a.Kind != engine.Close && cfg.BackFollow {
					want = append(want, a)
				}
			}
			for _, a := range want {
				if r.Phase() == engine.FollowWindow {
					dr.act(a)
				}
			}
			if r.Phase() == engine.FollowWindow {
				dr.act(engine.Action{Kind: engine.Close})
			}
		case engine.AceChoice:
			b, hn := r.Current()
			s, c := dr.stratFor(r.Holder(b))
			v := dr.view(b, hn)
			dr.act(engine.Action{Kind: engine.Declare, Player: r.Holder(b), Box: b, Hand: hn, Value: s.Declare(&v, up, c)})
		case engine.Playing:
			b, hn := r.Current()
			holder := r.Holder(b)
			s, c := dr.stratFor(holder)
			legal, canDeclare := legalOf(r.LegalActions(buf[:0]))
			v := dr.view(b, hn)
			m := s.Play(&v, up, legal, c)
			a := engine.Action{Player: holder, Box: b, Hand: hn}
			switch {
			case !legal.Has(m) && canDeclare: // AR-11
				a.Kind, a.Value = engine.Declare, s.Declare(&v, up, c)
			case !legal.Has(m) && !legal.Has(Hit) && legal.Has(Stand):
				// ES-09: split Aces that take one card, a new pair
				// that may split again: the strategy declines.
				a.Kind = engine.Stand
			case !legal.Has(m) && !legal.Has(Hit):
				a.Kind = engine.Split // (nor may it stand)
			case m == Hit:
				a.Kind = engine.Hit
			case m == Stand:
				a.Kind = engine.Stand
			case m == Double:
				a.Kind = engine.Double
			case m == Split:
				a.Kind = engine.Split
			case m == Surrender:
				a.Kind = engine.Surrender
			default:
				dr.t.Fatalf("strategy answered %v, legal %b", m, legal)
			}
			dr.act(a)
		}
	}
	dr.see()
	dr.x, dr.w, dr.bx = 0, 0, 0
	for _, b := range r.Bets() {
		switch {
		case mine(b.Player):
			dr.x += int64(b.Net)
			if b.Kind == engine.MainBet {
				dr.w += int64(b.Stake)
			}
		case strings.HasPrefix(b.Player, "back"):
			dr.bx += int64(b.Net)
		}
	}
	void, _ := r.Void()
	if void { // only an even money paid stays (ES-10, VE-16: final before the void)
		dr.w = 0
		for _, b := range r.Bets() {
			if mine(b.Player) && b.Result == rules.EvenMoneyPaid {
				dr.w += int64(b.Stake)
			}
		}
	}
	ranOut := void && !r.LastRound()
	if dr.p.Collected != rules.DiscardTray && !ranOut {
		dr.s.Collect(r.Record().Cards...)
	}
	dr.bank++
	bj := false
	for _, b := range r.Boxes() {
		hs := r.Hands(b)
		bj = bj || len(hs) == 1 && hs[0].Count.TwoCard21()
	}
	switch {
	case ranOut, r.LastRound():
		dr.shuffle()
	case dr.p.Collected == rules.UnderFaceDown && dr.p.BankRotates && (bj || dr.p.BankRounds > 0 && dr.bank >= dr.p.BankRounds):
		dr.shuffle()
	}
}

func (dr *driver) view(b, hn int) Hand {
	hs := dr.r.Hands(b)
	h := hs[hn-1]
	v := Hand{Count: h.Count, Split: h.Split(), Hands: len(hs)}
	cs := h.Cards()
	if len(cs) == 2 && cs[0].Value() == cs[1].Value() {
		v.Pair = cs[0].Value()
	}
	// VE-13: the engine offers the choice on a split ten's second card, an Ace.
	v.TenAce = dr.p.SplitTenAceChoice && h.Split() && len(cs) == 2 && cs[0].IsTen() && cs[1].IsAce()
	return v
}

func must(t *testing.T, err error) {
	t.Helper()
	if err != nil {
		t.Fatal(err)
	}
}

type agreeCase struct {
	name    string
	profile string
	options []string
	setup   func(c *Config)
	random  bool // the random strategy, else the textbook card
	rounds  int
	fast    bool // must play on the fast path (fast.go)
}

// TestAgreesWithEngine is the simulator's contract: on the same shoes (the
// deck deals what shoe.Shoe deals for the seed), with the same decisions,
// the fast path nets what the checked engine round nets, round by round,
// for every built-in profile and the exotic rules: AR-10 challenge (split
// Aces too), AR-11 declaration, AR-17 double card face down, VE-06 must
// draw, VE-11/VE-12 back bettors following or not, VE-13 Ace on a split
// ten, ES-10/VE-16 even money, ES-11/VE-15 insurance, ES-12 no hole card,
// AR-09 no peek, the US peek, late and early surrender, EG-04 void last
// round, AR-08 cards running out, FAM-03 collected cards, PON-01 five-card
// 21 and PON-02 three sevens.
func TestAgreesWithEngine(t *testing.T) {
	counting := func(c *Config) {
		c.Count = &HiLo
		c.Ramp, _ = ParseRamp("1:2,2:4,3:8,4:12")
		tab := Textbook(c.Profile.DealerHitsSoft17)
		if err := tab.LoadIndices(bytes.NewReader(Illustrious18())); err != nil {
			panic(err)
		}
		c.Strategy = tab
	}
	var cases []agreeCase
	for _, name := range rules.Names() {
		cases = append(cases,
			agreeCase{name: name + "/textbook", profile: name, rounds: 3000},
			agreeCase{name: name + "/random", profile: name, random: true, rounds: 6000},
			agreeCase{name: name + "/random-3-boxes-2-others", profile: name, random: true, rounds: 3000,
				setup: func(c *Config) { c.Boxes, c.Others = 3, 2 }},
			agreeCase{name: name + "/hi-lo-ramp-i18-wong", profile: name, rounds: 3000,
				setup: func(c *Config) { counting(c); c.Others = 1; c.Wong = Wong{Out: -1, HasOut: true} }},
			agreeCase{name: name + "/random-counting", profile: name, random: true, rounds: 3000,
				setup: func(c *Config) { c.Count = &HiLo; c.Ramp, _ = ParseRamp("0:1,2:3") }},
		)
	}
	cases = append(cases,
		agreeCase{name: "vegas-s17/wong-alone", profile: "vegas-s17", rounds: 4000,
			setup: func(c *Config) { counting(c); c.Wong = Wong{In: 1, HasIn: true, Out: 0, HasOut: true} }},
		agreeCase{name: "venice/back-bettors-follow", profile: "venice", random: true, rounds: 6000,
			setup: func(c *Config) { c.Boxes, c.BackBets, c.BackFollow = 2, 2, true }},
		agreeCase{name: "venice/back-bettors-stay", profile: "venice", random: true, rounds: 6000,
			setup: func(c *Config) { c.Boxes, c.BackBets, c.BackFollow = 2, 2, false }},
		agreeCase{name: "spain/back-bettors", profile: "spain", random: true, rounds: 4000,
			setup: func(c *Config) { c.Boxes, c.BackBets, c.BackFollow = 1, 3, true }},
		// ES-03, VE-12: the table's reading decides (back_follow), the
		// bettors' own choice (BackFollow) is never asked.
		agreeCase{name: "venice/VE-12-back-follow-follow", profile: "venice", options: []string{"back_follow=follow"}, random: true, rounds: 6000,
			setup: func(c *Config) { c.Boxes, c.BackBets, c.BackFollow = 2, 2, false }},
		agreeCase{name: "venice/VE-12-back-follow-stay", profile: "venice", options: []string{"back_follow=stay"}, random: true, rounds: 6000,
			setup: func(c *Config) { c.Boxes, c.BackBets, c.BackFollow = 2, 2, true }},
		agreeCase{name: "spain/ES-03-back-follow-follow", profile: "spain", options: []string{"back_follow=follow"}, random: true, rounds: 4000,
			setup: func(c *Config) { c.Boxes, c.BackBets, c.BackFollow = 1, 3, false }},
		agreeCase{name: "spain/ES-03-back-follow-stay", profile: "spain", options: []string{"back_follow=stay"}, random: true, rounds: 4000,
			setup: func(c *Config) { c.Boxes, c.BackBets, c.BackFollow = 1, 3, true }},
		agreeCase{name: "family/pontoon", profile: "family", options: []string{"five_card_21=true", "three_sevens=true"}, random: true, rounds: 8000},
		agreeCase{name: "family/pontoon-textbook", profile: "family", options: []string{"five_card_21=true", "three_sevens=true"}, rounds: 4000},
		agreeCase{name: "family/face-down", profile: "family", options: []string{"collected_cards=under-face-down", "bank_rounds=5"}, random: true, rounds: 4000},
		agreeCase{name: "vegas-s17/late-surrender", profile: "vegas-s17", options: []string{"surrender=late"}, random: true, rounds: 4000},
		agreeCase{name: "spain/early-surrender", profile: "spain", options: []string{"surrender=early"}, random: true, rounds: 4000},
		agreeCase{name: "vegas-h17/no-peek-takes-all", profile: "vegas-h17", options: []string{"hole_card=no-peek", "dealer_blackjack_takes=all", "resplit_aces=true", "hit_split_aces=true"}, random: true, rounds: 4000},
		agreeCase{name: "spain/resplit-one-card-aces", profile: "spain", options: []string{"resplit_aces=true"}, random: true, rounds: 6000},
		agreeCase{name: "spain/resplit-one-card-aces-textbook", profile: "spain", options: []string{"resplit_aces=true"}, rounds: 6000},
		agreeCase{name: "spain/original-bets-only", profile: "spain", options: []string{"dealer_blackjack_takes=original"}, random: true, rounds: 4000},
		agreeCase{name: "spain/last-round-void", profile: "spain", options: []string{"last_round_void=true"}, random: true, rounds: 4000},
		agreeCase{name: "argentina/deal-to-the-end", profile: "argentina", options: []string{"cut_card_reserve=0", "decks=1", "min_cut=0"}, random: true, rounds: 4000,
			setup: func(c *Config) { c.Boxes = 5 }},
		// A void for want of cards keeps an even money paid (EG-02's and
		// VE-01's reading, rules.CardsOut; ES-10, VE-16).
		agreeCase{name: "spain/deal-to-the-end-even-money-kept", profile: "spain", options: []string{"cut_card_reserve=0", "decks=1", "burn_cards=0"}, random: true, rounds: 4000,
			setup: func(c *Config) { c.Boxes = 5 }},
		agreeCase{name: "venice/deal-to-the-end-even-money-kept", profile: "venice", options: []string{"cut_card_reserve=0", "decks=1"}, random: true, rounds: 4000,
			setup: func(c *Config) { c.Boxes = 5 }},
		// AR-10 «también» read as a second challenge: a count index on
		// the challenge declines the first Ace and takes the split one at
		// times; only one who challenged the first may challenge the second.
		agreeCase{name: "argentina/fast-challenge-split-aces-after-first", profile: "argentina", options: []string{"challenge_after_first=true"}, rounds: 20000, fast: true,
			setup: func(c *Config) {
				tab := randomCard(303, false)
				for j := range tab.play[rowChallenge] {
					tab.play[rowChallenge][j] = index{has: true, at: 0, above: cY, below: cN}
				}
				tab.Indices = true
				for j := range tab.cells[rowPair+1] {
					tab.cells[rowPair+1][j] = cell{c: cP}
				}
				c.Strategy, c.Count = tab, &HiLo
			}},
		agreeCase{name: "venice/fast-deal-to-the-end-even-money-kept", profile: "venice", options: []string{"cut_card_reserve=0", "decks=1"}, rounds: 6000, fast: true,
			setup: func(c *Config) {
				tab := randomCard(302, false)
				for j := range tab.cells[rowEvenMoney] {
					tab.cells[rowEvenMoney][j] = cell{c: cY}
				}
				c.Strategy, c.Boxes = tab, 5
			}},
		agreeCase{name: "venice/stand-on-21-off", profile: "venice", options: []string{"stand_on_21=false", "must_draw_at_most=12"}, random: true, rounds: 4000},
		// AR-13 read as the dealer's Ace staying 1 once he draws
		// (dealer_ace=stays-one): Argentine, the US peek with a soft 17
		// hit, the European deal without a hole card.
		agreeCase{name: "argentina/AR-13-dealer-ace-stays-one", profile: "argentina", options: []string{"dealer_ace=stays-one"}, random: true, rounds: 8000},
		agreeCase{name: "argentina/AR-13-dealer-ace-stays-one-textbook", profile: "argentina", options: []string{"dealer_ace=stays-one"}, rounds: 6000},
		agreeCase{name: "vegas-h17/AR-13-dealer-ace-stays-one", profile: "vegas-h17", options: []string{"dealer_ace=stays-one"}, random: true, rounds: 6000},
		agreeCase{name: "venice/AR-13-dealer-ace-stays-one", profile: "venice", options: []string{"dealer_ace=stays-one"}, random: true, rounds: 6000},
		// VE-12 read by the letter (resplit_hands=first): the first
		// split hand alone splits again; four hands with Aces resplit.
		agreeCase{name: "venice/VE-12-resplit-first", profile: "venice", options: []string{"resplit_hands=first"}, random: true, rounds: 8000},
		agreeCase{name: "venice/VE-12-resplit-first-textbook", profile: "venice", options: []string{"resplit_hands=first"}, rounds: 6000},
		agreeCase{name: "spain/VE-12-resplit-first-aces", profile: "spain", options: []string{"resplit_hands=first", "resplit_aces=true", "max_hands=4"}, random: true, rounds: 6000},
		agreeCase{name: "spain/payout-unit-6:5", profile: "spain", options: []string{"blackjack_pays=6:5", "payout_unit=5", "min_bet=25"}, random: true, rounds: 4000},
		// A player's true count: the decks left estimated, the count
		// rounded (the driver counts with TrueCount.Of).
		agreeCase{name: "vegas-s17/hi-lo-i18-half-deck-floor-wong", profile: "vegas-s17", rounds: 4000, fast: true,
			setup: func(c *Config) {
				counting(c)
				c.TrueCount = TrueCount{Decks: 0.5, Round: RoundFloor}
				c.Wong = Wong{In: 1, HasIn: true, Out: 0, HasOut: true}
			}},
		agreeCase{name: "vegas-s17/random-counting-deck-truncate", profile: "vegas-s17", random: true, rounds: 4000,
			setup: func(c *Config) {
				c.Count, c.TrueCount = &HiLo, TrueCount{Decks: 1, Round: RoundTruncate}
				c.Ramp, _ = ParseRamp("0:1,2:3")
			}},
		agreeCase{name: "argentina/fast-random-table-zen-quarter-nearest-half", profile: "argentina", rounds: 6000, fast: true,
			setup: func(c *Config) {
				c.Strategy, c.Count, c.Boxes, c.Others = randomCard(300, true), &ZenCount, 2, 1
				c.TrueCount = TrueCount{Decks: 0.25, Round: RoundNearest, Step: 0.5}
				c.Ramp, _ = ParseRamp("-1:2,0.5:3,2:5")
			}},
		agreeCase{name: "vegas-s17/fast-double-card-face-down-exact-decks-floor", profile: "vegas-s17", options: []string{"double_card_face_down=true", "double_on=10-11"}, rounds: 6000, fast: true,
			setup: func(c *Config) {
				c.Strategy, c.Count, c.Boxes = randomCard(301, true), &HiLo, 3
				c.TrueCount = TrueCount{Round: RoundFloor}
				c.Ramp, _ = ParseRamp("-1:2,0.5:3,2:5")
			}},
	)
	// The fast path: every configuration of TestFastPath with a random
	// strategy card (every move, index plays, Hi-Lo with a ramp, two
	// boxes and another player), and one that insures and refuses even
	// money.
	for i, fc := range fastCases() {
		cases = append(cases,
			agreeCase{name: fc.name + "/fast-random-table-counting", profile: fc.profile, options: fc.options, rounds: 15000, fast: true,
				setup: func(c *Config) {
					c.Strategy, c.Count, c.Boxes, c.Others = randomCard(uint64(100+i), true), &HiLo, 2, 1
					c.Ramp, _ = ParseRamp("-1:2,0.5:3,2:5")
					if fc.setup != nil {
						fc.setup(c)
					}
				}},
			agreeCase{name: fc.name + "/fast-random-table-insures", profile: fc.profile, options: fc.options, rounds: 4000, fast: true,
				setup: func(c *Config) {
					tab := randomCard(uint64(200+i), false)
					for j := range tab.cells[rowInsurance] {
						tab.cells[rowInsurance][j] = cell{c: cY}
						tab.cells[rowEvenMoney][j] = cell{c: cN}
					}
					c.Strategy = tab
					if fc.setup != nil {
						fc.setup(c)
					}
				}},
		)
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			p := rules.MustLookup(tc.profile)
			must(t, p.SetAll(tc.options))
			cfg := Config{Profile: p, Rounds: 1, exactShoe: true}
			if tc.random {
				cfg.Strategy = randomStrategy{tc.name}
			}
			if tc.setup != nil {
				tc.setup(&cfg)
			}
			must(t, cfg.normalize())
			if tc.fast && newTable(&cfg).fp == nil {
				t.Fatal("not on the fast path")
			}
			agree(t, &cfg, tc.rounds)
		})
	}
}

func agree(t *testing.T, cfg *Config, rounds int) {
	const seed = 42
	tab := newTable(cfg)
	tab.d.reseed(seedChunk(seed, 0))
	tab.shuffle()
	dr := newDriver(t, cfg, seedChunk(seed, 0))
	var voids, shoes int
	for i := 0; i < rounds; i++ {
		playing := tab.seat()
		tab.round()
		dr.round()
		if tab.x != dr.x || tab.w != dr.w || tab.bx != dr.bx {
			rec := dr.r.Record()
			t.Fatalf("round %d (playing %v): fast path nets %d on %d (back %d), engine %d on %d (back %d)\ncards %s\nactions %v",
				i, playing, tab.x, tab.w, tab.bx, dr.x, dr.w, dr.bx, card.Format(rec.Cards), rec.Actions)
		}
		if tab.d.remaining() != dr.s.Remaining() {
			t.Fatalf("round %d: %d cards left in the fast deck, %d in the shoe", i, tab.d.remaining(), dr.s.Remaining())
		}
		if cfg.Count != nil && tab.rc != dr.rc {
			t.Fatalf("round %d: running count %d on the fast path, %d seen by the driver", i, tab.rc, dr.rc)
		}
		if tab.void {
			voids++
		}
		if dr.s.Remaining() == 52*cfg.Profile.Decks-cfg.Profile.BurnCards {
			shoes++
		}
	}
	path := "general"
	if tab.fp != nil {
		path = "fast"
	}
	t.Logf("%d rounds agree on the %s path (%d void, %d shoes)", rounds, path, voids, shoes)
}
