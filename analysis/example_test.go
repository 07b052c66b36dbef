package analysis_test

import (
	"context"
	"fmt"
	"os"

	"sabot/analysis"
	"sabot/rules"
)

// The house edge of the reference game: 6 decks, S17, DAS, resplit to four
// hands, peek — about 0.40 % for basic strategy.
func ExampleAnalyze() {
	p := rules.MustLookup("vegas-s17")
	r, err := analysis.Analyze(context.Background(), p, analysis.Options{})
	if err != nil {
		panic(err)
	}
	fmt.Printf("house edge %.2f%%, composition-dependent %.2f%%\n", 100*r.TD.HouseEdge, 100*r.CD.HouseEdge)
	fmt.Printf("P(dealer blackjack | Ace up) = %.6f = 96/311\n", r.Dealer[0].All[6])
	// Output:
	// house edge 0.40%, composition-dependent 0.40%
	// P(dealer blackjack | Ace up) = 0.308682 = 96/311
}

// The first rows of the basic strategy card in the CSV format the
// simulator reads.
func ExampleStrategyCard_WriteCSV() {
	r, err := analysis.Analyze(context.Background(), rules.MustLookup("vegas-s17"), analysis.Options{})
	if err != nil {
		panic(err)
	}
	card := *r.Basic
	card.Rows = card.Rows[:1]
	card.WriteCSV(os.Stdout)
	// Output:
	// kind,player,dealer,action
	// hard,4,2,H
	// hard,4,3,H
	// hard,4,4,H
	// hard,4,5,H
	// hard,4,6,H
	// hard,4,7,H
	// hard,4,8,H
	// hard,4,9,H
	// hard,4,T,H
	// hard,4,A,H
}
