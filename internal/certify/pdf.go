package certify

import (
	"bytes"
	"fmt"
	"time"

	"codeberg.org/go-fonts/liberation/liberationmonoregular"
	"codeberg.org/go-fonts/liberation/liberationsansbold"
	"codeberg.org/go-fonts/liberation/liberationsansitalic"
	"codeberg.org/go-fonts/liberation/liberationsansregular"
	"codeberg.org/go-pdf/fpdf"
)

// Doc is a PDF document of the kit: A4, a header naming the kit on every
// page, numbered pages, Liberation Sans (Unicode: the seeds' Spanish and
// Italian, −, ≤, χ²) embedded.
type Doc struct {
	f       *fpdf.Fpdf
	width   float64 // the text's width
	created time.Time
}

// NewDoc begins a document: its title, and the header line of every page.
func NewDoc(title, header string, created time.Time) *Doc {
	f := fpdf.New("P", "mm", "A4", "")
	f.AddUTF8FontFromBytes("sans", "", liberationsansregular.TTF)
	f.AddUTF8FontFromBytes("sans", "B", liberationsansbold.TTF)
	f.AddUTF8FontFromBytes("sans", "I", liberationsansitalic.TTF)
	f.AddUTF8FontFromBytes("mono", "", liberationmonoregular.TTF)
	f.SetTitle(title, true)
	f.SetCreator("sabot certify", true)
	f.SetCreationDate(created)
	f.SetModificationDate(created)
	f.SetMargins(15, 18, 15)
	f.SetAutoPageBreak(true, 16)
	f.AliasNbPages("{nb}")
	f.SetHeaderFunc(func() {
		f.SetFont("sans", "", 7.5)
		f.SetTextColor(110, 110, 110)
		f.SetXY(15, 8)
		f.CellFormat(90, 4, header, "", 0, "L", false, 0, "")
		f.CellFormat(90, 4, title, "", 1, "R", false, 0, "")
		f.SetDrawColor(180, 180, 180)
		f.Line(15, 12.5, 195, 12.5)
		f.SetTextColor(0, 0, 0)
		f.SetY(18)
	})
	f.SetFooterFunc(func() {
		f.SetY(-12)
		f.SetFont("sans", "", 7.5)
		f.SetTextColor(110, 110, 110)
		f.CellFormat(0, 4, fmt.Sprintf("page %d of {nb}", f.PageNo()), "", 0, "C", false, 0, "")
		f.SetTextColor(0, 0, 0)
	})
	f.AddPage()
	d := &Doc{f: f, width: 180, created: created}
	d.f.SetFont("sans", "B", 16)
	d.f.MultiCell(0, 8, title, "", "L", false)
	d.f.Ln(1)
	return d
}

// Meta writes label: value lines, a block at the head of a document.
func (d *Doc) Meta(rows [][2]string) {
	d.f.SetFont("sans", "", 8.5)
	for _, r := range rows {
		d.f.SetFont("sans", "B", 8.5)
		d.f.CellFormat(42, 4.6, r[0], "", 0, "L", false, 0, "")
		d.f.SetFont("sans", "", 8.5)
		d.f.MultiCell(0, 4.6, r[1], "", "L", false)
	}
	d.f.Ln(2)
}

// H is a section heading.
func (d *Doc) H(s string) {
	if d.f.GetY() > 250 {
		d.f.AddPage()
	}
	d.f.Ln(2)
	d.f.SetFont("sans", "B", 11.5)
	d.f.SetFillColor(228, 234, 242)
	d.f.CellFormat(0, 7, s, "", 1, "L", true, 0, "")
	d.f.Ln(1.5)
}

// H2 is a subheading.
func (d *Doc) H2(s string) {
	if d.f.GetY() > 260 {
		d.f.AddPage()
	}
	d.f.SetFont("sans", "B", 9.5)
	d.f.CellFormat(0, 5.5, s, "", 1, "L", false, 0, "")
}

// P is a paragraph.
func (d *Doc) P(s string) {
	d.f.SetFont("sans", "", 9)
	d.f.MultiCell(0, 4.4, s, "", "L", false)
	d.f.Ln(1.5)
}

