package play

import (
	"fmt"
	"strings"

	"sabot/engine"
	"sabot/money"
	"sabot/rules"
)

// playRound deals one round and plays it to its end.
func (s *Session) playRound() error {
	r := s.round
	if s.shoe.CutCardOut() {
		// Not reached: a shoe is reshuffled after its last round. A cut card
		// out before the deal would make every round the last one.
		if err := s.reshuffle("The cut card is out before the deal"); err != nil {
			return err
		}
	}
	s.sum.Rounds++
	s.src.notes = s.src.notes[:0]
	r.Reset(s.src)
	s.view.reset(s.p)
	s.view.tr, s.view.symbols = s.tr, s.cfg.SuitSymbols
	s.seen = 0
	s.declined = map[[2]int]bool{}
	s.printf("\nRound %d: %s staked on %s.\n", s.sum.Rounds, s.tr.money(s.bet*money.Amount(len(s.boxes))), s.boxesText(s.boxes))
	for _, b := range s.boxes {
		if err := r.PlaceBet(Player, b, s.bet); err != nil {
			return fmt.Errorf("play: %w", err) // CheckBet passed: the engine disagrees with itself
		}
	}
	if err := r.Start(); err != nil {
		return fmt.Errorf("play: %w", err)
	}
	s.render()
	for r.Phase() != engine.Done && s.werr == nil {
		var err error
		if s.leaving {
			err = s.autoAct()
		} else {
			err = s.decide()
		}
		if err != nil {
			return err
		}
	}
	return s.endRound()
}

// endRound books the round's net, collects its cards (FAM-03) and
// reshuffles after the last round of a shoe (EG-05).
func (s *Session) endRound() error {
	r := s.round
	players, _ := r.Net()
	net := players[Player]
	s.bankroll += net
	s.sum.Net += net
	s.sum.Bankroll = s.bankroll
	s.sum.BiggestWin = max(s.sum.BiggestWin, net)
	if void, _ := r.Void(); void {
		s.sum.Void++
		s.printf("Round %d is void: every stake is returned; bankroll %s.\n", s.sum.Rounds, s.tr.money(s.bankroll))
	} else {
		s.printf("Round %d: net %s; bankroll %s.\n", s.sum.Rounds, s.tr.net(net), s.tr.money(s.bankroll))
	}
	if s.cfg.OnRound != nil {
		s.cfg.OnRound(r)
	}
	s.shoe.Collect(r.Record().Cards...)
	if s.sum.Ended != 0 || s.cfg.Rounds > 0 && s.sum.Rounds >= s.cfg.Rounds {
		return nil // the session ends: no new shoe
	}
	switch {
	case r.LastRound():
		return s.reshuffle("That was the last round of the shoe")
	case s.shoe.Remaining() == 0:
		return s.reshuffle("The shoe is empty")
	}
	return nil
}

// reshuffle puts every card back, discards and the rest of the shoe, and
// prepares a new shoe (EG-05).
func (s *Session) reshuffle(why string) error {
	s.printf("%s: the discards and the rest of the shoe are reshuffled%s.\n", why, cite(s.p, "EG-05"))
	return s.newShoe()
}

// render shows the round's events since the last call, in order, with the
// notes the shoe made between them.
func (s *Session) render() {
	evs := s.round.Events()
	notes := s.src.notes
	for ; s.seen < len(evs); s.seen++ {
		for len(notes) > 0 && notes[0].at <= s.seen {
			s.printf("%s\n", notes[0].text)
			notes = notes[1:]
		}
		e := evs[s.seen]
		s.view.apply(e)
		s.show(e)
	}
	s.src.notes = append(s.src.notes[:0], notes...)
}

// show writes one event as the table announces it.
func (s *Session) show(e engine.Event) {
	v := &s.view
	switch e.Kind {
	case engine.EvCard:
		if e.Box == 0 {
			s.printf("%s\n", v.dealerLine())
		} else {
			s.printf("%s\n", v.playerLine(e.Box, e.Hand))
		}
	case engine.EvReveal:
		if e.Box == 0 {
			s.printf("Dealer turns the hole card: %s (%s)\n", v.dealer.cardsText(v.symbols), v.dealerTotal())
		} else {
			h := v.hand(e.Box, e.Hand)
			s.printf("%s: the double card is turned: %s (%s)\n", v.label(e.Box, e.Hand), h.cardsText(v.symbols), v.playerTotal(h))
		}
	case engine.EvAction:
		if e.Action.Kind == engine.Split {
			s.splitFrom = e.Action.Hand
		}
		if e.Action.Kind == engine.Declare {
			s.printf("%s counts the Ace %d: %s\n", v.label(e.Box, e.Hand), e.Action.Value, strings.TrimPrefix(v.playerLine(e.Box, e.Hand), v.label(e.Box, e.Hand)+": "))
		}
	case engine.EvBet:
		s.showBet(e)
	case engine.EvWindow:
		clear(s.declined) // a new offer: every box may answer it
	case engine.EvCutCard:
		s.printf("The cut card is out: this round is the last of the shoe%s.\n", cite(s.p, "AR-08, EG-04"))
	case engine.EvVoid:
		s.printf("The round is void: %s; every stake is returned.\n", e.Text)
	case engine.EvResult:
		s.showResult(e)
	case engine.EvDone:
		if void, _ := s.round.Void(); !void {
			s.showHands()
		}
	}
}

