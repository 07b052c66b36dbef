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
	"sabot/rules"
	"sabot/shoe"
)

// Game recall (GLI-19 §4.14, VE-22): every round is rebuilt from the table's
// log, with its shoe and position, every card, every decision with who made
// it (or "by timeout"), the settlement and the wallets before and after.

// RoundRecord is the full record of one round.
type RoundRecord struct {
	ID        string             `json:"id"`
	Table     int64              `json:"table"`
	TableName string             `json:"table_name"`
	Profile   string             `json:"profile"`
	Options   map[string]string  `json:"options,omitempty"`
	Round     int                `json:"round"`
	Shoe      string             `json:"shoe"`
	ShoePos   int                `json:"shoe_pos"`
	Test      bool               `json:"test,omitempty"`
	Forced    bool               `json:"forced,omitempty"`
	Dealt     time.Time          `json:"dealt"`
	Closed    time.Time          `json:"closed"`
	Bank      string             `json:"bank,omitempty"`
	Bets      []engine.PlacedBet `json:"bets"`
	Cards     []card.Card        `json:"cards"` // in the order drawn
	Decisions []Decision         `json:"decisions"`
	Dealer    []card.Card        `json:"dealer"`
	Hands     []handResult       `json:"hands"`
	Results   []betResult        `json:"results"`
	Net       map[string]int64   `json:"net"`
	House     int64              `json:"house"`
	Void      bool               `json:"void,omitempty"`
	Reason    string             `json:"reason,omitempty"`
	// WalletsAtDeal are the wallets when the round was dealt, its stakes
	// taken; WalletsAfter once its payouts were credited.
	WalletsAtDeal map[string]int64 `json:"wallets_at_deal"`
	WalletsAfter  map[string]int64 `json:"wallets_after"`
	Record        engine.Record    `json:"record"`
}

// Decision is one decision of a round as the log has it.
type Decision struct {
	Seq    int64      `json:"seq"`
	At     time.Time  `json:"at"`
	By     string     `json:"by"` // player, dealer or timeout
	Action WireAction `json:"action"`
}

// tableLog reads a table's configuration and log.
func tableLog(ctx context.Context, st sabot.Store, id int64) (*sabot.Table, []*sabot.LogRecord, error) {
	t, err := st.TableByID(ctx, id)
	if err != nil {
		return nil, nil, err
	}
	recs, err := st.Log(ctx, id, 1)
	return t, recs, err
}

// Recall returns a settled or void round's record, by its ID ("3-17"). A
// round in play is refused: its hidden cards are still secret.
func Recall(ctx context.Context, st sabot.Store, id string) (*RoundRecord, error) {
	tid, no, err := ParseRoundID(id)
	if err != nil {
		return nil, err
	}
	t, recs, err := tableLog(ctx, st, tid)
	if err != nil {
		return nil, err
	}
	return recallFrom(t, recs, no)
}

