package sim

import (
	"bytes"
	"fmt"
	"math"
	mrand "math/rand/v2"
	"slices"
	"strings"
	"testing"

	"sabot/rules"
)

// randomCard is a strategy card with a random code in every cell (every
// code its row allows, empty cells included, @1 and @11 on the ten-ace row),
// random insurance, even-money and challenge rows, and with indices a
// random index play in about one cell in six, surrender indices included.
// It takes every move the rules allow often while staying a *StrategyCard, so
// that it plays on the fast path.
func randomCard(seed uint64, indices bool) *StrategyCard {
	r := mrand.New(mrand.NewPCG(seed, 0x5ab07))
	t := &StrategyCard{Name: fmt.Sprintf("random-%d", seed)}
	codesOf := func(row int) []code {
		switch {
		case row >= rowInsurance:
			return []code{cNone, cY, cN}
		case row == rowTenAce:
			return []code{cNone, cH, cS, cD, cDs}
		case row >= rowHardN:
			return []code{cNone, cH, cS, cS}
		case row >= rowPair:
			return []code{cNone, cH, cS, cD, cDs, cP, cP, cR, cRs, cRp}
		}
		return []code{cNone, cH, cS, cS, cD, cDs, cR, cRs}
	}
	for row := 0; row < nRows; row++ {
		cs := codesOf(row)
		for c := 0; c < 10; c++ {
			x := cell{c: cs[r.IntN(len(cs))]}
			if row == rowTenAce && r.IntN(2) == 0 {
				x.decl = 1
			}
			t.cells[row][c] = x
			if !indices || r.IntN(6) != 0 || row == rowTenAce {
				continue
			}
			e := index{has: true, at: float64(r.IntN(13)-5) / 2}
			nonEmpty := cs[1:]
			e.above, e.below = nonEmpty[r.IntN(len(nonEmpty))], nonEmpty[r.IntN(len(nonEmpty))]
			if e.above.surrender() && row < rowPair {
				t.surr[row][c] = e
			} else {
				t.play[row][c] = e
			}
			t.Indices = true
		}
	}
	return t
}

type fastCase struct {
	name    string
	profile string
	options []string
	setup   func(c *Config)
}

