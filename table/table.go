// Package table holds the rules of a table as a whole, above one round: the
// seats and who may bet where (AR-04, AR-05, AR-21, ES-03, VE-03, VE-17,
// VE-20), the condition to start and go on dealing a shoe (AR-03), the shoe
// across rounds with its cut card, reshuffles and a new shoe on request
// (EG-04, EG-05, AR-24, FAM-03), and the rotating bank of family blackjack
// (FAM-02). It is pure logic on the engine: no I/O, no clock; the caller
// (`sabot play`, the table server) supplies time and input.
package table

import (
	"errors"
	"fmt"
	"slices"
	"sort"

	"sabot/card"
	"sabot/engine"
	"sabot/money"
	"sabot/rules"
	"sabot/shoe"
)

// ErrRefused is wrapped by every refusal of the table.
var ErrRefused = errors.New("refused")

func (t *Table) refuse(rule, format string, a ...any) error {
	return t.refuseAsBy("", nil, rule, "", format, a...)
}

// refuseBy is refuse where an option of the table decides the matter: it
// is cited, with its value, where the table's own regulation has no rule of
// rule's IDs (rules.Profile.Cite).
func (t *Table) refuseBy(rule, option, format string, a ...any) error {
	return t.refuseAsBy("", nil, rule, option, format, a...)
}

// Refusal is a refusal of the table: its words, and the reason and values
// a client words it by in its own language (docs/protocol.md, "Errors";
// "" where it has none).
type Refusal struct {
	Message string
	Reason  string
	Params  map[string]any
}

func (r *Refusal) Error() string        { return ErrRefused.Error() + ": " + r.Message }
func (r *Refusal) Is(target error) bool { return target == ErrRefused }

// refuseAs is refuse with a reason and its values; the rule IDs the table's
// regulation owns are its "rule" value.
func (t *Table) refuseAs(reason string, params map[string]any, rule, format string, a ...any) error {
	return t.refuseAsBy(reason, params, rule, "", format, a...)
}

// refuseAsBy is refuseAs and refuseBy at once: the citation is the table's
// own regulation's IDs of rule, or the option that decides (rules.Profile.Cite).
func (t *Table) refuseAsBy(reason string, params map[string]any, rule, option, format string, a ...any) error {
	rule = t.p.Cite(rule, option) // the table's own regulation only
	msg := fmt.Sprintf(format, a...)
	if rule != "" {
		msg += " (" + rule + ")"
		if reason != "" {
			if params == nil {
				params = map[string]any{}
			}
			params["rule"] = rule
		}
	}
	return &Refusal{Message: msg, Reason: reason, Params: params}
}

// Table is one blackjack table. It is not safe for concurrent use.
type Table struct {
	p     *rules.Profile
	shoe  *shoe.Shoe
	round *engine.Round

	seats  []string // seats[box] = the seated box holder, "" when free (1-based)
	bets   []engine.PlacedBet
	claims []claim

	shoeStarted bool // AR-03: the shoe has started and goes on while enough bets are made
	shoeNo      int
	roundNo     int
	lastRound   bool // EG-04: the cut card came out in the previous round
	forced      bool // the round in play deals a forced order (test mode)
	unfinished  bool // the round dealt is not Finished yet (no Snapshot before)

	bank       string // FAM-02: the player who holds the bank ("" = the house)
	bankRounds int

	// Seeds gives the seed of each new shoe after the first, so that each
	// shoe has its own seed to commit to and reveal. The default draws from
	// crypto/rand; a server records each seed and, rebuilding a table from
	// its log, gives the recorded ones back.
	Seeds func() shoe.Seed
	seed  shoe.Seed
	// ShoeSteps says whether the next new shoe waits for its steps (the
	// inspector's authorisation, the player's cut: steps.go); nil: none
	// does. It is asked before Seeds, and changes nothing.
	ShoeSteps    func() bool
	await        Step   // what the current shoe waits for before its first deal
	authorisedBy string // who authorised its shuffle (000 item 5)
	cutBy        string // who cut it (AR-07, EG-02)

	style money.Style // how refusals show amounts (SetAmountStyle)

	phys *physical // a physical shoe (NewPhysical); nil: the shuffled shoe
}

