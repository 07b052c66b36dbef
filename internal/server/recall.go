package server

import (
	"context"
	"encoding/json"
	"fmt"
	"net/http"
	"sort"
	"time"

	"sabot"
	"sabot/card"
	"sabot/engine"
	"sabot/money"
	"sabot/rules"
	"sabot/shoe"
)

// Game recall (GLI-19 §4.14, VE-22): every round is rebuilt from the table's
// log, with its shoe and position, every card, every decision with who made
// it (or "by timeout"), the settlement and the wallets before and after.

// roundKinds are the records of a round that recall reads.
var roundKinds = []string{sabot.LogDeal, sabot.LogAction, sabot.LogTimeout, sabot.LogSettle, sabot.LogVoid, sabot.LogCard, sabot.LogCardUndo, sabot.LogCutCard}

// Recall returns a settled or void round's record, by its ID ("3-17"). A
// round in play is refused: its hidden cards are still secret. It reads the
// round's records and the last configuration change before its deal, each
// on an index: its cost does not grow with the table's log.
func Recall(ctx context.Context, st sabot.Store, id string) (*RoundRecord, error) {
	tid, no, err := ParseRoundID(id)
	if err != nil {
		return nil, err
	}
	t, err := st.TableByID(ctx, tid)
	if err != nil {
		return nil, err
	}
	recs, err := st.Find(ctx, sabot.LogQuery{Kinds: roundKinds, TableID: tid, FromRound: int64(no), ToRound: int64(no)})
	if err != nil {
		return nil, err
	}
	for _, r := range recs {
		if r.Kind != sabot.LogDeal {
			continue
		}
		// The options in force: the last change before the deal.
		cfg, err := st.Find(ctx, sabot.LogQuery{Kinds: []string{sabot.LogConfigure}, TableID: tid, Before: r, Newest: true, Limit: 1})
		if err != nil {
			return nil, err
		}
		recs = append(cfg, recs...)
		break
	}
	return recallFrom(t, recs, no)
}

func recallFrom(t *sabot.Table, recs []*sabot.LogRecord, no int) (*RoundRecord, error) {
	rr := &RoundRecord{ID: RoundID(t.ID, no), Table: t.ID, TableName: t.Name, Profile: t.Profile, Options: t.Options, Round: no,
		Decisions: []Decision{}, Physical: t.Physical()}
	dealt, closed := false, false
	for _, r := range recs {
		if r.Kind == sabot.LogConfigure && !dealt {
			// The options in force: the last change before the deal.
			var p configurePayload
			if err := json.Unmarshal(r.Payload, &p); err != nil {
				return nil, sabot.Internal(err)
			}
			rr.Options = p.Options
		}
		if r.RoundNo != int64(no) {
			continue
		}
		switch r.Kind {
		case sabot.LogDeal:
			var p dealPayload
			if err := json.Unmarshal(r.Payload, &p); err != nil {
				return nil, sabot.Internal(err)
			}
			dealt = true
			rr.Shoe, rr.ShoePos, rr.Test, rr.Forced = ShoeID(t.ID, p.Shoe), p.ShoePos, p.Test, p.Forced != nil
			rr.Dealt, rr.Bets, rr.WalletsAtDeal, rr.Bank = r.Created, p.Bets, p.Wallets, p.Bank
		case sabot.LogAction, sabot.LogTimeout:
			var p actionPayload
			if err := json.Unmarshal(r.Payload, &p); err != nil {
				return nil, sabot.Internal(err)
			}
			by := "player"
			switch {
			case p.ByTimeout:
				by = "timeout"
			case r.UserID == 0:
				by = "dealer"
			}
			rr.Decisions = append(rr.Decisions, Decision{Seq: r.Seq, At: r.Created, By: by, Action: p.Action})
		case sabot.LogCard, sabot.LogCardUndo:
			var p cardPayload
			if err := json.Unmarshal(r.Payload, &p); err != nil {
				return nil, sabot.Internal(err)
			}
			kind := "card"
			if r.Kind == sabot.LogCardUndo {
				kind = "undo"
			}
			rr.Readings = append(rr.Readings, Reading{Seq: r.Seq, At: r.Created, Kind: kind, Card: p.Card.String(), By: p.By, Device: p.Device})
		case sabot.LogCutCard:
			var p cutPayload
			if err := json.Unmarshal(r.Payload, &p); err != nil {
				return nil, sabot.Internal(err)
			}
			rr.Readings = append(rr.Readings, Reading{Seq: r.Seq, At: r.Created, Kind: "cut-card", By: p.By})
		case sabot.LogSettle, sabot.LogVoid:
			var p settlePayload
			if err := json.Unmarshal(r.Payload, &p); err != nil {
				return nil, sabot.Internal(err)
			}
			closed = true
			rr.Closed, rr.Void, rr.Reason = r.Created, p.Void, p.Reason
			rr.Record, rr.Cards, rr.Dealer, rr.Hands, rr.Results = p.Record, p.Record.Cards, p.Dealer, p.Hands, p.Bets
			rr.Net, rr.House, rr.WalletsAfter = p.Net, p.House, p.Wallets
		}
	}
	switch {
	case !dealt:
		return nil, sabot.Errorf(sabot.ENOTFOUND, "no round %s", rr.ID)
	case !closed:
		return nil, sabot.Errorf(sabot.ECONFLICT, "round %s is in play: it is recalled once settled", rr.ID)
	}
	return rr, nil
}

