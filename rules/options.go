package rules

import (
	"errors"
	"fmt"
	"strconv"
	"strings"
	"sync"

	"sabot/money"
)

// ErrUnknownOption and ErrBadOption are returned, wrapped, by Set; ErrInvalid
// by Validate.
var (
	ErrUnknownOption = errors.New("unknown option")
	ErrBadOption     = errors.New("bad option")
	ErrInvalid       = errors.New("invalid profile")
)

// Option describes one named option of a profile.
type Option struct {
	Key   string   // the canonical key, e.g. "double_on"
	Rules []string // the rule IDs it implements
	Doc   string   // what it means
	// Values lists the accepted values of an enumerated option, or says the
	// kind of value ("integer", "bool", "ratio").
	Values string

	get func(*Profile) string
	set func(*Profile, string) error
}

// Options returns every option, in the order profiles print them.
func Options() []Option { return append([]Option(nil), options...) }

// Reading is the interpretation a profile takes where a seed is silent or
// ambiguous: the option that carries it and the text that explains it.
type Reading struct {
	Rule   string
	Option string
	Text   string
	// Value is the option's value the reading explains, where the option
	// has a reading for each of its values (insurance_closes); else empty.
	Value string
	// Cite is what the reading is shown under: Rule where it is a rule of
	// the profile's own regulation, else "this table's rules: OPTION=VALUE"
	// (TableRules): an option value that gives the table a behaviour its
	// regulation does not have is read by the rule that has it (Rule, for
	// the reading's words), never cited as the table's own rule.
	Cite string
}

func intOpt(key, rules, doc string, f func(*Profile) *int) Option {
	return Option{Key: key, Rules: splitRules(rules), Doc: doc, Values: "integer",
		get: func(p *Profile) string { return strconv.Itoa(*f(p)) },
		set: func(p *Profile, s string) error {
			n, err := strconv.Atoi(s)
			if err != nil {
				return fmt.Errorf("want an integer")
			}
			*f(p) = n
			return nil
		}}
}

func moneyOpt(key, rules, doc string, f func(*Profile) *money.Amount) Option {
	return Option{Key: key, Rules: splitRules(rules), Doc: doc, Values: "integer (minor units)",
		get: func(p *Profile) string { return strconv.FormatInt(int64(*f(p)), 10) },
		set: func(p *Profile, s string) error {
			n, err := strconv.ParseInt(s, 10, 64)
			if err != nil {
				return fmt.Errorf("want an integer amount in minor units")
			}
			*f(p) = money.Amount(n)
			return nil
		}}
}

func boolOpt(key, rules, doc string, f func(*Profile) *bool) Option {
	return Option{Key: key, Rules: splitRules(rules), Doc: doc, Values: "bool",
		get: func(p *Profile) string { return strconv.FormatBool(*f(p)) },
		set: func(p *Profile, s string) error {
			switch strings.ToLower(s) {
			case "true", "yes", "on", "1":
				*f(p) = true
			case "false", "no", "off", "0":
				*f(p) = false
			default:
				return fmt.Errorf("want true or false")
			}
			return nil
		}}
}

// enumOpt is an option whose value is one of names; f returns a pointer to the
// field as a uint8-based enum.
func enumOpt[T ~uint8](key, rules, doc string, names []string, f func(*Profile) *T) Option {
	return Option{Key: key, Rules: splitRules(rules), Doc: doc, Values: strings.Join(names, " | "),
		get: func(p *Profile) string { return names[*f(p)] },
		set: func(p *Profile, s string) error {
			for i, n := range names {
				if strings.EqualFold(s, n) {
					*f(p) = T(i)
					return nil
				}
			}
			return fmt.Errorf("want one of %s", strings.Join(names, ", "))
		}}
}

func splitRules(s string) []string {
	if s == "" {
		return nil
	}
	return strings.Split(s, ",")
}

// ParseRatio reads a payout ratio such as "3:2" or "6/5".
func ParseRatio(s string) (Ratio, error) {
	a, b, ok := strings.Cut(s, ":")
	if !ok {
		a, b, ok = strings.Cut(s, "/")
	}
	if !ok {
		return Ratio{}, fmt.Errorf("want a ratio such as 3:2")
	}
	n, err1 := strconv.ParseInt(strings.TrimSpace(a), 10, 64)
	d, err2 := strconv.ParseInt(strings.TrimSpace(b), 10, 64)
	if err1 != nil || err2 != nil || n <= 0 || d <= 0 || n > 1000 || d > 1000 {
		return Ratio{}, fmt.Errorf("want a ratio of two positive integers up to 1000, such as 3:2")
	}
	return Ratio{n, d}, nil
}

