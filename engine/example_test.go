package engine_test

import (
	"fmt"

	"sabot/card"
	"sabot/engine"
	"sabot/rules"
)

// A round at the Casinò di Venezia with a forced shoe: Ana holds box 1, Ben
// backs her. The dealer shows an Ace: Ben insures alone (VE-15); Ana stands
// on 19; the dealer draws a King: blackjack.
func Example() {
	r := engine.New(rules.MustLookup("venice"))
	r.Reset(engine.NewForced(card.MustParseList("TS AH 9D KC")))
	r.PlaceBet("ana", 1, 100)
	r.PlaceBet("ben", 1, 50)
	r.Start()

	fmt.Println(r.Phase())
	for _, a := range r.LegalActions(nil) {
		fmt.Println(" ", a)
	}
	r.Act(engine.Action{Kind: engine.Insure, Player: "ben", Box: 1, Hand: 1, Stake: 25})
	r.Act(engine.Action{Kind: engine.Close})
	if err := r.Act(engine.Action{Kind: engine.Hit, Player: "ben", Box: 1, Hand: 1}); err != nil {
		fmt.Println(err)
	}
	r.Act(engine.Action{Kind: engine.Stand, Player: "ana", Box: 1, Hand: 1})

	fmt.Println(card.Format(r.Dealer().Cards()), r.Dealer().Total())
	for _, b := range r.Bets() {
		fmt.Printf("%s %s %d %s %d\n", b.Player, b.Kind, b.Stake, b.Result, b.Net)
	}
	// Output:
	// insurance
	//   ana box 1 hand 1 insure 50
	//   ben box 1 hand 1 insure 25
	//   close
	// ben box 1 hand 1 may not hit: decisions for box 1 are its holder's, ana's (VE-03)
	// AH KC 21
	// ana main 100 lose -100
	// ben main 50 lose -50
	// ben insurance 25 win 50
}
