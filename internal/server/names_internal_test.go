package server

import (
	"strings"
	"testing"
	"unicode/utf8"

	"sabot"
)

// The players of these regulations are José and Ana
// María. Names take letters of any alphabet, spaces and apostrophes
// between words, and say their limit; look-alike mixes are refused.
func TestCheckName(t *testing.T) {
	t.Parallel()
	for in, want := range map[string]string{
		"José":                        "José",
		"Jose\u0301":                  "José", // a combining accent: kept composed
		"Ana María":                   "Ana María",
		"D'Angelo":                    "D'Angelo",
		"Núñez-Ortiz":                 "Núñez-Ortiz",
		"ａｎａ":                         "ana",
		"Niccolò":                     "Niccolò",
		"Σωκράτης":                    "Σωκράτης",
		"Дмитрий":                     "Дмитрий",
		"山田太郎":                        "山田太郎",
		"bot_7.x-1":                   "bot_7.x-1",
		strings.Repeat("é", 32):       strings.Repeat("é", 32),
		strings.Repeat("e\u0301", 32): strings.Repeat("é", 32), // 64 runes typed, 32 kept
	} {
		got, err := checkName(in)
		if err != nil || got != want {
			t.Errorf("checkName(%q) = %q, %v; want %q", in, got, err, want)
		}
	}
	for in, why := range map[string]string{
		"":                       "at least one letter",
		"...":                    "at least one letter",
		strings.Repeat("a", 33):  "at most 32 characters; this one has 33",
		strings.Repeat("a", 200): "at most 32 characters; this one has 200",
		" ana":                   "between two letters",
		"ana ":                   "between two letters",
		"Ana  María":             "between two letters",
		"'ana":                   "between two letters",
		"ana\tbel":               "U+0009 is not allowed",
		"ana\u200bbel":           "U+200B is not allowed", // zero width space
		"ana@x":                  "'@' is not allowed",
		"аna":                    "one alphabet", // Cyrillic а, Latin na
		"\u0301ana":              "accent marks follow a letter",
		"ana\xff":                "UTF-8",
	} {
		_, err := checkName(in)
		if sabot.ErrorCode(err) != sabot.EINVALID || !strings.Contains(err.Error(), why) {
			t.Errorf("checkName(%q): %v; want EINVALID saying %q", in, err, why)
		}
	}
}

// Any string gives a name that passes again unchanged, or a one-line
// refusal.
func FuzzCheckName(f *testing.F) {
	for _, s := range []string{"José", "Ana María", "аna", "ａｎａ", "e\u0301", "a b", "x'y"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		got, err := checkName(s)
		if err != nil {
			if strings.Contains(err.Error(), "\n") {
				t.Fatalf("a refusal on two lines: %q", err)
			}
			return
		}
		if again, err := checkName(got); err != nil || again != got {
			t.Fatalf("checkName(%q) = %q, which gives %q, %v", s, got, again, err)
		}
		if n := utf8.RuneCountInString(got); n < 1 || n > MaxName {
			t.Fatalf("checkName(%q) kept %d characters", s, n)
		}
	})
}
