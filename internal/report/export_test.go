package report

import (
	"bytes"
	"encoding/csv"
	"slices"
	"testing"
	"time"
)

// The tables' CSV export marks a test-mode table's row (its rounds may be
// dealt forced cards: counted, marked so), as the JSON and the text do;
// a profile's row and the total are no table's and say nothing.
func TestTablesCSVMarksTestModeTables(t *testing.T) {
	at := time.Date(2026, 12, 3, 0, 0, 0, 0, time.UTC)
	r := &Tables{From: at, To: at.Add(24 * time.Hour),
		Tables: []*TableResult{
			{Table: 1, Name: "Madrid", Profile: "spain", Rounds: 10},
			{Table: 2, Name: "Prueba", Profile: "spain", TestMode: true, Rounds: 3},
		},
		Profiles: []*TableResult{{Profile: "spain", Tables: 2, Rounds: 13}},
		Total:    &TableResult{Tables: 2, Rounds: 13},
	}
	var b bytes.Buffer
	if err := WriteTablesCSV(&b, r); err != nil {
		t.Fatal(err)
	}
	rows, err := csv.NewReader(&b).ReadAll()
	if err != nil {
		t.Fatal(err)
	}
	col := slices.Index(rows[0], "test_mode")
	if col < 0 {
		t.Fatalf("no test_mode column in %q", rows[0])
	}
	want := map[string]string{"Madrid": "false", "Prueba": "true"}
	for _, row := range rows[1:] {
		if len(row) != len(TablesCSVHeader) {
			t.Fatalf("a row of %d columns, the header %d: %q", len(row), len(TablesCSVHeader), row)
		}
		w := ""
		if row[0] == "table" {
			w = want[row[4]]
		}
		if row[col] != w {
			t.Errorf("%s %q: test_mode %q, want %q", row[0], row[4], row[col], w)
		}
	}
}
