package sabot

import (
	"sort"

	"sabot/rules"
)

// ProfileOf builds a table's rules from a profile name and options on top
// (as a Table stores them), validated; an error is EINVALID and says why.
func ProfileOf(name string, options map[string]string) (*rules.Profile, error) {
	p, err := rules.Lookup(name)
	if err != nil {
		return nil, Errorf(EINVALID, "%v", err)
	}
	keys := make([]string, 0, len(options))
	for k := range options {
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
