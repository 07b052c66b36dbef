// Package chart draws a strategy card as a colour-coded table, in SVG or
// PNG, with gonum's vector graphics (gonum.org/v1/plot/vg): one drawing
// path, two back ends. It is a driver outside the core: the analysis knows
// nothing of pictures.
package chart

import (
	"fmt"
	"image/color"
	"io"
	"strconv"
	"strings"

	xfont "golang.org/x/image/font"
	"gonum.org/v1/plot"
	"gonum.org/v1/plot/font"
	"gonum.org/v1/plot/vg"
	"gonum.org/v1/plot/vg/draw"
	"gonum.org/v1/plot/vg/vgimg"
	"gonum.org/v1/plot/vg/vgsvg"

	"sabot/analysis"
)

// Formats are the picture formats Write accepts.
var Formats = []string{"svg", "png"}

// Colours of the actions, as strategy cards print them: green to hit, red
// to stand, gold to double, blue to split, grey to surrender.
var (
	ColorHit       = color.RGBA{0x7d, 0xce, 0xa0, 0xff}
	ColorStand     = color.RGBA{0xf1, 0x94, 0x8a, 0xff}
	ColorDouble    = color.RGBA{0xf7, 0xdc, 0x6f, 0xff}
	ColorSplit     = color.RGBA{0x85, 0xc1, 0xe9, 0xff}
	ColorSurrender = color.RGBA{0xd5, 0xd8, 0xdc, 0xff}
)

// ColorOf is the colour of a cell.
func ColorOf(c analysis.Code) color.Color {
	switch c.Act {
	case analysis.Hit:
		return ColorHit
	case analysis.Stand:
		return ColorStand
	case analysis.Double:
		return ColorDouble
	case analysis.Split:
		return ColorSplit
	case analysis.Surrender:
		return ColorSurrender
	}
	return color.White
}

const (
	cellW  = vg.Length(34)
	cellH  = vg.Length(18)
	labelW = vg.Length(56)
	margin = vg.Length(16)
	gap    = vg.Length(24)
)

type block struct {
	title string
	rows  []row
}

type row struct {
	label string
	r     *analysis.StrategyRow
}

// blocks lays out the card: hard totals on the left; soft totals, pairs and
// the VE-13 row on the right.
func blocks(card *analysis.StrategyCard) (left, right []block) {
	hard := block{title: "hard"}
	for t := 5; t <= 20; t++ {
		if r := card.Lookup(analysis.KindHard, strconv.Itoa(t)); r != nil {
			hard.rows = append(hard.rows, row{strconv.Itoa(t), r})
		}
	}
	soft := block{title: "soft"}
	for t := 13; t <= 20; t++ {
		if r := card.Lookup(analysis.KindSoft, strconv.Itoa(t)); r != nil {
			soft.rows = append(soft.rows, row{fmt.Sprintf("A,%d", t-11), r})
		}
	}
	pairs := block{title: "pair"}
	for _, k := range analysis.UpOrder {
		n := analysis.UpName(k)
		if r := card.Lookup(analysis.KindPair, n); r != nil {
			pairs.rows = append(pairs.rows, row{n + "," + n, r})
		}
	}
	left = []block{hard}
	right = []block{soft}
	if len(pairs.rows) > 0 {
		right = append(right, pairs)
	}
	if r := card.Lookup(analysis.KindTenAce, "T,A"); r != nil {
		right = append(right, block{title: "VE-13", rows: []row{{"T,A", r}}})
	}
	return left, right
}

func height(bs []block) vg.Length {
	h := vg.Length(0)
	for i, b := range bs {
		if i > 0 {
			h += cellH / 2
		}
		h += cellH * vg.Length(len(b.rows)+1)
	}
	return h
}

// The card's axes: across, the dealer's up card; down, the player's hand.
const (
	AxisAcross = "dealer's up card"
	AxisDown   = "player's hand ↓"
)

