package play

import (
	"fmt"
	"strconv"
	"strings"
)

// Money is printed in units with two decimals (1000 minor units print as
// 10.00) and read either way: a whole number is minor units, as in every
// other sabot option and flag (bet 250), and a number with a decimal point is
// units (bet 2.50), so the two spell the same stake.

// FormatMoney prints an amount of minor units as units with two decimals.
func FormatMoney(n int64) string {
	sign := ""
	if n < 0 {
		sign, n = "-", -n
	}
	return fmt.Sprintf("%s%d.%02d", sign, n/100, n%100)
}

// FormatNet prints a net with its sign: +10.00, -5.50, 0.00.
func FormatNet(n int64) string {
	if n > 0 {
		return "+" + FormatMoney(n)
	}
	return FormatMoney(n)
}

// ParseAmount reads a positive amount: whole minor units ("250") or units
// with at most two decimals ("2.50", "2.5").
func ParseAmount(s string) (int64, error) {
	s = strings.TrimSpace(s)
	bad := fmt.Errorf("%q is not an amount: type minor units (250) or units with a point (2.50)", s)
	whole, frac, dot := strings.Cut(s, ".")
	if whole == "" && !dot || strings.HasPrefix(whole, "+") || strings.HasPrefix(whole, "-") {
		return 0, bad
	}
	var n int64
	if whole != "" {
		w, err := strconv.ParseInt(whole, 10, 64)
		if err != nil || w < 0 {
			return 0, bad
		}
		n = w
	}
	if dot {
		if len(frac) == 0 || len(frac) > 2 || n > 1<<53 {
			return 0, bad
		}
		f, err := strconv.ParseInt(frac, 10, 64)
		if err != nil || f < 0 || strings.HasPrefix(frac, "+") {
			return 0, bad
		}
		if len(frac) == 1 {
			f *= 10
		}
		n = n*100 + f
	}
	if n <= 0 {
		return 0, fmt.Errorf("an amount must be positive, not %q", s)
	}
	return n, nil
}
