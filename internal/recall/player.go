package recall

import (
	"context"
	"encoding/json"
	"time"

	"sabot"
	"sabot/internal/tablelog"
	"sabot/internal/wire"
	"sabot/money"
	"sabot/rules"
)

// Pages of a player's rounds (GET /api/me/rounds?limit=&before=).
const (
	DefaultRoundsPage = 50
	MaxRoundsPage     = 200
)

// PlayerRounds lists up to limit of the settled or void rounds a player bet
// in, the newest first, those closed before round before ("" : from the
// newest) (GLI-19 §4.14: a player recalls his own games). They are read on
// the store's index of each player's rounds: the cost follows the page, not
// the logs.
func PlayerRounds(ctx context.Context, st Log, u *sabot.User, before string, limit int) ([]wire.RoundSummary, error) {
	if limit < 1 || limit > MaxRoundsPage {
		return nil, sabot.Errorf(sabot.EINVALID, "a page of rounds is 1 to %d rounds, not %d", MaxRoundsPage, limit)
	}
	closing := []string{sabot.LogSettle, sabot.LogVoid}
	q := sabot.LogQuery{Kinds: closing, UserID: u.ID, Newest: true, Limit: limit}
	if before != "" {
		tid, no, err := ParseRoundID(before)
		if err != nil {
			return nil, err
		}
		at, err := st.Find(ctx, sabot.LogQuery{Kinds: closing, TableID: tid, FromRound: int64(no), ToRound: int64(no), Limit: 1})
		if err != nil {
			return nil, err
		}
		if len(at) == 0 {
			return nil, sabot.Errorf(sabot.EINVALID, "before=%s: no such round is closed", before)
		}
		q.Before = at[0]
	}
	recs, err := st.Find(ctx, q)
	if err != nil {
		return nil, err
	}
	tables := map[int64]*sabot.Table{}
	out := []wire.RoundSummary{}
	for _, r := range recs {
		t := tables[r.TableID]
		if t == nil {
			if t, err = st.TableByID(ctx, r.TableID); err != nil {
				return nil, err
			}
			tables[r.TableID] = t
		}
		var p struct { // of Settle, what a summary shows
			Void bool                    `json:"void"`
			Net  map[string]money.Amount `json:"net"`
		}
		if err := json.Unmarshal(r.Payload, &p); err != nil {
			return nil, sabot.Internal(err)
		}
		out = append(out, wire.RoundSummary{ID: RoundID(t.ID, int(r.RoundNo)), Table: t.ID, Name: t.Name, Profile: t.Profile,
			Test: t.TestMode, Void: p.Void, At: r.Created, Net: p.Net[u.Name]})
	}
	return out, nil
}

// HistoryRound is one round of a player's history at a table (GET
// /api/tables/{id}/history): the dealer's hand and the player's own bets,
// never another player's.
type HistoryRound struct {
	ID     string        `json:"id"`
	No     int           `json:"no"`
	At     time.Time     `json:"at"`
	Void   bool          `json:"void,omitempty"`
	Dealer HistoryDealer `json:"dealer"`
	Bets   []HistoryBet  `json:"bets"`
	Net    money.Amount  `json:"net"`
}

// HistoryDealer is the dealer's hand at the end of a round.
type HistoryDealer struct {
	Cards []string `json:"cards"`
	Total int      `json:"total"`
}

// HistoryBet is one of the player's bets in a round: its box and hand, its
// kind (main, double, split, insurance, challenge), stake, result and net,
// and the hand's total.
type HistoryBet struct {
	Box    int          `json:"box"`
	Hand   int          `json:"hand"`
	Kind   string       `json:"kind"`
	Stake  money.Amount `json:"stake"`
	Result string       `json:"result"`
	Net    money.Amount `json:"net"`
	Total  int          `json:"total"`
}

// Pages of a player's history at a table (GET /api/tables/{id}/history?limit=).
const (
	DefaultHistoryPage = 10
	MaxHistoryPage     = 50
)

// TableHistory lists up to limit of the settled or void rounds a player bet
// in at one table, the newest first, each with the dealer's hand and the
// player's own bets (read on the store's index of each player's rounds).
func TableHistory(ctx context.Context, st Log, u *sabot.User, table int64, limit int) ([]HistoryRound, error) {
	if limit < 1 || limit > MaxHistoryPage {
		return nil, sabot.Errorf(sabot.EINVALID, "a table's history is 1 to %d rounds, not %d", MaxHistoryPage, limit)
	}
	recs, err := st.Find(ctx, sabot.LogQuery{Kinds: []string{sabot.LogSettle, sabot.LogVoid}, UserID: u.ID, TableID: table, Newest: true, Limit: limit})
	if err != nil {
		return nil, err
	}
	out := []HistoryRound{}
	for _, r := range recs {
		var p tablelog.Settle
		if err := json.Unmarshal(r.Payload, &p); err != nil {
			return nil, sabot.Internal(err)
		}
		hr := HistoryRound{ID: RoundID(table, int(r.RoundNo)), No: int(r.RoundNo), At: r.Created, Void: p.Void,
			Dealer: HistoryDealer{Cards: []string{}, Total: rules.CountOf(p.Dealer...).Total()}, Bets: []HistoryBet{}, Net: p.Net[u.Name]}
		for _, c := range p.Dealer {
			hr.Dealer.Cards = append(hr.Dealer.Cards, c.String())
		}
		if len(p.Dealer) == 0 {
			hr.Dealer.Total = 0
		}
		for _, b := range p.Bets {
			if b.Player != u.Name {
				continue
			}
			hb := HistoryBet{Box: b.Box, Hand: b.Hand, Kind: b.Kind, Stake: b.Stake, Result: b.Result, Net: b.Net}
			for _, h := range p.Hands {
				if h.Box == b.Box && h.Hand == max(b.Hand, 1) {
					hb.Total = h.Total
				}
			}
			hr.Bets = append(hr.Bets, hb)
		}
		out = append(out, hr)
	}
	return out, nil
}