var (
	holeCardNames  = []string{"peek", "no-peek", "none"}
	takesNames     = []string{"all", "original"}
	doubleOnNames  = []string{"any", "9-11", "10-11", "11"}
	splitBJNames   = []string{"21", "blackjack-even", "aces-even"}
	surrenderNames = []string{"none", "late", "early"}
	evenMoneyNames = []string{"none", "ace", "ace-or-ten"}
	maxScopeNames  = []string{"bet", "box"}
	dealerPlays    = []string{"as-needed", "always", "unless-all-bust"}
	insClosesNames = []string{"first-decision", "third-card"}
	dealerAceNames = []string{"recount", "stays-one"}
	resplitNames   = []string{"any", "first"}
	backFollowName = []string{"choose", "follow", "stay"}
	collectedNames = []string{"discard", "under-face-up", "under-face-down"}
)

var options = []Option{
	intOpt("decks", "AR-01,VE-01,FAM-01,EG-02", "Decks of 52 cards in the shoe.", func(p *Profile) *int { return &p.Decks }),
	intOpt("burn_cards", "EG-03", "Cards burned after the shoe is loaded and cut.", func(p *Profile) *int { return &p.BurnCards }),
	intOpt("min_cut", "AR-07", "The player's cut must leave more than this many cards on either side (0: any cut).", func(p *Profile) *int { return &p.MinCut }),
	intOpt("cut_card_reserve", "AR-08,EG-02", "Cards left behind the cut card; when the cut card comes out the round in progress is the last of the shoe. 0 deals to the end.", func(p *Profile) *int { return &p.CutCardReserve }),
	boolOpt("last_round_void", "EG-04", "House option: when the cut card comes out, stop at once and void the round in progress instead of finishing it.", func(p *Profile) *bool { return &p.LastRoundVoid }),
	boolOpt("player_cut", "AR-07,EG-02", "A new shoe of an RNG table waits for two steps before its first deal: the inspector (or a member of the table's staff) authorises the shuffle and a player cuts it, at a position he chooses within min_cut; the commitment covers the shuffled order before the cut, the cut is public. Reading: the holder of the lowest seated box cuts; with nobody seated, or nobody cutting within the table's window, the inspector cuts. argentina: true (000 item 5 «con autorización del Inspector o Jefe de Mesa … solicitando a los apostadores realizar el corte»); spain: true (003 §10 «se presentarán a uno de los jugadores para un nuevo y final corte»); family (no cut card) and venice (004 says nothing of the cut): false.", func(p *Profile) *bool { return &p.PlayerCut }),
	enumOpt("collected_cards", "FAM-03,EG-05", "Where played cards go: the discard tray (reshuffle after the cut card), under the deck face up (reshuffle when the first face-up card is reached) or face down (dealt on until the bank changes hands).", collectedNames, func(p *Profile) *Collected { return &p.Collected }),
	intOpt("boxes", "ES-03,VE-03", "Boxes (betting positions) on the layout.", func(p *Profile) *int { return &p.Boxes }),
	intOpt("back_bets_per_box", "AR-05,ES-03,VE-03", "Back bettors allowed on a box besides its holder (0: no back betting).", func(p *Profile) *int { return &p.BackBetsPerBox }),
	enumOpt("back_follow", "ES-03,VE-11,VE-12", "What a back bet does when the box holder splits or doubles: choose (each back bettor answers, putting a matching stake on the new hand or on the double, or not; not following, his bet stays on the first hand, or on the doubled hand at its own stake, taking the one card: spain, ES-03 «debiendo aceptar sus iniciativas» read as the play; venice, VE-11 «non sono obbligati a raddoppiare la posta, ma devono accettare l’attribuzione di una sola carta»), follow (every back bet follows at once, without an answer: the holder's initiative binds the stake too) or stay (no back bet follows: it stays where it was placed). Needs back_bets_per_box above 0.", backFollowName, func(p *Profile) *BackFollow { return &p.BackFollow }),
	moneyOpt("min_bet", "AR-04,VE-18", "Table minimum stake, in minor units.", func(p *Profile) *money.Amount { return &p.MinBet }),
	moneyOpt("max_bet", "AR-04,VE-21", "Table maximum stake, in minor units.", func(p *Profile) *money.Amount { return &p.MaxBet }),
	enumOpt("max_bet_scope", "ES-03,VE-21", "What the maximum binds: each bettor's stake (bet) or a box's stakes together, the holder's and the back bettors' (box). venice: box, VE-21 «neppure con l'intervento di terzi»; spain: box, ES-03 reading («siempre dentro de los límites de las apuestas máximas»).", maxScopeNames, func(p *Profile) *MaxScope { return &p.MaxScope }),
	boolOpt("max_bet_caps_double", "VE-21", "A double that takes a hand's stakes over the maximum (as max_bet_scope counts them) counts only up to it: the excess is neither paid nor lost, but returned. venice: true («la vincita eccedente … non sarà pagata e la differenza della puntata restituita»); the other seeds bind only the stakes placed before the deal: false.", func(p *Profile) *bool { return &p.MaxCapsDouble }),
	boolOpt("below_min_stands", "VE-18", "A stake below the minimum, once the cards are dealt, stands as valid (else it is refused).", func(p *Profile) *bool { return &p.BelowMinStands }),
	intOpt("min_bets_to_start", "AR-03", "Bets needed to start a shoe and to go on dealing it (table service).", func(p *Profile) *int { return &p.MinBetsToStart }),
	intOpt("lone_customer_boxes", "VE-20", "Boxes a lone customer must play (table service; 0 or 1: no rule).", func(p *Profile) *int { return &p.LoneCustomerBoxes }),
	moneyOpt("payout_unit", "", "The table's unit: a payout fraction below it rounds down.", func(p *Profile) *money.Amount { return &p.PayoutUnit }),
	boolOpt("bank_rotates", "FAM-02", "The bank is a player and rotates: to a player who makes a blackjack, or after bank_rounds rounds (table service).", func(p *Profile) *bool { return &p.BankRotates }),
	intOpt("bank_rounds", "FAM-02", "Rounds after which the bank passes on (0: only on a blackjack).", func(p *Profile) *int { return &p.BankRounds }),
	enumOpt("hole_card", "AR-09,ES-12,VE-05", "The dealer's second card: peek (US, checked under an Ace or ten), no-peek (dealt face down, turned when the dealer plays) or none (European, drawn after the players).", holeCardNames, func(p *Profile) *HoleCard { return &p.HoleCard }),
	enumOpt("dealer_blackjack_takes", "AR-15,ES-12,VE-15", "What a dealer blackjack beats: all stakes, doubles and splits included, or only the original stakes.", takesNames, func(p *Profile) *DealerBlackjackTakes { return &p.DealerBlackjackTakes }),
	boolOpt("dealer_hits_soft_17", "AR-13,ES-05,VE-08", "The dealer draws to a soft 17.", func(p *Profile) *bool { return &p.DealerHitsSoft17 }),
	enumOpt("dealer_plays", "AR-14,ES-05,VE-08", "How far the dealer plays when no live hand is left: as-needed (AR-14, argentina: he draws nothing when every hand is bust, and only the card that settles blackjacks and insurance when no other hand is live) or always (he completes his hand by his rule whatever is left on the layout, every hand bust or every blackjack paid even money: venice, VE-08 «obbligatoriamente»; spain and family, ES-05). unless-all-bust is AR-14 by the letter («Cuando todos los Jugadores se pasaren de puntaje»): he draws nothing only when every hand is bust, and completes his hand when blackjacks alone are left. The reference profiles take as-needed, the US practice.", dealerPlays, func(p *Profile) *DealerPlays { return &p.DealerPlays }),
	enumOpt("dealer_ace", "AR-13", "How the dealer's Ace counts once he draws: recount (his hand is counted anew at each card, an Ace 11 whenever that makes 17 to 21: A-5 then a 2 is 18 and stands; every profile) or stays-one (AR-13 a) and c) read as fixing the Ace's value: an Ace counted 1 when he draws to a soft total stays 1 for the round, A-5 then a 2 is 8 and draws; an Ace drawn later counts 11 only where that makes 17 to 21 at once).", dealerAceNames, func(p *Profile) *DealerAce { return &p.DealerAce }),
	{Key: "blackjack_pays", Rules: splitRules("AR-16,ES-07,VE-10"), Doc: "What a blackjack pays.", Values: "ratio",
		get: func(p *Profile) string { return p.BlackjackPays.String() },
		set: func(p *Profile, s string) error {
			r, err := ParseRatio(s)
			if err == nil {
				p.BlackjackPays = r
			}
			return err
		}},
	enumOpt("double_on", "AR-17,ES-08,VE-11", "Two-card totals a hand may double on (either count of a soft hand, as suits the player).", doubleOnNames, func(p *Profile) *DoubleOn { return &p.DoubleOn }),
	boolOpt("double_card_face_down", "AR-17", "The double's one card is dealt face down and turned after the dealer has played.", func(p *Profile) *bool { return &p.DoubleCardFaceDown }),
	boolOpt("double_after_split", "AR-17,ES-08,VE-13", "A split hand may double.", func(p *Profile) *bool { return &p.DoubleAfterSplit }),
	boolOpt("double_for_less", "VE-19", "A double may stake less than the original (paid at its amount) or more (the excess is neither paid nor lost); else it must equal the original.", func(p *Profile) *bool { return &p.DoubleForLess }),
	intOpt("max_hands", "AR-18,ES-09,VE-12", "Hands one box may reach by splitting (1: no split, 2: one split).", func(p *Profile) *int { return &p.MaxHands }),
	enumOpt("resplit_hands", "VE-12", "Which split hand may split again, up to max_hands: any (either split hand that makes a new pair with its second card; every profile) or first (VE-12 read by the letter, «Se con la terza carta ricevuta forma un'altra coppia»: the third card is the first dealt after the split, to the box's first hand, which alone may split again).", resplitNames, func(p *Profile) *ResplitHands { return &p.ResplitHands }),
	boolOpt("resplit_aces", "ES-09", "Split Aces may be split again.", func(p *Profile) *bool { return &p.ResplitAces }),
	boolOpt("hit_split_aces", "AR-19,ES-09,VE-14", "Split Aces may draw more than one card, and then may also double where double_after_split allows it (and double_on the total); off, each takes one card and neither draws nor doubles.", func(p *Profile) *bool { return &p.HitSplitAces }),
	enumOpt("split_blackjack", "AR-19,ES-09,VE-14", "An Ace and a ten-value on a split hand: a plain 21 (21), ranked as a blackjack and paid even money (blackjack-even), or ranked as a blackjack paid even money on split Aces and at blackjack_pays on a split ten that draws an Ace (aces-even: AR-19 by the letter, the 1:1 sentence under «APERTURA DE \"ASES\"» only).", splitBJNames, func(p *Profile) *SplitBlackjack { return &p.SplitBlackjack }),
	enumOpt("surrender", "", "Surrender (reference profiles only): late (after the peek) or early.", surrenderNames, func(p *Profile) *Surrender { return &p.Surrender }),
	boolOpt("insurance", "AR-20,ES-11,VE-15", "Insurance is offered under a dealer Ace, up to half the original stake, paying 2:1.", func(p *Profile) *bool { return &p.Insurance }),
	enumOpt("insurance_closes", "ES-11,VE-15", "What closes the offer of insurance and even money: first-decision (made to every box once, before play, 003 §11: the first decision of another kind closes it; venice and the reference profiles) or third-card (open while the boxes play, until a player is dealt a third card: spain and family, ES-11 «antes de dar la tercera carta al primer jugador que la pida»; a stand, a split's second cards or a blackjack's even money leave it open).", insClosesNames, func(p *Profile) *InsuranceCloses { return &p.InsuranceCloses }),
	boolOpt("insure_blackjack", "ES-10,VE-15", "A bettor holding a blackjack may insure it (else blackjacks cannot be insured).", func(p *Profile) *bool { return &p.InsureBlackjack }),
	enumOpt("even_money", "ES-10,VE-16", "A blackjack may be paid 1:1 at once under these dealer up cards.", evenMoneyNames, func(p *Profile) *EvenMoney { return &p.EvenMoney }),
	boolOpt("challenge", "AR-10", "The Desafío: with an Ace as first card, bet half the stake that the second card is ten-value, paying 2:1.", func(p *Profile) *bool { return &p.Challenge }),
	boolOpt("challenge_split_aces", "AR-10", "With the challenge on: after splitting Aces, the second hand may be challenged before its second card.", func(p *Profile) *bool { return &p.ChallengeSplitAce }),
	boolOpt("challenge_after_first", "AR-10", "With challenge_split_aces: only a bettor who challenged the first Ace may challenge the second («podrá asegurar éste también», read as a second challenge); off, anyone may, the split being the one condition.", func(p *Profile) *bool { return &p.ChallengeAfterFirst }),
	boolOpt("declare_initial_ace", "AR-11", "A hand with an Ace among its first two cards must declare it 1 or 11 before acting, irrevocably.", func(p *Profile) *bool { return &p.DeclareInitialAce }),
	intOpt("must_draw_at_most", "VE-06", "A hand at this total or less must draw (0: no obligation).", func(p *Profile) *int { return &p.MustDrawAtMost }),
	boolOpt("stand_on_21", "VE-06", "A hand at 21 must stand.", func(p *Profile) *bool { return &p.StandOn21 }),
	boolOpt("split_ten_ace_choice", "VE-13", "An Ace drawn to a split ten-value may be counted 1 (total 11: the hand may draw or double).", func(p *Profile) *bool { return &p.SplitTenAceChoice }),
	boolOpt("five_card_21", "PON-01", "A five-card 21 pays 2:1 and beats a dealer 21 of another card count, except a dealer blackjack.", func(p *Profile) *bool { return &p.FiveCard21 }),
	boolOpt("three_sevens", "PON-02", "Three sevens pay 3:1 and beat everything, a dealer blackjack included.", func(p *Profile) *bool { return &p.ThreeSevens }),
}

// optionByKey is options by key, made on first use (not at start-up).
var optionByKey = sync.OnceValue(func() map[string]*Option {
	m := make(map[string]*Option, len(options))
	for i := range options {
		m[options[i].Key] = &options[i]
	}
	return m
})
