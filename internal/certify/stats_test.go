package certify

import (
	"math"
	"testing"
)

// TestChiSquareP against known quantiles of the chi-square distribution
// (and the normal's).
func TestChiSquareP(t *testing.T) {
	for _, c := range []struct{ x, df, p float64 }{
		{3.841458820694124, 1, 0.05},
		{18.307038053275146, 10, 0.05},
		{23.209251158954356, 10, 0.01},
		{2.55821216019, 10, 0.99},
		{124.342113404, 100, 0.05},
		{1.0, 2, math.Exp(-0.5)},
		{3807.0, 3732, 0.19213}, // large df: Wilson–Hilferty, z = 0.8702
	} {
		got := ChiSquareP(c.x, c.df)
		tol := 1e-6
		if c.df > 1000 {
			tol = 1e-4
		}
		if math.Abs(got-c.p) > tol {
			t.Errorf("P(chi2_%v ≥ %v) = %v, want %v", c.df, c.x, got, c.p)
		}
	}
	if p := NormalP(1.959963984540054); math.Abs(p-0.05) > 1e-12 {
		t.Errorf("NormalP(1.96) = %v", p)
	}
}
