package server

import (
	"context"
	"encoding/json"
	"fmt"
	"maps"
	"slices"
	"strings"
	"time"

	"sabot"
)

// EventView is one entry of the significant-event log.
type EventView struct {
	Table   int64           `json:"table"` // the table whose log has it; the system log for credits and tables created
	Seq     int64           `json:"seq"`
	Kind    string          `json:"kind"` // table-opened, admin, configure, void, timeout
	At      time.Time       `json:"at"`
	UserID  int64           `json:"user_id,omitempty"` // who did it; 0 for the server
	Round   int64           `json:"round,omitempty"`
	Summary string          `json:"summary"` // the event in a line
	Payload json.RawMessage `json:"payload"`
}

// EventQuery selects significant events: of one table (0: all), at or
// after Since, at most Limit (0: all), the newest first.
type EventQuery struct {
	Table int64
	Since time.Time
	Limit int
}

// Events reads the significant-event log (GLI-19): every table's voids,
// decisions applied by timeout, pit actions and configuration changes,
// and the credits, tables created and administrators created of the
// system log, the newest first (`GET /api/admin/events`, `sabot events`).
func Events(ctx context.Context, st sabot.Store, q EventQuery) ([]EventView, error) {
	recs, err := st.Find(ctx, sabot.LogQuery{Kinds: sabot.SignificantKinds, TableID: q.Table, Since: q.Since, Limit: q.Limit, Newest: true})
	if err != nil {
		return nil, err
	}
	out := make([]EventView, len(recs))
	for i, r := range recs {
		out[i] = EventView{Table: r.TableID, Seq: r.Seq, Kind: r.Kind, At: r.Created, UserID: r.UserID, Round: r.RoundNo,
			Summary: summarize(r), Payload: r.Payload}
	}
	return out, nil
}

// summarize says a significant event in a line.
func summarize(r *sabot.LogRecord) string {
	switch r.Kind {
	case sabot.LogTableOpened:
		var p openedPayload
		json.Unmarshal(r.Payload, &p)
		return fmt.Sprintf("table %q opened: %s%s%s", p.Name, p.Profile, optionText(p.Options), map[bool]string{true: " (test mode)"}[p.TestMode])
	case sabot.LogConfigure:
		var p configurePayload
		json.Unmarshal(r.Payload, &p)
		s := describeChange(p) + " (by " + p.By
		if p.Reason != "" {
			s += ": " + p.Reason
		}
		s += ")"
		for _, b := range p.Returned {
			s += fmt.Sprintf("; %s's bet of %s on box %d returned", b.Player, b.Stake, b.Box)
		}
		return s
	case sabot.LogVoid:
		var p settlePayload
		json.Unmarshal(r.Payload, &p)
		if p.Closed {
			return "table out of service, every stake returned: " + p.Reason
		}
		return fmt.Sprintf("round %d void, every stake returned: %s", p.Round, p.Reason)
	case sabot.LogTimeout:
		var p actionPayload
		json.Unmarshal(r.Payload, &p)
		a := p.Action
		if a.Player == "" || a.Box == 0 {
			return fmt.Sprintf("round %d: time ran out; the dealer applied %s", p.Round, a.Kind)
		}
		return fmt.Sprintf("round %d: time ran out; %s box %d hand %d: %s applied by default", p.Round, a.Player, a.Box, max(a.Hand, 1), a.Kind)
	case sabot.LogAdmin:
		var p adminPayload
		json.Unmarshal(r.Payload, &p)
		parts := []string{p.Event}
		if p.User != "" {
			parts = append(parts, p.User)
		}
		if p.Amount != 0 {
			parts = append(parts, p.Amount.String())
		}
		if p.Round != 0 {
			parts = append(parts, fmt.Sprintf("round %d", p.Round))
		}
		if len(p.Cards) > 0 {
			parts = append(parts, fmt.Sprintf("%d cards", len(p.Cards)))
		}
		s := strings.Join(parts, " ")
		if p.Text != "" {
			s += ": " + p.Text
		} else if p.Memo != "" {
			s += ": " + p.Memo
		}
		return s
	}
	return r.Kind
}

func optionText(opts map[string]string) string {
	s := ""
	for _, k := range slices.Sorted(maps.Keys(opts)) {
		s += " " + k + "=" + opts[k]
	}
	return s
}
