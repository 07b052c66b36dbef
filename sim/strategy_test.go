package sim

import (
	"errors"
	"fmt"
	"strings"
	"testing"

	"sabot/analysis"
)

// TestCellCodes: the action codes of a strategy card are package
// analysis's (analysis.ParseCode): every code it reads and writes reads as
// the same move and declaration here and prints back the same, and what it
// refuses is refused here too; the simulator adds only Y, N and the short
// forms D and R.
func TestCellCodes(t *testing.T) {
	acts := []analysis.Action{0, analysis.Stand, analysis.Hit, analysis.Double, analysis.Split, analysis.Surrender}
	n := 0
	seen := map[string]bool{}
	for _, act := range acts {
		for _, els := range acts {
			for _, decl := range []uint8{0, 1, 11} {
				s := analysis.Code{Act: act, Else: els, Declare: decl}.String()
				if body, _, _ := strings.Cut(s, "@"); seen[s] || body == "D" || body == "R" {
					continue // (D and R: the simulator's short forms, below)
				}
				seen[s] = true
				want, err := analysis.ParseCode(s)
				x, err2 := parseCell(s)
				if err != nil {
					if err2 == nil {
						t.Errorf("%q: analysis refuses it (%v), the simulator reads %v", s, err, x)
					}
					continue
				}
				n++
				if err2 != nil {
					t.Errorf("%q: analysis reads %+v, the simulator refuses it: %v", s, want, err2)
					continue
				}
				if shared[x.c] != (analysis.Code{Act: want.Act, Else: want.Else}) || x.decl != want.Declare {
					t.Errorf("%q: analysis reads %+v, the simulator %v@%d", s, want, x.c, x.decl)
				}
				if got := x.c.String() + declSuffix(x.decl); got != s {
					t.Errorf("%q prints back as %q", s, got)
				}
			}
		}
	}
	if n != 8*3 {
		t.Errorf("%d codes read, want the 8 codes with and without @1 and @11", n)
	}
	for s, want := range map[string]cell{"Y": {c: cY}, "N": {c: cN}, "D": {c: cD}, "R": {c: cR}, "D@11": {c: cD, decl: 11}, " Ds ": {c: cDs}} {
		if x, err := parseCell(s); err != nil || x != want {
			t.Errorf("%q reads %v, %v; want %v", s, x, err, want)
		}
	}
	for _, s := range []string{"", "X", "Dp", "S@2", "D@2", "Y@1", "h", "dh", "DS", "P@", "@1"} {
		if x, err := parseCell(s); err == nil {
			t.Errorf("%q reads %v, want an error", s, x)
		} else if !strings.Contains(err.Error(), fmt.Sprintf("%q", s)) {
			t.Errorf("%q: the error %q does not quote the cell", s, err)
		}
	}
}

func declSuffix(d uint8) string {
	if d == 0 {
		return ""
	}
	return fmt.Sprintf("@%d", d)
}

// TestCellErrors: a cell that does not parse or does not fit its hand is
// refused in one line that names the line, the hand and the dealer card.
func TestCellErrors(t *testing.T) {
	const long = "kind,player,dealer,action\nhard,16,T,H\n"
	const wide = "hand,2,3,4,5,6,7,8,9,10,A\nH16,S,S,S,S,S,H,H,H,H,H\n"
	for _, tc := range []struct {
		in   string
		want []string
	}{
		{long + "hard,16,9,X\n", []string{"line 3", "hard 16 vs 9", `"X"`, "want H, S, Dh"}},
		{long + "hard+,16,9,Dh\n", []string{"line 3", "hard+ 16 vs 9", `"Dh"`, "want H or S"}},
		{long + "hard,16,9,P\n", []string{"line 3", "hard 16 vs 9", "pairs"}},
		{long + "soft,17,5,Dh@2\n", []string{"line 3", "soft 17 vs 5", `"Dh@2"`, "@1 or @11"}},
		{long + "insurance,-,A,H\n", []string{"line 3", "insurance - vs A", `"H"`, "want Y or N"}},
		{long + "pair,8,A,Y\n", []string{"line 3", "pair 8 vs A", `"Y"`}},
		{wide + "H15,S,S,S,S,S,H,H,H,Rx,H\n", []string{"line 3", "H15 vs 10", `"Rx"`}},
		{wide + "insurance,N,N,N,N,N,N,N,N,N,S\n", []string{"line 3", "insurance vs A", "want Y or N"}},
	} {
		_, err := ParseStrategyCard(strings.NewReader(tc.in))
		checkErr(t, tc.in, err, tc.want)
	}
	for _, tc := range []struct {
		in   string
		want []string
	}{
		{"H16,T,0,S,Q\n", []string{"index line 2", "H16 vs T", "below", `"Q"`}},
		{"H16,T,0,S@11,H\n", []string{"index line 2", "H16 vs T", "at_or_above", `"S@11"`}},
		{"insurance,A,3,S,N\n", []string{"index line 2", "insurance vs A", "want Y or N"}},
	} {
		in := "hand,up,index,at_or_above,below\n" + tc.in
		err := Textbook(false).LoadIndices(strings.NewReader(in))
		checkErr(t, in, err, tc.want)
	}
}

func checkErr(t *testing.T, in string, err error, want []string) {
	t.Helper()
	if err == nil {
		t.Errorf("%q: no error", in)
		return
	}
	msg := err.Error()
	if !errors.Is(err, ErrFormat) || strings.Contains(msg, "\n") {
		t.Errorf("%q: error %q: want one line wrapping ErrFormat", in, msg)
	}
	for _, w := range want {
		if !strings.Contains(msg, w) {
			t.Errorf("%q: error %q does not say %q", in, msg, w)
		}
	}
}
