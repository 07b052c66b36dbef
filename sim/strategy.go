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

	"sabot/analysis"
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
	// TenAce: an Ace on a split ten-value, counted 1 or 11 as the box
	// holder chooses (VE-13); Count.Declared says the choice once made.
	TenAce bool
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

// code is an action of a strategy card.
type code uint8

const (
	cNone code = iota
	cH         // hit
	cS         // stand
	cD         // double, else hit (Dh)
	cDs        // double, else stand
	cP         // split
	cR         // surrender, else hit (Rh)
	cRs        // surrender, else stand
	cRp        // surrender, else split
	cY         // yes (insurance, even money, challenge)
	cN         // no
)

// shared is the action code of the strategy CSV format each playing code
// is: package analysis defines them (analysis.ParseCode, Code.String). Y
// and N are the simulator's own.
var shared = [...]analysis.Code{
	cH:  {Act: analysis.Hit},
	cS:  {Act: analysis.Stand},
	cD:  {Act: analysis.Double, Else: analysis.Hit},
	cDs: {Act: analysis.Double, Else: analysis.Stand},
	cP:  {Act: analysis.Split},
	cR:  {Act: analysis.Surrender, Else: analysis.Hit},
	cRs: {Act: analysis.Surrender, Else: analysis.Stand},
	cRp: {Act: analysis.Surrender, Else: analysis.Split},
}

func (c code) String() string {
	switch {
	case c == cY:
		return "Y"
	case c == cN:
		return "N"
	case c > cNone && int(c) < len(shared):
		return shared[c].String()
	}
	return ""
}

func (c code) surrender() bool { return c == cR || c == cRs || c == cRp }

// cell is one cell: an action, and for a hand that must first declare its
// Ace (AR-11) or may count an Ace on a split ten 1 (VE-13), the value.
type cell struct {
	c    code
	decl uint8 // 0, 1 or 11
}

// parseCell reads a cell: an action code of the strategy CSV format (H, S,
// Dh, Ds, P, Rh, Rs, Rp, optionally followed by @1 or @11), as package
// analysis reads it (analysis.ParseCode), or one of the simulator's own: Y
// and N (insurance, even money, the challenge), and D and R, the short
// forms of Dh and Rh in its wide charts and index files.
func parseCell(s string) (cell, error) {
	s = strings.TrimSpace(s)
	switch s {
	case "Y":
		return cell{c: cY}, nil
	case "N":
		return cell{c: cN}, nil
	}
	body, decl, ok := strings.Cut(s, "@")
	switch body {
	case "D", "R":
		body += "h"
	}
	if ok {
		body += "@" + decl
	}
	a, err := analysis.ParseCode(body)
	if err != nil {
		if _, e := analysis.ParseCode(s); e != nil && body != s {
			err = e // (its message quotes the cell as written)
		}
		return cell{}, err
	}
	for c := cH; c <= cRp; c++ {
		if shared[c] == (analysis.Code{Act: a.Act, Else: a.Else}) {
			return cell{c: c, decl: a.Declare}, nil
		}
	}
	return cell{}, fmt.Errorf("action code %q is not a move of the simulator", s)
}

// Strategy card rows. A row is one kind of hand; a column one dealer up card.
const (
	rowHard      = 0   // + total 2..21: two-card hands (split hands included)
	rowSoft      = 22  // + total 12..21
	rowPair      = 44  // + value 1..10
	rowHardN     = 55  // + total: hands of three or more cards
	rowSoftN     = 77  // + total
	rowTenAce    = 99  // VE-13: an Ace on a split ten-value
	rowInsurance = 100 // ES-11, VE-15
	rowEvenMoney = 101 // ES-10, VE-16
	rowChallenge = 102 // AR-10
	nRows        = 103
)

// col is the column of an up-card value: 2..10 are columns 0..8, the Ace 9.
func col(up int) int {
	if up == 1 {
		return 9
	}
	return up - 2
}

// index is a count-dependent play: at a count at or above at, the table plays
// above, below it below.
type index struct {
	has          bool
	at           float64
	above, below code
}

