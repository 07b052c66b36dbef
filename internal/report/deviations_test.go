package report

import (
	"bufio"
	"bytes"
	"fmt"
	"maps"
	"math"
	"math/rand/v2"
	"os"
	"slices"
	"strconv"
	"strings"
	"testing"

	"sabot"
	"sabot/engine"
	"sabot/money"
	"sabot/rules"
	"sabot/shoe"
	"sabot/sim"
)

// The table the detector reads is Schlesinger's, as the simulator carries
// it (sim/data/illustrious18-fab4.csv), less insurance: row for row, the
// same hands, up cards, indexes and plays.
func TestIndexPlaysAreSchlesingers(t *testing.T) {
	code := map[engine.Kind]string{engine.Hit: "H", engine.Stand: "S", engine.Double: "D", engine.Split: "P", engine.Surrender: "R"}
	want := map[string]bool{}
	sc := bufio.NewScanner(bytes.NewReader(sim.Illustrious18()))
	for sc.Scan() {
		l := strings.TrimSpace(sc.Text())
		if l == "" || strings.HasPrefix(l, "#") || strings.HasPrefix(l, "hand,") || strings.HasPrefix(l, "insurance,") {
			continue
		}
		want[l] = true
	}
	got := map[string]bool{}
	for _, x := range IndexPlays {
		up := strconv.Itoa(x.Up)
		if x.Up == 1 {
			up = "A"
		}
		above, below := code[x.Play], code[x.Basic]
		if !x.Above {
			above, below = below, above
		}
		got[fmt.Sprintf("%s,%s,%g,%s,%s", x.Hand, up, x.Index, above, below)] = true
	}
	for l := range want {
		if !got[l] {
			t.Errorf("Schlesinger's %s is not in IndexPlays", l)
		}
	}
	for l := range got {
		if !want[l] {
			t.Errorf("IndexPlays has %s, which is not Schlesinger's", l)
		}
	}
	if len(IndexPlays) != 21 {
		t.Errorf("%d rows, want the 17 of the Illustrious 18 besides insurance and the Fab 4", len(IndexPlays))
	}
}

// The score is stratified by row: a player who always takes one row's
// index play and never another's is not flagged, whatever the counts at
// the two; one who takes it exactly when the count says so is.
func TestIndexScorer(t *testing.T) {
	var basic, fixed, counter IndexScorer
	rng := rand.New(rand.NewPCG(1, 2))
	for range 400 {
		tc := rng.NormFloat64() * 2
		for _, row := range []int{4, 16} { // H16 v T (0, above) and H12 v 4 (0, below)
			x := IndexPlays[row]
			said := x.Says(tc)
			basic.Add(row, false, said)
			fixed.Add(row, row == 16, said) // always hits 12 against a 4
			counter.Add(row, said, said)
		}
	}
	if s := basic.Score(); s.Z != 0 || s.Flagged || s.Decisions != 800 || s.DeviatedSaid+s.DeviatedNotSay != 0 {
		t.Errorf("basic: %+v", s)
	}
	if s := fixed.Score(); s.Z != 0 || s.Flagged || s.DeviatedSaid+s.DeviatedNotSay != 400 {
		t.Errorf("always one row's play: %+v", s)
	}
	if s := counter.Score(); !s.Flagged || s.DeviatedNotSay != 0 || s.DeviatedSaid != s.Said {
		t.Errorf("counter: %+v", s)
	}
}

// The count at a decision is the shoe's earlier rounds' (rc) and the cards
// face up on the layout, over the decks left after every card drawn, the
// hole card too: at one deck, 10 cards out before the round (running +2),
// ana's T,6 against a ten, bea's 3,4 and the dealer's hole card (a 7, not
// counted): running +2 −1 +1 −1 +1 +1 = +3, 52−10−6 = 36 cards left.
func TestIndexDecisionCount(t *testing.T) {
	p, err := rules.Lookup("vegas-s17")
	if err != nil {
		t.Fatal(err)
	}
	p.Decks = 1
	// Dealt box 1, box 2, up card, box 1, box 2, hole; then draws.
	cards := cardsOf(t, "T,3,T,6,4,7,2,5,9,9")
	r := engine.New(p)
	r.Reset(&engine.Forced{Cards: cards})
	for _, b := range []engine.PlacedBet{{Player: "ana", Box: 1, Stake: 100}, {Player: "bea", Box: 2, Stake: 100}} {
		if err := r.PlaceBet(b.Player, b.Box, b.Stake); err != nil {
			t.Fatal(err)
		}
	}
	if err := r.Start(); err != nil {
		t.Fatal(err)
	}
	for _, a := range []engine.Action{{Kind: engine.Stand, Player: "ana", Box: 1, Hand: 1}, {Kind: engine.Stand, Player: "bea", Box: 2, Hand: 1}} {
		if err := r.Act(a); err != nil {
			t.Fatal(err)
		}
	}
	var got []string
	indexDecisions(replayer{}, p, r.Record(), 2, 10, func(player string, row int, deviated bool, tc float64) {
		got = append(got, fmt.Sprintf("%s %s v %d %v %.4f", player, IndexPlays[row].Hand, IndexPlays[row].Up, deviated, tc))
	})
	want := []string{fmt.Sprintf("ana H16 v 10 true %.4f", 3/(36.0/52))}
	if fmt.Sprint(got) != fmt.Sprint(want) {
		t.Errorf("decisions %q, want %q", got, want)
	}
}

