// Command sabot is the casino blackjack system: forced-card scenario rounds,
// a terminal game, the rule profiles, exact analysis, simulation and the
// table server.
package main

import (
	"context"
	"os"
)

func main() {
	os.Exit(Run(context.Background(), os.Args[1:], os.Stdin, os.Stdout, os.Stderr))
}
