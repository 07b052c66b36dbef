package sim

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"fmt"
	"math"
	"testing"

	"sabot/rules"
)

// TestTrueCountOf: the true count of every method on hand-made cases, a
// running count and the cards left (a 6-deck shoe has 312 cards).
func TestTrueCountOf(t *testing.T) {
	exact := TrueCount{}
	half := func(r Rounding) TrueCount { return TrueCount{Decks: 0.5, Round: r} }
	full := func(r Rounding) TrueCount { return TrueCount{Decks: 1, Round: r} }
	quarter := func(r Rounding) TrueCount { return TrueCount{Decks: 0.25, Round: r} }
	exactDecks := func(r Rounding) TrueCount { return TrueCount{Round: r} }
	halfCount := func(d float64, r Rounding) TrueCount { return TrueCount{Decks: d, Round: r, Step: 0.5} }
	for _, c := range []struct {
		m        TrueCount
		rc, left int
		want     float64
	}{
		// Exact: the running count per 52 cards left, not rounded.
		{exact, 6, 156, 2},
		{exact, 5, 104, 2.5},
		{exact, -7, 156, -7.0 / 3},
		{exact, 1, 0, 52}, // no card left counts as one
		{exact, 3, 1, 156},
		// Exact decks, rounded.
		{exactDecks(RoundFloor), 7, 156, 2},
		{exactDecks(RoundFloor), -7, 156, -3},
		{exactDecks(RoundTruncate), -7, 156, -2},
		{exactDecks(RoundNearest), -7, 156, -2},
		{exactDecks(RoundNearest), 8, 156, 3},
		{exactDecks(RoundFloor), 6, 156, 2}, // a whole quotient stays
		{exactDecks(RoundFloor), -6, 156, -2},
		// Ties: 3 / 2 decks = 1.5.
		{exactDecks(RoundFloor), 3, 104, 1},
		{exactDecks(RoundFloor), -3, 104, -2},
		{exactDecks(RoundTruncate), 3, 104, 1},
		{exactDecks(RoundTruncate), -3, 104, -1},
		{exactDecks(RoundNearest), 3, 104, 2},
		{exactDecks(RoundNearest), -3, 104, -2},
		// Half-deck estimate: 150 cards are 2.88 decks, 3 to the half
		// deck; 140 are 2.69, 2.5.
		{half(RoundNone), 7, 150, 7.0 / 3},
		{half(RoundFloor), 7, 150, 2},
		{half(RoundFloor), 8, 150, 2},
		{half(RoundNearest), 8, 150, 3},
		{half(RoundTruncate), -8, 150, -2},
		{half(RoundFloor), -8, 150, -3},
		{half(RoundFloor), 5, 140, 2},
		{half(RoundFloor), -5, 140, -2},
		{half(RoundFloor), -4, 140, -2}, // -1.6
		{half(RoundTruncate), -4, 140, -1},
		{half(RoundNearest), -4, 140, -2},
		{half(RoundNone), 9, 312, 1.5}, // a full 6-deck shoe
		// A tie of the estimate goes to the larger: 143 cards are 5.5
		// half decks, 3 decks; 130 cards are 2.5 decks, 3 to the deck.
		{half(RoundNone), 6, 143, 2},
		{half(RoundNone), 6, 142, 2.4}, // 5.46 half decks: 2.5 decks
		{half(RoundNone), 5, 117, 2},   // 4.5 half decks: 2.5 decks
		{full(RoundNone), 6, 130, 2},
		{full(RoundNone), 6, 129, 3},
		{full(RoundFloor), 10, 200, 2}, // 3.85 decks: 4, 2.5 floored
		{full(RoundNearest), 10, 200, 3},
		// Never below the resolution.
		{half(RoundNone), 3, 5, 6},
		{half(RoundNone), 3, 12, 6},
		{half(RoundNone), 3, 13, 6}, // a tie: 0.5 half deck, 1
		{half(RoundNone), 3, 39, 3}, // 1.5 half decks: 2, one deck
		{full(RoundNone), 3, 5, 3},
		{full(RoundNone), 3, 77, 3},
		{full(RoundNone), 3, 78, 1.5},
		{quarter(RoundNone), 3, 5, 12},
		{quarter(RoundNone), 3, 7, 12}, // 0.54 quarter deck
		{quarter(RoundNone), 3, 20, 6}, // 1.54 quarter decks: 2
		{quarter(RoundFloor), 5, 20, 10},
		{quarter(RoundNone), 7, 98, 3.5}, // 1.88 decks: 7.54 quarters, 8: 2 decks
		{half(RoundFloor), 3, 0, 6},
		// Half counts.
		{halfCount(0, RoundFloor), 7, 156, 2},   // 2.33
		{halfCount(0, RoundFloor), 8, 156, 2.5}, // 2.67
		{halfCount(0, RoundNearest), 7, 156, 2.5},
		{halfCount(0, RoundNearest), 13, 156, 4.5}, // 4.33
		{halfCount(0, RoundTruncate), -7, 156, -2},
		{halfCount(0, RoundFloor), -7, 156, -2.5},
		{halfCount(0.5, RoundFloor), 7, 130, 2.5},   // 2.8
		{halfCount(0.5, RoundFloor), -7, 130, -3},   // -2.8
		{halfCount(1, RoundNearest), 5, 104, 2.5},   // exactly 2.5
		{halfCount(1, RoundNearest), -9, 208, -2.5}, // -2.25, a tie away from zero
	} {
		if got := c.m.Of(c.rc, c.left); got != c.want {
			t.Errorf("%v: running count %d, %d cards left: true count %v, want %v", c.m, c.rc, c.left, got, c.want)
		}
	}
}