// StrategyCard is a strategy card: basic strategy by hand and up card, with
// optional count-dependent index plays. Its zero value plays a fallback (hit
// below 17, soft 18) and never insures. It is read-only once built and safe
// for concurrent use.
type StrategyCard struct {
	Name  string
	cells [nRows][10]cell
	play  [nRows][10]index // index plays
	surr  [nRows][10]index // surrender index plays (their at-or-above code is R, Rs or Rp)
	// Indices says whether the card has index plays.
	Indices bool
}

func (t *StrategyCard) code(row, c int, count float64) code {
	if e := &t.play[row][c]; e.has {
		if count >= e.at {
			return e.above
		}
		return e.below
	}
	return t.cells[row][c].c
}

// row returns the row that decides a hand that is not (or no longer) to be
// split: its two-card row, or the three-or-more-card row.
func (t *StrategyCard) row(h *Hand) int {
	c := h.Count
	switch {
	case h.TenAce:
		return rowTenAce
	case c.N <= 2 && c.Declared != 0 && int(c.Hard)+10 <= 21:
		// AR-11: a declared two-card hand plays the cell of its soft
		// total, where the declaration was read.
		return rowSoft + int(c.Hard) + 10
	case c.N <= 2 && c.Soft():
		return rowSoft + c.Total()
	case c.N <= 2:
		return rowHard + min(c.Total(), 21)
	case c.Soft():
		return rowSoftN + c.Total()
	}
	return rowHardN + min(c.Total(), 21)
}

// fallback is the play of an empty cell of a hand of three or more cards:
// its two-card row's hit or stand; else hit below 17, soft 18.
func (t *StrategyCard) fallback(row, col int, count float64) code {
	if row >= rowHardN && row < rowTenAce {
		two := row - rowHardN + rowHard
		if row >= rowSoftN {
			two = row - rowSoftN + rowSoft
		}
		switch t.code(two, col, count) {
		case cH, cD, cR:
			return cH
		case cS, cDs, cRs:
			return cS
		}
		row = two
	}
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
	return cS
}

// Play implements Strategy.
func (t *StrategyCard) Play(h *Hand, up int, legal Legal, count float64) Move {
	c := col(up)
	if h.Pair != 0 && (legal.Has(Split) || h.Count.N == 2 && h.Count.Declared == 0) {
		pc := t.code(rowPair+h.Pair, c, count)
		switch {
		case pc == cP && legal.Has(Split):
			return Split
		case pc == cRp && legal.Has(Surrender):
			return Surrender
		case pc == cRp && legal.Has(Split):
			return Split
		case pc != cNone && pc != cP && pc != cRp:
			// The pair row gives the unsplit pair's play.
			if legal.Has(Surrender) && pc.surrender() {
				return Surrender
			}
			if !legal.Has(Hit) {
				return None
			}
			return resolve(pc, legal)
		}
	}
	row := t.row(h)
	if legal.Has(Surrender) {
		if e := &t.surr[row][c]; e.has {
			if count >= e.at && e.above.surrender() {
				return Surrender
			}
		} else if t.code(row, c, count).surrender() {
			return Surrender
		}
	}
	if !legal.Has(Hit) {
		return None
	}
	pc := t.code(row, c, count)
	if pc == cNone || pc >= cY {
		pc = t.fallback(row, c, count)
	}
	return resolve(pc, legal)
}

// resolve turns a code into a legal move.
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

// Declare implements Strategy: the @1 or @11 of the hand's cell. Without
// one, an Ace on a split ten counts 11, and an AR-11 hand declares 11 where
// the table stands on its soft total, else 1.
func (t *StrategyCard) Declare(h *Hand, up int, count float64) int {
	c := col(up)
	if h.TenAce {
		if t.cells[rowTenAce][c].decl == 1 {
			return 1
		}
		return 11
	}
	hard := int(h.Count.Hard)
	if h.Pair == 1 {
		if d := t.cells[rowPair+1][c].decl; d != 0 {
			return int(d)
		}
	}
	if hard+10 > 21 {
		return 1
	}
	row := rowSoft + hard + 10
	if d := t.cells[row][c].decl; d != 0 {
		return int(d)
	}
	pc := t.code(row, c, count)
	if pc == cNone {
		pc = t.fallback(row, c, count)
	}
	if pc == cS || pc == cDs && hard+10 >= 18 {
		return 11
	}
	return 1
}