func recallFrom(t *sabot.Table, recs []*sabot.LogRecord, no int) (*RoundRecord, error) {
	rr := &RoundRecord{ID: RoundID(t.ID, no), Table: t.ID, TableName: t.Name, Profile: t.Profile, Options: t.Options, Round: no,
		Decisions: []Decision{}}
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

// ShoeReport is a shoe as the API shows it: its commitment from the start,
// its seed once it is over, and its rounds.
type ShoeReport struct {
	ID         string   `json:"id"`
	Commitment string   `json:"commitment"`
	Revealed   bool     `json:"revealed"`
	Seed       string   `json:"seed,omitempty"`
	Rounds     []string `json:"rounds"`
}

// ShoeInfo returns a shoe's commitment, its seed if revealed, its rounds.
func ShoeInfo(ctx context.Context, st sabot.Store, id string) (*ShoeReport, error) {
	tid, no, err := ParseRoundID(id)
	if err != nil {
		return nil, err
	}
	_, recs, err := tableLog(ctx, st, tid)
	if err != nil {
		return nil, err
	}
	rep := &ShoeReport{ID: ShoeID(tid, no), Rounds: []string{}}
	found := false
	for _, r := range recs {
		switch r.Kind {
		case sabot.LogShoe:
			var p shoePayload
			json.Unmarshal(r.Payload, &p)
			if p.Shoe == no {
				found, rep.Commitment = true, p.Commitment
			}
		case sabot.LogShoeReveal:
			var p revealPayload
			json.Unmarshal(r.Payload, &p)
			if p.Shoe == no {
				rep.Revealed, rep.Seed = true, p.Seed
			}
		case sabot.LogDeal:
			var p dealPayload
			json.Unmarshal(r.Payload, &p)
			if p.Shoe == no {
				rep.Rounds = append(rep.Rounds, RoundID(tid, p.Round))
			}
		}
	}
	if !found {
		return nil, sabot.Errorf(sabot.ENOTFOUND, "no shoe %s", rep.ID)
	}
	return rep, nil
}

// VerifyReport is the outcome of checking a shoe against its commitment.
type VerifyReport struct {
	Shoe       string   `json:"shoe"`
	Commitment string   `json:"commitment"`
	Matches    bool     `json:"commitment_matches"`
	Rounds     int      `json:"rounds_checked"`
	Cards      int      `json:"cards_checked"`
	Skipped    []string `json:"skipped,omitempty"` // forced (test-mode) rounds, not dealt from the shoe
	Problems   []string `json:"problems,omitempty"`
}

// OK reports whether the shoe verified.
func (v *VerifyReport) OK() bool { return v.Matches && len(v.Problems) == 0 }

// VerifyShoe checks a revealed shoe: the seed and the order it gives hash
// to the commitment published when the shoe started, and every round of the
// shoe drew exactly the next cards of that order (`sabot verify`).
func VerifyShoe(ctx context.Context, st sabot.Store, id string) (*VerifyReport, error) {
	tid, _, err := ParseRoundID(id)
	if err != nil {
		return nil, err
	}
	t, recs, err := tableLog(ctx, st, tid)
	if err != nil {
		return nil, err
	}
	info, err := ShoeInfo(ctx, st, id)
	if err != nil {
		return nil, err
	}
	if !info.Revealed {
		return nil, sabot.Errorf(sabot.ECONFLICT, "shoe %s is still in play: it is verified once its seed is revealed", info.ID)
	}
	_, shoeNo, _ := ParseRoundID(info.ID)
	p, err := profileOf(t.Profile, optionsAtShoe(t, recs, shoeNo))
	if err != nil {
		return nil, err
	}
	seed, err := parseSeed(info.Seed)
	if err != nil {
		return nil, sabot.Internal(err)
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
	for _, rid := range info.Rounds {
		_, n, _ := ParseRoundID(rid)
		rr, err := recallFrom(t, recs, n)
		if err != nil {
			rep.Problems = append(rep.Problems, fmt.Sprintf("round %s: %s", rid, sabot.ErrorMessage(err)))
			continue
		}
		if rr.Forced {
			rep.Skipped = append(rep.Skipped, rid)
			continue
		}
		for i, c := range rr.Cards {
			got, ok := sh.Draw()
			if !ok || got != c {
				rep.Problems = append(rep.Problems, fmt.Sprintf("round %s card %d: %v dealt, the shoe gives %v", rid, i+1, c, got))
				break
			}
			rep.Cards++
		}
		sh.Collect(rr.Cards...)
		rep.Rounds++
	}
	return rep, nil
}

// optionsAtShoe are a table's options when a shoe was prepared: those it
// was created with, or those a configuration change put in force.
func optionsAtShoe(t *sabot.Table, recs []*sabot.LogRecord, shoeNo int) map[string]string {
	for _, r := range recs {
		if r.Kind != sabot.LogShoe {
			continue
		}
		var p shoePayload
		if json.Unmarshal(r.Payload, &p) == nil && p.Shoe == shoeNo && p.Options != nil {
			return p.Options
		}
	}
	return t.Options
}

// ReplayReport is the outcome of replaying a recorded round.
type ReplayReport struct {
	Round    string           `json:"round"`
	Net      map[string]int64 `json:"net"`
	House    int64            `json:"house"`
	Void     bool             `json:"void,omitempty"`
	Problems []string         `json:"problems,omitempty"`
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
	ID      string    `json:"id"`
	Table   int64     `json:"table"`
	Name    string    `json:"name"`
	Profile string    `json:"profile"`
	Test    bool      `json:"test,omitempty"`
	Void    bool      `json:"void,omitempty"`
	At      time.Time `json:"at"`
	Net     int64     `json:"net"`
}

// PlayerRounds lists the last settled or void rounds a player bet in, the
// newest first (GLI-19 §4.14: a player recalls his own games). It reads the
// tables' logs; an index in the store would serve long logs faster.
func PlayerRounds(ctx context.Context, st sabot.Store, player string, limit int) ([]RoundSummary, error) {
	tables, err := st.Tables(ctx)
	if err != nil {
		return nil, err
	}
	out := []RoundSummary{}
	for _, t := range tables {
		if t.Profile == "" {
			continue // the significant-event log
		}
		recs, err := st.Log(ctx, t.ID, 1)
		if err != nil {
			return nil, err
		}
		played := map[int64]bool{}
		test := map[int64]bool{}
		for _, r := range recs {
			switch r.Kind {
			case sabot.LogDeal:
				var p dealPayload
				if err := json.Unmarshal(r.Payload, &p); err != nil {
					return nil, sabot.Internal(err)
				}
				for _, b := range p.Bets {
					played[r.RoundNo] = played[r.RoundNo] || b.Player == player
				}
				test[r.RoundNo] = p.Test
			case sabot.LogSettle, sabot.LogVoid:
				if !played[r.RoundNo] {
					continue
				}
				var p settlePayload
				if err := json.Unmarshal(r.Payload, &p); err != nil {
					return nil, sabot.Internal(err)
				}
				out = append(out, RoundSummary{ID: RoundID(t.ID, int(r.RoundNo)), Table: t.ID, Name: t.Name, Profile: t.Profile,
					Test: test[r.RoundNo], Void: p.Void, At: r.Created, Net: p.Net[player]})
			}
		}
	}
	sort.SliceStable(out, func(i, j int) bool { return out[i].At.After(out[j].At) })
	if len(out) > limit {
		out = out[:limit]
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