// A player at the table: his bet in units at the Hi-Lo true count (0: none
// this round), and, where a row of IndexPlays applies, whether he takes its
// index play.
type indexPlayer struct {
	bet     func(tc float64, rng *rand.Rand) int64
	deviate func(x IndexPlay, tc float64, rng *rand.Rand) bool
}

var (
	// Basic strategy at the index hands: never the index play.
	basicPlayer = indexPlayer{bet: flatBettor, deviate: func(IndexPlay, float64, *rand.Rand) bool { return false }}
	// Departs from basic strategy at random, a quarter of the time.
	randomDeviator = indexPlayer{bet: flatBettor, deviate: func(_ IndexPlay, _ float64, rng *rand.Rand) bool { return rng.Float64() < 0.25 }}
	// The index plays, flat bets: `sabot bots --strategy hilo-index`'s play.
	indexCounter = indexPlayer{bet: flatBettor, deviate: func(x IndexPlay, tc float64, _ *rand.Rand) bool { return x.Says(tc) }}
)

// A back bettor: whether he bets behind box 1 this round, at a Hi-Lo true
// count.
type backer func(tc float64, rng *rand.Rand) bool

var (
	// Bets behind at +2 and up: `sabot bots --strategy hilo-back`.
	wonger backer = func(tc float64, _ *rand.Rand) bool { return tc >= BackCount }
	// Bets behind a third of the rounds, whatever the count.
	randomBacker backer = func(_ float64, rng *rand.Rand) bool { return rng.Float64() < 1.0/3 }
)

// checkpoints are the rounds at which a session's scores are read, as a
// report over its first rounds would read them.
var checkpoints = []int{100, 200, 300, 500, 1000}

// trace is what a session's scores were: the report's (its IndexScorer's
// and BackScorer's, fed as AdvantageReport feeds them) at each checkpoint,
// and the round (from 1; 0: never) a CountWatch fed the same rounds
// (Settled, as the server feeds it) flagged each.
type trace struct {
	index, back           map[int]bool // checkpoint → flagged
	indexScore, backScore IndexScore
	backEnd               BackScore
	liveIndex, liveBack   int
}

