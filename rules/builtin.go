package rules

import (
	"fmt"
	"sort"
	"strings"
)

// The table limits of the built-in profiles are deliberately wide: the seeds
// give none, and a table sets its own with min_bet and max_bet.
const (
	defaultMinBet = 1
	defaultMaxBet = 1_000_000_00
)

func base() Profile {
	return Profile{
		Decks: 6, Boxes: 7, MinBet: defaultMinBet, MaxBet: defaultMaxBet, PayoutUnit: 1,
		MinBetsToStart: 1, BlackjackPays: Ratio{3, 2}, MaxHands: 2,
		StandOn21: true, // AR-12, VE-06; and the scenario contract: a hand of 21 ends
	}
}

// argentina is the Argentine reglamento (seeds 000 and 002).
func argentina() Profile {
	p := base()
	p.Name = "argentina"
	p.Regulation = "argentina"
	p.Description = "Argentine reglamento: 8 decks, no-peek hole card, the Desafío, Aces declared 1 or 11, double on 11 only, one split."
	p.Decks = 8                               // AR-01
	p.MinCut = 50                             // AR-07
	p.PlayerCut = true                        // AR-07: 000 item 5
	p.CutCardReserve = 52                     // AR-08
	p.MinBetsToStart = 3                      // AR-03
	p.HoleCard = NoPeek                       // AR-09
	p.DoubleOn = Double11                     // AR-17
	p.DoubleCardFaceDown = true               // AR-17
	p.MaxHands = 2                            // AR-18
	p.HitSplitAces = true                     // AR-19 (reading)
	p.SplitBlackjack = SplitBlackjackAcesEven // AR-19 by the letter (AR-02, AR-16)
	p.Challenge = true                        // AR-10
	p.ChallengeSplitAce = true                // AR-10 (reading)
	p.DeclareInitialAce = true                // AR-11
	return p
}

// spain is the Spanish casino leaflet (001) with the procedure of 003.
func spain() Profile {
	p := base()
	p.Name = "spain"
	p.Regulation = "spain"
	p.Description = "Spanish casino: 6 decks, European no hole card, double on 9-11, up to 6 splits, insurance and even money under an Ace."
	p.BurnCards = 5                     // EG-03
	p.CutCardReserve = 52               // EG-02
	p.PlayerCut = true                  // EG-02: 003 §10
	p.BackBetsPerBox = 9                // ES-03 (reading: the leaflet sets no number)
	p.MaxScope = MaxPerBox              // ES-03 (reading)
	p.DealerPlays = PlaysAlways         // ES-05: «deberá pedir otros naipes hasta … 17»
	p.HoleCard = NoHole                 // ES-12
	p.DoubleOn = Double9to11            // ES-08
	p.DoubleAfterSplit = true           // ES-08 (reading)
	p.MaxHands = 7                      // ES-09 (reading: 6 splits)
	p.Insurance = true                  // ES-11
	p.InsuranceCloses = ClosesThirdCard // ES-11: «antes de dar la tercera carta al primer jugador que la pida»
	p.InsureBlackjack = true            // ES-10: "pago a la par ... o asegurarse"
	p.EvenMoney = EvenMoneyAce          // ES-10
	return p
}

// family is Spanish family blackjack (003 §12), pontoon variants off.
func family() Profile {
	p := spain()
	p.Name = "family"
	p.Regulation = "family"
	p.Description = "Family blackjack: casino rules with one deck, cards collected under the deck, a rotating bank; pontoon variants as options."
	p.Decks = 1 // FAM-01
	p.BurnCards = 0
	p.CutCardReserve = 0
	p.PlayerCut = false // FAM-03: no cut card, the deck is dealt on
	p.BackBetsPerBox = 0
	p.MaxScope = MaxPerBet
	p.Collected = UnderFaceUp // FAM-03
	p.BankRotates = true      // FAM-02
	return p
}

