package sim

import (
	"slices"
	"testing"

	"sabot/card"
	"sabot/rules"
)

// TestPlainChosen: the plain round (plain.go) plays the set-ups it is made
// for, among them BenchmarkSim's and `sabot sim PROFILE`'s (one box, basic
// strategy) on every built-in profile without the challenge and the
// declaration, and no other; and TestFastPath tries it on most of its
// configurations.
func TestPlainChosen(t *testing.T) {
	for _, c := range []struct {
		name    string
		profile string
		options []string
		setup   func(c *Config)
		plain   bool
	}{
		{"vegas-s17", "vegas-s17", nil, nil, true},
		{"vegas-h17", "vegas-h17", nil, nil, true},
		{"spain", "spain", nil, nil, true},
		{"venice", "venice", nil, nil, true},
		{"family", "family", nil, nil, true},
		{"vegas-s17/continuous", "vegas-s17", nil, func(c *Config) { c.Continuous = true }, true},
		{"argentina", "argentina", nil, nil, false}, // AR-10, AR-11
		{"argentina/no-challenge", "argentina", []string{"challenge=false", "challenge_split_aces=false"}, nil, false},
		{"argentina/no-challenge-no-declaration", "argentina", []string{"challenge=false", "challenge_split_aces=false", "declare_initial_ace=false"}, nil, true},
		{"vegas-s17/two-boxes", "vegas-s17", nil, func(c *Config) { c.Boxes = 2 }, false},
		{"vegas-s17/another-player", "vegas-s17", nil, func(c *Config) { c.Others = 1 }, false},
		{"vegas-s17/counting", "vegas-s17", nil, func(c *Config) { c.Count = &HiLo }, true},
		{"vegas-s17/counting-ramp", "vegas-s17", nil, func(c *Config) { c.Count, c.Ramp = &HiLo, Ramp{Min: 1, Steps: []Step{{1, 2}, {2, 4}}} }, true},
		{"vegas-s17/counting-indices", "vegas-s17", nil, func(c *Config) { c.Count, c.Strategy = &HiLo, randomCard(4, true) }, false},
		{"vegas-s17/counting-wong", "vegas-s17", nil, func(c *Config) { c.Count, c.Wong = &HiLo, Wong{In: 1, HasIn: true} }, false},
		{"vegas-s17/insures", "vegas-s17", nil, func(c *Config) {
			tab := Textbook(false)
			tab.cells[rowInsurance][col(1)] = cell{c: cY}
			c.Strategy = tab
		}, false},
		{"vegas-s17/back-bets", "vegas-h17", []string{"back_bets_per_box=1"}, func(c *Config) { c.BackBets = 1 }, false}, // (the general path)
	} {
		p := rules.MustLookup(c.profile)
		must(t, p.SetAll(c.options))
		cfg := Config{Profile: p, Rounds: 1}
		if c.setup != nil {
			c.setup(&cfg)
		}
		must(t, cfg.normalize())
		if got := newTable(&cfg).plain != nil; got != c.plain {
			t.Errorf("%s: plain round %v, want %v", c.name, got, c.plain)
		}
	}
	n, plain := 0, 0
	for _, fc := range fastCases() {
		p := rules.MustLookup(fc.profile)
		must(t, p.SetAll(fc.options))
		for _, st := range fastStrategies(p) {
			cfg := Config{Profile: p, Rounds: 1}
			st.setup(&cfg)
			if fc.setup != nil {
				fc.setup(&cfg)
			}
			must(t, cfg.normalize())
			n++
			if newTable(&cfg).plain != nil {
				plain++
			}
		}
	}
	if plain < n/8 {
		t.Errorf("TestFastPath tries the plain round on %d of its %d configurations", plain, n)
	}
}