func (s *Session) showBet(e engine.Event) {
	v := &s.view
	switch e.BetKind {
	case engine.DoubleBet:
		plays, why := s.doublePlays(e)
		if plays < e.Amount {
			s.printf("%s doubles: %s more for one card; %s of it plays and %s is returned, win or lose (%s).\n",
				v.label(e.Box, e.Hand), s.tr.money(e.Amount), s.tr.money(plays), s.tr.money(e.Amount-plays), why)
			return
		}
		s.printf("%s doubles: %s more for one card.\n", v.label(e.Box, e.Hand), s.tr.money(e.Amount))
	case engine.SplitBet:
		from := v.hand(e.Box, s.splitFrom)
		s.printf("Box %d splits: hand %d %s, hand %d %s; %s on hand %d.\n", e.Box,
			s.splitFrom, from.cardsText(v.symbols), e.Hand, v.hand(e.Box, e.Hand).cardsText(v.symbols), e.Amount.Plain(), e.Hand)
	case engine.InsuranceBet:
		s.printf("Box %d insures %s.\n", e.Box, s.tr.money(e.Amount))
	case engine.ChallengeBet:
		s.printf("%s challenges %s that the next card is ten-value (AR-10).\n", v.label(e.Box, e.Hand), e.Amount.Plain())
	}
}

// doublePlays is what a double just placed plays (engine.Bet.Plays) and,
// where that is less than its stake, the rule that says so: VE-19, a double
// for more than the stake it doubles; VE-21, one over the table maximum.
func (s *Session) doublePlays(e engine.Event) (money.Amount, string) {
	bets := s.round.Bets()
	for i := len(bets) - 1; i >= 0; i-- {
		if b := &bets[i]; b.Kind == engine.DoubleBet && b.Box == e.Box && b.Hand == e.Hand && b.Player == e.Player {
			plays := b.Plays()
			if base := s.baseStake(e.Box, e.Hand); s.p.DoubleForLess && e.Amount > base && plays == base {
				return plays, "VE-19"
			}
			return plays, "VE-21"
		}
	}
	return e.Amount, ""
}

// showResult writes the side bets as they settle; the hands' own results
// wait for the end of the round (showHands).
func (s *Session) showResult(e engine.Event) {
	switch {
	case e.Result == rules.Void:
	case e.BetKind == engine.ChallengeBet:
		s.printf("%s: the challenge %s %s.\n", s.view.label(e.Box, e.Hand), winsLoses(e.Amount), FormatNet(e.Amount))
	case e.Result == rules.EvenMoneyPaid:
		s.printf("Box %d takes even money: %s.\n", e.Box, FormatNet(e.Amount))
	}
}

func winsLoses(net money.Amount) string {
	if net > 0 {
		return "wins"
	}
	return "loses"
}

// showHands writes the settlement as the dealer makes it, box by box from
// right to left (VE-09): the box's insurance, then each hand's result and
// what its stakes netted.
func (s *Session) showHands() {
	r := s.round
	bets := r.Bets()
	boxes := r.Boxes()
	for k := len(boxes) - 1; k >= 0; k-- {
		box := boxes[k]
		for j := range bets {
			if b := &bets[j]; b.Box == box && b.Kind == engine.InsuranceBet {
				s.printf("Box %d: the insurance %s %s.\n", box, s.tr.word(winsLoses(b.Net)), s.tr.net(b.Net))
			}
		}
		for i := range r.Hands(box) {
			hand := i + 1
			var net money.Amount
			result := rules.Pending
			for j := range bets {
				b := &bets[j]
				if b.Box != box || b.Hand != hand || b.Kind == engine.InsuranceBet || b.Kind == engine.ChallengeBet {
					continue
				}
				net += b.Net
				if b.Kind == engine.MainBet || b.Kind == engine.SplitBet {
					result = b.Result
				}
			}
			s.printf("%s: %s %s\n", s.view.playerLine(box, hand), s.tr.word(result.String()), s.tr.net(net))
		}
	}
}