// Insure implements Strategy.
func (t *StrategyCard) Insure(up int, blackjack bool, count float64) bool {
	return t.code(rowInsurance, col(up), count) == cY
}

// EvenMoney implements Strategy: the even-money row, else as insurance
// under an Ace (even money is insuring a blackjack).
func (t *StrategyCard) EvenMoney(up int, count float64) bool {
	switch t.code(rowEvenMoney, col(up), count) {
	case cY:
		return true
	case cN:
		return false
	}
	return up == 1 && t.Insure(up, true, count)
}

// Challenge implements Strategy.
func (t *StrategyCard) Challenge(up int, count float64) bool {
	return t.code(rowChallenge, col(up), count) == cY
}

// Basic returns a copy of the table without its index plays.
func (t *StrategyCard) Basic() *StrategyCard {
	c := *t
	c.play = [nRows][10]index{}
	c.surr = [nRows][10]index{}
	c.Indices = false
	return &c
}

// ErrFormat is returned, wrapped, for a strategy or index file that does not
// parse.
var ErrFormat = errors.New("strategy file")

// parseRow reads the hand of an index file or a wide chart: H2-H21,
// S12-S21, P2-P10 (PT) and PA, TA (VE-13), insurance, even-money,
// challenge. H and S name the two-card row; index plays on them apply to
// hands of three or more cards too.
func parseRow(s string) (int, bool) {
	s = strings.ToUpper(strings.TrimSpace(s))
	switch s {
	case "INSURANCE":
		return rowInsurance, true
	case "EVEN-MONEY":
		return rowEvenMoney, true
	case "CHALLENGE":
		return rowChallenge, true
	case "TA", "T,A", "TEN-ACE":
		return rowTenAce, true
	}
	if len(s) < 2 {
		return 0, false
	}
	v, ok := parseValue(s[1:])
	switch s[0] {
	case 'H':
		return rowHard + v, ok && v >= 2 && v <= 21
	case 'S':
		return rowSoft + v, ok && v >= 12 && v <= 21
	case 'P':
		return rowPair + v, ok && v >= 1 && v <= 10
	}
	return 0, false
}

// parseValue reads a total or a card: a number, A (1), T J Q K (10).
func parseValue(s string) (int, bool) {
	switch strings.ToUpper(strings.TrimSpace(s)) {
	case "A":
		return 1, true
	case "T", "J", "Q", "K":
		return 10, true
	}
	n, err := strconv.Atoi(strings.TrimSpace(s))
	return n, err == nil
}

func parseUp(s string) (int, error) {
	v, ok := parseValue(s)
	if ok && v == 11 {
		v = 1
	}
	if !ok || v < 1 || v > 10 {
		return 0, fmt.Errorf("unknown dealer card %q (want 2-9, T or A)", s)
	}
	return v, nil
}

// readCell parses the cell of a row; its error says what the row takes.
func readCell(s string, row int) (cell, error) {
	x, err := parseCell(s)
	switch {
	case row >= rowInsurance && (err != nil || !cellFits(row, x)):
		return cell{}, fmt.Errorf("action %q: want Y or N", s)
	case err != nil:
		return cell{}, err
	case !cellFits(row, x):
		return cell{}, fmt.Errorf("action %q does not fit the hand: want %s", s, rowTakes(row))
	}
	return x, nil
}

// rowTakes says what cellFits lets a row hold.
func rowTakes(row int) string {
	switch {
	case row >= rowInsurance:
		return "Y or N"
	case row == rowTenAce:
		return "H, S, Dh or Ds"
	case row >= rowHardN:
		return "H or S (three or more cards)"
	case row >= rowPair:
		return "H, S, Dh, Ds, P, Rh, Rs or Rp"
	}
	return "H, S, Dh, Ds, Rh or Rs (P and Rp are for pairs)"
}