// fastCases are the configurations the fast path is checked on: every
// built-in profile it plays, and the options it tabulates.
func fastCases() []fastCase {
	var cases []fastCase
	for _, name := range rules.Names() {
		cases = append(cases, fastCase{name: name, profile: name})
	}
	return append(cases,
		fastCase{name: "argentina-without-challenge-and-declaration", profile: "argentina", options: []string{"challenge=false", "challenge_split_aces=false", "declare_initial_ace=false"}},
		fastCase{name: "argentina/early-surrender", profile: "argentina", options: []string{"surrender=early"}},
		fastCase{name: "argentina/must-draw-11", profile: "argentina", options: []string{"must_draw_at_most=11", "double_on=any"}},
		fastCase{name: "argentina/payout-unit", profile: "argentina", options: []string{"payout_unit=5", "min_bet=25"},
			setup: func(c *Config) { c.Unit = 35 }},
		fastCase{name: "vegas-s17/late-surrender", profile: "vegas-s17", options: []string{"surrender=late"}},
		fastCase{name: "spain/early-surrender", profile: "spain", options: []string{"surrender=early"}},
		fastCase{name: "vegas-h17/no-peek-takes-all", profile: "vegas-h17", options: []string{"hole_card=no-peek", "dealer_blackjack_takes=all", "resplit_aces=true", "hit_split_aces=true"}},
		fastCase{name: "spain/original-bets-only", profile: "spain", options: []string{"dealer_blackjack_takes=original"}},
		fastCase{name: "spain/last-round-void", profile: "spain", options: []string{"last_round_void=true"}},
		fastCase{name: "venice/stand-on-21-off", profile: "venice", options: []string{"stand_on_21=false", "must_draw_at_most=12"}},
		fastCase{name: "venice/split-blackjack-even", profile: "venice", options: []string{"split_blackjack=blackjack-even", "stand_on_21=false"}},
		// AR-19 by the letter: a split ten's blackjack paid in full, a
		// split Ace's 1:1 (split_blackjack=aces-even); at venice with the
		// VE-13 choice on the split ten's Ace.
		fastCase{name: "argentina/challenge-split-aces-after-first", profile: "argentina", options: []string{"challenge_after_first=true"}},
		fastCase{name: "argentina/dealer-plays-unless-all-bust", profile: "argentina", options: []string{"dealer_plays=unless-all-bust"}},
		fastCase{name: "argentina/AR-13-dealer-ace-stays-one", profile: "argentina", options: []string{"dealer_ace=stays-one"}},
		fastCase{name: "vegas-h17/AR-13-dealer-ace-stays-one", profile: "vegas-h17", options: []string{"dealer_ace=stays-one"}},
		fastCase{name: "venice/AR-13-dealer-ace-stays-one", profile: "venice", options: []string{"dealer_ace=stays-one"}},
		fastCase{name: "venice/VE-12-resplit-first", profile: "venice", options: []string{"resplit_hands=first"}},
		// ES-03, VE-12: the fast path plays no back bets (fastEligible),
		// so back_follow leaves it as it is.
		fastCase{name: "venice/VE-12-back-follow-stay", profile: "venice", options: []string{"back_follow=stay"}},
		fastCase{name: "spain/VE-12-resplit-first-aces", profile: "spain", options: []string{"resplit_hands=first", "resplit_aces=true", "max_hands=4"}},
		fastCase{name: "argentina/split-blackjack-aces-even", profile: "argentina", options: []string{"split_blackjack=aces-even"}},
		fastCase{name: "venice/split-blackjack-aces-even", profile: "venice", options: []string{"split_blackjack=aces-even", "stand_on_21=false"}},
		fastCase{name: "spain/payout-unit-6:5", profile: "spain", options: []string{"blackjack_pays=6:5", "payout_unit=5", "min_bet=25"}},
		fastCase{name: "family/face-down", profile: "family", options: []string{"collected_cards=under-face-down", "bank_rounds=5"}},
		fastCase{name: "vegas-s17/double-card-face-down", profile: "vegas-s17", options: []string{"double_card_face_down=true", "double_on=10-11"},
			setup: func(c *Config) { c.Boxes = 3 }},
		fastCase{name: "spain/late-surrender", profile: "spain", options: []string{"surrender=late"}},
		fastCase{name: "spain/hit-split-aces", profile: "spain", options: []string{"hit_split_aces=true"}},
		// ES-09 option: split Aces take one card, and a new pair of Aces
		// splits again (rules.MaySplit, as the engine plays it).
		fastCase{name: "spain/resplit-one-card-aces", profile: "spain", options: []string{"resplit_aces=true"}},
		fastCase{name: "vegas-s17/resplit-one-card-aces-must-draw-12", profile: "vegas-s17", options: []string{"resplit_aces=true", "must_draw_at_most=12"}},
		fastCase{name: "venice/no-must-draw", profile: "venice", options: []string{"must_draw_at_most=0"}},
		fastCase{name: "vegas-s17/no-insuring-blackjacks", profile: "vegas-s17", options: []string{"insure_blackjack=false"}},
		fastCase{name: "vegas-s17/unit-1", profile: "vegas-s17", setup: func(c *Config) { c.Unit = 1 }},
		fastCase{name: "vegas-s17/deal-to-the-end", profile: "vegas-s17", options: []string{"cut_card_reserve=0", "decks=1", "min_cut=0", "max_hands=4", "burn_cards=0"},
			setup: func(c *Config) { c.Boxes = 5 }},
	)
}

