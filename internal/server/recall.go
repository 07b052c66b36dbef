package server

import (
	"net/http"

	"sabot"
	"sabot/engine"
	"sabot/internal/actor"
	"sabot/internal/wire"
	"sabot/rules"
)

// Game recall is package recall; the server keeps the replay of a record
// it is sent, which answers in the table WebSocket's events.

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
	Events         []wire.Event      `json:"events"`
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
	p, err := actor.ProfileOf(req.Profile, req.Options)
	if err != nil {
		s.writeError(w, r, err)
		return
	}
	round, err := engine.Replay(p, req.Record)
	if err != nil {
		s.writeError(w, r, sabot.Errorf(sabot.EINVALID, "the record does not replay: %v", err))
		return
	}
	out := ReplayResult{Boxes: p.Boxes, BackBetsPerBox: p.BackBetsPerBox, Values: map[string]string{}, Events: []wire.Event{}}
	for _, o := range rules.Options() {
		out.Values[o.Key], _ = p.Get(o.Key)
	}
	for _, e := range round.Events() {
		out.Events = append(out.Events, actor.EventOf(e, req.Round, "player"))
	}
	writeJSON(w, http.StatusOK, out)
}