// point is the decision the game asks for now: whose, and the menu of what
// the engine allows.
type point struct {
	phase     engine.Phase
	window    bool // an optional offer: [n]o declines it for this box
	box, hand int
	items     []item
	close     bool   // nothing left to ask in the window: the dealer closes it
	unpaid    string // the box can afford none of the window's offers
}

// item is one entry of the menu: its shortcut, its label and its action.
type item struct {
	key, label string
	a          engine.Action
}

// point finds the decision to ask for. In a window the player answers for
// each box in turn; the window closes once every box has answered.
func (s *Session) point() (point, error) {
	r := s.round
	s.legal = r.LegalActions(s.legal[:0])
	pt := point{phase: r.Phase()}
	if len(s.legal) == 0 {
		return pt, fmt.Errorf("play: the engine offers no decision in phase %s", pt.phase)
	}
	switch pt.phase {
	case engine.Playing, engine.AceChoice:
		pt.box, pt.hand = r.Current()
	default:
		pt.window = true
		found := false
		for _, a := range s.legal {
			if a.Kind != engine.Close && a.Player == Player && !s.declined[[2]int{a.Box, a.Hand}] {
				pt.box, pt.hand, found = a.Box, a.Hand, true
				break
			}
		}
		if !found {
			pt.close = true
			return pt, nil
		}
	}
	free := s.free()
	for _, a := range s.legal {
		if a.Kind == engine.Close || a.Box != pt.box || a.Hand != pt.hand {
			continue
		}
		if stake := s.stakeOf(a); stake > free {
			if pt.unpaid == "" {
				pt.unpaid = fmt.Sprintf("%s needs %s and %s of your bankroll is free", a.Kind, stake.Plain(), free.Plain())
			}
			continue // the table refuses what the player cannot pay
		}
		pt.items = append(pt.items, s.item(a))
	}
	if pt.window {
		pt.items = append(pt.items, item{"n", "[n]o", engine.Action{Kind: engine.Close}})
	}
	return pt, nil
}

// prompt is the point's question: the hand, the dealer's up card, the menu.
func (s *Session) prompt(pt point) string {
	v := &s.view
	h := v.hand(pt.box, pt.hand)
	labels := make([]string, len(pt.items))
	for i, it := range pt.items {
		labels[i] = it.label
	}
	var note string
	switch pt.phase {
	case engine.ChallengeWindow:
		note = " (AR-10: pays 2:1 if the next card is ten-value)"
	case engine.InsuranceWindow:
		note = " (insurance pays 2:1 against a dealer blackjack)"
		if s.has(pt, engine.EvenMoney) {
			note = " (insurance pays 2:1 against a dealer blackjack; even money pays the blackjack 1:1 now)"
		}
	case engine.AceChoice:
		note = " (VE-13: counted one, the hand is 11 and may draw or double)"
	case engine.Playing:
		switch {
		case s.has(pt, engine.Declare) && !s.has(pt, engine.Hit):
			note = " (AR-11: the Ace is declared before acting, irrevocably)"
		case !s.has(pt, engine.Stand) && s.p.MustDraw(h.count):
			note = fmt.Sprintf(" (VE-06: %d or less must draw)", s.p.MustDrawAtMost)
		}
	}
	return s.tr.Sprintf("%s against the dealer's %s. %s%s", v.playerLine(pt.box, pt.hand), v.upCard(), strings.Join(labels, "  "), note)
}

func (s *Session) has(pt point, k engine.Kind) bool {
	for _, it := range pt.items {
		if it.a.Kind == k {
			return true
		}
	}
	return false
}

func (s *Session) item(a engine.Action) item {
	switch a.Kind {
	case engine.Hit:
		return item{"h", s.tr.word("[h]it"), a}
	case engine.Stand:
		return item{"s", s.tr.word("[s]tand"), a}
	case engine.Double:
		return item{"d", s.tr.word("[d]ouble") + " " + s.tr.money(s.stakeOf(a)), a}
	case engine.Split:
		return item{"p", s.tr.word("s[p]lit") + " " + s.tr.money(s.stakeOf(a)), a}
	case engine.Surrender:
		return item{"r", s.tr.word("su[r]render"), a}
	case engine.Declare:
		if a.Value == 1 {
			return item{"o", s.tr.word("Ace [o]ne"), a}
		}
		return item{"e", s.tr.word("Ace [e]leven"), a}
	case engine.Challenge:
		return item{"c", s.tr.word("[c]hallenge") + " " + s.tr.money(s.stakeOf(a)), a}
	case engine.Insure:
		return item{"i", s.tr.word("[i]nsure") + " " + s.tr.money(s.stakeOf(a)), a}
	case engine.EvenMoney:
		return item{"e", s.tr.word("[e]ven money"), a}
	}
	return item{"n", s.tr.word("[n]o"), a}
}

