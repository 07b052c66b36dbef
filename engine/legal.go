package engine

// LegalActions appends to dst every decision Act would accept now and
// returns it. Stakes are the defaults (Insure: the largest allowed); Close is
// listed while an optional window is open. With a dst of enough capacity it
// allocates nothing.
func (r *Round) LegalActions(dst []Action) []Action {
	try := func(a Action) {
		if r.check(a, false) == nil {
			dst = append(dst, a)
		}
	}
	switch r.phase {
	case ChallengeWindow:
		for i := range r.bets {
			b := &r.bets[i]
			if b.Kind == MainBet || b.Kind == SplitBet {
				try(Action{Kind: Challenge, Player: b.Player, Box: b.Box, Hand: b.Hand})
			}
		}
		try(Action{Kind: Close})
	case InsuranceWindow:
		for i := range r.bets {
			b := &r.bets[i]
			if b.Kind == MainBet {
				try(Action{Kind: Insure, Player: b.Player, Box: b.Box, Hand: 1, Stake: b.Stake / 2})
				try(Action{Kind: EvenMoney, Player: b.Player, Box: b.Box, Hand: 1})
			}
		}
		try(Action{Kind: Close})
	case FollowWindow:
		boxNo, hand := int(r.order[r.cur]), r.curHand+1
		for i := range r.bets {
			b := &r.bets[i]
			if b.Box == boxNo && b.Hand == hand {
				try(Action{Kind: r.followKind, Player: b.Player, Box: boxNo, Hand: hand})
			}
		}
		try(Action{Kind: Close})
	case AceChoice:
		boxNo, hand := int(r.order[r.cur]), r.curHand+1
		holder := r.boxes[boxNo].holder
		try(Action{Kind: Declare, Player: holder, Box: boxNo, Hand: hand, Value: 1})
		try(Action{Kind: Declare, Player: holder, Box: boxNo, Hand: hand, Value: 11})
		try(Action{Kind: Close})
	case Playing:
		boxNo, hand := int(r.order[r.cur]), r.curHand+1
		holder := r.boxes[boxNo].holder
		for k := Hit; k <= Surrender; k++ {
			try(Action{Kind: k, Player: holder, Box: boxNo, Hand: hand})
		}
		try(Action{Kind: Declare, Player: holder, Box: boxNo, Hand: hand, Value: 1})
		try(Action{Kind: Declare, Player: holder, Box: boxNo, Hand: hand, Value: 11})
		if r.bankFirst || r.skipped[0] != 0 { // AR-23 (f), item 9 only: nothing to check on the simulator's path
			try(Action{Kind: Withdraw, Player: holder, Box: boxNo, Hand: hand})
		}
		if r.insuranceOpen() { // ES-11: open until the first third card
			for i := range r.bets {
				if b := &r.bets[i]; b.Kind == MainBet {
					try(Action{Kind: Insure, Player: b.Player, Box: b.Box, Hand: 1, Stake: b.Stake / 2})
					try(Action{Kind: EvenMoney, Player: b.Player, Box: b.Box, Hand: 1})
				}
			}
		}
	}
	return dst
}