// SetAmountStyle sets how the table's refusals, and its rounds', show an
// amount (a stake, a limit): a server shows them as its players see money
// (money.Grouped); the default, money.Minor, shows the integer.
func (t *Table) SetAmountStyle(s money.Style) {
	t.style = s
	t.round.SetAmountStyle(s)
}

type claim struct {
	player string
	box    int
	at     int64 // when the player asked, in the caller's clock
}

// New returns a table for a profile with a shoe seeded by seed, prepared by
// the profile's procedure (shuffle, cut, cut card, burns).
func New(p *rules.Profile, seed shoe.Seed) (*Table, error) {
	if err := p.Validate(); err != nil {
		return nil, err
	}
	t := &Table{p: p, round: engine.New(p), seats: make([]string, p.Boxes+1), Seeds: shoe.RandomSeed}
	if err := t.newShoe(seed); err != nil {
		return nil, err
	}
	return t, nil
}

// Seed returns the seed of the current shoe.
func (t *Table) Seed() shoe.Seed { return t.seed }

// Profile returns the table's profile.
func (t *Table) Profile() *rules.Profile { return t.p }

// Shoe returns the table's shoe; nil at a table dealt from a physical
// shoe (Physical).
func (t *Table) Shoe() *shoe.Shoe { return t.shoe }

// Round returns the round in play or last played.
func (t *Table) Round() *engine.Round { return t.round }

// ShoeNo and RoundNo count the shoes and rounds dealt.
func (t *Table) ShoeNo() int  { return t.shoeNo }
func (t *Table) RoundNo() int { return t.roundNo }

// NewShoe shuffles every card and prepares the shoe again (EG-05); the
// inspector may ask for it at any time between rounds (AR-24). The next
// round must meet AR-03 again.
func (t *Table) NewShoe() error {
	if t.inRound() {
		return t.refuse("AR-24, EG-05", "a new shoe is prepared between rounds")
	}
	if t.phys != nil {
		t.newPhysicalShoe()
		return nil
	}
	return t.drawShoe()
}

func (t *Table) newShoe(seed shoe.Seed) error {
	s := shoe.New(t.p.Decks, seed)
	if _, err := s.Prepare(t.p.ShoeProcedure(), 0); err != nil {
		return err
	}
	t.shoe, t.seed = s, seed
	t.shoeNo++
	t.shoeStarted = false
	t.lastRound = false
	t.await, t.authorisedBy, t.cutBy = StepNone, "", ""
	return nil
}

func (t *Table) inRound() bool {
	ph := t.round.Phase()
	return ph != engine.Betting && ph != engine.Done
}

// Sit seats a player as the holder of a free box. A player may hold several
// boxes (AR-04, VE-17).
func (t *Table) Sit(player string, box int) error {
	switch {
	case player == "":
		return t.refuse("", "a seat needs a player")
	case box < 1 || box > t.p.Boxes:
		return t.refuseAs("no_such_box", map[string]any{"boxes": t.p.Boxes}, "", "the table has boxes 1 to %d", t.p.Boxes)
	case t.seats[box] != "":
		return t.refuseAsBy("box_taken", map[string]any{"box": box, "player": t.seats[box]}, "AR-21, ES-03, VE-03", "boxes", "box %d is taken by %s", box, t.seats[box])
	}
	t.seats[box] = player
	return nil
}

// Leave frees every box the player holds and withdraws the bets not yet dealt.
func (t *Table) Leave(player string) {
	for b := range t.seats {
		if t.seats[b] == player {
			t.seats[b] = ""
		}
	}
	kept := t.bets[:0]
	for _, b := range t.bets {
		if b.Player != player {
			kept = append(kept, b)
		}
	}
	t.bets = kept
}

// Vacate frees a box whose holder gives up the seat (AR-21: a seat not
// bet on is given up) and keeps his other boxes; his bets stay as they are.
func (t *Table) Vacate(box int) {
	if box >= 1 && box <= t.p.Boxes {
		t.seats[box] = ""
	}
}

