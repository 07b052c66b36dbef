package sabot

import "testing"

func TestProfileOf(t *testing.T) {
	p, err := ProfileOf("venice", map[string]string{"min_bet": "500", "max_bet": "50000"})
	if err != nil || p.MinBet != 500 || p.MaxBet != 50000 || p.Name != "venice" {
		t.Fatalf("%v %+v", err, p)
	}
	tbl := &Table{Profile: "argentina", Options: map[string]string{"decks": "6"}}
	if p, err := tbl.Rules(); err != nil || p.Decks != 6 || !p.Challenge {
		t.Fatalf("table rules: %v %+v", err, p)
	}
	for _, bad := range []*Table{
		{Profile: "monaco"},
		{Profile: "venice", Options: map[string]string{"max_hands": "0"}},
		{Profile: "venice", Options: map[string]string{"colour": "red"}},
	} {
		if _, err := bad.Rules(); ErrorCode(err) != EINVALID || ErrorMessage(err) == "" {
			t.Errorf("%+v: %v, want EINVALID with a reason", bad, err)
		}
	}
}
