package table

import (
	"encoding/hex"
	"errors"
	"fmt"

	"sabot/card"
	"sabot/engine"
	"sabot/rules"
	"sabot/shoe"
)

// ErrSnapshot is wrapped by Restore's refusal of a snapshot that does not
// fit the profile or is not a state a table can be in.
var ErrSnapshot = errors.New("invalid table snapshot")

// Snapshot is a table's state between rounds: everything that determines
// what the table does next, so that a table restored from it deals, settles,
// reshuffles and rotates the bank exactly as the original would. It
// round-trips through encoding/json. A server writes one between rounds so
// that, on start, it restores the table and replays only the records after.
//
// The round is not in it: a snapshot is taken with no round in play, and the
// table restored from it has a fresh round in the Betting phase (Round
// returns it; its Record is empty until the next deal). The Seeds func is not
// state either: the caller sets it after Restore, as after New.
type Snapshot struct {
	// Seats[box] is the holder of box (1 to Boxes), "" when free; Seats[0]
	// is unused and "".
	Seats       []string           `json:"seats"`
	Bets        []engine.PlacedBet `json:"bets"`   // placed for the next round, in order
	Claims      []PendingClaim     `json:"claims"` // not yet resolved (AR-21), in order
	ShoeStarted bool               `json:"shoe_started"`
	ShoeNo      int                `json:"shoe_no"`
	RoundNo     int                `json:"round_no"`
	LastRound   bool               `json:"last_round"` // EG-04: the next deal reshuffles
	Forced      bool               `json:"forced"`     // the last round was dealt from a forced order
	Bank        string             `json:"bank"`       // FAM-02: "" the house
	BankRounds  int                `json:"bank_rounds"`
	Seed        string             `json:"seed"` // the current shoe's seed, 64 hex digits ("" for a physical shoe)
	Shoe        shoe.State         `json:"shoe"`
	// Physical is the physical shoe of a table dealt by hand (NewPhysical);
	// it has no seed and no shuffled shoe.
	Physical *PhysicalState `json:"physical,omitempty"`
	// What the current shoe waits for before its first deal, and who took
	// its steps (steps.go; AR-07, EG-02): absent in a snapshot of a shoe
	// with no steps.
	Await        Step   `json:"await,omitempty"`
	AuthorisedBy string `json:"authorised_by,omitempty"`
	CutBy        string `json:"cut_by,omitempty"`
}

// PendingClaim is a claim for a free box not yet resolved (AR-21).
type PendingClaim struct {
	Player string `json:"player"`
	Box    int    `json:"box"`
	At     int64  `json:"at"` // when the player asked, in the caller's clock
}

// Snapshot returns the table's state between rounds. It refuses while a
// round is in play, and when a round is over but not yet Finished (its
// cards not collected, the bank not rotated): the snapshot would lose that.
func (t *Table) Snapshot() (Snapshot, error) {
	if t.inRound() {
		return Snapshot{}, t.refuse("", "no snapshot while a round is in play")
	}
	if t.unfinished && t.round.Phase() == engine.Done { // (Reconfigure forgets the round)
		return Snapshot{}, t.refuse("", "no snapshot before the round over is finished")
	}
	sn := Snapshot{
		Seats:        append([]string(nil), t.seats...),
		Bets:         append([]engine.PlacedBet{}, t.bets...),
		Claims:       make([]PendingClaim, 0, len(t.claims)),
		ShoeStarted:  t.shoeStarted,
		ShoeNo:       t.shoeNo,
		RoundNo:      t.roundNo,
		LastRound:    t.lastRound,
		Forced:       t.forced,
		Bank:         t.bank,
		BankRounds:   t.bankRounds,
		Await:        t.await,
		AuthorisedBy: t.authorisedBy,
		CutBy:        t.cutBy,
	}
	if t.phys != nil {
		sn.Physical = &PhysicalState{Seen: map[card.Card]int{}, CutOut: t.phys.cutOut}
		for c, n := range t.phys.seen {
			if n > 0 {
				sn.Physical.Seen[c] = n
			}
		}
	} else {
		sn.Seed, sn.Shoe = hex.EncodeToString(t.seed[:]), t.shoe.State()
	}
	for _, c := range t.claims {
		sn.Claims = append(sn.Claims, PendingClaim{c.player, c.box, c.at})
	}
	return sn, nil
}

