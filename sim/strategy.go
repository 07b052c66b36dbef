package sim

import (
	"bufio"
	"bytes"
	_ "embed"
	"errors"
	"fmt"
	"io"
	"strconv"
	"strings"

	"sabot/rules"
)

// Move is a playing decision for a hand.
type Move uint8

// The moves. None means the strategy takes none of the moves offered: before
// an AR-11 declaration, when only a split or a surrender is possible, the
// hand goes on to declare its Ace.
const (
	None Move = iota
	Hit
	Stand
	Double
	Split
	Surrender
)

var moveNames = [...]string{"none", "hit", "stand", "double", "split", "surrender"}

func (m Move) String() string {
	if int(m) < len(moveNames) {
		return moveNames[m]
	}
	return "?"
}

// Legal is a set of moves the rules allow now.
type Legal uint8

// Has reports whether m is in the set.
func (l Legal) Has(m Move) bool { return l&(1<<m) != 0 }

// With returns the set with m added.
func (l Legal) With(m Move) Legal { return l | 1<<m }

// Hand is what a strategy sees of a hand that must decide.
type Hand struct {
	Count rules.Count // the cards' arithmetic, declarations included
	Pair  int         // 1 (Aces) to 10 when the hand's first two cards are of equal value and it holds only them; else 0
	Split bool        // made by splitting
	Hands int         // hands on the box
}

// Strategy decides for a box holder, and for the bettors who decide for
// themselves (insurance, even money, the challenge). count is the true count
// (the running count for an unbalanced system) when the player counts, else
// 0. Up-card values run 1 (Ace) to 10. A Strategy must be safe for
// concurrent use: the workers share it.
type Strategy interface {
	// Play returns a move in legal. When legal has no Hit (AR-11: the Ace
	// must be declared first) it may return None.
	Play(h *Hand, up int, legal Legal, count float64) Move
	// Declare returns 1 or 11: the value of the hand's Ace (AR-11), or of
	// an Ace drawn to a split ten-value (VE-13).
	Declare(h *Hand, up int, count float64) int
	// Insure reports whether to insure (ES-11, VE-15); blackjack says the
	// hand is one.
	Insure(up int, blackjack bool, count float64) bool
	// EvenMoney reports whether to take even money on a blackjack (ES-10,
	// VE-16).
	EvenMoney(up int, count float64) bool
	// Challenge reports whether to place the Desafío on a first-card Ace
	// (AR-10).
	Challenge(up int, count float64) bool
}

// code is a cell of a strategy table.
type code uint8

const (
	cNone code = iota
	cH         // hit
	cS         // stand
	cD         // double, else hit
	cDs        // double, else stand
	cP         // split
	cR         // surrender, else hit
	cRs        // surrender, else stand
	cRp        // surrender, else split
	cY         // yes (insurance, even money, challenge)
	cN         // no
	c1         // declare the Ace 1
	c11        // declare the Ace 11
)

var codeNames = [...]string{"", "H", "S", "D", "Ds", "P", "R", "Rs", "Rp", "Y", "N", "1", "11"}

func (c code) String() string { return codeNames[c] }

func parseCode(s string) (code, bool) {
	s = strings.TrimSpace(s)
	for i, n := range codeNames {
		if i > 0 && strings.EqualFold(n, s) {
			return code(i), true
		}
	}
	switch strings.ToUpper(s) {
	case "DH":
		return cD, true
	case "SP", "PS":
		return cP, true
	case "RH":
		return cR, true
	}
	return cNone, false
}

func (c code) surrender() bool { return c == cR || c == cRs || c == cRp }

// Table rows. A row is one kind of hand; a column one dealer up card.
const (
	rowHard      = 0  // + total 2..21
	rowSoft      = 22 // + total 12..21
	rowPair      = 44 // + value 1..10
	rowDeclare   = 55 // + hard total 2..11: an Ace and a card, to be declared 1 or 11
	rowInsurance = 67
	rowEvenMoney = 68
	rowChallenge = 69
	nRows        = 70
)

// col is the column of an up-card value: 2..10 are columns 0..8, the Ace 9.
func col(up int) int {
	if up == 1 {
		return 9
	}
	return up - 2
}

var colNames = [10]string{"2", "3", "4", "5", "6", "7", "8", "9", "10", "A"}

func rowName(r int) string {
	switch {
	case r < rowSoft:
		return "H" + strconv.Itoa(r-rowHard)
	case r < rowPair:
		return "S" + strconv.Itoa(r-rowSoft)
	case r < rowDeclare:
		if r == rowPair+1 {
			return "PA"
		}
		return "P" + strconv.Itoa(r-rowPair)
	case r < rowInsurance:
		if r == rowDeclare+2 {
			return "A+A"
		}
		if r == rowDeclare+11 {
			return "A+10"
		}
		return "A+" + strconv.Itoa(r-rowDeclare-1)
	case r == rowInsurance:
		return "insurance"
	case r == rowEvenMoney:
		return "even-money"
	case r == rowChallenge:
		return "challenge"
	}
	return "?"
}