// Pages of a shoe's rounds (GET /api/shoes/{id}?limit=&after=).
const (
	DefaultShoePage = 100 // a shoe of 8 decks plays about 80 rounds
	MaxShoePage     = 200
)

// ShoeInfo returns a page of a shoe: its commitment, its seed if revealed,
// up to limit of its rounds after round after (0: from the first), with
// their cards once the seed is revealed. Every record it reads is found on
// an index (the shoe's, the rounds'): its cost follows the page, not the
// table's log.
func ShoeInfo(ctx context.Context, st sabot.Store, id string, after, limit int) (*ShoeReport, error) {
	tid, no, err := ParseRoundID(id)
	if err != nil {
		return nil, err
	}
	if limit < 1 || limit > MaxShoePage || after < 0 {
		return nil, sabot.Errorf(sabot.EINVALID, "a page of a shoe is 1 to %d rounds after a round of it", MaxShoePage)
	}
	t, err := st.TableByID(ctx, tid)
	if err != nil {
		return nil, err
	}
	rep := &ShoeReport{ID: ShoeID(tid, no), Profile: t.Profile, Options: t.Options, Rounds: []string{}}
	heads, err := st.Find(ctx, sabot.LogQuery{Kinds: []string{sabot.LogShoe, sabot.LogShoeReveal}, TableID: tid, Shoe: int64(no)})
	if err != nil {
		return nil, err
	}
	found := false
	for _, r := range heads {
		switch r.Kind {
		case sabot.LogShoe:
			var p shoePayload
			if err := json.Unmarshal(r.Payload, &p); err != nil {
				return nil, sabot.Internal(err)
			}
			found, rep.Commitment = true, p.Commitment
			if p.Options != nil {
				rep.Options = p.Options // a configuration change had changed them
			}
		case sabot.LogShoeReveal:
			var p revealPayload
			if err := json.Unmarshal(r.Payload, &p); err != nil {
				return nil, sabot.Internal(err)
			}
			rep.Revealed, rep.Seed = true, p.Seed
		}
	}
	if !found {
		return nil, sabot.Errorf(sabot.ENOTFOUND, "no shoe %s", rep.ID)
	}
	deals, err := st.Find(ctx, sabot.LogQuery{Kinds: []string{sabot.LogDeal}, TableID: tid, Shoe: int64(no), FromRound: int64(after) + 1, Limit: limit + 1})
	if err != nil {
		return nil, err
	}
	if len(deals) > limit {
		deals = deals[:limit]
		rep.Next = RoundID(tid, int(deals[limit-1].RoundNo))
	}
	for _, d := range deals {
		rep.Rounds = append(rep.Rounds, RoundID(tid, int(d.RoundNo)))
	}
	if !rep.Revealed || len(deals) == 0 {
		return rep, nil
	}
	// The rounds' cards: their settlements, on the rounds' index.
	closes, err := st.Find(ctx, sabot.LogQuery{Kinds: []string{sabot.LogSettle, sabot.LogVoid}, TableID: tid,
		FromRound: deals[0].RoundNo, ToRound: deals[len(deals)-1].RoundNo})
	if err != nil {
		return nil, err
	}
	cards := map[int64][]card.Card{}
	for _, r := range closes {
		var p struct { // of settlePayload, the cards
			Record struct {
				Cards []card.Card `json:"cards"`
			} `json:"record"`
		}
		if err := json.Unmarshal(r.Payload, &p); err != nil {
			return nil, sabot.Internal(err)
		}
		cards[r.RoundNo] = p.Record.Cards
	}
	for _, d := range deals {
		var p struct { // of dealPayload, whether the cards were forced
			Forced []card.Card `json:"forced"`
		}
		if err := json.Unmarshal(d.Payload, &p); err != nil {
			return nil, sabot.Internal(err)
		}
		c, closed := cards[d.RoundNo]
		if c == nil {
			c = []card.Card{}
		}
		rep.Dealt = append(rep.Dealt, DealtRound{Round: RoundID(tid, int(d.RoundNo)), Forced: p.Forced != nil, Closed: closed, Cards: c})
	}
	return rep, nil
}