func cellFits(row int, x cell) bool {
	switch {
	case row >= rowInsurance:
		return (x.c == cY || x.c == cN) && x.decl == 0
	case row == rowTenAce:
		return x.c >= cH && x.c <= cDs
	case row >= rowHardN:
		return x.c == cH || x.c == cS
	case row >= rowPair:
		return x.c >= cH && x.c <= cRp
	}
	return x.c >= cH && x.c <= cRp && x.c != cP && x.c != cRp
}

// ParseStrategyCard reads a strategy card in the CSV format of `sabot strategy
// --format csv` (docs/strategy-csv.md): the header kind,player,dealer,action
// and one record per hand and dealer card, kind hard, soft, pair, hard+,
// soft+ or ten-ace. It also reads the kinds insurance, even-money and
// challenge (player -, action Y or N), and a wide chart: the header
// hand,2,3,4,5,6,7,8,9,10,A with one row per hand (H5, S18, P8, PA, TA …).
// Lines starting with # are comments; "# name: …" names the card.
func ParseStrategyCard(r io.Reader) (*StrategyCard, error) {
	t := &StrategyCard{}
	sc := bufio.NewScanner(r)
	line := 0
	var wide []int      // the wide chart's columns
	var upName []string // and their dealer cards as written
	long := false
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
		for i := range f {
			f[i] = strings.TrimSpace(f[i])
		}
		bad := func(format string, a ...any) error {
			return fmt.Errorf("%w: line %d: %s", ErrFormat, line, fmt.Sprintf(format, a...))
		}
		switch {
		case !long && wide == nil:
			switch strings.ToLower(strings.Join(f, ",")) {
			case "kind,player,dealer,action":
				long = true
				continue
			}
			if !strings.EqualFold(f[0], "hand") {
				return nil, bad("want the header kind,player,dealer,action")
			}
			for _, h := range f[1:] {
				up, err := parseUp(h)
				if err != nil {
					return nil, bad("%v", err)
				}
				wide = append(wide, col(up))
				upName = append(upName, h)
			}
		case long:
			// The player label may hold a comma (ten-ace "T,A").
			if len(f) == 5 && strings.EqualFold(f[0], "ten-ace") {
				f = []string{f[0], f[1] + "," + f[2], f[3], f[4]}
			}
			if len(f) != 4 {
				return nil, bad("want kind,player,dealer,action")
			}
			row, ok := longRow(f[0], f[1])
			if !ok {
				return nil, bad("unknown hand %s %s", f[0], f[1])
			}
			up, err := parseUp(f[2])
			if err != nil {
				return nil, bad("%v", err)
			}
			x, err := readCell(f[3], row)
			if err != nil {
				return nil, bad("%s %s vs %s: %v", f[0], f[1], f[2], err)
			}
			t.cells[row][col(up)] = x
		default:
			row, ok := parseRow(f[0])
			if !ok {
				return nil, bad("unknown hand %q (want H2-H21, S12-S21, P2-P10, PA, TA, insurance, even-money, challenge)", f[0])
			}
			if len(f)-1 != len(wide) {
				return nil, bad("%d cells for %d dealer cards", len(f)-1, len(wide))
			}
			for i, v := range f[1:] {
				x, err := readCell(v, row)
				if err != nil {
					return nil, bad("%s vs %s: %v", f[0], upName[i], err)
				}
				t.cells[row][wide[i]] = x
			}
		}
	}
	if err := sc.Err(); err != nil {
		return nil, fmt.Errorf("%w: %v", ErrFormat, err)
	}
	if !long && wide == nil {
		return nil, fmt.Errorf("%w: empty", ErrFormat)
	}
	return t, nil
}

