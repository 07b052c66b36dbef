// Package play is `sabot play`: one person against the dealer in a terminal,
// on any rule profile, through the same checked engine as every table.
//
// The game is line-oriented: it writes a prompt, reads one line, and works
// the same over a pipe as at a keyboard, which is how its tests drive it. The
// shoe runs from round to round with its cut card, burns and reshuffles
// (AR-07, AR-08, EG-02 to EG-05, FAM-03); the cards and totals show as the
// dealer announces them (AR-12, AR-13), the hole card and an AR-17 double
// card face down until turned; the menu offers exactly what the engine's
// LegalActions lists, and anything else typed goes to the engine, whose
// refusal is shown with its rule ID. The end of the input ends the session
// cleanly with its summary.
package play

import (
	"bufio"
	"encoding/hex"
	"errors"
	"fmt"
	"io"
	"slices"
	"strconv"
	"strings"

	"golang.org/x/text/language"

	"sabot/card"
	"sabot/engine"
	"sabot/internal/english"
	"sabot/money"
	"sabot/rules"
	"sabot/shoe"
)

// Player is the name the engine knows the lone player by.
const Player = "player"

// Defaults of a session.
const (
	DefaultProfile  = "venice" // the Casinò di Venezia rules (004); VE-20 makes it two boxes
	DefaultBet      = 1000     // 10.00 a box, raised to the table minimum where that is higher
	DefaultBankroll = 100000   // 1000.00
	// TableMinimum is the minimum of a table of a built-in profile whose
	// min_bet is left as the profile has it: the seeds name no limits, and
	// the profiles' minimum of one minor unit is no casino's (AR-04).
	TableMinimum = 500 // 5.00
)

// Config is what a session plays: the profile, the player's boxes and stake,
// the bankroll, and the seed of the shoe.
type Config struct {
	Profile *rules.Profile
	// Boxes are the boxes the player plays, dealt in box order. Empty: boxes
	// 1 to the lone customer's minimum (VE-20), at least one.
	Boxes []int
	// Bet is the stake on each box, in minor units (0: DefaultBet, within
	// the table's limits).
	Bet money.Amount
	// Bankroll is the player's money at the start, in minor units (0:
	// DefaultBankroll).
	Bankroll money.Amount
	// Seed seeds the shoe's ChaCha8 source; the same seed, profile and input
	// play the same session. SeedText is how the summary shows it.
	Seed     shoe.Seed
	SeedText string
	// Rounds ends the session after that many rounds (0: no limit).
	Rounds int
	// Echo writes each line read after its prompt, so that a transcript of
	// piped input reads like a session at a keyboard.
	Echo bool
	// SuitSymbols shows the cards' suits as symbols (A♠ T♥) instead of
	// letters (AS TH): for a terminal that shows them (sabot play's --suits).
	SuitSymbols bool
	// Lang is the language the session speaks: English (the zero Tag),
	// Spanish or Italian (Languages; ParseLang, LangFromEnv).
	Lang language.Tag
	// OnRound, if set, is called with each round once it is over (settled or
	// void), before the next one is dealt: for tests and records.
	OnRound func(*engine.Round)
}

// Summary is how a session went.
type Summary struct {
	Rounds     int          // rounds dealt, void ones included
	Void       int          // void rounds (AR-08, EG-04)
	Shoes      int          // shoes prepared: the first and each reshuffle
	Start      money.Amount // bankroll at the start
	Bankroll   money.Amount // bankroll at the end
	Net        money.Amount // the sum of the rounds' nets: Bankroll - Start
	BiggestWin money.Amount // the best round's net, 0 if no round won
	Ended      End
}

// End says why a session ended.
type End uint8

// The ends of a session.
const (
	EndQuit     End = iota + 1 // the player typed quit
	EndInput                   // the input ended
	EndRounds                  // Config.Rounds were played
	EndBankroll                // the bankroll cannot cover the table minimum
)

// ParseSeed reads a seed as `--seed` takes it: a number (shoe.SeedFromUint64)
// or the 64 hex digits of a whole seed, as the summary of a session without
// --seed prints it.
func ParseSeed(s string) (shoe.Seed, error) {
	s = strings.TrimSpace(s)
	if n, err := strconv.ParseUint(s, 10, 64); err == nil {
		return shoe.SeedFromUint64(n), nil
	}
	var seed shoe.Seed
	if b, err := hex.DecodeString(s); err == nil && len(b) == len(seed) {
		copy(seed[:], b)
		return seed, nil
	}
	return seed, fmt.Errorf("seed %q: want a number or 64 hex digits", s)
}

