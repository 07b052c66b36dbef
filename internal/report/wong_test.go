package report

import (
	"testing"

	"sabot/engine"
	"sabot/money"
	"sabot/rules"
	"sabot/shoe"
)

// wongSession plays rounds of a vegas-s17 table from shuffled shoes: ana
// holds box 1 every round, wo box 2 only at a Hi-Lo true count of +1 and
// up (a wonger: flat bet, sits out otherwise) and fl box 3 every round
// (flat); every hand stands. It returns the round (from 1; 0: never) the
// live watch flagged each of wo and fl for his presence (FlagWong), and
// their presence scores at the end.
func wongSession(t testing.TB, seed uint64, rounds int) (wo, fl int, woScore, flScore BackScore) {
	p, err := rules.Lookup("vegas-s17")
	if err != nil {
		t.Fatal(err)
	}
	var s *shoe.Shoe
	var watch CountWatch
	rc := 0
	for n := 1; n <= rounds; n++ {
		if s == nil {
			s = shoe.New(p.Decks, shoe.SeedFromUint64(seed<<20+uint64(n)))
			if _, err := s.Prepare(p.ShoeProcedure(), 0); err != nil {
				t.Fatal(err)
			}
			rc = 0
		}
		pos := s.Pos()
		tc := float64(rc) / max(float64(p.Decks*52-pos)/52, 0.5)
		r := engine.New(p)
		r.Reset(s)
		seats := map[int]string{1: "ana", 3: "fl"}
		if tc >= 1 {
			seats[2] = "wo"
		}
		stakes := map[string]money.Amount{}
		for _, box := range []int{1, 2, 3} {
			if name, ok := seats[box]; ok {
				if err := r.PlaceBet(name, box, 100); err != nil {
					t.Fatal(err)
				}
				stakes[name] = 100
			}
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
				box, hand := r.Current()
				a = engine.Action{Kind: engine.Stand, Player: seats[box], Box: box, Hand: hand}
			}
			if err := r.Act(a); err != nil {
				t.Fatalf("round %d: %v", n, err)
			}
		}
		rec := r.Record()
		for _, f := range watch.Settled(p, pos, stakes, rec) {
			if f.Kind != FlagWong {
				continue
			}
			switch f.Player {
			case "wo":
				wo = n
			case "fl":
				fl = n
			}
		}
		for _, c := range rec.Cards {
			rc += CountHiLo.Tags[c.Value()]
		}
		if r.LastRound() {
			s = nil
		}
	}
	return wo, fl, watch.players["wo"].present.Score(), watch.players["fl"].present.Score()
}

// A box player who plays only at a true count of +1 and up is flagged by
// the live watch for his presence (z ≥ LiveFlagZ, 3.8, asked every 10 of
// his shoes' rounds from the 50th); one who plays every round of the same
// table never (he sits out no round: no score).
func TestCountWatchFlagsAWonger(t *testing.T) {
	wo, fl, ws, fs := wongSession(t, 45_000_001, 1000)
	t.Logf("wonger: flagged at round %d, %+v; flat: %d, %+v", wo, ws, fl, fs)
	if wo == 0 || ws.Z < LiveFlagZ || ws.CountBacked < 1 || ws.Backed >= ws.Rounds {
		t.Errorf("a wonger is not flagged: round %d, %+v", wo, ws)
	}
	if fl != 0 || fs.Flagged || fs.Backed != fs.Rounds {
		t.Errorf("a flat bettor at every round is flagged: round %d, %+v", fl, fs)
	}
}

// The presence detector's rates (docs/pit.md): of SABOT_WONG_SESSIONS
// sessions of 1,000 rounds, the wonger is flagged within 300 rounds in 90 %
// and the flat bettor never.
func TestWongDetectorRates(t *testing.T) {
	n := sessions("SABOT_WONG_SESSIONS", 20)
	var by300, ever, flat int
	for i := range n {
		wo, fl, _, _ := wongSession(t, uint64(45_100_000+i), 1000)
		if wo != 0 && wo <= 300 {
			by300++
		}
		if wo != 0 {
			ever++
		}
		if fl != 0 {
			flat++
		}
	}
	t.Logf("of %d sessions of 1,000 rounds: wonger flagged by the live watch within 300 rounds in %d, within 1,000 in %d; flat bettor in %d", n, by300, ever, flat)
	if by300*100 < 90*n || flat != 0 {
		t.Errorf("wonger flagged within 300 rounds in %d of %d, flat bettor in %d: want 90 %% and none", by300, n, flat)
	}
}