// TestDecksLeft: the estimate is a multiple of the resolution, at least
// one, within half a resolution of the exact decks (but at the floor), a
// tie to the larger; exact is cards/52.
func TestDecksLeft(t *testing.T) {
	for _, r := range []float64{1, 0.5, 0.25} {
		m := TrueCount{Decks: r}
		for left := 0; left <= 52*8; left++ {
			d := m.DecksLeft(left)
			exact := float64(max(left, 1)) / 52
			k := d / r
			switch {
			case k != math.Trunc(k) || k < 1:
				t.Fatalf("resolution %g, %d cards: %v decks, not a positive multiple", r, left, d)
			case k > 1 && math.Abs(d-exact) > r/2:
				t.Fatalf("resolution %g, %d cards: %v decks for %.3f", r, left, d, exact)
			case k == 1 && exact > 1.5*r:
				t.Fatalf("resolution %g, %d cards: %v decks for %.3f", r, left, d, exact)
			case math.Abs(d-exact) == r/2 && d < exact:
				t.Fatalf("resolution %g, %d cards: a tie to %v, want the larger", r, left, d)
			}
		}
	}
	if d := (TrueCount{}).DecksLeft(130); d != 2.5 {
		t.Errorf("exact: 130 cards are %v decks", d)
	}
}

// TestEstimateIsOf: the table's count (its decks by cards left, its
// rounding) is TrueCount.Of for every method, running count from -100 to
// 100 and number of cards left of a 16-deck shoe (the most a profile
// holds), and fewer than none (a round dealt into the padding), on the
// count at the bet, the live count and the general path's count; an
// unbalanced count keeps its running count whatever the method.
func TestEstimateIsOf(t *testing.T) {
	p := rules.MustLookup("vegas-s17")
	must(t, p.SetAll([]string{"decks=16"}))
	for _, d := range []float64{0, 1, 0.5, 0.25} {
		for r := RoundNone; r <= RoundNearest; r++ {
			for _, step := range []float64{0, 0.5} {
				m := TrueCount{Decks: d, Round: r, Step: step}
				if m.Validate() != nil {
					continue
				}
				for _, sys := range []*System{&HiLo, &KO} {
					cfg := Config{Profile: p, Rounds: 1, Count: sys, TrueCount: m}
					must(t, cfg.normalize())
					tab := newTable(&cfg)
					tab.d.prepare()
					if tab.tcEst != (sys.Balanced && !m.Exact()) {
						t.Fatalf("%v, %s: estimate %v", m, sys.Name, tab.tcEst)
					}
					for left := -20; left <= 52*16; left++ {
						tab.d.pos = tab.d.n - left
						for rc := int32(-100); rc <= 100; rc++ {
							tab.rc = rc
							want := m.Of(int(rc), left)
							if !sys.Balanced {
								want = float64(rc)
							}
							tab.seat()
							if got := tab.roundCount; got != want {
								t.Fatalf("%v, %s: running count %d, %d cards left: count %v at the bet, want %v", m, sys.Name, rc, left, got, want)
							}
							if got := tab.count(); got != want {
								t.Fatalf("%v, %s: running count %d, %d cards left: count %v, want %v", m, sys.Name, rc, left, got, want)
							}
							tab.fstart, tab.hiddenTags, tab.holeHidden = tab.d.pos, 0, false
							if tab.fp != nil {
								if got := tab.liveCount(); got != want {
									t.Fatalf("%v, %s: running count %d, %d cards left: live count %v, want %v", m, sys.Name, rc, left, got, want)
								}
							}
						}
					}
				}
			}
		}
	}
}