// SeedHex prints a seed as ParseSeed reads it back.
func SeedHex(s shoe.Seed) string { return hex.EncodeToString(s[:]) }

// DefaultBoxes returns boxes 1 to the lone customer's minimum (VE-20), at
// least box 1.
func DefaultBoxes(p *rules.Profile) []int {
	n := p.LoneBoxes()
	out := make([]int, n)
	for i := range out {
		out[i] = i + 1
	}
	return out
}

// ParseBoxes reads a list of boxes: "1,3" or "1 3".
func ParseBoxes(s string) ([]int, error) {
	fields := strings.FieldsFunc(s, func(r rune) bool { return r == ',' || r == ' ' || r == '\t' })
	if len(fields) == 0 {
		return nil, errors.New("no box given: want box numbers such as 1,3")
	}
	out := make([]int, 0, len(fields))
	for _, f := range fields {
		n, err := strconv.Atoi(f)
		if err != nil {
			return nil, fmt.Errorf("box %q: want box numbers such as 1,3", f)
		}
		out = append(out, n)
	}
	return out, nil
}

// CheckBoxes refuses boxes the table does not have, a box named twice, and
// fewer boxes than a lone customer must play (VE-20).
func CheckBoxes(p *rules.Profile, boxes []int) error {
	if len(boxes) == 0 {
		return errors.New("play at least one box")
	}
	seen := map[int]bool{}
	for _, b := range boxes {
		if b < 1 || b > p.Boxes {
			return fmt.Errorf("box %d: the %s table has boxes 1 to %d", b, p.Name, p.Boxes)
		}
		if seen[b] {
			return fmt.Errorf("box %d is named twice", b)
		}
		seen[b] = true
	}
	if p.LoneBar(1, len(boxes)) == rules.BarLoneBoxes {
		return fmt.Errorf("%s: a lone customer must play at least %d boxes (VE-20), not %d", p.Name, p.LoneBoxes(), len(boxes))
	}
	return nil
}

// CheckBet refuses a stake the table refuses on the player's boxes, with the
// engine's own reason (AR-04, VE-21), and a stake below the minimum where a
// profile lets one stand once the cards are dealt (VE-18): that is a stake
// found short after the deal, not one the player may place.
func CheckBet(p *rules.Profile, boxes []int, stake money.Amount) error {
	if p.StakeBar(stake, rules.Placed) == rules.BarMinimum {
		why := fmt.Sprintf("a stake of %s: the table minimum is %s", stake.Plain(), p.MinBet.Plain())
		if rule := p.Own("AR-04, FAM-01, VE-21"); rule != "" {
			why += " (" + rule + ")"
		}
		return errors.New(why)
	}
	r := engine.New(p)
	r.SetAmountStyle(money.Plain)
	for _, b := range boxes {
		if err := r.PlaceBet(Player, b, stake); err != nil {
			return fmt.Errorf("a stake of %s on box %d: %s", stake.Plain(), b, reason(err))
		}
	}
	return nil
}

// Session is one player's session at a table. It is not safe for concurrent
// use.
type Session struct {
	cfg      Config
	p        *rules.Profile
	boxes    []int
	bet      money.Amount
	bankroll money.Amount
	sum      Summary

	shoe  *shoe.Shoe
	src   *source
	round *engine.Round

	in   *bufio.Scanner
	out  io.Writer
	werr error
	tr   printer // the session's language

	// The round in play.
	view      tableView
	seen      int             // events shown
	declined  map[[2]int]bool // box and hand that said no in the open window
	leaving   bool            // quit or end of input: the round is finished for the player
	legal     []engine.Action
	splitFrom int // the hand the last split was made from
}

