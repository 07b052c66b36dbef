package chart

import (
	"bytes"
	"strings"
	"testing"

	"sabot/analysis"
)

// card is a small strategy card with the given codes in its cells.
func card(codes ...analysis.Code) *analysis.StrategyCard {
	c := &analysis.StrategyCard{Profile: "test"}
	for i, code := range codes {
		r := analysis.StrategyRow{Kind: analysis.KindHard, Player: []string{"12", "13", "14", "15", "16"}[i]}
		for j := range r.Cells {
			r.Cells[j] = code
		}
		c.Rows = append(c.Rows, r)
	}
	return c
}

// A card's legend explains only what its profile uses: a spain card (no
// surrender, no AR-11 declarations) says nothing of either; an argentina
// card explains its declarations.
func TestLegendShowsOnlyWhatTheProfileUses_AR11(t *testing.T) {
	spain := card(analysis.Code{Act: analysis.Hit}, analysis.Code{Act: analysis.Stand}, analysis.Code{Act: analysis.Double, Else: analysis.Hit}, analysis.Code{Act: analysis.Split})
	var b bytes.Buffer
	if err := Write(&b, spain, "svg"); err != nil {
		t.Fatal(err)
	}
	svg := b.String()
	for _, absent := range []string{"AR-11", "surrender", "R, or"} {
		if strings.Contains(svg, absent) {
			t.Errorf("a card without surrender or declarations shows %q", absent)
		}
	}
	for _, present := range []string{"H hit", "Dh/Ds double", "P split", "the fallback of D,"} {
		if !strings.Contains(svg, present) {
			t.Errorf("the spain card's legend lacks %q", present)
		}
	}
	ar := card(analysis.Code{Act: analysis.Stand, Declare: 11}, analysis.Code{Act: analysis.Hit, Declare: 1})
	if got := footnote(ar); !strings.Contains(got, "declare the Ace 1 or 11 first (AR-11)") {
		t.Errorf("an argentina card's footnote: %q", got)
	}
	vegas := card(analysis.Code{Act: analysis.Surrender, Else: analysis.Hit}, analysis.Code{Act: analysis.Double, Else: analysis.Stand})
	if l := legend(vegas); len(l) != 2 || !strings.Contains(l[1].text, "surrender") {
		t.Errorf("a card with surrender: legend %v", l)
	}
}

// The card names its axes: the dealer's up card across, the player's hand
// down, on each of its two tables.
func TestCardNamesItsAxes(t *testing.T) {
	spain := card(analysis.Code{Act: analysis.Hit}, analysis.Code{Act: analysis.Stand}, analysis.Code{Act: analysis.Double, Else: analysis.Hit}, analysis.Code{Act: analysis.Split})
	var b bytes.Buffer
	if err := Write(&b, spain, "svg"); err != nil {
		t.Fatal(err)
	}
	svg := b.String()
	for _, axis := range []string{AxisAcross, AxisDown} {
		if n := strings.Count(svg, strings.ReplaceAll(axis, "'", "&#39;")) + strings.Count(svg, axis); n != 2 {
			t.Errorf("the card names %q %d times, want 2 (each table)", axis, n)
		}
	}
}