// TestPlainContinuous holds the plain round to the general path with a
// continuous shuffler, whose deck picks its cards a few at a time
// (deck.refill), round by round and in a chunk's sums.
func TestPlainContinuous(t *testing.T) {
	for _, name := range []string{"vegas-s17", "spain", "venice"} {
		for _, exact := range []bool{false, true} {
			cfg := Config{Profile: rules.MustLookup(name), Rounds: 1, Continuous: true, exactShoe: exact}
			must(t, cfg.normalize())
			slow := cfg
			slow.noFast = true
			fast, gen := newTable(&cfg), newTable(&slow)
			if fast.plain == nil || gen.fp != nil {
				t.Fatalf("%s: not on the plain and the general path", name)
			}
			for _, tab := range []*table{fast, gen} {
				tab.d.reseed(seedChunk(5, 0))
				tab.shuffle()
			}
			compareRounds(t, fast, gen, 10_000)
			if exact {
				continue
			}
			for k := 0; k < 3; k++ {
				pp := 4 * (k % 2)
				a, b := fast.runChunk(3, k, 20_000, pp), gen.runChunk(3, k, 20_000, pp)
				if a.stats != b.stats || !slices.Equal(a.path, b.path) {
					t.Fatalf("%s: chunk %d: the paths' sums differ", name, k)
				}
			}
		}
	}
}

// TestPlainAgreesWithEngine holds the plain round, the fast path's named
// specialization, to the checked engine round for round: the same shoes
// dealt through runPlain, one round a call (the loop the runs take, with
// its own end of the round), and through engine.Round.Act (driver), on
// every built-in profile it plays and on the options its round reads
// (surrender, a void last round, one deck, the US peek and no peek, an
// Argentine table without the challenge and the declaration): the same
// net and stake, the same void rounds, the same cards left.
func TestPlainAgreesWithEngine(t *testing.T) {
	type plainCase struct {
		name, profile string
		options       []string
	}
	var cases []plainCase
	for _, name := range rules.Names() {
		if name != "argentina" {
			cases = append(cases, plainCase{name, name, nil})
		}
	}
	cases = append(cases,
		plainCase{"argentina/no-challenge-no-declaration", "argentina", []string{"challenge=false", "challenge_split_aces=false", "declare_initial_ace=false"}},
		plainCase{"vegas-s17/late-surrender", "vegas-s17", []string{"surrender=late"}},
		plainCase{"spain/early-surrender", "spain", []string{"surrender=early"}},
		plainCase{"vegas-h17/no-peek-resplit-hit-aces", "vegas-h17", []string{"hole_card=no-peek", "resplit_aces=true", "hit_split_aces=true"}},
		plainCase{"spain/last-round-void", "spain", []string{"last_round_void=true"}},
		plainCase{"argentina/AR-13-dealer-ace-stays-one", "argentina", []string{"challenge=false", "challenge_split_aces=false", "declare_initial_ace=false", "dealer_ace=stays-one"}},
		plainCase{"vegas-h17/AR-13-dealer-ace-stays-one", "vegas-h17", []string{"dealer_ace=stays-one"}},
		plainCase{"venice/VE-12-resplit-first", "venice", []string{"resplit_hands=first"}},
		plainCase{"vegas-s17/VE-12-resplit-first-aces", "vegas-s17", []string{"resplit_hands=first", "resplit_aces=true"}},
		plainCase{"spain/one-deck-to-the-end", "spain", []string{"decks=1", "cut_card_reserve=0", "burn_cards=0"}},
	)
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			p := rules.MustLookup(c.profile)
			must(t, p.SetAll(c.options))
			cfg := Config{Profile: p, Rounds: 1, exactShoe: true}
			must(t, cfg.normalize())
			const seed = 42
			tab := newTable(&cfg)
			if tab.plain == nil {
				t.Fatal("not on the plain round")
			}
			tab.d.reseed(seedChunk(seed, 0))
			tab.shuffle()
			tab.seat()
			dr := newDriver(t, &cfg, seedChunk(seed, 0))
			var voids int64
			for i := 0; i < 20_000; i++ {
				var st Stats
				tab.runPlain(&st, 1, false)
				dr.round()
				if st.X != dr.x || st.W != dr.w || st.Void != b2i64(dr.w == 0) {
					rec := dr.r.Record()
					t.Fatalf("round %d: the plain round nets %d on %d (void %d), the engine %d on %d\ncards %s\nactions %v",
						i, st.X, st.W, st.Void, dr.x, dr.w, card.Format(rec.Cards), rec.Actions)
				}
				if tab.d.remaining() != dr.s.Remaining() {
					t.Fatalf("round %d: %d cards left in the plain round's deck, %d in the shoe", i, tab.d.remaining(), dr.s.Remaining())
				}
				voids += st.Void
			}
			t.Logf("20000 rounds agree (%d void)", voids)
		})
	}
}

func b2i64(b bool) int64 {
	if b {
		return 1
	}
	return 0
}
