package rules

import "fmt"

// A Departure is an option value that breaks a rule of the profile's own
// regulation: a table of the argentina regulation dealt from 4 decks, with
// back bets or with insurance. The table still plays (an operator may run a
// variation), but every surface that shows its rules says which rule it
// departs from and how (the rules page, the lobby, `sabot profiles show`,
// the PAR sheet, the certification kit), all from Departures.
type Departure struct {
	Rule   string // the regulation's rule, e.g. "AR-01"
	Option string // the option that departs, e.g. "decks"
	Value  string // the table's value of it, e.g. "4"
	Want   string // what the regulation asks of it, e.g. "at least 8"
}

// String says the departure in a line: "AR-01: decks=4, the regulation asks
// at least 8".
func (d Departure) String() string {
	return fmt.Sprintf("%s: %s=%s, the regulation asks %s", d.Rule, d.Option, d.Value, d.Want)
}

// regulated is one value a regulation fixes: the rule that fixes it, the
// option, what the rule asks in words, and the test of a profile's value.
type regulated struct {
	rule, option, want string
	ok                 func(*Profile) bool
}

// regulatedValues are the option values each seed's regulation fixes, by
// Regulation. Only the seed's own rules are here: where a seed is silent or
// ambiguous the profile takes a reading (Readings), and another reading is
// no departure. A built-in profile departs from nothing (TestBuiltinsDepartFromNothing).
var regulatedValues = map[string][]regulated{
	"argentina": {
		{"AR-01", "decks", "at least 8 («como mínimo 8 (ocho) mazos»)", func(p *Profile) bool { return p.Decks >= 8 }},
		{"AR-03", "min_bets_to_start", "at least 3 («tres o más apuestas»)", func(p *Profile) bool { return p.MinBetsToStart >= 3 }},
		{"AR-04", "below_min_stands", "false: stakes «dentro de los límites de Mínimos y Máximos»", func(p *Profile) bool { return !p.BelowMinStands }},
		{"AR-05", "back_bets_per_box", "0 («No se permitirán apuestas de Jugadores de pie»)", func(p *Profile) bool { return p.BackBetsPerBox == 0 }},
		{"AR-08", "cut_card_reserve", "a cut card about one deck from the end («aproximadamente un mazo»), not 0", func(p *Profile) bool { return p.CutCardReserve > 0 }},
		{"AR-09", "hole_card", "no-peek (the second card «cubierta», turned when the dealer plays)", func(p *Profile) bool { return p.HoleCard == NoPeek }},
		{"AR-10", "challenge", "true (the Desafío)", func(p *Profile) bool { return p.Challenge }},
		{"AR-11", "declare_initial_ace", "true (the Ace declared «como Uno (1) o como Once (11)»)", func(p *Profile) bool { return p.DeclareInitialAce }},
		{"AR-12", "must_draw_at_most", "0: the player draws «hasta que el Jugador considere satisfactorio el mismo»", func(p *Profile) bool { return p.MustDrawAtMost == 0 }},
		{"AR-13", "dealer_hits_soft_17", "false (an Ace and a 6 make 17: «Planta»)", func(p *Profile) bool { return !p.DealerHitsSoft17 }},
		{"AR-14", "dealer_plays", "as-needed or unless-all-bust: «Cuando todos los Jugadores se pasaren de puntaje» the dealer draws nothing", func(p *Profile) bool { return p.DealerPlays != PlaysAlways }},
		{"AR-15", "dealer_blackjack_takes", "all (the dealer's Black Jack beats «21 o Menor»)", func(p *Profile) bool { return p.DealerBlackjackTakes == TakesAll }},
		{"AR-16", "blackjack_pays", "3:2 («el 150% de su apuesta»)", func(p *Profile) bool { return p.BlackjackPays.Num*2 == p.BlackjackPays.Den*3 }},
		{"AR-16", "even_money", "none: a blackjack is paid «el 150% de su apuesta»", func(p *Profile) bool { return p.EvenMoney == NoEvenMoney }},
		{"AR-16", "five_card_21", "false: any other win is paid «el 100% de su apuesta»", func(p *Profile) bool { return !p.FiveCard21 }},
		{"AR-16", "three_sevens", "false: any other win is paid «el 100% de su apuesta»", func(p *Profile) bool { return !p.ThreeSevens }},
		{"AR-17", "double_on", "11 (the first two cards «la suma de Once (11)»)", func(p *Profile) bool { return p.DoubleOn == Double11 }},
		{"AR-17", "double_card_face_down", "true (one card «que se le entregará cubierta»)", func(p *Profile) bool { return p.DoubleCardFaceDown }},
		{"AR-17", "double_for_less", "false: the player may «doblar su apuesta»", func(p *Profile) bool { return !p.DoubleForLess }},
		{"AR-18", "max_hands", "2 («solamente una apertura por Jugada»)", func(p *Profile) bool { return p.MaxHands == 2 }},
		{"AR-20", "insurance", "false: the regulation's only seguro is the Desafío", func(p *Profile) bool { return !p.Insurance }},
		{"AR-22", "surrender", "none («No se permitirá ninguna modificación de apuestas»)", func(p *Profile) bool { return p.Surrender == NoSurrender }},
	},
	"spain":  append(spainShoe, casinoGame...),
	"family": append(familyShoe, casinoGame...),
	"venice": {
		{"VE-01", "decks", "6 («sei mazzi»)", func(p *Profile) bool { return p.Decks == 6 }},
		{"VE-02", "declare_initial_ace", "false: the Ace counts «a scelta, determinando il punteggio più favorevole»", func(p *Profile) bool { return !p.DeclareInitialAce }},
		{"VE-03", "boxes", "7 («sette giocatori»)", func(p *Profile) bool { return p.Boxes == 7 }},
		{"VE-03", "back_bets_per_box", "2 (three spots a box: «tre cerchietti»)", func(p *Profile) bool { return p.BackBetsPerBox == 2 }},
		{"VE-04", "challenge", "false: once the first card is dealt «nessuna puntata può essere aggiunta»", func(p *Profile) bool { return !p.Challenge }},
		{"VE-04", "surrender", "none: once the first card is dealt «nessuna puntata può essere aggiunta, tolta o spostata»", func(p *Profile) bool { return p.Surrender == NoSurrender }},
		{"VE-05", "hole_card", "none (the second round «senza però attribuirle a sé stesso»)", func(p *Profile) bool { return p.HoleCard == NoHole }},
		{"VE-06", "must_draw_at_most", "11 («inferiore o pari a 11 ha l'obbligo di superarlo»)", func(p *Profile) bool { return p.MustDrawAtMost == 11 }},
		{"VE-06", "stand_on_21", "true («quando arriva al 21 si deve fermare»)", func(p *Profile) bool { return p.StandOn21 }},
		{"VE-08", "dealer_hits_soft_17", "false («se raggiunge o oltrepassa il 17 si ferma»)", func(p *Profile) bool { return !p.DealerHitsSoft17 }},
		{"VE-08", "dealer_plays", "always: the dealer «deve portare a termine il suo, applicando obbligatoriamente “la regola del banco”» whatever is left on the layout", func(p *Profile) bool { return p.DealerPlays == PlaysAlways }},
		{"VE-09", "five_card_21", "false: «In caso di vincita il premio è alla pari»", func(p *Profile) bool { return !p.FiveCard21 }},
		{"VE-09", "three_sevens", "false: «In caso di vincita il premio è alla pari»", func(p *Profile) bool { return !p.ThreeSevens }},
		{"VE-10", "blackjack_pays", "3:2 («è pagata 3 a 2»)", func(p *Profile) bool { return p.BlackjackPays.Num*2 == p.BlackjackPays.Den*3 }},
		{"VE-11", "double_on", "any («indipendentemente dal punteggio ottenuto»)", func(p *Profile) bool { return p.DoubleOn == DoubleAny }},
		{"VE-11", "back_follow", "choose: the back bettors «non sono obbligati a raddoppiare la posta», each doubles his own stake or not", func(p *Profile) bool { return p.BackFollow == BackChoose }},
		{"VE-12", "max_hands", "3 (one more split: «un'ultima divisione»)", func(p *Profile) bool { return p.MaxHands == 3 }},
		{"VE-13", "split_ten_ace_choice", "true (the Ace on split ten-values «1 o 11 punti»)", func(p *Profile) bool { return p.SplitTenAceChoice }},
		{"VE-14", "hit_split_aces", "false («una sola carta per ciascuno di essi»)", func(p *Profile) bool { return !p.HitSplitAces }},
		{"VE-14", "resplit_aces", "false («senza altre possibilità di gioco»)", func(p *Profile) bool { return !p.ResplitAces }},
		{"VE-14", "split_blackjack", "21 («non è \"Black Jack\" ma solamente \"21\"»)", func(p *Profile) bool { return p.SplitBlackjack == Split21 }},
		{"VE-15", "insurance", "true (the «Assicurazione» under a dealer Ace)", func(p *Profile) bool { return p.Insurance }},
		{"VE-15", "insure_blackjack", "false («gli eventuali \"Black Jack\" non possono essere assicurati»)", func(p *Profile) bool { return !p.InsureBlackjack }},
		{"VE-15", "dealer_blackjack_takes", "all («tutte le altre puntate sono perdenti»)", func(p *Profile) bool { return p.DealerBlackjackTakes == TakesAll }},
		{"VE-16", "even_money", "ace-or-ten («un Asso, figura o 10»)", func(p *Profile) bool { return p.EvenMoney == EvenMoneyAceTen }},
		{"VE-18", "below_min_stands", "true («sarà accettata come valida»)", func(p *Profile) bool { return p.BelowMinStands }},
		{"VE-19", "double_for_less", "true (a double for less «sarà considerato valido»)", func(p *Profile) bool { return p.DoubleForLess }},
		{"VE-20", "lone_customer_boxes", "at least 2 («deve puntare in almeno due postazioni»)", func(p *Profile) bool { return p.LoneCustomerBoxes >= 2 }},
		{"VE-21", "max_bet_scope", "box («neppure con l'intervento di terzi»)", func(p *Profile) bool { return p.MaxScope == MaxPerBox }},
		{"VE-21", "max_bet_caps_double", "true («la differenza della puntata restituita al cliente»)", func(p *Profile) bool { return p.MaxCapsDouble }},
	},
}