// TestTrueCountRefused: a method the simulator does not know is refused.
func TestTrueCountRefused(t *testing.T) {
	for _, m := range []TrueCount{
		{Decks: 2}, {Decks: 0.3}, {Decks: -1}, {Decks: math.NaN()}, {Decks: math.Inf(1)},
		{Round: RoundNearest + 1},
		{Round: RoundFloor, Step: 0.25}, {Round: RoundFloor, Step: 2}, {Round: RoundFloor, Step: -1},
		{Step: 0.5}, // a step without a rounding
	} {
		cfg := Config{Profile: rules.MustLookup("vegas-s17"), Rounds: 1, Count: &HiLo, TrueCount: m}
		if err := cfg.normalize(); !errors.Is(err, ErrConfig) {
			t.Errorf("%+v: %v, want refused", m, err)
		}
	}
	for _, m := range []TrueCount{{}, {Step: 1}, {Decks: 0.25}, {Decks: 1, Round: RoundTruncate, Step: 1}, {Round: RoundNearest, Step: 0.5}} {
		cfg := Config{Profile: rules.MustLookup("vegas-s17"), Rounds: 1, Count: &HiLo, TrueCount: m}
		if err := cfg.normalize(); err != nil {
			t.Errorf("%+v: %v", m, err)
		}
	}
}

// TestParseTrueCount: the flags' values.
func TestParseTrueCount(t *testing.T) {
	for s, want := range map[string]float64{"exact": 0, "EXACT": 0, "0": 0, "1": 1, "0.5": 0.5, ".5": 0.5, "1/2": 0.5, "half": 0.5, "0.25": 0.25, "1/4": 0.25, "quarter": 0.25, "full": 1} {
		if got, err := ParseDeckResolution(s); err != nil || got != want {
			t.Errorf("ParseDeckResolution(%q) = %v, %v; want %v", s, got, err, want)
		}
	}
	for _, s := range []string{"", "2", "0.3", "x", "-1", "NaN", "1/3"} {
		if _, err := ParseDeckResolution(s); err == nil {
			t.Errorf("ParseDeckResolution(%q): no error", s)
		}
	}
	for s, want := range map[string]Rounding{"none": RoundNone, "floor": RoundFloor, "Truncate": RoundTruncate, "nearest": RoundNearest, "round": RoundNearest} {
		if got, err := ParseRounding(s); err != nil || got != want {
			t.Errorf("ParseRounding(%q) = %v, %v; want %v", s, got, err, want)
		}
	}
	for _, s := range []string{"", "ceil", "trunc"} {
		if _, err := ParseRounding(s); err == nil {
			t.Errorf("ParseRounding(%q): no error", s)
		}
	}
	for s, want := range map[string]float64{"1": 1, "0.5": 0.5} {
		if got, err := ParseCountStep(s); err != nil || got != want {
			t.Errorf("ParseCountStep(%q) = %v, %v", s, got, err)
		}
	}
	for _, s := range []string{"", "0", "2", "0.25", "half"} {
		if _, err := ParseCountStep(s); err == nil {
			t.Errorf("ParseCountStep(%q): no error", s)
		}
	}
	for m, want := range map[TrueCount]string{
		{}:                               "exact",
		{Step: 1}:                        "exact",
		{Decks: 0.5, Round: RoundFloor}:  "decks to the half deck, floored",
		{Decks: 1, Round: RoundTruncate}: "decks to the deck, truncated",
		{Decks: 0.25}:                    "decks to the quarter deck",
		{Round: RoundNearest, Step: 0.5}: "exact decks, rounded to the half count",
	} {
		if got := m.String(); got != want {
			t.Errorf("%+v: %q, want %q", m, got, want)
		}
	}
}