// venice is the Casinò di Venezia rules (004).
func venice() Profile {
	p := base()
	p.Name = "venice"
	p.Regulation = "venice"
	p.Description = "Casinò di Venezia: 6 decks, European no hole card, 3 spots per box, must draw to 11, double any two, split to 3 hands."
	p.CutCardReserve = 52         // reading: the rules name no reserve
	p.BackBetsPerBox = 2          // VE-03
	p.MaxScope = MaxPerBox        // VE-21: «neppure con l'intervento di terzi»
	p.MaxCapsDouble = true        // VE-21: the excess over the maximum is returned
	p.DealerPlays = PlaysAlways   // VE-08: «obbligatoriamente»
	p.BelowMinStands = true       // VE-18
	p.LoneCustomerBoxes = 2       // VE-20
	p.HoleCard = NoHole           // VE-05
	p.DoubleOn = DoubleAny        // VE-11
	p.DoubleAfterSplit = true     // VE-13
	p.DoubleForLess = true        // VE-19
	p.MaxHands = 3                // VE-12
	p.Insurance = true            // VE-15
	p.EvenMoney = EvenMoneyAceTen // VE-16
	p.MustDrawAtMost = 11         // VE-06
	p.StandOn21 = true            // VE-06
	p.SplitTenAceChoice = true    // VE-13
	return p
}

func vegas(h17 bool) Profile {
	p := base()
	p.Name = "vegas-s17"
	p.Description = "Reference: 6 decks, peek, dealer stands on soft 17, double any two, DAS, resplit to 4, Aces split once with one card."
	if h17 {
		p.Name = "vegas-h17"
		p.Description = "Reference: 6 decks, peek, dealer hits soft 17, double any two, DAS, resplit to 4, Aces split once with one card."
	}
	p.BurnCards = 1
	p.CutCardReserve = 78 // 75 % penetration
	p.HoleCard = Peek
	p.DealerBlackjackTakes = TakesOriginal
	p.DealerHitsSoft17 = h17
	p.DoubleAfterSplit = true
	p.MaxHands = 4
	p.Insurance = true
	p.InsureBlackjack = true
	p.EvenMoney = EvenMoneyAce
	return p
}

var builtins = map[string]func() Profile{
	"argentina": argentina,
	"spain":     spain,
	"family":    family,
	"venice":    venice,
	"vegas-s17": func() Profile { return vegas(false) },
	"vegas-h17": func() Profile { return vegas(true) },
}

// Names lists the built-in profiles in a stable order.
func Names() []string {
	return []string{"argentina", "spain", "venice", "family", "vegas-s17", "vegas-h17"}
}

// Lookup returns a fresh copy of a built-in profile.
func Lookup(name string) (*Profile, error) {
	f, ok := builtins[strings.ToLower(name)]
	if !ok {
		names := make([]string, 0, len(builtins))
		for n := range builtins {
			names = append(names, n)
		}
		sort.Strings(names)
		return nil, fmt.Errorf("unknown profile %q (built-in: %s)", name, strings.Join(names, ", "))
	}
	p := f()
	return &p, nil
}

// MustLookup is Lookup for names known to be built in.
func MustLookup(name string) *Profile {
	p, err := Lookup(name)
	if err != nil {
		panic(err)
	}
	return p
}