// Holder returns who holds a box.
func (t *Table) Holder(box int) string {
	if box < 1 || box > t.p.Boxes {
		return ""
	}
	return t.seats[box]
}

// Seated lists the seated players, by their first box.
func (t *Table) Seated() []string {
	var out []string
	seen := map[string]bool{}
	for _, p := range t.seats[1:] {
		if p != "" && !seen[p] {
			seen[p] = true
			out = append(out, p)
		}
	}
	return out
}

func (t *Table) firstSeat(player string) int {
	for b := 1; b <= t.p.Boxes; b++ {
		if t.seats[b] == player {
			return b
		}
	}
	return t.p.Boxes + 1 // standing players come after every seat
}

// Claim asks for a free box at time at (the caller's clock). Between rounds
// ResolveClaims gives each box to the first who asked; on a tie, to the
// claimant seated nearest box 1 (AR-21).
func (t *Table) Claim(player string, box int, at int64) error {
	if box < 1 || box > t.p.Boxes {
		return t.refuseAs("no_such_box", map[string]any{"boxes": t.p.Boxes}, "", "the table has boxes 1 to %d", t.p.Boxes)
	}
	t.claims = append(t.claims, claim{player, box, at})
	return nil
}

// ResolveClaims seats the claimants of free boxes (AR-21) and returns who got
// which box.
func (t *Table) ResolveClaims() map[int]string {
	sort.SliceStable(t.claims, func(i, j int) bool {
		a, b := t.claims[i], t.claims[j]
		if a.at != b.at {
			return a.at < b.at
		}
		return t.firstSeat(a.player) < t.firstSeat(b.player)
	})
	got := map[int]string{}
	for _, c := range t.claims {
		if t.seats[c.box] == "" {
			t.seats[c.box] = c.player
			got[c.box] = c.player
		}
	}
	t.claims = t.claims[:0]
	return got
}

// Bet places a stake for the next round: a seated player on a box he holds,
// or on a free box (AR-04, VE-17: he plays it until it is taken); a standing
// player as a back bettor where the profile allows it (ES-03, VE-03; AR-05).
// Limits and back-bet counts are checked by the engine when the round is
// dealt; Bet refuses what the table can tell now.
func (t *Table) Bet(player string, box int, stake money.Amount) error {
	if t.inRound() {
		return t.refuseAs("bets_closed", nil, "AR-22, ES-01, VE-04", "no bet once the first card has left the shoe")
	}
	if box < 1 || box > t.p.Boxes {
		return t.refuseAs("no_such_box", map[string]any{"boxes": t.p.Boxes}, "", "the table has boxes 1 to %d", t.p.Boxes)
	}
	// VE-18 lets a stake found short stand once the cards are dealt (after a
	// change of limits), never one placed short.
	if bar := t.p.StakeBar(stake, rules.Placed); bar != rules.NoBar {
		bound := "min_bet"
		if bar == rules.BarMaximum {
			bound = "max_bet"
		}
		return t.refuseAsBy("stake_range", map[string]any{"min": t.p.MinBet, "max": t.p.MaxBet}, "AR-04, ES-03, FAM-01, VE-21", bound, "a stake must be between %s and %s", t.p.MinBet.In(t.style), t.p.MaxBet.In(t.style))
	}
	if player == t.bank && t.bank != "" {
		return t.refuseAs("bank_plays_dealer", map[string]any{"player": player}, "FAM-02", "%s holds the bank: the bank plays the dealer's hand, not a box", player)
	}
	holder := t.seats[box]
	seated := t.firstSeat(player) <= t.p.Boxes
	switch {
	case holder == player:
	case holder == "" && seated:
		// AR-04, VE-17: a seated player may also play a free box.
	case holder == "" && !seated:
		return t.refuseAs("sit_first", nil, "AR-04, ES-03, VE-20", "only seated players play a box: sit first")
	case t.p.BoxBar(1, 0, stake) == rules.BarNoBackBets: // a bet beside the holder's
		return t.refuseAsBy("no_back_betting", nil, "AR-05, FAM-01", "back_bets_per_box", "no back betting: nobody adds to another player's box")
	}
	for i, b := range t.bets {
		if b.Player == player && b.Box == box {
			t.bets[i].Stake = stake // a bet may change until the deal
			return nil
		}
	}
	t.bets = append(t.bets, engine.PlacedBet{Player: player, Box: box, Stake: stake})
	return nil
}

