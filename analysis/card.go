package analysis

import (
	"encoding/csv"
	"fmt"
	"io"
	"strconv"
	"strings"

	"sabot/rules"
)

// UpOrder is the order of dealer up cards across a strategy card: 2 to 9,
// ten, Ace. Its values are kind indexes into StrategyRow.Cells.
var UpOrder = [kinds]int{1, 2, 3, 4, 5, 6, 7, 8, 9, 0}

// UpName returns the dealer card label of a kind index: A, 2-9, T.
func UpName(k int) string { return kindName[k] }

// Row kinds of a strategy card, as written in the CSV format.
const (
	KindHard   = "hard"    // first two cards of a hand, hard total
	KindSoft   = "soft"    // first two cards of a hand, soft total
	KindPair   = "pair"    // a pair: split, or play its total
	KindHardN  = "hard+"   // three or more cards, hard total: H or S
	KindSoftN  = "soft+"   // three or more cards, soft total: H or S
	KindTenAce = "ten-ace" // VE-13: an Ace on a split ten-value
)

// StrategyCard is a strategy as a table: one row per hand kind and total
// (or pair), one cell per dealer up card.
type StrategyCard struct {
	Profile string
	Rows    []StrategyRow
}

// StrategyRow is one row of a strategy card.
type StrategyRow struct {
	Kind   string
	Player string      // the total, the pair's card (A, 2-9, T), or "T,A"
	Cells  [kinds]Code // by dealer up card kind (index 0 the Ace, 9 the ten)
}

// Cell returns the code for a dealer up card kind.
func (r *StrategyRow) Cell(up int) Code { return r.Cells[up] }

func (c *StrategyCard) row(kind, player string) *StrategyRow {
	for i := range c.Rows {
		if c.Rows[i].Kind == kind && c.Rows[i].Player == player {
			return &c.Rows[i]
		}
	}
	c.Rows = append(c.Rows, StrategyRow{Kind: kind, Player: player})
	return &c.Rows[len(c.Rows)-1]
}

// setColumn fills one up card's cells. Rows are created in card order on
// the first column.
func (c *StrategyCard) setColumn(up int, col *tdColumn, p *rules.Profile) {
	for t := 4; t <= 20; t++ {
		if col.two[rowHard][t].Act != 0 || len(c.Rows) > 0 && c.has(KindHard, t) {
			c.row(KindHard, strconv.Itoa(t)).Cells[up] = col.two[rowHard][t]
		}
	}
	for t := 12; t <= 20; t++ {
		if col.two[rowSoft][t].Act != 0 || c.has(KindSoft, t) {
			c.row(KindSoft, strconv.Itoa(t)).Cells[up] = col.two[rowSoft][t]
		}
	}
	for _, k := range UpOrder {
		if p.MaySplit(rules.HandPos{Count: rules.CountOf(kindCard[k], kindCard[k]), Pair: true, Hands: 1}) {
			c.row(KindPair, kindName[k]).Cells[up] = col.pair[k]
		}
	}
	for t := 4; t <= 20; t++ {
		if col.hs[rowHard][t] != 0 || c.has(KindHardN, t) {
			c.row(KindHardN, strconv.Itoa(t)).Cells[up] = Code{Act: col.hs[rowHard][t]}
		}
	}
	for t := 12; t <= 20; t++ {
		if col.hs[rowSoft][t] != 0 || c.has(KindSoftN, t) {
			c.row(KindSoftN, strconv.Itoa(t)).Cells[up] = Code{Act: col.hs[rowSoft][t]}
		}
	}
	if p.SplitTenAceChoice {
		c.row(KindTenAce, "T,A").Cells[up] = col.tenAce
	}
}

func (c *StrategyCard) has(kind string, t int) bool {
	p := strconv.Itoa(t)
	for i := range c.Rows {
		if c.Rows[i].Kind == kind && c.Rows[i].Player == p {
			return true
		}
	}
	return false
}

// Lookup returns the row of a kind and player label, or nil.
func (c *StrategyCard) Lookup(kind, player string) *StrategyRow {
	for i := range c.Rows {
		if c.Rows[i].Kind == kind && c.Rows[i].Player == player {
			return &c.Rows[i]
		}
	}
	return nil
}

// WriteCSV writes the card in the strategy CSV format (docs/strategy-csv.md):
//
//	kind,player,dealer,action
//
// one record per row and dealer up card after that header line. kind is
// hard or soft (the first two cards of a hand, split hands included), pair,
// hard+ or soft+ (hands of three or more cards, H or S only) or ten-ace
// (VE-13). player is the total, the pair's card (A, 2-9, T) or T,A. dealer
// is the up card 2-9, T or A. action is an action code: H hit, S stand, Dh
// or Ds double (else hit or stand), P split, Rh, Rs or Rp surrender (else
// hit, stand or split), followed by @1 or @11 where the hand must first
// declare its Ace (AR-11). A P whose split is not open (no more hands) plays
// the hand's hard or soft row; a D or R that is not open takes its fallback.
func (c *StrategyCard) WriteCSV(w io.Writer) error {
	cw := csv.NewWriter(w)
	if err := cw.Write([]string{"kind", "player", "dealer", "action"}); err != nil {
		return err
	}
	for _, r := range c.Rows {
		for _, up := range UpOrder {
			code := r.Cells[up]
			if code.Act == 0 {
				continue
			}
			if err := cw.Write([]string{r.Kind, r.Player, kindName[up], code.String()}); err != nil {
				return err
			}
		}
	}
	cw.Flush()
	return cw.Error()
}