// Write draws the card in format "svg" or "png" to w.
func Write(w io.Writer, card *analysis.StrategyCard, format string) error {
	left, right := blocks(card)
	tableW := labelW + 10*cellW
	W := 2*margin + 2*tableW + gap
	titleH := vg.Length(28)
	axisH := cellH // the axes' names, above each table
	legendH := vg.Length(48)
	H := 2*margin + titleH + axisH + max(height(left), height(right)) + legendH

	var c vg.CanvasWriterTo
	switch format {
	case "svg":
		c = vgsvg.New(W, H)
	case "png":
		c = vgimg.PngCanvas{Canvas: vgimg.NewWith(vgimg.UseWH(W, H), vgimg.UseDPI(144), vgimg.UseBackgroundColor(color.White))}
	default:
		return fmt.Errorf("unknown picture format %q: want svg or png", format)
	}
	dc := draw.New(c)
	dc.FillPolygon(color.White, []vg.Point{{X: 0, Y: 0}, {X: W, Y: 0}, {X: W, Y: H}, {X: 0, Y: H}})

	sans := font.Font{Typeface: "Liberation", Variant: "Sans"}
	style := func(size vg.Length, bold bool) draw.TextStyle {
		f := sans
		if bold {
			f.Weight = xfont.WeightBold
		}
		return draw.TextStyle{Color: color.Black, Font: font.From(f, size), Handler: plot.DefaultTextHandler,
			XAlign: draw.XCenter, YAlign: draw.YCenter}
	}
	cellText, headText := style(8, false), style(8, true)
	titleStyle := style(13, true)
	titleStyle.XAlign = draw.XLeft

	top := H - margin
	dc.FillText(titleStyle, vg.Point{X: margin, Y: top - titleH/2}, "Basic strategy (total-dependent) — "+card.Profile)
	grid := draw.LineStyle{Color: color.Gray{Y: 0x90}, Width: vg.Length(0.5)}

	rect := func(x, y vg.Length, fill color.Color) {
		pts := []vg.Point{{X: x, Y: y}, {X: x + cellW, Y: y}, {X: x + cellW, Y: y - cellH}, {X: x, Y: y - cellH}}
		dc.FillPolygon(fill, pts)
		dc.StrokeLines(grid, append(pts, pts[0]))
	}
	axisText := style(8, false)
	drawBlocks := func(x0 vg.Length, bs []block) {
		y := top - titleH
		// The axes named: the player's hand down the first column, the
		// dealer's up card across the rest.
		dc.FillText(axisText, vg.Point{X: x0 + labelW/2, Y: y - axisH/2}, AxisDown)
		dc.FillText(axisText, vg.Point{X: x0 + labelW + 5*cellW, Y: y - axisH/2}, AxisAcross+" →")
		y -= axisH
		for i, b := range bs {
			if i > 0 {
				y -= cellH / 2
			}
			dc.FillText(headText, vg.Point{X: x0 + labelW/2, Y: y - cellH/2}, b.title)
			for j, up := range analysis.UpOrder {
				dc.FillText(headText, vg.Point{X: x0 + labelW + vg.Length(j)*cellW + cellW/2, Y: y - cellH/2}, analysis.UpName(up))
			}
			y -= cellH
			for _, r := range b.rows {
				dc.FillText(headText, vg.Point{X: x0 + labelW/2, Y: y - cellH/2}, r.label)
				for j, up := range analysis.UpOrder {
					x := x0 + labelW + vg.Length(j)*cellW
					code := r.r.Cell(up)
					rect(x, y, ColorOf(code))
					if code.Act != 0 {
						dc.FillText(cellText, vg.Point{X: x + cellW/2, Y: y - cellH/2}, code.String())
					}
				}
				y -= cellH
			}
		}
	}
	drawBlocks(margin, left)
	drawBlocks(margin+tableW+gap, right)

	// Legend.
	y := margin + legendH - 8
	x := margin
	legendText := style(8, false)
	legendText.XAlign = draw.XLeft
	for _, l := range legend(card) {
		rect(x, y, ColorOf(l.c))
		dc.FillText(legendText, vg.Point{X: x + cellW + 4, Y: y - cellH/2}, l.text)
		x += cellW + 8 + legendText.Width(l.text) + 14
	}
	note := style(7, false)
	note.XAlign = draw.XLeft
	dc.FillText(note, vg.Point{X: margin, Y: margin / 2}, footnote(card))
	_, err := c.WriteTo(w)
	return err
}

type legendEntry struct {
	c    analysis.Code
	text string
}

// uses reports which actions the card's cells play and whether any
// declares an Ace (AR-11).
func uses(card *analysis.StrategyCard) (acts map[analysis.Action]bool, declares bool) {
	acts = map[analysis.Action]bool{}
	for i := range card.Rows {
		for _, c := range card.Rows[i].Cells {
			acts[c.Act] = true
			declares = declares || c.Declare != 0
		}
	}
	return acts, declares
}

// legend is the card's key: only the actions its profile uses (a spain
// card has no surrender to explain).
func legend(card *analysis.StrategyCard) []legendEntry {
	acts, _ := uses(card)
	var out []legendEntry
	for _, l := range []legendEntry{
		{analysis.Code{Act: analysis.Hit}, "H hit"},
		{analysis.Code{Act: analysis.Stand}, "S stand"},
		{analysis.Code{Act: analysis.Double}, "Dh/Ds double, else hit/stand"},
		{analysis.Code{Act: analysis.Split}, "P split"},
		{analysis.Code{Act: analysis.Surrender}, "Rh/Rs/Rp surrender, else hit/stand/split"},
	} {
		if acts[l.c.Act] {
			out = append(out, l)
		}
	}
	return out
}

// footnote explains the codes that need more than the legend: the AR-11
// declarations where the card has them, and what plays with three or more
// cards where a double or a surrender is on the card.
func footnote(card *analysis.StrategyCard) string {
	acts, declares := uses(card)
	var parts []string
	if declares {
		parts = append(parts, "@1 / @11: declare the Ace 1 or 11 first (AR-11).")
	}
	switch {
	case acts[analysis.Double] && acts[analysis.Surrender]:
		parts = append(parts, "Three or more cards: the fallback of D and R, or the hard+/soft+ rows of the CSV.")
	case acts[analysis.Double]:
		parts = append(parts, "Three or more cards: the fallback of D, or the hard+/soft+ rows of the CSV.")
	case acts[analysis.Surrender]:
		parts = append(parts, "Three or more cards: the fallback of R, or the hard+/soft+ rows of the CSV.")
	}
	return strings.Join(parts, " ")
}
