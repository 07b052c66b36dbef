package wire

import (
	"testing"

	"sabot/rules"
)

// ES-03, VE-12: the table service serves every back_follow reading: under
// follow the holder's split or double takes each back bettor's matching
// stake in its transaction (internal/actor TestFollowingBackBetsServed_ES03_VE12).
func TestFollowingBackBetsAccepted_ES03_VE12(t *testing.T) {
	for _, profile := range []string{"spain", "venice"} {
		for _, value := range []string{"choose", "follow", "stay"} {
			p := rules.MustLookup(profile)
			if err := p.Set("back_follow", value); err != nil {
				t.Fatal(err)
			}
			if err := CheckLimits(p); err != nil {
				t.Errorf("%s back_follow=%s: %v", profile, value, err)
			}
		}
	}
}
