package rules

import (
	"fmt"
	"testing"

	"sabot/money"
)

// limited is a built-in profile with a table minimum of 5.00 and a
// maximum of 100.00.
func limited(t *testing.T, name string) *Profile {
	p := MustLookup(name)
	must(t, p.SetAll([]string{"min_bet=500", "max_bet=10000"}))
	return p
}

// AR-04, FAM-01, VE-21: a stake is positive and within the table's
// minimum and maximum; VE-18: one found below the minimum when the cards
// are dealt stands, one placed short never does.
func TestStakeBar_AR04_FAM01_VE18_VE21(t *testing.T) {
	for _, c := range []struct {
		profile string
		stake   money.Amount
		when    StakeWhen
		want    Bar
	}{
		{"argentina", 500, Placed, NoBar},
		{"argentina", 10000, Placed, NoBar},
		{"argentina", 0, Placed, BarStake},
		{"argentina", -500, Dealt, BarStake},
		{"argentina", 499, Placed, BarMinimum}, // AR-04
		{"argentina", 499, Dealt, BarMinimum},
		{"argentina", 10001, Placed, BarMaximum},
		{"family", 499, Dealt, BarMinimum}, // FAM-01
		{"family", 10001, Dealt, BarMaximum},
		{"venice", 499, Placed, BarMinimum}, // VE-18: never placed short
		{"venice", 499, Dealt, NoBar},       // VE-18: found short, it stands
		{"venice", 1, Dealt, NoBar},
		{"venice", 0, Dealt, BarStake},
		{"venice", 10001, Dealt, BarMaximum}, // VE-21
	} {
		t.Run(fmt.Sprintf("%s/%d/%d", c.profile, c.stake, c.when), func(t *testing.T) {
			if got := limited(t, c.profile).StakeBar(c.stake, c.when); got != c.want {
				t.Errorf("StakeBar = %d, want %d", got, c.want)
			}
		})
	}
}

// AR-05, FAM-01: no back betting; ES-03, VE-03: back bettors up to
// back_bets_per_box (9 in spain, 2 in venice); ES-03, VE-21: the maximum
// binds the box's stakes together (max_bet_scope=box), not in argentina
// (each bettor's).
func TestBoxBar_AR05_ES03_FAM01_VE03_VE21(t *testing.T) {
	perBet := limited(t, "spain")
	must(t, perBet.Set("max_bet_scope", "bet"))
	for _, c := range []struct {
		name         string
		p            *Profile
		bettors      int
		total, stake money.Amount
		want         Bar
	}{
		{"argentina/holder", limited(t, "argentina"), 0, 0, 10000, NoBar},
		{"argentina/back", limited(t, "argentina"), 1, 500, 500, BarNoBackBets}, // AR-05
		{"family/back", limited(t, "family"), 1, 500, 500, BarNoBackBets},       // FAM-01
		{"venice/first-back", limited(t, "venice"), 1, 500, 500, NoBar},         // VE-03
		{"venice/second-back", limited(t, "venice"), 2, 1000, 500, NoBar},
		{"venice/third-back", limited(t, "venice"), 3, 1500, 500, BarBackBettors},
		{"venice/box-full", limited(t, "venice"), 2, 9500, 500, NoBar}, // VE-21: 100.00 together
		{"venice/box-over", limited(t, "venice"), 2, 9500, 501, BarBoxMaximum},
		{"spain/ninth-back", limited(t, "spain"), 9, 4500, 500, NoBar}, // ES-03
		{"spain/tenth-back", limited(t, "spain"), 10, 5000, 500, BarBackBettors},
		{"spain/box-over", limited(t, "spain"), 1, 10000, 500, BarBoxMaximum},
		{"spain/max-per-bet", perBet, 1, 10000, 10000, NoBar},
	} {
		t.Run(c.name, func(t *testing.T) {
			if got := c.p.BoxBar(c.bettors, c.total, c.stake); got != c.want {
				t.Errorf("BoxBar = %d, want %d", got, c.want)
			}
		})
	}
}

