package sim

import (
	"context"
	"testing"

	"sabot/rules"
)

// ES-03, VE-11, VE-12: the table's reading of the back bet after a split
// or double (back_follow) on the general path, on the same shoes: the box
// holder's net never moves with it (the holder plays and stakes alike, and
// no card is dealt more or less); under follow one back bet at the holder's
// stake nets exactly what the holder nets, round by round, whatever the
// bettor would choose; under stay it nets what a bettor who never follows
// nets at a choose table; and choose is the bettor's own answer.
func TestBackFollowReading_ES03_VE11_VE12(t *testing.T) {
	for _, name := range []string{"spain", "venice"} {
		run := func(reading string, follow bool) Stats {
			t.Helper()
			p := rules.MustLookup(name)
			if err := p.Set("back_follow", reading); err != nil {
				t.Fatal(err)
			}
			res, err := Run(context.Background(), Config{Profile: p, Rounds: 20_000, Seed: 39, BackBets: 1, BackFollow: follow})
			if err != nil {
				t.Fatal(err)
			}
			return res.Stats
		}
		chooseYes, chooseNo := run("choose", true), run("choose", false)
		follow, followNo := run("follow", true), run("follow", false)
		stay, stayYes := run("stay", false), run("stay", true)
		for _, s := range []Stats{chooseNo, follow, followNo, stay, stayYes} {
			if s.X != chooseYes.X || s.XX != chooseYes.XX || s.W != chooseYes.W {
				t.Errorf("%s: the holder's net %d (ΣX² %g) moved with back_follow, want %d (%g)", name, s.X, s.XX, chooseYes.X, chooseYes.XX)
			}
		}
		if follow.BackX != follow.X || follow.BackXX != follow.XX {
			t.Errorf("%s back_follow=follow: the back bet nets %d (ΣX² %g), the holder %d (%g)", name, follow.BackX, follow.BackXX, follow.X, follow.XX)
		}
		if followNo != follow || chooseYes != follow {
			t.Errorf("%s: follow %+v, follow with a bettor who would not %+v, choose and following %+v", name, follow, followNo, chooseYes)
		}
		if stayYes != stay || chooseNo != stay {
			t.Errorf("%s: stay %+v, stay with a bettor who would follow %+v, choose and staying %+v", name, stay, stayYes, chooseNo)
		}
		if stay.BackX == follow.BackX {
			t.Errorf("%s: the back bet nets %d under stay and follow alike", name, stay.BackX)
		}
	}
}
