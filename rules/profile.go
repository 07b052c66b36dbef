// Package rules holds what the regulations say a blackjack game is: the rule
// profile (every option with the rule IDs it implements), the built-in
// profiles of the seeds, and the arithmetic of hands, the player's options
// (who may split, double, draw), the dealer's rule and how far he plays, and
// the settlement table that the engine, the analysis and the simulator
// share: each check is written here once.
package rules

import (
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"strings"

	"sabot/money"
	"sabot/shoe"
)

// HoleCard is how the dealer's second card is dealt (AR-09, ES-12, VE-05).
type HoleCard uint8

const (
	// Peek is the US hole card: dealt face down and checked for a blackjack
	// under an Ace or a ten-value up card before the players act.
	Peek HoleCard = iota
	// NoPeek deals the hole card face down and turns it only when the dealer
	// plays (AR-09).
	NoPeek
	// NoHole is the European deal: the dealer takes one card and draws the
	// rest after the players (ES-12, VE-05).
	NoHole
)

// DealerBlackjackTakes says which stakes a dealer blackjack beats.
type DealerBlackjackTakes uint8

const (
	// TakesAll: doubled and split stakes are lost too (AR-15, ES-12, VE-15).
	TakesAll DealerBlackjackTakes = iota
	// TakesOriginal: only the original stakes are lost; doubles and the
	// stakes of split hands are returned.
	TakesOriginal
)

// DoubleOn is the set of two-card totals a hand may double on.
type DoubleOn uint8

const (
	DoubleAny    DoubleOn = iota // any first two cards (VE-11)
	Double9to11                  // 9, 10 or 11 (ES-08)
	Double10to11                 // 10 or 11
	Double11                     // 11 only (AR-17)
)

// SplitBlackjack is what an Ace and a ten-value on a split hand make.
type SplitBlackjack uint8

const (
	// Split21 counts it as a plain 21 (ES-09, VE-14).
	Split21 SplitBlackjack = iota
	// SplitBlackjackEven ranks it as a blackjack (beats a dealer 21, pushes a
	// dealer blackjack) paid even money (AR-19).
	SplitBlackjackEven
	// SplitBlackjackAcesEven is AR-19 by the letter: every split hand's Ace
	// and ten-value ranks as a blackjack, «el 150%» (AR-02, AR-16) on a
	// split ten that draws an Ace, and paid «en forma "Simple" (1 por 1)»
	// only on split Aces, the one case the 1:1 sentence stands under
	// («APERTURA DE "ASES"»).
	SplitBlackjackAcesEven
)

// Surrender is the surrender rule (reference profiles only).
type Surrender uint8

const (
	NoSurrender Surrender = iota
	LateSurrender
	EarlySurrender
)

// EvenMoney says under which dealer up cards a blackjack may be paid 1:1 at once.
type EvenMoney uint8

const (
	NoEvenMoney     EvenMoney = iota
	EvenMoneyAce              // ES-10
	EvenMoneyAceTen           // VE-16
)

// MaxScope says what the table maximum applies to.
type MaxScope uint8

const (
	// MaxPerBet: each bettor's stake on a box stays within the maximum.
	MaxPerBet MaxScope = iota
	// MaxPerBox: the box's stakes together stay within the maximum (VE-21:
	// «neppure con l'intervento di terzi»; ES-03 reading: back bettors bet
	// "within the maximum" of the box).
	MaxPerBox
)

// DealerPlays says whether the dealer completes his hand when no live hand
// is left to play against (AR-14, ES-05, VE-08).
type DealerPlays uint8

const (
	// PlaysAsNeeded: he draws only as far as the bets still to settle need:
	// nothing when every hand is bust, two cards when only blackjacks (and
	// insurance) remain (AR-14: «Cuando todos los Jugadores se pasaren de
	// puntaje … el Pagador no tirará cartas para sí»).
	PlaysAsNeeded DealerPlays = iota
	// PlaysAlways: he always completes his hand by his rule, whatever is
	// left on the layout (VE-08: «deve portare a termine il suo, applicando
	// obbligatoriamente “la regola del banco”»; ES-05: «deberá pedir otros
	// naipes hasta … 17»). The cards he takes change the rounds after.
	PlaysAlways
	// PlaysUnlessAllBust is AR-14 by the letter: «Cuando todos los
	// Jugadores se pasaren de puntaje … el Pagador no tirará cartas para
	// sí»: he draws nothing when every hand is bust, and otherwise, only
	// blackjacks left included, completes his hand by his rule.
	PlaysUnlessAllBust
)

