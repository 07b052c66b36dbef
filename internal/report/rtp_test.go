package report

import (
	"math/rand/v2"
	"testing"

	"sabot/money"
)

// watchRun watches rounds of one box of 100 whose house win is drawn from
// a normal law of the theory's edge and SD (the central limit's
// approximation of a sum of rounds; the watch alarms only from
// WatchMinRounds on), the house edge shifted by shift per unit; it returns
// the round of the first alarm, 0 for none.
func watchRun(th *Theory, rng *rand.Rand, rounds int, shift float64) int {
	var w Watch
	for n := 1; n <= rounds; n++ {
		win := 100 * (th.HouseEdge + shift + th.SD*rng.NormFloat64())
		// The win is money: rounded to the minor unit, as the ledger's.
		if w.Add(th, []money.Amount{100}, money.Amount(roundHalf(win))).Crossed {
			return n
		}
	}
	return 0
}

func roundHalf(x float64) float64 {
	if x < 0 {
		return -roundHalf(-x)
	}
	return float64(int64(x + 0.5))
}

// The watch's false-alarm rate, measured (docs/pit.md): a fair game leaves
// the band within 100,000 rounds in fewer than 1 % of watches; a game
// whose return is off by 2 % (a shoe short of tens, a wrong payout) leaves
// it within 200,000 rounds nearly always.
func TestWatchFalseAlarms(t *testing.T) {
	th := &Theory{HouseEdge: 0.004, SD: 1.15}
	rng := rand.New(rand.NewPCG(29, 3))
	const watches = 100
	fair, off := 0, 0
	for range watches {
		if watchRun(th, rng, 100_000, 0) != 0 {
			fair++
		}
		if watchRun(th, rng, 200_000, -0.02) != 0 {
			off++
		}
	}
	t.Logf("of %d watches: a fair game alarmed %d times in 100,000 rounds; one 2 %% off %d times in 200,000", watches, fair, off)
	if fair > 1 || off < watches*95/100 {
		t.Errorf("alarms: fair %d of %d (want at most 1), 2 %% off %d (want at least 95 %%)", fair, watches, off)
	}
}

// The state says the return and its band: RTP is 1 − win/stakes, the
// certified figure 1 − the edge, the band WatchZ standard deviations of
// the return either side.
func TestWatchState(t *testing.T) {
	th := &Theory{HouseEdge: 0.01, SD: 1}
	var w Watch
	var st WatchState
	for range 10_000 {
		st = w.Add(th, []money.Amount{100}, 3) // the house wins 3 % of the stakes
	}
	if st.Rounds != 10_000 || abs(st.RTP-0.97) > 1e-12 || abs(st.Certified-0.99) > 1e-12 {
		t.Fatalf("%+v", st)
	}
	sd := 1 / 100.0 // SD per unit / √rounds
	if abs(st.Low-(0.99-WatchZ*sd)) > 1e-12 || abs(st.Z-(-2)) > 1e-9 || st.Outside {
		t.Errorf("%+v, want a band of ±%g and z −2", st, WatchZ*sd)
	}
}

func abs(x float64) float64 {
	if x < 0 {
		return -x
	}
	return x
}
