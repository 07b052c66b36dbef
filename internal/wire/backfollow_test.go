package wire

import (
	"strings"
	"testing"

	"sabot/rules"
)

// ES-03, VE-12: the table service serves back_follow=choose and stay, and
// refuses follow in one line naming the option and the rules: a following
// back bet's stake has no decision of its bettor to be debited with.
func TestFollowingBackBetsNotServed_ES03_VE12(t *testing.T) {
	for _, c := range []struct {
		profile, value string
		served         bool
	}{{"spain", "choose", true}, {"spain", "stay", true}, {"venice", "stay", true}, {"spain", "follow", false}, {"venice", "follow", false}} {
		p := rules.MustLookup(c.profile)
		if err := p.Set("back_follow", c.value); err != nil {
			t.Fatal(err)
		}
		err := CheckLimits(p)
		if (err == nil) != c.served || err != nil && !strings.Contains(err.Error(), "back_follow=follow is not served") {
			t.Errorf("%s back_follow=%s: %v", c.profile, c.value, err)
		}
		if err != nil && (strings.Contains(err.Error(), "\n") || !strings.Contains(err.Error(), "(ES-03, VE-12)")) {
			t.Errorf("not one line naming ES-03, VE-12: %v", err)
		}
	}
}
