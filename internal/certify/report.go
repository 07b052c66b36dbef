package certify

import (
	"fmt"
	"math"
	"math/big"
)

// ShuffleMethod says how a shoe is shuffled, for the randomness report.
var ShuffleMethod = []struct{ Topic, Text string }{
	{"Source of entropy", "Each shoe of a live table has a seed of its own: 32 bytes from the operating system's CSPRNG (Go's crypto/rand: getrandom(2) on Linux), " +
		"drawn when the shoe is made (shoe.RandomSeed, table.Seeds). No clock, process ID or other guessable value enters it. A table started for forced-card tests " +
		"(test mode) deals only the cards it is given and never takes money."},
	{"Generator", "ChaCha8 (Go's math/rand/v2 ChaCha8, the ChaCha stream cipher with 8 rounds, keyed by the 32-byte seed), whose 64-bit outputs drive the shuffle and the cut. " +
		"The generator is deterministic from its seed, so a shoe can be replayed from its seed once revealed."},
	{"Seed secrecy and commitment", "A live shoe's seed is stored only sealed (AES-256-GCM under a key kept outside the database). When the shoe starts the server " +
		"publishes the SHA-256 of its seed and its card order; the seed is revealed when the shoe is over, and `sabot verify SHOE` (or any player, from GET /api/shoes/{id}) " +
		"checks the order dealt against the commitment."},
	{"Algorithm", "Every card of the shoe is put back (discards, burned and removed cards included) and shuffled by Fisher–Yates from the last position to the first " +
		"(rand.Shuffle): position i (N−1 down to 1) swaps with a position j drawn uniformly from 0…i. Then the player's cut (AR-07, EG-02) at a position drawn uniformly " +
		"from those the procedure allows, the cut card (AR-08, EG-02) and the burn cards (EG-03)."},
	{"Scaling to card positions", "j uniform in 0…i is drawn by Lemire's method: the high 64 bits of the 128-bit product of a 64-bit output and i+1, rejecting and " +
		"drawing again the outputs whose low 64 bits fall below 2⁶⁴ mod (i+1). Every j is then exactly equally likely: no modulo bias, no floating point."},
	{"Re-seeding", "Every new shoe (EG-05) takes a new 32-byte seed from crypto/rand; no seed is reused or derived from another. FAM-03's collected cards are " +
		"shuffled by the running shoe's generator. The simulator (sabot sim) uses a faster generator of its own, never at a table."},
}

// OrderNote compares the seed's space with the shoe's orders.
func OrderNote(decks int) string {
	// The distinct orders of a shoe: (52d)! / (d!)^52 (identical cards).
	n := new(big.Int).MulRange(1, int64(52*decks))
	f := new(big.Int).MulRange(1, int64(decks))
	for i := 0; i < 52; i++ {
		n.Quo(n, f)
	}
	bits := float64(n.BitLen())
	if bits <= 256 {
		return fmt.Sprintf("A shoe of %d deck(s) has about 2^%.0f distinct orders, fewer than the 2^256 seeds.", decks, bits)
	}
	return fmt.Sprintf("A shoe of %d decks has about 2^%.0f distinct orders, more than the 2^256 seeds: no generator seeded with 256 bits reaches every order; "+
		"each shoe's seed is fresh, and the orders reached are not distinguishable from uniform by the tests below.", decks, math.Round(bits))
}

func (k *Kit) randomnessJSON() any {
	type method struct {
		Topic string `json:"topic"`
		Text  string `json:"text"`
	}
	var ms []method
	for _, m := range ShuffleMethod {
		ms = append(ms, method{m.Topic, m.Text})
	}
	return struct {
		Method        []method      `json:"method"`
		Orders        string        `json:"orders"`
		Decks         int           `json:"decks"`
		Shoes         int           `json:"shoes"`
		Alpha         float64       `json:"alpha"`
		Tests         []Test        `json:"card_tests"`
		Pass          bool          `json:"card_tests_pass"`
		Rerun         string        `json:"rerun"`
		Live          []Test        `json:"card_tests_live,omitempty"`
		LivePass      *bool         `json:"card_tests_live_pass,omitempty"`
		NIST          *NISTRun      `json:"nist_sp800_22,omitempty"`
		Dieharder     *DieharderRun `json:"dieharder,omitempty"`
		DieharderNote string        `json:"dieharder_note,omitempty"`
	}{ms, OrderNote(k.Profile.Decks), k.Battery.Decks, k.Battery.Shoes, Alpha, k.Battery.Tests, k.Battery.Pass(), k.BatteryCmd, k.liveTests(), k.livePass(), k.NIST, k.Dieharder, k.DieharderNote}
}

