package certify

import "math"

// ChiSquareP is the probability that a chi-square variable of df degrees of
// freedom is at least x: the regularized upper incomplete gamma function
// Q(df/2, x/2), by its series below a+1 and its continued fraction above
// (Numerical Recipes, §6.2).
func ChiSquareP(x, df float64) float64 {
	if x <= 0 {
		return 1
	}
	return gammaQ(df/2, x/2)
}

func gammaQ(a, x float64) float64 {
	lg, _ := math.Lgamma(a)
	if x < a+1 {
		// The series of P(a, x); Q = 1 − P.
		sum, del, ap := 1/a, 1/a, a
		for n := 0; n < 100000; n++ {
			ap++
			del *= x / ap
			sum += del
			if math.Abs(del) < math.Abs(sum)*1e-15 {
				break
			}
		}
		return math.Max(0, 1-sum*math.Exp(-x+a*math.Log(x)-lg))
	}
	// Lentz's continued fraction of Q(a, x).
	const tiny = 1e-300
	b := x + 1 - a
	c := 1 / tiny
	d := 1 / b
	h := d
	for i := 1; i < 100000; i++ {
		an := -float64(i) * (float64(i) - a)
		b += 2
		d = an*d + b
		if math.Abs(d) < tiny {
			d = tiny
		}
		c = b + an/c
		if math.Abs(c) < tiny {
			c = tiny
		}
		d = 1 / d
		del := d * c
		h *= del
		if math.Abs(del-1) < 1e-15 {
			break
		}
	}
	return math.Exp(-x+a*math.Log(x)-lg) * h
}

// NormalP is the two-sided p-value of a standard normal z.
func NormalP(z float64) float64 { return math.Erfc(math.Abs(z) / math.Sqrt2) }