// spainShoe is the Spanish casino's shoe (003 §10) and its standing
// bettors (001).
var spainShoe = []regulated{
	{"EG-02", "decks", "6 («las seis barajas»)", func(p *Profile) bool { return p.Decks == 6 }},
	{"EG-02", "cut_card_reserve", "at least 52 (a reserve «equivalente a un juego, como mínimo»)", func(p *Profile) bool { return p.CutCardReserve >= 52 }},
	{"EG-03", "burn_cards", "5 («retira las cinco primeras»)", func(p *Profile) bool { return p.BurnCards == 5 }},
	{"ES-03", "back_bets_per_box", "at least 1 (standing players «podrán apostar sobre la mano de cualquier otro jugador»)", func(p *Profile) bool { return p.BackBetsPerBox > 0 }},
	{"ES-06", "five_card_21", "false: a win is paid «1 a 1 la postura»", func(p *Profile) bool { return !p.FiveCard21 }},
	{"ES-07", "three_sevens", "false: a blackjack «gana a cualquier otra combinación»", func(p *Profile) bool { return !p.ThreeSevens }},
}

// familyShoe is family blackjack's own shoe and bank (003 §12); the
// pontoon variants are its options.
var familyShoe = []regulated{
	{"FAM-01", "decks", "1 («una sola baraja»)", func(p *Profile) bool { return p.Decks == 1 }},
	{"FAM-02", "bank_rotates", "true (the bank passes: «el modo de pasarse la banca»)", func(p *Profile) bool { return p.BankRotates }},
	{"FAM-03", "collected_cards", "under-face-up or under-face-down («se van colocando debajo del mazo»)", func(p *Profile) bool { return p.Collected != DiscardTray }},
}