// DealerAce says how the dealer's Ace counts once he draws (AR-13): the
// regulation gives the Ace with an Ace or a 2 to 5 the value 1 in his
// two-card total (13 a) and counts an Ace drawn later 11 when that makes 17
// or more (13 c), and does not say whether an Ace counted 1 stays 1 when he
// draws on.
type DealerAce uint8

const (
	// AceRecount: his hand is counted anew at each card, the Ace 11
	// whenever that makes 17 to 21: A-5 (6) then a 2 is 18 and stands.
	AceRecount DealerAce = iota
	// AceStaysOne: an Ace counted 1 when he draws stays 1 for the round: A-5
	// (6) then a 2 is 8 and draws. An Ace drawn later counts 11 only when
	// that makes 17 to 21 at once (13 c), else 1 for good when he draws again.
	AceStaysOne
)

// ResplitHands says which hand of a box may split again once it has split
// (VE-12): the Venetian rules allow one more split «Se con la terza carta
// ricevuta forma un'altra coppia», the third card being the first card
// dealt after the split, which the first split hand takes.
type ResplitHands uint8

const (
	// ResplitAny: any split hand that makes a new pair with its second
	// card may split again, up to max_hands.
	ResplitAny ResplitHands = iota
	// ResplitFirst: only the box's first hand (the one dealt the third
	// card) may split again; the others are played as dealt.
	ResplitFirst
)

// BackFollow says what a back bet does when the box holder splits or
// doubles (ES-03, VE-11, VE-12): 001 has the back bettors accept the
// holder's decisions («debiendo aceptar sus iniciativas»), 004 lets them
// not double («non sono obbligati a raddoppiare la posta, ma devono
// accettare l’attribuzione di una sola carta») and makes the split binding
// («la decisione del titolare di postazione è vincolante»).
type BackFollow uint8

const (
	// BackChoose: each back bettor answers the split or double, putting a
	// matching stake on the new hand or the double, or not.
	BackChoose BackFollow = iota
	// BackFollows: every back bet follows at once, a matching stake put
	// on the new hand or on the double without an answer.
	BackFollows
	// BackStays: no back bet follows: after a split it stays on the first
	// hand, after a double on the doubled hand at its own stake.
	BackStays
)

// InsuranceCloses says what closes the insurance window (ES-11, VE-15):
// the offer is made once, before play, or stays open until a player is
// dealt a third card.
type InsuranceCloses uint8

const (
	// ClosesFirstDecision: the offer is made to every box at once and closes
	// with the first decision of another kind (003 §11: «el croupier invita
	// a los jugadores a asegurarse. A continuación pasa a jugar»).
	ClosesFirstDecision InsuranceCloses = iota
	// ClosesThirdCard: insurance and even money stay open while the boxes
	// play until the first third card is dealt (ES-11, 001: «antes de dar la
	// tercera carta al primer jugador que la pida»).
	ClosesThirdCard
)

// Collected says where the cards go after a round (FAM-03).
type Collected uint8

const (
	// DiscardTray: a discard tray, reshuffled after the cut card (EG-05).
	DiscardTray Collected = iota
	// UnderFaceUp: under the deck face up; reshuffle when the first face-up
	// card is reached (FAM-03).
	UnderFaceUp
	// UnderFaceDown: under the deck face down; dealt on continuously until
	// the bank changes hands, then reshuffled (FAM-03).
	UnderFaceDown
)

// Ratio is a payout ratio such as 3:2.
type Ratio struct{ Num, Den int64 }

func (r Ratio) String() string { return fmt.Sprintf("%d:%d", r.Num, r.Den) }