// parseRow reads a row label: H2..H21, S12..S21, P2..P10 (PT) and PA,
// A+A, A+2..A+9 and A+10 (A+T), insurance, even-money, challenge.
func parseRow(s string) (int, bool) {
	s = strings.ToUpper(strings.TrimSpace(s))
	num := func(t string) (int, bool) {
		switch t {
		case "A":
			return 1, true
		case "T", "J", "Q", "K":
			return 10, true
		}
		n, err := strconv.Atoi(t)
		return n, err == nil
	}
	switch {
	case s == "INSURANCE":
		return rowInsurance, true
	case s == "EVEN-MONEY" || s == "EVEN MONEY" || s == "EVENMONEY":
		return rowEvenMoney, true
	case s == "CHALLENGE":
		return rowChallenge, true
	case strings.HasPrefix(s, "A+"):
		v, ok := num(s[2:])
		if !ok || v < 1 || v > 10 {
			return 0, false
		}
		return rowDeclare + 1 + v, true
	case strings.HasPrefix(s, "H"):
		v, ok := num(s[1:])
		return rowHard + v, ok && v >= 2 && v <= 21
	case strings.HasPrefix(s, "S"):
		v, ok := num(s[1:])
		return rowSoft + v, ok && v >= 12 && v <= 21
	case strings.HasPrefix(s, "P"):
		v, ok := num(s[1:])
		return rowPair + v, ok && v >= 1 && v <= 10
	}
	return 0, false
}

// index is a count-dependent play: at a count at or above at, the table plays
// above, below it below.
type index struct {
	has          bool
	at           float64
	above, below code
}

// Table is a strategy table: basic strategy by hand and up card, with
// optional count-dependent index plays. Its zero value plays a fallback
// (hit below 17, soft 18) and never insures. It is read-only once built
// and safe for concurrent use.
type Table struct {
	Name  string
	cells [nRows][10]code
	play  [nRows][10]index // index plays
	surr  [nRows][10]index // surrender index plays (their at-or-above code is R, Rs or Rp)
	// Indices says whether the table has index plays.
	Indices bool
}

func (t *Table) cell(row, c int, count float64) code {
	if e := &t.play[row][c]; e.has {
		if count >= e.at {
			return e.above
		}
		return e.below
	}
	return t.cells[row][c]
}

func playRow(c rules.Count) int {
	if c.Soft() {
		return rowSoft + c.Total()
	}
	t := c.Total()
	if t > 21 {
		t = 21
	}
	return rowHard + t
}

// fallback is the play of an empty cell.
func fallback(row int) code {
	switch {
	case row < rowSoft:
		if row-rowHard < 17 {
			return cH
		}
		return cS
	case row < rowPair:
		if row-rowSoft < 18 {
			return cH
		}
		return cS
	}
	return cNone
}

// Play implements Strategy.
func (t *Table) Play(h *Hand, up int, legal Legal, count float64) Move {
	c := col(up)
	if h.Pair != 0 && legal.Has(Split) {
		switch pc := t.cell(rowPair+h.Pair, c, count); pc {
		case cP:
			return Split
		case cRp:
			if legal.Has(Surrender) {
				return Surrender
			}
			return Split
		case cNone:
		default:
			if legal.Has(Surrender) && pc.surrender() {
				return Surrender
			}
			if legal.Has(Hit) {
				return resolve(pc, legal)
			}
		}
	}
	row := playRow(h.Count)
	if legal.Has(Surrender) {
		if e := &t.surr[row][c]; e.has {
			if count >= e.at && e.above.surrender() {
				return Surrender
			}
		} else if t.cells[row][c].surrender() {
			return Surrender
		}
	}
	if !legal.Has(Hit) {
		return None
	}
	pc := t.cell(row, c, count)
	if pc == cNone {
		pc = fallback(row)
	}
	return resolve(pc, legal)
}

// resolve turns a cell into a legal move.
func resolve(pc code, legal Legal) Move {
	var m Move
	switch pc {
	case cS, cRs:
		m = Stand
	case cD:
		m = Double
		if !legal.Has(Double) {
			m = Hit
		}
	case cDs:
		m = Double
		if !legal.Has(Double) {
			m = Stand
		}
	case cP, cRp:
		m = Split
		if !legal.Has(Split) {
			m = Hit
		}
	default:
		m = Hit
	}
	if m == Stand && !legal.Has(Stand) {
		m = Hit // VE-06: a hand of 11 or less must draw
	}
	return m
}