// statsDigest is a digest of a result's integer sums (the float sums of
// squares are left out: an architecture that fuses a multiply and an add
// may round them differently).
func statsDigest(s *Stats) string {
	h := sha256.New()
	fmt.Fprint(h, s.Rounds, s.Played, s.Void, s.Shoes, s.X, s.W, s.BackX, s.BackW, s.Boxes, s.Wins, s.Pushes, s.Losses, s.Blackjacks)
	for _, b := range s.ByCount {
		fmt.Fprint(h, ";", b.Rounds, b.X, b.W)
	}
	fmt.Fprint(h, s.Dist)
	return hex.EncodeToString(h.Sum(nil))[:16]
}

type goldenRun struct {
	name string
	cfg  Config
}

// goldenRuns are counting configurations on both paths: Hi-Lo with I18, a
// ramp and wonging (fast and general), Zen with wonging in and out, KO,
// Hi-Opt II with back bets (general), a continuous shuffler and FAM-03.
func goldenRuns() []goldenRun {
	var gs []goldenRun
	add := func(name string, c Config) {
		c.Rounds, c.Seed, c.ChunkRounds, c.Workers = 150_000, 3, 1<<14, 2
		gs = append(gs, goldenRun{name, c})
	}
	c := hiLoConfig(rules.MustLookup("vegas-s17"))
	c.Wong = Wong{Out: -1, HasOut: true}
	add("vegas-s17/hi-lo-i18-wong", c)
	c = hiLoConfig(rules.MustLookup("vegas-s17"))
	c.noFast = true
	add("vegas-s17/hi-lo-i18/general", c)
	add("spain/zen-wong", Config{Profile: rules.MustLookup("spain"), Count: &ZenCount, Strategy: randomCard(7, true),
		Ramp: Ramp{Min: 1, Steps: []Step{{2, 4}, {-1, 2}, {1, 3}}}, Wong: Wong{In: 1, HasIn: true, Out: -2, HasOut: true}})
	add("vegas-h17/ko", Config{Profile: rules.MustLookup("vegas-h17"), Count: &KO, Strategy: randomCard(5, true), Ramp: Ramp{Min: 1, Steps: []Step{{0, 1}, {2, 4}}}})
	add("venice/flat", Config{Profile: rules.MustLookup("venice")})
	add("venice/hi-opt-ii-back-bets", Config{Profile: rules.MustLookup("venice"), Count: &HiOptII, BackBets: 1, BackFollow: true, Ramp: Ramp{Min: 1, Steps: []Step{{1, 2}, {3, 4}}}})
	add("argentina/hi-lo-continuous", Config{Profile: rules.MustLookup("argentina"), Count: &HiLo, Continuous: true, Strategy: randomCard(4, true), Ramp: Ramp{Min: 1, Steps: []Step{{-1, 2}, {0.5, 3}, {2, 5}}}})
	add("family/hi-lo", Config{Profile: rules.MustLookup("family"), Count: &HiLo, Strategy: randomCard(9, true), Ramp: Ramp{Min: 1, Steps: []Step{{1, 2}, {2, 4}}}})
	return gs
}