func (k *Kit) liveTests() []Test {
	if k.LiveBattery == nil {
		return nil
	}
	return k.LiveBattery.Tests
}

func (k *Kit) livePass() *bool {
	if k.LiveBattery == nil {
		return nil
	}
	ok := k.LiveBattery.Pass()
	return &ok
}

func testRows(tests []Test) [][]string {
	var rows [][]string
	for _, t := range tests {
		stat := fmt.Sprintf("%s = %.3f", t.Statistic, t.Value)
		if t.DF > 0 {
			stat += fmt.Sprintf(" (%g df)", t.DF)
		}
		what := t.What
		if t.Detail != "" {
			what += "; " + t.Detail
		}
		rows = append(rows, []string{t.Name, what, stat, fmt.Sprintf("%.4f", t.P), verdict(t.Pass)})
	}
	return rows
}

func verdict(pass bool) string {
	if pass {
		return "PASS"
	}
	return "FAIL"
}

func (k *Kit) randomnessPDF() ([]byte, error) {
	m := k.Meta
	d := NewDoc("Randomness report: "+m.Profile, header(m), m.Created)
	d.Meta(metaRows(m, k.Profile))
	d.H("1. How a shuffle is made")
	for _, s := range ShuffleMethod {
		d.H2(s.Topic)
		d.P(s.Text)
	}
	d.P(OrderNote(k.Profile.Decks))

	b := k.Battery
	d.H(fmt.Sprintf("2. The shuffle's card tests: %s shoes of %d deck(s)", count(int64(b.Shoes)), b.Decks))
	d.P("The shoes are prepared by the production code as a live table prepares them (table.newShoe: shoe.New of a 32-byte seed, then shoe.Prepare with the profile's procedure: " +
		"the shuffle, a random cut, the cut card, the burns); each order tested is the whole shoe as prepared, the burned cards first. For the tests to be rerun, " +
		"the shoes' seeds come from a ChaCha8 stream of the kit's master seed; the same tests are then run again on shoes seeded from crypto/rand (shoe.RandomSeed), " +
		"the live seeding path itself (below). A test fails when its p-value is below " + fmt.Sprint(Alpha) + ".")
	d.Table([]float64{26, 70, 40, 16, 14}, []string{"test", "what it compares", "statistic", "p-value", "verdict"}, testRows(b.Tests), "LLLRC")
	d.Small("position: the rank at each position against uniform; each shoe holds every rank 4·decks times, so the table's margins are fixed shoe by shoe and " +
		"X²·(N−1)/N is chi-square with 12·(N−1) degrees of freedom; position-suit the same by rank and suit, 51·(N−1) df. pairs: one adjacent pair per shoe (at position i mod N−1 of the i-th shoe, so the pairs are independent) " +
		"against the exact probabilities without replacement. Runs: Wald–Wolfowitz's exact mean and variance for a random order of the shoe's fixed cards. Serial correlation: " +
		"the lag-1 correlation of the values within a shoe has mean −1/N exactly for a random order. cut-position: the cut over the positions the procedure allows (AR-07), uniform; " +
		"cut-card: the rank of the card the cut brings forward; burn-i: the rank of the i-th burned card (EG-03), one a shoe, against the shoe's composition.")
	if lb := k.LiveBattery; lb != nil {
		d.H2(fmt.Sprintf("The live seeding path: %s shoes seeded from crypto/rand", count(int64(lb.Shoes))))
		d.P("The same tests on shoes whose seeds come from crypto/rand, as a live table's do (not repeatable by design): " + verdict(lb.Pass()) + ".")
		d.Table([]float64{26, 70, 40, 16, 14}, []string{"test", "what it compares", "statistic", "p-value", "verdict"}, testRows(lb.Tests), "LLLRC")
	}
	d.H2("Rerun")
	d.Mono(k.BatteryCmd)

	d.H("3. NIST SP 800-22 on the shoe generator")
	if nr := k.NIST; nr != nil {
		d.P(fmt.Sprintf("The 15 tests of NIST SP 800-22 Rev. 1a (internal/certify/nist.go, checked against the document's worked examples), with its parameters for sequences of 10⁶ bits "+
			"(block frequency M = 128, non-overlapping templates: the 148 aperiodic ones of 9 bits, approximate entropy m = 10, serial m = 16, linear complexity M = 500), on %s sequences: %s. "+
			"Each line — a test, or one template, state or statistic of a test of several, %d lines as the document's code prints them — by the document's second-level analysis (§4.2) over its own p-values, one a sequence: "+
			"the proportion of p-values at least 0.01 above 0.99 − 3·√(0.99·0.01/m), and their uniformity over ten bins at least 0.0001. "+
			"A random generator fails a line so with the probability in its last column (%.4f at 1,000 sequences), and at least one of the lines in %.0f %% of runs: "+
			"the suite passes when at most %d lines fail, the fewest such that more fail by chance with probability %.2g (at most %g, the lines counted independent). "+
			"%d lines failed: %s.",
			count(int64(nr.Sequences)), nr.Source, len(nr.Results), secondLevel("", "", make([]float64, LabNIST), 0).FalseFail, 100*nr.AnyLineFalseFail,
			nr.Allowed, nr.FamilyFalseFail, NISTFamilyLevel, nr.Failed, verdict(nr.Pass())))
		var r [][]string
		for _, t := range nr.Results {
			r = append(r, []string{"§" + t.Section + " " + t.Test, fmt.Sprintf("%d/%d", t.Passed, int(math.Round(float64(t.Passed)/math.Max(t.Proportion, 1e-12)))),
				fmt.Sprintf("%.4f", t.MinPass), fmt.Sprintf("%.4f", t.Uniformity), verdict(t.Pass), fmt.Sprintf("%.4f", t.FalseFail)})
		}
		d.Table([]float64{64, 26, 24, 26, 18, 22}, []string{"line", "passed", "at least", "uniformity", "verdict", "by chance"}, r, "LRRRCR")
	} else {
		d.P("Not run (--nist 0).")
	}

	d.H("4. The generator's raw output through dieharder")
	if dh := k.Dieharder; dh != nil {
		d.P(fmt.Sprintf("%s. The shoe generator (ChaCha8 of the kit's master seed, 64-bit outputs little-endian) fed to dieharder's raw input (-g 200). "+
			"%d tests: %d PASSED, %d WEAK, %d FAILED: %s. dieharder calls a p-value outside 0.000001…0.999999 FAILED and one outside 0.005…0.995 WEAK "+
			"(a good generator shows about one WEAK in a hundred tests).", dh.Version, len(dh.Tests), dh.Passed, dh.Weak, dh.Failed, verdict(dh.Pass())))
		var r [][]string
		for _, t := range dh.Tests {
			r = append(r, []string{t.Name, fmt.Sprint(t.NTup), fmt.Sprint(t.TSamples), fmt.Sprint(t.PSamples), fmt.Sprintf("%.6f", t.P), t.Assessment})
		}
		d.Table([]float64{60, 15, 30, 25, 30, 25}, []string{"test", "ntup", "tsamples", "psamples", "p-value", "assessment"}, r, "LRRRRC")
		d.H2("Rerun")
		d.Mono(dh.Command)
	} else {
		d.P("Not run: " + k.DieharderNote)
	}
	return d.Bytes()
}