// Declare implements Strategy. A table without A+ rows declares 11 when it
// would stand on the soft total, else 1; an Ace on a split ten counts 11.
func (t *Table) Declare(h *Hand, up int, count float64) int {
	hard := int(h.Count.Hard)
	if hard >= 2 && hard <= 11 {
		switch t.cell(rowDeclare+hard, col(up), count) {
		case c1:
			return 1
		case c11:
			return 11
		}
	}
	if hard >= 11 {
		return 11
	}
	row := rowSoft + hard + 10
	pc := t.cell(row, col(up), count)
	if pc == cNone {
		pc = fallback(row)
	}
	if pc == cS || pc == cDs && hard+10 >= 18 {
		return 11
	}
	return 1
}

// Insure implements Strategy.
func (t *Table) Insure(up int, blackjack bool, count float64) bool {
	return t.cell(rowInsurance, col(up), count) == cY
}

// EvenMoney implements Strategy: the even-money row, else as insurance
// under an Ace (even money is insuring a blackjack).
func (t *Table) EvenMoney(up int, count float64) bool {
	switch t.cell(rowEvenMoney, col(up), count) {
	case cY:
		return true
	case cN:
		return false
	}
	return up == 1 && t.Insure(up, true, count)
}

// Challenge implements Strategy.
func (t *Table) Challenge(up int, count float64) bool {
	return t.cell(rowChallenge, col(up), count) == cY
}

// Basic returns a copy of the table without its index plays.
func (t *Table) Basic() *Table {
	c := *t
	c.play = [nRows][10]index{}
	c.surr = [nRows][10]index{}
	c.Indices = false
	return &c
}

// ErrFormat is returned, wrapped, for a strategy or index file that does not
// parse.
var ErrFormat = errors.New("strategy file")

// ParseTable reads a strategy table in the CSV format of `sabot strategy
// --format csv` (docs/strategy-csv.md): a header `hand,2,3,4,5,6,7,8,9,10,A`
// and one row per hand. Lines starting with # are comments.
func ParseTable(r io.Reader) (*Table, error) {
	t := &Table{}
	sc := bufio.NewScanner(r)
	line := 0
	cols := []int(nil)
	for sc.Scan() {
		line++
		s := strings.TrimSpace(sc.Text())
		if s == "" || strings.HasPrefix(s, "#") {
			if name, ok := strings.CutPrefix(s, "# name:"); ok {
				t.Name = strings.TrimSpace(name)
			}
			continue
		}
		f := strings.Split(s, ",")
		if cols == nil {
			if !strings.EqualFold(strings.TrimSpace(f[0]), "hand") {
				return nil, fmt.Errorf("%w: line %d: want the header hand,2,3,4,5,6,7,8,9,10,A", ErrFormat, line)
			}
			for _, h := range f[1:] {
				up, err := parseUp(h)
				if err != nil {
					return nil, fmt.Errorf("%w: line %d: %v", ErrFormat, line, err)
				}
				cols = append(cols, col(up))
			}
			continue
		}
		row, ok := parseRow(f[0])
		if !ok {
			return nil, fmt.Errorf("%w: line %d: unknown hand %q (want H2-H21, S12-S21, P2-P10, PA, A+A, A+2-A+10, insurance, even-money, challenge)", ErrFormat, line, f[0])
		}
		if len(f)-1 != len(cols) {
			return nil, fmt.Errorf("%w: line %d: %d cells for %d up cards", ErrFormat, line, len(f)-1, len(cols))
		}
		for i, cell := range f[1:] {
			cd, ok := parseCode(cell)
			if !ok {
				return nil, fmt.Errorf("%w: line %d: unknown code %q (want H S D Ds P R Rs Rp Y N 1 11)", ErrFormat, line, cell)
			}
			if !codeFits(row, cd) {
				return nil, fmt.Errorf("%w: line %d: code %s does not fit hand %s", ErrFormat, line, cd, rowName(row))
			}
			t.cells[row][cols[i]] = cd
		}
	}
	if err := sc.Err(); err != nil {
		return nil, fmt.Errorf("%w: %v", ErrFormat, err)
	}
	if cols == nil {
		return nil, fmt.Errorf("%w: empty", ErrFormat)
	}
	return t, nil
}

func codeFits(row int, c code) bool {
	switch {
	case c == cNone:
		return true
	case row >= rowInsurance:
		return c == cY || c == cN
	case row >= rowDeclare:
		return c == c1 || c == c11
	case row >= rowPair:
		return c >= cH && c <= cRp
	}
	return c >= cH && c <= cRp && c != cP && c != cRp
}