// New checks a session's settings and readies its shoe.
func New(cfg Config) (*Session, error) {
	p := cfg.Profile
	if p == nil {
		return nil, errors.New("play: no profile")
	}
	if err := p.Validate(); err != nil {
		return nil, err
	}
	if b, err := rules.Lookup(p.Name); err == nil && p.MinBet == b.MinBet && p.MinBet < TableMinimum && p.MaxBet >= TableMinimum {
		// A built-in profile's minimum is a placeholder: the table sits
		// at a casino's (TableMinimum), and says so (intro).
		p = p.Clone()
		p.MinBet = TableMinimum
	}
	s := &Session{cfg: cfg, p: p, tr: newPrinter(cfg.Lang)}
	s.boxes = slices.Clone(cfg.Boxes)
	if len(s.boxes) == 0 {
		s.boxes = DefaultBoxes(p)
	}
	if err := CheckBoxes(p, s.boxes); err != nil {
		return nil, err
	}
	slices.Sort(s.boxes)
	s.bet = cfg.Bet
	if s.bet == 0 {
		s.bet = min(max(DefaultBet, p.MinBet), p.MaxBet)
	}
	if s.bet < 0 {
		return nil, fmt.Errorf("bet %d: a stake must be positive", s.bet)
	}
	if err := CheckBet(p, s.boxes, s.bet); err != nil {
		return nil, err
	}
	s.bankroll = cfg.Bankroll
	if s.bankroll == 0 {
		s.bankroll = DefaultBankroll
	}
	if s.bankroll < 0 {
		return nil, fmt.Errorf("bankroll %d: want a positive amount", s.bankroll)
	}
	if need := s.bet * money.Amount(len(s.boxes)); need > s.bankroll {
		return nil, fmt.Errorf("a bankroll of %s cannot cover %d boxes at %s", s.bankroll.Plain(), len(s.boxes), s.bet.Plain())
	}
	if cfg.Rounds < 0 {
		return nil, fmt.Errorf("rounds %d: want 0 (no limit) or more", cfg.Rounds)
	}
	s.sum.Start, s.sum.Bankroll = s.bankroll, s.bankroll
	s.shoe = shoe.New(p.Decks, cfg.Seed)
	s.round = engine.New(p)
	s.round.SetAmountStyle(money.Plain)
	s.src = &source{shoe: s.shoe, round: s.round}
	return s, nil
}

// Run plays the session: it reads lines from in and writes the game to out
// until the player quits, the input ends, the rounds are played or the
// bankroll cannot cover the table minimum. The error is a failure to write
// or to prepare the shoe; everything the player types is answered in the
// game.
func (s *Session) Run(in io.Reader, out io.Writer) (Summary, error) {
	s.in = bufio.NewScanner(in)
	s.out = out
	s.intro()
	if err := s.newShoe(); err != nil {
		return s.sum, err
	}
	for s.sum.Ended == 0 {
		if s.cfg.Rounds > 0 && s.sum.Rounds >= s.cfg.Rounds {
			s.printf("\nThe session ends after %s.\n", s.tr.count(s.cfg.Rounds, "round", "rounds"))
			s.sum.Ended = EndRounds
			break
		}
		if s.bankroll < s.minimumStakes() {
			s.printf("\nYour bankroll of %s cannot cover the table minimum on %d boxes.\n", s.bankroll.Plain(), s.p.LoneBoxes())
			s.sum.Ended = EndBankroll
			break
		}
		s.betweenRounds()
		if s.sum.Ended != 0 || s.werr != nil {
			break
		}
		if err := s.playRound(); err != nil {
			return s.sum, err
		}
		if s.werr != nil {
			break
		}
	}
	s.summary()
	return s.sum, s.werr
}

// minimumStakes is the least a lone customer can stake on a round
// (rules.Profile.LeastRoundStake: VE-18, VE-20).
func (s *Session) minimumStakes() money.Amount { return s.p.LeastRoundStake() }

func (s *Session) printf(format string, a ...any) {
	if s.werr != nil {
		return
	}
	_, s.werr = io.WriteString(s.out, s.tr.Sprintf(format, a...))
}

// ask writes a prompt and reads one line; ok is false at the end of input.
func (s *Session) ask(prompt string) (line string, ok bool) {
	s.printf("%s\n> ", prompt)
	if s.werr != nil || !s.in.Scan() {
		s.printf("\n(end of input)\n")
		return "", false
	}
	line = strings.TrimSpace(s.in.Text())
	if s.cfg.Echo {
		s.printf("%s\n", line)
	}
	return line, true
}

func (s *Session) intro() {
	p := s.p
	s.printf("sabot play: %s. %s\n", p.Name, s.tr.word(p.Description))
	s.printf("You play %s at %s a box, with a bankroll of %s. Money shows in units with two decimals; type help for the commands.\n",
		s.boxesText(s.boxes), s.tr.money(s.bet), s.tr.money(s.bankroll))
	s.printf("The table minimum is %s a box%s; type amounts as the table shows them: bet 25 is 25.00.\n", s.tr.money(p.MinBet), cite(p, "AR-04, FAM-01, VE-21"))
}