// Readings returns the interpretations the profile takes where its seed is
// silent or ambiguous, each with the option that carries it.
func (p *Profile) Readings() []Reading {
	var out []Reading
	add := func(rule, opt, text string) { out = append(out, Reading{Rule: rule, Option: opt, Text: text}) }
	if p.Challenge {
		add("AR-10", "challenge", "the challenge stakes «otra apuesta igual a la mitad de la postura original»: exactly half; an odd stake has no half to stake, and its challenge is refused rather than staked at a rounded half")
	}
	if p.Challenge && p.ChallengeSplitAce {
		add("AR-10", "challenge_split_aces", "after splitting Aces, the challenge may be placed on the second split hand before its second card, at half that hand's stake")
	}
	if p.DeclareInitialAce {
		add("AR-11", "declare_initial_ace", "at most one Ace counts 11; declared 1, every Ace among the first two cards counts 1; Aces drawn later count at their most favourable value; a blackjack, or a hand of 21, needs no declaration; a split hand whose first two cards hold an Ace declares too; a pair of Aces declared 1 or 11 is not split: the declaration «defina su puntaje», the hand's total, and «será irrevocable hasta la completa definición del pase», which a split would unmake, so the pair splits before it declares (the seed asks the declaration of «alguna de las dos primeras cartas» and lets A-A split as «dos (2) jugadas independientes»: refusing the split, not the new hands' declarations, keeps both) and each split hand declares its own Ace")
	}
	switch {
	case p.DealerPlays == PlaysUnlessAllBust:
		out = append(out, Reading{Rule: "AR-14", Option: "dealer_plays", Value: "unless-all-bust", Text: "by the letter: «Cuando todos los Jugadores se pasaren de puntaje» the dealer draws nothing; with any hand not bust, blackjacks alone included, he completes his hand by his rule (dealer_plays=as-needed stops him at two cards when only blackjacks are left)"})
	case p.DealerPlays == PlaysAsNeeded:
		add("AR-14", "dealer_plays", "the dealer draws nothing when no live hand other than blackjacks remains, but still completes two cards (turns the hole card, or draws one card under an Ace or ten) to settle blackjacks and insurance")
	case p.Regulation == "venice":
		add("VE-08", "dealer_plays", "the dealer «deve portare a termine il suo, applicando obbligatoriamente “la regola del banco”»: he completes his hand by his rule whatever is left on the layout, every hand bust or every blackjack paid even money (AR-14 is the Argentine text's)")
	default:
		add("ES-05", "dealer_plays", "the dealer «deberá pedir otros naipes hasta que el total de su puntuación alcance 17»: he completes his hand by the rule of 17 whatever is left on the layout, every hand bust or every blackjack paid even money (AR-14 is the Argentine text's)")
	}
	if p.DoubleOn == Double11 && !p.DoubleAfterSplit {
		add("AR-17", "double_after_split", "no double after a split: the rule speaks of the first two cards")
	}
	if p.HitSplitAces {
		add("AR-19", "hit_split_aces", "split Aces may draw: the regulation states no limit")
	}
	switch {
	case p.SplitBlackjack == SplitBlackjackEven:
		add("AR-19", "split_blackjack", "a two-card 21 on any split hand ranks as a blackjack (beats a dealer 21, pushes a dealer blackjack) and is paid even money")
	case p.SplitBlackjack == Split21 && p.OwnRule("AR-19"):
		out = append(out, Reading{Rule: "AR-19", Option: "split_blackjack", Value: "21", Text: "an Ace and a ten-value on a split hand count 21, not a blackjack: paid 1:1 when they win, beaten by a dealer blackjack; the Spanish and Venetian texts say so of split hands, AR-19's «éste será considerado para el pago en forma \"Simple\" (1 por 1)» gives only the payment of split Aces; split_blackjack=aces-even is AR-19 by the letter (AR-02's blackjack on any two cards)"})
	case p.SplitBlackjack == SplitBlackjackAcesEven && p.OwnRule("AR-19"):
		out = append(out, Reading{Rule: "AR-19", Option: "split_blackjack", Value: "aces-even", Text: "by the letter: «Se denomina BLACK JACK, a la combinación de dos cartas: un \"AS\" y una figura (K, Q, J) o un Diez (10)» (AR-02) and it is paid «el 150% de su apuesta» (AR-16); the sentence «éste será considerado para el pago en forma \"Simple\" (1 por 1)» stands under «APERTURA DE \"ASES\"» alone. So a split Ace that draws a ten-value is a blackjack paid 1:1, and a split ten-value that draws an Ace, one of «dos jugadas independientes», a blackjack paid 3:2; both rank as blackjacks (beat a dealer 21, push a dealer blackjack: «lograre Black Jack»). split_blackjack=blackjack-even pays every split hand's blackjack 1:1, the reading sabot took before"})
	}
	if p.DoubleOn == Double9to11 && p.DoubleAfterSplit {
		add("ES-08", "double_after_split", "double after split allowed: the leaflet does not forbid it")
	}
	if p.MaxHands == 7 {
		add("ES-09", "max_hands", "«siendo 6 el número máximo de aperturas»: up to 6 splits, 7 hands")
	}
	if p.MaxHands > 2 && !p.ResplitAces && !p.HitSplitAces && p.OwnRule("ES-09") {
		add("ES-09", "resplit_aces", "split Aces are not split again: the parenthesis «siendo 6 el número máximo de aperturas» sits in the sentence on Aces, but the same sentence gives a split Ace «un solo naipe» and nothing more, so a second Ace on it is its one card, not a new pair; the 6 splits are the other pairs' (resplit_aces=true reads the parenthesis as the Aces' own)")
	}
	if p.Regulation == "family" && p.MaxHands == 7 {
		add("FAM-01", "max_hands", "«Las reglas son las mismas que las del Black Jack de casino»: the casino's 6 splits (ES-09) hold with one deck, which holds 16 ten-values that split as equals")
	}
	if p.Regulation == "family" && p.BackBetsPerBox == 0 {
		add("FAM-01", "back_bets_per_box", "no back betting: the game is played «en familia o entre amigos», each at the table with his own box; the casino's standing bettors (ES-03) have no place there")
	}
	if p.BackBetsPerBox == 9 {
		add("ES-03", "back_bets_per_box", "the leaflet sets no number of back bettors per box: up to 9")
	}
	switch {
	case p.MaxScope == MaxPerBox && p.MaxCapsDouble:
		add("VE-21", "max_bet_caps_double", "the maximum binds a hand's stakes together, the back bettors' included («neppure con l'intervento di terzi»); a double that takes them over it counts only up to the maximum, the holder's first, then each back bettor's as he answers, and the excess stake is returned win or lose")
	case p.MaxScope == MaxPerBox:
		add("ES-03", "max_bet_scope", "back bettors bet «siempre dentro de los límites de las apuestas máximas»: a box's stakes together stay within the table maximum when the bets are placed; the leaflet says nothing of doubles and splits over it, which play in full (max_bet_caps_double false)")
	}
	if p.DoubleOn == Double9to11 || p.DoubleOn == Double10to11 {
		add("ES-08", "double_on", "a soft hand may double if either of its counts is in range (the Ace counts as suits the player, ES-02)")
	}
	if p.HoleCard == NoHole && p.DealerBlackjackTakes == TakesAll && p.OwnRule("ES-12") { // VE-15 says it: «tutte le altre puntate sono perdenti»
		add("ES-12", "dealer_blackjack_takes", "a blackjack «gana a cualquier otra combinación», the dealer's too: doubled and split stakes are lost with the original")
	}
	if p.BackBetsPerBox > 0 {
		out = append(out, p.backFollowReading())
	}
	if p.Regulation == "venice" && p.DoubleAfterSplit {
		add("VE-13", "double_after_split", "a split hand may double: the rules give the double after a split in the case of an Ace on split ten-values («può richiedere una o più carte o raddoppiare»), and VE-11 lets the box holder double «dopo aver ricevuto le prime due carte, indipendentemente dal punteggio ottenuto», which a split hand's first two cards are")
	}
	if p.Regulation == "venice" && p.CutCardReserve == 52 {
		add("VE-01", "cut_card_reserve", "the rules name no cut card: one deck (52 cards) is left behind it, as the Spanish procedure (EG-02) and the Argentine text (AR-08) leave")
	}
	if p.Insurance && p.HoleCard != Peek {
		rule := "VE-15"
		if p.OwnRule("ES-11") {
			rule = "ES-11"
		}
		if p.InsuranceCloses == ClosesThirdCard {
			out = append(out, Reading{Rule: rule, Option: "insurance_closes", Value: "third-card", Text: "insurance and even money stay open while the boxes play, until a player is dealt a third card («antes de dar la tercera carta al primer jugador que la pida», 001): a stand, a split's second cards or another blackjack's even money leave the offer open; 003 §11's offer made once before play is insurance_closes=first-decision"})
		} else {
			out = append(out, Reading{Rule: rule, Option: "insurance_closes", Value: "first-decision", Text: "insurance and even money are offered once, to every box before play, and close with the first decision of another kind, as 003 §11 tells it («el croupier invita a los jugadores a asegurarse. A continuación pasa a jugar»)"})
		}
	}
	if p.Insurance && p.InsureBlackjack {
		add("ES-10", "insure_blackjack", "a blackjack may be insured as well as paid even money")
	}
	if p.StandOn21 && p.OwnRule("AR-12") {
		add("AR-12", "stand_on_21", "a hand of 21 stands: the player asks for cards «siempre que las mismas no sumen veintiuno (21)»; stand_on_21=false, which lets it draw, departs from the text")
	}
	if p.StandOn21 && p.OwnRule("ES-04") {
		add("ES-04", "stand_on_21", "a hand of 21 stands: the leaflet lets the player ask for cards «con idea de acercarse más a 21 que el croupier» and says nothing of a hand already at 21, which no card improves; the Venetian rules say it (VE-06), the Spanish ones do not, so it is a reading here (stand_on_21=false lets the hand draw)")
	}
	switch {
	case p.DealerAce == AceStaysOne:
		out = append(out, Reading{Rule: "AR-13", Option: "dealer_ace", Value: "stays-one", Text: "13 a) gives the dealer's Ace with an Ace or a 2 to 5 «el valor de Uno (1)», and 13 c) counts an Ace drawn later «con valor Uno (1)» when the cards before it and the Ace as 11 make less than 17: the value is read as given for the round: an Ace counted 1 when he draws stays 1 (A-5 then a 2 is 8 and draws), and an Ace drawn later counts 11 only where that makes 17 to 21 at once; dealer_ace=recount counts his hand anew at each card (A-5 then a 2 is 18)"})
	case p.OwnRule("AR-13"):
		out = append(out, Reading{Rule: "AR-13", Option: "dealer_ace", Value: "recount", Text: "13 a) gives the dealer's Ace with an Ace or a 2 to 5 the value 1 in his two-card total, and 13 c) counts an Ace drawn later 11 when the cards before it and the Ace as 11 «suma diecisiete (17) o más»; the text does not say whether an Ace counted 1 stays 1 once he draws: his hand is counted anew at each card, the Ace 11 whenever that makes 17 to 21 (A-5 then a 2 is 18 and stands), as 13 c) counts a later Ace; dealer_ace=stays-one takes the other reading (A-5 then a 2 is 8 and draws)"})
	}
	if p.SplitTenAceChoice && p.OwnRule("VE-13") {
		add("VE-13", "split_ten_ace_choice", "a box holder who does not answer counts the Ace 11: «L'Asso vale 1 o 11 punti, a scelta, determinando il punteggio più favorevole» (VE-02), and 11 makes the hand 21, which stands (VE-06); there is one way, the rule giving the 1 only to one who asks for it")
	}
	if p.OwnRule("ES-07") {
		add("ES-07", "", "a blackjack «gana a cualquier otra combinación, excepto cuando el croupier saca Black Jack»: against the dealer's blackjack it is neither won nor lost but pushed, as «Las manos de igual puntuación serán nulas» says of equal hands; one way, the leaflet giving no other result")
	}
	if p.BackBetsPerBox > 0 && p.Insurance && p.OwnRule("ES-03") {
		add("ES-11", "", "a back bettor insures his own stake and takes even money on it as he chooses, the box holder's choice apart: the leaflet offers the insurance «al conjunto de los jugadores» and even money to «los jugadores que tengan Black Jack», and the back bettor's duty to accept the holder's decisions («debiendo aceptar sus iniciativas») is of the play of the hand; there is no option, each bettor's side bet being his own")
	}
	if p.Challenge && p.ChallengeSplitAce && p.OwnRule("AR-10") {
		add("AR-10", "", "«Si tiene un As en la primer carta y recibe otro As en la segunda carta podrá asegurar éste también siempre y cuando abra la apuesta»: «también» is read as this Ace too, as the first could be, and the split («siempre y cuando abra la apuesta») as the one condition: the second Ace may be challenged whether the first was or not; challenge_after_first=true takes the other reading, a second challenge only for one who challenged the first")
	}
	switch {
	case p.ResplitHands == ResplitFirst:
		out = append(out, Reading{Rule: "VE-12", Option: "resplit_hands", Value: "first", Text: "«Se con la terza carta ricevuta forma un'altra coppia il giocatore può effettuare un'ultima divisione», read by the letter: the third card is the first card dealt after the split, which the first split hand takes: that hand alone may split again when it makes a new pair, the second hand is played as dealt; resplit_hands=any lets either split hand split again"})
	case p.MaxHands > 2 && p.OwnRule("VE-12"):
		out = append(out, Reading{Rule: "VE-12", Option: "resplit_hands", Value: "any", Text: "«Se con la terza carta ricevuta forma un'altra coppia il giocatore può effettuare un'ultima divisione»: either split hand that forms a new pair with the card it receives may split once more, up to 3 hands (max_hands), the «terza carta» read as each hand's card after the split; resplit_hands=first takes the letter's third card, the first dealt after the split, and lets the first hand alone split again"})
	}
	if p.BankRotates && p.OwnRule("FAM-02") {
		add("FAM-02", "bank_rounds", "the bank «pasaría cada cierto período de tiempo»: the period is counted in rounds (bank_rounds; 0, only a blackjack passes it), which every player at the table sees alike and a replay keeps, not in minutes")
	}
	if p.BankRotates && p.OwnRule("FAM-01") {
		add("FAM-01", "bank_rotates", "the rules say who holds the bank, not what it pays with: the holder's bank pays from his own wallet, covering the bets in dealing order up to its funds and refusing a bet it could not pay (FAM-01, docs/server.md); one way, the house never paying for a player's bank, as «no sería equitativo que uno de los jugadores la acaparara durante toda la partida» makes the bank the players' own")
	}
	if p.Regulation == "family" && p.BurnCards == 0 && p.CutCardReserve == 0 {
		add("FAM-03", "cut_card_reserve", "the family game is played «utilizando una sola baraja» with the collected cards under the deck (FAM-03): the casino shoe's burned cards (EG-03) and cut card (EG-02) have no place, the deck being reshuffled when the first collected card face up is reached (collected_cards)")
	}
	if r, ok := p.cardsOutReading(); ok {
		out = append(out, r)
	}
	for i := range out {
		out[i].Cite = out[i].Rule
		if p.Regulation != "" && !p.OwnRule(out[i].Rule) {
			out[i].Cite = p.Cite(out[i].Rule, out[i].Option)
		}
	}
	return out
}