// ReadCSV reads a card written by WriteCSV.
func ReadCSV(r io.Reader) (*StrategyCard, error) {
	cr := csv.NewReader(r)
	cr.FieldsPerRecord = 4
	recs, err := cr.ReadAll()
	if err != nil {
		return nil, err
	}
	if len(recs) == 0 || strings.Join(recs[0], ",") != "kind,player,dealer,action" {
		return nil, fmt.Errorf("strategy csv: want the header kind,player,dealer,action")
	}
	c := &StrategyCard{}
	for i, rec := range recs[1:] {
		switch rec[0] {
		case KindHard, KindSoft, KindPair, KindHardN, KindSoftN, KindTenAce:
		default:
			return nil, fmt.Errorf("strategy csv line %d: unknown kind %q", i+2, rec[0])
		}
		up, err := ParseKind(rec[2])
		if err != nil {
			return nil, fmt.Errorf("strategy csv line %d: dealer: %v", i+2, err)
		}
		code, err := ParseCode(rec[3])
		if err != nil {
			return nil, fmt.Errorf("strategy csv line %d: %v", i+2, err)
		}
		c.row(rec[0], rec[1]).Cells[up] = code
	}
	return c, nil
}

// WriteText writes the card as a plain table: hard, soft and pair rows of
// two-card hands, then the rows for three or more cards that differ from
// the two-card play.
func (c *StrategyCard) WriteText(w io.Writer) error {
	var b strings.Builder
	head := func(title string) {
		fmt.Fprintf(&b, "%-10s", title)
		for _, up := range UpOrder {
			fmt.Fprintf(&b, " %5s", kindName[up])
		}
		b.WriteByte('\n')
	}
	line := func(label string, r *StrategyRow) {
		fmt.Fprintf(&b, "%-10s", label)
		for _, up := range UpOrder {
			s := r.Cells[up].String()
			if r.Cells[up].Act == 0 {
				s = "-"
			}
			fmt.Fprintf(&b, " %5s", s)
		}
		b.WriteByte('\n')
	}
	fmt.Fprintf(&b, "basic strategy (total-dependent) for %s\n\n", c.Profile)
	head("hard")
	for t := 5; t <= 20; t++ {
		if r := c.Lookup(KindHard, strconv.Itoa(t)); r != nil {
			line(strconv.Itoa(t), r)
		}
	}
	b.WriteByte('\n')
	head("soft")
	for t := 13; t <= 20; t++ {
		if r := c.Lookup(KindSoft, strconv.Itoa(t)); r != nil {
			line(fmt.Sprintf("A,%d", t-11), r)
		}
	}
	if r := c.Lookup(KindPair, "A"); r != nil {
		b.WriteByte('\n')
		head("pair")
		for _, k := range UpOrder {
			if r := c.Lookup(KindPair, kindName[k]); r != nil {
				line(kindName[k]+","+kindName[k], r)
			}
		}
	}
	var extra []*StrategyRow
	for i := range c.Rows {
		r := &c.Rows[i]
		if r.Kind != KindHardN && r.Kind != KindSoftN {
			continue
		}
		two := c.Lookup(strings.TrimSuffix(r.Kind, "+"), r.Player)
		for _, up := range UpOrder {
			if two == nil || r.Cells[up].Act != 0 && r.Cells[up].Act != hitStandOf(two.Cells[up]) {
				extra = append(extra, r)
				break
			}
		}
	}
	if len(extra) > 0 {
		b.WriteString("\nthree or more cards, where the play differs from the two-card row\n")
		head("total")
		for _, r := range extra {
			line(r.Kind+r.Player, r)
		}
	}
	if r := c.Lookup(KindTenAce, "T,A"); r != nil {
		b.WriteString("\nVE-13: an Ace on a split ten-value (S: count 21; @1: count 1 and play 11)\n")
		head("")
		line("T,A", r)
	}
	b.WriteString("\nH hit, S stand, Dh/Ds double (else hit/stand), P split, Rh/Rs/Rp surrender (else hit/stand/split);\n" +
		"@1/@11: declare the Ace 1 or 11 first (AR-11).\n")
	_, err := io.WriteString(w, b.String())
	return err
}

// hitStandOf is what a two-card code does once the hand has three cards.
func hitStandOf(c Code) Action {
	switch c.Act {
	case Double, Surrender:
		return c.Else
	}
	return c.Act
}