// Profile is a complete rule set: every option a table, the engine, the
// analysis and the simulator read. Each field names the rule IDs it
// implements; options.go documents each key and the reading taken where a
// seed is ambiguous. Build one with Lookup or Default and change it with Set;
// Validate refuses impossible combinations.
type Profile struct {
	Name        string
	Description string
	// Regulation names the seed the profile follows (argentina, spain,
	// family, venice; empty for the reference profiles): a profile file
	// keeps its base's. Refusals cite only its rules (Own).
	Regulation string

	// The shoe.
	Decks          int       // AR-01, VE-01, FAM-01
	BurnCards      int       // EG-03
	MinCut         int       // AR-07
	CutCardReserve int       // AR-08, EG-02
	LastRoundVoid  bool      // EG-04
	PlayerCut      bool      // AR-07, EG-02: a new shoe waits for the inspector's authorisation and a player's cut
	Collected      Collected // FAM-03

	// The table.
	Boxes             int          // ES-03, VE-03
	BackBetsPerBox    int          // AR-05, ES-03, VE-03
	BackFollow        BackFollow   // ES-03, VE-11, VE-12: a back bet after the holder's split or double
	MinBet, MaxBet    money.Amount // AR-04, VE-18, VE-21
	MaxScope          MaxScope     // ES-03, VE-21
	MaxCapsDouble     bool         // VE-21: a double counts only up to the maximum
	BelowMinStands    bool         // VE-18
	MinBetsToStart    int          // AR-03
	LoneCustomerBoxes int          // VE-20
	PayoutUnit        money.Amount // payout fractions below the unit round down
	BankRotates       bool         // FAM-02
	BankRounds        int          // FAM-02: rounds before the bank passes (0: only on a blackjack)

	// The deal and the dealer.
	HoleCard             HoleCard             // AR-09, ES-12, VE-05
	DealerBlackjackTakes DealerBlackjackTakes // AR-15, ES-12, VE-15
	DealerHitsSoft17     bool                 // AR-13, ES-05, VE-08
	DealerPlays          DealerPlays          // AR-14, ES-05, VE-08
	DealerAce            DealerAce            // AR-13: the dealer's Ace counted 1 stays 1 once he draws (stays-one) or is counted anew (recount)

	// Payouts.
	BlackjackPays Ratio // AR-16, ES-07, VE-10

	// Player options.
	DoubleOn            DoubleOn       // AR-17, ES-08, VE-11
	DoubleAfterSplit    bool           // AR-17, ES-08, VE-13
	DoubleForLess       bool           // VE-19
	DoubleCardFaceDown  bool           // AR-17
	MaxHands            int            // AR-18, ES-09, VE-12
	ResplitHands        ResplitHands   // VE-12: which split hand may split again (any, or the first alone)
	ResplitAces         bool           // ES-09
	HitSplitAces        bool           // AR-19, ES-09, VE-14
	SplitBlackjack      SplitBlackjack // AR-19, ES-09, VE-14
	Surrender           Surrender
	Insurance           bool            // AR-20, ES-11, VE-15
	InsuranceCloses     InsuranceCloses // ES-11, VE-15
	InsureBlackjack     bool            // ES-10, VE-15
	EvenMoney           EvenMoney       // ES-10, VE-16
	Challenge           bool            // AR-10
	ChallengeSplitAce   bool            // AR-10
	ChallengeAfterFirst bool            // AR-10 «también»: the second split Ace only by one who challenged the first
	DeclareInitialAce   bool            // AR-11
	MustDrawAtMost      int             // VE-06
	StandOn21           bool            // VE-06
	SplitTenAceChoice   bool            // VE-13
	FiveCard21          bool            // PON-01
	ThreeSevens         bool            // PON-02
}

// Clone returns a copy of p.
func (p *Profile) Clone() *Profile { c := *p; return &c }

// Cards is the number of cards in the full shoe.
func (p *Profile) Cards() int { return 52 * p.Decks }

// Hash is a stable digest of every option's value (not the name or the
// description), so that results computed for a rule set can be cached and
// two profiles with the same rules share them.
func (p *Profile) Hash() string {
	h := sha256.New()
	for _, o := range options {
		fmt.Fprintf(h, "%s=%s\n", o.Key, o.get(p))
	}
	return hex.EncodeToString(h.Sum(nil))
}

// tableOnly are the options of the table service and of the shoe's
// handling that do not change the return of a round to a box: limits,
// layout, the shoe's start and the family bank, the cut, the cut card and
// the burns (the return of the full shoe; a simulation measures the cut
// card's effect), where collected cards go.
var tableOnly = map[string]bool{
	"min_bet": true, "max_bet": true, "max_bet_scope": true, "max_bet_caps_double": true, "below_min_stands": true,
	"min_bets_to_start": true, "lone_customer_boxes": true, "boxes": true, "back_bets_per_box": true,
	// What a back bet does after the holder's split or double changes the
	// back bet's return, not the box's: the holder plays and stakes alike.
	"back_follow":  true,
	"bank_rotates": true, "bank_rounds": true,
	"burn_cards": true, "min_cut": true, "cut_card_reserve": true, "last_round_void": true, "collected_cards": true, "player_cut": true,
	// What the dealer draws when no live hand remains changes no bet's
	// result, only the cards left for the next rounds (a simulation
	// measures it, as it does the cut card's).
	"dealer_plays": true,
	// When the insurance offer closes changes what a bettor may choose,
	// not the value of a choice made off the top of the shoe.
	"insurance_closes": true,
}

// GameHash is the SHA-256 over the options that decide the return of a
// round to a box (Hash without the table-only options): profiles that
// differ only in their limits, layout or shoe handling have the same game
// hash, and share one analysis.
func (p *Profile) GameHash() string {
	h := sha256.New()
	for _, o := range options {
		if !tableOnly[o.Key] {
			fmt.Fprintf(h, "%s=%s\n", o.Key, o.get(p))
		}
	}
	return hex.EncodeToString(h.Sum(nil))
}

