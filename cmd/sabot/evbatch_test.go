package main

import (
	"bytes"
	"context"
	"encoding/json"
	"strings"
	"testing"
)

// TestEVBatchOneLineEachHand: `ev --batch -` writes one JSON line for each
// hand in, in order, the input echoed, the values those of `ev --json` for
// the same hand; a bad line gets its error in its line, the batch goes on,
// and the command exits 2 with one line.
func TestEVBatchOneLineEachHand(t *testing.T) {
	t.Parallel()
	in := strings.Join([]string{
		"T 8,8",
		"# a comment",
		"",
		`{"up":"6","hand":"A,7","removed":"5,5"}`,
		"X 8,8",
		`{"up":"T"}`,
		"A T,6 T,T,T",
	}, "\n")
	var out, errb bytes.Buffer
	code := Run(context.Background(), []string{"ev", "vegas-s17", "--batch", "-"}, strings.NewReader(in), &out, &errb)
	if code != 2 || strings.Count(strings.TrimSpace(errb.String()), "\n") != 0 || !strings.Contains(errb.String(), "2 of the hands") {
		t.Errorf("exit %d, stderr %q: want 2 and one line counting the 2 refused", code, errb.String())
	}
	lines := strings.Split(strings.TrimSpace(out.String()), "\n")
	if len(lines) != 5 {
		t.Fatalf("%d lines out for 5 hands:\n%s", len(lines), out.String())
	}
	want := []struct {
		line              int
		up, hand, removed string
		bad               bool
	}{{1, "T", "8,8", "", false}, {4, "6", "A,7", "5,5", false}, {5, "X", "8,8", "", true}, {6, "T", "", "", true}, {7, "A", "T,6", "T,T,T", false}}
	for i, w := range want {
		var o struct {
			Line   int     `json:"line"`
			Text   string  `json:"text"`
			Input  evInput `json:"input"`
			Values *struct {
				Best  string   `json:"best"`
				Stand *float64 `json:"stand"`
			} `json:"values"`
			Error string `json:"error"`
		}
		if err := json.Unmarshal([]byte(lines[i]), &o); err != nil {
			t.Fatalf("line %d: %v: %s", i+1, err, lines[i])
		}
		if o.Line != w.line || o.Input.Up != w.up || o.Input.Hand != w.hand || o.Input.Removed != w.removed || (o.Error != "") != w.bad || (o.Values == nil) != w.bad {
			t.Errorf("output %d: %s", i+1, lines[i])
			continue
		}
		if w.bad {
			continue
		}
		args := []string{"ev", "vegas-s17", "--up", w.up, "--hand", w.hand, "--json"}
		if w.removed != "" {
			args = append(args, "--removed", w.removed)
		}
		_, single, _ := runCmd(t, args...)
		var v struct {
			Best  string   `json:"best"`
			Stand *float64 `json:"stand"`
		}
		json.Unmarshal([]byte(single), &v)
		if v.Best != o.Values.Best || v.Stand == nil || o.Values.Stand == nil || *v.Stand != *o.Values.Stand {
			t.Errorf("%s: the batch says %+v, `sabot %s` says %+v", o.Text, o.Values, strings.Join(args, " "), v)
		}
	}
	code, _, errs := runCmd(t, "ev", "vegas-s17", "--batch", "-", "--up", "T")
	if code != 2 || errs == "" {
		t.Errorf("--batch with --up: exit %d", code)
	}
}

// TestEVNotesResplitAcesOfPublishedTables: valuing A,A to more than two
// hands on a profile that does not resplit Aces (ES-09's reading, the
// built-in default) says that the published tables do; with
// resplit_aces=true, or a pair not of Aces, nothing is said.
func TestEVNotesResplitAcesOfPublishedTables(t *testing.T) {
	t.Parallel()
	for _, c := range []struct {
		args []string
		note bool
	}{
		{[]string{"ev", "vegas-s17", "--up", "7", "--hand", "A,A", "--split-hands", "4", "--split-play", "exact"}, true},
		{[]string{"ev", "vegas-s17", "-o", "resplit_aces=true", "--up", "7", "--hand", "A,A", "--split-hands", "4"}, false},
		{[]string{"ev", "vegas-s17", "--up", "7", "--hand", "8,8", "--split-hands", "4"}, false},
		{[]string{"ev", "vegas-s17", "--up", "7", "--hand", "A,A", "--split-hands", "2"}, false},
	} {
		code, out, _ := runCmd(t, c.args...)
		if code != 0 || strings.Contains(out, "resplit_aces=true") != c.note {
			t.Errorf("%v: exit %d, note %v, want %v:\n%s", c.args, code, !c.note, c.note, out)
		}
	}
	var out, errb bytes.Buffer
	Run(context.Background(), []string{"ev", "vegas-s17", "--batch", "-", "--split-hands", "4"}, strings.NewReader("7 A,A\n"), &out, &errb)
	if !strings.Contains(out.String(), `"notes":["Farmer's tables with RSA and Nairn's resplit Aces`) {
		t.Errorf("batch: no note: %s", out.String())
	}
}
