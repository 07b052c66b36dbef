package certify

import (
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

// The PAR sheet's strategy card names its axes: the dealer's up card
// across, the player's hand down (its text read back by poppler's
// pdftotext).
func TestParGridNamesItsAxes(t *testing.T) {
	d := NewDoc("PAR sheet: spain", "spain", time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC))
	d.Grid("Hard totals, first two cards", []string{"2", "3", "A"}, [][]string{{"16", "S", "S", "H"}, {"12", "H", "H", "H"}}, actionColour)
	b, err := d.Bytes()
	if err != nil {
		t.Fatal(err)
	}
	if _, err := exec.LookPath("pdftotext"); err != nil && os.Getenv("CI") == "" {
		t.Skip("pdftotext is not installed (apt-get install poppler-utils)")
	}
	p := filepath.Join(t.TempDir(), "grid.pdf")
	if err := os.WriteFile(p, b, 0o644); err != nil {
		t.Fatal(err)
	}
	text, err := exec.Command("pdftotext", p, "-").Output()
	if err != nil {
		t.Fatalf("pdftotext: %v", err)
	}
	for _, want := range []string{gridAcross, gridDown, "Hard totals, first two cards"} {
		if !strings.Contains(string(text), want) {
			t.Errorf("the grid's PDF lacks %q:\n%s", want, text)
		}
	}
}
