// Package analysis computes a rule profile's expected value exactly, by
// combinatorial analysis of every hand dealt off the top of a full shoe to
// one player alone at the table, with exact card removal throughout.
//
// For each dealer up card it takes the dealer's final-total distribution
// for every set of cards the player may hold (a dealer blackjack left out
// where the dealer peeks, counted as an outcome where he does not), values
// standing, hitting, doubling, splitting and surrendering every hand
// composition by recursion, and from these builds two strategies:
// composition-dependent play (the best action for the exact cards) and
// total-dependent basic strategy (one action per hard or soft total, pair
// and up card, as printed on a strategy card), each with its exact
// expectation and a PAR-sheet breakdown. Every rule of the profile enters
// through the rules package — rules.Count for totals, DealerDraws for the
// dealer, CanDoubleOn, MustDraw and Settle for payouts — the exotic ones
// included: the Desafío (AR-10), declared Aces (AR-11), split Aces that draw
// and split blackjacks paid 1:1 (AR-19), no-peek and no hole card (AR-09,
// ES-12, VE-15), must draw to 11 and stand on 21 (VE-06), an Ace on split
// tens counted 1 (VE-13), even money against a ten (VE-16), insurance, the
// pontoon bonuses (PON-01, PON-02).
//
// Splits are exact, resplits included, for the post-split strategy in which
// each split hand plays the first split hand's optimum for its own cards
// (Farmer's CDP1; his analyzer gives the same figures to nine digits): the
// second cards are dealt first, the other hands' further cards drop out by
// optional stopping, and a non-pair card removed is written as no card and
// a pair card removed; a chain counts the orders for any number of hands
// (spain's 7). The tests check it against an enumeration of every deal on
// one deck. docs/analysis.md describes the method, the readings taken and
// the published figures the tests compare with.
//
// Results are cached by Profile.GameHash in a Cache safe for concurrent use, so
// a server can show them at once; Options.Progress reports a long
// computation. The package does no I/O but through the io.Writer of
// StrategyCard.WriteCSV and WriteText.
package analysis
