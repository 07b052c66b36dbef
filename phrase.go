package sabot

import "strings"

// Phrase is a piece of a sentence the server says in English for a client
// to word in its own language (docs/protocol.md, "Words"): a key of the
// client's catalogue, the values the piece names (numbers, amounts in minor
// units, player names, rule IDs; never words) and its English text. A
// phrase without a key is punctuation, the same in every language. The
// rules in plain words and the significant events are said so.
type Phrase struct {
	Key    string         `json:"key,omitempty"`
	Params map[string]any `json:"params,omitempty"`
	Text   string         `json:"text"`
}

// Say makes a phrase: its key, its English text and its values as name,
// value pairs.
func Say(key, text string, kv ...any) Phrase {
	p := Phrase{Key: key, Text: text}
	if len(kv) > 0 {
		p.Params = make(map[string]any, len(kv)/2)
		for i := 0; i+1 < len(kv); i += 2 {
			p.Params[kv[i].(string)] = kv[i+1]
		}
	}
	return p
}

// Sentence is the phrases' texts one after the other.
func Sentence(ps []Phrase) string {
	var b strings.Builder
	for _, p := range ps {
		b.WriteString(p.Text)
	}
	return b.String()
}
