package webapi

import (
	"fmt"
	"strings"

	"sabot"
	"sabot/internal/english"
	"sabot/rules"
)

// rulePrefixes names, for each built-in profile, the regulations its rule
// IDs come from: a table shows only its own regulation's rules. A profile
// not listed (a reference profile) shows none.
var rulePrefixes = map[string][]string{
	"argentina": {"AR-"},
	"spain":     {"ES-", "EG-"},
	"family":    {"FAM-", "PON-", "ES-", "EG-"},
	"venice":    {"VE-"},
}

// topics are the English names of the rule lines' topics, by key.
var topics = map[string]string{
	"cards": "Cards", "shoe": "Shoe", "boxes": "Boxes", "limits": "Limits", "start": "Start", "bank": "Bank",
	"deal": "Deal", "dealer": "Dealer", "dealerBlackjack": "Dealer blackjack", "payouts": "Payouts",
	"double": "Double", "split": "Split", "drawing": "Drawing", "surrender": "Surrender", "insurance": "Insurance",
	"evenMoney": "Even money", "challenge": "Challenge", "aces": "Aces", "fiveCard21": "Five-card 21",
	"threeSevens": "Three sevens",
}

// ph is a phrase of the rules (sabot.Say).
var ph = sabot.Say

// PlainRules says a profile's rules in sentences, each with the options that
// set it and its rule IDs' wording. Each sentence is also given as phrases
// (a key and its values) for a client to word in its own language: the
// sentence is its phrases' texts one after the other (docs/protocol.md,
// "The rules in plain words").
func PlainRules(table int64, p *rules.Profile) *TableRules {
	prefixes := rulePrefixes[p.Name]
	if prefixes == nil {
		// A profile file keeps its base's regulation, and its rules.
		prefixes = rulePrefixes[p.Regulation]
	}
	departures := p.Departures()
	refs := func(ids ...string) []RuleRef {
		var out []RuleRef
		seen := map[string]bool{}
		for _, id := range ids {
			ok := false
			for _, pre := range prefixes {
				ok = ok || strings.HasPrefix(id, pre)
			}
			if ok && !seen[id] {
				seen[id] = true
				ref := RuleRef{ID: id, Text: ruleText[id]}
				if s, ok := seedText[id]; ok {
					ref.Seed = &s
				}
				for _, d := range departures {
					if d.Rule == id {
						ref.Departs = append(ref.Departs, d.String())
					}
				}
				out = append(out, ref)
			}
		}
		return out
	}
	// optRules lists the rule IDs of options, as package rules documents them.
	optRules := func(keys ...string) []string {
		var ids []string
		for _, o := range rules.Options() {
			for _, k := range keys {
				if o.Key == k {
					ids = append(ids, o.Rules...)
				}
			}
		}
		return ids
	}
	tr := &TableRules{Table: table, Profile: p.Name, Description: p.Description, Values: values(p), Lines: []RuleLine{}, Readings: []RuleLine{}}
	add := func(topic string, phrases []sabot.Phrase, extra []string, keys ...string) {
		phrases = append(phrases, sabot.Phrase{Text: "."})
		ids := append(optRules(keys...), extra...)
		tr.Lines = append(tr.Lines, RuleLine{Topic: topics[topic], Key: topic, Text: sabot.Sentence(phrases), Phrases: phrases, Options: keys, Rules: refs(ids...)})
	}
	one := func(key, text string, kv ...any) []sabot.Phrase { return []sabot.Phrase{ph(key, text, kv...)} }

	// The shoe.
	shoe := one("shoe.decks", english.Count(p.Decks, "deck", "decks")+" of 52 cards", "n", p.Decks)
	if p.BurnCards > 0 {
		shoe = append(shoe, ph("shoe.burn", "; "+english.Count(p.BurnCards, "card is", "cards are")+" burned after the shuffle and the cut", "n", p.BurnCards))
	}
	switch {
	case p.CutCardReserve > 0 && p.LastRoundVoid:
		shoe = append(shoe, ph("shoe.cutVoid", fmt.Sprintf(". A cut card leaves %d cards behind it: when it comes out the house stops the shoe and voids the round in play", p.CutCardReserve), "n", p.CutCardReserve))
	case p.CutCardReserve > 0:
		shoe = append(shoe, ph("shoe.cutLast", fmt.Sprintf(". A cut card leaves %d cards behind it: when it comes out, the round in play is the last of the shoe", p.CutCardReserve), "n", p.CutCardReserve))
	default:
		shoe = append(shoe, ph("shoe.toEnd", ". The cards are dealt to the end"))
	}
	switch p.Collected {
	case rules.UnderFaceUp:
		shoe = append(shoe, ph("shoe.underFaceUp", "; played cards go under the deck face up, and the deck is reshuffled when the first face-up card is reached"))
	case rules.UnderFaceDown:
		shoe = append(shoe, ph("shoe.underFaceDown", "; played cards go under the deck face down, dealt on until the bank changes hands"))
	}
	add("cards", one("cards", "Aces count 1 or 11, 2 to 10 their face value, J, Q and K count 10. A blackjack is an Ace and a ten-value as the first two cards"), []string{"AR-02", "ES-02", "ES-07", "VE-02", "VE-10"})
	add("shoe", shoe, []string{"EG-01", "EG-05"}, "decks", "burn_cards", "cut_card_reserve", "last_round_void", "collected_cards", "min_cut")

	// The layout and who bets.
	layout := one("boxes.count", fmt.Sprintf("%d boxes", p.Boxes), "n", p.Boxes)
	if p.BackBetsPerBox == 0 {
		layout = append(layout, ph("boxes.noBack", ". No back betting: only seated players bet, each on his own box or on free boxes"))
	} else {
		layout = append(layout, ph("boxes.back", ". Each box has its holder's spot and up to "+english.Count(p.BackBetsPerBox, "back bettor", "back bettors")+"; the box holder decides for the box and back bettors accept his decisions", "n", p.BackBetsPerBox))
		// ES-03, VE-11, VE-12: what a back bet does after his split or
		// double (back_follow).
		switch p.BackFollow {
		case rules.BackFollows:
			layout = append(layout, ph("boxes.followAll", "; his split or double takes every back bet with it, a matching stake put on at once"))
		case rules.BackStays:
			layout = append(layout, ph("boxes.followNone", "; back bets never follow his split or double: they stay on the first hand, or on the doubled hand at their own stake"))
		default:
			layout = append(layout, ph("boxes.followChoose", "; after his split or double each back bettor chooses to match it or not, staying on the first hand, or on the doubled hand at his own stake"))
		}
	}
	add("boxes", layout, []string{"AR-04", "AR-06", "VE-17", "AR-21"}, "boxes", "back_bets_per_box", "back_follow")

	// min and max are money, in minor units: the text shows them as the
	// client shows money (money.Amount.String).
	limits := one("limits.range", fmt.Sprintf("Stakes from %s to %s", p.MinBet, p.MaxBet), "min", int64(p.MinBet), "max", int64(p.MaxBet))
	if p.MaxScope == rules.MaxPerBox {
		limits = append(limits, ph("limits.perBox", " for a box's stakes together"))
	}
	if p.BelowMinStands {
		limits = append(limits, ph("limits.belowMinStands", "; a stake below the minimum, once the cards are dealt, stands"))
	}
	limits = append(limits, ph("limits.noChange", ". No bet is placed, changed or withdrawn once the first card leaves the shoe"))
	add("limits", limits, []string{"AR-22", "ES-01", "VE-04"}, "min_bet", "max_bet", "max_bet_scope", "below_min_stands")
	if p.MinBetsToStart > 1 {
		add("start", one("start.bets", fmt.Sprintf("A shoe starts with %d bets from %d seated players and goes on while %d bets are made", p.MinBetsToStart, p.MinBetsToStart, p.MinBetsToStart), "n", p.MinBetsToStart), nil, "min_bets_to_start")
	}
	if p.LoneCustomerBoxes > 1 {
		add("start", one("start.lone", fmt.Sprintf("A lone customer plays at least %d boxes", p.LoneCustomerBoxes), "n", p.LoneCustomerBoxes), []string{"VE-20"}, "lone_customer_boxes")
	}
	if p.BankRotates {
		bank := one("bank.player", "The bank is a player's: it passes to a player who makes a blackjack")
		if p.BankRounds > 0 {
			bank = append(bank, ph("bank.rounds", fmt.Sprintf(", or after %d rounds", p.BankRounds), "n", p.BankRounds))
		}
		add("bank", bank, nil, "bank_rotates", "bank_rounds")
	}

	// The dealer.
	switch p.HoleCard {
	case rules.Peek:
		add("deal", one("deal.peek", "The dealer takes a second card face down and checks it under an Ace or a ten: a dealer blackjack ends the round at once"), nil, "hole_card")
	case rules.NoPeek:
		add("deal", one("deal.noPeek", "A card to each box, one face up to the dealer, a second to each box, and the dealer's second card face down: the hole card, turned only when the dealer plays. The dealer does not peek"), nil, "hole_card")
	case rules.NoHole:
		add("deal", one("deal.noHole", "European deal: a card to each box, one to the dealer, a second to each box; the dealer draws the rest after the players. There is no hole card"), []string{"VE-07"}, "hole_card")
	}
	// AR-13 read as the dealer's Ace staying 1 once he draws (dealer_ace).
	dealerKeys := []string{"dealer_hits_soft_17"}
	var staysOne []sabot.Phrase
	if p.DealerAce == rules.AceStaysOne {
		dealerKeys = append(dealerKeys, "dealer_ace")
		staysOne = one("dealer.aceStaysOne", "; an Ace he counts 1 when he draws stays 1: an Ace and a 5, then a 2, make 8, and he draws")
	}
	if p.DealerHitsSoft17 {
		add("dealer", append(one("dealer.h17", "The dealer draws to 16 and to a soft 17, and stands on a hard 17 and more"), staysOne...), nil, dealerKeys...)
	} else {
		var ar14 []string // AR-14 is the Argentine text's: where the profile takes it (dealer_plays)
		if p.DealerPlays == rules.PlaysAsNeeded || p.DealerPlays == rules.PlaysUnlessAllBust {
			ar14 = []string{"AR-14"}
		}
		add("dealer", append(one("dealer.s17", "The dealer draws to 16 and stands on every 17, a soft 17 included"), staysOne...), ar14, dealerKeys...)
	}
	if p.DealerBlackjackTakes == rules.TakesAll {
		add("dealerBlackjack", one("dealerBlackjack.all", "A dealer blackjack beats every hand but a player's blackjack, which pushes: doubled and split stakes are lost too"), nil, "dealer_blackjack_takes")
	} else {
		add("dealerBlackjack", one("dealerBlackjack.original", "A dealer blackjack beats only the original stakes: doubled and split stakes are returned; a player's blackjack pushes"), nil, "dealer_blackjack_takes")
	}

	// Payouts.
	add("payouts", one("payouts", fmt.Sprintf("Blackjack pays %d to %d; every other win pays even money; a tie is a push", p.BlackjackPays.Num, p.BlackjackPays.Den),
		"num", p.BlackjackPays.Num, "den", p.BlackjackPays.Den), []string{"AR-15", "ES-04", "ES-06", "VE-09"}, "blackjack_pays")

	// The player's options.
	double := map[rules.DoubleOn][]sabot.Phrase{
		rules.DoubleAny:    one("double.any", "Double on any first two cards"),
		rules.Double9to11:  one("double.9to11", "Double on a two-card 9, 10 or 11"),
		rules.Double10to11: one("double.10to11", "Double on a two-card 10 or 11"),
		rules.Double11:     one("double.11", "Double only on a two-card 11"),
	}[p.DoubleOn]
	double = append(double, ph("double.oneCard", ", for one card"))
	if p.DoubleCardFaceDown {
		double = append(double, ph("double.faceDown", ", dealt face down and turned after the dealer has played"))
	}
	if p.DoubleAfterSplit {
		double = append(double, ph("double.afterSplit", "; a split hand may double"))
	} else {
		double = append(double, ph("double.noAfterSplit", "; no double after a split"))
	}
	if p.DoubleForLess {
		double = append(double, ph("double.forLess", ". A double for less than the stake is paid at its amount; for more, the excess is neither paid nor lost"))
	}
	add("double", double, nil, "double_on", "double_card_face_down", "double_after_split", "double_for_less")

	var split []sabot.Phrase
	switch {
	case p.MaxHands <= 1:
		split = one("split.none", "No split")
	case p.MaxHands == 2:
		split = one("split.once", "Split two cards of equal value (K-10 too) once, for a stake equal to the original")
	default:
		split = one("split.upTo", fmt.Sprintf("Split two cards of equal value (K-10 too) for an equal stake, up to %d hands", p.MaxHands), "n", p.MaxHands)
		// VE-12 read by the letter (resplit_hands=first).
		if p.ResplitHands == rules.ResplitFirst {
			split = append(split, ph("split.firstOnly", "; only the first split hand, dealt the third card, may split again"))
		}
	}
	if p.MaxHands > 1 {
		if p.HitSplitAces {
			split = append(split, ph("split.acesDraw", "; split Aces may draw"))
		} else {
			split = append(split, ph("split.acesOne", "; split Aces get one card each"))
		}
		if p.MaxHands > 2 && p.ResplitAces {
			split = append(split, ph("split.resplitAces", " and may be split again"))
		}
		switch p.SplitBlackjack {
		case rules.SplitBlackjackEven:
			split = append(split, ph("split.blackjackEven", "; an Ace and a ten on a split hand rank as a blackjack, paid even money"))
		case rules.SplitBlackjackAcesEven:
			split = append(split, ph("split.blackjackAcesEven", "; an Ace and a ten on a split hand rank as a blackjack, paid even money on split Aces and as a blackjack on split tens"))
		default:
			split = append(split, ph("split.blackjack21", "; an Ace and a ten on a split hand are 21, not blackjack"))
		}
	}
	splitKeys := []string{"max_hands", "resplit_aces", "hit_split_aces", "split_blackjack"}
	if p.ResplitHands == rules.ResplitFirst {
		splitKeys = append(splitKeys, "resplit_hands")
	}
	add("split", split, nil, splitKeys...)
	if p.SplitTenAceChoice {
		add("split", one("split.tenAce", "After splitting ten-values, an Ace drawn to a split hand may be counted 1 (the hand is then 11 and may draw or double) or 11"), nil, "split_ten_ace_choice")
	}
	if p.MustDrawAtMost > 0 || p.StandOn21 {
		var drawing []sabot.Phrase
		if p.MustDrawAtMost > 0 {
			drawing = one("drawing.must", fmt.Sprintf("A hand of %d or less must draw", p.MustDrawAtMost), "n", p.MustDrawAtMost)
			if p.StandOn21 {
				drawing = append(drawing, ph("drawing.stand21", "; a hand of 21 stands"))
			}
		} else {
			drawing = one("drawing.stand21First", "A hand of 21 stands")
		}
		drawing = append(drawing, ph("drawing.bust", "; over 21 the hand is out at once"))
		add("drawing", drawing, []string{"AR-12", "ES-04"}, "must_draw_at_most", "stand_on_21")
	}
	switch p.Surrender {
	case rules.LateSurrender:
		add("surrender", one("surrender.late", "Late surrender: give up half the stake after the dealer has checked for blackjack"), nil, "surrender")
	case rules.EarlySurrender:
		add("surrender", one("surrender.early", "Early surrender: give up half the stake before the dealer checks for blackjack"), nil, "surrender")
	}
	if p.Insurance {
		ins := one("insurance", "Insurance: with a dealer Ace up, stake up to half the original bet that the dealer has blackjack; it pays 2 to 1")
		if !p.InsureBlackjack {
			ins = append(ins, ph("insurance.notBlackjack", "; a blackjack cannot be insured"))
		}
		if p.InsuranceCloses == rules.ClosesThirdCard && p.HoleCard != rules.Peek {
			ins = append(ins, ph("insurance.thirdCard", "; the offer stays open while the boxes play, until a player is dealt a third card"))
		}
		add("insurance", ins, nil, "insurance", "insure_blackjack", "insurance_closes")
	} else {
		add("insurance", one("insurance.none", "No insurance"), nil, "insurance")
	}
	switch p.EvenMoney {
	case rules.EvenMoneyAce:
		add("evenMoney", one("evenMoney.ace", "With a dealer Ace up, a blackjack may take even money at once, ending the hand"), nil, "even_money")
	case rules.EvenMoneyAceTen:
		add("evenMoney", one("evenMoney.aceTen", "With a dealer Ace or ten-value up, any bettor holding a blackjack, back bettors included, may take even money at once"), nil, "even_money")
	}
	if p.Challenge {
		ch := one("challenge", "The challenge (Desafío): when your first card is an Ace, before the second card you may bet half your stake that it is a ten-value; it pays 2 to 1")
		if p.ChallengeSplitAce {
			ch = append(ch, ph("challenge.splitAces", ". After splitting Aces, the second hand may be challenged too"))
			if p.ChallengeAfterFirst {
				ch = append(ch, ph("challenge.afterFirst", ", by a bettor who challenged the first"))
			}
		}
		add("challenge", ch, nil, "challenge", "challenge_split_aces", "challenge_after_first")
	}
	if p.DeclareInitialAce {
		add("aces", one("aces.declare", "When one of your first two cards is an Ace, you declare it 1 or 11 before acting, for the rest of the round; a blackjack needs no declaration"), nil, "declare_initial_ace")
	}
	if p.FiveCard21 {
		add("fiveCard21", one("fiveCard21", "A five-card 21 pays 2 to 1 and beats a dealer 21 of another card count, except a dealer blackjack"), nil, "five_card_21")
	}
	if p.ThreeSevens {
		add("threeSevens", one("threeSevens", "Three sevens pay 3 to 1 and beat everything, a dealer blackjack included"), nil, "three_sevens")
	}
	for _, rd := range p.Readings() {
		var keys []string
		key := "reading." + rd.Rule
		if rd.Option != "" {
			keys = []string{rd.Option}
			key += "." + rd.Option
		}
		if rd.Value != "" {
			key += "." + rd.Value
		}
		// A reading whose rule is another regulation's is shown under
		// this table's rules (rd.Cite), its rule not linked as the table's.
		topic := rd.Cite
		if topic == "" {
			topic = rd.Rule
		}
		tr.Readings = append(tr.Readings, RuleLine{Topic: topic, Key: rd.Rule, Text: rd.Text, Phrases: []sabot.Phrase{ph(key, rd.Text)}, Options: keys, Rules: refs(rd.Rule)})
	}
	for _, d := range departures {
		if r := refs(d.Rule); len(r) == 1 {
			tr.Departures = append(tr.Departures, Departure{Rule: r[0], Option: d.Option, Value: d.Value, Want: d.Want, Text: d.String()})
		}
	}
	return tr
}

// values is every option's value, by its key.
func values(p *rules.Profile) map[string]string {
	out := map[string]string{}
	for _, o := range rules.Options() {
		if v, err := p.Get(o.Key); err == nil {
			out[o.Key] = v
		}
	}
	return out
}