// Get returns the text of one option's value.
func (p *Profile) Get(key string) (string, error) {
	o, ok := optionByKey()[key]
	if !ok {
		return "", fmt.Errorf("%w %q", ErrUnknownOption, key)
	}
	return o.get(p), nil
}

// Set parses and sets one option. The profile may then be invalid as a
// whole; call Validate after the last Set.
func (p *Profile) Set(key, value string) error {
	o, ok := optionByKey()[key]
	if !ok {
		return fmt.Errorf("%w %q (see `sabot profiles show`)", ErrUnknownOption, key)
	}
	if err := o.set(p, strings.TrimSpace(value)); err != nil {
		return fmt.Errorf("%w: %s=%q: %v", ErrBadOption, key, value, err)
	}
	return nil
}

// SetAll applies key=value assignments in order, then validates (Override
// without its notes).
func (p *Profile) SetAll(assignments []string) error {
	_, err := p.Override(assignments)
	return err
}

// Override applies key=value assignments in order, then validates. Where
// they change the decks and not the options counted in cards, it scales
// those with the decks (a 1-deck variation of a 6-deck profile keeps a cut
// card its shoe can hold) and returns a note for each, to tell the user.
func (p *Profile) Override(assignments []string) (notes []string, err error) {
	decks, set := p.Decks, map[string]bool{}
	for _, a := range assignments {
		k, v, ok := strings.Cut(a, "=")
		if !ok {
			return nil, fmt.Errorf("%w: %q is not key=value", ErrBadOption, a)
		}
		k = strings.TrimSpace(k)
		if err := p.Set(k, v); err != nil {
			return nil, err
		}
		set[k] = true
	}
	notes = p.followDecks(decks, set)
	return notes, p.Validate()
}

// ShoeProcedure returns the profile's shoe procedure: cut, cut card, burns,
// where collected cards go (AR-07, AR-08, EG-02, EG-03, FAM-03).
func (p *Profile) ShoeProcedure() shoe.Procedure {
	return shoe.Procedure{MinCut: p.MinCut, CutCardReserve: p.CutCardReserve, BurnCards: p.BurnCards, Collected: shoe.Collected(p.Collected)}
}

// regulations are the rule IDs' prefixes of each seed's profile, in tiers:
// a refusal cites the IDs of its profile's first tier that has any, so that
// family cites its own rules (FAM-) before the casino's it inherits (ES-).
var regulations = map[string][][]string{
	"argentina": {{"AR-"}},
	"spain":     {{"ES-", "EG-"}},
	"family":    {{"FAM-", "PON-"}, {"ES-", "EG-"}},
	"venice":    {{"VE-"}},
}

// Own keeps, of a list of rule IDs ("AR-04, ES-03, VE-21"), those of the
// profile's own regulation (Regulation): a table cites only the rules of
// the regulation it follows. A profile of no seed (the reference ones)
// cites none.
func (p *Profile) Own(ids string) string {
	if ids == "" {
		return ""
	}
	for _, tier := range regulations[p.Regulation] {
		var out []string
		for _, id := range strings.Split(ids, ",") {
			id = strings.TrimSpace(id)
			for _, pre := range tier {
				if strings.HasPrefix(id, pre) {
					out = append(out, id)
					break
				}
			}
		}
		if len(out) > 0 {
			return strings.Join(out, ", ")
		}
	}
	return ""
}

// OwnRule reports whether a rule ID belongs to the profile's regulation.
func (p *Profile) OwnRule(id string) bool {
	for _, tier := range regulations[p.Regulation] {
		for _, pre := range tier {
			if strings.HasPrefix(id, pre) {
				return true
			}
		}
	}
	return false
}

// TableRules is what a refusal cites where the profile's own regulation has
// no rule on the matter: the table's options decide it, and the citation
// names the option with its value ("this table's rules: surrender=none").
const TableRules = "this table's rules"

// Cite is the citation of a refusal: the IDs of ids that are the profile's
// own regulation's (Own), or, where none is, this table's rules with the
// option that decides the matter and its value. A reference profile (no
// regulation) cites its rules, bare where no option decides. With neither
// IDs nor option it is "": the refusal of a request that names nothing at
// the table (no such box, no such action).
func (p *Profile) Cite(ids, option string) string {
	if own := p.Own(ids); own != "" {
		return own
	}
	if option != "" {
		if v, err := p.Get(option); err == nil {
			return TableRules + ": " + option + "=" + v
		}
	}
	if ids != "" && p.Regulation == "" {
		return TableRules
	}
	return ""
}