// backFollowReading is the reading of what a back bet does after the box
// holder's split or double (back_follow): ES-03 at a table of the Spanish
// leaflet, VE-12 (and VE-11 for the double) at the others.
func (p *Profile) backFollowReading() Reading {
	v := backFollowName[p.BackFollow]
	r := Reading{Rule: "VE-12", Option: "back_follow", Value: v}
	if p.OwnRule("ES-03") {
		r.Rule = "ES-03"
		switch p.BackFollow {
		case BackChoose:
			r.Text = "the leaflet has the standing bettors accept the seated player's decisions («debiendo aceptar sus iniciativas»), read as his play of the hand, each bettor's stake his own: after the holder's split each back bettor chooses to put a matching stake on the new hand or to stay on the first hand only; after a double, to match it or not, his bet taking the one card either way; back_follow=follow reads the sentence as binding the stakes too, back_follow=stay as leaving every back bet where it was placed"
		case BackFollows:
			r.Text = "«debiendo aceptar sus iniciativas» read as binding the stakes too: the holder's split or double takes every back bet with it, a matching stake put at once on the new hand or on the double, without an answer; a back bettor who cannot pay the matching stake (his wallet holds less, his care refuses the stake, or it would wait for his operator's debit) stays where he bet, on the first hand only after a split, at his own stake on the doubled hand after a double, taking the one card: the sentence binds his play, not a stake he has not got; back_follow=choose lets each back bettor answer, back_follow=stay leaves every back bet where it was placed"
		default:
			r.Text = "«debiendo aceptar sus iniciativas» read as the back bettor taking the holder's play as it comes and adding no stake: after a split his bet stays on the first hand only, after a double on the doubled hand at its own stake, taking the one card; back_follow=choose lets each back bettor match the split or double, back_follow=follow makes every back bet follow it"
		}
		return r
	}
	switch p.BackFollow {
	case BackChoose:
		r.Text = "«I giocatori che hanno puntato sulla postazione non sono obbligati a raddoppiare la posta, ma devono accettare l’attribuzione di una sola carta» (VE-11): after the holder's double each back bettor doubles his own stake or not, his bet taking the one card either way; «Nella divisione la decisione del titolare di postazione è vincolante per gli altri giocatori» is read as binding the play, as VE-03 says of each of his decisions: the box is split for every bettor on it, and each back bettor chooses to put a matching stake on the new hand or to stay on the first hand only; back_follow=follow (every back bet follows) and back_follow=stay (none does) depart from VE-11's double"
	case BackFollows:
		r.Text = "«Nella divisione la decisione del titolare di postazione è vincolante per gli altri giocatori» read as binding the stakes: the holder's split, and his double too, takes every back bet with it, a matching stake put at once on the new hand or on the double, without an answer; a back bettor who cannot pay the matching stake (his wallet holds less, his care refuses the stake, or it would wait for his operator's debit) stays on the first hand only after a split and, after a double, keeps his own stake on the doubled hand and takes the one card («devono accettare l’attribuzione di una sola carta»); for the double this departs from VE-11 («non sono obbligati a raddoppiare la posta»); back_follow=choose is the letter"
	default:
		r.Text = "no back bet follows the holder: after a split it stays on the first hand only, after a double on the doubled hand at its own stake, taking the one card («devono accettare l’attribuzione di una sola carta»); denying the back bettors the double departs from VE-11, which leaves it to them («non sono obbligati a raddoppiare la posta»); back_follow=choose is the letter"
	}
	return r
}
