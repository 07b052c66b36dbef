package report

import (
	"context"
	"slices"

	"sabot"
	"sabot/card"
	"sabot/engine"
	"sabot/internal/tablelog"
)

// The shoe as the players saw it: what had come out of it, face up, before
// each round. A player sees every card of a round by its end (the hole
// card and a face-down double are turned at the settlement); he never sees
// the burned cards, but sees how many cards are out (the discard tray).

// seenShoe is one shoe's history: the cards seen before each of its
// rounds, and how many cards (burns included) were out at its deal; and
// each settled round's record (the decisions the advantage report reads).
type seenShoe struct {
	shoe    int
	cards   []card.Card // every round's cards, in the order of the rounds
	before  map[int]int // round → len(cards) before it
	pos     map[int]int // round → cards out of the shoe at its deal (deal's shoe_pos)
	records map[int]engine.Record
}

// seen returns the cards seen before a round of the shoe.
func (s *seenShoe) seen(round int) []card.Card { return s.cards[:s.before[round]] }

// shoes reads the shoes a report needs and keeps one a table: the last one
// asked. A report reads the period newest first, so each table's rounds
// come shoe after shoe, and a shoe left is not asked again: the memory is a
// shoe's cards a table, whatever the period.
type shoes struct {
	src Source
	cur map[int64]*seenShoe // table → its shoe last asked
}

func newShoes(src Source) *shoes {
	return &shoes{src: src, cur: map[int64]*seenShoe{}}
}

// of returns the shoe a round of a table was dealt from, and its history;
// nil if the round has no deal.
func (s *shoes) of(ctx context.Context, table int64, round int) (*seenShoe, error) {
	if h := s.cur[table]; h != nil {
		if _, ok := h.pos[round]; ok {
			return h, nil
		}
	}
	deals, err := s.src.Find(ctx, sabot.LogQuery{Kinds: []string{sabot.LogDeal}, TableID: table, FromRound: int64(round), ToRound: int64(round)})
	if err != nil || len(deals) == 0 {
		return nil, err
	}
	var d tablelog.DealBets
	if err := tablelog.Decode(deals[len(deals)-1], &d); err != nil {
		return nil, err
	}
	return s.in(ctx, table, d.Shoe)
}

// in returns a shoe of a table, its history.
func (s *shoes) in(ctx context.Context, table int64, shoe int) (*seenShoe, error) {
	if h := s.cur[table]; h != nil && h.shoe == shoe {
		return h, nil
	}
	h, err := s.load(ctx, table, shoe)
	if err != nil {
		return nil, err
	}
	s.cur[table] = h
	return h, nil
}

// load reads a shoe's deals (the index log_shoe) and its rounds' closing
// records (log_round).
func (s *shoes) load(ctx context.Context, table int64, shoe int) (*seenShoe, error) {
	h := &seenShoe{shoe: shoe, before: map[int]int{}, pos: map[int]int{}, records: map[int]engine.Record{}}
	deals, err := s.src.Find(ctx, sabot.LogQuery{Kinds: []string{sabot.LogDeal}, TableID: table, Shoe: int64(shoe)})
	if err != nil || len(deals) == 0 {
		return h, err
	}
	var rounds []int
	for _, r := range deals {
		var d tablelog.DealBets
		if err := tablelog.Decode(r, &d); err != nil {
			return nil, err
		}
		h.pos[d.Round] = d.ShoePos
		rounds = append(rounds, d.Round)
	}
	slices.Sort(rounds)
	closed, err := s.src.Find(ctx, sabot.LogQuery{Kinds: []string{sabot.LogSettle, sabot.LogVoid}, TableID: table,
		FromRound: int64(rounds[0]), ToRound: int64(rounds[len(rounds)-1])})
	if err != nil {
		return nil, err
	}
	cards := map[int][]card.Card{}
	for _, r := range closed {
		var st tablelog.SettleRead
		if err := tablelog.Decode(r, &st); err != nil {
			return nil, err
		}
		cards[st.Round] = st.Record.Cards
		if !st.Void {
			h.records[st.Round] = st.Record
		}
	}
	for _, n := range rounds {
		h.before[n] = len(h.cards)
		h.cards = append(h.cards, cards[n]...)
	}
	return h, nil
}