// VerifyShoe checks a revealed shoe in the store: the seed and the order it
// gives hash to the commitment published when the shoe started, and every
// round of the shoe drew exactly the next cards of that order (`sabot
// verify --db`).
func VerifyShoe(ctx context.Context, st sabot.Store, id string) (*VerifyReport, error) {
	info, err := WholeShoe(func(after int) (*ShoeReport, error) { return ShoeInfo(ctx, st, id, after, MaxShoePage) })
	if err != nil {
		return nil, err
	}
	return CheckShoe(info)
}

// WholeShoe reads every page of a shoe (page gives the one after a round)
// into one report.
func WholeShoe(page func(after int) (*ShoeReport, error)) (*ShoeReport, error) {
	info, err := page(0)
	if err != nil {
		return nil, err
	}
	for next := info.Next; next != ""; {
		_, after, err := ParseRoundID(next)
		if err != nil {
			return nil, err
		}
		more, err := page(after)
		if err != nil {
			return nil, err
		}
		if more.Next != "" && more.Next == next {
			return nil, sabot.Errorf(sabot.EINVALID, "the pages of shoe %s do not move on from %s", info.ID, next)
		}
		info.Rounds = append(info.Rounds, more.Rounds...)
		info.Dealt = append(info.Dealt, more.Dealt...)
		next = more.Next
	}
	info.Next = ""
	return info, nil
}

