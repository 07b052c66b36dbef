package sim

import "flag"

// Long enables the long statistical checks: go test ./sim -long.
var Long = flag.Bool("long", false, "run the long statistical checks")
