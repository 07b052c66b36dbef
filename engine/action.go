package engine

import (
	"errors"
	"fmt"

	"sabot/card"
	"sabot/money"
	"sabot/rules"
)

// Kind is the kind of a decision.
type Kind uint8

// The decisions of the scenario contract, and Close: the dealer moving on,
// which ends an optional window (the challenge, insurance, a back bettor's
// answer to a double or split, the VE-13 choice).
const (
	Hit Kind = iota + 1
	Stand
	Double
	Split
	Surrender
	Insure
	EvenMoney
	Challenge
	Declare
	Close

	// The house's corrections of a dealer's irregularities at a table dealt
	// from a physical shoe (AR-23). They are not decisions: LegalActions
	// never lists them.
	VoidBox    // AR-23 (a), (b), (e): the box's bets are void and returned; it sits the round out
	BurnHole   // AR-23 (c): the hole card came face up: it is burned and replaced
	ExposeHole // AR-23 (g): the hole card was exposed: the players decide seeing it
	// VoidRound voids the whole round on the inspector's word, every stake
	// returned: the only correction a round waiting for a card from a
	// physical shoe takes (nothing is dealt after it).
	VoidRound
	// BankFirst, AR-23 (f): the dealer skipped the player in turn and
	// completed the bank's hand: the bank is played out now; if it busted
	// the players still to play are paid, else they play against the seen
	// bank, each first able to Withdraw his bet.
	BankFirst
	// Withdraw is a skipped player's choice under AR-23 (f): his box's bets
	// are returned, as void. (A player's decision, numbered after the
	// house's corrections: Record keeps kinds by number.)
	Withdraw
	// CardStands is AR-23 (d)'s exception: «a excepción de las cartas
	// extraídas para el "AS" o "ONCE", cuando el pagador omite preguntar si
	// "ASEGURA" o "DOBLA"»: the card drawn to a first-card Ace before the
	// challenge was offered, or to a two-card 11 before the double was, is
	// not burned: it stands. The challenge window closes (nobody challenges),
	// or the 11 takes the card as a hit (no double).
	CardStands
	// SkippedEleven is AR-23's item 9: «Cuando el pagador omitiera dar carta
	// a un jugador que tiene "ONCE" puntos en las dos primeras cartas y debía
	// doblar, se le dará la opción de retirar la apuesta o a recibir la
	// próxima carta»: the player on 11 in turn may then Withdraw his bet, or
	// play on and take the next card.
	SkippedEleven
	// BankDiscarded is AR-23's item 14: «Cuando el Pagador introduce por
	// error una o más cartas de la Banca dentro del Zambullo, anunciará en
	// el momento de darse cuenta (Previa autorización del Inspector):
	// "Próximas cartas para la Banca"»: the bank's card Value (1 its first,
	// 2 its second) went into the discard: it leaves the bank's hand
	// (burned: it counts in the shoe, deals nothing) and the next card out
	// of the shoe is the bank's in its place, face up or down as it was.
	BankDiscarded
)

var kindNames = [...]string{"", "hit", "stand", "double", "split", "surrender", "insure", "even-money", "challenge", "declare", "close", "void-box", "burn-hole", "expose-hole", "void-round", "bank-first", "withdraw", "card-stands", "skipped-eleven", "bank-discarded"}

// House reports whether a kind is the house's correction rather than a
// player's decision.
func (k Kind) House() bool { return k > Close && k != Withdraw }

func (k Kind) String() string {
	if int(k) < len(kindNames) && k > 0 {
		return kindNames[k]
	}
	return "?"
}

// ParseKind reads an action name of the scenario contract.
func ParseKind(s string) (Kind, bool) {
	for i, n := range kindNames {
		if i > 0 && n == s {
			return Kind(i), true
		}
	}
	return 0, false
}

// Action is one decision: who makes it, for which box and hand, and its stake
// or value where it has one. Box and Hand count from 1; hands are numbered in
// the order they are played. Close has no player: the dealer closes.
type Action struct {
	Kind   Kind
	Player string
	Box    int
	Hand   int
	Stake  money.Amount // Insure (required), Double (0: the hand's stake), Split (0: the hand's stake)
	Value  int          // Declare: 1 or 11
	// Stays are the back bettors on the hand whose bets do not follow the
	// holder's split or double under back_follow=follow, for want of the
	// matching stake (ES-03, VE-11, VE-12): each stays where it was placed.
	Stays []string `json:",omitempty"`
}

func (a Action) String() string {
	switch a.Kind {
	case Close, BurnHole, ExposeHole, VoidRound, BankFirst:
		return a.Kind.String()
	case VoidBox:
		return fmt.Sprintf("void box %d", a.Box)
	case BankDiscarded:
		return fmt.Sprintf("bank-discarded %d", a.Value)
	case Declare:
		return fmt.Sprintf("%s box %d hand %d declare %d", a.Player, a.Box, a.Hand, a.Value)
	}
	if a.Stake != 0 {
		return fmt.Sprintf("%s box %d hand %d %s %d", a.Player, a.Box, a.Hand, a.Kind, a.Stake)
	}
	return fmt.Sprintf("%s box %d hand %d %s", a.Player, a.Box, a.Hand, a.Kind)
}