func parseUp(s string) (int, error) {
	switch strings.ToUpper(strings.TrimSpace(s)) {
	case "A", "1", "11":
		return 1, nil
	case "T", "J", "Q", "K":
		return 10, nil
	}
	n, err := strconv.Atoi(strings.TrimSpace(s))
	if err != nil || n < 2 || n > 10 {
		return 0, fmt.Errorf("unknown up card %q (want 2-10 or A)", s)
	}
	return n, nil
}

// WriteCSV writes the table in the format ParseTable reads.
func (t *Table) WriteCSV(w io.Writer) error {
	var b bytes.Buffer
	if t.Name != "" {
		fmt.Fprintf(&b, "# name: %s\n", t.Name)
	}
	b.WriteString("hand,2,3,4,5,6,7,8,9,10,A\n")
	for r := 0; r < nRows; r++ {
		empty := true
		for _, c := range t.cells[r] {
			empty = empty && c == cNone
		}
		if empty {
			continue
		}
		b.WriteString(rowName(r))
		for _, c := range t.cells[r] {
			b.WriteByte(',')
			b.WriteString(c.String())
		}
		b.WriteByte('\n')
	}
	_, err := w.Write(b.Bytes())
	return err
}

// LoadIndices adds index plays to the table from a CSV file with the header
// hand,up,index,at_or_above,below: at a count at or above index the hand
// plays at_or_above, below it it plays below (docs/sim.md). up may be * for
// every up card. A row whose at_or_above is R, Rs or Rp is a surrender index:
// it says only whether to surrender.
func (t *Table) LoadIndices(r io.Reader) error {
	sc := bufio.NewScanner(r)
	line := 0
	header := false
	for sc.Scan() {
		line++
		s := strings.TrimSpace(sc.Text())
		if s == "" || strings.HasPrefix(s, "#") {
			continue
		}
		f := strings.Split(s, ",")
		for i := range f {
			f[i] = strings.TrimSpace(f[i])
		}
		if !header {
			if len(f) != 5 || !strings.EqualFold(f[0], "hand") {
				return fmt.Errorf("%w: index line %d: want the header hand,up,index,at_or_above,below", ErrFormat, line)
			}
			header = true
			continue
		}
		if len(f) != 5 {
			return fmt.Errorf("%w: index line %d: want 5 fields", ErrFormat, line)
		}
		row, ok := parseRow(f[0])
		if !ok {
			return fmt.Errorf("%w: index line %d: unknown hand %q", ErrFormat, line, f[0])
		}
		at, err := strconv.ParseFloat(f[2], 64)
		if err != nil {
			return fmt.Errorf("%w: index line %d: index %q is not a number", ErrFormat, line, f[2])
		}
		above, ok1 := parseCode(f[3])
		below, ok2 := parseCode(f[4])
		if !ok1 || !ok2 || !codeFits(row, above) || !codeFits(row, below) {
			return fmt.Errorf("%w: index line %d: codes %q, %q do not fit hand %s", ErrFormat, line, f[3], f[4], rowName(row))
		}
		var ups []int
		if f[1] == "*" {
			ups = []int{0, 1, 2, 3, 4, 5, 6, 7, 8, 9}
		} else {
			up, err := parseUp(f[1])
			if err != nil {
				return fmt.Errorf("%w: index line %d: %v", ErrFormat, line, err)
			}
			ups = []int{col(up)}
		}
		e := index{has: true, at: at, above: above, below: below}
		for _, c := range ups {
			if above.surrender() && row < rowPair {
				t.surr[row][c] = e
			} else {
				t.play[row][c] = e
			}
		}
		t.Indices = true
	}
	if err := sc.Err(); err != nil {
		return fmt.Errorf("%w: %v", ErrFormat, err)
	}
	if !header {
		return fmt.Errorf("%w: empty index file", ErrFormat)
	}
	return nil
}

//go:embed data/basic-s17.csv
var basicS17 []byte

//go:embed data/basic-h17.csv
var basicH17 []byte

//go:embed data/illustrious18-fab4.csv
var illustrious18 []byte

// Textbook returns the built-in textbook basic strategy for 4 to 8 decks,
// double any two, double after split, no surrender, the dealer standing on
// (or, with h17, hitting) soft 17 and peeking: the reference profiles'
// rules. It is a labelled fallback for other profiles, where the exact
// basic strategy of package analysis is better.
func Textbook(h17 bool) *Table {
	src := basicS17
	if h17 {
		src = basicH17
	}
	t, err := ParseTable(bytes.NewReader(src))
	if err != nil {
		panic(err)
	}
	return t
}

// Illustrious18 returns the Illustrious 18 and Fab 4 Hi-Lo index plays for
// multi-deck S17 (Schlesinger, Blackjack Attack, 3rd ed., ch. 5) as an index
// file for LoadIndices.
func Illustrious18() []byte { return append([]byte(nil), illustrious18...) }