// TestTrueCountDefaultUnchanged: the default true count is the simulator's
// exact one as it was before TrueCount: the same seed gives, bit for bit,
// the sums the code before it gave (the digests, captured from it), and an
// explicit exact method (a step of 1 included) gives the default's whole
// Stats. A method that rounds changes a counter's result but not a flat
// bettor's. (If a later change alters the simulator's results on purpose,
// update the digests.)
func TestTrueCountDefaultUnchanged(t *testing.T) {
	golden := map[string]string{
		"vegas-s17/hi-lo-i18-wong":    "3fc8fe3f419873be",
		"vegas-s17/hi-lo-i18/general": "62d783c8531a7b8a",
		"spain/zen-wong":              "d69e2a9351f86d25",
		"vegas-h17/ko":                "e48cdc618dd2b138",
		"venice/flat":                 "5eafbbf64620856f",
		"venice/hi-opt-ii-back-bets":  "b1070f26c65e2169",
		// argentina pays a split ten's blackjack 3:2 and a split Ace's 1:1
		// (split_blackjack=aces-even, AR-19 by the letter) and splits no
		// pair of Aces once declared (AR-11): a new digest on purpose.
		"argentina/hi-lo-continuous": "d372f3f565d503a0",
		// family splits to 7 hands (FAM-01, ES-09), since its profile was corrected
		"family/hi-lo": "537dc39a73c57342",
	}
	// The profiles whose dealer now completes his hand when every hand is
	// bust (dealer_plays=always: AR-14 is Argentine; VE-08, ES-05)
	// leave other cards to the next rounds: their digests are new, and the
	// digests above, taken before, still hold with dealer_plays=as-needed.
	// He now completes it after a lone even money too (VE-08,
	// ES-05): spain's counter takes even money.
	always := map[string]string{
		"spain/zen-wong":             "5dac482b6a8e5f1c",
		"venice/flat":                "7ad881b697f7b190",
		"venice/hi-opt-ii-back-bets": "8dd6c1682765dc47",
		"family/hi-lo":               "da4909207ab6acf0",
	}
	for _, g := range goldenRuns() {
		t.Run(g.name, func(t *testing.T) {
			res, err := Run(context.Background(), g.cfg)
			if err != nil {
				t.Fatal(err)
			}
			want, ok := always[g.name]
			if !ok {
				want = golden[g.name]
			} else if g.cfg.Profile.DealerPlays != rules.PlaysAlways {
				t.Fatalf("%s's dealer does not play always", g.name)
			}
			if d := statsDigest(&res.Stats); d != want {
				t.Errorf("digest %s, want %s", d, want)
			}
			if ok {
				before := g.cfg
				p := *g.cfg.Profile
				p.DealerPlays = rules.PlaysAsNeeded
				before.Profile = &p
				r0, err := Run(context.Background(), before)
				if err != nil {
					t.Fatal(err)
				}
				if d := statsDigest(&r0.Stats); d != golden[g.name] {
					t.Errorf("with dealer_plays=as-needed: digest %s, want %s (the code before TrueCount)", d, golden[g.name])
				}
			}
			explicit := g.cfg
			explicit.TrueCount = TrueCount{Decks: 0, Round: RoundNone, Step: 1}
			if r2, err := Run(context.Background(), explicit); err != nil || r2.Stats != res.Stats {
				t.Errorf("an explicit exact true count differs from the default (%v)", err)
			}
			est := g.cfg
			est.TrueCount = TrueCount{Decks: 0.5, Round: RoundFloor}
			r3, err := Run(context.Background(), est)
			if err != nil {
				t.Fatal(err)
			}
			if affected := g.cfg.Count != nil && g.cfg.Count.Balanced; affected == (r3.Stats == res.Stats) {
				t.Errorf("half deck, floored: result changed %v, want %v", r3.Stats != res.Stats, affected)
			}
		})
	}
}

// TestTrueCountSameSeedSameResult: with an estimated, rounded true count
// the result depends on the seed, not on the number of workers.
func TestTrueCountSameSeedSameResult(t *testing.T) {
	for _, m := range []TrueCount{{Decks: 0.5, Round: RoundFloor}, {Decks: 1, Round: RoundTruncate}, {Decks: 0.25, Round: RoundNearest, Step: 0.5}} {
		c := hiLoConfig(rules.MustLookup("vegas-s17"))
		c.Rounds, c.Seed, c.ChunkRounds, c.TrueCount = 200_000, 11, 1<<14, m
		c.Wong = Wong{In: 0, HasIn: true, Out: -1, HasOut: true}
		var first *Result
		for _, w := range []int{1, 2, 3} {
			c.Workers = w
			res, err := Run(context.Background(), c)
			if err != nil {
				t.Fatal(err)
			}
			if first == nil {
				first = res
			} else if res.Stats != first.Stats {
				t.Errorf("%v: %d workers: EV %v, 1 worker %v", m, w, res.EV, first.EV)
			}
		}
	}
}

