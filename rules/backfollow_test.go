package rules

import (
	"strings"
	"testing"
)

// back_follow=follow or stay needs a back bet to follow or stay: with no
// back betting the option is refused in one line naming it.
func TestBackFollowNeedsBackBets_ES03_VE12(t *testing.T) {
	for _, v := range []string{"follow", "stay"} {
		p := MustLookup("argentina")
		if err := p.Set("back_follow", v); err != nil {
			t.Fatal(err)
		}
		err := p.Validate()
		if err == nil || err.Error() != "invalid profile: back_follow="+v+" with back_bets_per_box=0: no back bet to follow or stay (ES-03, VE-12)" {
			t.Errorf("argentina with back_follow=%s: %v", v, err)
		}
	}
	p := MustLookup("venice")
	if err := p.Set("back_follow", "always"); err == nil || err.Error() != `bad option: back_follow="always": want one of choose, follow, stay` {
		t.Errorf("back_follow=always: %v", err)
	}
}

// ES-03, VE-11, VE-12: every value of back_follow is a named reading at a
// table with back bets, cited by the regulation's own rule, and at venice
// only choose keeps VE-11's double («non sono obbligati a raddoppiare la
// posta»): follow and stay are departures naming VE-11.
func TestBackFollowReadings_ES03_VE11_VE12(t *testing.T) {
	for _, c := range []struct{ profile, rule string }{{"spain", "ES-03"}, {"venice", "VE-12"}} {
		for _, v := range []string{"choose", "follow", "stay"} {
			p := MustLookup(c.profile)
			must(t, p.Set("back_follow", v))
			must(t, p.Validate())
			n := 0
			for _, r := range p.Readings() {
				if r.Option == "back_follow" {
					n++
					if r.Rule != c.rule || r.Value != v || r.Text == "" {
						t.Errorf("%s back_follow=%s: reading %+v", c.profile, v, r)
					}
				}
			}
			if n != 1 {
				t.Errorf("%s back_follow=%s: %d readings of it", c.profile, v, n)
			}
			var departs []string
			for _, d := range p.Departures() {
				if d.Option == "back_follow" {
					departs = append(departs, d.String())
				}
			}
			want := 0
			if c.profile == "venice" && v != "choose" {
				want = 1
			}
			if len(departs) != want || want == 1 && !strings.HasPrefix(departs[0], "VE-11: back_follow="+v) {
				t.Errorf("%s back_follow=%s: departures %q", c.profile, v, departs)
			}
		}
	}
	for _, name := range []string{"argentina", "family"} {
		for _, r := range MustLookup(name).Readings() {
			if r.Option == "back_follow" {
				t.Errorf("%s, without back bets, reads back_follow: %+v", name, r)
			}
		}
	}
}