// Surrender (reference profiles only): on an unsplit hand's first two
// cards, at a table that has it (surrender=late or early).
func TestSurrenderBar(t *testing.T) {
	late := MustLookup("vegas-s17")
	must(t, late.Set("surrender", "late"))
	for _, c := range []struct {
		name string
		p    *Profile
		h    HandPos
		want Bar
	}{
		{"none", MustLookup("vegas-s17"), pos("TS 6H", 1, false), BarNoSurrender},
		{"argentina", MustLookup("argentina"), pos("TS 6H", 1, false), BarNoSurrender},
		{"two-cards", late, pos("TS 6H", 1, false), NoBar},
		{"three-cards", late, pos("TS 4H 2C", 1, false), BarSurrenderHand},
		{"split", late, pos("8S 8H", 2, false), BarSurrenderHand},
	} {
		t.Run(c.name, func(t *testing.T) {
			if got := c.p.SurrenderBar(c.h); got != c.want {
				t.Errorf("SurrenderBar = %d, want %d", got, c.want)
			}
			if got := c.p.MaySurrender(c.h); got != (c.want == NoBar) {
				t.Errorf("MaySurrender = %v", got)
			}
		})
	}
}

// ES-03, VE-21: the maximum binds a box's stakes together at spain and
// venice (max_bet_scope=box), each bettor's alone elsewhere; VE-21: a
// double over the maximum plays only up to it at venice
// (max_bet_caps_double), in full elsewhere.
func TestMaxBindsBoxAndDoubleCapped_ES03_VE21(t *testing.T) {
	for _, c := range []struct {
		profile string
		binds   bool
		capped  map[money.Amount]bool // a hand of this stake doubled
	}{
		{"argentina", false, map[money.Amount]bool{5000: false, 5001: false, 10000: false}},
		{"spain", true, map[money.Amount]bool{5000: false, 5001: false, 10000: false}},
		{"venice", true, map[money.Amount]bool{5000: false, 5001: true, 10000: true}},
		{"family", false, map[money.Amount]bool{5001: false}},
	} {
		p := limited(t, c.profile)
		if got := p.MaxBindsBox(); got != c.binds {
			t.Errorf("%s: MaxBindsBox = %v, want %v", c.profile, got, c.binds)
		}
		for stake, want := range c.capped {
			if got := p.DoubleCapped(stake); got != want {
				t.Errorf("%s: DoubleCapped(%d) = %v, want %v (maximum 10000)", c.profile, stake, got, want)
			}
		}
	}
}

// AR-04, FAM-01: a lone customer's round costs the minimum; VE-20: at
// venice he plays two boxes, VE-18: of one unit each at least, since a
// stake below the minimum stands once dealt.
func TestLeastRoundStake_AR04_FAM01_VE18_VE20(t *testing.T) {
	for _, c := range []struct {
		profile string
		set     []string
		want    money.Amount
	}{
		{"argentina", nil, 500},
		{"family", nil, 500},
		{"venice", nil, 2},
		{"venice", []string{"below_min_stands=false"}, 1000},
		{"venice", []string{"below_min_stands=false", "lone_customer_boxes=0"}, 500},
		{"argentina", []string{"lone_customer_boxes=3"}, 1500},
	} {
		p := limited(t, c.profile)
		must(t, p.SetAll(c.set))
		if got := p.LeastRoundStake(); got != c.want {
			t.Errorf("%s %v: LeastRoundStake = %d, want %d", c.profile, c.set, got, c.want)
		}
	}
}

// VE-20: at venice a lone customer plays two boxes at least; a second
// player, or a table without the rule, lifts it.
func TestLoneBar_VE20(t *testing.T) {
	venice, argentina := limited(t, "venice"), limited(t, "argentina")
	for _, c := range []struct {
		p              *Profile
		players, boxes int
		want           Bar
		name           string
	}{
		{venice, 1, 1, BarLoneBoxes, "venice, one player on one box"},
		{venice, 1, 2, NoBar, "venice, one player on two boxes"},
		{venice, 2, 1, NoBar, "venice, two players"},
		{argentina, 1, 1, NoBar, "argentina"},
	} {
		if got := c.p.LoneBar(c.players, c.boxes); got != c.want {
			t.Errorf("%s: LoneBar = %d, want %d", c.name, got, c.want)
		}
	}
	if venice.LoneBoxes() != 2 || argentina.LoneBoxes() != 1 {
		t.Errorf("LoneBoxes: venice %d, argentina %d; want 2 and 1", venice.LoneBoxes(), argentina.LoneBoxes())
	}
}
