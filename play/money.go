package play

import "sabot/money"

// Money is printed in units with two decimals (1000 minor units print as
// 10.00: money.Amount.Plain) and read either way (money.Parse): a whole
// number is minor units, as in every other sabot option and flag (bet 250),
// and a number with a decimal point is units (bet 2.50), so the two spell
// the same stake.

// FormatNet prints a net with its sign: +10.00, -5.50, 0.00.
func FormatNet(n money.Amount) string {
	if n > 0 {
		return "+" + n.Plain()
	}
	return n.Plain()
}
