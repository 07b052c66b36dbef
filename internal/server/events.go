package server

import (
	"context"
	"fmt"
	"sabot/internal/actor"
	"sabot/internal/tablelog"

	"sabot"
)

// The significant-event log (GLI-19): the events that belong to no table
// (credits, tables created, staff, blocks, the wallet's), written to a
// log of their own; recall words them for the pit.

// systemLog returns the ID of the significant-event log, creating it.
func (s *Server) systemLog(ctx context.Context) (int64, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.system != 0 {
		return s.system, nil
	}
	ts, err := s.Store.Tables(ctx)
	if err != nil {
		return 0, err
	}
	for _, t := range ts {
		if t.IsEventLog() {
			s.system = t.ID
			return t.ID, nil
		}
	}
	t := sabot.EventLog()
	if err := s.Store.CreateTable(ctx, t); err != nil {
		return 0, err
	}
	s.system = t.ID
	return t.ID, nil
}

// event writes a significant event to the system log, with its postings.
func (s *Server) event(ctx context.Context, u *sabot.User, p tablelog.Event, ps []sabot.Posting, commandID string) (*sabot.LogRecord, bool, error) {
	return s.eventWith(ctx, u, p, ps, nil, commandID)
}

// eventCalls writes a significant event with the calls to the operator's
// wallet it causes (operator.go), in one transaction.
func (s *Server) eventCalls(ctx context.Context, u *sabot.User, p tablelog.Event, calls []sabot.WalletCall) (*sabot.LogRecord, bool, error) {
	return s.eventWith(ctx, u, p, nil, calls, "")
}

func (s *Server) eventWith(ctx context.Context, u *sabot.User, p tablelog.Event, ps []sabot.Posting, calls []sabot.WalletCall, commandID string) (*sabot.LogRecord, bool, error) {
	return s.eventRecord(ctx, u, p, ps, calls, commandID, nil)
}

// eventGuarded writes a significant event whose postings a guard checks in
// their transaction (a credit against the player's deposit limits).
func (s *Server) eventGuarded(ctx context.Context, u *sabot.User, p tablelog.Event, ps []sabot.Posting, commandID string, guard *sabot.StakeGuard) (*sabot.LogRecord, bool, error) {
	return s.eventRecord(ctx, u, p, ps, nil, commandID, guard)
}

func (s *Server) eventRecord(ctx context.Context, u *sabot.User, p tablelog.Event, ps []sabot.Posting, calls []sabot.WalletCall, commandID string, guard *sabot.StakeGuard) (*sabot.LogRecord, bool, error) {
	id, err := s.systemLog(ctx)
	if err != nil {
		return nil, false, err
	}
	rec := &sabot.LogAppend{LogRecord: &sabot.LogRecord{TableID: id, Kind: sabot.LogAdmin, Payload: actor.MustJSON(p), Created: s.now(), CommandID: commandID}, Calls: calls, Guard: guard}
	if u != nil {
		rec.UserID, rec.ClientID = u.ID, fmt.Sprint(u.ID)
	}
	dup, err := s.Store.Append(ctx, rec, ps)
	if err != nil && (guard == nil || sabot.ErrorCode(err) != sabot.EFORBIDDEN) { // a guard's refusal is no fault
		s.logger().Error("significant event not written", "event", p.EventName(), "err", err)
	}
	return rec.LogRecord, dup, err
}