// longRow maps a kind and player label of the CSV format to a row.
func longRow(kind, player string) (int, bool) {
	v, ok := parseValue(player)
	switch strings.ToLower(kind) {
	case "hard":
		return rowHard + v, ok && v >= 2 && v <= 21
	case "soft":
		return rowSoft + v, ok && v >= 12 && v <= 21
	case "pair":
		return rowPair + v, ok && v >= 1 && v <= 10
	case "hard+":
		return rowHardN + v, ok && v >= 2 && v <= 21
	case "soft+":
		return rowSoftN + v, ok && v >= 12 && v <= 21
	case "ten-ace":
		return rowTenAce, true
	case "insurance":
		return rowInsurance, true
	case "even-money":
		return rowEvenMoney, true
	case "challenge":
		return rowChallenge, true
	}
	return 0, false
}

// LoadIndices adds index plays to the table from a CSV file with the header
// hand,up,index,at_or_above,below: at a count at or above index the hand
// plays at_or_above, below it it plays below (docs/sim.md). hand is H5-H21,
// S12-S21 (two or more cards), P2-P10, PA, insurance, even-money or
// challenge; up is 2-9, T or A, or * for every up card. A row whose
// at_or_above is R, Rs or Rp is a surrender index: it says only whether to
// surrender.
func (t *StrategyCard) LoadIndices(r io.Reader) error {
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
		bad := func(format string, a ...any) error {
			return fmt.Errorf("%w: index line %d: %s", ErrFormat, line, fmt.Sprintf(format, a...))
		}
		if !header {
			if strings.ToLower(strings.Join(f, ",")) != "hand,up,index,at_or_above,below" {
				return bad("want the header hand,up,index,at_or_above,below")
			}
			header = true
			continue
		}
		if len(f) != 5 {
			return bad("want 5 fields")
		}
		row, ok := parseRow(f[0])
		if !ok || row == rowTenAce {
			return bad("unknown hand %q", f[0])
		}
		at, err := strconv.ParseFloat(f[2], 64)
		if err != nil {
			return bad("index %q is not a number", f[2])
		}
		var codes [2]cell
		for i, name := range []string{"at_or_above", "below"} {
			x, err := readCell(f[3+i], row)
			if err == nil && x.decl != 0 {
				err = fmt.Errorf("action %q: an index play declares no Ace (@1, @11)", f[3+i])
			}
			if err != nil {
				return bad("%s vs %s: %s: %v", f[0], f[1], name, err)
			}
			codes[i] = x
		}
		above, below := codes[0], codes[1]
		var cols []int
		if f[1] == "*" {
			cols = []int{0, 1, 2, 3, 4, 5, 6, 7, 8, 9}
		} else {
			up, err := parseUp(f[1])
			if err != nil {
				return bad("%v", err)
			}
			cols = []int{col(up)}
		}
		e := index{has: true, at: at, above: above.c, below: below.c}
		rows := []int{row}
		switch {
		case row < rowSoft:
			rows = append(rows, row-rowHard+rowHardN)
		case row < rowPair:
			rows = append(rows, row-rowSoft+rowSoftN)
		}
		for _, r := range rows {
			for _, c := range cols {
				switch {
				case above.c.surrender() && r < rowPair:
					t.surr[r][c] = e
				case r >= rowHardN && r < rowTenAce:
					// Three or more cards: hit or stand only.
					ne := e
					ne.above, ne.below = hitStand(e.above), hitStand(e.below)
					t.play[r][c] = ne
				default:
					t.play[r][c] = e
				}
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

// hitStand is what a two-card code does with three or more cards.
func hitStand(c code) code {
	switch c {
	case cS, cDs, cRs:
		return cS
	}
	return cH
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
func Textbook(h17 bool) *StrategyCard {
	src := basicS17
	if h17 {
		src = basicH17
	}
	t, err := ParseStrategyCard(bytes.NewReader(src))
	if err != nil {
		panic(err)
	}
	return t
}

// Illustrious18 returns the Illustrious 18 and Fab 4 Hi-Lo index plays for
// multi-deck S17 (Schlesinger, Blackjack Attack, 3rd ed., ch. 5) as an index
// file for LoadIndices.
func Illustrious18() []byte { return append([]byte(nil), illustrious18...) }