// Bets returns the bets placed for the next round.
func (t *Table) Bets() []engine.PlacedBet { return append([]engine.PlacedBet(nil), t.bets...) }

// Unbacked returns the bets placed behind a box that nobody plays this
// round: another player's bet on a box whose holder has no bet on it (he
// sits the round out, or will give up the seat, AR-21), or a standing
// player's bet on a box left free since he placed it. Dealt as they stand,
// such a bet would be the box's first, its bettor the box's holder: a
// standing player playing a box, which ES-03 and VE-03 do not allow (a
// back bettor follows the holder's decisions; AR-04, VE-20: only seated
// players play a box). The caller returns them before the deal; Deal
// refuses while any is placed.
func (t *Table) Unbacked() []engine.PlacedBet {
	var out []engine.PlacedBet
	for _, b := range t.bets {
		switch holder := t.seats[b.Box]; {
		case holder == b.Player:
		case holder == "":
			if t.firstSeat(b.Player) > t.p.Boxes {
				out = append(out, b)
			}
		case !slices.ContainsFunc(t.bets, func(h engine.PlacedBet) bool { return h.Player == holder && h.Box == b.Box }):
			out = append(out, b)
		}
	}
	return out
}

// NotReady is why the bets placed do not make a round yet, with the counts
// a player is told: the rule, what it needs and what the table has. Reason
// is a stable key for a client to word it (docs/protocol.md, "Errors"):
//
//	table_minimum_bets     AR-03: Need bets, Have placed (Shoe: the shoe has started)
//	table_minimum_players  AR-03: Need seated players betting, Have of them, Bets placed
//	lone_customer_boxes    VE-20: a lone customer plays Need boxes, Have played
type NotReady struct {
	Rule   string
	Reason string
	Need   int
	Have   int
	Bets   int
	Shoe   bool
}

func (e *NotReady) Error() string {
	var msg string
	switch e.Reason {
	case "table_minimum_bets":
		if e.Shoe {
			msg = fmt.Sprintf("the shoe goes on while %d bets are made; %d placed", e.Need, e.Have)
		} else {
			msg = fmt.Sprintf("a shoe starts with %d bets; %d placed", e.Need, e.Have)
		}
	case "table_minimum_players":
		msg = fmt.Sprintf("a shoe starts with %d seated players betting; %s placed by %s", e.Need, plural(e.Bets, "bet"), plural(e.Have, "player"))
	case "shoe_authorise":
		msg = "the new shoe waits for the inspector to authorise its shuffle"
	case "shoe_cut":
		msg = "the new shoe waits for a player's cut"
	case "lone_customer_boxes":
		msg = fmt.Sprintf("a lone customer plays at least %d boxes; %s played", e.Need, plural(e.Have, "box"))
	default:
		msg = e.Reason
	}
	return fmt.Sprintf("%s: %s (%s)", ErrRefused, msg, e.Rule)
}

// Unwrap makes a NotReady a refusal (ErrRefused).
func (e *NotReady) Unwrap() error { return ErrRefused }

func plural(n int, what string) string {
	if n == 1 {
		return "1 " + what
	}
	if what == "box" {
		return fmt.Sprintf("%d boxes", n)
	}
	return fmt.Sprintf("%d %ss", n, what)
}

