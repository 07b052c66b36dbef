package server

import (
	"fmt"
	"strings"

	"golang.org/x/text/currency"
)

// CheckCurrency reads the currency the house's money is shown in: an ISO
// 4217 code ("EUR", "ars" is "ARS") whose minor unit is a hundredth, as
// sabot's money counts hundredths. "" is none: amounts are shown as plain
// numbers (play money). It answers the code in capitals.
func CheckCurrency(code string) (string, error) {
	if code == "" {
		return "", nil
	}
	u, err := currency.ParseISO(code)
	if err != nil {
		return "", fmt.Errorf("currency %q: not an ISO 4217 code (e.g. EUR, ARS)", code)
	}
	if scale, _ := currency.Standard.Rounding(u); scale != 2 {
		return "", fmt.Errorf("currency %s: its minor unit is not a hundredth (%d decimals); sabot's money counts hundredths", u, scale)
	}
	return strings.ToUpper(u.String()), nil
}