// TestHalfDeckFlooredWinRate: Hi-Lo with the Illustrious 18 and Fab 4 and a
// 1-12 ramp on a 6-deck shoe (vegas-s17) wins about as much with the true
// count of a player (decks to the half deck, floored) as with the exact
// one, within a few standard errors, but not the same. (Flooring changes
// no decision at these whole thresholds, TestFloorOnWholeThresholds: the
// difference is the decks' estimate, which raises the average bet a
// little, docs/sim.md.) 4 M rounds each (-long: 40 M); the same shoes.
func TestHalfDeckFlooredWinRate(t *testing.T) {
	rounds := int64(4_000_000)
	if *Long {
		rounds = 40_000_000
	}
	run := func(m TrueCount) *Result {
		c := hiLoConfig(rules.MustLookup("vegas-s17"))
		c.Rounds, c.Seed, c.TrueCount = rounds, 21, m
		res, err := Run(context.Background(), c)
		if err != nil {
			t.Fatal(err)
		}
		return res
	}
	ex, hd := run(TrueCount{}), run(TrueCount{Decks: 0.5, Round: RoundFloor})
	se := math.Hypot(ex.WinRateSE, hd.WinRateSE)
	t.Logf("exact: win rate %+.3f ± %.3f units/100, EV %+.3f %%, avg bet %.3f, SCORE %.1f", ex.WinRate, ex.WinRateSE, 100*ex.EV, ex.AvgBet, ex.SCORE)
	t.Logf("half deck, floored: win rate %+.3f ± %.3f units/100, EV %+.3f %%, avg bet %.3f, SCORE %.1f", hd.WinRate, hd.WinRateSE, 100*hd.EV, hd.AvgBet, hd.SCORE)
	t.Logf("difference %+.3f units/100 (%.1f SE of two independent runs)", hd.WinRate-ex.WinRate, (hd.WinRate-ex.WinRate)/se)
	if hd.Stats == ex.Stats {
		t.Fatal("the half-deck floored count plays as the exact one")
	}
	if math.Abs(hd.WinRate-ex.WinRate) > 4*se {
		t.Errorf("win rates %+.3f and %+.3f units/100 differ by more than 4 SE (%.3f)", hd.WinRate, ex.WinRate, se)
	}
	if hd.WinRate <= 0 || ex.WinRate <= 0 {
		t.Errorf("win rates %+.3f and %+.3f units/100: a counter with this ramp wins", hd.WinRate, ex.WinRate)
	}
}

// TestFloorOnWholeThresholds: a floored count takes every decision at a
// whole threshold as the unrounded count does (⌊x⌋ ≥ k exactly when
// x ≥ k), so with the I18 and Fab 4 (whole indices), a ramp and wonging at
// whole counts, flooring changes nothing, to the bit, on the exact decks
// or an estimate, on both paths; truncating (−0.5 → 0 ≥ 0) and rounding
// (0.5 → 1) do. A check of the whole chain: the count at the bet, the live
// count, the buckets.
func TestFloorOnWholeThresholds(t *testing.T) {
	for _, noFast := range []bool{false, true} {
		for _, d := range []float64{0, 0.5} {
			run := func(r Rounding) Stats {
				c := hiLoConfig(rules.MustLookup("vegas-s17"))
				must(t, c.Profile.SetAll([]string{"surrender=late"}))
				c.Rounds, c.Seed, c.ChunkRounds, c.noFast = 200_000, 13, 1<<14, noFast
				c.Wong = Wong{In: 1, HasIn: true, Out: -1, HasOut: true}
				c.TrueCount = TrueCount{Decks: d, Round: r}
				res, err := Run(context.Background(), c)
				if err != nil {
					t.Fatal(err)
				}
				return res.Stats
			}
			none := run(RoundNone)
			if run(RoundFloor) != none {
				t.Errorf("decks %g (general path %v): floored, the result differs from the unrounded count's", d, noFast)
			}
			for _, r := range []Rounding{RoundTruncate, RoundNearest} {
				if run(r) == none {
					t.Errorf("decks %g (general path %v): %v gives the unrounded count's result", d, noFast, r)
				}
			}
		}
	}
}