// fastStrategies are the strategies the fast path is checked with.
func fastStrategies(p *rules.Profile) []struct {
	name  string
	setup func(c *Config)
} {
	type st = struct {
		name  string
		setup func(c *Config)
	}
	return []st{
		{"textbook", func(c *Config) {}},
		{"random-table", func(c *Config) { c.Strategy = randomCard(1, false) }},
		{"random-table-insures", func(c *Config) {
			tab := randomCard(6, false)
			for i := range tab.cells[rowInsurance] {
				tab.cells[rowInsurance][i] = cell{c: cY}
				tab.cells[rowEvenMoney][i] = cell{c: cN}
			}
			c.Strategy = tab
		}},
		{"random-table-declines-insurance", func(c *Config) {
			// (One box, no count, nothing insured: the plain round.)
			tab := randomCard(11, false)
			for i := range tab.cells[rowInsurance] {
				tab.cells[rowInsurance][i] = cell{c: cN}
				tab.cells[rowEvenMoney][i] = cell{c: cN}
			}
			c.Strategy = tab
		}},
		{"random-table-2-boxes-2-others", func(c *Config) {
			c.Strategy, c.OthersStrategy, c.Boxes, c.Others = randomCard(2, false), randomCard(3, false), 2, 2
		}},
		{"random-indices-counting", func(c *Config) {
			c.Strategy, c.Count = randomCard(4, true), &HiLo
			c.Ramp, _ = ParseRamp("-1:2,0.5:3,2:5")
		}},
		{"random-indices-ko-wong-others", func(c *Config) {
			c.Strategy, c.Count, c.Others = randomCard(5, true), &KO, 1
			c.Ramp, _ = ParseRamp("0:1,2:4")
			c.Wong = Wong{In: 1, HasIn: true, Out: -2, HasOut: true}
		}},
		{"random-indices-unsorted-ramp", func(c *Config) {
			c.Strategy, c.Count = randomCard(7, true), &ZenCount
			c.Ramp = Ramp{Min: 1, Steps: []Step{{2, 4}, {-1, 2}, {1, 3}}} // Ramp.Units' order
		}},
		{"random-indices-half-deck-floor-wong", func(c *Config) {
			c.Strategy, c.Count = randomCard(8, true), &HiLo
			c.Ramp, _ = ParseRamp("-1:2,0.5:3,2:5")
			c.TrueCount = TrueCount{Decks: 0.5, Round: RoundFloor}
			c.Wong = Wong{In: 0.5, HasIn: true, Out: -1, HasOut: true}
		}},
		{"random-indices-zen-quarter-deck-nearest-half", func(c *Config) {
			c.Strategy, c.Count = randomCard(10, true), &ZenCount
			c.Ramp, _ = ParseRamp("-1:2,0.5:3,1.5:4,2:5")
			c.TrueCount = TrueCount{Decks: 0.25, Round: RoundNearest, Step: 0.5}
		}},
		// Counts that only set the stake (no index play, no wonging):
		// the plain round, counting its cards when it ends.
		{"hi-lo-ramp-plain", func(c *Config) {
			c.Strategy, c.Count = Textbook(p.DealerHitsSoft17), &HiLo
			c.Ramp, _ = ParseRamp("1:2,2:4,3:8,4:12")
			c.TrueCount = TrueCount{Round: RoundFloor}
		}},
		{"random-table-declines-insurance-zen-half-deck-ramp-plain", func(c *Config) {
			tab := randomCard(12, false)
			for i := range tab.cells[rowInsurance] {
				tab.cells[rowInsurance][i] = cell{c: cN}
				tab.cells[rowEvenMoney][i] = cell{c: cN}
			}
			c.Strategy, c.Count = tab, &ZenCount
			c.Ramp, _ = ParseRamp("-1:2,0.5:3,1.5:4,2:5")
			c.TrueCount = TrueCount{Decks: 0.5, Round: RoundNearest, Step: 0.5}
		}},
		{"ko-ramp-plain", func(c *Config) {
			c.Strategy, c.Count = Textbook(p.DealerHitsSoft17), &KO
			c.Ramp, _ = ParseRamp("0:1,2:4")
		}},
		{"hi-lo-i18-ramp", func(c *Config) {
			tab := Textbook(p.DealerHitsSoft17)
			if err := tab.LoadIndices(bytes.NewReader(Illustrious18())); err != nil {
				panic(err)
			}
			c.Strategy, c.Count = tab, &HiLo
			c.Ramp, _ = ParseRamp("1:2,2:4,3:8,4:12")
		}},
	}
}

// TestFastPath holds the fast path to the general one: on the same cards
// (each path on its own deck from the same seed, in fast and exact modes),
// round for round the same nets, stakes, running count, cards left, void
// rounds, shuffles and box results, for every configuration of fastCases
// and every strategy of fastStrategies.
func TestFastPath(t *testing.T) {
	rounds := 25_000
	if testing.Short() {
		rounds = 5_000
	}
	for _, fc := range fastCases() {
		p := rules.MustLookup(fc.profile)
		must(t, p.SetAll(fc.options))
		for _, st := range fastStrategies(p) {
			for _, exact := range []bool{false, true} {
				name := fc.name + "/" + st.name
				if exact {
					name += "/exact"
				}
				t.Run(name, func(t *testing.T) {
					t.Parallel()
					cfg := Config{Profile: p, Rounds: 1, exactShoe: exact}
					st.setup(&cfg)
					if fc.setup != nil {
						fc.setup(&cfg)
					}
					must(t, cfg.normalize())
					fast := newTable(&cfg)
					if fast.fp == nil {
						t.Fatal("not on the fast path")
					}
					slow := cfg
					slow.noFast = true
					gen := newTable(&slow)
					if gen.fp != nil {
						t.Fatal("noFast: on the fast path")
					}
					for _, tab := range []*table{fast, gen} {
						tab.d.reseed(seedChunk(9, 0))
						tab.shuffle()
					}
					compareRounds(t, fast, gen, rounds)
				})
			}
		}
	}
}

