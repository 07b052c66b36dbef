package rules

import "sabot/money"

// Result is how a bet ended.
type Result uint8

// The results of the scenario contract.
const (
	Pending Result = iota
	Win
	Blackjack
	Push
	Lose
	Bust
	EvenMoneyPaid
	Void
	Surrendered
)

var resultNames = [...]string{"pending", "win", "blackjack", "push", "lose", "bust", "even-money", "void", "surrender"}

func (r Result) String() string {
	if int(r) < len(resultNames) {
		return resultNames[r]
	}
	return "?"
}

// MarshalText implements encoding.TextMarshaler.
func (r Result) MarshalText() ([]byte, error) { return []byte(r.String()), nil }

// PlayerHand is what settlement needs to know of a player's hand.
type PlayerHand struct {
	Count       Count
	Split       bool // the hand was made by splitting
	SplitAces   bool // by splitting Aces (split_blackjack=aces-even pays its blackjack 1:1, AR-19)
	Surrendered bool
}

// DealerHand is what settlement needs to know of the dealer's hand.
type DealerHand struct {
	Count Count
}

// Blackjack reports whether the dealer's first two cards make 21.
func (d DealerHand) Blackjack() bool { return d.Count.TwoCard21() }

// Outcome is the settlement of one hand: its result and what each unit of
// stake on it wins (Num/Den > 0), pushes (0) or loses (Num/Den < 0).
type Outcome struct {
	Result   Result
	Num, Den int64
	// OriginalOnly: a dealer blackjack took only the original stake; the
	// stake of a double or of a split hand is returned (dealer_blackjack_takes
	// = original).
	OriginalOnly bool
}

// IsBlackjack reports whether a player's hand ranks as a blackjack: an
// unsplit two-card 21, or a split one where split_blackjack is
// blackjack-even or aces-even (AR-19).
func (p *Profile) IsBlackjack(h PlayerHand) bool {
	return h.Count.TwoCard21() && (!h.Split || p.SplitBlackjack != Split21)
}

// Settle applies the settlement table (AR-15, AR-16, ES-04, ES-06, ES-07,
// ES-12, VE-09, VE-10, VE-15, PON-01, PON-02) to one player hand.
func (p *Profile) Settle(h PlayerHand, d DealerHand) Outcome {
	pc := h.Count
	dealerBJ := d.Blackjack()
	if h.Surrendered {
		if p.Surrender == LateSurrender && dealerBJ {
			return Outcome{Result: Lose, Num: -1, Den: 1}
		}
		return Outcome{Result: Surrendered, Num: -1, Den: 2}
	}
	if pc.Bust() { // ES-04: lost even if the dealer busts
		return Outcome{Result: Bust, Num: -1, Den: 1}
	}
	if p.ThreeSevens && pc.N == 3 && pc.Sevens == 3 { // PON-02
		return Outcome{Result: Win, Num: 3, Den: 1}
	}
	playerBJ := p.IsBlackjack(h)
	if dealerBJ {
		if playerBJ { // AR-15, ES-07, VE-10: blackjack pushes blackjack
			return Outcome{Result: Push, Num: 0, Den: 1}
		}
		return Outcome{Result: Lose, Num: -1, Den: 1, OriginalOnly: p.DealerBlackjackTakes == TakesOriginal}
	}
	if playerBJ {
		// AR-19: a split hand's blackjack is paid even money; by the
		// letter (aces-even), only on split Aces («APERTURA DE "ASES"»).
		if h.Split && (p.SplitBlackjack == SplitBlackjackEven || h.SplitAces) {
			return Outcome{Result: Blackjack, Num: 1, Den: 1}
		}
		return Outcome{Result: Blackjack, Num: p.BlackjackPays.Num, Den: p.BlackjackPays.Den} // AR-16
	}
	pt, dt := pc.Total(), d.Count.Total()
	if p.FiveCard21 && pc.N == 5 && pt == 21 { // PON-01
		if dt == 21 && d.Count.N == 5 {
			return Outcome{Result: Push, Num: 0, Den: 1}
		}
		return Outcome{Result: Win, Num: 2, Den: 1}
	}
	switch {
	case dt > 21, pt > dt:
		return Outcome{Result: Win, Num: 1, Den: 1}
	case pt == dt:
		return Outcome{Result: Push, Num: 0, Den: 1}
	}
	return Outcome{Result: Lose, Num: -1, Den: 1}
}

// Net is what a stake nets under an outcome, in minor units. A win is rounded
// down to the table's unit; a partial loss (surrender) returns the part
// rounded down.
func (p *Profile) Net(stake money.Amount, o Outcome) money.Amount {
	switch {
	case o.Num > 0:
		return p.roundDown(stake * money.Amount(o.Num) / money.Amount(o.Den))
	case o.Num == 0:
		return 0
	}
	kept := stake * money.Amount(o.Den+o.Num) / money.Amount(o.Den)
	return -(stake - p.roundDown(kept))
}

func (p *Profile) roundDown(x money.Amount) money.Amount {
	if p.PayoutUnit > 1 {
		return x - x%p.PayoutUnit
	}
	return x
}

// DoubleCounts is the part of a double's stake that plays; the rest is
// returned, win or lose. Where double_for_less lets a double stake more
// than the stake it doubles (base), the excess does not play (VE-19: «in
// caso di vincita, l'importo eccedente la somma iniziale non sarà pagato,
// mentre se perdente verrà restituito»). Where max_bet_caps_double, it plays
// only up to the maximum (VE-21: «la vincita eccedente realizzata superando
// il massimo consentito non sarà pagata e la differenza della puntata
// restituita al cliente»): before is the stakes the maximum binds together
// with it, the bettor's own on the hand (max_bet_scope=bet) or every
// bettor's on the hand with the doubles counted before it (box).
func (p *Profile) DoubleCounts(double, base, before money.Amount) money.Amount {
	c := double
	if p.DoubleForLess {
		c = min(c, base)
	}
	if p.MaxCapsDouble {
		c = min(c, max(p.MaxBet-before, 0))
	}
	return c
}

// Pays returns what a winning side bet at num:1 nets on stake, rounded down
// to the table's unit (insurance 2:1, the challenge 2:1).
func (p *Profile) Pays(stake money.Amount, num int64) money.Amount {
	return p.roundDown(stake * money.Amount(num))
}

// LosersFirst reports whether the dealer takes every losing bet before he
// pays a winner: the Argentine order (000, the game's course, item 9: «el
// Pagador procederá a retirar las apuestas que pierden dejando las cartas en
// su respectivo Casillero para un mejor control. Posteriormente pagará las
// apuestas premiadas»; RULES.md's AR-15). Else he settles box by box, right
// to left (VE-09: «procedendo da destra verso sinistra, postazione per
// postazione, paga le combinazioni superiori alla sua, ritira quelle
// inferiori»). A profile file keeps its base's regulation, and its order.
// The order changes no bet's result, only the order the events tell them.
func (p *Profile) LosersFirst() bool { return p.Regulation == "argentina" }

// BestPayout is the most a stake on a hand can win, as a ratio: a
// blackjack (AR-16), 2:1 for a five-card 21 (PON-01), 3:1 for three sevens
// (PON-02), and 1:1 for any other win.
func (p *Profile) BestPayout() (num, den int64) {
	num, den = 1, 1
	better := func(n, d int64) {
		if n*den > num*d {
			num, den = n, d
		}
	}
	better(p.BlackjackPays.Num, p.BlackjackPays.Den)
	if p.FiveCard21 {
		better(2, 1)
	}
	if p.ThreeSevens {
		better(3, 1)
	}
	return num, den
}
