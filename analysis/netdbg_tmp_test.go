package analysis

import (
	"bytes"
	"context"
	"math"
	"math/rand/v2"
	"os"
	"testing"

	"sabot/rules"
)

func TestTmpNetAtoms(t *testing.T) {
	name := os.Getenv("NETDBG")
	if name == "" {
		t.Skip()
	}
	p := rules.MustLookup(name)
	res, _ := Analyze(context.Background(), p, Options{})
	nr, _ := NetDistributions(context.Background(), p)
	var buf bytes.Buffer
	res.Basic.WriteCSV(&buf)
	card, _ := ReadCSV(&buf)
	r := &simRound{simulator: &simulator{p: p, card: card, t: t}, rng: rand.New(rand.NewPCG(7, 7))}
	n := 1000000
	cnt := map[int32]float64{}
	for i := 0; i < n; i++ {
		cnt[netKey(r.round())]++
	}
	for _, o := range nr.TD.Outcomes {
		k := netKey(o.Net)
		c := cnt[k] / float64(n)
		se := math.Sqrt(o.P * (1 - o.P) / float64(n))
		t.Logf("%+6.2f exact %.6f sim %.6f  %+.1f SE", o.Net, o.P, c, (c-o.P)/max(se, 1e-12))
		delete(cnt, k)
	}
	for k, v := range cnt {
		t.Logf("sim only: %+6.2f %.6f", float64(k)/netScale, v/float64(n))
	}
}
