// Package profilefile reads rule profiles from TOML or JSON files and resolves
// a profile argument: a built-in name or a file path, with --option overrides.
package profilefile

import (
	"bytes"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"strings"

	"github.com/pelletier/go-toml/v2"

	"sabot/rules"
)

// Parse decodes a profile file's bytes; format is "toml" or "json" (empty:
// guessed from the first non-blank byte, '{' meaning JSON).
func Parse(data []byte, format string) (*rules.Profile, error) {
	p, _, err := parse(data, format)
	return p, err
}

// parse is Parse with the notes of rules.FromMapNoted.
func parse(data []byte, format string) (*rules.Profile, []string, error) {
	if format == "" {
		format = "toml"
		if t := bytes.TrimSpace(data); len(t) > 0 && t[0] == '{' {
			format = "json"
		}
	}
	m := map[string]any{}
	switch format {
	case "json":
		d := json.NewDecoder(bytes.NewReader(data))
		d.UseNumber()
		var raw map[string]any
		if err := d.Decode(&raw); err != nil {
			return nil, nil, fmt.Errorf("profile file: %v", err)
		}
		for k, v := range raw {
			if n, ok := v.(json.Number); ok {
				i, err := n.Int64()
				if err != nil {
					return nil, nil, fmt.Errorf("profile file: %s: want an integer, got %s", k, n)
				}
				v = i
			}
			m[k] = v
		}
	case "toml":
		if err := toml.Unmarshal(data, &m); err != nil {
			return nil, nil, fmt.Errorf("profile file: %v", err)
		}
	default:
		return nil, nil, fmt.Errorf("profile file: unknown format %q (want toml or json)", format)
	}
	return rules.FromMapNoted(m)
}

// Load reads a profile file; the format follows the extension (.json, else TOML).
func Load(path string) (*rules.Profile, error) {
	p, _, err := load(path)
	return p, err
}

func load(path string) (*rules.Profile, []string, error) {
	data, err := os.ReadFile(path)
	if err != nil {
		return nil, nil, err
	}
	format := "toml"
	if strings.EqualFold(filepath.Ext(path), ".json") {
		format = "json"
	}
	p, notes, err := parse(data, format)
	if err != nil {
		return nil, nil, fmt.Errorf("%s: %w", path, err)
	}
	for i := range notes {
		notes[i] = path + ": " + notes[i]
	}
	return p, notes, nil
}

// Resolve returns the profile named by arg, a built-in name or a file path,
// with key=value overrides applied and validated.
func Resolve(arg string, overrides []string) (*rules.Profile, error) {
	p, _, err := ResolveNoted(arg, overrides)
	return p, err
}

// ResolveNoted is Resolve, with a note for each option counted in cards
// that followed a change of the decks alone (rules.Profile.Override), for
// the user to read.
func ResolveNoted(arg string, overrides []string) (*rules.Profile, []string, error) {
	var notes []string
	p, err := rules.Lookup(arg)
	if err != nil {
		if _, statErr := os.Stat(arg); statErr != nil {
			return nil, nil, err
		}
		if p, notes, err = load(arg); err != nil {
			return nil, nil, err
		}
	}
	more, err := p.Override(overrides)
	if err != nil {
		return nil, nil, err
	}
	return p, append(notes, more...), nil
}