// indexSession plays rounds of one box (ana's) at a table of the profile,
// from shuffled shoes, with a back bettor (bo) behind it if back is set,
// and scores them as the report does: ana's decisions at the index hands
// (indexDecisions on each round's record, the count from the earlier
// rounds' cards and the cut), bo's back bets (the shoes' rounds, their
// counts at the deal); and as the live watch does.
func indexSession(t testing.TB, p *rules.Profile, seed uint64, rounds int, pl indexPlayer, back backer) trace {
	rng := rand.New(rand.NewPCG(seed, 2929))
	var s *shoe.Shoe
	var index IndexScorer
	var watch CountWatch
	tr := trace{index: map[int]bool{}, back: map[int]bool{}}
	rp := replayer{}
	shoeNo, rc := 0, 0
	// The back bets are scored a shoe at a time: at a checkpoint, the
	// shoes done and the one in play so far.
	var done BackScorer
	backs := backShoes{}
	backScore := func() BackScore {
		sc := done
		for i := range sc.n {
			sc.n[i] = maps.Clone(done.n[i])
		}
		if cur := backs[1]; cur != nil {
			cur.flush(func(string) *BackScorer { return &sc })
		}
		return sc.Score()
	}
	for n := 1; n <= rounds; n++ {
		if s == nil {
			s = shoe.New(p.Decks, shoe.SeedFromUint64(seed<<20+uint64(n)))
			if _, err := s.Prepare(p.ShoeProcedure(), 0); err != nil {
				t.Fatal(err)
			}
			shoeNo++
			rc = 0
		}
		pos := s.Pos()
		left := max(float64(p.Decks*52-pos)/52, 0.5)
		tc := float64(rc) / left
		r := engine.New(p)
		r.Reset(s)
		stake := money.Amount(100 * pl.bet(tc, rng))
		if err := r.PlaceBet("ana", 1, stake); err != nil {
			t.Fatal(err)
		}
		stakes := map[string]money.Amount{"ana": stake}
		if back != nil && back(tc, rng) {
			if err := r.PlaceBet("bo", 1, 100); err != nil {
				t.Fatal(err)
			}
			stakes["bo"] = 100
		}
		if err := r.Start(); err != nil {
			t.Fatal(err)
		}
		for i := 0; r.Phase() != engine.Done; i++ {
			if i > 100 {
				t.Fatal("round does not end")
			}
			a := engine.Action{Kind: engine.Close}
			if r.Phase() == engine.Playing {
				a = decide(r, rc, pos, p.Decks, pl, rng)
			}
			if err := r.Act(a); err != nil {
				t.Fatalf("round %d: %v", n, err)
			}
		}
		rec := r.Record()
		indexDecisions(rp, p, rec, rc, pos, func(player string, row int, deviated bool, tc float64) {
			index.Add(row, deviated, IndexPlays[row].Says(tc))
		})
		backs.add(1, shoeNo, tc, backBettors(rec.Bets), func(string) *BackScorer { return &done })
		for _, f := range watch.Settled(p, pos, stakes, rec) {
			switch {
			case f.Kind == FlagIndex && f.Player == "ana":
				tr.liveIndex = n
			case f.Kind == FlagBack && f.Player == "bo":
				tr.liveBack = n
			}
		}
		for _, c := range rec.Cards {
			rc += CountHiLo.Tags[c.Value()]
		}
		if r.LastRound() {
			s = nil
		}
		if slices.Contains(checkpoints, n) {
			tr.index[n] = index.Score().Flagged
			tr.back[n] = backScore().Flagged
		}
	}
	tr.indexScore, tr.backEnd = index.Score(), backScore()
	return tr
}

// decide is ana's decision: at a hand where a row of IndexPlays applies, the
// row's index play or its basic play (the player's deviate says which, at
// the true count of the cards face up and the cards drawn); else hit below
// 17; any legal decision where that one is not.
func decide(r *engine.Round, rc, pos, decks int, pl indexPlayer, rng *rand.Rand) engine.Action {
	box, hand := r.Current()
	a := engine.Action{Kind: engine.Stand, Player: "ana", Box: box, Hand: hand}
	h := r.Hands(box)[hand-1]
	up := r.Dealer().Cards()[0]
	legal := func(k engine.Kind) bool {
		b := a
		b.Kind = k
		return r.Legal(b)
	}
	run, drawn := rc, 0
	for _, b := range r.Boxes() {
		for _, x := range r.Hands(b) {
			for _, c := range x.Cards() {
				run += CountHiLo.Tags[c.Value()]
				drawn++
			}
		}
	}
	run += CountHiLo.Tags[up.Value()]
	drawn += len(r.Dealer().Cards())
	tc := float64(run) / max(float64(decks*52-pos-drawn)/52, 0.5)
	done := false
	IndexRows(h.Cards(), up, legal, func(row int) {
		if done {
			return
		}
		x := IndexPlays[row]
		a.Kind, done = x.Basic, true
		if pl.deviate(x, tc, rng) {
			a.Kind = x.Play
		}
	})
	if !done && h.Total() < 17 {
		a.Kind = engine.Hit
	}
	if !r.Legal(a) {
		for _, x := range r.LegalActions(nil) {
			if x.Player == "ana" {
				return x
			}
		}
	}
	return a
}

func sessions(env string, n int) int {
	if v, err := strconv.Atoi(os.Getenv(env)); err == nil && v > 0 {
		return v
	}
	return n
}

// flagged counts the sessions flagged by a checkpoint (the report's single
// test over the session's first rounds), and those a live watch flagged by
// then.
func flagged(trs []trace, by int, back bool) (report, live int) {
	for _, tr := range trs {
		f, at := tr.index[by], tr.liveIndex
		if back {
			f, at = tr.back[by], tr.liveBack
		}
		if f {
			report++
		}
		if at != 0 && at <= by {
			live++
		}
	}
	return report, live
}

// rates says a kind of session's rates at each checkpoint: the report's,
// the live watch's.
func rates(trs []trace, back bool) string {
	var b strings.Builder
	for _, c := range checkpoints {
		r, l := flagged(trs, c, back)
		fmt.Fprintf(&b, " %d: %d, %d;", c, r, l)
	}
	return b.String()
}

