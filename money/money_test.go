package money

import (
	"encoding/json"
	"math"
	"testing"
)

// Parse reads minor units or units with a point, positive only; Plain
// prints units with two decimals (the terminal game's TestMoney, moved
// here with the formatter).
func TestParsePlain(t *testing.T) {
	for _, c := range []struct {
		in   string
		want Amount
	}{{"250", 250}, {"2.50", 250}, {"2.5", 250}, {".75", 75}, {"10.", 0}, {"0", 0}, {"-5", 0}, {"1.234", 0}, {"x", 0}, {"+3", 0}, {"1.-5", 0},
		{"1,000.00", 0}, {" 7 ", 7}, {"", 0}, {".", 0}, {"9223372036854775808", 0}} {
		got, err := Parse(c.in)
		if c.want == 0 && err == nil || c.want != 0 && (err != nil || got != c.want) {
			t.Errorf("Parse(%q) = %d, %v; want %d", c.in, got, err, c.want)
		}
	}
	for n, want := range map[Amount]string{0: "0.00", 5: "0.05", 250: "2.50", -1050: "-10.50", 100000: "1000.00", 100000000: "1000000.00"} {
		if got := n.Plain(); got != want {
			t.Errorf("Amount(%d).Plain() = %q, want %q", n, got, want)
		}
	}
}

// String groups the units by thousands, as the web client shows money.
func TestString(t *testing.T) {
	for n, want := range map[Amount]string{0: "0.00", 5: "0.05", -5: "-0.05", 99999: "999.99", 100000: "1,000.00", 1234567: "12,345.67",
		-123456789: "-1,234,567.89", Max: "10,000,000,000,000.00", math.MinInt64: "-92,233,720,368,547,758.08"} {
		if got := n.String(); got != want {
			t.Errorf("Amount(%d).String() = %q, want %q", int64(n), got, want)
		}
	}
	for s, want := range map[Style]string{Minor: "1234567", Plain: "12345.67", Grouped: "12,345.67", Style(9): "1234567"} {
		if got := Amount(1234567).In(s); got != want {
			t.Errorf("In(%d) = %q, want %q", s, got, want)
		}
	}
}

// On the wire an amount is a JSON number of minor units, as an int64 was.
func TestJSONIsANumber(t *testing.T) {
	b, err := json.Marshal(struct{ Stake Amount }{1050})
	if err != nil || string(b) != `{"Stake":1050}` {
		t.Fatalf("marshal: %s, %v", b, err)
	}
	var v struct{ Stake Amount }
	if err := json.Unmarshal([]byte(`{"Stake":250}`), &v); err != nil || v.Stake != 250 {
		t.Fatalf("unmarshal: %d, %v", v.Stake, err)
	}
	if err := json.Unmarshal([]byte(`{"Stake":"2.50"}`), &v); err == nil {
		t.Fatal("a string read as an amount")
	}
}

// Sums within ±Max are exact; a sum, difference or product beyond it, or
// of an operand beyond it, is refused rather than wrapped.
func TestCheckedArithmetic(t *testing.T) {
	type want struct {
		n  Amount
		ok bool
	}
	check := func(what string, n Amount, ok bool, w want) {
		t.Helper()
		if ok != w.ok || ok && n != w.n {
			t.Errorf("%s = %d, %v; want %d, %v", what, n, ok, w.n, w.ok)
		}
	}
	n, ok := Amount(150).Add(-200)
	check("150+-200", n, ok, want{-50, true})
	n, ok = (Max - 1).Add(1)
	check("(Max-1)+1", n, ok, want{Max, true})
	n, ok = Max.Add(1)
	check("Max+1", n, ok, want{0, false})
	n, ok = (-Max).Add(-1)
	check("-Max-1", n, ok, want{0, false})
	n, ok = Amount(math.MaxInt64).Add(math.MinInt64)
	check("MaxInt64+MinInt64", n, ok, want{0, false})
	n, ok = Amount(0).Sub(-Max)
	check("0--Max", n, ok, want{Max, true})
	n, ok = Amount(0).Sub(math.MinInt64)
	check("0-MinInt64", n, ok, want{0, false})
	n, ok = (-Max).Sub(1)
	check("-Max-1", n, ok, want{0, false})
	n, ok = Amount(250).Mul(-3)
	check("250·-3", n, ok, want{-750, true})
	n, ok = (Max / 4).Mul(4)
	check("Max/4·4", n, ok, want{Max, true})
	n, ok = (Max/4 + 1).Mul(4)
	check("(Max/4+1)·4", n, ok, want{0, false})
	n, ok = Amount(1).Mul(math.MinInt64)
	check("1·MinInt64", n, ok, want{0, false})
	n, ok = Amount(0).Mul(math.MaxInt64)
	check("0·MaxInt64", n, ok, want{0, true})
	n, ok = Amount(math.MaxInt64).Mul(0)
	check("MaxInt64·0", n, ok, want{0, false})
	n, ok = Amount(2).Mul(int64(Max) / 2)
	check("2·Max/2", n, ok, want{Max, true})
	if !Max.Valid() || !(-Max).Valid() || (Max + 1).Valid() || (-Max - 1).Valid() {
		t.Error("Valid is not ±Max")
	}
}

// Whatever Parse accepts is positive and prints as a Plain text that parses
// to the same amount, up to 2^53 units (beyond, Parse reads only minor units).
func FuzzParse(f *testing.F) {
	for _, s := range []string{"250", "2.50", "2.5", ".75", "0", "1.234", "1000000.00", "9007199254740993.5"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		a, err := Parse(s)
		if err != nil {
			return
		}
		if a <= 0 {
			t.Fatalf("Parse(%q) = %d, not positive", s, a)
		}
		if a/100 > 1<<53 {
			return
		}
		b, err := Parse(a.Plain())
		if err != nil || b != a {
			t.Fatalf("Parse(%q) = %d; its Plain %q parses to %d, %v", s, a, a.Plain(), b, err)
		}
	})
}

// ParseUnits reads money as the table shows it: a whole number is units
// (the terminal game's "bet 50" is 50.00, not 0.50).
func TestParseUnits(t *testing.T) {
	for _, c := range []struct {
		in   string
		want Amount
	}{{"50", 5000}, {"5000", 500000}, {"2.50", 250}, {"0.5", 50}, {".75", 75}, {" 7 ", 700}, {"10.", 0}, {"0", 0}, {"-5", 0},
		{"1.234", 0}, {"x", 0}, {"", 0}, {"1,000", 0}, {"9223372036854775808", 0}} {
		got, err := ParseUnits(c.in)
		if c.want == 0 && err == nil || c.want != 0 && (err != nil || got != c.want) {
			t.Errorf("ParseUnits(%q) = %d, %v; want %d", c.in, got, err, c.want)
		}
	}
	if _, err := ParseUnits("x"); err == nil || err.Error() != `"x" is not an amount: type it as the table shows money, in units (25 or 2.50)` {
		t.Errorf("ParseUnits(x): %v", err)
	}
}
