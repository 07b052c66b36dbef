package play_test

import (
	"fmt"
	"strings"

	"sabot/play"
	"sabot/rules"
	"sabot/shoe"
)

// A session read from a pipe: deal, hit, and the round is over. The seed
// fixes the shoe, so the session is the same every time.
func ExampleSession_Run() {
	s, err := play.New(play.Config{
		Profile: rules.MustLookup("vegas-s17"),
		Seed:    shoe.SeedFromUint64(2),
		Rounds:  1,
		Echo:    true, // show each input line after its prompt, as a terminal would
	})
	if err != nil {
		panic(err)
	}
	var out strings.Builder
	sum, err := s.Run(strings.NewReader("\nh\n"), &out)
	if err != nil {
		panic(err)
	}
	for _, line := range strings.Split(strings.TrimSpace(out.String()), "\n") {
		fmt.Println(strings.TrimRight(line, " "))
	}
	fmt.Printf("%d %d\n", sum.Rounds, sum.Net)
	// Output:
	// sabot play: vegas-s17. Reference: 6 decks, peek, dealer stands on soft 17, double any two, DAS, resplit to 4, Aces split once with one card.
	// You play box 1 at 10.00 a box, with a bankroll of 1000.00. Money shows in units with two decimals; type help for the commands.
	// The table minimum is 5.00 a box; type amounts as the table shows them: bet 25 is 25.00.
	//
	// A new shoe: 6 decks shuffled and cut; the cut card goes 78 cards from the end; 1 card burned.
	//
	// Bankroll 1000.00; 10.00 on box 1. Enter deals; or bet N, box 1,3, help, quit.
	// >
	//
	// Round 1: 10.00 staked on box 1.
	// Box 1: AC (soft 11)
	// Dealer: TC (10)
	// Box 1: AC 3D (soft 14)
	// Dealer: TC ?? (10)
	// Box 1: AC 3D (soft 14) against the dealer's TC. [h]it  [s]tand  [d]ouble 10.00
	// > h
	// Box 1: AC 3D 7S (21)
	// Dealer turns the hole card: TC JH (20)
	// Box 1: AC 3D 7S (21): win +10.00
	// Round 1: net +10.00; bankroll 1010.00.
	//
	// The session ends after 1 round.
	//
	// Session over: 1 round, net +10.00, biggest win +10.00; bankroll 1010.00 (you sat down with 1000.00).
	// 1 1000
}