// baseStake is the player's stake on a hand: the main stake or the split's.
func (s *Session) baseStake(box, hand int) money.Amount {
	for _, b := range s.round.Bets() {
		if b.Box == box && b.Hand == hand && b.Player == Player && (b.Kind == engine.MainBet || b.Kind == engine.SplitBet) {
			return b.Stake
		}
	}
	return 0
}

// stakeOf is what an action puts on the table.
func (s *Session) stakeOf(a engine.Action) money.Amount {
	switch a.Kind {
	case engine.Double, engine.Split:
		if a.Stake != 0 {
			return a.Stake
		}
		return s.baseStake(a.Box, a.Hand)
	case engine.Insure:
		return a.Stake
	case engine.Challenge:
		return s.baseStake(a.Box, a.Hand) / 2
	}
	return 0
}

// free is the part of the bankroll not on the table: the bankroll at the
// start of the round, less the open stakes, plus what settled bets netted.
func (s *Session) free() money.Amount {
	f := s.bankroll
	bets := s.round.Bets()
	for i := range bets {
		if b := &bets[i]; b.Settled() {
			f += b.Net
		} else {
			f -= b.Stake
		}
	}
	return f
}

// actionWords are the names and letters of the decisions. "e" is even money
// in the insurance window and eleven elsewhere.
var actionWords = map[string]engine.Kind{
	"h": engine.Hit, "hit": engine.Hit,
	"s": engine.Stand, "stand": engine.Stand,
	"d": engine.Double, "double": engine.Double,
	"p": engine.Split, "split": engine.Split,
	"r": engine.Surrender, "surrender": engine.Surrender,
	"c": engine.Challenge, "challenge": engine.Challenge,
	"i": engine.Insure, "insure": engine.Insure, "insurance": engine.Insure,
	"even": engine.EvenMoney, "even-money": engine.EvenMoney,
	"o": engine.Declare, "one": engine.Declare, "1": engine.Declare,
	"e": engine.Declare, "eleven": engine.Declare, "11": engine.Declare, "declare": engine.Declare,
	"n": engine.Close, "no": engine.Close,
}

// parseAction reads a decision typed at a point: a menu shortcut, or any
// decision's name or letter, which the engine then accepts or refuses.
func (s *Session) parseAction(pt point, word, arg string) (engine.Action, error) {
	k, ok := actionWords[word]
	if !ok {
		return engine.Action{}, said("unknown command %q: type a letter in brackets, or help", strings.TrimSpace(word+" "+arg))
	}
	a := engine.Action{Kind: k, Player: Player, Box: pt.box, Hand: pt.hand}
	for _, it := range pt.items {
		if it.key == word {
			a = it.a
		}
	}
	if word == "e" && pt.phase == engine.InsuranceWindow {
		a.Kind = engine.EvenMoney
	}
	if a.Kind == engine.Declare {
		switch word {
		case "o", "one", "1":
			a.Value = 1
		case "e", "eleven", "11":
			a.Value = 11
		default:
			switch arg {
			case "1", "one":
				a.Value = 1
			case "11", "eleven":
				a.Value = 11
			default:
				return a, said("declare 1 or declare 11")
			}
			arg = ""
		}
	}
	if arg != "" {
		switch a.Kind {
		case engine.Double, engine.Insure, engine.Split, engine.Challenge:
			n, err := money.ParseUnits(arg)
			if err != nil {
				return a, err
			}
			a.Stake = n
		default:
			return a, said("%s takes no amount", a.Kind)
		}
	}
	if a.Kind == engine.Insure && a.Stake == 0 {
		a.Stake = s.baseStake(a.Box, 1) / 2 // the most insurance allows
	}
	return a, nil
}