// Phase is where a round stands.
type Phase uint8

// The phases of a round.
const (
	Betting         Phase = iota // bets are placed
	ChallengeWindow              // AR-10: first-card Aces may challenge
	InsuranceWindow              // ES-10, ES-11, VE-15, VE-16: insurance and even money
	Playing                      // a box holder decides for the current hand
	FollowWindow                 // VE-11, VE-12: back bettors answer the holder's double or split
	AceChoice                    // VE-13: an Ace on a split ten-value may count 1
	Done                         // settled, or void
)

var phaseNames = [...]string{"betting", "challenge", "insurance", "playing", "follow", "ace-choice", "done"}

func (p Phase) String() string {
	if int(p) < len(phaseNames) {
		return phaseNames[p]
	}
	return "?"
}

// BetKind is the kind of a stake.
type BetKind uint8

// The kinds of the scenario contract.
const (
	MainBet BetKind = iota
	DoubleBet
	SplitBet
	InsuranceBet
	ChallengeBet
)

var betKindNames = [...]string{"main", "double", "split", "insurance", "challenge"}

func (k BetKind) String() string { return betKindNames[k] }

// MarshalText implements encoding.TextMarshaler.
func (k BetKind) MarshalText() ([]byte, error) { return []byte(k.String()), nil }

// Bet is one stake and, once settled, what it netted.
type Bet struct {
	Player string
	Box    int
	Hand   int // the hand it rides on, numbered in play order
	Kind   BetKind
	Stake  money.Amount
	Net    money.Amount
	Result rules.Result

	settled bool
	window  uint32       // the window in which the bettor last answered
	plays   money.Amount // a double: the part of its stake that plays (DoubleCounts)
}

// Settled reports whether the bet has been settled.
func (b *Bet) Settled() bool { return b.settled }

// Plays is the part of the stake that plays: all of it, but for a double
// over the stake it doubles (VE-19) or over the table maximum (VE-21),
// whose excess is returned win or lose (Profile.DoubleCounts).
func (b *Bet) Plays() money.Amount {
	if b.Kind == DoubleBet {
		return b.plays
	}
	return b.Stake
}

// Errors: every refusal wraps one of these.
var (
	ErrIllegalAction = errors.New("illegal action")
	ErrOutOfTurn     = errors.New("out of turn")
	ErrStake         = errors.New("stake refused")
	ErrPhase         = errors.New("not now")
)

// Refusal is the error of a refused bet or decision: what was refused and
// why, naming the rule. It wraps a sentinel error.
type Refusal struct {
	Err  error  // ErrIllegalAction, ErrOutOfTurn, ErrStake or ErrPhase
	What string // e.g. "ana box 1 hand 1 may not double"
	Why  string // e.g. "doubling needs a two-card 11"
	Rule string // e.g. "AR-17"
}

func (r *Refusal) Error() string {
	if r.Rule != "" {
		return fmt.Sprintf("%s: %s (%s)", r.What, r.Why, r.Rule)
	}
	return fmt.Sprintf("%s: %s", r.What, r.Why)
}

func (r *Refusal) Unwrap() error { return r.Err }

// Hand is one hand of a box, or the dealer's.
type Hand struct {
	cards [maxHandCards]card.Card
	Count rules.Count

	split     bool // made by splitting
	splitAces bool // a split Ace
	fromTens  bool // a split ten-value (VE-13)
	doubled   bool
	stood     bool
	surrender bool
	aceChoice bool // the VE-13 choice has been offered
	challenge bool // the AR-10 split-Ace challenge has been offered
	faceDown  int8 // index of a face-down card, -1 none
	result    rules.Result
	outcome   rules.Outcome
}

// A hand is over when its total reaches 21 or more; with every card worth at
// least 1 it holds at most 22 cards.
const maxHandCards = 24

// Cards returns the hand's cards (do not modify).
func (h *Hand) Cards() []card.Card { return h.cards[:h.Count.N] }

// Total is the hand's total.
func (h *Hand) Total() int { return h.Count.Total() }

// Split reports whether the hand was made by splitting.
func (h *Hand) Split() bool { return h.split }

// Doubled reports whether the hand has doubled.
func (h *Hand) Doubled() bool { return h.doubled }

// Result is the hand's result once settled.
func (h *Hand) Result() rules.Result { return h.result }

// FaceDown returns the index of a card dealt face down and not yet turned
// (the dealer's hole card, an AR-17 double card), or -1.
func (h *Hand) FaceDown() int { return int(h.faceDown) }

func (h *Hand) add(c card.Card) {
	h.cards[h.Count.N] = c
	h.Count = h.Count.Add(c)
}

func (h *Hand) reset() {
	*h = Hand{faceDown: -1}
}
