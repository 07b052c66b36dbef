package sabot

import (
	"sort"
	"strings"

	"sabot/money"
	"sabot/rules"
)

// OptionShoe is the table option that says how a table is dealt: from a
// shoe the server shuffles (ShoeShuffled, the default) or from a physical
// shoe whose cards are read as the dealer deals them (ShoePhysical, issue
// 13; docs/live.md). It is the table's, not the rules': ProfileOf passes
// it by, and it is chosen when the table opens.
const (
	OptionShoe   = "shoe"
	ShoeShuffled = "shuffled"
	ShoePhysical = "physical"
)

// ShoeOf reads a table's shoe option: whether it is dealt from a physical
// shoe. A value other than shuffled or physical is EINVALID.
func ShoeOf(options map[string]string) (physical bool, err error) {
	switch v, ok := options[OptionShoe]; {
	case !ok || v == ShoeShuffled:
		return false, nil
	case v == ShoePhysical:
		return true, nil
	default:
		return false, Errorf(EINVALID, "shoe=%s: give shuffled (the server's random shoe) or physical (cards read from a dealt shoe)", v)
	}
}

// Physical reports whether the table is dealt from a physical shoe.
func (t *Table) Physical() bool {
	p, _ := ShoeOf(t.Options)
	return p
}

// OptionStaff is the table option that names its staff: the dealers and
// inspectors, separated by commas, who may work it (the pit always may).
// Unset, any member of the staff may. It is the table's, not the rules'.
const OptionStaff = "staff"

// StaffOf reads a table's staff option: the names it lists (nil: unset).
func StaffOf(options map[string]string) []string {
	v, ok := options[OptionStaff]
	if !ok {
		return nil
	}
	var out []string
	for _, n := range strings.Split(v, ",") {
		if n = strings.TrimSpace(n); n != "" {
			out = append(out, n)
		}
	}
	return out
}

// The options of a live table's cash float (docs/live.md):
// OptionCashApproval is the largest walk-in buy-in or cash-out the dealer
// makes alone (over it, it is the inspector's or the pit's), and
// OptionFloatLimit the float's ceiling: the most chips the table's cash
// may have out at once (no buy-in takes it past). Amounts, as every option,
// in minor units (or units with a point). They are the table's, not the
// rules'; unset, the server's flags (--cash-approval, --float-limit) hold.
const (
	OptionCashApproval = "cash_approval"
	OptionFloatLimit   = "float_limit"
)

// CashLimitsOf reads a table's cash options: 0 where one is unset. A value
// that is not a positive amount within money.Max is EINVALID.
func CashLimitsOf(options map[string]string) (approval, ceiling money.Amount, err error) {
	read := func(k string) (money.Amount, error) {
		v, ok := options[k]
		if !ok {
			return 0, nil
		}
		a, err := money.Parse(v)
		if err != nil || a <= 0 || a > money.Max {
			return 0, Errorf(EINVALID, "%s=%s: give a positive amount (minor units, or units with a point) up to %d", k, v, int64(money.Max))
		}
		return a, nil
	}
	if approval, err = read(OptionCashApproval); err != nil {
		return 0, 0, err
	}
	if ceiling, err = read(OptionFloatLimit); err != nil {
		return 0, 0, err
	}
	return approval, ceiling, nil
}

// ProfileOf builds a table's rules from a profile name and options on top
// (as a Table stores them), validated; an error is EINVALID and says why.
// The table's own options (shoe, staff, cash_approval, float_limit) are
// not rules: they are checked (ShoeOf, CashLimitsOf) and passed by.
func ProfileOf(name string, options map[string]string) (*rules.Profile, error) {
	p, err := rules.Lookup(name)
	if err != nil {
		return nil, Errorf(EINVALID, "%v", err)
	}
	if _, err := ShoeOf(options); err != nil {
		return nil, err
	}
	if _, _, err := CashLimitsOf(options); err != nil {
		return nil, err
	}
	keys := make([]string, 0, len(options))
	for k := range options {
		if k == OptionShoe || k == OptionStaff || k == OptionCashApproval || k == OptionFloatLimit {
			continue
		}
		keys = append(keys, k)
	}
	// A fixed order, so that an invalid combination reads the same each time.
	sort.Strings(keys)
	for _, k := range keys {
		if err := p.Set(k, options[k]); err != nil {
			return nil, Errorf(EINVALID, "%v", err)
		}
	}
	if err := p.Validate(); err != nil {
		return nil, Errorf(EINVALID, "%v", err)
	}
	return p, nil
}

// Rules returns the table's rules: its profile with its options.
func (t *Table) Rules() (*rules.Profile, error) { return ProfileOf(t.Profile, t.Options) }
