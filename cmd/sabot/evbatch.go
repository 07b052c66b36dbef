package main

import (
	"bufio"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"strings"

	"github.com/spf13/cobra"

	"sabot/analysis"
	"sabot/card"
	"sabot/rules"
)

// evInput is one hand of a batch: the input line's fields.
type evInput struct {
	Up         string `json:"up"`
	Hand       string `json:"hand"`
	Removed    string `json:"removed,omitempty"`
	SplitHands int    `json:"split_hands,omitempty"`
	SplitPlay  string `json:"split_play,omitempty"`
}

// evOutput is one line of a batch's output: the input echoed (the line as
// given and as read), and the values or why the hand was refused.
type evOutput struct {
	Line   int              `json:"line"`
	Text   string           `json:"text"`
	Input  *evInput         `json:"input,omitempty"`
	Values *analysis.Values `json:"values,omitempty"`
	Notes  []string         `json:"notes,omitempty"`
	Error  string           `json:"error,omitempty"`
}

// parseEVLine reads a batch line: a JSON object, or "UP HAND [REMOVED]".
func parseEVLine(line string) (evInput, error) {
	var in evInput
	if strings.HasPrefix(line, "{") {
		d := json.NewDecoder(strings.NewReader(line))
		d.DisallowUnknownFields()
		if err := d.Decode(&in); err != nil {
			return in, fmt.Errorf("not a hand: %v (want {\"up\":\"T\",\"hand\":\"8,8\"} or \"T 8,8\")", err)
		}
		return in, nil
	}
	f := strings.Fields(line)
	if len(f) < 2 || len(f) > 3 {
		return in, fmt.Errorf("not a hand: want \"UP HAND [REMOVED]\" (e.g. \"T 8,8\" or \"6 A,7 5,5\"), got %d fields", len(f))
	}
	in.Up, in.Hand = f[0], f[1]
	if len(f) == 3 {
		in.Removed = f[2]
	}
	return in, nil
}

// evBatch values every hand of the file (or stdin), one JSON line out for
// each line in (blank lines and # comments skipped), in order. A line
// refused gets its error in its output line and the batch goes on; the
// command then exits 2, saying how many lines were refused.
func evBatch(cmd *cobra.Command, e *env, p *rules.Profile, from, removed string, splitHands int, splitPlay string) error {
	var r io.Reader = e.stdin
	if from != "-" {
		f, err := os.Open(from)
		if err != nil {
			return refused("--batch: %v", err)
		}
		defer f.Close()
		r = f
	}
	enc := json.NewEncoder(e.stdout)
	sc := bufio.NewScanner(r)
	sc.Buffer(make([]byte, 64<<10), 1<<20)
	n, bad := 0, 0
	for sc.Scan() {
		n++
		if err := cmd.Context().Err(); err != nil {
			return failed("ev --batch: %v", err)
		}
		text := strings.TrimSpace(sc.Text())
		if text == "" || strings.HasPrefix(text, "#") {
			continue
		}
		out := evOutput{Line: n, Text: text}
		in, err := parseEVLine(text)
		if err == nil {
			out.Input = &in
			if in.Removed == "" {
				in.Removed = removed
			}
			if in.SplitHands == 0 {
				in.SplitHands = splitHands
			}
			if in.SplitPlay == "" {
				in.SplitPlay = splitPlay
			}
			var h []card.Card
			out.Values, h, err = evOne(p, in)
			if err == nil {
				sp, _ := analysis.ParseSplitPlay(in.SplitPlay)
				out.Notes = publishedNotes(p, h, in.SplitHands, sp)
			}
		}
		if err != nil {
			var ee *exitError
			if errors.As(err, &ee) && ee.code == exitFailure {
				return err
			}
			out.Error, bad = err.Error(), bad+1
		}
		if err := enc.Encode(out); err != nil {
			return failed("ev --batch: %v", err)
		}
	}
	if err := sc.Err(); err != nil {
		return failed("ev --batch: %v", err)
	}
	if bad > 0 {
		return refused("ev --batch: %d of the hands refused (their lines say why)", bad)
	}
	return nil
}

// evOne values one hand of a batch.
func evOne(p *rules.Profile, in evInput) (*analysis.Values, []card.Card, error) {
	sp, err := analysis.ParseSplitPlay(in.SplitPlay)
	if err != nil {
		return nil, nil, fmt.Errorf("split_play: %v", err)
	}
	u, err := analysis.ParseRanks(in.Up)
	if err != nil {
		return nil, nil, fmt.Errorf("up: %v", err)
	}
	if len(u) != 1 {
		return nil, nil, fmt.Errorf("up takes one card, not %d", len(u))
	}
	h, err := analysis.ParseRanks(in.Hand)
	if err != nil {
		return nil, nil, fmt.Errorf("hand: %v", err)
	}
	rem, err := analysis.ParseRanks(in.Removed)
	if err != nil {
		return nil, nil, fmt.Errorf("removed: %v", err)
	}
	if in.SplitHands < 0 {
		return nil, nil, fmt.Errorf("split_hands: %d: want 0 (the profile's max_hands) or more", in.SplitHands)
	}
	v, err := analysis.HandValues(p, u[0], h, analysis.EVOptions{Removed: rem, SplitHands: in.SplitHands, SplitPlay: sp})
	if err != nil {
		if errors.Is(err, rules.ErrInvalid) || errors.Is(err, analysis.ErrHand) {
			return nil, nil, err
		}
		return nil, nil, failed("ev: %v", err)
	}
	return v, h, nil
}

// publishedNotes says where a published table's rules differ from the
// profile's, for a hand (nil: every pair, --pairs) valued so: Nairn's
// exact split tables, and Farmer's resplit figures where said, resplit
// Aces; a profile that does not gives A,A a different value (docs/analysis.md).
func publishedNotes(p *rules.Profile, hand []card.Card, splitHands int, sp analysis.SplitPlay) []string {
	hands := splitHands
	if hands == 0 {
		hands = p.MaxHands
	}
	aces := hand == nil || (len(hand) == 2 && hand[0].Rank() == card.Ace && hand[1].Rank() == card.Ace)
	var out []string
	if aces && hands > 2 && !p.ResplitAces && !p.HitSplitAces {
		who := "Farmer's tables with RSA and Nairn's"
		if sp == analysis.SplitBasic {
			who = "Nairn's exact tables (--split-play exact)"
		}
		out = append(out, fmt.Sprintf("%s resplit Aces; this profile does not (resplit_aces=false): to compare A,A with them give -o resplit_aces=true (one deck, to 4 hands, A,A differs by up to 0.087, against a 7)", who))
	}
	return out
}
