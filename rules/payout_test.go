package rules

import "testing"

// The best payout is the largest of a blackjack's and the bonuses the
// profile pays, and never less than even money.
func TestBestPayout(t *testing.T) {
	for _, c := range []struct {
		p        Profile
		num, den int64
	}{
		{Profile{BlackjackPays: Ratio{Num: 3, Den: 2}}, 3, 2},
		{Profile{BlackjackPays: Ratio{Num: 6, Den: 5}}, 6, 5},
		{Profile{BlackjackPays: Ratio{Num: 1, Den: 1}}, 1, 1},
		{Profile{BlackjackPays: Ratio{Num: 3, Den: 2}, FiveCard21: true}, 2, 1},
		{Profile{BlackjackPays: Ratio{Num: 3, Den: 2}, FiveCard21: true, ThreeSevens: true}, 3, 1},
		{Profile{BlackjackPays: Ratio{Num: 7, Den: 2}, ThreeSevens: true}, 7, 2},
	} {
		if num, den := c.p.BestPayout(); num != c.num || den != c.den {
			t.Errorf("%+v: %d:%d, want %d:%d", c.p.BlackjackPays, num, den, c.num, c.den)
		}
	}
}