// boxesText names boxes in the session's language: "box 1", "boxes 1, 3".
func (s *Session) boxesText(boxes []int) string {
	if s.tr.english() {
		return boxesText(boxes)
	}
	ns := make([]string, len(boxes))
	for i, b := range boxes {
		ns[i] = strconv.Itoa(b)
	}
	if len(ns) == 1 {
		return s.tr.Sprintf("box %s", ns[0])
	}
	return s.tr.Sprintf("boxes %s", strings.Join(ns, ", "))
}

func boxesText(boxes []int) string {
	ns := make([]string, len(boxes))
	for i, b := range boxes {
		ns[i] = strconv.Itoa(b)
	}
	if len(ns) == 1 {
		return "box " + ns[0]
	}
	return "boxes " + strings.Join(ns, ", ")
}

const helpText = `Between rounds:
  Enter, deal      deal the next round
  bet N            stake N on each box from the next round, in money as the table shows
                   it: bet 25 is 25.00, bet 2.50 is 2.50
  box 1,3          play these boxes from the next round (boxes 3: boxes 1 to 3)
  help             this text
  quit             leave the table and see the summary
During a round type an offer's letter or its name; an amount may follow:
  h hit  s stand  d double [N]  p split  r surrender
  o / e  count the Ace one / eleven (AR-11, VE-13)
  c challenge (AR-10)  i insure [N]  e even money  n no (decline the offer)
What the menu does not offer is refused with the rule that forbids it. The end
of the input, like quit, leaves the table: a round in play is finished with
your hands standing where the rules allow (else drawing).`

// betweenRounds reads commands until the player deals, quits or the input
// ends.
func (s *Session) betweenRounds() {
	for {
		line, ok := s.ask(s.tr.Sprintf("\nBankroll %s; %s on %s. Enter deals; or bet N, box 1,3, help, quit.",
			s.tr.money(s.bankroll), s.tr.money(s.bet), s.boxesText(s.boxes)))
		if !ok {
			s.sum.Ended = EndInput
			return
		}
		word, arg, _ := strings.Cut(strings.ToLower(line), " ")
		arg = strings.TrimSpace(arg)
		switch word {
		case "", "deal":
			if need := s.bet * money.Amount(len(s.boxes)); need > s.bankroll {
				s.printf("%s on %s needs %s; your bankroll is %s: lower the bet (bet N) or play fewer boxes.\n",
					s.bet.Plain(), boxesText(s.boxes), need.Plain(), s.bankroll.Plain())
				continue
			}
			return
		case "q", "quit", "exit":
			s.printf("You leave the table.\n")
			s.sum.Ended = EndQuit
			return
		case "help", "?":
			s.printf("%s\n", s.tr.word(helpText))
		case "bet":
			s.setBet(arg)
		case "box", "boxes":
			s.setBoxes(word, arg)
		default:
			if _, ok := actionWords[word]; ok {
				s.printf("No hand is in play: press Enter to deal.\n")
				continue
			}
			s.printf("Unknown command %q: type help.\n", line)
		}
	}
}

func (s *Session) setBet(arg string) {
	n, err := money.ParseUnits(arg)
	if err != nil {
		s.printf("%s.\n", english.Capitalize(err.Error()))
		return
	}
	if err := CheckBet(s.p, s.boxes, n); err != nil {
		s.printf("Refused: %v.\n", err)
		return
	}
	s.bet = n
	s.printf("Stake %s a box from the next round.\n", s.tr.money(n))
}

func (s *Session) setBoxes(word, arg string) {
	var boxes []int
	if n, err := strconv.Atoi(arg); err == nil && word == "boxes" {
		for i := 1; i <= n; i++ {
			boxes = append(boxes, i)
		}
	} else if boxes, err = ParseBoxes(arg); err != nil {
		s.printf("%s.\n", english.Capitalize(err.Error()))
		return
	}
	if err := CheckBoxes(s.p, boxes); err != nil {
		s.printf("Refused: %v.\n", err)
		return
	}
	slices.Sort(boxes)
	s.boxes = boxes
	s.printf("You play %s from the next round.\n", s.boxesText(boxes))
}

// saidError is an error of the session's own, its English format and its
// values kept, so that it prints in the session's language (sayError).
type saidError struct {
	format string
	args   []any
}

func (e *saidError) Error() string { return fmt.Sprintf(e.format, e.args...) }

// said is an error the session words in its language.
func said(format string, args ...any) error { return &saidError{format, args} }

// sayError prints an error as a sentence, in the session's language where
// it is the session's own (said) or the engine's (reason).
func (s *Session) sayError(err error) {
	var se *saidError
	if errors.As(err, &se) {
		s.printf("%s.\n", s.tr.Sprintf(english.Capitalize(se.format), se.args...))
		return
	}
	s.printf("%s.\n", english.Capitalize(s.reason(err)))
}