// CheckShoe checks a revealed shoe from its report (ShoeInfo, or GET
// /api/shoes/{id}, every page): the seed and the order it gives hash to the
// commitment, and every round drew exactly the next cards of that order.
func CheckShoe(info *ShoeReport) (*VerifyReport, error) {
	if !info.Revealed {
		return nil, sabot.Errorf(sabot.ECONFLICT, "shoe %s is still in play: it is verified once its seed is revealed", info.ID)
	}
	p, err := profileOf(info.Profile, info.Options)
	if err != nil {
		return nil, err
	}
	seed, err := parseSeed(info.Seed)
	if err != nil {
		return nil, sabot.Errorf(sabot.EINVALID, "shoe %s: %v", info.ID, err)
	}
	order, err := ShoeOrder(p, seed)
	if err != nil {
		return nil, sabot.Internal(err)
	}
	rep := &VerifyReport{Shoe: info.ID, Commitment: info.Commitment, Matches: Commitment(seed, order) == info.Commitment}
	if !rep.Matches {
		rep.Problems = append(rep.Problems, "the revealed seed does not give the committed order")
	}
	// Deal the shoe again, as the table did, and compare each round's cards.
	sh := shoe.New(p.Decks, seed)
	if _, err := sh.Prepare(p.ShoeProcedure(), 0); err != nil {
		return nil, sabot.Internal(err)
	}
	for _, d := range info.Dealt {
		if !d.Closed {
			rep.Problems = append(rep.Problems, fmt.Sprintf("round %s: not settled in the log", d.Round))
			continue
		}
		if d.Forced {
			rep.Skipped = append(rep.Skipped, d.Round)
			continue
		}
		for i, c := range d.Cards {
			got, ok := sh.Draw()
			if !ok || got != c {
				rep.Problems = append(rep.Problems, fmt.Sprintf("round %s card %d: %v dealt, the shoe gives %v", d.Round, i+1, c, got))
				break
			}
			rep.Cards++
		}
		sh.Collect(d.Cards...)
		rep.Rounds++
	}
	if len(info.Dealt) != len(info.Rounds) {
		rep.Problems = append(rep.Problems, fmt.Sprintf("%d rounds, the cards of %d", len(info.Rounds), len(info.Dealt)))
	}
	return rep, nil
}

// ReplayReport is the outcome of replaying a recorded round.
type ReplayReport struct {
	Round    string                  `json:"round"`
	Net      map[string]money.Amount `json:"net"`
	House    money.Amount            `json:"house"`
	Void     bool                    `json:"void,omitempty"`
	Problems []string                `json:"problems,omitempty"`
}

// OK reports whether the replay matched.
func (r *ReplayReport) OK() bool { return len(r.Problems) == 0 }

