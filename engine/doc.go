// Package engine plays one round of blackjack as an explicit state machine,
// exactly as a rule profile says.
//
// A round goes through these phases:
//
//	Betting          PlaceBet: the first bettor on a box holds it; others are back bettors
//	                 Start: "rien ne va plus" (VE-04); a card to each box, the dealer's up card
//	ChallengeWindow  AR-10: a first-card Ace may challenge (Challenge), until Close
//	                 the second cards; the hole card (AR-09) unless the deal is European (ES-12, VE-05)
//	InsuranceWindow  under an Ace (or a ten for VE-16): Insure, EvenMoney, until Close
//	                 the peek where the profile has one: a dealer blackjack ends the round
//	Playing          box by box, hand by hand (VE-07): Hit, Stand, Double, Split, Surrender, Declare
//	FollowWindow     VE-11, VE-12: back bettors answer the holder's Double or Split, until Close
//	AceChoice        VE-13: an Ace on a split ten may count 1 (Declare), until Close
//	Done             the dealer has played (AR-13, AR-14) and every bet is settled (AR-15)
//
// LegalActions lists what may be done now and by whom. Act applies one
// action or refuses it with a *Refusal that names the rule and leaves the
// round as it was; Apply is the unchecked path for callers that choose among
// LegalActions: the simulator's general path (package sim) plays its rounds
// so, and a round it applies is the round Act would play. Windows are
// optional: Close (the dealer moving on) ends one.
//
// Every round keeps an event log (Events) that a table shows to its players
// as it happens — a face-down card's value must not leave the server before
// its EvReveal — and a Record (cards drawn, bets, actions) from which Replay
// plays the round again to the same events.
//
// A physical shoe (a table dealt by hand, its cards read as they leave the
// shoe) is a Waiter: when it has not the next card yet, the round stops
// where it needs it and Waiting says whom it is for (a box's hand, face
// down or not, or the dealer); it takes no decision meanwhile. The round
// does not resume: its Record with the card added replays (ReplayPhysical)
// to the same events and on to the next card or decision. Every random
// round of the fuzz targets is also dealt so, card by card, and must ask
// for each card where it deals it and end as the same round.
//
// A Round is reusable: Reset it with the next shoe. It does not allocate in
// steady state, so one Round per table serves any number of rounds.
package engine
