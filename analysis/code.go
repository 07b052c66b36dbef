package analysis

import (
	"fmt"
	"strings"
)

// Action is a player's decision.
type Action uint8

// The actions of a strategy card.
const (
	Stand Action = iota + 1
	Hit
	Double
	Split
	Surrender
)

var actionLetter = [...]string{"", "S", "H", "D", "P", "R"}

func (a Action) String() string {
	if int(a) < len(actionLetter) {
		return actionLetter[a]
	}
	return "?"
}

// Code is one cell of a strategy card: an action, what to do where it is not
// allowed (for a double or a surrender: stand or hit, or split for Rp), and,
// for a hand that must declare its Ace (AR-11), the value to declare first.
// Its text is the action code of the CSV format (docs/strategy-csv.md):
// H, S, Dh, Ds, P, Rh, Rs, Rp, followed by @1 or @11 for a declaration.
type Code struct {
	Act     Action
	Else    Action
	Declare uint8
}

func (c Code) String() string {
	s := c.Act.String()
	if (c.Act == Double || c.Act == Surrender) && c.Else != 0 {
		s += strings.ToLower(c.Else.String())
	}
	if c.Declare != 0 {
		s += fmt.Sprintf("@%d", c.Declare)
	}
	return s
}

// ParseCode reads an action code.
func ParseCode(s string) (Code, error) {
	var c Code
	body, decl, ok := strings.Cut(s, "@")
	if ok {
		switch decl {
		case "1":
			c.Declare = 1
		case "11":
			c.Declare = 11
		default:
			return Code{}, fmt.Errorf("action code %q: declare @1 or @11", s)
		}
	}
	switch body {
	case "S":
		c.Act = Stand
	case "H":
		c.Act = Hit
	case "P":
		c.Act = Split
	case "Dh", "Ds", "Rh", "Rs", "Rp":
		c.Act = map[byte]Action{'D': Double, 'R': Surrender}[body[0]]
		c.Else = map[byte]Action{'h': Hit, 's': Stand, 'p': Split}[body[1]]
		if c.Act == Double && c.Else == Split {
			return Code{}, fmt.Errorf("unknown action code %q", s)
		}
	default:
		return Code{}, fmt.Errorf("unknown action code %q (want H, S, Dh, Ds, P, Rh, Rs or Rp, optionally @1 or @11)", s)
	}
	return c, nil
}