// ReplayRound plays a recorded round again through the engine
// (engine.Replay) and checks the stored result (`sabot replay`).
func ReplayRound(ctx context.Context, st sabot.Store, id string) (*ReplayReport, *RoundRecord, error) {
	rr, err := Recall(ctx, st, id)
	if err != nil {
		return nil, nil, err
	}
	p, err := profileOf(rr.Profile, rr.Options)
	if err != nil {
		return nil, nil, err
	}
	rep := &ReplayReport{Round: rr.ID}
	r, err := engine.Replay(p, rr.Record)
	if err != nil {
		rep.Problems = append(rep.Problems, err.Error())
		return rep, rr, nil
	}
	if r.Phase() != engine.Done {
		rep.Problems = append(rep.Problems, "the replayed round is not over: "+r.Phase().String())
	}
	rep.Net, rep.House = r.Net()
	rep.Void, _ = r.Void()
	if rep.Void != rr.Void {
		rep.Problems = append(rep.Problems, fmt.Sprintf("void: replayed %v, stored %v", rep.Void, rr.Void))
	}
	if rep.House != rr.House {
		rep.Problems = append(rep.Problems, fmt.Sprintf("house: replayed %d, stored %d", rep.House, rr.House))
	}
	names := map[string]bool{}
	for k := range rep.Net {
		names[k] = true
	}
	for k := range rr.Net {
		names[k] = true
	}
	keys := make([]string, 0, len(names))
	for k := range names {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	for _, k := range keys {
		if rep.Net[k] != rr.Net[k] {
			rep.Problems = append(rep.Problems, fmt.Sprintf("%s: replayed net %d, stored %d", k, rep.Net[k], rr.Net[k]))
		}
	}
	return rep, rr, nil
}

// RoundSummary is one line of a player's list of rounds.
type RoundSummary struct {
	ID      string       `json:"id"`
	Table   int64        `json:"table"`
	Name    string       `json:"name"`
	Profile string       `json:"profile"`
	Test    bool         `json:"test,omitempty"`
	Void    bool         `json:"void,omitempty"`
	At      time.Time    `json:"at"`
	Net     money.Amount `json:"net"`
}

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
func PlayerRounds(ctx context.Context, st sabot.Store, u *sabot.User, before string, limit int) ([]RoundSummary, error) {
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
	out := []RoundSummary{}
	for _, r := range recs {
		t := tables[r.TableID]
		if t == nil {
			if t, err = st.TableByID(ctx, r.TableID); err != nil {
				return nil, err
			}
			tables[r.TableID] = t
		}
		var p struct { // of settlePayload, what a summary shows
			Void bool                    `json:"void"`
			Net  map[string]money.Amount `json:"net"`
		}
		if err := json.Unmarshal(r.Payload, &p); err != nil {
			return nil, sabot.Internal(err)
		}
		out = append(out, RoundSummary{ID: RoundID(t.ID, int(r.RoundNo)), Table: t.ID, Name: t.Name, Profile: t.Profile,
			Test: t.TestMode, Void: p.Void, At: r.Created, Net: p.Net[u.Name]})
	}
	return out, nil
}

// ReplayRequest is a recorded round to replay: the profile, options and
// record of a round's recall (GET /api/rounds/{id}).
type ReplayRequest struct {
	Profile string            `json:"profile"`
	Options map[string]string `json:"options,omitempty"`
	Round   int               `json:"round,omitempty"`
	Record  engine.Record     `json:"record"`
}

// ReplayResult is a replayed round's events, in the table WebSocket's shape
// (docs/protocol.md), and the layout of its table.
type ReplayResult struct {
	Boxes          int               `json:"boxes"`
	BackBetsPerBox int               `json:"back_bets_per_box"`
	Values         map[string]string `json:"values"` // every option's value
	Events         []Event           `json:"events"`
}

// handleReplay serves POST /api/replay: the record of a settled round, played
// again through the engine (engine.Replay), returns every event in order, so
// that the web client shows the round step by step (GLI-19 §4.14). It only
// computes on what it is sent; a record that does not replay is refused.
func (s *Server) handleReplay(w http.ResponseWriter, r *http.Request) {
	var req ReplayRequest
	if err := decodeLimit(r, &req, 1<<18); err != nil {
		s.writeError(w, r, err)
		return
	}
	p, err := profileOf(req.Profile, req.Options)
	if err != nil {
		s.writeError(w, r, err)
		return
	}
	round, err := engine.Replay(p, req.Record)
	if err != nil {
		s.writeError(w, r, sabot.Errorf(sabot.EINVALID, "the record does not replay: %v", err))
		return
	}
	out := ReplayResult{Boxes: p.Boxes, BackBetsPerBox: p.BackBetsPerBox, Values: map[string]string{}, Events: []Event{}}
	for _, o := range rules.Options() {
		out.Values[o.Key], _ = p.Get(o.Key)
	}
	for _, e := range round.Events() {
		out.Events = append(out.Events, eventOf(e, req.Round, "player"))
	}
	writeJSON(w, http.StatusOK, out)
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
func TableHistory(ctx context.Context, st sabot.Store, u *sabot.User, table int64, limit int) ([]HistoryRound, error) {
	if limit < 1 || limit > MaxHistoryPage {
		return nil, sabot.Errorf(sabot.EINVALID, "a table's history is 1 to %d rounds, not %d", MaxHistoryPage, limit)
	}
	recs, err := st.Find(ctx, sabot.LogQuery{Kinds: []string{sabot.LogSettle, sabot.LogVoid}, UserID: u.ID, TableID: table, Newest: true, Limit: limit})
	if err != nil {
		return nil, err
	}
	out := []HistoryRound{}
	for _, r := range recs {
		var p settlePayload
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