// casinoGame is the game of the Spanish casino (001, 003 §11), which family
// blackjack keeps («Las reglas son las mismas que las del Black Jack de casino»).
var casinoGame = []regulated{
	{"ES-01", "challenge", "false: once the first card is out «no se podrán poner o modificar apuestas»", func(p *Profile) bool { return !p.Challenge }},
	{"ES-01", "surrender", "none: once the first card is out «no se podrán poner o modificar apuestas»", func(p *Profile) bool { return p.Surrender == NoSurrender }},
	{"ES-02", "declare_initial_ace", "false: Aces count «según le convenga a usted»", func(p *Profile) bool { return !p.DeclareInitialAce }},
	{"ES-04", "must_draw_at_most", "0: the player «decide por su mano si desea pedir o no pedir más cartas»", func(p *Profile) bool { return p.MustDrawAtMost == 0 }},
	{"ES-05", "dealer_hits_soft_17", "false («al llegar a 17 puntos deberá plantarse»)", func(p *Profile) bool { return !p.DealerHitsSoft17 }},
	{"ES-07", "blackjack_pays", "3:2 («Se paga 3 a 2 la postura»)", func(p *Profile) bool { return p.BlackjackPays.Num*2 == p.BlackjackPays.Den*3 }},
	{"ES-08", "double_on", "9-11 («un total de 9, 10 u 11»)", func(p *Profile) bool { return p.DoubleOn == Double9to11 }},
	{"ES-08", "double_for_less", "false: the player may «doblar su apuesta»", func(p *Profile) bool { return !p.DoubleForLess }},
	{"ES-09", "max_hands", "at most 7 («siendo 6 el número máximo de aperturas»)", func(p *Profile) bool { return p.MaxHands <= 7 }},
	{"ES-09", "hit_split_aces", "false («un solo naipe por cada As»)", func(p *Profile) bool { return !p.HitSplitAces }},
	{"ES-09", "split_blackjack", "21 («se contará como 21 y no como Black Jack»)", func(p *Profile) bool { return p.SplitBlackjack == Split21 }},
	{"ES-10", "even_money", "ace («Cuando el primer naipe del croupier sea un AS»)", func(p *Profile) bool { return p.EvenMoney == EvenMoneyAce }},
	{"ES-11", "insurance", "true (the croupier «propondrá este seguro al conjunto de los jugadores»)", func(p *Profile) bool { return p.Insurance }},
	{"ES-12", "hole_card", "none (the second round «sólo a los jugadores»)", func(p *Profile) bool { return p.HoleCard == NoHole }},
}

// RegulatedValues lists what a regulation fixes, one Departure a value
// with Value empty: the table a departure is found in (docs, and the test
// that its quotations are the seed's words).
func RegulatedValues(regulation string) []Departure {
	var out []Departure
	for _, r := range regulatedValues[regulation] {
		out = append(out, Departure{Rule: r.rule, Option: r.option, Want: r.want})
	}
	return out
}

// Departures lists the option values of p that break a rule of its own
// regulation, in the order of the regulation's rules; none for a profile of
// no seed (the reference profiles) or one that keeps every regulated value.
func (p *Profile) Departures() []Departure {
	var out []Departure
	for _, r := range regulatedValues[p.Regulation] {
		if r.ok(p) {
			continue
		}
		v, _ := p.Get(r.option)
		out = append(out, Departure{Rule: r.rule, Option: r.option, Value: v, Want: r.want})
	}
	return out
}
