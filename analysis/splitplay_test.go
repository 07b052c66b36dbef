package analysis

import (
	"bufio"
	"errors"
	"math"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"sabot/card"
	"sabot/rules"
)

// TestFarmerSplitPlays compares the value of splitting every pair against
// every up card with Eric Farmer's analyzer 7.6 (github.com/possibly-wrong/
// blackjack, src/strategy.cpp, built here with g++ -O2) under each of his
// three post-split strategies — CDZ- (the unsplit hand's play), CDP1 and
// CDP (the optimum for each number of other pair cards removed) — on five
// rule sets (1, 2 and 6 decks; S17 and H17; DAS or not; resplit Aces; late
// surrender; a one-deck shoe with seven cards removed), resplits to four
// hands: 1,500 values, the data files his output as scripts/farmer-split.sh
// regenerates it. Every value is ours to his last printed digit (nine
// decimals of a percent).
func TestFarmerSplitPlays(t *testing.T) {
	t.Parallel() // pure computation on its own profiles: the package's long checks side by side
	files, err := filepath.Glob("testdata/farmer-split/*.txt")
	if err != nil || len(files) < 15 {
		t.Fatalf("Farmer's data: %v, %d files", err, len(files))
	}
	for _, f := range files {
		t.Run(filepath.Base(f), func(t *testing.T) { farmerSplitFile(t, f) })
	}
}

func farmerSplitFile(t *testing.T, path string) {
	fh, err := os.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer fh.Close()
	var (
		p        *rules.Profile
		removed  []card.Card
		sp       SplitPlay
		up       card.Card
		hand     []card.Card
		query    string
		n, impos int
		worst    float64
	)
	sc := bufio.NewScanner(fh)
	for sc.Scan() {
		line := sc.Text()
		switch {
		case strings.HasPrefix(line, "# sabot: "):
			p, removed = farmerProfile(t, strings.TrimPrefix(line, "# sabot: "))
		case strings.HasPrefix(line, "# split-play: "):
			if sp, err = ParseSplitPlay(strings.TrimPrefix(line, "# split-play: ")); err != nil {
				t.Fatal(err)
			}
		case strings.HasPrefix(line, "> "):
			query = line
			f := strings.Fields(line[2:])
			up, hand = farmerKind(t, f[0]), []card.Card{farmerKind(t, f[2]), farmerKind(t, f[3])}
		case strings.HasPrefix(line, "Split"):
			_, num, _ := strings.Cut(line, "=")
			w, err := strconv.ParseFloat(strings.TrimSuffix(strings.TrimSpace(num), "%"), 64)
			if err != nil {
				t.Fatalf("%s: %v", line, err)
			}
			v, err := HandValues(p, up, hand, EVOptions{Removed: removed, SplitPlay: sp})
			if !possible(p, up, hand, removed) {
				if !errors.Is(err, ErrHand) {
					t.Errorf("%s: not refused (%v)", query, err)
				}
				impos++
				continue
			}
			if err != nil {
				t.Fatalf("%s: %v", query, err)
			}
			if v.Split == nil {
				t.Errorf("%s: Farmer splits %.9f%%, ours not open", query, w)
				continue
			}
			d := math.Abs(100**v.Split - w)
			worst = max(worst, d)
			if d > 0.5e-9+1e-12 {
				t.Errorf("%s %s: ours %.11f%%, Farmer %.9f%%", query, sp, 100**v.Split, w)
			}
			n++
		}
	}
	if n+impos != 100 {
		t.Errorf("%d values and %d hands the shoe cannot hold, want 100 in all", n, impos)
	}
	t.Logf("%s: %d split values equal to Farmer's printed digits (largest difference %.2g%%)", sp, n, worst)
}

// farmerProfile reads a data file's "# sabot:" line: a profile, options,
// and removed=CARDS.
func farmerProfile(t *testing.T, line string) (*rules.Profile, []card.Card) {
	f := strings.Fields(line)
	p := rules.MustLookup(f[0])
	var opts []string
	var removed []card.Card
	for _, o := range f[1:] {
		if r, ok := strings.CutPrefix(o, "removed="); ok {
			for _, c := range strings.Split(r, ",") {
				k, err := ParseKind(c)
				if err != nil {
					t.Fatal(err)
				}
				removed = append(removed, kindCard[k])
			}
			continue
		}
		opts = append(opts, o)
		if o == "decks=1" {
			opts = append(opts, "cut_card_reserve=0")
		}
	}
	if err := p.SetAll(opts); err != nil {
		t.Fatal(err)
	}
	return p, removed
}

// farmerKind is a card in Farmer's notation: 1 the Ace … 10 a ten-value.
func farmerKind(t *testing.T, s string) card.Card {
	k, err := strconv.Atoi(s)
	if err != nil || k < 1 || k > 10 {
		t.Fatalf("card %q", s)
	}
	return kindCard[k-1]
}

// With one split (two hands) the post-split strategies are ordered as
// theory says: CDP1 is the optimum for the one shoe each split hand is
// valued from (its own cards and the other pair card out), so CDP, which
// plays that shoe's optimum too, equals it, and every other play fixed by
// the hand's own cards — CDZ-, Nairn's basic strategy — is worth no more.
// With resplits (four hands) none of them is optimal and the order may
// turn; they stay within a few thousandths of a unit of each other.
func TestSplitPlayOrder(t *testing.T) {
	t.Parallel() // pure computation on its own profiles: the package's long checks side by side
	sets := [][]string{
		{"decks=1", "cut_card_reserve=0"},
		{"decks=2", "dealer_hits_soft_17=true", "double_after_split=false"},
		{"decks=6", "resplit_aces=true", "surrender=late"},
	}
	plays := []SplitPlay{SplitCDZ, SplitBasic, SplitCDP1, SplitCDP}
	if testing.Short() {
		sets = sets[:1]
	}
	for _, set := range sets {
		p := rules.MustLookup("vegas-s17")
		if err := p.SetAll(set); err != nil {
			t.Fatal(err)
		}
		strict := 0
		for _, hands := range []int{2, 4} {
			for P := 0; P < kinds; P++ {
				for u := 0; u < kinds; u++ {
					var x [4]float64
					for i, sp := range plays {
						v, err := HandValues(p, kindCard[u], []card.Card{kindCard[P], kindCard[P]}, EVOptions{SplitHands: hands, SplitPlay: sp})
						if err != nil {
							t.Fatal(err)
						}
						x[i] = *v.Split
					}
					cdz, basic, cdp1, cdp := x[0], x[1], x[2], x[3]
					what := strings.Join(set, " ") + " " + UpName(P) + "," + UpName(P) + " v " + UpName(u)
					if hands == 2 {
						if cdp != cdp1 {
							t.Errorf("%s, one split: CDP %.12f, CDP1 %.12f: want equal", what, cdp, cdp1)
						}
						if cdz > cdp1+1e-13 || basic > cdp1+1e-13 {
							t.Errorf("%s, one split: CDZ- %.12f, basic %.12f above CDP1 %.12f", what, cdz, basic, cdp1)
						}
						if cdz < cdp1-1e-9 {
							strict++
						}
						continue
					}
					for i, y := range x {
						if math.Abs(y-cdp1) > 0.02 {
							t.Errorf("%s, four hands: %s %.6f, CDP1 %.6f", what, plays[i], y, cdp1)
						}
					}
				}
			}
		}
		if strict == 0 {
			t.Errorf("%v: CDZ- equals CDP1 on every one-split hand: the post-split play is not the unsplit hand's", set)
		}
	}
}