// CanDeal says whether the bets placed allow a round: AR-03 (a shoe starts
// with at least min_bets_to_start bets from as many seated players, and goes
// on while that many bets are made) and VE-20 (a lone customer plays at least
// lone_customer_boxes boxes). A *NotReady says what is missing.
func (t *Table) CanDeal() error {
	if len(t.bets) == 0 {
		return t.refuse("", "no bet has been placed")
	}
	need := t.p.MinBetsToStart
	if need > 1 {
		if len(t.bets) < need {
			return &NotReady{Rule: "AR-03", Reason: "table_minimum_bets", Need: need, Have: len(t.bets), Bets: len(t.bets), Shoe: t.shoeStarted}
		}
		if !t.shoeStarted {
			players := map[string]bool{}
			for _, b := range t.bets {
				if t.firstSeat(b.Player) <= t.p.Boxes {
					players[b.Player] = true
				}
			}
			if len(players) < need {
				return &NotReady{Rule: "AR-03", Reason: "table_minimum_players", Need: need, Have: len(players), Bets: len(t.bets)}
			}
		}
	}
	if n := t.p.LoneBoxes(); n > 1 {
		players := map[string]bool{}
		boxes := map[int]bool{}
		for _, b := range t.bets {
			players[b.Player] = true
			if t.seats[b.Box] == b.Player || t.seats[b.Box] == "" {
				boxes[b.Box] = true
			}
		}
		if t.p.LoneBar(len(players), len(boxes)) == rules.BarLoneBoxes {
			return &NotReady{Rule: "VE-20", Reason: "lone_customer_boxes", Need: n, Have: len(boxes), Bets: len(t.bets)}
		}
	}
	return nil
}

// Deal starts a round with the bets placed. Seated players who placed no
// bet give up their seats (AR-21). It returns the round, waiting for its
// first decision (or done).
func (t *Table) Deal() (*engine.Round, error) { return t.deal(nil) }

// DealForced is Deal from a forced card order instead of the shoe: the test
// mode of certification labs (and of the server's tests). The shoe is not
// touched.
func (t *Table) DealForced(cards []card.Card) (*engine.Round, error) {
	return t.deal(engine.NewForced(cards))
}

func (t *Table) deal(forced engine.Source) (*engine.Round, error) {
	if t.inRound() {
		return nil, t.refuseAs("round_in_play", nil, "", "a round is in play")
	}
	if err := t.CanDeal(); err != nil {
		return nil, err
	}
	if forced != nil && t.phys != nil {
		return nil, t.refuse("", "a table dealt from a physical shoe deals the cards read from it")
	}
	if u := t.Unbacked(); len(u) > 0 {
		return nil, t.refuse("ES-03, VE-03", "%s bets behind box %d, which nobody plays this round: the bet is to be returned first", u[0].Player, u[0].Box)
	}
	if t.lastRound && forced == nil { // EG-04, EG-05: the last round was played: reshuffle
		if err := t.NewShoe(); err != nil {
			return nil, err
		}
	}
	if forced == nil { // AR-07, EG-02 (a forced round does not touch the shoe)
		if err := t.ShoeReady(); err != nil {
			return nil, err
		}
	}
	t.forced = forced != nil
	var src engine.Source = t.shoe
	if forced != nil {
		src = forced
	} else if t.phys != nil {
		src = t.physicalSource()
	}
	t.round.Reset(src)
	// Box holders first, so that each box's first bettor is its holder.
	sort.SliceStable(t.bets, func(i, j int) bool {
		hi := t.seats[t.bets[i].Box] == t.bets[i].Player || t.seats[t.bets[i].Box] == ""
		hj := t.seats[t.bets[j].Box] == t.bets[j].Player || t.seats[t.bets[j].Box] == ""
		return hi && !hj
	})
	for _, b := range t.bets {
		if err := t.round.PlaceBet(b.Player, b.Box, b.Stake); err != nil {
			t.round.Reset(src)
			return nil, fmt.Errorf("%w: %v", ErrRefused, err)
		}
	}
	if err := t.round.Start(); err != nil {
		return nil, fmt.Errorf("%w: %v", ErrRefused, err)
	}
	// AR-21: a seated player must bet every round or give up the seat.
	// (Only once the round has started: a refused deal changes no seat.)
	betting := map[string]bool{}
	for _, b := range t.bets {
		betting[b.Player] = true
	}
	for box, p := range t.seats {
		if p != "" && !betting[p] && p != t.bank { // FAM-02: the bank plays the dealer's hand
			t.seats[box] = ""
		}
	}
	t.shoeStarted = true
	t.unfinished = true
	t.roundNo++
	t.bets = t.bets[:0]
	return t.round, nil
}

