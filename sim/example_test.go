package sim_test

import (
	"context"
	"fmt"

	"sabot/rules"
	"sabot/sim"
)

// A house edge with a 95 % confidence interval: the textbook basic strategy
// on the reference six-deck game, dealt with its cut card.
func Example() {
	res, err := sim.Run(context.Background(), sim.Config{
		Profile:  rules.MustLookup("vegas-s17"),
		Strategy: sim.Textbook(false),
		Rounds:   200_000,
		Seed:     1,
	})
	if err != nil {
		panic(err)
	}
	fmt.Printf("%d rounds, EV per initial bet between %.1f %% and %.1f %%\n", res.Rounds, 100*res.CI95[0], 100*res.CI95[1])
	// Output: 200061 rounds, EV per initial bet between -1.2 % and -0.1 %
}