// decide asks for the decision at hand and acts on the answer.
func (s *Session) decide() error {
	pt, err := s.point()
	if err != nil {
		return err
	}
	if pt.close {
		s.act(engine.Action{Kind: engine.Close})
		return nil
	}
	if pt.window && len(pt.items) == 1 {
		// Only [n]o is left: the player cannot pay for the offer.
		s.printf("%s: %s.\n", s.view.label(pt.box, pt.hand), pt.unpaid)
		s.declined[[2]int{pt.box, pt.hand}] = true
		return nil
	}
	line, ok := s.ask(s.prompt(pt))
	if !ok {
		s.sum.Ended = EndInput
		s.leave()
		return nil
	}
	word, arg, _ := strings.Cut(strings.ToLower(line), " ")
	arg = strings.TrimSpace(arg)
	switch word {
	case "":
		return nil
	case "help", "?":
		s.printf("%s\n", s.tr.word(helpText))
		return nil
	case "q", "quit", "exit":
		s.sum.Ended = EndQuit
		s.leave()
		return nil
	case "bet":
		s.setBet(arg)
		return nil
	case "box", "boxes":
		s.setBoxes(word, arg)
		return nil
	case "deal":
		s.printf("The round is in play: %s decides.\n", s.view.label(pt.box, pt.hand))
		return nil
	}
	a, err := s.parseAction(pt, word, arg)
	if err != nil {
		s.sayError(err)
		return nil
	}
	if a.Kind == engine.Close {
		if !pt.window {
			s.printf("No offer is open: %s decides.\n", s.view.label(pt.box, pt.hand))
			return nil
		}
		s.declined[[2]int{pt.box, pt.hand}] = true
		return nil
	}
	if s.round.Legal(a) {
		if stake, free := s.stakeOf(a), s.free(); stake > free {
			s.printf("Refused: %s needs %s and %s of your bankroll is free.\n", a.Kind, stake.Plain(), free.Plain())
			return nil
		}
	}
	s.act(a)
	return nil
}

// act sends a decision to the engine and shows what follows, or the
// engine's refusal with its rule.
func (s *Session) act(a engine.Action) {
	if err := s.round.Act(a); err != nil {
		s.printf("Refused: %s may not %s: %s.\n", s.view.label(a.Box, a.Hand), s.actionWords(a), s.reason(err))
		return
	}
	s.render()
}

// leave ends the session for the player; a round in play is finished for
// him: the dealer closes the offers and the hands stand where the rules allow.
func (s *Session) leave() {
	s.leaving = true
	if s.sum.Ended == EndQuit {
		s.printf("You leave the table.\n")
	}
	s.printf("The round is finished for you: your hands stand where the rules allow, else draw.\n")
}

// autoAct plays one decision for a player who has left: close an offer,
// count an Ace 11, stand, or draw where the rules forbid standing (VE-06).
func (s *Session) autoAct() error {
	r := s.round
	s.legal = r.LegalActions(s.legal[:0])
	if len(s.legal) == 0 {
		return fmt.Errorf("play: the engine offers no decision in phase %s", r.Phase())
	}
	find := func(k engine.Kind, v int) (engine.Action, bool) {
		for _, a := range s.legal {
			if a.Kind == k && a.Value == v && (k == engine.Close || a.Player == Player) {
				return a, true
			}
		}
		return engine.Action{}, false
	}
	var a engine.Action
	ok := false
	if r.Phase() == engine.Playing {
		for _, k := range []struct {
			k engine.Kind
			v int
		}{{engine.Declare, 11}, {engine.Stand, 0}, {engine.Hit, 0}} {
			if a, ok = find(k.k, k.v); ok {
				break
			}
		}
	} else {
		a, ok = find(engine.Close, 0)
	}
	if !ok {
		a = s.legal[0]
	}
	switch a.Kind {
	case engine.Stand:
		s.printf("%s stands.\n", s.view.label(a.Box, a.Hand))
	case engine.Hit:
		s.printf("%s draws.\n", s.view.label(a.Box, a.Hand))
	}
	if err := r.Act(a); err != nil {
		return fmt.Errorf("play: %w", err)
	}
	s.render()
	return nil
}

// actionWords names a decision as the refusal quotes it, in the session's
// language.
func (s *Session) actionWords(a engine.Action) string {
	if s.tr.english() {
		return actionText(a)
	}
	switch a.Kind {
	case engine.Declare:
		return s.tr.Sprintf("count the Ace %d", a.Value)
	case engine.Double, engine.Insure, engine.Split:
		if a.Stake != 0 {
			return s.tr.word("may:"+a.Kind.String()) + " " + s.tr.money(a.Stake)
		}
	}
	return s.tr.word("may:" + a.Kind.String())
}

// actionText names a decision as the refusal quotes it.
func actionText(a engine.Action) string {
	switch a.Kind {
	case engine.Declare:
		return fmt.Sprintf("count the Ace %d", a.Value)
	case engine.EvenMoney:
		return "take even money"
	case engine.Double, engine.Insure, engine.Split:
		if a.Stake != 0 {
			return fmt.Sprintf("%s %s", a.Kind, a.Stake.Plain())
		}
	}
	return a.Kind.String()
}