// The index detector's rates, measured (docs/pit.md): at a vegas-s17 table
// with late surrender (so the Fab 4 count), a player who takes the index
// plays is flagged within some hundreds of rounds, by the report and by
// the live watch; a basic-strategy player never; one who departs at random
// about as often as FlagZ says (the report), seldom (the watch).
// SABOT_INDEX_SESSIONS measures on more sessions (the note's figures).
func TestIndexDetectorRates(t *testing.T) {
	p, err := sabot.ProfileOf("vegas-s17", map[string]string{"surrender": "late"})
	if err != nil {
		t.Fatal(err)
	}
	n := sessions("SABOT_INDEX_SESSIONS", 60)
	const rounds = 1000
	var counter, random, basic []trace
	decisions := 0
	for i := range n {
		seed := uint64(29_000_000 + i)
		counter = append(counter, indexSession(t, p, seed, rounds, indexCounter, nil))
		decisions += counter[i].indexScore.Decisions
		random = append(random, indexSession(t, p, seed, rounds, randomDeviator, nil))
		basic = append(basic, indexSession(t, p, seed, rounds, basicPlayer, nil))
	}
	t.Logf("of %d sessions (%.1f decisions at the index hands a 100 rounds), flagged by the report over the first N rounds, and by the watch within them: index player%s random deviator%s basic%s",
		n, 100*float64(decisions)/float64(n*rounds), rates(counter, false), rates(random, false), rates(basic, false))
	if r, l := flagged(counter, 500, false); r*100 < 95*n || l*100 < 90*n {
		t.Errorf("an index player is flagged over 500 rounds in %d and %d of %d sessions: want 95 %% and 90 %%", r, l, n)
	}
	for _, c := range checkpoints {
		r, l := flagged(random, c, false)
		rb, lb := flagged(basic, c, false)
		if r*100 > 2*n || l*100 > 2*n || rb+lb != 0 {
			t.Errorf("false alarms over %d rounds: random deviator %d and %d of %d, basic %d and %d: want at most 2 %% and none", c, r, l, n, rb, lb)
		}
	}
}

// The back-bet detector's rates, measured (docs/pit.md): at a spain table
// (back bets, ES-03), a back bettor behind a flat basic player's box who
// bets only at true counts of +2 and up is flagged within a few hundred
// rounds; one who bets behind at random, whatever the count, seldom.
// SABOT_BACK_SESSIONS measures on more sessions.
func TestBackDetectorRates(t *testing.T) {
	p, err := rules.Lookup("spain")
	if err != nil {
		t.Fatal(err)
	}
	n := sessions("SABOT_BACK_SESSIONS", 60)
	const rounds = 1000
	var wong, random []trace
	for i := range n {
		seed := uint64(92_000_000 + i)
		wong = append(wong, indexSession(t, p, seed, rounds, basicPlayer, wonger))
		if s := wong[i].backEnd; s.Backed == 0 || s.CountBacked < BackCount {
			t.Fatalf("session %d: a wonger's back bets %+v", i, s)
		}
		random = append(random, indexSession(t, p, seed, rounds, basicPlayer, randomBacker))
	}
	t.Logf("of %d sessions, flagged by the report over the first N rounds, and by the watch within them: wonger%s random back bettor%s",
		n, rates(wong, true), rates(random, true))
	if r, l := flagged(wong, 300, true); r*100 < 95*n || l*100 < 90*n {
		t.Errorf("a wonger is flagged over 300 rounds in %d and %d of %d sessions: want 95 %% and 90 %%", r, l, n)
	}
	for _, c := range checkpoints {
		if r, l := flagged(random, c, true); r*100 > 2*n || l*100 > 2*n {
			t.Errorf("false alarms over %d rounds: random back bettor %d and %d of %d: want at most 2 %%", c, r, l, n)
		}
	}
}

// A Mann–Whitney z from its rounds: the backed rounds at higher counts give
// a positive z, a back bettor at every round none.
func TestBackScorer(t *testing.T) {
	var s, all BackScorer
	for i := range 100 {
		c := float64(i%10) - 4.5
		s.Add(c > 2, c)
		all.Add(true, c)
	}
	got := s.Score()
	if !got.Flagged || got.Backed != 30 || got.Rounds != 100 || math.Abs(got.CountBacked-3.5) > 1e-9 || math.Abs(got.CountOther+1.5) > 1e-9 {
		t.Errorf("%+v", got)
	}
	if a := all.Score(); a.Z != 0 || a.Flagged || a.Backed != 100 {
		t.Errorf("at every round: %+v", a)
	}
}
