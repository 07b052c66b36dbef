package report

import (
	"context"
	"slices"

	"sabot"
	"sabot/card"
)

// The shoe as the players saw it: what had come out of it, face up, before
// each round. A player sees every card of a round by its end (the hole
// card and a face-down double are turned at the settlement); he never sees
// the burned cards, but sees how many cards are out (the discard tray).

// shoeKey names one shoe of one table.
type shoeKey struct {
	table int64
	shoe  int
}

// seenShoe is one shoe's history: the cards seen before each of its
// rounds, and how many cards (burns included) were out at its deal.
type seenShoe struct {
	cards  []card.Card // every round's cards, in the order of the rounds
	before map[int]int // round → len(cards) before it
	pos    map[int]int // round → cards out of the shoe at its deal (deal's shoe_pos)
	deals  map[int]*dealPayload
}

// seen returns the cards seen before a round of the shoe.
func (s *seenShoe) seen(round int) []card.Card { return s.cards[:s.before[round]] }

// shoes reads and keeps the shoes a report needs.
type shoes struct {
	src   Source
	m     map[shoeKey]*seenShoe
	round map[[2]int64]shoeKey // (table, round) → its shoe
}

func newShoes(src Source) *shoes {
	return &shoes{src: src, m: map[shoeKey]*seenShoe{}, round: map[[2]int64]shoeKey{}}
}

// of returns the shoe a round of a table was dealt from, and its history.
func (s *shoes) of(ctx context.Context, table int64, round int) (*seenShoe, error) {
	k, ok := s.round[[2]int64{table, int64(round)}]
	if !ok {
		deals, err := s.src.Find(ctx, sabot.LogQuery{Kinds: []string{sabot.LogDeal}, TableID: table, FromRound: int64(round), ToRound: int64(round)})
		if err != nil || len(deals) == 0 {
			return nil, err
		}
		var d dealPayload
		if err := decode(deals[len(deals)-1], &d); err != nil {
			return nil, err
		}
		k = shoeKey{table, d.Shoe}
	}
	if h := s.m[k]; h != nil {
		return h, nil
	}
	h, err := s.load(ctx, k)
	if err != nil {
		return nil, err
	}
	s.m[k] = h
	return h, nil
}

// load reads a shoe's deals (the index log_shoe) and its rounds' closing
// records (log_round).
func (s *shoes) load(ctx context.Context, k shoeKey) (*seenShoe, error) {
	h := &seenShoe{before: map[int]int{}, pos: map[int]int{}, deals: map[int]*dealPayload{}}
	deals, err := s.src.Find(ctx, sabot.LogQuery{Kinds: []string{sabot.LogDeal}, TableID: k.table, Shoe: int64(k.shoe)})
	if err != nil || len(deals) == 0 {
		return h, err
	}
	var rounds []int
	for _, r := range deals {
		var d dealPayload
		if err := decode(r, &d); err != nil {
			return nil, err
		}
		h.pos[d.Round], h.deals[d.Round] = d.ShoePos, &d
		s.round[[2]int64{k.table, int64(d.Round)}] = k
		rounds = append(rounds, d.Round)
	}
	slices.Sort(rounds)
	closed, err := s.src.Find(ctx, sabot.LogQuery{Kinds: []string{sabot.LogSettle, sabot.LogVoid}, TableID: k.table,
		FromRound: int64(rounds[0]), ToRound: int64(rounds[len(rounds)-1])})
	if err != nil {
		return nil, err
	}
	cards := map[int][]card.Card{}
	for _, r := range closed {
		var st settlement
		if err := decode(r, &st); err != nil {
			return nil, err
		}
		cards[st.Round] = st.Record.Cards
	}
	for _, n := range rounds {
		h.before[n] = len(h.cards)
		h.cards = append(h.cards, cards[n]...)
	}
	return h, nil
}
