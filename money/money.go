// Package money is the amount of money the whole system counts in: an
// integer of minor units (cents), never a float. An Amount prints as the
// players read it (String: 12,345.67) or plainly (Plain: 12345.67), parses
// what a person types (Parse: 250 is minor units, 2.50 is units), and does
// its sums checked against Max, the most an amount may be either way: a sum
// that would pass it is refused, never wrapped.
//
// On the wire (JSON) an Amount is a number of minor units, as an int64 is:
// it has no MarshalText on purpose, which would make it a string.
package money

import (
	"fmt"
	"strconv"
	"strings"
)

// Amount is a sum of money in minor units: 1234567 is 12,345.67.
type Amount int64

// Max is the most an amount may be, in minor units, either way: a credit,
// a stake, a payout, a table limit, and every account's balance (the
// house's may go as far below zero). It is 10^15, ten trillion in major
// units: far more than any wallet holds, and small enough that no sum of a
// few thousand amounts within it can overflow an int64 (2^63 ≈ 9.2·10^18):
// a round's postings are a few thousand stakes at most, each bounded by
// the table's maximum (rules: at most 2^40) times a payout of at most
// 1000:1, and a transaction's postings each move at most Max. Amounts
// beyond it are refused where they enter (EINVALID: the API's bodies, a
// table's limits), and the stores refuse a posting that would take a
// balance beyond it. It is the one name of the bound.
const Max Amount = 1_000_000_000_000_000

// Valid reports whether a is within ±Max.
func (a Amount) Valid() bool { return -Max <= a && a <= Max }

// Add returns a+b, and false when either or the sum is beyond ±Max.
func (a Amount) Add(b Amount) (Amount, bool) {
	if !a.Valid() || !b.Valid() {
		return 0, false
	}
	s := a + b // within ±2·Max: no overflow
	return s, s.Valid()
}

// Sub returns a-b, and false when either or the difference is beyond ±Max.
func (a Amount) Sub(b Amount) (Amount, bool) {
	if !b.Valid() {
		return 0, false
	}
	return a.Add(-b)
}

// Mul returns a·n, and false when a or the product is beyond ±Max.
func (a Amount) Mul(n int64) (Amount, bool) {
	if !a.Valid() {
		return 0, false
	}
	if a == 0 || n == 0 {
		return 0, true
	}
	if n > int64(Max) || n < -int64(Max) || abs(int64(a)) > int64(Max)/abs(n) {
		return 0, false
	}
	p := a * Amount(n) // |a·n| ≤ Max
	return p, true
}

func abs(n int64) int64 {
	if n < 0 {
		return -n
	}
	return n
}

// String shows a as the players see it, units grouped by thousands with
// two decimals: 1234567 is "12,345.67", -5 is "-0.05".
func (a Amount) String() string { return a.format(true) }

// Plain shows a as units with two decimals and no grouping: 1234567 is
// "12345.67". Parse reads it back.
func (a Amount) Plain() string { return a.format(false) }

func (a Amount) format(group bool) string {
	u := uint64(a)
	sign := ""
	if a < 0 {
		sign, u = "-", -u // as uint64: right for the least int64 too
	}
	units := strconv.FormatUint(u/100, 10)
	if group && len(units) > 3 {
		var b strings.Builder
		for i, c := range units {
			if i > 0 && (len(units)-i)%3 == 0 {
				b.WriteByte(',')
			}
			b.WriteRune(c)
		}
		units = b.String()
	}
	return fmt.Sprintf("%s%s.%02d", sign, units, u%100)
}

// Style is how a text shows amounts: a table's refusals show its stakes
// and limits in its players' style. The zero Style, Minor, shows the integer
// of minor units as given (a scenario's stakes are minor units).
type Style uint8

const (
	Minor   Style = iota // 1234567: the integer of minor units
	Plain                // 12345.67: Amount.Plain (the terminal game)
	Grouped              // 12,345.67: Amount.String (the web client and the server)
)

// In shows a in style s.
func (a Amount) In(s Style) string {
	switch s {
	case Plain:
		return a.Plain()
	case Grouped:
		return a.String()
	}
	return strconv.FormatInt(int64(a), 10)
}

// Parse reads a positive amount as a person types it: whole minor units
// ("250", as every sabot option and flag takes amounts) or units with a
// point and at most two decimals ("2.50", "2.5", ".75"), so that the two
// spell the same stake. Signs, grouping and a third decimal are refused, and
// so are more than 2^53 units written with a point.
func Parse(s string) (Amount, error) {
	return parse(s, false)
}

// ParseUnits reads a positive amount as the table shows money: in units,
// a whole number ("50" is 50.00) or with a point and at most two decimals
// ("2.50", "2.5", ".75"). Signs, grouping and a third decimal are refused,
// and so are more than 2^53 units. The terminal game reads stakes so.
func ParseUnits(s string) (Amount, error) {
	return parse(s, true)
}

func parse(s string, units bool) (Amount, error) {
	s = strings.TrimSpace(s)
	typed := s
	bad := fmt.Errorf("%q is not an amount: type minor units (250) or units with a point (2.50)", s)
	if units {
		bad = fmt.Errorf("%q is not an amount: type it as the table shows money, in units (25 or 2.50)", s)
		if !strings.Contains(s, ".") && s != "" {
			s += ".00"
		}
	}
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
		return 0, fmt.Errorf("an amount must be positive, not %q", typed)
	}
	return Amount(n), nil
}
