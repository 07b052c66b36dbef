// Package sim is sabot's Monte Carlo simulator: it deals billions of rounds
// on a profile's own rules and shoe procedure, on unchecked paths that agree
// with the checked engine round for round (TestAgreesWithEngine). There are
// two: the general path, for every configuration, is the engine's own round
// (engine.Round: LegalActions, then Apply) dealt from the simulator's deck
// (general.go); the fast path (one bettor per box, strategy cards) plays
// from tables computed once per run from the rules' own code (rules.Count,
// Profile.MaySplit, MayDouble, OneCard, DealerNeed, DealerTakes, MustDraw,
// Settle, Net) and the strategy (fast.go).
//
// A Config names the profile, the player's boxes, back bets and the other
// players at the table, the Strategy (a *StrategyCard: a strategy card in
// the CSV format of `sabot strategy --format csv`, with optional index
// plays), a counting System with a bet Ramp and wonging, the TrueCount
// method (exact, or the decks estimated and the count rounded as a player
// does), and how long to run. Run deals chunks of rounds on every core,
// chunk k from seed (Seed, k) on a fresh shoe, and merges them in order:
// the Result depends on the seed, not on the number of workers. See
// docs/sim.md.
package sim