// Finish closes a done round: the cards are collected (FAM-03), the cut card
// makes this the shoe's last round (EG-04), and the family bank rotates
// (FAM-02). It returns the new bank holder ("" if it did not change).
func (t *Table) Finish() (newBank string, err error) {
	r := t.round
	if r.Phase() != engine.Done {
		return "", t.refuse("", "the round is not over")
	}
	if !t.unfinished {
		return "", t.refuse("", "the round is already finished")
	}
	t.unfinished = false
	if t.phys != nil {
		t.finishPhysical()
	} else if !t.forced {
		var played []card.Card
		for _, e := range r.Events() {
			if e.Kind == engine.EvCard {
				played = append(played, e.Card)
			}
		}
		t.shoe.Collect(played...)
		if r.LastRound() || t.shoe.CutCardOut() {
			t.lastRound = true
		}
		if void, _ := r.Void(); void && !r.LastRound() {
			t.lastRound = true // AR-08: the cards ran out: a new shoe
		}
		// A new shoe that waits for its steps is prepared at once, so
		// that they are taken between rounds (AR-07, EG-02).
		if t.lastRound && t.ShoeSteps != nil && t.ShoeSteps() {
			if err := t.drawShoe(); err != nil {
				return "", err
			}
		}
	}
	if !t.p.BankRotates {
		return "", nil
	}
	// FAM-02: the bank passes to the first player in dealing order who made
	// a blackjack, or after bank_rounds rounds.
	t.bankRounds++
	for _, box := range r.Boxes() {
		h := r.Hands(box)
		if len(h) == 1 && !h[0].Split() && h[0].Count.TwoCard21() && r.Holder(box) != t.bank {
			return t.passBank(r.Holder(box)), nil
		}
	}
	if t.p.BankRounds > 0 && t.bankRounds >= t.p.BankRounds {
		next := t.nextBank()
		if next != "" && next != t.bank {
			return t.passBank(next), nil
		}
	}
	return "", nil
}

func (t *Table) passBank(player string) string {
	t.bank, t.bankRounds = player, 0
	if t.p.Collected == rules.UnderFaceDown {
		t.NewShoe() // FAM-03: face-down cards are reshuffled when the bank changes hands
	}
	return player
}

// nextBank is the seated player after the bank in box order.
func (t *Table) nextBank() string {
	seated := t.Seated()
	if len(seated) == 0 {
		return ""
	}
	for i, p := range seated {
		if p == t.bank {
			return seated[(i+1)%len(seated)]
		}
	}
	return seated[0]
}

// Bank returns the player who holds the bank in family blackjack (FAM-02),
// "" for the house. The round's house net is the bank's.
func (t *Table) Bank() string { return t.bank }

// SetBank gives the bank to a player (the players agree who starts, FAM-01).
func (t *Table) SetBank(player string) { t.bank, t.bankRounds = player, 0 }

// LastRound reports whether the previous round was the shoe's last (EG-04):
// the next deal reshuffles.
func (t *Table) LastRound() bool { return t.lastRound }

// Withdraw takes back a player's bet on a box before the deal (VE-04: until
// "rien ne va plus" a bet may be removed). It returns the stake withdrawn.
func (t *Table) Withdraw(player string, box int) (money.Amount, error) {
	if t.inRound() {
		return 0, t.refuseAs("bets_closed_withdraw", nil, "AR-22, ES-01, VE-04", "no bet is removed once the first card has left the shoe")
	}
	for i, b := range t.bets {
		if b.Player == player && b.Box == box {
			t.bets = append(t.bets[:i], t.bets[i+1:]...)
			return b.Stake, nil
		}
	}
	return 0, t.refuseAs("no_bet_on_box", map[string]any{"player": player, "box": box}, "", "%s has no bet on box %d", player, box)
}