func compareRounds(t *testing.T, fast, gen *table, rounds int) {
	t.Helper()
	var voids, doubles int
	for i := 0; i < rounds; i++ {
		pf, pg := fast.seat(), gen.seat()
		if pf != pg || fast.roundCount != gen.roundCount {
			t.Fatalf("round %d: seat: playing %v count %v on the fast path, %v %v on the general", i, pf, fast.roundCount, pg, gen.roundCount)
		}
		start := gen.d.pos
		fast.round()
		gen.round()
		if fast.x != gen.x || fast.w != gen.w || fast.void != gen.void {
			t.Fatalf("round %d: fast path nets %d on %d (void %v), general %d on %d (void %v); cards %v",
				i, fast.x, fast.w, fast.void, gen.x, gen.w, gen.void, gen.d.buf[start:min(gen.d.pos, len(gen.d.buf))])
		}
		if fast.rc != gen.rc || fast.d.remaining() != gen.d.remaining() || fast.shoes != gen.shoes {
			t.Fatalf("round %d: count %d, %d left, %d shoes on the fast path; %d, %d, %d on the general",
				i, fast.rc, fast.d.remaining(), fast.shoes, gen.rc, gen.d.remaining(), gen.shoes)
		}
		if fast.playerBoxes != gen.playerBoxes || fast.blackjacks != gen.blackjacks || fast.boxWins != gen.boxWins {
			t.Fatalf("round %d: box results differ", i)
		}
		if fast.void {
			voids++
		}
		if gen.nBox > 0 && gen.gr.Hands(1)[0].Doubled() {
			doubles++
		}
	}
	if doubles == 0 {
		t.Logf("no double")
	}
	t.Logf("%d rounds agree (%d void)", rounds, voids)
}

// TestDistIndex: the branch-free rounding of the distribution is
// math.Round on every quotient 2x/unit.
func TestDistIndex(t *testing.T) {
	for _, unit := range []int64{1, 2, 3, 4, 5, 7, 10, 25, 40, 100, 1000, 12345} {
		for x := int64(-60 * unit); x <= 60*unit; x++ {
			q := 2 * float64(x) / float64(unit)
			v := int(math.Round(q))
			want := min(max(v, -distRange), distRange) + distRange
			if got := distIndex(q); got != want {
				t.Fatalf("unit %d, net %d: bucket %d, want %d", unit, x, got, want)
			}
		}
	}
}

// TestFastPathStats: a chunk's sums are the same on both paths, to the
// bit, with and without a count (runChunk seats once and sums the count 0
// at the end without one).
func TestFastPathStats(t *testing.T) {
	for _, name := range []string{"vegas-s17", "family", "venice", "vegas-s17+last_round_void"} {
		base, opt, void := strings.Cut(name, "+")
		p := rules.MustLookup(base)
		if void { // EG-04: void rounds
			must(t, p.SetAll([]string{opt + "=true"}))
		}
		for _, st := range fastStrategies(p) {
			t.Run(name+"/"+st.name, func(t *testing.T) {
				cfg := Config{Profile: p, Rounds: 1}
				st.setup(&cfg)
				must(t, cfg.normalize())
				slow := cfg
				slow.noFast = true
				fast, gen := newTable(&cfg), newTable(&slow)
				if fast.fp == nil || gen.fp != nil {
					t.Fatal("not on the fast and the general path")
				}
				// With bankroll paths and without (a flat bettor's
				// chunks without paths take runFlat).
				for k := 0; k < 6; k++ {
					pp := 4 * (k % 2)
					a, b := fast.runChunk(7, k, 20_000, pp), gen.runChunk(7, k, 20_000, pp)
					if a.stats != b.stats || !slices.Equal(a.path, b.path) {
						t.Fatalf("chunk %d: the paths' sums differ: EV %v, %v", k, float64(a.stats.X)/float64(a.stats.W), float64(b.stats.X)/float64(b.stats.W))
					}
				}
			})
		}
	}
}

// VE-21: where a double over the maximum plays only up to it
// (max_bet_caps_double, venice), a game whose doubled stake could pass the
// maximum plays on the general path, which caps it; one that cannot stays
// on the fast path.
func TestFastPathLeavesCappedDoubles_VE21(t *testing.T) {
	p := rules.MustLookup("venice")
	if !p.MaxCapsDouble {
		t.Fatal("venice does not cap doubles at the maximum")
	}
	card := randomCard(1, false)
	low := &Config{Profile: p, Strategy: card, OthersStrategy: card, Unit: int64(p.MaxBet) / 2}
	high := &Config{Profile: p, Strategy: card, OthersStrategy: card, Unit: int64(p.MaxBet)/2 + 1}
	if !fastEligible(low) || fastEligible(high) {
		t.Fatalf("fast path: a unit of half the maximum %v, a unit over it %v", fastEligible(low), fastEligible(high))
	}
}