// Small is a paragraph of notes.
func (d *Doc) Small(s string) {
	d.f.SetFont("sans", "I", 7.5)
	d.f.MultiCell(0, 3.6, s, "", "L", false)
	d.f.Ln(1.2)
}

// Mono is a block of fixed-width text (commands).
func (d *Doc) Mono(s string) {
	d.f.SetFont("mono", "", 7.5)
	d.f.SetFillColor(245, 245, 245)
	d.f.MultiCell(0, 3.8, s, "", "L", true)
	d.f.Ln(1.5)
}

// Table writes a table: its column widths (mm; they are scaled to the
// text's width), the header, the rows, and each column's alignment (L, R,
// C). Cells wrap.
func (d *Doc) Table(widths []float64, head []string, rows [][]string, align string) {
	sum := 0.0
	for _, w := range widths {
		sum += w
	}
	ws := make([]float64, len(widths))
	for i, w := range widths {
		ws[i] = w * d.width / sum
	}
	row := func(cells []string, bold, fill bool) {
		style := ""
		if bold {
			style = "B"
		}
		d.f.SetFont("sans", style, 8)
		const lh = 3.9
		lines := 1
		for i, c := range cells {
			n := len(d.f.SplitText(c, ws[i]-2))
			lines = max(lines, n)
		}
		h := float64(lines)*lh + 1.6
		if d.f.GetY()+h > 281 {
			d.f.AddPage()
		}
		x, y := d.f.GetXY()
		for i, c := range cells {
			if fill {
				d.f.SetFillColor(236, 239, 244)
				d.f.Rect(x, y, ws[i], h, "F")
			}
			d.f.SetDrawColor(200, 200, 200)
			d.f.Rect(x, y, ws[i], h, "D")
			a := "L"
			if i < len(align) {
				a = string(align[i])
			}
			d.f.SetXY(x+1, y+0.8)
			d.f.MultiCell(ws[i]-2, lh, c, "", a, false)
			x += ws[i]
		}
		d.f.SetXY(15, y+h)
	}
	if head != nil {
		row(head, true, true)
	}
	for _, r := range rows {
		row(r, false, false)
	}
	d.f.Ln(2)
}

// Grid writes a strategy card: its axes named (the dealer's up card across,
// the player's hand down), a header row, rows of a label and cells, each
// cell's background by its code.
func (d *Doc) Grid(title string, head []string, rows [][]string, colour func(code string) (r, g, b int)) {
	cw, lw, h := 12.0, 18.0, 4.3
	if d.f.GetY()+5.5+float64(len(rows)+2)*h > 281 {
		d.f.AddPage()
	}
	d.H2(title)
	d.f.SetFont("sans", "I", 7)
	d.f.CellFormat(lw, h, "", "", 0, "C", false, 0, "")
	d.f.CellFormat(cw*float64(len(head)), h, gridAcross, "", 1, "C", false, 0, "")
	d.f.SetFont("sans", "B", 6.5)
	d.f.SetFillColor(220, 220, 220)
	d.f.CellFormat(lw, h, gridDown, "1", 0, "C", true, 0, "")
	d.f.SetFont("sans", "B", 7.5)
	for _, c := range head {
		d.f.CellFormat(cw, h, c, "1", 0, "C", true, 0, "")
	}
	d.f.Ln(-1)
	for _, r := range rows {
		d.f.SetFont("sans", "B", 7.5)
		d.f.SetFillColor(235, 235, 235)
		d.f.CellFormat(lw, h, r[0], "1", 0, "C", true, 0, "")
		d.f.SetFont("sans", "", 7.5)
		for _, c := range r[1:] {
			cr, cg, cb := colour(c)
			d.f.SetFillColor(cr, cg, cb)
			d.f.CellFormat(cw, h, c, "1", 0, "C", true, 0, "")
		}
		d.f.Ln(-1)
	}
	d.f.Ln(2)
}

// The axes of a strategy card (Grid): across, the dealer's up card; down,
// the player's hand.
const (
	gridAcross = "dealer's up card"
	gridDown   = "player's hand"
)

// Bytes is the finished PDF.
func (d *Doc) Bytes() ([]byte, error) {
	var b bytes.Buffer
	if err := d.f.Output(&b); err != nil {
		return nil, err
	}
	return b.Bytes(), nil
}