// reason is why the engine refused, with the rule that says so, in the
// session's language where the catalogue has the engine's words.
func (s *Session) reason(err error) string {
	var ref *engine.Refusal
	if errors.As(err, &ref) {
		why := s.tr.word(ref.Why)
		if ref.Rule != "" {
			return fmt.Sprintf("%s (%s)", why, ref.Rule)
		}
		return why
	}
	return err.Error()
}

// reason is why the engine refused, with the rule that says so.
func reason(err error) string {
	var ref *engine.Refusal
	if errors.As(err, &ref) {
		if ref.Rule != "" {
			return fmt.Sprintf("%s (%s)", ref.Why, ref.Rule)
		}
		return ref.Why
	}
	return err.Error()
}

// cite is " (IDs)" of those of ids that are the profile's own regulation's
// (rules.Profile.Own), "" when none is: a table cites only the rules it
// follows, and a reference profile none.
func cite(p *rules.Profile, ids string) string {
	if own := p.Own(ids); own != "" {
		return " (" + own + ")"
	}
	return ""
}

// newShoe shuffles, cuts, places the cut card and burns (AR-07, AR-08,
// EG-02, EG-03; EG-05 when it is a reshuffle).
func (s *Session) newShoe() error {
	burned, err := s.shoe.Prepare(s.p.ShoeProcedure(), 0)
	if err != nil {
		return err
	}
	s.sum.Shoes++
	p := s.p
	var b strings.Builder
	if p.Decks == 1 {
		b.WriteString(s.tr.word("A new deck: shuffled and cut"))
	} else {
		b.WriteString(s.tr.Sprintf("A new shoe: %d decks shuffled and cut", p.Decks))
	}
	switch {
	case p.CutCardReserve > 0:
		b.WriteString(s.tr.Sprintf("; the cut card goes %d cards from the end%s", p.CutCardReserve, cite(p, "AR-08, EG-02")))
	case p.Collected == rules.UnderFaceUp:
		b.WriteString(s.tr.Sprintf("; played cards go under the deck face up, and are shuffled when the first of them is reached%s", cite(p, "FAM-03")))
	case p.Collected == rules.UnderFaceDown:
		b.WriteString(s.tr.Sprintf("; played cards go under the deck face down and the deal goes on through them%s", cite(p, "FAM-03")))
	default:
		b.WriteString(s.tr.Sprintf("; no cut card: the shoe is dealt to its end, and a round the cards run out in is void%s", cite(p, "AR-08")))
	}
	if len(burned) > 0 {
		if s.tr.english() {
			fmt.Fprintf(&b, "; %s burned%s", english.Count(len(burned), "card", "cards"), cite(p, "EG-03"))
		} else {
			b.WriteString(s.tr.Sprintf("; %d card burned%s", len(burned), cite(p, "EG-03")))
		}
	}
	s.printf("\n%s.\n", b.String())
	return nil
}

// source is the round's shoe, noting when the deck shuffles its collected
// cards in the middle of a round (FAM-03) so that the game can say so where
// it happens.
type source struct {
	shoe  *shoe.Shoe
	round *engine.Round
	notes []note
}

// note is a message to show before the round's event at.
type note struct {
	at   int
	text string
}

func (src *source) Draw() (c card.Card, ok bool) {
	n := src.shoe.Reshuffles()
	c, ok = src.shoe.Draw()
	if src.shoe.Reshuffles() != n {
		src.notes = append(src.notes, note{len(src.round.Events()),
			"The first collected card is reached: the cards under the deck are shuffled and the deal goes on (FAM-03)."})
	}
	return c, ok
}

func (src *source) CutCardOut() bool { return src.shoe.CutCardOut() }

func (s *Session) summary() {
	sum := &s.sum
	sum.Bankroll = s.bankroll
	void := ""
	if sum.Void > 0 {
		void = s.tr.Sprintf(", %d void", sum.Void)
	}
	s.printf("\nSession over: %s%s, net %s, biggest win %s; bankroll %s (you sat down with %s).\n",
		s.tr.count(sum.Rounds, "round", "rounds"), void, s.tr.net(sum.Net), s.tr.net(sum.BiggestWin), s.tr.money(sum.Bankroll), s.tr.money(sum.Start))
	if s.cfg.SeedText != "" {
		s.printf("Seed %s: the same seed, profile, options and input play this session again.\n", s.cfg.SeedText)
	}
}
