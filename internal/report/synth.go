package report

import (
	"encoding/json"
	"fmt"
	"math/rand/v2"
	"slices"
	"time"

	"sabot"
	"sabot/card"
	"sabot/engine"
	"sabot/internal/tablelog"
	"sabot/money"
	"sabot/rules"
	"sabot/shoe"
)

// Synth makes a plausible log to measure the reports on (`sabot report
// synth`, docs/pit.md): rounds played through the engine
// from shuffled shoes at the tables given, by players who sit a session
// at a time, some betting flat and some ramping their bet with the Hi-Lo
// count (HiLoRampUnits), all hitting below 17. Each round is a deal record
// and a settle record with the fields the reports read (the server writes
// more, and bets and actions between, which no report reads), and its
// players' nets for the ledger. It makes records; it writes nothing.
type Synth struct {
	// Tables are the tables to deal at (created, with IDs).
	Tables []*sabot.Table
	// Players are the players' names; every Counters-th one counts (0:
	// none).
	Players  []string
	Counters int
	// From is the time of the first deal; Every the time between two
	// rounds of a table (a table's rounds are dealt one after the other,
	// the tables side by side).
	From  time.Time
	Every time.Duration
	// Unit is the flat bet and the ramp's unit.
	Unit money.Amount
	Seed uint64

	rng      *rand.Rand
	counters map[string]bool
	tables   []*synthTable
	next     int // the table that deals next
}

type synthTable struct {
	t       *sabot.Table
	p       *rules.Profile
	round   int
	shoeNo  int
	shoe    *shoe.Shoe
	rc      int // the Hi-Lo running count of the cards seen in the shoe
	seated  []string
	session int // rounds left in the seated players' session
	at      time.Time
}

// SynthRound is one round made: its two records and the nets of its
// players and of the house (the settlement's postings).
type SynthRound struct {
	Deal, Settle *sabot.LogRecord
	Net          map[string]money.Amount
	House        money.Amount
}

// Next makes the next round, at the tables in turn.
func (s *Synth) Next() (*SynthRound, error) {
	if s.rng == nil {
		if len(s.Tables) == 0 || len(s.Players) == 0 {
			return nil, fmt.Errorf("synth: no tables or no players")
		}
		s.rng = rand.New(rand.NewPCG(s.Seed, 29))
		s.counters = map[string]bool{}
		for i, p := range s.Players {
			s.counters[p] = s.Counters > 0 && i%s.Counters == 0
		}
		for i, t := range s.Tables {
			p, err := sabot.ProfileOf(t.Profile, t.Options)
			if err != nil {
				return nil, err
			}
			// The tables start a little apart, so that their records
			// interleave.
			s.tables = append(s.tables, &synthTable{t: t, p: p, at: s.From.Add(time.Duration(i) * s.Every / time.Duration(len(s.Tables)))})
		}
	}
	st := s.tables[s.next]
	s.next = (s.next + 1) % len(s.tables)
	return s.round(st)
}

func (s *Synth) round(st *synthTable) (*SynthRound, error) {
	if st.shoe == nil {
		st.shoeNo++
		st.shoe = shoe.New(st.p.Decks, shoe.SeedFromUint64(s.Seed<<24^uint64(st.t.ID)<<40^uint64(st.shoeNo)))
		if _, err := st.shoe.Prepare(st.p.ShoeProcedure(), 0); err != nil {
			return nil, err
		}
		st.rc = 0
	}
	if st.session <= 0 {
		// A new session: one to three players for 30 to 300 rounds.
		st.seated = st.seated[:0]
		// (Distinct players, each a box: a flat bettor holding two boxes
		// for a session and one for another would change his stake for
		// runs of rounds, along which the count runs too.)
		for range 1 + s.rng.IntN(3) {
			if p := s.Players[s.rng.IntN(len(s.Players))]; !slices.Contains(st.seated, p) {
				st.seated = append(st.seated, p)
			}
		}
		st.session = 30 + s.rng.IntN(271)
	}
	st.session--
	st.round++
	pos := st.shoe.Pos()
	tc := float64(st.rc) / max(float64(st.p.Decks*52-pos)/52, 0.5)
	r := engine.New(st.p)
	r.Reset(st.shoe)
	var bets []engine.PlacedBet
	for i, name := range st.seated {
		if i >= st.p.Boxes {
			break
		}
		units := int64(1)
		if s.counters[name] {
			units = HiLoRampUnits(tc)
		}
		b := engine.PlacedBet{Player: name, Box: i + 1, Stake: s.Unit * money.Amount(units)}
		if err := r.PlaceBet(b.Player, b.Box, b.Stake); err != nil {
			return nil, err
		}
		bets = append(bets, b)
	}
	if err := r.Start(); err != nil {
		return nil, err
	}
	for i := 0; r.Phase() != engine.Done; i++ {
		if i > 200 {
			return nil, fmt.Errorf("synth: table %d round %d does not end", st.t.ID, st.round)
		}
		a := engine.Action{Kind: engine.Close}
		if r.Phase() == engine.Playing {
			box, hand := r.Current()
			player := r.Holder(box)
			a = engine.Action{Kind: engine.Stand, Player: player, Box: box, Hand: hand}
			if r.Hands(box)[hand-1].Total() < 17 {
				a.Kind = engine.Hit
			}
			if !r.Legal(a) {
				for _, x := range r.LegalActions(nil) {
					if !x.Kind.House() && x.Kind != engine.Close {
						a = x
						break
					}
				}
			}
		}
		if err := r.Act(a); err != nil {
			return nil, fmt.Errorf("synth: table %d round %d: %w", st.t.ID, st.round, err)
		}
	}
	rec := r.Record()
	for _, c := range rec.Cards {
		st.rc += CountHiLo.Tags[c.Value()]
	}
	out := &SynthRound{Net: map[string]money.Amount{}}
	set := tablelog.SettleRead{Round: st.round, Record: rec}
	for _, b := range r.Bets() {
		set.Bets = append(set.Bets, tablelog.BetLine{Player: b.Player, Box: b.Box, Hand: b.Hand, Kind: b.Kind.String(), Stake: b.Stake, Result: b.Result.String(), Net: b.Net})
		out.Net[b.Player] += b.Net
		out.House -= b.Net
	}
	set.House = out.House
	for _, box := range r.Boxes() {
		for i, h := range r.Hands(box) {
			set.Hands = append(set.Hands, tablelog.HandCards{Box: box, Hand: i + 1, Cards: append([]card.Card(nil), h.Cards()...)})
		}
	}
	deal, err := json.Marshal(tablelog.DealBets{Round: st.round, Shoe: st.shoeNo, ShoePos: pos, Bets: bets})
	if err != nil {
		return nil, err
	}
	settle, err := json.Marshal(set)
	if err != nil {
		return nil, err
	}
	at := st.at
	st.at = st.at.Add(s.Every)
	// A round lasts most of the time between two deals.
	out.Deal = &sabot.LogRecord{TableID: st.t.ID, Kind: sabot.LogDeal, RoundNo: int64(st.round), ShoeNo: int64(st.shoeNo), Created: at, Payload: deal}
	out.Settle = &sabot.LogRecord{TableID: st.t.ID, Kind: sabot.LogSettle, RoundNo: int64(st.round), Created: at.Add(s.Every * 3 / 4), Payload: settle}
	if r.LastRound() {
		st.shoe = nil
	}
	return out, nil
}
