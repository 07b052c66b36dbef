package rules

import (
	"fmt"
	"sort"
	"strconv"
)

// FromMap builds a profile from decoded profile-file fields: "base" names a
// built-in profile to start from (without it, a plain 6-deck peek game is the
// start), "name" and "description" label it, and every other key is an
// option. Values may be strings, numbers or booleans. The profile is
// validated.
func FromMap(m map[string]any) (*Profile, error) {
	p, _, err := FromMapNoted(m)
	return p, err
}

// FromMapNoted is FromMap, with the notes on options scaled with the decks
// where the file changes its base's decks and not them (Override).
func FromMapNoted(m map[string]any) (*Profile, []string, error) {
	p, err := fromMap(m)
	if err != nil {
		return nil, nil, err
	}
	if b, ok := m["base"].(string); ok {
		base, _ := Lookup(b)
		set := map[string]bool{}
		for k := range m {
			set[k] = true
		}
		notes := p.followDecks(base.Decks, set)
		return p, notes, p.Validate()
	}
	return p, nil, p.Validate()
}

func fromMap(m map[string]any) (*Profile, error) {
	var p *Profile
	if b, ok := m["base"]; ok {
		name, ok := b.(string)
		if !ok {
			return nil, fmt.Errorf("%w: base must be a profile name", ErrBadOption)
		}
		var err error
		if p, err = Lookup(name); err != nil {
			return nil, err
		}
	} else {
		b := base()
		p = &b
		p.Name = "custom"
	}
	keys := make([]string, 0, len(m))
	for k := range m {
		keys = append(keys, k)
	}
	// Options are applied in canonical order so that a file's result does
	// not depend on map order.
	sort.Slice(keys, func(i, j int) bool { return optionIndex(keys[i]) < optionIndex(keys[j]) })
	for _, k := range keys {
		v := m[k]
		switch k {
		case "base":
			continue
		case "name", "description":
			s, ok := v.(string)
			if !ok {
				return nil, fmt.Errorf("%w: %s must be a string", ErrBadOption, k)
			}
			if k == "name" {
				p.Name = s
			} else {
				p.Description = s
			}
			continue
		}
		s, err := scalarText(v)
		if err != nil {
			return nil, fmt.Errorf("%w: %s: %v", ErrBadOption, k, err)
		}
		if err := p.Set(k, s); err != nil {
			return nil, err
		}
	}
	return p, nil
}

// ApplyMap sets the options of m (as in a scenario's "options") on p and
// validates it.
func (p *Profile) ApplyMap(m map[string]any) error {
	decks, set := p.Decks, map[string]bool{}
	keys := make([]string, 0, len(m))
	for k := range m {
		keys = append(keys, k)
		set[k] = true
	}
	sort.Slice(keys, func(i, j int) bool { return optionIndex(keys[i]) < optionIndex(keys[j]) })
	for _, k := range keys {
		s, err := scalarText(m[k])
		if err != nil {
			return fmt.Errorf("%w: %s: %v", ErrBadOption, k, err)
		}
		if err := p.Set(k, s); err != nil {
			return err
		}
	}
	p.followDecks(decks, set) // as Override, without its notes
	return p.Validate()
}

func optionIndex(k string) int {
	for i, o := range options {
		if o.Key == k {
			return i
		}
	}
	return -1
}

func scalarText(v any) (string, error) {
	switch x := v.(type) {
	case string:
		return x, nil
	case bool:
		return strconv.FormatBool(x), nil
	case float64:
		if x != float64(int64(x)) {
			return "", fmt.Errorf("want an integer, got %v", x)
		}
		return strconv.FormatInt(int64(x), 10), nil
	case int64:
		return strconv.FormatInt(x, 10), nil
	case int:
		return strconv.Itoa(x), nil
	}
	return "", fmt.Errorf("want a string, number or boolean, got %T", v)
}
