package main

import (
	"strings"
	"testing"

	"sabot/internal/report"
)

// The reports' win and theoretical win are the house's, and their text
// says so (a player who won 500.00 showed as -500.00
// under "win").
func TestReportTextSaysTheWinIsTheHouses(t *testing.T) {
	var b strings.Builder
	if err := writePlayersText(&b, &report.Players{}); err != nil {
		t.Fatal(err)
	}
	if err := writeTablesText(&b, &report.Tables{Total: &report.TableResult{Rules: []string{""}}}); err != nil {
		t.Fatal(err)
	}
	for _, line := range strings.Split(b.String(), "\n") {
		f := strings.Fields(line)
		if len(f) < 2 || (f[0] != "player" && f[0] != "table") {
			continue
		}
		if !strings.Contains(line, "house win") || !strings.Contains(line, "house theo") {
			t.Errorf("the %s report's head does not say whose win: %q", f[0], line)
		}
		for i, w := range f {
			if (w == "win" || w == "theo") && (i == 0 || f[i-1] != "house") {
				t.Errorf("the %s report's head has a %q that is not the house's: %q", f[0], w, line)
			}
		}
	}
}

// A test-mode table (forced cards allowed) is counted in the report,
// marked so (they were counted unmarked).
func TestReportTextMarksTestModeTables(t *testing.T) {
	var b strings.Builder
	row := &report.TableResult{Table: 3, Name: "Venezia", Profile: "venice", TestMode: true, Rules: []string{"r"}}
	if err := writeTablesText(&b, &report.Tables{Tables: []*report.TableResult{row}, Total: &report.TableResult{Rules: []string{""}}}); err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(b.String(), "3 Venezia (test mode)") {
		t.Errorf("the test-mode table is not marked:\n%s", b.String())
	}
}