// Restore returns the table whose Snapshot is sn, for profile p: the profile
// the table was made with. Its round is a fresh engine.New(p) round in the
// Betting phase; its Seeds is shoe.RandomSeed until the caller sets it.
// Restore refuses, with an error wrapping ErrSnapshot, a snapshot that does
// not fit the profile (seats, decks, collection, stakes) or is not a state
// a table can be in.
func Restore(p *rules.Profile, sn Snapshot) (*Table, error) {
	if err := p.Validate(); err != nil {
		return nil, err
	}
	bad := func(format string, a ...any) error {
		return fmt.Errorf("%w: %s", ErrSnapshot, fmt.Sprintf(format, a...))
	}
	if len(sn.Seats) != p.Boxes+1 || sn.Seats[0] != "" {
		return nil, bad("%d seats for %d boxes: want %d, the first unused", len(sn.Seats), p.Boxes, p.Boxes+1)
	}
	type key struct {
		player string
		box    int
	}
	seen := map[key]bool{}
	for _, b := range sn.Bets {
		switch {
		case b.Player == "":
			return nil, bad("a bet without a player")
		case b.Box < 1 || b.Box > p.Boxes:
			return nil, bad("%s bets on box %d; the table has boxes 1 to %d", b.Player, b.Box, p.Boxes)
		case p.StakeBar(b.Stake, rules.Dealt) != rules.NoBar:
			return nil, bad("%s bets %d on box %d; a stake must be between %d and %d", b.Player, b.Stake, b.Box, p.MinBet, p.MaxBet)
		case seen[key{b.Player, b.Box}]:
			return nil, bad("%s bets twice on box %d", b.Player, b.Box)
		}
		seen[key{b.Player, b.Box}] = true
	}
	for _, c := range sn.Claims {
		if c.Player == "" || c.Box < 1 || c.Box > p.Boxes {
			return nil, bad("a claim by %q for box %d; the table has boxes 1 to %d", c.Player, c.Box, p.Boxes)
		}
	}
	switch {
	case sn.ShoeNo < 1:
		return nil, bad("shoe number %d", sn.ShoeNo)
	case sn.RoundNo < 0:
		return nil, bad("round number %d", sn.RoundNo)
	case sn.BankRounds < 0:
		return nil, bad("%d bank rounds", sn.BankRounds)
	}
	var seed shoe.Seed
	var s *shoe.Shoe
	var phys *physical
	if sn.Physical != nil {
		if sn.Forced {
			return nil, bad("a forced round at a table dealt from a physical shoe")
		}
		phys = &physical{seen: map[card.Card]int{}, cutOut: sn.Physical.CutOut, cutAt: -1}
		for c, n := range sn.Physical.Seen {
			if !c.Valid() || n < 0 || n > p.Decks {
				return nil, bad("a physical shoe that held %d of %v; it has %d decks", n, c, p.Decks)
			}
			phys.seen[c] = n
		}
	} else {
		b, err := hex.DecodeString(sn.Seed)
		if err != nil || len(b) != len(seed) {
			return nil, bad("seed %q: want %d hex digits", sn.Seed, 2*len(seed))
		}
		copy(seed[:], b)
		switch st := sn.Shoe; {
		case st.Forced:
			return nil, bad("a forced shoe: a table deals from a shuffled one")
		case st.Decks != p.Decks:
			return nil, bad("a shoe of %d decks; the profile has %d", st.Decks, p.Decks)
		case st.Collected != p.ShoeProcedure().Collected:
			return nil, bad("cards collected in mode %d; the profile says %d (FAM-03)", st.Collected, p.ShoeProcedure().Collected)
		}
		if s, err = shoe.Restore(sn.Shoe); err != nil {
			return nil, fmt.Errorf("%w: %w", ErrSnapshot, err)
		}
	}
	t := &Table{
		p:            p,
		shoe:         s,
		round:        engine.New(p),
		seats:        append([]string(nil), sn.Seats...),
		bets:         append([]engine.PlacedBet(nil), sn.Bets...),
		shoeStarted:  sn.ShoeStarted,
		shoeNo:       sn.ShoeNo,
		roundNo:      sn.RoundNo,
		lastRound:    sn.LastRound,
		forced:       sn.Forced,
		bank:         sn.Bank,
		bankRounds:   sn.BankRounds,
		Seeds:        shoe.RandomSeed,
		seed:         seed,
		phys:         phys,
		await:        sn.Await,
		authorisedBy: sn.AuthorisedBy,
		cutBy:        sn.CutBy,
	}
	for _, c := range sn.Claims {
		t.claims = append(t.claims, claim{c.Player, c.Box, c.At})
	}
	return t, nil
}
